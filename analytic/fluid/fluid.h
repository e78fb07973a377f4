/* fluid.h: the continuous-time limit of the ON/OFF burst-buffer chain, a
 * finite-buffer Markov-modulated fluid queue, solved exactly.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Model (the simulator's fluid mode follows the same rules): classes
 * of identical ON/OFF sources (ON periods exponential with mean L seconds,
 * Pr(ON) = p, rate b bytes/s while ON); a phase is the number of sources
 * ON per class, P = prod_c (N_c + 1) phases, generator Q (a Kronecker sum
 * of birth-death chains, reversible).  In phase f the sources offer r_f;
 * the buffer content X in [0, S] moves at
 *   min(r_f - B, B_BB)   r_f > B (at S it stays),
 *   r_f - B              r_f < B (at 0 it stays), times EPS below a lazy
 *                        threshold T,
 *   0                    r_f = B (to rounding: |r_f - B| <= 1e-12 B).
 * Writers wait (issue 35): an I/O phase is a volume.  At S a phase with
 * r_f > B writes B, each writer its share c_f = B / r_f, and its phase
 * advances at that share (ON -> OFF rate c_f / L): the atoms at S see the
 * generator Q^S.  Below S, where r_f > B + B_BB, the share is
 * c'_f = (B + B_BB) / r_f: the interior generator is Q' (Q where B_BB
 * binds nowhere).  OFF sources compute on.  No byte is lost.
 *
 * Method (fluid_spec.c, fluid_solve.c; docs/fluid.md): in a region of
 * constant drifts D the density is a sum of modes phi_k e^{z_k x}, with
 * phi_k Q' = z_k phi_k D (Anick, Mitra and Sondhi 1982).  Without a binding
 * B_BB, Q' = Q is reversible and D diagonal, so every z_k is real.  Greedy
 * the drift is then additive over classes and the spectrum is separable
 * (Stern and Elwalid 1991): each z_k is the root of a scalar equation on
 * one half line and phi_k a Kronecker product of class vectors, P C
 * operations per mode; below a lazy threshold the pencil is symmetrised by
 * Pi^(1/2) and solved by two dense symmetric eigendecompositions (LAPACK
 * dsyevd).  Where B_BB binds Q' is not reversible: the general route
 * (LAPACK dgeev, fluid_gen.c) carries complex pairs as two real modes and
 * every size solves the whole boundary system.  The laws of Q^S (S = 0,
 * or no phase below B) and of Q' come from state reduction in the band
 * of the largest stride w (P w^2 flops).  Phases with zero drift are
 * censored out of the spectrum (their density follows algebraically) and
 * keep atoms at both ends.  A class whose rarest ON counts have
 * probabilities below 2^-900 (no pi^1/2 weight for the dense spectra) is
 * truncated to the others, its chain stopped there (the law restricted
 * and renormalised, the mass dropped below N 2^(-900/C)): lazy draining
 * always solves on that model, greedy draining where its modes leave a
 * residual above 1e-8 (up to 2,048 phases: the whole system, costed by
 * bba_fluid_estimate).  The boundary conditions at 0, T and S (atoms,
 * flux continuity) form a dense system with each exponential scaled at its
 * own boundary, so nothing overflows for any S; probabilities near S are
 * carried with a log scale, so idle fractions far below 1e-308 still have
 * a finite log10.  For the greedy policy the S-independent blocks are
 * factored once and each size costs a solve in the modes that couple the
 * two ends (those with |z| S < 46): few for large S.  Every solution gets
 * two steps of iterative refinement (the unknowns span many orders of
 * magnitude) and is checked (residual below).
 *
 * Complexity (P phases, m < P modes, 8-byte doubles): separable spectrum
 * O(P^2 C) time, P^2 doubles; dense spectrum about 20 P^3 flops (two
 * dsyevd, two products) and 5 P^2 doubles more while it is built; general
 * (binding B_BB) about 10 P^3 flops and 3 P^2 doubles, then about
 * (2P)^3 / 1.5 flops and 8 P^2 doubles per size; the law of Q^S P w^2 and
 * P (2 w + 1) doubles.  The
 * greedy factors: two LU of order P (4/3 P^3 flops, 2 P^2 doubles) on the
 * first evaluation, then 4 P^2 flops and 2 P doubles per far mode the
 * first time a size couples it.  A greedy evaluation: about twelve passes
 * over the modes (24 m P flops, the refinement most of them), the coupling
 * (2 r_n r_f P + r_f^3 for r_n near and r_f far modes coupled) and five
 * triangular solves.  A lazy evaluation with 0 < T <= S: the dense system
 * of 3 P_n + 2 P_0 - 2 unknowns (18 P^3 flops, 18 P^2 doubles with its
 * refinement copy), and a dense spectrum per EPS (cached, eight at most).  bba_fluid_estimate
 * gives the greedy figures for a workload before anything is built.
 *
 * Thread safety: after bba_fluid_new, every function taking a const model
 * may run concurrently on it (the caches it fills lazily are locked). */
