/* cmd_simulate.c: `bbsize simulate`, the discrete-event simulation of the
 * burst-buffer platform (Section 6 and Algorithm 3 of Aupy et al. 2017):
 * mean and confidence interval of the idle and quiet fractions and of the
 * buffer occupancy over independent replications.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "scnmode.h"
#include "simcli.h"

enum { OPT_SCENARIO = 0x2000, OPT_CSV_LINKS };

static const struct argp_option options[] = {
    { "scenario", OPT_SCENARIO, "FILE", 0, "scenario mode: run this scenario "
      "(bbsize-scenario(5)) instead; a FILE argument ending in .ini does the same", 0 },
    { "csv-links", OPT_CSV_LINKS, "FILE", 0, "scenario mode: write the table of link types "
      "(traffic, saturated time) to FILE as CSV", 0 },
    { 0 }
};

struct args {
    bb_simargs base;   /* first: bb_simargs_parse casts */
    bb_tgtopts tgt;    /* --bb-size (required) */
    const char *scenario;   /* scenario mode: --scenario FILE or FILE.ini */
    const char *links_csv;  /* --csv-links FILE (scenario mode) */
};

static int
ends_ini(const char *f)
{
    size_t l = f ? strlen(f) : 0;

    return l > 4 && strcmp(f + l - 4, ".ini") == 0;
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[3] = &a->tgt;
        return bb_simargs_parse(&a->base, key, arg, state);
    case OPT_SCENARIO:
        if (a->scenario)
            bb_usage_error("scenario", "'%s' is a second scenario after '%s'", arg,
                           a->scenario);
        bb_in_claim(arg);
        a->scenario = arg;
        break;
    case OPT_CSV_LINKS:
        bb_out_claim("csv-links", arg);
        a->links_csv = arg;
        break;
    case ARGP_KEY_END:
        if (ends_ini(a->base.file)) {
            if (a->scenario)
                bb_usage_unexpected(a->base.file, "a second scenario after '%s'",
                                    a->scenario);
            a->scenario = a->base.file;
            a->base.file = NULL;
        }
        if (a->scenario) {
            const char *f = bb_simargs_foreign(&a->base, 0);

            if (f == NULL && a->tgt.bb_size.set)
                f = "--bb-size";
            if (f == NULL && a->base.file)
                bb_usage_unexpected(a->base.file, "a workload file, and the scenario is the "
                                    "workload");
            if (f)
                bb_usage_inapplicable(f, "to a scenario (scenario mode takes --seed, --csv, "
                                      "--csv-links, --json, --quiet, --progress, "
                                      "--max-events, --max-memory)");
            break;
        }
        if (a->base.common.out.csv)
            bb_usage_inapplicable("csv", "without a scenario (it writes a scenario's tables)");
        if (a->links_csv)
            bb_usage_inapplicable("csv-links", "without a scenario (it writes a scenario's "
                                  "links)");
        if (!a->tgt.bb_size.set)
            bb_usage_required("bb-size", NULL);
        break;
    default:
        return bb_simargs_parse(&a->base, key, arg, state);
    }
    return 0;
}

static const struct argp_child children[] = {
    { BB_COMMON_ARGP(0), 0, NULL, 0 }, { &bb_simopts_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_TARGETS_ARGP(BB_TGT_SIZE), 0, NULL, 0 }, { 0 }
};

static const struct argp argp = {
    options, parse, "[FILE]",
    "Simulate the burst-buffer platform and report the idle fraction, quiet fraction "
    "and buffer occupancy with confidence intervals over independent replications.\v"
    "--mode bernoulli is the Markov model's own workload (the simulation is the chain); "
    "--mode periodic runs the quasi-periodic applications of Algorithm 3; --mode fluid "
    "the continuous-time fluid buffer (horizon and warm-up in seconds, by default 10^4 "
    "mean ON/OFF cycles of the slowest application and a tenth of that).  The result "
    "depends only on the inputs and --seed, not on --threads.  Scenario mode: "
    "`bbsize simulate SCENARIO.ini` (or --scenario FILE) runs applications on the "
    "dragonfly and the burst buffers (bbsize-scenario(5); --csv, --json, --seed, --quiet, "
    "--progress, --max-events, --max-memory).",
    children, NULL, NULL
};

