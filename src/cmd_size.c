/* cmd_size.c: `bbsize size`, the smallest burst buffer whose idle fraction
 * is at most the target: the one-line answer.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"


struct args {
    bb_common common;
    bb_policy_opts pol;
    bb_tgtopts tgt;
    const char *file;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->common;
        state->child_inputs[1] = &a->pol;
        state->child_inputs[2] = &a->common.out;
        state->child_inputs[3] = &a->tgt;
        break;
    case ARGP_KEY_ARG:
        bb_argp_file(state, arg, &a->file);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { &bb_common_argp, 0, NULL, 0 }, { &bb_policy_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_TARGETS_ARGP(BB_TGT_IDLE), 0, NULL, 0 }, { 0 }
};
static const struct argp argp = {
    NULL, parse, "[FILE]",
    "The smallest burst-buffer size whose idle fraction is at most the target.\v"
    "Exit status 1 when no size suffices (expected load >= PFS bandwidth).",
    children, NULL, NULL
};

/* Bursts given as durations and no --time-unit: the time unit is a
 * modelling choice, not the user's, so take the coarsest one whose
 * halving moves the size by less than 1% (issue 13).  Start from the
 * workload's time unit, capped so that every burst stays a valid ON/OFF
 * chain (L >= max(1, p/(1-p)) units), and halve at most MAX_HALVINGS
 * times: each halving costs about 4x (twice the levels, twice the burst
 * length in units). */
#define MAX_HALVINGS 4

static int
bursts_in_seconds(const bb_ctx *ctx)
{
    int any = 0;

    /* A plain rate is per time unit: it would change with it. */
    if (ctx->model_kind == BB_MODEL_BERNOULLI || ctx->plain)
        return 0;
    for (size_t i = 0; i < ctx->wl.n; i++)
        if (ctx->wl.bw[i].plain)
            return 0;
    for (size_t i = 0; i < ctx->wl.n; i++)
        if (ctx->wl.burst[i].set) {
            if (ctx->wl.burst[i].plain)
                return 0;
            any = 1;
        }
    return any;
}

static double
coarsest_unit(const bb_ctx *ctx)
{
    /* The workload's (or preset's) time unit when it has one, else no
     * cap but the bursts' own (the 1 s default means nothing here). */
    int given = ctx->wl.time_unit.set || (ctx->has_system && ctx->sys.time_unit.set);
    double tu = given ? ctx->pf.time_unit_s : INFINITY;

    for (size_t i = 0; i < ctx->wl.n; i++) {
        double p = ctx->wl.apps[i].p, L = ctx->wl.apps[i].burst_s;

        if (L > 0 && p > 0 && p < 1)
            tu = fmin(tu, L / fmax(1.0, p / (1.0 - p)));
    }
    return tu;
}

static int
size_at(bb_ctx *ctx, const struct args *a, bba_size_result *r, char *err)
{
    bba_policy_spec ps;

    ps.lazy = a->pol.lazy;
    ps.threshold_frac = a->pol.threshold_frac;
    ps.eps = a->pol.eps;
    return bba_size_min(&ctx->model, a->tgt.target_idle, &ps, &ctx->so, bb_ctx_s_max(ctx),
                        bb_progress_enabled(&a->common.out) ? bb_progress_cb : NULL, NULL, r, err);
}

