/* cmd_threshold.c: `bbsize threshold`, the lazy-draining threshold that
 * keeps the buffer-to-PFS link quiet longest while idle stays under the
 * target (Section 7; the paper only suggests 20% as "a safe guess").
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

enum { OPT_EPS = 0x2000, OPT_GRID };

static const struct argp_option options[] = {
    { "empty-prob", OPT_EPS, "EPS", 0, "probability of draining below the threshold (default 0.01)", 0 },
    { "grid", OPT_GRID, "N", 0, "thresholds tried before refining: N + 1 (default 20)", 0 },
    { 0 }
};

struct args {
    bb_common common;
    bb_tgtopts tgt;
    double eps;
    int grid;
    const char *file;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->common;
        state->child_inputs[1] = &a->common.out;
        state->child_inputs[2] = &a->tgt;
        break;
    case OPT_EPS:
        a->eps = bb_opt_fraction_closed("empty-prob", arg);
        break;
    case OPT_GRID:
        a->grid = (int)bb_opt_long("grid", arg, 1, 10000);
        break;
    case ARGP_KEY_ARG:
        bb_argp_file(state, arg, &a->file);
        break;
    case ARGP_KEY_END:
        if (!a->tgt.bb_size.set)
            argp_error(state, "--bb-size SIZE is required");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { &bb_common_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_TARGETS_ARGP(BB_TGT_IDLE | BB_TGT_SIZE), 0, NULL, 0 }, { 0 }
};
static const struct argp argp = {
    options, parse, "[FILE]",
    "The lazy threshold with the largest quiet fraction among those whose idle "
    "fraction is at most the target.",
    children, NULL, NULL
};

int
bb_cmd_threshold(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_threshold_result r;
    char err[BB_ERRLEN], sz[64], th[64];
    long S;
    int rc;

    memset(&a, 0, sizeof a);
    bb_common_init(&a.common);
    bb_tgtopts_init(&a.tgt);
    a.eps = 0.01;
    a.grid = 20;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    bb_ctx_load(&ctx, &a.common, a.file);
    S = bb_ctx_size_to_quanta(&ctx, &a.tgt.bb_size);
    rc = bba_threshold_best(&ctx.model, S, a.tgt.target_idle, a.eps, a.grid, &ctx.so,
                            bb_progress_enabled(&a.common.out) ? bb_progress_cb : NULL, NULL,
                            &r, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    bb_ctx_fmt_size(&ctx, sz, sizeof sz, bb_ctx_quanta_to_bytes(&ctx, S));
    bb_ctx_fmt_size(&ctx, th, sizeof th, bb_ctx_quanta_to_bytes(&ctx, r.best.threshold));
    if (a.common.out.json) {
        json_t *o = json_pack("{s:b, s:I, s:f, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:I, s:o}",
                              "feasible", r.feasible,
                              "bb_size_quanta", (json_int_t)S,
                              "bb_size_bytes", bb_ctx_quanta_to_bytes(&ctx, S),
                              "threshold_quanta", (json_int_t)r.best.threshold,
                              "threshold_fraction", S > 0 ? (double)r.best.threshold / (double)S : 0.0,
                              "idle_fraction", r.best.meas.idle,
                              "quiet_fraction", r.best.meas.quiet,
                              "greedy_idle_fraction", r.greedy.meas.idle,
                              "greedy_quiet_fraction", r.greedy.meas.quiet,
                              "target_idle", a.tgt.target_idle,
                              "monotone_idle", r.monotone_idle,
                              "evaluations", (json_int_t)r.evaluations,
                              "platform", bb_json_platform(&ctx));
        bb_json_print(o);
    } else if (!r.feasible) {
        printf("no threshold keeps idle <= %g with a %s buffer: even greedy draining "
               "idles %.3g of the time; use `bbsize size` for a larger buffer\n",
               a.tgt.target_idle, sz, r.greedy.meas.idle);
    } else {
        char md[160];

        bb_ctx_model_desc(&ctx, md, sizeof md);
        printf("lazy threshold %s (%.1f%% of the %s buffer): quiet %.4g (greedy %.4g), "
               "idle %.3g <= %g (greedy %.3g); EPS %g; %s\n",
               th, S > 0 ? 100.0 * (double)r.best.threshold / (double)S : 0.0, sz,
               r.best.meas.quiet, r.greedy.meas.quiet, r.best.meas.idle, a.tgt.target_idle,
               r.greedy.meas.idle, a.eps, md);
    }
    if (!r.monotone_idle)
        bb_warn("idle fraction was not monotone in the threshold on the grid; "
                "the best threshold is the best of the points evaluated");
    bb_ctx_free(&ctx);
    return r.feasible ? BB_EXIT_OK : BB_EXIT_NO;
}
