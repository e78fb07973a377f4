/* progress.h: one progress meter for every long run, on standard error.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "bbsize WHAT: DONE/TOTAL UNIT, RATE/s, about T left".  On a terminal the
 * line is redrawn in place at most 5 times a second; off a terminal (with
 * --progress) a line is printed at most every 5 s.  Nothing is shown in
 * the first 2 s, so quick runs stay silent, nor with --quiet.  The
 * environment's BBSIZE_PROGRESS_INTERVAL=S (seconds, >= 0) replaces both
 * the 2 s and the 5 s (the tests use 0: every update).  A run whose
 * total is unknown shows DONE UNIT and the rate, in whole lines (every 5 s);
 * one whose total is only bounded (bb_meter_bound) shows "DONE of at most
 * MOST UNIT, RATE/s, at most T left", in whole lines too.  Not
 * thread-safe: callers from worker threads hold a lock (sim/pool.c calls
 * under its own). */
#ifndef BBSIZE_SRC_PROGRESS_H
#define BBSIZE_SRC_PROGRESS_H

#include <stddef.h>
#include <time.h>

#include "options.h"

typedef struct {
    const char *what, *unit;
    size_t total;               /* 0: unknown */
    struct timespec t0;
    double last;                /* seconds since t0 of the last line */
    double quiet_s, every_s;    /* nothing before; off a terminal, the interval */
    int enabled, tty, shown;
} bb_meter;

/* bb_progress_enabled: whether progress is shown: a terminal on stderr,
 * or --progress; never with --quiet. */
int bb_progress_enabled(const bb_outopts *o);

/* bb_meter_start: start timing; enabled as bb_progress_enabled(out). */
void bb_meter_start(bb_meter *m, const bb_outopts *out, const char *what, const char *unit,
                    size_t total);
/* bb_meter_update: done units of total so far (non-decreasing). */
void bb_meter_update(bb_meter *m, size_t done);
/* bb_meter_bound: a stage of a run whose length is bounded, not known (a
 * search, sizing.h bba_progress): done of at most `most` units of the
 * stage, named `what` (NULL: the meter's), `units` of the whole run so far
 * (the rate is theirs since bb_meter_start), left_s the most seconds the
 * stage can still take (< 0: not known; left out). */
void bb_meter_bound(bb_meter *m, const char *what, size_t units, size_t done, size_t most,
                    double left_s);

/* bb_meter_elapsed: seconds since bb_meter_start. */
double bb_meter_elapsed(const bb_meter *m);

/* bb_meter_end: end the line if one was drawn; returns the seconds since
 * bb_meter_start. */
double bb_meter_end(bb_meter *m);

/* bb_meter_progress: a progress callback of the libraries (sim/pool.h's
 * bbs_progress_fn: done of total units) whose ctx is a bb_meter *. */
void bb_meter_progress(void *ctx, size_t done, size_t total);

/* bb_meter_estimate: before a run estimated at `seconds` (over 10, or
 * any with --progress; never with --quiet), one line on stderr: "bbsize:
 * this run is estimated at about 40 s (N UNIT)", unit e.g. "events"; a
 * seconds that is not finite (an estimator's failure) says that the
 * length could not be estimated.  Returns whether it printed. */
int bb_meter_estimate(const bb_outopts *out, double seconds, double count, const char *unit);

#endif
