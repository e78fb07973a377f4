/* simcli.h: what `bbsize simulate` and `bbsize validate` share: the
 * simulation options (an argp child), the simulator's question made from
 * them (sim/replicate.h runs it), its progress on stderr, and the
 * continuous-time simulator's units on the thread pool.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_SIMCLI_H
#define BBSIZE_SRC_SIMCLI_H

#include <stdint.h>

#include "bbsim.h"
#include "cli.h"
#include "progress.h"

typedef struct {
    bb_policy_opts pol;
    bbs_bb_mode mode;
    int fluid;                 /* --mode fluid (simfluid.c; mode is unused) */
    const char *horizon_arg;   /* NULL: 1000 time units */
    const char *d_min_arg;     /* NULL: periods from the workload file */
    const char *warmup_arg;    /* NULL: 0 */
    long replications;         /* default 15 (the paper's) */
    uint64_t seed;             /* default 1 */
    double confidence;         /* default 0.95 */
    double noise;              /* u, default 0 */
    int threads;               /* 0: every core */
    bb_runopts run;            /* as parsed by the runs child (options.h); the
                                  fields above hold the resolved values */
    unsigned given;            /* which of --mode, --confidence, --noise, --d-min,
                                  --warmup were given (bb_simargs_foreign):
                                  BB_SIM_GIVEN_MODE for --mode */
} bb_simopts;

#define BB_SIM_GIVEN_MODE 1u

/* The argp child parsing bb_simopts (child input index 1). */
extern const struct argp bb_simopts_argp;
void bb_simopts_init(bb_simopts *o);

/* What simulate and validate parse alike: the platform options (child 0),
 * the simulation options (child 1) and the workload FILE argument. */
typedef struct {
    bb_common common;
    bb_simopts sim;
    const char *file;
} bb_simargs;

/* The children to give to the command's struct argp: the output child has
 * --json, --quiet, --progress, and with _csv also --csv. */
extern const struct argp_child bb_sim_children[];
extern const struct argp_child bb_sim_children_csv[];
/* bb_simargs_init: defaults for both option sets. */
void bb_simargs_init(bb_simargs *a);
/* bb_simargs_parse: handle ARGP_KEY_INIT and ARGP_KEY_ARG for a command
 * whose input starts with a bb_simargs; returns 0 when handled, else
 * ARGP_ERR_UNKNOWN. */
error_t bb_simargs_parse(bb_simargs *a, int key, char *arg, struct argp_state *state);

/* bb_simargs_foreign: the first option given that a scenario mode does not
 * take (its name, for the message), or NULL.  allow adds the platform
 * options (--pfs-bw, --time-unit, --resolution) and the replication
 * options (--replications, --threads, --confidence) that validate
 * --scenario reads.  --seed, --csv, --json, --quiet, --max-memory and
 * --max-events are always allowed; explicit defaults (--mode bernoulli
 * does count, --policy greedy does not) are not seen. */
enum { BB_SCN_ALLOW_PLATFORM = 1, BB_SCN_ALLOW_REPS = 2 };
const char *bb_simargs_foreign(const bb_simargs *a, unsigned allow);

/* bb_simargs_fluid_foreign: the first option given that --mode fluid does
 * not take (--noise, --d-min: periodic only; --resolution, --solver: no
 * quanta, no solver), or NULL. */
const char *bb_simargs_fluid_foreign(const bb_simargs *a);

/* bb_sim_question: the simulator's question (sim/replicate.h) from the
 * options alone, made before the command's first library call: mode,
 * horizon (1000 time units when not given), warm-up, d_min, noise, the
 * policy, replications, seed, confidence, threads, the run bounds
 * (--max-events, --max-memory or three quarters of the machine's memory)
 * and the progress report rep, "bbsize WHAT: i/n replications" (rep is
 * zeroed here; end it with bb_sim_report_end).  A bad value exits 64, as
 * option parsing does: a duration that does not parse or is negative,
 * --d-min not positive, --d-min or --noise without --mode periodic.  The
 * sizes and what the loaded workload gives (q, apps, source, time unit)
 * are for the command to set. */
