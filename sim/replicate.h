/* replicate.h: run independent units of work (replications, sweep points)
 * on a pool of threads, with results stored by unit index; and the
 * simulator's entries, which dispatch their replications here: the
 * paper's platform (bb.h) and the fluid one (fluidsim.h) at a list of buffer
 * sizes, and `validate`'s fluid model (the front door's prediction beside
 * the fluid simulation, and the verdict).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A unit is a self-contained function of (unit index, shared read-only
 * context): it builds its own engine and draws only from streams derived
 * from (seed, unit, entity) (rng.h), and writes its result into its own
 * slot.  Threads take the next unit index from a shared counter (dynamic
 * load balancing: units may differ in cost), so which thread runs a unit
 * never shows in the results: output is identical for 1 or N threads, and
 * the MPI back end can hand the same units to other ranks unchanged.
 *
 * Cost: n_units calls of fn plus one mutex lock per unit. */
#ifndef BBSIZE_SIM_REPLICATE_H
#define BBSIZE_SIM_REPLICATE_H

#include <stddef.h>
#include <stdint.h>

#include "answer.h"
#include "bb.h"
#include "crosscheck.h"
#include "fluidplat.h"
#include "pool.h"

/* bbs_replicate_threads: the number of threads to use for n_threads = 0
 * (the online processors, at least 1). */
int bbs_replicate_threads(void);

/* bbs_replicate_run: run units 0 .. n_units-1 of fn on n_threads threads
 * (0: bbs_replicate_threads(); never more than n_units), storing unit i's
 * result at (char *)results + i * result_size.
 * On failure no further units are started; the status and message are
 * those of the lowest-numbered failed unit, prefixed with "unit %zu: ", so
 * the report does not depend on scheduling.
 * Errors: a unit's status; BB_EINVAL (n_units > 0 with results NULL);
 * BB_ENOMEM (threads could not be created; the runner then falls back to
 * running the units on the calling thread, so this only happens if even
 * that fails). */
int bbs_replicate_run(size_t n_units, size_t result_size, void *results,
                      bbs_unit_fn fn, const void *ctx, int n_threads,
                      bbs_progress_fn progress, void *pctx, char *err);

/* ---- The platform at a list of buffer sizes ------------------------------
 *
 * What `simulate` and `validate` ask of the simulator, made by the command
 * before its first library call: the question (the front door's quantised
 * workload, the sizes, the draining policy), the simulation options and the
 * run bounds as plain numbers.  bbs_plat_prepare converts the sizes to
 * quanta, resolves each size's policy and the durations, makes one
 * configuration per size and refuses a run beyond the bounds before it
 * starts; bbs_plat_execute runs every (size, replication) unit and
 * summarises each size.  Replication r of every size uses the streams of
 * unit r (common random numbers across sizes), so a row of `validate`
 * equals `simulate` at that size.  Messages name quantities ("raise the
 * event bound", "a shorter horizon"), not options. */

/* How the replications run, shared by both entries: their number, seed,
 * level and threads, the run bounds as plain numbers (events in all, and
 * bytes of every thread's replication at once: threads, or 64 when 0),
 * and progress (may be NULL): start once before the first unit, with the
 * estimated events in all and the number of units; progress as
 * bbs_replicate_run's. */
typedef struct {
    long replications;         /* >= 1 */
    uint64_t seed;
    double confidence;         /* in (0, 1) */
    int threads;               /* 0: bbs_replicate_threads() */
    double max_events, max_bytes;
    void (*start)(void *rctx, double events, size_t units);
    bbs_progress_fn progress;
    void *rctx;
} bbs_runs_spec;

/* A duration: v time units, or v seconds when seconds is 1 (v >= 0,
 * finite). */
typedef struct {
    double v;
    int seconds;
} bbs_span;

