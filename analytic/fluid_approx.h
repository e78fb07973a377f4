/* fluid_approx.h: the fluid model (fluid.h) of a workload whose phases
 * exceed what the exact solver can take: some sources kept exact, the
 * others folded into classes of identical ON/OFF sources that keep the
 * tail's decay rate, solved exactly, with an interval from the spread of
 * several such foldings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decay rate.  A source with generator Q_i and rate matrix R_i has the
 * scaled cumulant Lambda_i(theta), the Perron eigenvalue of Q_i + theta R_i;
 * for an ON/OFF source (rate b, Pr(ON) = p, mean ON L; a = p/((1-p) L),
 * m = 1/L) with x = theta b - a - m:
 *     Lambda(theta) = (x + sqrt(x^2 + 4 a theta b)) / 2.
 * The content of an infinite buffer drained at B has the tail
 * P(X > x) ~ C e^(-theta* x), theta* > 0 the root of
 *     sum_i Lambda_i(theta) = theta B
 * (Elwalid and Mitra 1993; Kesidis, Walrand and Chang 1993), fixed by the
 * sources' mean, burstiness and peak together.
 *
 * Folding.  A group of sources (counts N_i of (b_i, p_i, L_i)), N = sum N_i
 * of them, mean rate M = sum N_i p_i b_i, becomes N identical ON/OFF
 * sources (b, p, L) with the same mean and the same sum of Lambda at
 * theta* (so the folded model has the full model's theta* and mean), and
 * one more moment:
 *   PEAK      b = sum N_i b_i / N (the same peak rate), p = M / (N b);
 *   VARIANCE  b (1 - p) = sum N_i b_i^2 p_i (1 - p_i) / M, b p = M / N (the
 *             same instantaneous variance; PEAK when that b cannot hold the
 *             group's Lambda);
 * L then solves N Lambda(theta*; b, p, L) = sum N_i Lambda_i(theta*) (Lambda
 * increases with L from theta p b to theta b, and the group's sum lies
 * strictly between those limits, so the root exists and is unique).  A
 * group of identical sources folds to itself.  Without a finite theta*
 * (E >= B: no root; the peak rate <= B: no overflow) the folds match the
 * asymptotic variance 2 b^2 p (1 - p)^2 L instead (Lambda's second
 * derivative at 0).  Sources of p = 1 (constant rates), p = 0 or rate 0
 * have no phase and pass through unchanged, and so do B, B_BB and the
 * policy: the folded model is a fluid model like any other.
 *
 * Partition.  The distinct sources are ranked by their effect on the tail,
 * N_i (Lambda_i(theta*) - theta* p_i b_i) (their effective bandwidth above
 * their mean; the asymptotic variance without theta*).  The k of largest
 * effect are kept exact, the rest, sorted by rate b, are cut into g
 * contiguous groups of near-equal count, each folded; P = prod over the
 * classes of (N + 1) must stay within the budget.  The model answered
 * with keeps the most classes (k + g, then the larger k) within budget.
 *
 * Interval.  Each of several variants keeps theta* and the mean: the
 * primary (its partition, PEAK), the same partition with VARIANCE, and
 * the partitions with one more and one fewer exact source within the
 * budget (PEAK).  Their spread at a size measures what the folding does
 * not fix (the prefactor C); the interval is the primary's idle divided
 * and multiplied by the largest ratio between two variants' idle,
 * raised to the power BBA_FLUID_APPROX_WIDEN: see docs/fluid.md for the
 * benchmark that measured its coverage.
 *
 * Ownership: the object owns its models.  Thread safety: after
 * bba_fluid_approx_new, the const functions may run concurrently. */
#ifndef BBSIZE_ANALYTIC_FLUID_APPROX_H
#define BBSIZE_ANALYTIC_FLUID_APPROX_H

#include <stddef.h>

#include "fluid.h"

/* The interval's factor f = exp(max(ln spread, C folded)) (above),
 * C calibrated on half of bench/b_fluid_approx's workloads. */
#define BBA_FLUID_APPROX_C 0.225

/* bba_fluid_lambda: Lambda(theta) of one ON/OFF source (above), 1/s, for
 * b > 0, 0 < p < 1, L > 0, theta >= 0 (per byte).  O(1). */