#ifndef BBSIZE_ANALYTIC_FLUID_H
#define BBSIZE_ANALYTIC_FLUID_H

#include <stddef.h>

#include "sizing.h"

typedef struct {
    double rate_Bps;   /* b: bytes/s while ON, >= 0 */
    double p;          /* Pr(ON), in [0, 1]: 1 is a constant rate, 0 (or
                          rate 0) writes nothing */
    double burst_s;    /* L: mean ON period, seconds (> 0 when 0 < p < 1
                          and rate > 0).  A memoryless application of
                          probability p per time unit u enters with
                          L = u / (1 - p) */
    int count;         /* N: identical independent sources, >= 0 */
} bba_fluid_class;

typedef struct {
    double pfs_bw_Bps;       /* B > 0 */
    double bb_bw_Bps;        /* B_BB > 0; 0: unlimited */
    double mem_limit_bytes;  /* refuse a model whose estimate is above
                                this (0: no limit) */
    long max_phases;         /* refuse more phases (0: no bound but
                                memory) */
} bba_fluid_opts;

typedef struct bba_fluid bba_fluid;

/* bba_fluid_estimate: the phase count P (after merging identical classes),
 * the peak bytes and the flops of bba_fluid_new plus one greedy size
 * search at worst, for the classes and options given.  O(n^2), n entries
 * of scratch; outputs may be NULL; P = +inf when a class is invalid or
 * the scratch cannot be had.  With o->max_phases > 0 and P above it the
 * bytes and flops are those of a model of max_phases phases (what a
 * folded model of that size costs; P itself is still returned). */
void bba_fluid_estimate(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                        double *phases, double *bytes, double *flops);

/* bba_fluid_new: build the model: merge identical classes, the phases,
 * their rates and stationary law, and the greedy spectrum (separable or
 * dense); check every mode's residual |phi (Q - z D)|.  *out owns it.
 * Errors: BB_EINVAL (a field out of its domain: the message names the
 * class and field), BB_ETOOBIG (more than max_phases, or the estimate
 * above mem_limit_bytes: the message gives both), BB_ENOCONV (a mode's
 * residual above 1e-8: the spectrum could not be computed to accuracy),
 * BB_ENOMEM.  Time and memory: see above. */
int bba_fluid_new(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                  bba_fluid **out, char *err);

/* bba_fluid_free: NULL is a no-op. */
void bba_fluid_free(bba_fluid *m);

/* The phase count P; E = sum_f pi_f r_f (bytes/s); whether the greedy
 * spectrum is separable (1) or dense (0). */
long bba_fluid_phases(const bba_fluid *m);
double bba_fluid_mean_rate(const bba_fluid *m);
int bba_fluid_separable(const bba_fluid *m);

/* The fluid models take drain.h's policy with its threshold in bytes
 * (BB_DRAIN_BYTES), T in [0, S], and EPS in (0, 1] when lazy. */

typedef struct {
    double idle;             /* stall fraction: the time the writers' I/O
                                is stalled, sum_f [P(X = S, f) (r_f - B) +
                                P(X < S, f) (r_f - B - B_BB)^+] / r_f over
                                the phases above B (the paper's stalled
                                units in continuous time; the lost time of
                                one application) */
    double quiet;            /* fraction of time nothing drains (FLUID-SPEC) */
    double mean_occupancy_bytes;
    double p_empty, p_full;  /* Pr(X = 0), Pr(X = S) */
    double bb_in_Bps;        /* mean rate into the buffer = mean drain */
    double log10_idle;       /* log10(idle), finite where idle underflows;
                                -inf when no phase can stall */
    double residual;         /* the largest of: the boundary system's
                                relative residual, the phase law's
                                |m Q' + u (Q^S - Q')| / max_f m_f |Q_ff|
                                (m the mass per phase, u the atoms at S),
                                the flux balance |bb_in - drain| /
                                max(bb_in, drain), a negative probability */
} bba_fluid_result;

/* bba_fluid_eval: the measures at buffer size S_bytes >= 0 under pol.
 * Thread-safe on a const model.  Errors: BB_EINVAL (S < 0 or not finite,
 * threshold outside [0, S], eps outside (0, 1]), BB_ETOOBIG (a lazy solve
 * above the memory limit), BB_ESINGULAR (a boundary system singular to
 * working precision), BB_ENOCONV (residual above 1e-6, or a negative
 * mean occupancy: not solved to accuracy; the message gives the case and
 * the residual), BB_ENOMEM.  Cost: greedy O(r^3 + (r + m) P) with r coupled modes
 * (plus their 2 P^2 once each); lazy as the header says. */
int bba_fluid_eval(const bba_fluid *m, double S_bytes, const bb_drain *pol,
                   bba_fluid_result *out, char *err);

