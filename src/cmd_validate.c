/* cmd_validate.c: `bbsize validate`, the analytic idle fraction (Theorem 3
 * or 5) beside the simulated mean and its confidence interval, one row per
 * buffer size, with a verdict per row (Section 6.3 of Aupy et al. 2017).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "csvout.h"
#include "grid.h"
#include "scnmode.h"
#include "simcli.h"
#include "valrun.h"

#define MAX_SIZES 10000
#define DAY 86400.0   /* seconds */

enum { OPT_BB_SIZE = 0x2000, OPT_TOL, OPT_SCENARIO, OPT_CAPACITY };

static const struct argp_option options[] = {
    { "bb-size", OPT_BB_SIZE, "SIZE|FIRST:LAST:STEP", 0,
      "a burst-buffer size, or a range of sizes, e.g. 0:4PB:200TB or 0:3000:100 "
      "(data units); required", 0 },
    { "tolerance", OPT_TOL, "REL", 0, "a row agrees when the prediction is inside the "
      "interval and the interval within +-REL of it (default 0.5); inside but wider is "
      "inconclusive", 0 },
    { NULL, 0, NULL, 0, "Scenario mode (bbsize-scenario(5)):", 60 },
    { "scenario", OPT_SCENARIO, "FILE", 0, "the system-level cross-check on this scenario "
      "instead; it takes --capacity, --pfs-bw (a plain number: bytes/s), --time-unit "
      "(the median write burst when absent), --resolution, --replications (5 when "
      "absent), --seed (overrides the scenario's), --threads, --confidence, --max-memory "
      "(4GB when absent), --max-events, --csv, --json, --quiet", 60 },
    { "capacity", OPT_CAPACITY, "SIZE", 0, "override [storage] capacity (per buffer node)",
      60 },
    { 0 }
};

struct args {
    bb_simargs base;   /* first: bb_simargs_parse casts */
    const char *size_arg;
    double tol;
    int tol_set;
    bb_qty capacity;
    const char *scenario;   /* --scenario FILE: vs holds the options */
    bb_scn_vopts vs;
};

/* scenario_opts: the options of validate --scenario, or a usage error for
 * one that does not apply. */
static void
scenario_opts(struct args *a)
{
    const bb_common *c = &a->base.common;
    const bb_simopts *o = &a->base.sim;
    const char *f = bb_simargs_foreign(&a->base, BB_SCN_ALLOW_PLATFORM | BB_SCN_ALLOW_REPS);

    if (f == NULL && a->size_arg)
        f = "bb-size";
    if (f == NULL && a->tol_set)
        f = "tolerance";
    if (f)
        bb_usage_inapplicable(f, "to a scenario");
    if (a->base.file)
        bb_usage_unexpected(a->base.file, "a workload file, and the scenario is the workload");
    a->vs = (bb_scn_vopts){
        .file = a->scenario,
        .reps = o->run.replications > 0 ? o->run.replications : 5,
        .resolution = c->resolution > 0 ? c->resolution : 100,
        .threads = o->run.threads,
        .have_seed = o->run.seed_set, .seed = o->run.seed,
        .csv = c->out.csv, .json = c->out.json, .quiet = c->out.quiet,
        .progress = c->out.progress,
        .level = o->confidence,
        .pfs_Bps = c->pfs_bw.set ? c->pfs_bw.v : 0,
        .cap_bytes = a->capacity.set ? a->capacity.v : 0,
        .tu_s = c->time_unit.set ? c->time_unit.v : 0,
        .maxmem = c->max_memory_bytes > 0 ? c->max_memory_bytes : 4e9,
    };
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_BB_SIZE:
        a->size_arg = arg;
        break;
    case OPT_TOL:
        a->tol = bb_opt_fraction_open("tolerance", arg);
        a->tol_set = 1;
        break;
    case OPT_SCENARIO:
        if (a->scenario)
            bb_usage_error("scenario", "'%s' is a second scenario after '%s'", arg,
                           a->scenario);
        bb_in_claim(arg);
        a->scenario = arg;
        break;
    case OPT_CAPACITY:
        bb_opt_size("capacity", arg, &a->capacity);
        if (!(a->capacity.v > 0))
            bb_usage_value("capacity", arg, "positive");
        break;
    case ARGP_KEY_END:
        if (a->scenario) {
            scenario_opts(a);
            break;
        }
        if (a->capacity.set)
            bb_usage_inapplicable("capacity", "without a scenario");
        if (!a->size_arg)
            bb_usage_required("bb-size", "SIZE or FIRST:LAST:STEP");
        break;
    default:
        return bb_simargs_parse(&a->base, key, arg, state);
    }
    return 0;
}