typedef struct {
    bb_meter meter;            /* first: the progress callback's meter */
    const bb_outopts *out;
    const bb_simopts *o;
    const char *what;
    int started;
} bb_sim_report;
void bb_sim_question(bbs_plat_question *qn, bb_sim_report *rep, const bb_simopts *o,
                     const bb_outopts *out, const char *what);
/* bb_sim_report_end: end the progress line, if the run started one. */
void bb_sim_report_end(bb_sim_report *rep);
/* bb_sim_die: exit with a failure of bbs_plat_prepare or bbs_plat_execute:
 * BB_EINVAL (a value out of its domain) as a usage error (64) with the
 * options its quantities stand for (status.h), anything else as
 * bb_die_lib. */
_Noreturn void bb_sim_die(int rc, const char *err);

/* Wall seconds per event of the simulators' estimates (bench/estimate.sh
 * measures them on one thread): bbs_bb_estimate's (the discrete
 * simulator: a time unit, or a period's start or end) and
 * bbs_fluid_estimate's (a phase change). */
#define BB_SIM_S_PER_EVENT 1e-7
#define BB_FLUID_S_PER_EVENT 1e-7
/* What `simulate --replications 1` says instead of an interval: one
 * replication has no spread to build one from (bbsize-simulate(1)); the
 * JSON's _low and _high are null. */
#define BB_SIM_ONE_REPLICATION "one replication: no confidence interval; give " \
    "--replications 2 or more for one"


/* bb_sim_announce: bb_meter_estimate (progress.h) of `units` runs of
 * `events` events in all at s_per_event, spread over o->threads threads
 * (0: every core). */
void bb_sim_announce(const bb_outopts *out, const bb_simopts *o, double events,
                     double s_per_event, size_t units);

/* bb_sim_run_units: run units 0 .. n-1 of fn on o->threads threads
 * (replicate.h), with progress on stderr ("bbsize WHAT: i/n
 * replications") after 2 s when out enables it; the wall time, s, in
 * *wall_s.  Returns BB_OK or the lowest failed unit's status with its
 * message in err (BB_ERRLEN bytes). */
int bb_sim_run_units(size_t n, size_t result_size, void *results, bbs_unit_fn fn,
                     const void *uctx, const bb_simopts *o, const bb_outopts *out,
                     const char *what, double *wall_s, char *err);

/* The workload's applications as continuous-time sources (bytes/s and
 * seconds): the burst is the mean ON period, an application without one
 * enters memoryless (bba_app_on_period), with a warning when the time unit
 * is a default nobody chose.  Returns BB_OK, BB_ENOMEM, or BB_EDATA naming
 * the file, line and field of a source whose periods are not finite (err,
 * BB_ERRLEN bytes); s is freed by bb_fluid_sources_free whatever the
 * result. */
typedef struct {
    size_t n;              /* sources: the rows' counts expanded, in order */
    double *rate, *p, *on;
    size_t memoryless;     /* applications with phases and no burst */
} bb_fluid_sources;
int bb_fluid_sources_make(const bb_ctx *ctx, bb_fluid_sources *s, char *err);
void bb_fluid_sources_free(bb_fluid_sources *s);
/* bb_fluid_config_make: one replication's configuration for a buffer of S
 * bytes under o (policy, seed; horizon and warm-up given in seconds or
 * derived, bbs_fluid_default_times), the sources borrowed from src;
 * *horizon_s and *warmup_s receive them.  Exits 64 on bad options. */
void bb_fluid_config_make(const bb_ctx *ctx, const bb_simopts *o, const bb_fluid_sources *src,
                          double S, bbs_fluid_config *c, double *horizon_s, double *warmup_s);
/* bb_fluid_phased: the sources with phases (0 < p < 1, rate > 0). */
size_t bb_fluid_phased(const bbs_fluid_config *c);

/* bb_simulate_fluid: `bbsize simulate --mode fluid` (simfluid.c): the
 * workload's applications as continuous-time ON/OFF sources into a buffer
 * of bb_size bytes (sim/fluid.h); prints text or JSON.  Exits 64/65 on
 * bad options or data, 2 beyond the bounds.  Returns the exit status. */
int bb_simulate_fluid(const bb_simargs *a, const bb_qty *bb_size);

const char *bb_sim_mode_name(bbs_bb_mode m);


#endif