static json_t *
volumes_json(const bb_ctx *ctx, const bbs_bb_summary *s)
{
    double q = ctx->q->quantum_bytes;

    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}",
                     "written_bytes", s->written * q,
                     "to_pfs_bytes", s->to_pfs * q,
                     "into_bb_bytes", s->to_bb * q,
                     "left_in_bb_bytes", s->left_in_bb * q,
                     "held_bytes", s->held * q,
                     "max_conservation_error_bytes", s->max_conservation_error * q);
}

/* --mode fluid: the question first, as below; from bb_ctx_read on, src/
 * calls the library only, down to the replications (sim/replicate.h). */
static int
simulate_fluid(const struct args *a)
{
    bbs_fluidplat_question qn;
    bb_fluid_report rep;
    bbs_fluidplat_runs run;
    bb_ctx ctx;
    char err[BB_ERRLEN];
    int rc;

    const char *f = bb_simargs_fluid_foreign(&a->base);

    if (f)
        bb_usage_inapplicable(f, "to --mode fluid (no time unit, no quanta; see "
                              "bbsize-simulate(1))");
    bb_fluid_question(&qn, &rep, &a->base.sim, &a->base.common.out, "simulate");
    bb_ctx_read(&ctx, &a->base.common, a->base.file);
    qn.in = BB_FLUID_INPUTS(&ctx, &a->tgt.bb_size.v, 1);
    rep.ctx = &ctx;
    rep.run = &run;
    if ((rc = bbs_fluidplat_prepare(&run, &qn, err)) != BB_OK
        || (rc = bbs_fluidplat_execute(&run, &qn, err)) != BB_OK)
        bb_sim_die(rc, err);
    bb_sim_report_end(&rep.rep);
    bb_fluid_print(&ctx, &run, &a->base);
    bbs_fluidplat_free(&run);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}