static const struct argp argp = {
    options, parse, "[FILE]",
    "Compare the analytic idle fraction with the simulated one, one row per buffer "
    "size.\vThree verdicts: agrees (the analytic value lies inside the simulated "
    "confidence interval, which lies within --tolerance of it), disagrees (outside: the "
    "relative gap (simulated - analytic) / analytic is given), inconclusive (inside, but "
    "the interval is too wide to tell: the output says how many more replications or "
    "time units would decide; 'below resolution' when no idle unit was simulated at all).  "
    "With --mode bernoulli the two must agree in about a fraction LEVEL of rows; with "
    "--mode periodic the gap is the finding (Figure 4 of the paper).",
    bb_sim_children_csv, NULL, NULL
};

static json_t *
more_json(double x)
{
    return x > 0 ? json_integer((json_int_t)fmin(x, 9e18)) : json_integer(0);
}

/* SIZE, a list or FIRST:LAST:STEP (the grid's one range parser) into
 * bytes (or data units); *out is malloc'ed. */
static size_t
parse_sizes(const char *arg, double **out)
{
    bb_qty_list l;
    double *S;
    size_t n;

    bb_grid_sizes("bb-size", arg, &l);
    if (l.n > MAX_SIZES) {
        bb_qty_list_free(&l);
        bb_usage_error("bb-size", "'%s': more than %d sizes", arg, MAX_SIZES);
    }
    S = malloc(l.n * sizeof *S);
    if (S == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t k = 0; k < l.n; k++)
        S[k] = l.v[k].v;
    *out = S;
    n = l.n;
    bb_qty_list_free(&l);
    return n;
}

static const char *
verdict_text(const bb_valrow *r, const char *units, char *buf, size_t len)
{
    if (r->ag.v.kind == BBS_INCONCLUSIVE)
        snprintf(buf, len, "inconclusive%s: ~%.0f more replications, or ~%.0f more %s each",
                 r->ag.below_resolution ? " (below resolution)" : "",
                 r->ag.v.more_replications, r->ag.v.more_units, units);
    else if (r->ag.v.kind == BBS_AGREES)
        snprintf(buf, len, "agrees");
    else if (isfinite(r->ag.gap))
        snprintf(buf, len, "gap %+.1f%%", 100.0 * r->ag.gap);
    else
        snprintf(buf, len, "gap (analytic 0)");
    return buf;
}

/* How the default length was chosen (valrun.h), and what the rows still
 * inconclusive would need: the horizon and its CPU time. */
static void
horizon_line(const bb_validation *V, const char *units)
{
    char sized[160];

    if (V->fluid)
        snprintf(sized, sizeof sized, "the simulator's own");
    else if (V->plan.resolved > 0)
        snprintf(sized, sizeof sized, "sized for the predictions down to %.3g",
                 V->plan.resolved);
    else if (isfinite(V->plan.need_units))
        snprintf(sized, sizeof sized, "the budget's (no prediction's length fits it)");
    else
        snprintf(sized, sizeof sized, "the least (no length concludes)");
    double H = ceil(V->unresolved_units);

    if (V->extended)
        printf("horizon: %.6g %s per replication, run again after a first run of %.6g %s "
               "(%s) left a row inconclusive: the rule's length at the dispersion it "
               "measured\n", V->horizon, units, V->first_horizon, units, sized);
    else if (V->unresolved > 0)
        printf("horizon: %.6g %s per replication, %s\n", V->horizon, units, sized);
    if (V->unresolved > 0 && !isfinite(H))
        printf("%zu row%s still inconclusive: no length concludes %s (%s)\n", V->unresolved,
               V->unresolved == 1 ? "" : "s", V->unresolved == 1 ? "it" : "them",
               V->replications < 2 ? "one replication has no interval: give --replications 2 "
               "or more" : "the stalls' runs do not end, E >= B");
    else if (V->unresolved > 0)
        printf("%zu row%s still inconclusive, the longest needing about %.3g %s each (about "
               "%.2g s of CPU, %s): give --horizon %.0f%s to run it\n", V->unresolved,
               V->unresolved == 1 ? "" : "s", H, units, bb_validation_cpu_s(V, H),
               H > V->budget_units ? "beyond the budget" : "the one re-run was not enough",
               H, V->fluid ? "s" : "");
}

