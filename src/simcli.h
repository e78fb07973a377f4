/* simcli.h: what `bbsize simulate` and `bbsize validate` share: the
 * simulation options (an argp child), the simulator's question made from
 * them (sim/replicate.h runs it), its progress on stderr, and the
 * command's side of the continuous-time simulation (simfluid.c).
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
/* bb_sim_runs_spec: replications, seed, confidence, threads and the run
 * bounds (--max-events, --max-memory or three quarters of the machine's
 * memory) of o; the progress callbacks are the caller's. */
void bb_sim_runs_spec(bbs_runs_spec *s, const bb_simopts *o);
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

/* The fluid simulation (simfluid.c; sim/replicate.h bbs_fluidplat_*).
 * bb_fluid_question: its question from the options alone, made before the
 * command's first library call (as bb_sim_question): the policy (exits 64
 * for EPS 0 under lazy draining), horizon and warm-up in seconds when
 * given (a warm-up that does not parse or is negative exits 64),
 * replications, seed, confidence, threads, the run bounds and the progress
 * report fr, whose ctx and run the command sets once the workload is read
 * (the start of the run warns of memoryless applications at a default time
 * unit).  The inputs (qn->in) are for the command to set. */
typedef struct {
    bb_sim_report rep;                /* first: the progress meter */
    const bb_ctx *ctx;
    const bbs_fluidplat_runs *run;
} bb_fluid_report;
void bb_fluid_question(bbs_fluidplat_question *qn, bb_fluid_report *fr, const bb_simopts *o,
                       const bb_outopts *out, const char *what);
/* BB_FLUID_INPUTS: the question's inputs (qn->in) from a read workload
 * and platform (bb_ctx *cx) at nsizes sizes (bytes): assignments only,
 * so that nothing of src/ runs between bb_ctx_read or bb_ctx_load and the
 * simulator's entry. */
#define BB_FLUID_INPUTS(cx, sizes, nsizes) ((bbs_fluidplat_inputs){ (cx)->wl.apps, \
        (cx)->wl.n, (cx)->wl.line, (cx)->wl.source, &(cx)->pf, (sizes), (nsizes) })
/* bb_fluid_print: the first size's summary of r as text or JSON on stdout
 * (no interval with one replication), the wall time on stderr unless
 * --quiet, then bb_fluid_warn_mixing. */
void bb_fluid_print(const bb_ctx *ctx, const bbs_fluidplat_runs *r, const bb_simargs *a);
/* bb_fluid_warn_mixing: a warning for each size whose run is too short
 * for its content to forget the empty start (sim/fluidplat.h). */
void bb_fluid_warn_mixing(const bb_ctx *ctx, const bbs_fluidplat_runs *r);

const char *bb_sim_mode_name(bbs_bb_mode m);


#endif
