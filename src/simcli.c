/* simcli.c: shared options, question and progress of `simulate` and
 * `validate` (simcli.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"
#include "simcli.h"

enum {
    OPT_MODE = 0x3000, OPT_CONF, OPT_NOISE, OPT_DMIN, OPT_WARMUP
};

static const struct argp_option sim_options[] = {
    { 0, 0, 0, 0, "Simulation:", 2 },
    { "mode", OPT_MODE, "bernoulli|periodic|onoff|fluid", 0,
      "application model: Bernoulli (the Markov model's own), quasi-periodic "
      "(Algorithm 3), onoff (ON/OFF phases with the workload's burst column, the "
      "bursts model's own) or fluid (the same sources in continuous time, no time "
      "unit and no quanta); default bernoulli", 2 },
    { "confidence", OPT_CONF, "LEVEL", 0, "confidence level in (0, 1) (default 0.95)", 2 },
    { "noise", OPT_NOISE, "U", 0, "periodic: burst-length noise u in [0, 1) (default 0)", 2 },
    { "d-min", OPT_DMIN, "D", 0,
      "periodic: draw each period uniformly in [D, 2D] (a number of time units, or a "
      "duration with a unit); overrides the workload's period column", 2 },
    { "warmup", OPT_WARMUP, "T", 0,
      "time simulated before measuring (time units or a duration; default 0)", 2 },
    { 0 }
};

static error_t
sim_parse(int key, char *arg, struct argp_state *state)
{
    bb_simopts *o = state->input;
    double v;
    char msg[256];

    if (key >= OPT_MODE && key <= OPT_WARMUP)
        o->given |= 1u << (key - OPT_MODE);
    switch (key) {
    case OPT_MODE:
        if (strcmp(arg, "bernoulli") == 0)
            o->mode = BBS_BB_BERNOULLI;
        else if (strcmp(arg, "periodic") == 0)
            o->mode = BBS_BB_PERIODIC;
        else if (strcmp(arg, "onoff") == 0)
            o->mode = BBS_BB_ONOFF;
        else if (strcmp(arg, "fluid") == 0)
            o->fluid = 1;
        else
            bb_usage_value("mode", arg, "bernoulli, periodic, onoff or fluid");
        if (strcmp(arg, "fluid") != 0)
            o->fluid = 0;   /* the last --mode counts */
        break;
    case OPT_CONF:
        o->confidence = bb_opt_fraction_open("confidence", arg);
        break;
    case OPT_NOISE:
        if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK || !(v >= 0 && v < 1))
            bb_usage_value("noise", arg, "a number in [0, 1)");
        o->noise = v;
        break;
    case OPT_DMIN:
        o->d_min_arg = arg;
        break;
    case OPT_WARMUP:
        o->warmup_arg = arg;
        break;
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &o->pol;
        state->child_inputs[1] = &o->run;
        break;
    case ARGP_KEY_END:   /* the runs child's values (options.h) */
        if (o->run.seed_set)
            o->seed = o->run.seed;
        if (o->run.replications > 0)
            o->replications = o->run.replications;
        o->threads = o->run.threads;
        o->horizon_arg = o->run.horizon_arg;
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* The run options: --horizon (time units, or a duration; default 1000 time
 * units), --replications (default 15), --seed (default 1), --threads. */
static const struct argp_child sim_children[] = {
    { &bb_policy_argp, 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_SEED | BB_RUN_THREADS | BB_RUN_REPLICATIONS | BB_RUN_HORIZON), 0,
      NULL, 0 },
    { 0 }
};
const struct argp bb_simopts_argp = { sim_options, sim_parse, NULL, NULL, sim_children, NULL, NULL };

void
bb_simopts_init(bb_simopts *o)
{
    memset(o, 0, sizeof *o);
    bb_policy_opts_init(&o->pol);
    o->mode = BBS_BB_BERNOULLI;
    o->replications = 15;
    o->seed = 1;
    o->confidence = 0.95;
}

const struct argp_child bb_sim_children[] = {
    { BB_COMMON_ARGP(0), 0, NULL, 0 }, { &bb_simopts_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 }, { 0 }
};