int
bb_cmd_validate(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_validation V;
    bbs_fluidplat_question fq;
    bb_fluid_report frep;
    const bb_valrow *rows;
    double *S = NULL;
    size_t n, n_agree, n_inconc;
    char err[BB_ERRLEN];
    const char *units;
    int rc, fluid;

    memset(&a, 0, sizeof a);
    bb_simargs_init(&a.base);
    a.tol = 0.5;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.scenario)   /* the system-level cross-check: cmd_validate_scn.c */
        return bb_validate_scenario(&a.vs);
    n = parse_sizes(a.size_arg, &S);
    /* --mode fluid: the fluid question first, as simulate's; from
     * bb_ctx_load on, src/ calls the libraries only, down to the
     * replications (sim/replicate.h bbs_fluidplat_validate) */
    if (a.base.sim.fluid)
        bb_fluid_question(&fq, &frep, &a.base.sim, &a.base.common.out,
                          n > 1 ? "validate" : "simulate");
    bb_ctx_load(&ctx, &a.base.common, a.base.file, NULL);
    fluid = bba_front_kind(ctx.front) == BBA_MODEL_FLUID;
    if (fluid && (a.base.sim.given & BB_SIM_GIVEN_MODE) && !a.base.sim.fluid)
        bb_usage_error("mode", "'%s': the continuous-time model answers this workload, so "
                       "its own simulation (fluid) checks it; give --model bernoulli or "
                       "--model chain to check a discrete model",
                       bb_sim_mode_name(a.base.sim.mode));
    if (!fluid && a.base.sim.fluid)
        bb_usage_error("mode", "'fluid': the %s model answers this workload; give --model "
                       "fluid to check the continuous-time one",
                       bba_model_kind_name(bba_front_kind(ctx.front)));
    if (a.base.sim.fluid) {
        memset(&V, 0, sizeof V);
        fq.in = BB_FLUID_INPUTS(&ctx, S, n);
        frep.ctx = &ctx;
        frep.run = &V.frun;
        rc = bbs_fluidplat_validate(&V.frun, &fq, ctx.front, a.tol, err);
        rc = bb_validation_fluid(&V, &fq, &frep, ctx.front, a.tol, rc, err);
    } else {
        rc = bb_validation_run(&V, &ctx, &a.base.sim, S, n, a.tol, err);
    }
    if (rc != BB_OK && V.analytic_failed)
        bb_ctx_die_answer(&ctx, rc, err);
    if (rc != BB_OK && !fluid)
        bb_sim_die(rc, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    rows = V.rows;
    n_agree = V.n_agree;
    n_inconc = V.n_inconclusive;
    units = fluid ? "s" : "time units";

    if (a.base.common.out.json) {
        json_t *arr = json_array(), *o;

        for (size_t k = 0; k < n; k++) {
            bbs_verdict_kind v = rows[k].ag.v.kind;

            json_array_append_new(arr, json_pack(
                "{s:o, s:f, s:f, s:f, s:o, s:o, s:o, s:s, s:b, s:b, s:o, s:o, s:o, s:f, s:f,"
                " s:f, s:f, s:o, s:o}",
                "bb_size_quanta", bb_json_quanta(rows[k].S_quanta),
                "bb_size_bytes", rows[k].S_bytes,
                "idle_fraction", rows[k].analytic,
                "simulated_idle_fraction", rows[k].idle.mean,
                "simulated_idle_fraction_low", bb_json_real_or_null(rows[k].idle.lo),
                "simulated_idle_fraction_high", bb_json_real_or_null(rows[k].idle.hi),
                "agrees", v == BBS_INCONCLUSIVE ? json_null() : json_boolean(v == BBS_AGREES),
                "verdict", bbs_verdict_name(v),
                "covered", rows[k].ag.covered,
                "below_resolution", rows[k].ag.below_resolution,
                "more_replications", more_json(rows[k].ag.v.more_replications),
                fluid ? "more_seconds" : "more_time_units", more_json(rows[k].ag.v.more_units),
                "relative_gap", bb_json_real_or_null(rows[k].ag.gap),
                "quiet_fraction", rows[k].quiet_analytic,
                "simulated_quiet_fraction", rows[k].quiet_mean,
                "bb_write_bytes_per_day", rows[k].bb_in_analytic_Bps * DAY,
                "simulated_bb_write_bytes_per_day", rows[k].bb_in_Bps.mean * DAY,
                "simulated_bb_write_bytes_per_day_low",
                bb_json_real_or_null(rows[k].bb_in_Bps.lo * DAY),
                "simulated_bb_write_bytes_per_day_high",
                bb_json_real_or_null(rows[k].bb_in_Bps.hi * DAY)));
        }
        o = json_pack("{s:o, s:s, s:s, s:o, s:I, s:f, s:f, s:I, s:I, s:I, s:f}",
                      "rows", arr,
                      "simulation", fluid ? "fluid" : bb_sim_mode_name(a.base.sim.mode),
                      "policy", bb_drain_kind_name(a.base.sim.pol.kind),
                      "seed", bb_json_seed(a.base.sim.seed),
                      "replications", (json_int_t)V.replications,
                      "confidence", a.base.sim.confidence,
                      "tolerance", a.tol,
                      "agree", (json_int_t)n_agree,
                      "disagree", (json_int_t)(n - n_agree - n_inconc),
                      "inconclusive", (json_int_t)n_inconc,
                      "wall_s", V.wall_s);
        if (o != NULL) {
            json_object_set_new(o, "stall_semantics", json_string(BBS_STALL_SEMANTICS));
            json_object_set_new(o, fluid ? "horizon_s" : "horizon_units", json_real(V.horizon));
            json_object_set_new(o, "horizon_chosen", json_boolean(V.auto_horizon));
            json_object_set_new(o, "stall_cluster_units",
                                bb_json_real_or_null(fluid ? NAN : V.cluster));
            json_object_set_new(o, "unresolved_sizes",
                                json_integer((json_int_t)V.unresolved));
        }
        bb_json_head(o, &ctx);
        bb_json_print(o);
    } else if (a.base.common.out.csv) {
        printf("bb_size_quanta,bb_size_bytes,idle_fraction,simulated_idle_fraction,"
               "simulated_idle_fraction_low,simulated_idle_fraction_high,agrees,relative_gap,"
               "quiet_fraction,simulated_quiet_fraction,verdict,covered,below_resolution,"
               "more_replications,%s,bb_write_bytes_per_day,simulated_bb_write_bytes_per_day,"
               "simulated_bb_write_bytes_per_day_low,simulated_bb_write_bytes_per_day_high\n",
               fluid ? "more_seconds" : "more_time_units");
        for (size_t k = 0; k < n; k++) {
            bbs_verdict_kind v = rows[k].ag.v.kind;

            /* no quanta for the fluid model; agrees: 1, 0, or empty when
             * inconclusive */
            bb_csv_row(stdout, "nnnnnnsnnnsddnnnnnn",
                   rows[k].S_quanta >= 0 ? (double)rows[k].S_quanta : NAN,
                   rows[k].S_bytes, rows[k].analytic, rows[k].idle.mean, rows[k].idle.lo,
                   rows[k].idle.hi, v == BBS_INCONCLUSIVE ? "" : v == BBS_AGREES ? "1" : "0",
                   rows[k].ag.gap, rows[k].quiet_analytic, rows[k].quiet_mean,
                   bbs_verdict_name(v), rows[k].ag.covered, rows[k].ag.below_resolution,
                   rows[k].ag.v.more_replications, rows[k].ag.v.more_units,
                   rows[k].bb_in_analytic_Bps * DAY, rows[k].bb_in_Bps.mean * DAY,
                   rows[k].bb_in_Bps.lo * DAY, rows[k].bb_in_Bps.hi * DAY);
        }
    } else {
        printf("%-14s %10s %10s %25s  %s\n", "buffer size", "analytic", "simulated",
               "CI", "verdict");
        for (size_t k = 0; k < n; k++) {
            char sz[64], ci[64], verdict[160];

            bb_ctx_fmt_size(&ctx, sz, sizeof sz, rows[k].S_bytes);
            snprintf(ci, sizeof ci, "[%.4g, %.4g]", rows[k].idle.lo, rows[k].idle.hi);
            printf("%-14s %10.4g %10.4g %25s  %s\n", sz, rows[k].analytic, rows[k].idle.mean,
                   ci, verdict_text(&rows[k], units, verdict, sizeof verdict));
        }
        /* the volume into the buffer (endurance), the same runs */
        printf("%-14s %16s %16s %35s\n", "buffer size", "into it a day", "simulated", "CI");
        for (size_t k = 0; k < n; k++) {
            char sz[64], w0[32], w1[32], lo[32], hi[32], ci[80];

            bb_ctx_fmt_size(&ctx, sz, sizeof sz, rows[k].S_bytes);
            bb_ctx_fmt_size(&ctx, w0, sizeof w0, rows[k].bb_in_analytic_Bps * DAY);
            bb_ctx_fmt_size(&ctx, w1, sizeof w1, rows[k].bb_in_Bps.mean * DAY);
            bb_ctx_fmt_size(&ctx, lo, sizeof lo, rows[k].bb_in_Bps.lo * DAY);
            bb_ctx_fmt_size(&ctx, hi, sizeof hi, rows[k].bb_in_Bps.hi * DAY);
            snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
            printf("%-14s %16s %16s %35s\n", sz, w0, w1, ci);
        }
        printf("%zu of %zu sizes agree, %zu disagree, %zu inconclusive at %g%% confidence "
               "(tolerance +-%g); analytic model %s, %s applications simulated, %s draining, "
               "%s, seed %llu, %.2f s\n",
               n_agree, n, n - n_agree - n_inconc, n_inconc, 100.0 * a.base.sim.confidence,
               a.tol, bba_model_kind_name(bba_front_kind(ctx.front)),
               fluid ? "fluid" : bb_sim_mode_name(a.base.sim.mode),
               bb_drain_kind_name(a.base.sim.pol.kind), V.how,
               (unsigned long long)a.base.sim.seed, V.wall_s);
    }
    if (!a.base.common.out.json && !a.base.common.out.csv) {
        int any_below = 0;

        for (size_t k = 0; k < n; k++)
            any_below |= rows[k].ag.below_resolution;
        printf("intervals: Student-t on the logit of the replication means (inside [0, 1]); "
               "inconclusive: the prediction is inside an interval wider than +-%g of it\n",
               a.tol);
        if (any_below) {
            double N = (double)V.replications * V.horizon, Ne = N / V.cluster;

            if (V.cluster > 1)
                printf("below resolution: no idle %s in %.0f simulated %s, about %.0f "
                       "independent ones (stalls come in runs of about %.3g units); idle "
                       "fractions under %.3g (the exact Clopper-Pearson bound for 0 of %.0f) "
                       "cannot be told from 0, so these rows can neither agree nor disagree: "
                       "simulate the %s given (--horizon or --replications)\n",
                       fluid ? "time" : "unit", N, fluid ? "seconds" : "units", Ne, V.cluster,
                       Ne > 1 ? -expm1(log(0.5 * (1.0 - a.base.sim.confidence)) / Ne) : 1.0,
                       Ne, units);
            else
                printf("below resolution: no idle %s in %.0f simulated %s; idle fractions "
                       "under %.3g (the exact Clopper-Pearson bound for 0 of %.0f) cannot be "
                       "told from 0, so these rows can neither agree nor disagree: simulate "
                       "the %s given (--horizon or --replications)\n",
                       fluid ? "time" : "unit", N, fluid ? "seconds" : "units",
                       -expm1(log(0.5 * (1.0 - a.base.sim.confidence)) / N), N, units);
        }
        if (V.auto_horizon)
            horizon_line(&V, units);
    }
    if (fluid)
        bb_fluid_warn_mixing(&ctx, &V.frun);
    free(S);
    bb_validation_free(&V);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
