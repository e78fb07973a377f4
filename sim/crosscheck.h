/* crosscheck.h: the rules of `bbsize validate` (bbsize-validate(1)), in
 * one place for its two paths (a workload file; --scenario) and for
 * `bbsize report --validate`:
 *  - the implied (p, b) of a simulated job: the model's two numbers per
 *    application, read off a demand run of the system-level simulator;
 *  - the agreement of a prediction with a simulated fraction: the three
 *    verdicts, whether the interval covers the prediction, whether the run
 *    was below resolution, and the relative gap;
 *  - how long a run must be for its verdict to conclude: one rule
 *    (bbs_units_for_verdict), before any run at the workload's clustering
 *    (the default horizon's plan) and after one at the dispersion it
 *    measured (the one longer re-run).
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
    bbs_verdict v;          /* agrees / disagrees / inconclusive
                               (bbs_verdict_fraction), and how many more
                               replications or units would decide: the
                               rule's length (bbs_rerun_units) less what
                               ran, about */
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
 * resolution; disagrees when outside.  Inconclusive, the units more a
 * replication (or the replications more, at the same length) are the
 * rule's (bbs_rerun_units with kappa 1, the units independent).  An x
 * within 1e-9 outside [0, 1]
 * (a solver's rounding) is taken as the bound.  Errors: BB_EINVAL for x
 * further outside [0, 1] or NaN, tol not > 0, n < 1 or units_per_rep < 0.
 * O(1). */
int bbs_agreement_judge(double x, const bbs_ci *ci, double n, double units_per_rep, double tol,
                        bbs_agreement *out, char *err);

/* ---- How long a validation must run: one rule -------------------------
 * A fraction x simulated over n replications of U time units each: a
 * replication's fraction has variance D x (1 - x) / U, where D, the
 * dispersion, is 1 for independent units and larger when idle units come
 * in runs (a full buffer stays full while a burst lasts and the level
 * walks back down: D is about the mean run length, in units).
 * bbs_ci_fraction's interval is then logit(m) +- h with h = t_{n-1}
 * sqrt(D / (n U x (1 - x))).  The rule asks for h <= log(1 + tol) / 2:
 * a mean up to one half-width above x (logit scale) still has its
 * interval inside x (1 + tol), so when x is right the verdict agrees with
 * probability about level; and for at least D (-log((1 - level) / 2)) / x
 * units in all, so that a run seeing no idle unit at all, N / D
 * independent chances in N units (bbs_ci_cluster_zero), has a
 * Clopper-Pearson bound below x (disagrees).  D is the workload's
 * clustering kappa (bbs_stall_cluster) before any run, and the
 * dispersion a run measured (bbs_fraction_dispersion) after it: the one
 * re-run of src/valrun.c, bbs_rerun_units.
 *
 * The clustering kappa before any run: the relaxation time of the
 * buffer's level walk, 2 sigma^2 / mu^2 time units (mu = B - E > 0 its
 * drift and sigma^2 = sum_i b_i^2 p_i (1 - p_i) (2 L_i (1 - p_i) - 1)
 * the asymptotic variance of the load per unit, an ON/OFF application of
 * mean ON run L_i units; L_i = 1/(1 - p_i) is a fresh draw every unit),
 * plus the stalled units of one burst at a full buffer, L_max M / B
 * (L_max overflowing units, each followed by up to (M - B) / B stall
 * units, M = sum_i b_i).  Measured (docs/validation.md): the seed-1
 * workload of `generate --apps 3 --burst 10 --load 0.7 --p-max 0.3` at
 * its chain size, 448 estimated, about 150 observed; the README bursts
 * example at 60 s units, 34 estimated, about 30 observed. */

/* The automatic budget of a validation's default horizon: events over
 * all sizes and replications (about 5 s at the simulator's 1e-7 s per
 * event), the first run's and the re-run's each; the run bound
 * (--max-events) applies when lower. */
#define BBS_VALIDATE_AUTO_EVENTS 5e7

/* bbs_stall_cluster: kappa >= 1 for n applications of b_i quanta per unit,
 * Pr(ON) p_i and mean ON run L_i units (L NULL, or L_i <= 1/(1 - p_i): a
 * fresh draw every unit) on B quanta per unit; INFINITY when E >= B (no
 * drift down: the runs do not end).  O(n). */
double bbs_stall_cluster(size_t n, const long *b, const double *p, const double *L, long B);

/* bbs_units_for_verdict: *units, the time units IN ALL (n x U) the rule
 * asks for at prediction x in (0, 1), relative tolerance tol > 0,
 * confidence level in (0, 1), n >= 2 replications and dispersion D > 0
 * (finite).  Errors: BB_EINVAL naming the value out of its domain
 * (*units untouched).  O(1). */
int bbs_units_for_verdict(double x, double tol, double level, double n, double dispersion,
                          double *units, char *err);

/* bbs_fraction_dispersion: D as a run measured it, from the interval ci
 * of a fraction over n >= 2 replications of units_per_rep units each
 * (the inverse of the rule's h): h^2 n U m (1 - m) / t_{n-1}^2 with h
 * the interval's half-width on the logit scale and m its mean.  NAN when
 * the run cannot tell (m at 0 or 1, n < 2, no units).  O(1). */
double bbs_fraction_dispersion(const bbs_ci *ci, double n, double units_per_rep);

typedef struct {
    double horizon_units;  /* per replication: the chosen horizon */
    double resolved;       /* the smallest positive prediction it resolves
                              (0: none positive; all resolved) */
    double need_units;     /* per replication, for the smallest positive
                              prediction (0: none positive; INFINITY: no
                              length resolves it, kappa infinite or fewer
                              than 2 replications) */
    size_t unresolved;     /* positive predictions beyond the budget */
} bbs_horizon_plan;

/* bbs_horizon_plan_make: the default horizon of a validation before any
 * run (`bbsize validate --mode bernoulli|periodic|onoff` and `bbsize
 * report --validate` without --horizon): per replication the longest
 * need_k = bbs_units_for_verdict(x_k, dispersion kappa) / replications
 * over the n predictions x_k in (0, 1) whose need fits budget_units (per
 * replication: the run bound over sizes x replications x events per
 * unit), at least floor_units; the predictions beyond the budget are
 * counted, never chased (the caller says how long they would take), but
 * when every positive prediction is beyond it and a length would conclude
 * the smallest, the horizon is the budget (the longest allowed comes
 * closest).  A prediction of 0 or 1 needs nothing; with kappa infinite
 * (E >= B) or fewer than 2 replications (no interval) every other one is
 * beyond, and no length concludes (the floor is run).
 * Errors: BB_EINVAL for a prediction outside [0, 1] or NaN, replications
 * < 1, kappa < 1 or NaN, floor_units < 1, budget_units < floor_units, tol
 * or level outside (0, 1).  O(n). */
int bbs_horizon_plan_make(const double *x, size_t n, double kappa, double level, double tol,
                          double replications, double floor_units, double budget_units,
                          bbs_horizon_plan *out, char *err);

/* bbs_rerun_units: after a run of n replications x units_per_rep units
 * whose row (prediction x, interval ci) was judged `kind` at tolerance
 * tol, the units per replication the rule asks of one longer run for
 * that row to conclude: 0 when the verdict concluded (agrees or
 * disagrees) or x is 0 or 1; else bbs_units_for_verdict / n at the
 * dispersion the run measured (bbs_fraction_dispersion, into *disp), or,
 * when it cannot tell (no idle unit seen: *disp NAN), at kappa, the
 * dispersion the row was judged with (bbs_agreement_judge_clustered);
 * INFINITY when no length concludes (n < 2, or kappa infinite and
 * nothing measured).  O(1). */
double bbs_rerun_units(double x, const bbs_ci *ci, bbs_verdict_kind kind, double n,
                       double units_per_rep, double tol, double kappa, double *disp);

/* bbs_ci_cluster_zero: a run that saw no stalled unit at all (ci [0, hi],
 * mean 0) over n_units units has seen about n_units / kappa independent
 * chances: its Clopper-Pearson bound widens to 1 - ((1 - level)/2)^(kappa
 * / n_units) (1 when n_units <= kappa), so that a 0-event run disagrees
 * only when the runs it contains could have shown a stall.  Any other
 * interval is left as it is (the replications' spread already carries the
 * clustering).  O(1). */
void bbs_ci_cluster_zero(bbs_ci *ci, double n_units, double kappa);

/* bbs_agreement_judge_clustered: bbs_agreement_judge with the stalls'
 * clustering kappa >= 1: the interval widened by bbs_ci_cluster_zero
 * first (*ci is updated, so that the caller prints what was judged), and
 * below resolution the units needed are kappa times those of independent
 * units.  kappa = 1 is bbs_agreement_judge.  Errors: those of
 * bbs_agreement_judge; BB_EINVAL for kappa < 1 or NaN.  O(1). */
int bbs_agreement_judge_clustered(double x, bbs_ci *ci, double n, double units_per_rep,
                                  double kappa, double tol, bbs_agreement *out, char *err);

/* bbs_verdict_name: "agrees", "disagrees", "inconclusive". */
const char *bbs_verdict_name(bbs_verdict_kind k);

#endif
