/* effbw.h: the effective-bandwidth approximation of the ON/OFF-modulated
 * chain (onoff.h), for workloads whose phase space is too large to solve:
 * the one owner of the reduced model and of the corrections applied to
 * its answers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The buffer is a queue fed by independent Markov sources and drained at
 * B per unit; its tail decays as exp(-theta* x), theta* > 0 the root of
 *     sum_i Lambda_i(theta) = theta B,
 * Lambda_i the log of the Perron root of source i's tilted transition
 * matrix (Elwalid and Mitra 1993; Kesidis, Walrand and Chang 1993).  For
 * an ON/OFF source (b, a = 1/L, c = a p/(1 - p)) the matrix is
 *     [[1 - c, c e^(theta b)], [a, (1 - a) e^(theta b)]]
 * and for a memoryless one Lambda = log(1 - p + p e^(theta b)), so bursts
 * only change the decay rate through the sources that have them.
 *
 * The approximation keeps the prefactor of an exact reduced model R (the
 * same applications with fewer phases, solved by onoff.h) and corrects
 * its tail, by the decay rate alone,
 *     idle(S) ~ idle_R(S) exp(-(theta* - theta*_R) S),
 * or by the many-sources rate function (below); both are exact when R is
 * the whole model.  Their error is measured, not assumed (bench/b_onoff.c,
 * docs/model.md). */
#ifndef BBSIZE_ANALYTIC_EFFBW_H
#define BBSIZE_ANALYTIC_EFFBW_H

#include "onoff.h"

/* bba_effbw_lambda_onoff: log Perron root of the tilted 2x2 matrix of an
 * ON/OFF source writing b quanta when ON, Pr(ON) = p, mean ON run L time
 * units, at theta (per quantum).  O(1). */
double bba_effbw_lambda_onoff(double b, double p, double L, double theta);

/* bba_effbw_decay: theta* (per quantum) of model m: the positive root of
 * sum_c N_c Lambda_c(theta) + log E[e^(theta X0)] = theta B, X0 the load
 * of the memoryless applications (D0).  Errors: BB_EINFEASIBLE when the
 * mean load is >= B (no positive root: no buffer suffices); BB_EDATA when
 * the largest load is <= B (the buffer never overflows: theta* = infinity).
 * O((sum_c 1 + M0) x 100) by bisection to relative 1e-13. */
int bba_effbw_decay(const bba_onoff *m, double *theta, char *err);

/* bba_effbw_reduce: a model with the same applications where only the k
 * bursty classes of largest burst effect (N_c [Lambda_c(theta*) -
 * Lambda_c^memoryless(theta*)], at the full model's theta*) keep their
 * phases and the others become memoryless.  n, b, p, L as bba_onoff_init;
 * theta is the full model's theta*; max_phases as bba_onoff_init's (0:
 * no bound; a reduced model over it is refused, BB_ETOOBIG, before its
 * kernels are built).  *out as bba_onoff_init (free with
 * bba_onoff_free).  Errors: those of bba_onoff_init. */
int bba_effbw_reduce(size_t n, const long *b, const double *p, const double *L,
                     long B, double theta, size_t k, long max_phases, bba_onoff *out,
                     char *err);

