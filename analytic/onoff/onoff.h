/* onoff.h: the ON/OFF-modulated burst-buffer chain: I/O phases
 * that last longer than one time unit.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each application i is a two-state Markov chain over time units: ON -> OFF
 * with probability a_i = 1/L_i, OFF -> ON with c_i = a_i p_i/(1 - p_i), so
 * Pr(ON) = p_i and the mean ON run is L_i time units; an ON application
 * writes b_i quanta in that unit.  The buffer moves as in Algorithm 2
 * (greedy) or 4 (lazy) on the load of the ON applications; a unit whose
 * load overflows the buffer by e quanta (l = j + k - B > S, e = l - S) is
 * followed by a stall of tau = e/B units, a real number: the PFS writes
 * the excess at B while the buffer stays full, and the next normal unit
 * starts at level S.  (The paper's chain, chain.h, stalls whole units,
 * ceil(e/B), and lands at max(l - tB, 0): below B quanta the last stall
 * unit's spare PFS time is lost, and at S = 0 the chain would not tend to
 * the fluid model as the unit shrinks; docs/model.md.  The two agree
 * when every load and S are whole multiples of B.)
 * The writers wait (docs/model.md, issue 35): in a stall an ON
 * application stays ON (its I/O phase is a volume, not yet written) and
 * an OFF one computes on (turns ON with 1 - (1 - c_i)^tau over the
 * stall, then waits too); when the stall ends every application takes
 * the normal unit's step.  So a normal unit followed by a stall of tau
 * units moves the phase by H^tau K, K the one-unit kernel and H^tau the
 * stall kernel (ON stays ON, each OFF turns ON with 1 - (1 - c_i)^tau,
 * independently: per class a binomial shift).  With L_i = 1/(1 - p_i)
 * (a_i = 1 - p_i, c_i = p_i: a fresh draw every unit) K's rows are equal
 * and H^tau K = K: the memoryless chain with that stall rule.
 *
 * State: (buffer level j, phase phi).  Applications whose L_i is the
 * memoryless 1/(1 - p_i) (or p_i in {0, 1}, or b_i = 0) need no phase:
 * their load is a fresh draw every unit, a DIST (Algorithm 1) D0.  The
 * others are grouped into classes of identical (b, p, L); a phase is the
 * number of ON applications per class, so there are prod_c (N_c + 1)
 * phases, and one phase step is the Kronecker product of the per-class
 * binomial-convolution kernels K_c(m, m'), applied in P sum_c (N_c + 1)
 * operations, never stored as a P x P matrix.
 *
 * Overflow states are censored exactly: a jump from a normal state to load
 * l > S stalls (l - S)/B units, lands at S and the phase has moved by
 * H^((l - S)/B) K (one kernel per excess, 1..U = max(M - B, 0)).  The
 * censored chain on levels
 * 0..S x phases is solved by iterative aggregation-disaggregation
 * (Koury, McAllister and Stewart 1984; Stewart 1994, ch. 6.3): aggregate
 * over phases with the current conditional phase distribution of each
 * level, solve that banded level chain exactly (banded GTH, stationary.h),
 * disaggregate, then smooth with damped power steps of the full operator
 * (x <- 0.2 x + 0.8 x P: aperiodic).  The level chain carries the slow
 * random-walk mode exactly; the smoothing only has to relax the phase
 * correlations, at the rate (1 - a - c) of the slowest class.  A
 * correction is kept only when it lowers the residual: aggregation can
 * drift or cycle, damped power steps always converge.  One iteration costs
 * one scalar banded solve plus smooth x (S + 1 + U) P (|D0| + sum_c
 * (N_c + 1)) operations; memory is 5 (S + 1) P + (U + 1)(P + sum_c
 * (N_c + 1)^2) doubles.
 *
 * The FFT path (opts.fft): a greedy landing depends only on the raw level
 * j + k - B, so a step is per phase one linear convolution of the level
 * column with D0 (fftconv.h bba_fftconv), P (S + M0) log(S + M0)
 * operations; below a positive lazy threshold T, Algorithm 4's moves are
 * a correction on top, P T (B + 1) more.  The first level chain is
 * approximated by the scalar chain of chain.h for all applications made
 * memoryless (its whole-unit stalls differ from this chain's only where a
 * stall lands near S), solved by bba_fftwh_eval; then restarted
 * GMRES (krylov.h; opts.krylov, 33 (S + 1) P more doubles) before any
 * smoothing, right-preconditioned below a lazy threshold by the inverse of the level
 * blocks I - diag(h) K (h the probability of keeping the level; P^3 once,
 * T P^2 per product, (S + 1) P + 2 P^2 more doubles; P <= 512). */