double bba_fluid_lambda(double b, double p, double L, double theta);

/* bba_fluid_decay: theta* (1/bytes) of the sources c[0..n-1] drained at
 * B_Bps: the positive root of sum Lambda = theta B, by bisection on a
 * log scale to relative 1e-13.  Errors: BB_EINVAL (a class out of its
 * domain, B <= 0), BB_EINFEASIBLE (E >= B: no positive root), BB_EDATA
 * (the peak rate <= B: the buffer never fills, theta* = infinity).
 * O(n x 200). */
int bba_fluid_decay(const bba_fluid_class *c, size_t n, double B_Bps, double *theta,
                    char *err);

typedef struct bba_fluid_approx bba_fluid_approx;

/* bba_fluid_approx_new: the primary model and its variants (above) for
 * classes c[0..n-1] under o, each variant within phase_budget phases
 * (>= 4).  When the whole model fits, it is the only model and the
 * answer is exact.  Errors: BB_EINVAL (a class out of its domain, the
 * message names it; a budget below 4), BB_ETOOBIG (the sources of
 * largest effect with a phase... cannot fit: never with a budget >= 4),
 * the errors of bba_fluid_new, BB_ENOMEM.  Cost: a few bba_fluid_new of
 * at most phase_budget phases, plus O(n^2). */
int bba_fluid_approx_new(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                         long phase_budget, bba_fluid_approx **out, char *err);

/* bba_fluid_approx_free: NULL is a no-op. */
void bba_fluid_approx_free(bba_fluid_approx *a);

/* The model to answer with (the exact one when it fits); 1 when it is
 * exact.  The classes it was built from (*n of them; the folded ones
 * last). */
const bba_fluid *bba_fluid_approx_model(const bba_fluid_approx *a);
int bba_fluid_approx_exact(const bba_fluid_approx *a);
const bba_fluid_class *bba_fluid_approx_classes(const bba_fluid_approx *a, size_t *n);
/* theta* of the whole workload (NAN when there is none). */
double bba_fluid_approx_theta(const bba_fluid_approx *a);

/* bba_fluid_approx_interval: [*lo, *hi] around idle (the primary model's
 * idle fraction at S_bytes under pol), from the variants evaluated at the
 * same point; lo = hi = idle when exact.  Errors: those of
 * bba_fluid_eval.  Cost: one evaluation per variant (three or four). */
int bba_fluid_approx_interval(const bba_fluid_approx *a, double S_bytes,
                              const bba_fluid_policy *pol, double idle, double *lo, double *hi,
                              char *err);

/* bba_fluid_approx_spread: ln(max / min) of the idle fraction at S_bytes
 * over the primary (its idle given) and the variants: 0 when exact,
 * +inf when some are 0 and others not.  bba_fluid_approx_folded: the
 * share of the burstiness folded (0 when exact).  What the interval is
 * made of, for benchmarks.  Errors: those of bba_fluid_eval. */
int bba_fluid_approx_spread(const bba_fluid_approx *a, double S_bytes,
                            const bba_fluid_policy *pol, double idle, double *ln_spread,
                            char *err);
double bba_fluid_approx_folded(const bba_fluid_approx *a);

/* bba_fluid_approx_size_interval: the sizes S_lo <= S_hi bracketing the
 * primary model's size S_bytes for target under ps: the sizes at which
 * the interval's upper and lower ends reach the target, taken on the
 * log-linear tail through the variants (each variant's size for the
 * target, spread by the interval's factor).  S_lo = S_hi = S when exact.
 * Errors: those of bba_fluid_size_min on a variant (BB_EINFEASIBLE: a
 * variant cannot reach the target; *S_hi is then +inf and BB_OK is
 * returned).  Cost: a size search per variant. */
int bba_fluid_approx_size_interval(const bba_fluid_approx *a, double target,
                                   const bba_policy_spec *ps, double S_bytes, double *S_lo,
                                   double *S_hi, char *err);

/* bba_fluid_approx_describe: one line, e.g. "6 sources exact, 14 folded
 * into 1 class keeping the tail's decay rate (theta* = ...)". */
void bba_fluid_approx_describe(const bba_fluid_approx *a, char *buf, size_t len);

#endif