int
bb_cmd_size(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_size_result r;
    bba_policy_spec ps;
    char err[BB_ERRLEN], sz[64], q[64], rb[64], pfs[64], md[160], autonote[200] = "";
    int rc;
    double ratio, res_change = -1; /* < 0: not measured */
    bb_common tuopt;

    memset(&a, 0, sizeof a);
    bb_common_init(&a.common);
    bb_policy_opts_init(&a.pol);
    bb_tgtopts_init(&a.tgt);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.pol.threshold_is_size)
        bb_die(BB_EXIT_USAGE, "option '--threshold': give a fraction of the buffer size "
               "(the size is what is searched)");
    bb_ctx_load(&ctx, &a.common, a.file);
    ps.lazy = a.pol.lazy;
    ps.threshold_frac = a.pol.threshold_frac;
    ps.eps = a.pol.eps;
    ratio = bba_model_load_ratio(&ctx.model);
    if (!a.common.time_unit.set && bursts_in_seconds(&ctx)) {
        double tu = coarsest_unit(&ctx), prev_bytes = -1, change = 0;
        int k;

        tuopt = a.common;
        tuopt.time_unit.plain = 0;
        tuopt.time_unit.set = 1;
        for (k = 0; k <= MAX_HALVINGS; k++) {
            bb_ctx c2;
            bba_size_result r2;
            double bytes;

            tuopt.time_unit.v = tu / (double)(1 << k);
            bb_ctx_load(&c2, &tuopt, a.file);
            rc = size_at(&c2, &a, &r2, err);
            if (rc != BB_OK) {
                bb_ctx_free(&c2);
                break; /* infeasible or refused: keep what was found */
            }
            bytes = bb_ctx_quanta_to_bytes(&c2, r2.best.S);
            if (k > 0) {
                change = fabs(bytes - prev_bytes) / fmax(bytes, 1e-300);
                if (change < 0.01) {
                    bb_ctx_free(&c2);
                    break; /* the previous (coarser) one is the answer */
                }
            }
            bb_ctx_free(&ctx);
            ctx = c2;
            ctx.opt = &a.common;
            /* The copy's model must point at the copy's own chain. */
            if (ctx.model.onoff)
                ctx.model.onoff = &ctx.onoff;
            r = r2;
            prev_bytes = bytes;
        }
        if (k > 0 && k <= MAX_HALVINGS && change < 0.01)
            snprintf(autonote, sizeof autonote, " (automatic: half of it moves the size by "
                     "%.2g%%)", 100 * change);
        else if (k > 0)
            snprintf(autonote, sizeof autonote, " (automatic, not converged: the last halving "
                     "still moved the size by %.2g%%; give --time-unit)", 100 * change);
        rc = k == 0 ? size_at(&ctx, &a, &r, err) : BB_OK;
    } else {
        rc = size_at(&ctx, &a, &r, err);
    }
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_die_lib(rc, err);
    /* The bursts model checks its time unit instead (above): doubling R
     * there would multiply a solve that already costs the scalar one
     * times the phase count. */
    if (rc == BB_OK && bb_ctx_resolution_is_default(&ctx) && ctx.model_kind == BB_MODEL_BERNOULLI) {
        /* Double the resolution until that moves the size by < 0.1%
         * (issue 11); answer at the coarser of the last two. */
        long R = ctx.pf.resolution;

        for (;;) {
            bba_size_result r2;
            double b1 = bb_ctx_quanta_to_bytes(&ctx, r.best.S), b2;

            bb_ctx_requantize(&ctx, 2 * R);
            rc = bba_size_min(&ctx.model, a.tgt.target_idle, &ps, &ctx.so, bb_ctx_s_max(&ctx),
                              NULL, NULL, &r2, err);
            if (rc != BB_OK) {
                /* answer at R; say why the change was not measured */
                fprintf(stderr, "bbsize: resolution %ld not checked at %ld: %s\n", R,
                        2 * R, err);
                res_change = -1;
                rc = BB_OK;
                break;
            }
            b2 = bb_ctx_quanta_to_bytes(&ctx, r2.best.S);
            res_change = b1 > 0 ? fabs(b2 / b1 - 1.0) : (b2 > 0 ? 1.0 : 0.0);
            if (res_change < BB_RES_SETTLE || 2 * R >= BB_RES_MAX)
                break;
            R *= 2;
            r = r2;
        }
        bb_ctx_requantize(&ctx, R);
    }
    bb_ctx_fmt_size(&ctx, q, sizeof q, ctx.q.quantum_bytes);
    bb_ctx_fmt_rate(&ctx, pfs, sizeof pfs, ctx.pf.pfs_bw_Bps);
    bb_ctx_fmt_size(&ctx, rb, sizeof rb, ctx.q.max_round_bytes);
    if (rc == BB_EINFEASIBLE) {
        if (a.common.out.json) {
            bb_json_print(json_pack("{s:b, s:n, s:n, s:n, s:f, s:f, s:f, s:o}",
                                    "feasible", 0, "bb_size_quanta", "bb_size_bytes",
                                    "idle_fraction", "target_idle", a.tgt.target_idle,
                                    "load_ratio", ratio, "idle_limit", r.idle_limit,
                                    "platform", bb_json_platform(&ctx)));
        } else {
            printf("no burst-buffer size suffices: the expected load is %.4g times the "
                   "PFS bandwidth (%s), so as the buffer grows the idle fraction only "
                   "falls to 1 - B/E = %.4g > %g; add PFS bandwidth or reduce the load\n",
                   ratio, pfs, r.idle_limit, a.tgt.target_idle);
        }
        bb_ctx_free(&ctx);
        return BB_EXIT_NO;
    }
    bb_ctx_fmt_size(&ctx, sz, sizeof sz, bb_ctx_quanta_to_bytes(&ctx, r.best.S));
    if (a.common.out.json) {
        json_t *o = json_pack("{s:b, s:I, s:f, s:f, s:f, s:f, s:s, s:f, s:I, s:I, s:f, s:I, s:o}",
                                "feasible", 1,
                                "bb_size_quanta", (json_int_t)r.best.S,
                                "bb_size_bytes", bb_ctx_quanta_to_bytes(&ctx, r.best.S),
                                "idle_fraction", r.best.meas.idle,
                                "target_idle", a.tgt.target_idle,
                                "quiet_fraction", r.best.meas.quiet,
                                "policy", a.pol.lazy ? "lazy" : "greedy",
                                "load_ratio", ratio,
                                "threshold_quanta", (json_int_t)r.best.threshold,
                                "states", (json_int_t)r.best.n_states,
                                "residual", r.best.solve.residual,
                                "evaluations", (json_int_t)r.evaluations,
                                "platform", bb_json_platform(&ctx));

        if (res_change >= 0)
            json_object_set_new(o, "resolution_doubling_change", json_real(res_change));
        bb_json_print(o);
    } else {
        char an[300];
        bba_policy pol;

        bba_policy_at(&ps, r.best.S, &pol);
        bb_ctx_model_desc(&ctx, md, sizeof md);
        bb_ctx_approx_note(&ctx, r.best.S, &pol, an, sizeof an);
        /* The time unit is part of the answer (p, and so the idle
         * fraction, are per time unit): the model description ends with
         * it. */
        printf("burst buffer %s (%ld quanta): idle fraction %.3g <= %g with %s draining; "
               "E/B = %.3g, resolution %ld (size exact to 1 quantum = %s, "
               "bandwidths rounded by <= %s per time unit",
               sz, r.best.S, r.best.meas.idle, a.tgt.target_idle, a.pol.lazy ? "lazy" : "greedy",
               ratio, ctx.pf.resolution, q, rb);
        if (res_change >= 0)
            printf("; doubling it moves the size by %.2g%%", 100.0 * res_change);
        printf("); %s%s%s\n", md, autonote, an);
    }
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