#ifndef BBSIZE_ANALYTIC_ONOFF_H
#define BBSIZE_ANALYTIC_ONOFF_H

#include <stddef.h>

#include "chain.h"
#include "measures.h"
#include "sizing.h"

typedef struct bba_onoff {
    size_t n_classes;   /* bursty classes (with a phase) */
    long *b;            /* n_classes: bandwidth of one application, quanta */
    double *p;          /* n_classes: Pr(ON) */
    double *L;          /* n_classes: mean ON run, time units */
    int *N;             /* n_classes: applications in the class */
    double **K;         /* n_classes kernels, (N_c + 1)^2 row-major: K_c(m, m')
                           = Pr(m' ON next unit | m ON now) */
    long n_phases;      /* prod_c (N_c + 1) */
    long *phase_load;   /* n_phases: load of the bursty classes, quanta */
    double *phase_pi;   /* n_phases: stationary phase distribution (product
                           of binomials) */
    long M0;            /* support of D0, quanta */
    double *D0;         /* M0 + 1: load of the memoryless applications */
    long B;             /* PFS bandwidth, quanta per time unit */
    long M;             /* largest total load, quanta */
    double mean_load;   /* E = sum_i p_i b_i, quanta per time unit */
    size_t n0;          /* memoryless applications (in D0) */
    long *b0;           /* n0: their bandwidths, quanta */
    double *p0;         /* n0: their Pr(ON) */
} bba_onoff;

/* bba_onoff_init: group the n applications (b in quanta, p, L in time
 * units; L_i = 0 or 1/(1 - p_i) means memoryless) into classes and build
 * the kernels, the phase loads and D0.  all_phases = 1 gives every
 * application with 0 < p < 1 and b > 0 a phase, memoryless or not (the
 * tests use it to check that phases reproduce DIST exactly).
 * max_phases bounds the phase count (0: no bound), checked before
 * anything the count sizes is built; max_phases < 0 builds the classes
 * and D0 only (no kernels, phase_load and phase_pi NULL, n_phases capped
 * at LONG_MAX): enough for effbw.h, not for bba_onoff_eval nor
 * bba_onoff_stall_kernel.
 * Errors: BB_EINVAL (B <= 0, p outside [0, 1], negative b, L < max(1,
 * p/(1-p))); BB_ETOOBIG (more phases than max_phases: the message gives
 * the count); BB_ENOMEM.  O(P sum_c (N_c + 1) + n M0 + sum_c C(N_c + 3, 3))
 * (the kernels; O(n M0) with max_phases < 0). */
int bba_onoff_init(bba_onoff *m, size_t n, const long *b, const double *p,
                   const double *L, long B, int all_phases, long max_phases,
                   char *err);
void bba_onoff_free(bba_onoff *m);

typedef struct {
    double tol;              /* target max |x P - x| of the censored chain
                                (default 1e-13) */
    long max_iter;           /* aggregation iterations at most (2000) */
    int smooth;              /* damped power steps per iteration, at least
                                (4): raised to the cost of one level solve
                                in steps (up to 1024), and doubled whenever
                                an iteration gains less than half */
    double mem_limit_bytes;  /* refuse a solve above this (0: no limit) */
    int fft;                 /* the level convolution with D0 by FFT
                                (fftconv.h bba_fftconv): 1 always, 0 never,
                                -1 (default) when cheaper than the direct
                                sum, (S + M0) log(S + M0) < (S + 1) M0 / 6;
                                lazy thresholds too */
    int krylov;              /* on the FFT path, after the first level
                                solve: restarted GMRES (30) on x (I - P) = 0
                                before any smoothing: 1 always, 0 never,
                                -1 (default) when the slowest phase mode
                                relaxes slower than 0.85 per step, there
                                are 32 phases or more, or a lazy threshold
                                is positive (its levels hold for 1/EPS
                                steps: preconditioned); skipped when its
                                33 (S + 1) P doubles exceed the memory
                                limit */
} bba_onoff_opts;