typedef struct {
    /* the question (borrowed) */
    const bba_quantized *q;    /* n, bandwidths and probabilities in quanta,
                                  B, B_BB, burst_tu, quantum_bytes */
    const bba_app *apps;       /* the applications q was quantised from
                                  (q->row): name and period_s */
    const char *source;        /* the workload's name, for messages */
    double time_unit_s;        /* > 0 */
    const double *S_bytes;     /* nsizes buffer sizes, bytes (data units for
                                  a plain workload: the quantum's unit) */
    size_t nsizes;
    bb_drain drain;           /* the threshold a fraction of each size, or
                                  bytes */
    /* the simulation */
    bbs_bb_mode mode;
    bbs_span horizon;          /* measured time (e.g. 1000 time units) */
    bbs_span warmup;           /* simulated before measuring (v 0: none) */
    bbs_span d_min;            /* periodic: v > 0 draws each period in
                                  [d_min, 2 d_min]; v 0 takes apps' period_s */
    double noise;              /* periodic: u in [0, 1) */
    bbs_runs_spec run;
} bbs_plat_question;

/* Prepared, then run: what the command reads (owned). */
typedef struct {
    size_t nsizes, replications;
    bbs_bb_config *cfg;        /* nsizes: S (quanta) and policy per size */
    bbs_bb_result *res;        /* nsizes * replications, by unit */
    bbs_bb_summary *sum;       /* nsizes (after bbs_plat_execute) */
    long horizon_units, warmup_units;
    double events;             /* the estimate, in all */
    double wall_s;             /* wall time of the replications */
    double *period_tu;         /* the applications' periods, or NULL */
} bbs_plat_runs;

/* bbs_plat_prepare: everything before the run, O(nsizes n).  Errors:
 * BB_EINVAL (a value outside its domain: a horizon or warm-up beyond 10^12
 * time units, a horizon under one, a lazy threshold in bytes above a size,
 * or a configuration bbs_bb_check refuses, with its message); BB_EDATA
 * (periodic mode without d_min and an application without a period,
 * naming the source and the application); BB_ETOOBIG (beyond max_events
 * or max_bytes, naming the estimate and what it counts); BB_ENOMEM.  r is
 * freed by bbs_plat_free whatever the result. */
int bbs_plat_prepare(bbs_plat_runs *r, const bbs_plat_question *qn, char *err);

/* bbs_plat_execute: the replications on qn->run.threads threads (or MPI
 * ranks), then the summaries.  Returns BB_OK or the lowest failed unit's
 * status (the simulator's, e.g. BB_ETOOBIG beyond the engine's event
 * bound) with its message in err. */
int bbs_plat_execute(bbs_plat_runs *r, const bbs_plat_question *qn, char *err);

void bbs_plat_free(bbs_plat_runs *r);

/* ---- The fluid platform at a list of buffer sizes ------------------------
 *
 * The same two steps for the continuous-time simulation (fluidsim.h), which
 * has no time unit and no quanta: bbs_fluidplat_prepare makes the sources
 * (fluidplat.h), one configuration per size (policy, horizon, warm-up),
 * each size's mixing estimate, and refuses a run beyond the bounds before
 * it starts; bbs_fluidplat_execute runs every (size, replication) unit and
 * summarises each size.  Replication r of every size uses the streams of
 * unit r, so a row of `validate` equals `simulate` at that size. */
/* One size of `validate`: the front door's prediction (answer.h) beside
 * the simulation, and their agreement (crosscheck.h). */
typedef struct {
    double S_bytes;
    long S_quanta;               /* -1 for the fluid model */
    double analytic, quiet_analytic;
    bbs_ci idle;                 /* simulated idle fraction */
    double quiet_mean;           /* simulated quiet fraction */
    double bb_in_analytic_Bps;   /* bytes/s written into the buffer
                                    (endurance.h), beside bb_in_Bps */
    bbs_ci bb_in_Bps;            /* simulated, bytes/s over all time */
    bbs_agreement ag;            /* analytic against idle */
} bbs_valrow;

/* bbs_valrow_predict: the prediction columns of row (S_bytes, S_quanta,
 * analytic, quiet_analytic, bb_in_analytic_Bps) from the front door's
 * answer at S_bytes under d (answer.h bba_front_idle, whose statuses it
 * returns).  Thread-safe as bba_front_idle is. */