const struct argp_child bb_sim_children_csv[] = {
    { BB_COMMON_ARGP(0), 0, NULL, 0 }, { &bb_simopts_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { 0 }
};

void
bb_simargs_init(bb_simargs *a)
{
    memset(a, 0, sizeof *a);
    bb_common_init(&a->common);
    bb_simopts_init(&a->sim);
}

error_t
bb_simargs_parse(bb_simargs *a, int key, char *arg, struct argp_state *state)
{
    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->common;
        state->child_inputs[1] = &a->sim;
        state->child_inputs[2] = &a->common.out;
        return 0;
    case ARGP_KEY_ARG:
        bb_argp_file(arg, &a->file);
        return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

const char *
bb_simargs_foreign(const bb_simargs *a, unsigned allow)
{
    const bb_common *c = &a->common;
    const bb_simopts *o = &a->sim;
    int plat = (allow & BB_SCN_ALLOW_PLATFORM) != 0, reps = (allow & BB_SCN_ALLOW_REPS) != 0;

    if (!plat && c->pfs_bw.set)
        return "--pfs-bw";
    if (!plat && c->time_unit.set)
        return "--time-unit";
    if (!plat && c->resolution)
        return "--resolution";
    if (c->bb_bw.set)
        return "--bb-bw";
    if (c->system)
        return "--system";
    if (c->solver_set)
        return "--solver";
    if (o->given & BB_SIM_GIVEN_MODE)
        return "--mode";
    if (!reps && (o->given & 1u << (OPT_CONF - OPT_MODE)))
        return "--confidence";
    if (o->given & 1u << (OPT_NOISE - OPT_MODE))
        return "--noise";
    if (o->given & 1u << (OPT_DMIN - OPT_MODE))
        return "--d-min";
    if (o->given & 1u << (OPT_WARMUP - OPT_MODE))
        return "--warmup";
    if (o->run.horizon_arg)
        return "--horizon";
    if (!reps && o->run.replications)
        return "--replications";
    if (!reps && o->run.threads)
        return "--threads";
    if (o->pol.kind == BB_DRAIN_LAZY || o->pol.threshold_set)
        return "--policy or --threshold";
    if (o->pol.eps != 0.01)
        return "--empty-prob";
    return NULL;
}

const char *
bb_simargs_fluid_foreign(const bb_simargs *a)
{
    const bb_simopts *o = &a->sim;

    if (o->given & 1u << (OPT_NOISE - OPT_MODE))
        return "--noise";
    if (o->given & 1u << (OPT_DMIN - OPT_MODE))
        return "--d-min";
    if (a->common.resolution)
        return "--resolution";
    if (a->common.solver_set)
        return "--solver";
    return NULL;
}

const char *
bb_sim_mode_name(bbs_bb_mode m)
{
    return m == BBS_BB_PERIODIC ? "periodic" : m == BBS_BB_ONOFF ? "onoff" : "bernoulli";
}

/* A duration option: a plain number counts time units, a number with a
 * unit is in seconds (the simulator converts it with the time unit). */
static bbs_span
duration_opt(const char *opt, const char *arg)
{
    double v;
    bb_qty q;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) == 0) {
        if (!isfinite(v) || v < 0)
            bb_usage_value(opt, arg, "a non-negative number of time units");
        return (bbs_span){ v, 0 };
    }
    if (bb_parse_duration(arg, &q, msg, sizeof msg) != BB_OK)
        bb_usage_error(opt, "%s", msg);
    return (bbs_span){ q.v, 1 };
}

/* Progress: pctx is a meter, or a bb_sim_report (its first member). */
static void
on_progress(void *pctx, size_t done, size_t total)
{
    (void)total;
    bb_meter_update(pctx, done);
}

static void
report_start(void *rctx, double events, size_t units)
{
    bb_sim_report *rep = rctx;

    bb_sim_announce(rep->out, rep->o, events, BB_SIM_S_PER_EVENT, units);
    bb_meter_start(&rep->meter, rep->out, rep->what, "replications", units);
    rep->started = 1;
}

void
bb_sim_runs_spec(bbs_runs_spec *s, const bb_simopts *o)
{
    s->replications = o->replications;
    s->seed = o->seed;
    s->confidence = o->confidence;
    s->threads = o->threads;
    s->max_events = bb_run_limits.max_events;
    s->max_bytes = bb_limits_memory();
}

void
bb_sim_question(bbs_plat_question *qn, bb_sim_report *rep, const bb_simopts *o,
                const bb_outopts *out, const char *what)
{
    memset(qn, 0, sizeof *qn);
    memset(rep, 0, sizeof *rep);
    if (o->mode != BBS_BB_PERIODIC && (o->d_min_arg || (o->given & 1u << (OPT_NOISE - OPT_MODE))))
        bb_usage_inapplicable(o->d_min_arg ? "d-min" : "noise",
                              "to --mode %s (periodic only): add --mode periodic or drop it",
                              bb_sim_mode_name(o->mode));
    qn->mode = o->mode;
    qn->horizon = o->horizon_arg ? duration_opt("horizon", o->horizon_arg) : (bbs_span){ 1000, 0 };
    if (o->warmup_arg)
        qn->warmup = duration_opt("warmup", o->warmup_arg);
    if (o->mode == BBS_BB_PERIODIC && o->d_min_arg) {
        qn->d_min = duration_opt("d-min", o->d_min_arg);
        if (!(qn->d_min.v > 0))
            bb_usage_value("d-min", o->d_min_arg, "positive");
    }
    qn->noise = o->noise;
    bb_policy_drain(&o->pol, &qn->drain);
    bb_sim_runs_spec(&qn->run, o);
    rep->out = out;
    rep->o = o;
    rep->what = what;
    qn->run.start = report_start;
    qn->run.progress = on_progress;
    qn->run.rctx = rep;
}

void
bb_sim_report_end(bb_sim_report *rep)
{
    if (rep->started)
        bb_meter_end(&rep->meter);
    rep->started = 0;
}

void
bb_sim_die(int rc, const char *err)
{
    char opts[256];

    if (rc != BB_EINVAL)
        bb_die_lib(rc, err);
    bb_status_options(err, opts, sizeof opts);
    bb_usage_error(NULL, "%s%s", err, opts);
}

void
bb_sim_announce(const bb_outopts *out, const bb_simopts *o, double events, double s_per_event,
                size_t units)
{
    double nt = o->threads > 0 ? (double)o->threads : (double)bbs_replicate_threads();

    if (units > 0 && nt > (double)units)
        nt = (double)units;
    bb_meter_estimate(out, events * s_per_event / nt, events, "events");
}
