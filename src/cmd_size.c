/* cmd_size.c: `bbsize size`, the smallest burst buffer whose idle fraction
 * is at most the target: the one-line answer.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

enum { OPT_TARGET = 0x2000 };

static const struct argp_option options[] = {
    { "target-idle", OPT_TARGET, "F", 0,
      "largest acceptable idle fraction, in (0, 1) (default 0.001)", 0 },
    { 0 }
};

struct args {
    bb_common common;
    bb_policy_opts pol;
    double target;
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
        break;
    case OPT_TARGET:
        a->target = bb_opt_fraction_open("target-idle", arg);
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
    { &bb_common_argp, 0, NULL, 0 }, { &bb_policy_argp, 0, NULL, 0 }, { 0 }
};
static const struct argp argp = {
    options, parse, "[FILE]",
    "The smallest burst-buffer size whose idle fraction is at most the target.\v"
    "Exit status 1 when no size suffices (expected load >= PFS bandwidth).",
    children, NULL, NULL
};

int
bb_cmd_size(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_policy_spec ps;
    bba_size_result r;
    char err[BB_ERRLEN], sz[64], q[64], rb[64], pfs[64], tus[64];
    int rc;
    double ratio;

    memset(&a, 0, sizeof a);
    bb_common_init(&a.common);
    bb_policy_opts_init(&a.pol);
    a.target = 1e-3;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.pol.threshold_is_size)
        bb_die(BB_EXIT_USAGE, "option '--threshold': give a fraction of the buffer size "
               "(the size is what is searched)");
    bb_ctx_load(&ctx, &a.common, a.file);
    ps.lazy = a.pol.lazy;
    ps.threshold_frac = a.pol.threshold_frac;
    ps.eps = a.pol.eps;
    ratio = bba_model_load_ratio(&ctx.model);
    rc = bba_size_min(&ctx.model, a.target, &ps, &ctx.so, bb_ctx_s_max(&ctx),
                      bb_progress_enabled(&a.common) ? bb_progress_cb : NULL, NULL, &r, err);
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_die_lib(rc, err);
    bb_ctx_fmt_size(&ctx, q, sizeof q, ctx.q.quantum_bytes);
    bb_ctx_fmt_rate(&ctx, pfs, sizeof pfs, ctx.pf.pfs_bw_Bps);
    bb_ctx_fmt_size(&ctx, rb, sizeof rb, ctx.q.max_round_bytes);
    bb_fmt_duration(tus, sizeof tus, ctx.pf.time_unit_s);
    if (rc == BB_EINFEASIBLE) {
        if (a.common.json) {
            bb_json_print(json_pack("{s:b, s:n, s:n, s:n, s:f, s:f, s:f, s:o}",
                                    "feasible", 0, "bb_size_quanta", "bb_size_bytes",
                                    "idle_fraction", "target_idle", a.target,
                                    "load_ratio", ratio, "idle_limit", r.idle_limit,
                                    "platform", bb_json_platform(&ctx)));
        } else {
            printf("no burst-buffer size suffices: the expected load is %.4g times the "
                   "PFS bandwidth (%s), so as the buffer grows the idle fraction only "
                   "falls to 1 - B/E = %.4g > %g; add PFS bandwidth or reduce the load\n",
                   ratio, pfs, r.idle_limit, a.target);
        }
        bb_ctx_free(&ctx);
        return BB_EXIT_NO;
    }
    bb_ctx_fmt_size(&ctx, sz, sizeof sz, bb_ctx_quanta_to_bytes(&ctx, r.best.S));
    if (a.common.json) {
        bb_json_print(json_pack("{s:b, s:I, s:f, s:f, s:f, s:f, s:s, s:f, s:I, s:I, s:f, s:I, s:o}",
                                "feasible", 1,
                                "bb_size_quanta", (json_int_t)r.best.S,
                                "bb_size_bytes", bb_ctx_quanta_to_bytes(&ctx, r.best.S),
                                "idle_fraction", r.best.meas.idle,
                                "target_idle", a.target,
                                "quiet_fraction", r.best.meas.quiet,
                                "policy", a.pol.lazy ? "lazy" : "greedy",
                                "load_ratio", ratio,
                                "threshold_quanta", (json_int_t)r.best.threshold,
                                "states", (json_int_t)r.best.n_states,
                                "residual", r.best.solve.residual,
                                "evaluations", (json_int_t)r.evaluations,
                                "platform", bb_json_platform(&ctx)));
    } else {
        /* The time unit is part of the answer: p, and so the idle
         * fraction, are per time unit. */
        printf("burst buffer %s (%ld quanta): idle fraction %.3g <= %g with %s draining; "
               "E/B = %.3g, resolution %ld, time unit %s (size exact to 1 quantum = %s, "
               "bandwidths rounded by <= %s per time unit)\n",
               sz, r.best.S, r.best.meas.idle, a.target, a.pol.lazy ? "lazy" : "greedy",
               ratio, ctx.pf.resolution, tus, q, rb);
    }
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