int bbs_valrow_predict(bbs_valrow *row, const bba_front *front, double S_bytes, const bb_drain *d,
                       char *err);

/* The workload and the sizes (borrowed), set once the workload is read. */
typedef struct {
    const bba_app *apps;       /* napps applications, bytes/s and seconds */
    size_t napps;
    const long *line;          /* napps file lines for messages, or NULL */
    const char *source;        /* the workload's name, for messages */
    const bba_platform *pf;    /* B > 0; B_BB 0: unlimited; the time unit
                                  (> 0) gives memoryless applications their
                                  ON period; the resolution is unused */
    const double *S_bytes;     /* nsizes buffer sizes, bytes */
    size_t nsizes;
} bbs_fluidplat_inputs;

typedef struct {
    bbs_fluidplat_inputs in;
    bb_drain drain;           /* lazy: EPS > 0; the threshold a fraction of
                                  each size, or bytes */
    /* the simulation: horizon and warm-up in seconds when given, else
       derived (bbs_fluid_default_times; a horizon given alone takes
       bbs_fluid_default_warmup) */
    int horizon_given, warmup_given;
    double horizon_s, warmup_s;
    bbs_runs_spec run;
} bbs_fluidplat_question;

typedef struct {
    size_t nsizes, replications;
    bbs_fluid_sources src;     /* shared by every size */
    bbs_fluid_config *cfg;     /* nsizes */
    bbs_fluid_mix *mix;        /* nsizes: the mixing estimate (fluidplat.h) */
    bbs_fluid_result *res;     /* nsizes * replications, by unit */
    bbs_fluid_summary *sum;    /* nsizes (after bbs_fluidplat_execute) */
    double horizon_s, warmup_s;  /* per replication (the last size's when
                                    derived) */
    double events;             /* the estimate, in all */
    double wall_s;             /* wall time of the replications */
    bbs_valrow *val;           /* nsizes (bbs_fluidplat_validate), else NULL */
    int analytic_failed;       /* bbs_fluidplat_validate: the front door's
                                  prediction failed (nothing was simulated) */
} bbs_fluidplat_runs;

/* bbs_fluidplat_prepare: everything before the run, O(nsizes n).  Errors:
 * those of bbs_fluid_sources_make (BB_EDATA naming file, line and field;
 * BB_ENOMEM); BB_EINVAL (a lazy threshold above a size: "lower the lazy
 * threshold"; EPS not in (0, 1]; a configuration bbs_fluid_check refuses,
 * with its message); BB_ETOOBIG (beyond max_events or max_bytes, naming
 * the estimate).  r is freed by bbs_fluidplat_free whatever the result. */
int bbs_fluidplat_prepare(bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn, char *err);

/* bbs_fluidplat_execute: the replications on qn->run.threads threads (or MPI
 * ranks), then the summaries.  Returns BB_OK or the lowest failed unit's
 * status with its message in err. */
int bbs_fluidplat_execute(bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn, char *err);

/* bbs_fluidplat_validate: `validate` of the fluid model at qn's sizes:
 * the front door's prediction at each size under qn->drain (bba_front_idle
 * of front, borrowed, on qn->run.threads threads) first, so that a size it
 * cannot solve refuses before anything is simulated (r->analytic_failed
 * set); then bbs_fluidplat_prepare and bbs_fluidplat_execute; then each
 * size's row in r->val: the prediction, the simulated idle and quiet
 * fractions and rate into the buffer, and the verdict of
 * bbs_agreement_judge at relative tolerance tol over the replications of
 * r->horizon_s seconds.  Returns the first failure's status and message
 * (the front door's, the simulator's entry's or the judge's).  O(the
 * solves + the replications).  r is freed by bbs_fluidplat_free whatever
 * the result. */
int bbs_fluidplat_validate(bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn,
                           const bba_front *front, double tol, char *err);

void bbs_fluidplat_free(bbs_fluidplat_runs *r);

#endif
