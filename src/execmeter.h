/* execmeter.h: the progress of executor runs (scenario simulations) on
 * the meter of progress.h, "bbsize WHAT: DONE/TOTAL ops, RATE/s, about T
 * left", where the ops are the operations of every run's streams
 * (sim/workload/exec.h's progress callback), and the estimate of a long
 * run before it starts.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs may go on several threads: each has a slot and reports through
 * its own bbs_exec_config; the meter sums the slots under a lock. */
#ifndef BBSIZE_SRC_EXECMETER_H
#define BBSIZE_SRC_EXECMETER_H

#include <pthread.h>
#include <stddef.h>

#include "progress.h"
#include "workload/exec.h"
#include "workload/ops.h"

typedef struct bb_exec_meter bb_exec_meter;

/* One run's share: it is expected to complete `expect` ops (its
 * workload's, counted before the run); a run whose own workload has
 * another count is scaled to it, so that the meter ends at its total. */
typedef struct {
    bb_exec_meter *em;
    size_t expect, shown;
} bb_exec_slot;

struct bb_exec_meter {
    bb_meter m;
    pthread_mutex_t mu;
    size_t done;
    size_t per_unit;    /* bb_exec_meter_units: the ops of one unit */
};

/* bb_exec_meter_start: total, the ops of every run (the slots' expect
 * summed); shown as bb_meter_start(out, what, "ops", total) says. */
void bb_exec_meter_start(bb_exec_meter *em, const bb_outopts *out, const char *what,
                         size_t total);
/* bb_exec_meter_slot: slot belongs to em and expects `expect` ops. */
void bb_exec_meter_slot(bb_exec_meter *em, bb_exec_slot *slot, size_t expect);
/* bb_exec_slot_report: cfg reports its run's progress to slot (when the
 * meter is shown; else cfg is unchanged). */
void bb_exec_slot_report(bb_exec_slot *slot, bbs_exec_config *cfg);
/* bb_exec_meter_units: a runner's progress callback (sim/pool.h
 * bbs_progress_fn; pctx the meter) for runs whose ops are seen only when
 * a unit ends, as under an MPI launcher, where units run on other ranks
 * and rank 0's runner counts every rank's units as they come back: the
 * meter shows `done` units of per_unit ops each (never less than it
 * showed).  Set em->per_unit first. */
void bb_exec_meter_units(void *pctx, size_t done, size_t total);
/* bb_exec_meter_end: bb_meter_end; the seconds since the start. */
double bb_exec_meter_end(bb_exec_meter *em);

/* The executor's speed, to turn a scenario's estimated events
 * (bb_scn_run.est_events) into seconds: wall seconds per estimated event
 * and node of the topology (bench/estimate.sh measures it). */
#define BB_EXEC_S_PER_EVENT_NODE 6.5e-9

/* bb_exec_seconds: the wall time of a run of `events` estimated events
 * on a topology of `nodes` nodes. */
double bb_exec_seconds(double events, int nodes);

#endif
