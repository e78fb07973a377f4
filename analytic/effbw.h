/* effbw.h: the effective-bandwidth approximation of the ON/OFF-modulated
 * chain (issue 13), for workloads whose phase space is too large to solve.
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
 * same applications with fewer phases, solved by onoff.h or chain.h) and
 * corrects its decay:
 *     idle(S) ~ idle_R(S) exp(-(theta* - theta*_R) S),
 * exact when R is the whole model.  Its error is measured, not assumed:
 * see bba_effbw_eval. */
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
 * theta is the full model's theta*.  *out as bba_onoff_init (free with
 * bba_onoff_free).  Errors: those of bba_onoff_init. */
int bba_effbw_reduce(size_t n, const long *b, const double *p, const double *L,
                     long B, double theta, size_t k, bba_onoff *out, char *err);

/* The many-sources correction (Courcoubetis and Weber 1996; Likhanov and
 * Mazumdar 1999): with A_n the load of n consecutive units from
 * stationarity, the rate function
 *     I(S) = min_{n >= 1} max_{theta > 0} [theta (S + n B) - log E e^(theta A_n)]
 * (log E e^(theta A_n) the sum over applications of pi D (T D)^(n-1) 1,
 * T a source's 2x2 transition matrix and D = diag(1, e^(theta b)); n
 * units of a memoryless source: n log(1 - p + p e^(theta b))) sees the
 * finite horizon over which bursts fill a buffer, not only the asymptotic
 * decay rate; the reduced model R's exact idle fraction is corrected by
 *     idle(S) ~ idle_R(S) exp(I_R(S) - I(S)),
 * which keeps R's prefactor and replaces its finite-buffer large-deviation
 * exponent by the full model's.  Measured on the paper's workload with
 * 10-unit bursts (README): +9% in idle against the simulator, where the
 * decay-rate correction above gave -29%.
 *
 * bba_effbw_ms_attach: make r (a reduced model of the same applications,
 * from bba_effbw_reduce) stand for the full model of the n applications
 * (b, p, L as bba_onoff_init): r->ms is set and bba_onoff_eval on r then
 * returns the corrected idle fraction.  Errors: those of bba_onoff_init and
 * bba_effbw_decay on the full model (BB_EDATA: it never overflows), and
 * then r is unchanged.  O(n). */
int bba_effbw_ms_attach(bba_onoff *r, size_t n, const long *b, const double *p,
                        const double *L, char *err);

/* bba_effbw_ms_factor: exp(I_r(S) - I_full(S)) for r with r->ms == ms, at
 * buffer size S quanta (bba_onoff_eval passes S - (1 - EPS) THRESHOLD
 * under lazy draining: the excursion from the threshold).  theta on a geometric grid of 160 points over
 * [theta* / 30, 30 theta*], n up to the first power of two above 4/3 of
 * the minimising n (at least 64).  Thread-safe (no state changes).
 * O(160 (sum_c 1 + n0) n_max). */
double bba_effbw_ms_factor(const bba_onoff_ms *ms, const bba_onoff *r, long S);

/* bba_effbw_ms_free: release; NULL is a no-op. */
void bba_effbw_ms_free(bba_onoff_ms *ms);

#endif
