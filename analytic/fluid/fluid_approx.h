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
 * P(X > x) ~ K e^(-theta* x), theta* > 0 the root of
 *     sum_i Lambda_i(theta) = theta B
 * (Elwalid and Mitra 1993; Kesidis, Walrand and Chang 1993), fixed by the
 * sources' mean, burstiness and peak together.
 *
 * Folding.  A group of sources (counts N_i of (b_i, p_i, L_i); mean rate
 * M = sum N_i p_i b_i, peak R = sum N_i b_i, instantaneous variance
 * V = sum N_i b_i^2 p_i (1 - p_i)) becomes N identical ON/OFF sources
 * (b, p, L): N identical sources with the group's mean, peak and variance
 * would number n = R M (1 - M/R) / V (the group's count when they are
 * identical, fewer when a few large sources dominate); N is n rounded
 * (FLOOR and CEIL in the variants below), within [1, count].  b and p keep
 * the mean and the variance with N sources: b p = M / N,
 * b (1 - p) = V / M.  L then solves N Lambda(theta*; b, p, L) =
 * sum N_i Lambda_i(theta*), so the folded model has the workload's mean
 * and theta*: Lambda increases with L from theta p b to theta b, and the
 * group's sum lies strictly between N theta p b and N theta b (else, the
 * variance's b not being above it, b = R / N, p = M / R keep the peak
 * instead, where it always does).  A group of identical sources folds to
 * itself.  Without a finite theta* (E >= B: no root; the peak rate <= B:
 * no overflow) L matches the asymptotic variance 2 b^2 p (1 - p)^2 L
 * (Lambda's second derivative at 0).  Sources of p = 1 (constant rates),
 * p = 0 or rate 0 have no phase and pass through unchanged, and so do B,
 * B_BB and the policy: the folded model is a fluid model like any other.
 *
 * Partition.  The distinct sources are ranked by their effect on the tail,
 * N_i (Lambda_i(theta*) - theta* p_i b_i) (their effective bandwidth above
 * their mean; the asymptotic variance without theta*).  The k of largest
 * effect are kept exact, the rest, sorted by rate b, are cut into g
 * contiguous groups of near-equal count, each folded.  P = prod over the
 * classes of (N + 1) (N rounded up) must stay within the budget; where the
 * effective counts do not fit, every group's count is capped at the
 * largest cap that fits, at least BBA_FLUID_APPROX_CAP_MIN (a group of one
 * distinct source is then folded into fewer, larger ones too), and never
 * above BBA_FLUID_APPROX_CAP_MAX.  A capped group keeps its mean and
 * variance (b p = M / N, b (1 - p) = V / M) and theta*, or, when N sources
 * of that rate cannot reach theta*, the asymptotic variance.  The loss of
 * a partition is the sum over its groups of their effect times
 * (1 + ln(n / N)) (n the effective count, N the count kept; a group of
 * one source kept whole has none): what is folded, more the coarser it
 * is folded.  The primary is the partition of least loss, then the most
 * classes (k + g), then the larger k.  folded: the share of the total
 * effect in the folded sources; folded_load: their share of the mean.
 *
 * Interval.  Variants that each keep theta* and the mean: the primary's
 * partition with N rounded down and up, the partitions with k + 1 and
 * k - 1 exact sources, the primary's with half its cap (when a cap
 * binds: how far coarsening moves the answer), and the same rule within
 * a quarter of the budget.  Where a cap binds, one more keeps the
 * bufferless tail in place of the variance: with s* > 0 the workload's
 * bufferless tilt (the Chernoff point of P(rate > B): the sum over all
 * sources of the tilted mean b p e^(s b) / (1 - p + p e^(s b)) is B;
 * only when the mean < B < the peak), each capped group's b (p = M/(N b))
 * solves N ln(1 - p + p e^(s* b)) = the sum of its members' (the
 * exponent of the rate's tail at B kept where N sources of the
 * variance's b would make it far lighter; p and L as before).  At a size, lo and hi are the least and
 * largest idle fractions of the primary and its variants, and with
 * g = exp(C w), w = max(folded, folded_load) (the folded part's share of
 * the burstiness or of the load, whichever is larger: the first rules the
 * tail, the second the bufferless stall), the interval is
 *     [min(lo, idle / g), max(hi, idle g)]   (hi at most 1; rho below):
 * what the foldings disagree by, and at least a term in the size of the
 * folded part.  At S = 0, lo is at least min(s0_lo, idle) (the model's
 * stall there is at least s0_lo, fluid_bufferless.h), and hi is at
 * least s0_hi g (at most 1), s0_hi the
 * unfolded workload's bufferless stall bounded from above by
 * convolution (fluid_bufferless.h): a capped folding makes the tail of
 * the aggregate rate, and so the stall at S = 0, far too light, and
 * keeping the tail's exponent at the tilt does not keep its prefactor.
 * That prefactor is measured: rho = max(1, s0(workload) / s0(primary)),
 * each s0 the midpoint of its convolution bounds (the same grid rule for
 * both, so rho is 1 to a percent where the folding keeps the rate's law
 * above B), and at every size hi is at least rho g idle: the tail above
 * B that the folding lightens is the one every stall comes from, at S =
 * 0 and above it (its decay rate kept, its weight not), so idle g
 * becomes rho idle g in the interval above.  The waiting
 * writers (fluid.h) make the model's stall at S = 0 exceed s0 by about
 * r / B - 1 in each stalled phase; rho compares the two laws of rate
 * alone, so the folded model's own waiting is what it scales.  C was calibrated on one half of the workloads of
 * bench/b_fluid_approx (the smallest multiple of 0.025 covering 95% of
 * the half's idle points); docs/fluid.md gives the coverage on the other
 * half.  The size interval: with up = max(hi, rho g idle) / idle and down =
 * idle / min(lo, idle / g) at the size, where the primary's idle fraction
 * reaches target down (S_lo) and target / up (S_hi), up taken again at
 * S_hi until it no longer grows (at most 4 times).
 * Trusted: folded_load <= 1/2.  Beyond, the folded part carries most of
 * the load and the interval is the benchmark's measured coverage only.
 *
 * Ownership: the object owns its models.  Thread safety: after
 * bba_fluid_approx_new, the const functions may run concurrently. */
#ifndef BBSIZE_ANALYTIC_FLUID_APPROX_H
#define BBSIZE_ANALYTIC_FLUID_APPROX_H

#include <stddef.h>

#include "fluid.h"

/* The interval's widening g = exp(C w) (above): C is the smallest
 * multiple of 0.025 whose interval holds the truth at 95% of the idle
 * points of the calibration half (workloads i with i div 5 even) of
 * bench/b_fluid_approx's 50 workloads (bench/approx.sh, section 2; the
 * truth bench/approx_truth.txt); docs/fluid.md gives the validation
 * half's coverage. */
#define BBA_FLUID_APPROX_C 0.300

/* The fewest sources a folded class whose count is capped may keep
 * (fluid_approx.h, Partition). */
#define BBA_FLUID_APPROX_CAP_MIN 8
/* The most sources of one folded class: the largest class the exact
 * solver answers at every size of bench/b_fluid_approx's workloads. */
#define BBA_FLUID_APPROX_CAP_MAX 200

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
 * message names it; a budget below 4), BB_ETOOBIG (no partition fits:
 * one group of BBA_FLUID_APPROX_CAP_MIN sources exceeds the budget), the
 * errors of bba_fluid_new, BB_ENOMEM.  Cost: up to eight bba_fluid_new of
 * at most phase_budget phases, plus O(k u^2 log u) for the partitions of
 * u distinct sources (k exact ones at most, about log2 of the budget),
 * plus two bba_fluid_bufferless when folded (the workload, the primary). */
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
 * idle fraction at S_bytes under pol; hi at most 1), from the variants
 * evaluated at the same point; lo = hi = idle when exact.  Errors: those
 * of bba_fluid_eval.  Cost: one evaluation per variant (up to seven). */
