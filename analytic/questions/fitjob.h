/* fitjob.h: one job's model inputs (p, bw, burst) from what its Darshan
 * log holds, and their pooling over a class of jobs, for `bbsize fit
 * darshan`.  Pure computation on the counters' totals (bb_fit_counters,
 * filled by the darshan-parser reader) and timeline.h's statistics.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One job, by what its log holds (finest first):
 *  - DXT: the timeline of its transfers.  p = time in phases / run time,
 *    bw = bytes / time in phases, burst = mean phase length.
 *  - counters and HEATMAP: p and bw from the counters (darshan.h: the
 *    slowest rank's I/O time), the number of phases from the heatmap at
 *    its bin's resolution, burst = I/O time / phases: the mean phase
 *    length if the I/O time splits evenly among the phases the bins
 *    resolve.  Phases closer than a bin count as one, so the burst is an
 *    upper bound and the phase count a lower one.  Without counters (or
 *    with no counted time) the heatmap alone: p = busy bins / run time (an
 *    upper bound: a bin with one byte counts whole).
 *  - counters alone: p and bw, no burst (the totals do not say how the
 *    I/O time splits into phases).
 * In every case p x bw x run time = the bytes counted and, with a burst,
 * p x run time = phases x burst.
 *
 * A class pools its jobs so that the same identities hold over the class:
 * p = sum of I/O times / sum of run times, bw = sum of bytes / sum of I/O
 * times, burst = sum of I/O times / sum of phases (over the jobs that have
 * phases); per-job spreads (mean, standard deviation, range) travel
 * beside. */
#ifndef BBSIZE_ANALYTIC_FITJOB_H
#define BBSIZE_ANALYTIC_FITJOB_H

#include <stddef.h>

#include "timeline.h"

enum { BB_FIT_COUNTERS = 0, BB_FIT_HEATMAP, BB_FIT_DXT, BB_FIT_NSOURCES };

typedef struct {
    int source;             /* BB_FIT_*: where the timeline came from */
    int p_from_counters;    /* p and bw are the counters' */
    int p_clamped;          /* the counters' I/O time exceeded the run time */
    double run_s;           /* run time (the horizon) */
    double on_s;            /* time in I/O: p run_s */
    double bytes;
    double p, bw_Bps;       /* bw 0 when on_s is 0 */
    size_t phases;          /* 0: no burst estimate */
    double burst_s;         /* on_s / phases */
    double burst_cv;        /* of the phase lengths (NAN: < 2 phases) */
    double phase_sumsq;     /* sum of squared phase lengths, scaled as the
                               burst is (s^2) */
    double busy_s;          /* union of the transfers (DXT), busy bins */
    double resolution_s;    /* DXT timestamps, or the heatmap's bin */
    double gap_s;           /* the gap tolerance used */
    int gap_derived;
    double period_s, period_acf;  /* NAN when none */
    int periodic;
    double start_mean_s, start_cv;/* phase starts' spacing (NAN: too few) */
} bb_fit_est;

/* What a job's counters say (the darshan-parser reader's totals). */
typedef struct {
    double run_s;           /* run time */
    double io_time_s;       /* the slowest rank's I/O time */
    double bytes;           /* read + written */
    long records;           /* counter records (0: none) */
    double heat_width_s;    /* the heatmap's bin (0: none) */
} bb_fit_counters;

/* bb_fit_from_counters: the estimate of a job from its counters k; heat is
 * the timeline of its heatmap (NULL when it has none). */
void bb_fit_from_counters(const bb_fit_counters *k, const bb_tl_stats *heat, bb_fit_est *e);

/* bb_fit_from_timeline: the estimate from a timeline alone (source
 * BB_FIT_DXT or BB_FIT_HEATMAP); resolution_s as given to the analysis. */
void bb_fit_from_timeline(const bb_tl_stats *tl, int source, double resolution_s,
                          bb_fit_est *e);

/* Running mean, standard deviation and range of per-job values. */
typedef struct {
    size_t n;
    double sum, sumsq, min, max;
} bb_spread;
void bb_spread_add(bb_spread *s, double x);
double bb_spread_mean(const bb_spread *s);   /* NAN when n = 0 */
double bb_spread_sd(const bb_spread *s);     /* sample sd; NAN when n < 2 */

typedef struct {
    size_t jobs, jobs_io, jobs_burst, jobs_periodic;
    size_t by_source[BB_FIT_NSOURCES];
    double run_s, on_s, bytes;              /* sums over the jobs */
    double phases, phase_on_s, phase_sumsq; /* over the jobs with phases */
    bb_spread p, bw, burst, period;         /* per job: bw of jobs with I/O,
                                               burst of jobs with phases,
                                               period of periodic jobs */
    size_t dated;                           /* jobs with a start time */
    double first_start, last_end, dated_run_s;
} bb_fit_class;

typedef struct {
    double p, bw_Bps;       /* pooled */
    int has_burst;
    double burst_s, burst_cv;   /* pooled over all phases (cv NAN: < 2) */
    double concurrency;     /* sum of run times / span from the first start
                               to the last end (NAN: fewer than 2 dated jobs):
                               how many of the class ran at once on average */
    /* the workload's row (bbsize-fit(1)): count = the concurrency rounded
     * to the nearest whole number >= 1 (1 when NAN), raised to
     * ceil(p concurrency) if p_row would exceed 1; p_row = p concurrency /
     * count, so that count p_row bw = p bw concurrency, the class's mean
     * load over its span (bytes / span); p itself without a concurrency */
    long count;
    double p_row;
} bb_fit_row;

/* bb_fit_class_init: an empty class. */
void bb_fit_class_init(bb_fit_class *c);
/* bb_fit_class_add: add a job; start_epoch < 0 when its start is unknown. */
void bb_fit_class_add(bb_fit_class *c, const bb_fit_est *e, double start_epoch);
/* bb_fit_class_row: the pooled values (all 0 for a class without I/O). */
void bb_fit_class_row(const bb_fit_class *c, bb_fit_row *r);

#endif
