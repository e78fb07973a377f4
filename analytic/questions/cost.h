/* cost.h: what an analytic question will cost, estimated before any
 * stationary solve, so that a question too large for the machine is
 * refused at once (BB_ETOOBIG, naming what to change) instead of running
 * for hours or until memory runs out.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The unit is one multiply-add.  One evaluation at buffer size S:
 *  - the FFT solver (fftwh.h): BBA_COST_FFT_STEPS GMRES steps (it takes
 *    8 to 12 where it converges; its bound, krylov_max_iter, is no
 *    estimate), each an FFT convolution of N = S + M + 1 points, 5 N log2
 *    N; a lazy chain with a threshold inside the buffer is two regions,
 *    each its own convolutions in the product and the preconditioner, so
 *    twice that per step, and BBA_COST_FFT_LAZY_STEPS steps, the
 *    threshold's crossing being what neither region's Wiener-Hopf factor
 *    preconditions (measured, docs/bounds.md: 10 to 27 steps where greedy
 *    takes 4 to 10, 40 to 120 at a load of 0.9 where greedy takes 14);
 *    plus, at sizes where the idle fraction exp(-theta* S) underflows
 *    (theta* S >= BBA_COST_UNDERFLOW) and GMRES stalls, its banded GTH
 *    fallback (measured on the default workload: 230468 states, 23 s of
 *    banded GTH after GMRES gave up);
 *  - banded GTH (stationary.h): (S + 1) w^2, w = max(B, M - B) + 1 the
 *    band, the overflow states censored (an upper bound on its
 *    (S + 1) B (M - B) that tracks time better: measured on the default
 *    workload, 230468 states at R = 100, 8.3e10, 23 s of CPU; its report
 *    at --points 5 --solver banded, R = 800, 36 solves up to 2160 quanta,
 *    1.1e12 in all, 123 s);
 *  - UMFPACK and Gauss-Seidel: N w (one sweep; UMFPACK's fill is its own
 *    memory estimate's business);
 *  - the ON/OFF chain (onoff.h): the damped power steps that relax its
 *    slowest mode, ln(1/tol) max(L (1 - p), T / BBA_COST_SMOOTH_DAMP):
 *    the phase of the class with the longest bursts (L time units, Pr(ON)
 *    = p: the phase mode decays at 1 - 1/(L (1 - p)) per step), or the
 *    buffer level's walk, which the aggregation does not relax (measured:
 *    the residual falls 8x per 1,024 steps at S = 20,000 on the seed-2
 *    workload of docs/bounds.md, whatever the level solves): its relaxation T = 1 /
 *    (mu^2 / (2 sigma^2) + pi^2 sigma^2 / S^2) time units, mu = B - E the
 *    drift, sigma^2 = sum b^2 p (1 - p) (2 L (1 - p) - 1) the load's
 *    asymptotic variance per unit (a walk with drift relaxes in 2 sigma^2
 *    / mu^2, one confined to S levels in S^2 / (pi^2 sigma^2));
 *    each step (S + 1) P (M0 + 1 + sum_c (N_c + 1))
 *    plus (S + 1) W, W = M + 1 the level chain's band: the smoothing is
 *    raised to the cost of one banded level solve, so the level solves
 *    cost about as much per step (measured: 2 classes of 2 to 90-unit
 *    bursts, 4 to 5 x 10^9 of these operations per second, as the FFT
 *    path's).  Measured (docs/bounds.md): `size` on the seed-2 workload of
 *    `generate --apps 3 --burst 10 --load 0.7 --p-max 0.3` was estimated
 *    at 47 s with the phase term alone and ran over 10 minutes.
 * A size search: the size it will reach, from the large-deviation decay
 * rate theta* of the idle fraction (Chernoff for the Bernoulli chain,
 * effective bandwidths for the ON/OFF chain, effbw.h), S ~ ln(1/target) /
 * theta*, over the greedy part 1 - f of the buffer under a lazy threshold
 * f; evaluations 2 log2(S / max(B, M - B)) + 6 (sizing.h), each at most
 * the cost at S.  These are estimates, not bounds: good to a small factor
 * where the searches behave as sizing.h says, which is what the refusal
 * needs (runs beyond it are orders of magnitude beyond). */
#ifndef BBSIZE_ANALYTIC_COST_H
#define BBSIZE_ANALYTIC_COST_H

#include "sizing.h"

/* The default bound on one question's multiply-adds (minutes). */
#define BBA_COST_MAX_OPS_DEFAULT 1e12
/* GMRES steps an FFT solve is costed at (a few times what it takes). */
#define BBA_COST_FFT_STEPS 30.0
/* The same for a lazy chain's two regions (about what it takes). */
#define BBA_COST_FFT_LAZY_STEPS 60.0
/* theta* S beyond which the idle fraction underflows (ln 1e-308). */
#define BBA_COST_UNDERFLOW 708.0
/* Multiply-adds per second of CPU, to turn an estimate into time: the
 * measurements above give 3.6e9 (banded GTH, default workload), 4e9 to
 * 5e9 (ON/OFF chain) and 9e9 (the report's solves); an order of
 * magnitude, not a promise. */