/* The corrections that let a reduced model R (from bba_effbw_reduce,
 * solved exactly by onoff.h) stand for the full model: each multiplies
 * R's idle fraction at size S by a factor, and this module is the one
 * place that computes and applies them (sizing.h's bba_eval applies the
 * one a model carries at every size it evaluates).
 *  - BBA_EFFBW_MANY_SOURCES (Courcoubetis and Weber 1996; Likhanov and
 *    Mazumdar 1999): with A_n the load of n consecutive units from
 *    stationarity, the rate function
 *      I(S) = min_{n >= 1} max_{theta > 0} [theta (S + n B) - log E e^(theta A_n)]
 *    (log E e^(theta A_n) the sum over applications of pi D (T D)^(n-1) 1,
 *    T a source's 2x2 transition matrix and D = diag(1, e^(theta b)); n
 *    units of a memoryless source: n log(1 - p + p e^(theta b))) sees the
 *    finite horizon over which bursts fill a buffer, not only the
 *    asymptotic decay rate; the factor exp(I_R(x) - I(x)) keeps R's
 *    prefactor and replaces its finite-buffer large-deviation exponent by
 *    the full model's, at x = S (greedy) or S - (1 - EPS) THRESHOLD
 *    (lazy: the buffer sits at the threshold, and an overflow is an
 *    excursion of S - THRESHOLD from there; the heuristic keeps EPS = 1,
 *    which is greedy, exactly at S; measured on the paper's workload with
 *    10-unit bursts, threshold 0.5 at 2.531 PB: idle +38% against the
 *    simulator with the factor at S, +12% at S - 0.99 THRESHOLD; greedy
 *    at its answer +7%).  theta on a geometric grid of 160 points over
 *    [theta* / 30, 30 theta*], n up to the first power of two above 4/3
 *    of the minimising n (at least 64): O(160 (sum_c 1 + n0) n_max) per
 *    factor.  The front door's choice: on the paper's workload with
 *    10-unit bursts +9% in idle against the simulator, where the decay
 *    correction gave -29%.
 *  - BBA_EFFBW_DECAY: exp(-(theta* - theta*_R) S), the asymptotic decay
 *    rate alone (above); kept to measure the many-sources factor against
 *    (bench/b_onoff.c).  O(1) per factor. */
typedef enum {
    BBA_EFFBW_MANY_SOURCES = 1,
    BBA_EFFBW_DECAY = 2
} bba_effbw_kind;

typedef struct bba_effbw_approx bba_effbw_approx;

/* bba_effbw_approx_new: the correction of kind that makes r (a reduced
 * model of the n applications b, p, L as bba_onoff_init; borrowed, it
 * must outlive the correction) stand for their full model.  When r itself
 * never overflows (no decay rate of its own) the DECAY factor is 1.
 * Errors: those of bba_onoff_init and bba_effbw_decay on the full model
 * (BB_EINFEASIBLE: E >= B; BB_EDATA: it never overflows), BB_EINVAL (an
 * unknown kind), BB_ENOMEM.  O(n M0). */
int bba_effbw_approx_new(const bba_onoff *r, size_t n, const long *b, const double *p,
                         const double *L, bba_effbw_kind kind, bba_effbw_approx **out,
                         char *err);

/* bba_effbw_approx_free: NULL is a no-op. */
void bba_effbw_approx_free(bba_effbw_approx *a);

/* bba_effbw_approx_kind: the kind a was made with. */
bba_effbw_kind bba_effbw_approx_kind(const bba_effbw_approx *a);

/* bba_effbw_approx_factor: the factor on r's idle fraction at buffer size
 * S (quanta) under pol (NULL: greedy); NAN when out of memory.
 * Thread-safe (no state changes). */
double bba_effbw_approx_factor(const bba_effbw_approx *a, long S, const bb_drain *pol);

/* bba_effbw_approx_apply: the measures of r at (S, pol) made the full
 * model's: idle multiplied by the factor, p_full moved with it,
 * log10_idle recomputed.  Errors (me unchanged): BB_ENOCONV when the
 * product is no idle fraction: above 1, or (many sources) r's idle
 * fraction far above its own large-deviation bound, idle_r e^(I_r(S)) >
 * e^BBA_EFFBW_PREFACTOR_MAX, which means r's solve rounded a tail it
 * cannot resolve (the message says to use the fluid model); BB_ENOMEM.
 * Thread-safe. */
#define BBA_EFFBW_PREFACTOR_MAX 16.0   /* e^16 = 9e6, a safe margin over the
                                          2^16 horizons the bound sums */
int bba_effbw_approx_apply(const bba_effbw_approx *a, long S, const bb_drain *pol,
                           bba_measures *me, char *err);

#endif