int bba_fluid_approx_interval(const bba_fluid_approx *a, double S_bytes,
                              const bb_drain *pol, double idle, double *lo, double *hi,
                              char *err);

/* bba_fluid_approx_spread: ln(max / min) of the idle fraction at S_bytes
 * over the primary (its idle given) and the variants: 0 when exact,
 * +inf when some are 0 and others not.  bba_fluid_approx_folded: the
 * share of the burstiness folded (0 when exact).  What the interval is
 * made of, for benchmarks.  Errors: those of bba_fluid_eval. */
int bba_fluid_approx_spread(const bba_fluid_approx *a, double S_bytes,
                            const bb_drain *pol, double idle, double *ln_spread,
                            char *err);
double bba_fluid_approx_folded(const bba_fluid_approx *a);

/* bba_fluid_approx_hull: the least and largest idle fraction at S_bytes
 * over the primary (its idle given) and the variants.  Errors: those of
 * bba_fluid_eval.  bba_fluid_approx_folded_load: the share of the mean
 * rate in the folded sources (0 when exact).  bba_fluid_approx_trusted:
 * 0 when the folded sources carry most of the load (folded_load above
 * 1/2): the interval is then a measured coverage on workloads like the
 * benchmark's, not a property of this one (answer.h: the size answered
 * is then the interval's safe end). */
int bba_fluid_approx_hull(const bba_fluid_approx *a, double S_bytes,
                          const bb_drain *pol, double idle, double *lo, double *hi,
                          char *err);
double bba_fluid_approx_folded_load(const bba_fluid_approx *a);
int bba_fluid_approx_trusted(const bba_fluid_approx *a);

/* bba_fluid_approx_stall0: the unfolded workload's bufferless stall
 * bounds (fluid_bufferless.h): *lo is a lower bound of the model's stall
 * at S = 0, *hi an upper bound of the stationary law's (0 and 0 when
 * exact: the model itself is the answer). */
void bba_fluid_approx_stall0(const bba_fluid_approx *a, double *lo, double *hi);

/* bba_fluid_approx_prefactor: rho (above, Interval), at least 1; 1 when
 * exact or when the primary cannot stall at S = 0.  O(1). */
double bba_fluid_approx_prefactor(const bba_fluid_approx *a);

/* bba_fluid_approx_size_interval: the sizes S_lo <= S <= S_hi bracketing
 * the primary model's size S_bytes for target under ps (above: S_lo 0
 * when target down >= 1 or down is infinite; S_hi +inf when the primary
 * never reaches target / up).  S_lo = S_hi = S when exact.  Errors: those
 * of bba_fluid_eval and bba_fluid_size_min.  Cost: the interval's
 * evaluations at up to 4 sizes and up to 5 size searches on the primary,
 * whose progress cb (may be NULL) hears (fluid.h bba_fluid_size_min). */
int bba_fluid_approx_size_interval(const bba_fluid_approx *a, double target,
                                   const bb_drain *ps, double S_bytes,
                                   bba_progress_fn cb, void *ctx, double *S_lo,
                                   double *S_hi, char *err);

/* bba_fluid_approx_describe: one line, e.g. "5 of 20 classes exact, 15
 * sources folded into 1 class keeping mean, variance and decay rate; 35%
 * of the burstiness"; "exact" when nothing is folded. */
void bba_fluid_approx_describe(const bba_fluid_approx *a, char *buf, size_t len);

#endif