#define BBA_COST_OPS_PER_S 4e9
/* The weight of x P in the ON/OFF chain's damped power steps (the direct
 * path's, onoff_solve.c SMOOTH_DAMP): a mode decays at 1 - 0.8 / T. */
#define BBA_COST_SMOOTH_DAMP 0.8

typedef struct {
    double ops;          /* multiply-adds of the whole question */
    double S_quanta;     /* the largest size it solves at */
    double states;       /* of the largest chain */
    int evaluations;     /* stationary solves expected */
    double power_steps;  /* ON/OFF chain: damped power steps per solve (0
                            for the other models) */
    double burst_units;  /* ON/OFF chain: the slowest class's L (1 - p) */
    double walk_units;   /* ON/OFF chain: the level walk's relaxation T when
                            it, not the phases, sets the steps; else 0 */
} bba_cost;

/* bba_cost_eval: one evaluation of m at size S (quanta) with solver so
 * under draining policy pol (NULL: greedy; only whether it is lazy with
 * a threshold above 0 is read).  O(M x 100) (the decay rate, for the FFT
 * solver's fallback). */
void bba_cost_eval(const bba_model *m, long S, const bba_solver_opts *so, const bb_drain *pol,
                   bba_cost *c);

/* bba_cost_decay: theta*, the decay rate per quantum of m's idle fraction
 * with the size (0: none, E >= B; INFINITY: no load exceeds B).
 * O(M x 100).  bba_cost_eval_decay: bba_cost_eval with it given, O(1),
 * for many sizes of one model. */
double bba_cost_decay(const bba_model *m);
void bba_cost_eval_decay(const bba_model *m, long S, const bba_solver_opts *so,
                         const bb_drain *pol, double theta, bba_cost *c);

/* bba_cost_search: bba_size_min on m for target under ps.  O(M x 100)
 * (the decay rate by bisection).  When no size is reachable by the
 * estimate (E >= B, or a lazy threshold at the whole buffer), the search
 * refuses or stops early on its own and the cost is one evaluation. */
void bba_cost_search(const bba_model *m, double target, const bb_drain *ps,
                     const bba_solver_opts *so, bba_cost *c);

/* bba_cost_settle: BB_OK when settling the resolution fits max_ops: a
 * size search (bba_cost_search) at each of R, 2R, ... up to R_max, the
 * worst case, each costing twice the one before (S and M double with R);
 * else BB_ETOOBIG naming --resolution (give one: no settling) and the
 * rest as bba_cost_check.  m is the model at R. */
int bba_cost_settle(const bba_model *m, double target, const bb_drain *ps,
                    const bba_solver_opts *so, long R, long R_max, char *err);

/* bba_cost_fluid: the fluid model's build and one size search (fluid.h
 * bba_fluid_estimate: phases P, flops, counted as multiply-adds) against
 * so->max_ops, then so->announce; BB_ETOOBIG naming the phases and what
 * shrinks them otherwise.  O(1).  Measured (bbsize size, 12 distinct
 * ON/OFF sources, 4,096 phases): estimated 2.3e11, about 58 s at
 * BBA_COST_OPS_PER_S; docs/bounds.md. */
int bba_cost_fluid(double phases, double flops, const bba_solver_opts *so, char *err);

/* bba_cost_dist: the load distribution DIST (dist.h, Algorithm 1) of n
 * applications over M + 1 loads, n (M + 1) multiply-adds, plus rows of
 * `dist --csv` (each a Chernoff bound pair: measured 5.3 us of CPU a row,
 * 988,001 rows in 5.3 s, so BBA_COST_DIST_ROW multiply-adds) against
 * so->max_ops, then so->announce for rows only (the build is part of the
 * solves announced after it).  BB_ETOOBIG names the resolution and the
 * bound.  O(1). */
#define BBA_COST_DIST_ROW 2e4
int bba_cost_dist(size_t n, long M, long rows, const bba_solver_opts *so, char *err);

/* bba_cost_admit: bba_cost_check against so->max_ops, then, when it
 * passes, so->announce (when set) with c->ops.  Every solve and
 * search is admitted through it, so that a caller hears the estimate
 * before a long run. */
int bba_cost_admit(const bba_model *m, const bba_cost *c, const bba_solver_opts *so,
                   const char *what, char *err);

/* bba_cost_check: BB_OK when c->ops <= max_ops (0: no bound), else
 * BB_ETOOBIG with a message saying what would be solved ("what", e.g.
 * "the size search") and what shrinks it, named as quantities (bb_error.h):
 * a coarser time unit or the fluid model for ON/OFF bursts, a lower
 * resolution, a larger target idle fraction or lower lazy threshold for a
 * search, or a higher operation bound.  m is
 * not read (may be NULL). */
int bba_cost_check(const bba_model *m, const bba_cost *c, double max_ops, const char *what,
                   char *err);

#endif