/* bba_fluid_idle_limit: idle as S -> infinity.  With the mean drift
 * sum_f pi'_f d_f <= 0 under the law pi' of Q' (always when E <= B) the
 * buffer is stable and the writers wait only where B_BB binds:
 *   sum_f pi'_f (r_f - B - B_BB)^+ / r_f   (0 without a binding B_BB);
 * with a positive drift the buffer stays near full and the limit is the
 * stall fraction of the process reflected at S alone (the model at a size
 * where every mode has decayed by e^-64).  The PFS then writes B all the
 * time and no byte is lost: for one application the limit is 1 - B/E.
 * Set when the model is built; O(1). */
double bba_fluid_idle_limit(const bba_fluid *m);

/* bba_fluid_bbbw_min: the smallest B_BB (bytes/s) at which the limit
 * above is <= target, target in (0, 1), for E <= B.  At bandwidth x the
 * limit is h(x), the stable buffer's stall fraction under the law
 * of Q' at x: h(0+) is the idle fraction of a buffer of size 0 (0 is
 * returned when the target is at least that), h = 0 beyond the largest
 * r_f - B; the crossing is closed by Illinois steps on ln(h / target)
 * to 1e-13 of that excess, the answer on the feasible side.  Errors:
 * BB_EINVAL, BB_EINFEASIBLE (E > B: the buffer fills as it grows),
 * BB_ENOMEM.  Each step a blocked state reduction (P w^2 flops, w the
 * largest class stride, mostly matrix products; 0.1 s at 4,096 phases);
 * about 8 to 25 steps. */
int bba_fluid_bbbw_min(const bba_fluid *m, double target, double *bbbw_Bps, char *err);

/* bba_fluid_size_min: the smallest S (bytes) with idle(S) <= target,
 * target in (0, 1), to relative rel_tol (> 0; the answer meets the
 * target, S (1 - rel_tol) does not), under the policy spec ps (NULL:
 * greedy; lazy thresholds a fraction of S, as sizing.h).  Assumes idle
 * non-increasing in S.  The search brackets the root of log idle(S) -
 * log target and closes it by Illinois steps (log idle is nearly linear
 * in S), typically 6 to 12 evaluations; after as many Illinois steps as
 * a bisection of the first bracket would take, it bisects.  cb (may be
 * NULL) hears its progress (sizing.h bba_progress): the most solves left
 * are the steps up to s_max (by a tenth at least) and the closing of a
 * bracket at most 9 times as wide as its lower end, then the Illinois
 * steps left and the bisection of the bracket; 201 (the cap) while it
 * steps down or has no s_max.  A greedy solve costs no more at a larger
 * size (fewer modes couple the ends) and a lazy one about the same at
 * every size above 0, so the slowest solve bounds each one left except
 * while stepping down.  *at (may be NULL) receives the measures at the
 * answer, *evaluations (may be NULL) the count.
 * Returns BB_OK; 0 when idle(0) <= target; BB_EINFEASIBLE when the limit
 * is above the target, or within 1e-12 of it (E > B; or B_BB
 * binds: the message gives the limit and, for B_BB, bba_fluid_bbbw_min's
 * answer); BB_ETOOBIG when s_max_bytes
 * (> 0) misses the target; errors of bba_fluid_eval. */
int bba_fluid_size_min(const bba_fluid *m, double target, const bb_drain *ps,
                       double rel_tol, double s_max_bytes, bba_progress_fn cb, void *ctx,
                       double *S_bytes, bba_fluid_result *at, int *evaluations, char *err);

typedef struct {
    int feasible;              /* some threshold keeps idle <= target */
    double threshold_bytes;    /* the best threshold */
    bba_fluid_result best;     /* measures there */
    bba_fluid_result greedy;   /* threshold 0 */
    int evaluations;
    int monotone_idle;         /* idle non-decreasing along the grid */
} bba_fluid_threshold_result;

/* bba_fluid_threshold_best: at size S_bytes, the lazy threshold T in
 * [0, S] maximising quiet subject to idle <= target, with EPS eps:
 * grid + 1 evenly spaced thresholds, then bisection of the feasibility
 * edge after the last feasible grid point to rel_tol S (the analogue of
 * sizing.h bba_threshold_best).  cb (may be NULL) hears its progress: at
 * most grid + 1 solves and ceil(log2(1 / (grid rel_tol))) + 1 more, the
 * bisection's bound falling with its bracket.  Returns BB_OK (feasible may be 0) or the
 * errors of bba_fluid_eval; BB_EINVAL for grid < 1, rel_tol <= 0, a bad
 * target or eps. */
int bba_fluid_threshold_best(const bba_fluid *m, double S_bytes, double target,
                             double eps, int grid, double rel_tol, bba_progress_fn cb,
                             void *ctx, bba_fluid_threshold_result *out, char *err);

#endif