int
bb_cmd_simulate(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bbs_plat_question qn;
    bb_sim_report rep;
    bbs_plat_runs run;
    const bbs_bb_summary *s;
    bbs_bb_summary one;
    const bbs_bb_config *c;
    char sz[64], occ[64], occlo[64], occhi[64], w[64], pfs[64], bb[64], th[64], tus[64];
    double perday;   /* bytes a day of one quantum per time unit */
    char err[BB_ERRLEN];
    long S;
    int rc;

    memset(&a, 0, sizeof a);
    bb_simargs_init(&a.base);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.scenario)   /* scenario mode (cmd_scenario.c) */
        return bb_scenario_simulate(a.scenario, &a.base.common.out, &a.base.sim.run,
                                    a.links_csv);
    if (a.base.sim.fluid)   /* continuous time: no quanta, no front door */
        return simulate_fluid(&a);
    /* the discrete simulator runs in quanta: the chain's quantisation
     * (ON/OFF mode keeps the bursts in time units), else the paper's */
    a.base.common.model = a.base.sim.mode == BBS_BB_ONOFF ? BBA_MODEL_CHAIN
                                                          : BBA_MODEL_BERNOULLI;
    /* the question made first: from bb_ctx_load on, src/ calls the
     * libraries only, down to the replications (sim/replicate.h) */
    bb_sim_question(&qn, &rep, &a.base.sim, &a.base.common.out, "simulate");
    bb_ctx_load(&ctx, &a.base.common, a.base.file, NULL);
    qn.q = ctx.q;
    qn.apps = ctx.wl.apps;
    qn.source = ctx.wl.source;
    qn.time_unit_s = ctx.pf.time_unit_s;
    qn.S_bytes = &a.tgt.bb_size.v;
    qn.nsizes = 1;
    /* quanta are capped at LONG_MAX / 2 (quanta.h): a larger buffer would
     * be simulated at the cap, silently another size */
    if (bba_size_quanta(a.tgt.bb_size.v, ctx.q->quantum_bytes) >= LONG_MAX / 2)
        bb_usage_error("bb-size", "%.3g bytes is %.3g quanta of %.3g bytes, more than the "
                       "simulator counts (%.3g): give a smaller size", a.tgt.bb_size.v,
                       a.tgt.bb_size.v / ctx.q->quantum_bytes, ctx.q->quantum_bytes,
                       (double)(LONG_MAX / 2));
    if ((rc = bbs_plat_prepare(&run, &qn, err)) != BB_OK
        || (rc = bbs_plat_execute(&run, &qn, err)) != BB_OK)
        bb_sim_die(rc, err);
    bb_sim_report_end(&rep);
    s = &run.sum[0];
    if (s->replications < 2) {   /* one replication: no interval (bbsize-simulate(1)) */
        one = *s;
        one.idle_lo = one.idle_hi = one.quiet_lo = one.quiet_hi = NAN;
        one.occ_lo = one.occ_hi = one.bb_in_lo = one.bb_in_hi = NAN;
        s = &one;
    }
    c = &run.cfg[0];
    S = c->S;
    perday = ctx.q->quantum_bytes * 86400.0 / ctx.pf.time_unit_s;

    bb_ctx_fmt_size(&ctx, sz, sizeof sz, bb_ctx_quanta_to_bytes(&ctx, S));
    if (a.base.common.out.json) {
        json_t *hist = json_array();
        json_t *o;

        for (size_t b = 0; b < BBS_BB_OCC_BINS; b++)
            json_array_append_new(hist, json_real(s->occ_hist[b]));
        o = json_pack("{s:f, s:o, s:o, s:f, s:o, s:o, s:f, s:o, s:o, s:f, s:f, s:o,"
                      " s:I, s:o, s:I, s:I, s:f, s:I, s:I, s:s, s:s, s:I, s:f, s:f,"
                      " s:o, s:f, s:o, s:o}",
                      "idle_fraction", s->idle_mean,
                      "idle_fraction_low", bb_json_real_or_null(s->idle_lo),
                      "idle_fraction_high", bb_json_real_or_null(s->idle_hi),
                      "quiet_fraction", s->quiet_mean,
                      "quiet_fraction_low", bb_json_real_or_null(s->quiet_lo),
                      "quiet_fraction_high", bb_json_real_or_null(s->quiet_hi),
                      "mean_occupancy_bytes", s->occ_mean * ctx.q->quantum_bytes,
                      "mean_occupancy_bytes_low", bb_json_real_or_null(s->occ_lo * ctx.q->quantum_bytes),
                      "mean_occupancy_bytes_high", bb_json_real_or_null(s->occ_hi * ctx.q->quantum_bytes),
                      "p_empty", s->p_empty_mean,
                      "p_full", s->p_full_mean,
                      "occupancy_hist", hist,
                      "replications", (json_int_t)s->replications,
                      "seed", bb_json_seed(a.base.sim.seed),
                      "events", (json_int_t)s->events,
                      "bb_size_quanta", (json_int_t)S,
                      "bb_size_bytes", bb_ctx_quanta_to_bytes(&ctx, S),
                      "horizon_units", (json_int_t)run.horizon_units,
                      "warmup_units", (json_int_t)run.warmup_units,
                      "mode", bb_sim_mode_name(c->mode),
                      "policy", bb_drain_kind_name(c->pol.kind),
                      "threshold_quanta", (json_int_t)c->pol.threshold,
                      "empty_prob", c->pol.eps,
                      "confidence", s->level,
                      "volumes", volumes_json(&ctx, s),
                      "noise", c->noise,
                      "d_min_units", c->mode == BBS_BB_PERIODIC && c->period_tu == NULL
                          ? json_real(c->d_min_tu) : json_null(),
                      "platform", bb_json_platform(&ctx));
        /* the volume into the buffer (endurance.h), a day, with its interval */
        json_object_set_new(o, "bb_write_bytes_per_day", json_real(s->bb_in_mean * perday));
        json_object_set_new(o, "bb_write_bytes_per_day_low",
                            bb_json_real_or_null(s->bb_in_lo * perday));
        json_object_set_new(o, "bb_write_bytes_per_day_high",
                            bb_json_real_or_null(s->bb_in_hi * perday));
        json_object_set_new(o, "stalled_fraction", json_real(s->stall_fraction_mean));
        json_object_set_new(o, "stall_semantics", json_string(BBS_STALL_SEMANTICS));
        bb_json_head(o, &ctx);
        bb_json_print(o);
    } else {
        bb_ctx_fmt_size(&ctx, occ, sizeof occ, s->occ_mean * ctx.q->quantum_bytes);
        bb_ctx_fmt_size(&ctx, occlo, sizeof occlo, s->occ_lo * ctx.q->quantum_bytes);
        bb_ctx_fmt_size(&ctx, occhi, sizeof occhi, s->occ_hi * ctx.q->quantum_bytes);
        bb_ctx_fmt_size(&ctx, w, sizeof w, s->written * ctx.q->quantum_bytes);
        bb_ctx_fmt_size(&ctx, pfs, sizeof pfs, s->to_pfs * ctx.q->quantum_bytes);
        bb_ctx_fmt_size(&ctx, bb, sizeof bb, (s->left_in_bb + s->held) * ctx.q->quantum_bytes);
        bb_ctx_fmt_size(&ctx, th, sizeof th, bb_ctx_quanta_to_bytes(&ctx, c->pol.threshold));
        bb_fmt_duration(tus, sizeof tus, ctx.pf.time_unit_s);
        if (s->replications < 2)
            printf("simulated idle %.4g, quiet %.4g, mean occupancy %s (%s)\n", s->idle_mean,
                   s->quiet_mean, occ, BB_SIM_ONE_REPLICATION);
        else
            printf("simulated idle %.4g (%g%% CI [%.4g, %.4g]), quiet %.4g [%.4g, %.4g], "
                   "mean occupancy %s [%s, %s]\n",
                   s->idle_mean, 100.0 * s->level, s->idle_lo, s->idle_hi,
                   s->quiet_mean, s->quiet_lo, s->quiet_hi, occ, occlo, occhi);
        printf("  %s burst buffer (%ld quanta), %s draining", sz, S,
               bb_drain_kind_name(c->pol.kind));
        if (c->pol.kind == BB_DRAIN_LAZY)
            printf(" (threshold %s, EPS %g)", th, c->pol.eps);
        printf(", %s applications; %zu replications x %ld time units of %s, seed %llu, "
               "%llu events in %.2f s\n",
               bb_sim_mode_name(c->mode), s->replications, run.horizon_units, tus,
               (unsigned long long)a.base.sim.seed, (unsigned long long)s->events, run.wall_s);
        printf("  written %s = to PFS %s + left in buffer and held %s (conservation error "
               "%.2g quanta)\n", w, pfs, bb, s->max_conservation_error);
        bb_ctx_fmt_rate(&ctx, w, sizeof w, s->bb_in_mean * perday / 86400.0);
        bb_ctx_fmt_rate(&ctx, occlo, sizeof occlo, s->bb_in_lo * perday / 86400.0);
        bb_ctx_fmt_rate(&ctx, occhi, sizeof occhi, s->bb_in_hi * perday / 86400.0);
        if (s->replications < 2)
            printf("  into the buffer %s\n", w);
        else
            printf("  into the buffer %s [%s, %s]\n", w, occlo, occhi);
    }
    bbs_plat_free(&run);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
