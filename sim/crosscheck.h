/* crosscheck.h: the rules of `bbsize validate` (bbsize-validate(1)), in
 * one place for its two paths (a workload file; --scenario) and for
 * `bbsize report --validate`:
 *  - the implied (p, b) of a simulated job: the model's two numbers per
 *    application, read off a demand run of the system-level simulator;
 *  - the agreement of a prediction with a simulated fraction: the three
 *    verdicts, whether the interval covers the prediction, whether the run
 *    was below resolution, and the relative gap.
 * Pure: no I/O; status codes with a message in err (BB_ERRLEN bytes).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_CROSSCHECK_H
#define BBSIZE_SIM_CROSSCHECK_H

#include <stddef.h>

#include "stats.h"

/* What a demand run (unbounded buffer, no failures) measured of one job. */
typedef struct {
    double elapsed_s;       /* E: the job's elapsed time */
    double write_s;         /* W: the union of the intervals with at least
                               one of its writes in progress */
    double bytes_written;   /* V */
} bbs_job_demand;

/* bbs_implied_pb: the job's p = W / E (at most 1; 0 when E = 0 or W = 0),
 * the fraction of time units in which it writes, and b = V / W (0 when
 * W = 0), its bandwidth while writing (bytes/s).  Errors: BB_EINVAL for a
 * negative or non-finite figure (*p and *b untouched).  O(1). */
int bbs_implied_pb(const bbs_job_demand *job, double *p, double *b_Bps, char *err);

typedef struct {
    bbs_verdict v;          /* agrees / disagrees / inconclusive, and how
                               many more replications or units would
                               decide (bbs_verdict_fraction) */
    int covered;            /* the interval covers the prediction: agrees
                               or inconclusive (the `agrees` column) */
    int below_resolution;   /* covered, and the simulation saw no event */
    double gap;             /* (simulated mean - prediction) / prediction;
                               NAN for a prediction of 0 */
} bbs_agreement;

/* bbs_agreement_judge: the prediction x (a fraction) against the interval
 * ci of the same fraction simulated over n replications of units_per_rep
 * time units each, at relative tolerance tol: agrees when x is inside ci
 * and ci within +-tol of x; inconclusive when inside but wider or below
 * resolution; disagrees when outside.  An x within 1e-9 outside [0, 1]
 * (a solver's rounding) is taken as the bound.  Errors: BB_EINVAL for x
 * further outside [0, 1] or NaN, tol not > 0, n < 1 or units_per_rep < 0.
 * O(1). */
int bbs_agreement_judge(double x, const bbs_ci *ci, double n, double units_per_rep, double tol,
                        bbs_agreement *out, char *err);

/* bbs_verdict_name: "agrees", "disagrees", "inconclusive". */
const char *bbs_verdict_name(bbs_verdict_kind k);

/* Sizing a simulation so that its verdict concludes (bbsize report
 * --validate; one rule for every caller).  A fraction x simulated over n
 * replications of U time units each: a replication's fraction has
 * variance D x (1 - x) / U, where D, the dispersion, is 1 for independent
 * units and larger when idle units come in runs (D is about the mean run
 * length).  bbs_ci_fraction's interval is then logit(m) +- h with
 * h = t_{n-1} sqrt(D / (n U x (1 - x))).  The rule asks for
 * h <= log(1 + tol) / 2: a mean up to one half-width above x (logit
 * scale) still has its interval inside x (1 + tol), so when x is right
 * the verdict agrees with probability about level; and for at least
 * -log((1 - level) / 2) / x units in all, so that a run seeing no idle
 * unit at all has a Clopper-Pearson bound below x (disagrees).
 *
 * bbs_units_for_verdict: *units, the time units IN ALL (n x U) the rule
 * asks for at prediction x in (0, 1), relative tolerance tol > 0,
 * confidence level in (0, 1), n >= 2 replications and dispersion
 * D > 0.  Errors: BB_EINVAL naming the value out of its domain (*units
 * untouched).  O(1). */
int bbs_units_for_verdict(double x, double tol, double level, double n, double dispersion,
                          double *units, char *err);

/* bbs_fraction_dispersion: D as a run measured it, from the interval ci
 * of a fraction over n >= 2 replications of units_per_rep units each
 * (the inverse of the rule's h): h^2 n U m (1 - m) / t_{n-1}^2 with h
 * the interval's half-width on the logit scale and m its mean.  NAN when
 * the run cannot tell (m at 0 or 1, n < 2, no units).  O(1). */
double bbs_fraction_dispersion(const bbs_ci *ci, double n, double units_per_rep);

#endif