void bba_onoff_defaults(bba_onoff_opts *o);

/* bba_onoff_fft_chosen: whether a solve at buffer size S (quanta) with
 * options o (NULL: the defaults) convolves the levels with D0 by FFT
 * (opts.fft; by default when memoryless load is left in D0 and
 * 6 (S + M0 + 1) log2(S + M0 + 1) < (S + 1) (M0 + 1)).  O(1). */
int bba_onoff_fft_chosen(const bba_onoff *m, long S, const bba_onoff_opts *o);

/* bba_onoff_step_ops: the multiply-adds of one application of the chain
 * (one power step) per level at buffer size S, as a solve with options o
 * (NULL: the defaults) and policy pol (NULL: greedy) does it:
 * P (M0 + 1 + sum_c (N_c + 1)) by the direct level sum; on the FFT path
 * P (6 log2(n) n / (S + 1) + sum_c (N_c + 1)), n = S + M0 + 1, plus
 * P T (B + 1) / (S + 1) for a lazy threshold T > 0.  The solver and the
 * cost model (cost.h) share it.  O(classes). */
double bba_onoff_step_ops(const bba_onoff *m, long S, const bb_drain *pol,
                          const bba_onoff_opts *o);

/* bba_onoff_estimate: bytes a solve at buffer size S (quanta) needs and
 * the operations of one iteration.  O(1). */
void bba_onoff_estimate(const bba_onoff *m, long S, const bba_onoff_opts *o,
                        double *bytes, double *ops_per_iter);

/* bba_onoff_eval: the measures for buffer size S (quanta) and policy pol
 * (drain.h, its threshold in quanta: BB_DRAIN_QUANTA, asserted),
 * every fraction per unit of time, stalls counted (Z = 1 + the mean
 * stall tau of a normal unit, in units):
 *   idle      the stall fraction (measures.h), = stalled
 *   stalled   the fraction of time stalled, 1 - 1/Z
 *   quiet     normal units in which the buffer is not drained (Theorem 5;
 *             a stall is not quiet)
 *   p_empty   normal units at level 0; p_full: the stalled time plus
 *             normal units at level S
 *   mean_load the mean level over the normal units, quanta.
 * out->n_states is the full chain's (S + 1 + max(M - B, 0)) P,
 * out->solve.iterations the aggregation iterations and
 * out->solve.residual the final max |x P - x|.  If pi_out is not NULL it
 * receives a malloc'd (S + 1) x P array (level-major) of the stationary
 * probabilities of the normal states (the caller frees it).
 * Errors: BB_EINVAL (S < 0, bad policy), BB_ETOOBIG (over the memory
 * limit, with the size), BB_ENOCONV (max_iter reached: the message gives
 * the residual), BB_ESINGULAR/BB_EDATA (the level chain could not be
 * solved: the buffer never empties), BB_ENOMEM. */
int bba_onoff_eval(const bba_onoff *m, long S, const bb_drain *pol,
                   const bba_onoff_opts *o, bba_eval_result *out,
                   double **pi_out, char *err);

/* bba_onoff_dense_eval: the test oracle.  Builds the whole uncensored
 * chain, overflow states included, with one ON/OFF phase per application
 * (2^n phases, no classes, no censoring, no D0), as a dense matrix and
 * solves pi (P - I) = 0, sum pi = 1 by LU (GSL).  Measures as
 * bba_measures_compute on that chain.  n <= 6 and at most 2500 states.
 * The overflow states are the stall units, each of min(1, excess left/B)
 * units: the steps into one and on from one to the next move the phase
 * by H^d of the unit entered (d its duration), the step out of the last
 * by K; the measures weight each state by its duration.
 * Errors: BB_EINVAL, BB_ETOOBIG (too many states), BB_ESINGULAR,
 * BB_ENOMEM.  O(states^3) time, O(states^2) memory. */
int bba_onoff_dense_eval(size_t n, const long *b, const double *p,
                         const double *L, long B, long S, const bb_drain *pol,
                         bba_measures *out, char *err);

#endif
