/* valrun.h: the computation of `bbsize validate` on a loaded workload,
 * shared by the command and by `bbsize report --validate` (which calls it
 * in-process): per buffer size, the front door's idle and quiet fractions
 * (analytic/front/answer.h), the simulated replications, and the row's
 * agreement (sim/crosscheck.h).  The simulation is the model's own: the
 * discrete simulator (sim/bb.h, --mode bernoulli, periodic or onoff) for
 * the discrete models, the continuous-time one (sim/fluidsim.h) for the fluid
 * model.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_VALRUN_H
#define BBSIZE_SRC_VALRUN_H

#include "simcli.h"

/* One row of `validate`: sim/replicate.h's, the discrete models' too. */
typedef bbs_valrow bb_valrow;

typedef struct {
    int fluid;                   /* continuous time: frun, else run */
    bbs_plat_runs run;           /* the discrete simulation */
    bbs_fluidplat_runs frun;     /* the fluid simulation */
    bb_valrow *rows;             /* n rows, one per size (fluid: frun.val) */
    size_t n, n_agree, n_inconclusive;
    long replications;
    double horizon;              /* per replication: time units, or s (fluid) */
    char how[256];               /* "15 replications x 1000 time units of 1 min" */
    double wall_s;
    double cluster;              /* the stalls' clustering kappa (crosscheck.h
                                    bbs_stall_cluster; 1 for the fluid model) */
    /* The length without --horizon (crosscheck.h, one rule): */
    int auto_horizon;            /* no --horizon: planned and re-run below */
    bbs_horizon_plan plan;       /* the discrete first run's plan (the fluid
                                    model's first run is its simulator's own
                                    length: no plan) */
    double events_per_unit;      /* per size, replication and time unit (s) */
    double warmup;               /* per replication, time units (s) */
    double budget_events;        /* the budget of either run, events in all:
                                    BBS_VALIDATE_AUTO_EVENTS or --max-events */
    double budget_units;         /* the same per replication, time units (s) */
    double first_horizon;        /* extended: the first run's horizon */
    int extended;                /* run once more, longer: a row was
                                    inconclusive and the rule's length at
                                    the dispersion measured fits the budget */
    double *need;                /* n: per replication, the length the rule
                                    asks of row k after the last run (0: it
                                    concluded); beyond the budget: not run */
    double *disp;                /* n: the dispersion the last run that left
                                    row k inconclusive measured (NAN: none) */
    size_t unresolved;           /* rows still inconclusive after the last
                                    run (a prediction in (0, 1)) */
    double unresolved_units;     /* the longest need among them */
    int analytic_failed;         /* the failure was the front door's: its
                                    message names no file (bb_ctx_die_answer
                                    adds it); else the simulation's, whose
                                    messages do */
} bb_validation;

/* bb_validation_run: the n sizes S (bytes) of the loaded workload and
 * platform ctx under the simulation options o, at relative tolerance tol.
 * The analytic side runs first (on o->threads threads): a size it cannot
 * solve returns its status with the message in err before anything is
 * simulated.  The discrete simulation returns the statuses of
 * bbs_plat_prepare and bbs_plat_execute (sim/replicate.h: BB_EINVAL for a
 * value out of its domain, bb_sim_die's usage error; BB_ETOOBIG beyond the
 * run bounds, BB_EDATA, BB_ENOMEM; a value that does not parse exits 64
 * as option parsing does).  On failure V is partly filled:
 * bb_validation_free is still safe, and required.  The interval of a row
 * is the fraction interval of the simulator's summary, a 0-event one
 * widened for the runs (bbs_ci_cluster_zero); the verdict is
 * bbs_agreement_judge_clustered's.
 * Without --horizon the length is the rule's (sim/crosscheck.h), for
 * every model and caller (`validate`, `report --validate`): the discrete
 * first run's horizon is planned from the predictions at the workload's
 * clustering (bbs_horizon_plan_make, after the analytic side: enough
 * units to resolve each prediction to tol, within BBS_VALIDATE_AUTO_EVENTS
 * and the run bound; at least 1000 time units), the fluid model's is its
 * simulator's own; then, when a row is inconclusive, the run is repeated
 * once at the longest length the rule asks at the dispersions measured
 * (bbs_rerun_units) that fits the same budget.  A row still inconclusive
 * has its need in V->need (V->unresolved of them; beyond the budget, or
 * left so by the one re-run), for the caller to say with its CPU time
 * (bb_validation_cpu_s). */
int bb_validation_run(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o,
                      const double *S, size_t n, double tol, char *err);
/* bb_validation_fluid: the fluid model's validation as the simulator's
 * entry returned it (sim/replicate.h bbs_fluidplat_validate of question
 * fq on front into V->frun, with status rc and message err, asked with the
 * question and report of bb_fluid_question): ends the progress line,
 * fills the rest of V (V zeroed but for frun) and, without --horizon,
 * takes the re-run step of bb_validation_run (the entry asked again at
 * the longer horizon).  A command that knows the model is fluid before it
 * reads the workload (validate --mode fluid) asks the entry itself, with
 * nothing of src/ between the libraries' calls; bb_validation_run asks it
 * for the others.  Returns rc, or the first failure after it. */
int bb_validation_fluid(bb_validation *V, const bbs_fluidplat_question *fq,
                        bb_fluid_report *rep, const bba_front *front, double tol, int rc,
                        char *err);
/* bb_validation_cpu_s: the CPU seconds (BB_SIM_S_PER_EVENT or
 * BB_FLUID_S_PER_EVENT a simulated event, every thread's) of a run of V's
 * sizes and replications at `units` per replication (time units, s for
 * the fluid model).  O(1). */
double bb_validation_cpu_s(const bb_validation *V, double units);
void bb_validation_free(bb_validation *V);

#endif
