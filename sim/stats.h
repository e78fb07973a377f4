/* stats.h: the statistics the simulator reports: running mean and variance
 * (Welford), time-weighted averages, weighted histograms, and Student-t
 * confidence intervals across replications.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * All accumulators are plain structs the caller owns (no allocation except
 * the histogram's bins); O(1) per update.  Welford accumulators merge
 * (Chan, Golub and LeVeque 1979), so partial results from threads or ranks
 * combine; merge order matters only to rounding, and the replication runner
 * merges in unit order so results are identical whatever the thread count. */
#ifndef BBSIZE_SIM_STATS_H
#define BBSIZE_SIM_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Running mean and variance (Welford 1962). */
typedef struct {
    uint64_t n;
    double mean;
    double m2;          /* sum of squared deviations from the mean */
    double min, max;
} bbs_welford;

void bbs_welford_init(bbs_welford *w);
void bbs_welford_add(bbs_welford *w, double x);
/* bbs_welford_merge: w += o (Chan et al.'s pairwise update). */
void bbs_welford_merge(bbs_welford *w, const bbs_welford *o);
/* Sample variance (n - 1 denominator; 0 when n < 2) and standard deviation. */
double bbs_welford_var(const bbs_welford *w);
double bbs_welford_sd(const bbs_welford *w);

/* Time-weighted average of a piecewise-constant signal v(t). */
typedef struct {
    double t0;          /* start of the observation, s */
    double t_last;      /* time of the last change, s */
    double v_last;      /* value since t_last */
    double area;        /* integral of v from t0 to t_last */
} bbs_timeavg;

/* bbs_timeavg_init: start observing at t0_s with value v0. */
void bbs_timeavg_init(bbs_timeavg *a, double t0_s, double v0);
/* bbs_timeavg_set: the signal becomes v at t_s (t_s >= t_last). */
void bbs_timeavg_set(bbs_timeavg *a, double t_s, double v);
/* bbs_timeavg_mean: average over [t0, t_end_s] (v_last held until t_end);
 * 0 for an empty interval. */
double bbs_timeavg_mean(const bbs_timeavg *a, double t_end_s);

/* Histogram with nbins equal bins over [lo, hi), weighted (use the time
 * spent as the weight for an occupancy distribution), plus underflow and
 * overflow weights. */
typedef struct {
    size_t nbins;
    double lo, hi, width;
    double *w;          /* nbins weights */
    double under, over; /* weight below lo, at or above hi */
    double total;       /* all weight, including under and over */
} bbs_hist;

/* bbs_hist_init: allocate nbins (>= 1) bins over [lo, hi), lo < hi.
 * Errors: BB_EINVAL, BB_ENOMEM. */
int bbs_hist_init(bbs_hist *h, size_t nbins, double lo, double hi, char *err);
void bbs_hist_free(bbs_hist *h);           /* safe on a zeroed struct */
void bbs_hist_add(bbs_hist *h, double x, double weight);
/* bbs_hist_merge: h += o (same layout; BB_EINVAL otherwise). */
int bbs_hist_merge(bbs_hist *h, const bbs_hist *o, char *err);
/* bbs_hist_quantile: smallest bin upper edge x with weight(< x) >= q*total
 * among in-range bins (under counts below lo); NAN when empty. */
double bbs_hist_quantile(const bbs_hist *h, double q);

/* Student-t confidence interval for the mean of n independent samples:
 * mean +- t_{(1+level)/2, n-1} sd / sqrt(n), with GSL's t quantile
 * gsl_cdf_tdist_Pinv.  level in (0, 1).  For n < 2, lo = -inf, hi = +inf
 * and half = inf (no interval).
 * Errors: BB_EINVAL (level outside (0, 1)). */
typedef struct {
    double mean, lo, hi, half;
    double level;
    uint64_t n;
} bbs_ci;

int bbs_ci_t(const bbs_welford *w, double level, bbs_ci *out, char *err);
/* bbs_ci_fraction: confidence interval for a fraction in [0, 1] estimated
 * by the mean of n replications, each a time average over units_per_rep
 * time units (idle, quiet, stall fractions).  A Student-t interval on the
 * logit scale (delta method: logit(m) +- t sd / (sqrt(n) m (1 - m)),
 * mapped back with the logistic function), so lo and hi lie in [0, 1] by
 * construction and the interval is asymmetric near 0 and 1, as the
 * sampling distribution of a small fraction is.  When every replication
 * saw 0 (or 1) the logit is undefined: the interval is the exact
 * Clopper-Pearson one for 0 events in n x units_per_rep units, [0,
 * 1 - ((1 - level) / 2)^(1 / N)] (about 3.7 / N at 95%; exact for
 * independent units, optimistic when stalls come in runs), mirrored at 1.
 * With n < 2 replications: [0, 1].  Errors: BB_EINVAL (level). */
int bbs_ci_fraction(const bbs_welford *w, double units_per_rep, double level, bbs_ci *out,
                    char *err);

/* bbs_ci_positive: the same for a quantity >= 0 (a size, an occupancy):
 * a Student-t interval on the log scale (m exp(+- t sd / (sqrt(n) m))),
 * so lo >= 0 by construction; [0, 0] when every replication saw 0, and
 * [0, inf] with n < 2.  Errors: BB_EINVAL (level). */
int bbs_ci_positive(const bbs_welford *w, double level, bbs_ci *out, char *err);

/* Verdict of a prediction against a simulated fraction (bbsize-validate(1)). */
typedef enum {
    BBS_AGREES = 0,       /* inside the interval, which is within the tolerance */
    BBS_DISAGREES,        /* outside the interval */
    BBS_INCONCLUSIVE      /* inside, but the interval is too wide to tell */
} bbs_verdict_kind;

typedef struct {
    bbs_verdict_kind kind;
    int below_resolution;   /* no event seen (interval [0, hi]): the prediction
                               is under what the run can see */
    double rel_halfwidth;   /* max(hi - x, x - lo) / x (inf when x = 0) */
    double more_replications;  /* inconclusive: about this many more would
                                  decide (same horizon), else 0 */
    double more_units;      /* inconclusive: or this many more time units per
                               replication (same replications), else 0 */
} bbs_verdict;

/* bbs_verdict_fraction: compare prediction x with the interval ci of a
 * fraction simulated over n replications x units_per_rep units.  Agrees
 * when x is inside and the interval's relative half-width around x is at
 * most tol; inconclusive when inside but wider (the width shrinks as
 * 1 / sqrt(replications x units): the more needed follow from that; below
 * resolution, from needing about (z / tol)^2 events at rate x); disagrees
 * when outside.  x = 0 agrees only with a simulation that saw nothing. */
void bbs_verdict_fraction(double x, const bbs_ci *ci, double n, double units_per_rep,
                          double tol, bbs_verdict *v);

/* bbs_ci_contains: lo <= x <= hi. */
int bbs_ci_contains(const bbs_ci *c, double x);

#endif
