/* cmd_threshold.c: `bbsize threshold`, the lazy-draining threshold that
 * keeps the buffer-to-PFS link quiet longest while idle stays under the
 * target (Section 7; the paper only suggests 20% as "a safe guess").
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdspec.h"
#include "commands.h"

enum { OPT_EPS = 0x2000, OPT_GRID };

static const struct argp_option options[] = {
    { "empty-prob", OPT_EPS, "EPS", 0, "probability of draining below the threshold (default 0.01)", 0 },
    { "grid", OPT_GRID, "N", 0, "thresholds tried before refining: N + 1 (default 20)", 0 },
    { 0 }
};

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
    double eps;
    int grid;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_EPS:
        a->eps = bb_opt_eps(arg);
        break;
    case OPT_GRID:
        a->grid = (int)bb_opt_long("grid", arg, 1, 10000);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const bb_cmd_spec spec = {
    .options = options,
    .parser = parse,
    .args_doc = "[FILE]",
    .doc = "The lazy threshold with the largest quiet fraction among those whose idle "
    "fraction is at most the target.",
    .out = BB_OUT_JSON | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .targets = BB_TGT_IDLE | BB_TGT_SIZE,
    .required = BB_TGT_SIZE,
};

int
bb_cmd_threshold(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_settle st;
    bba_answer best, greedy;
    char err[BB_ERRLEN], sz[64], th[64];
    int rc, feasible, monotone;
    double S, frac;

    memset(&a, 0, sizeof a);
    a.eps = 0.01;
    a.grid = 20;
    bb_cmd_parse(&spec, argc, argv, &a.c, &a);
    memset(&st, 0, sizeof st);
    st.target = a.tgt.target_idle;
    st.drain.eps = a.eps;
    st.settle_bytes = a.tgt.bb_size.v;
    bb_ctx_load(&ctx, &a.common, a.file, &st);
    rc = bba_front_threshold(ctx.front, a.tgt.bb_size.v, a.tgt.target_idle, a.eps, a.grid,
                             &best, &greedy, &feasible, &monotone, err);
    if (rc != BB_OK)
        bb_ctx_die_answer(&ctx, rc, err);
    S = greedy.S_bytes;
    frac = S > 0 && feasible ? best.drain.threshold / S : 0.0;
    bb_ctx_fmt_size(&ctx, sz, sizeof sz, S);
    bb_ctx_fmt_size(&ctx, th, sizeof th, feasible ? best.drain.threshold : 0);
    if (a.common.out.json) {
        json_t *o = json_pack("{s:b, s:o, s:f, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:I, "
                              "s:o}",
                              "feasible", feasible,
                              "bb_size_quanta", bb_json_quanta(greedy.S_quanta),
                              "bb_size_bytes", S,
                              "threshold_quanta", feasible && best.quantum_bytes > 0
                                  ? bb_json_quanta((long)(best.drain.threshold
                                                          / best.quantum_bytes + 0.5))
                                  : json_null(),
                              "threshold_bytes", feasible ? best.drain.threshold : 0.0,
                              "threshold_fraction", frac,
                              "idle_fraction", feasible ? best.idle : greedy.idle,
                              "quiet_fraction", feasible ? best.quiet : greedy.quiet,
                              "greedy_idle_fraction", greedy.idle,
                              "greedy_quiet_fraction", greedy.quiet,
                              "target_idle", a.tgt.target_idle,
                              "monotone_idle", monotone,
                              "evaluations", (json_int_t)best.evaluations,
                              "platform", bb_json_platform(&ctx));
        bb_json_head(o, &ctx);
        bb_json_print(o);
    } else if (!feasible) {
        printf("no threshold keeps idle <= %g with a %s buffer: even greedy draining "
               "idles %.3g of the time; use `bbsize size` for a larger buffer\n",
               a.tgt.target_idle, sz, greedy.idle);
    } else {
        char md[256];

        bb_ctx_model_desc(&ctx, md, sizeof md);
        printf("lazy threshold %s (%.1f%% of the %s buffer): quiet %.4g (greedy %.4g), "
               "idle %.3g <= %g (greedy %.3g); EPS %g; %s\n",
               th, 100.0 * frac, sz, best.quiet, greedy.quiet, best.idle, a.tgt.target_idle,
               greedy.idle, a.eps, md);
    }
    if (!monotone)
        bb_warn("idle fraction was not monotone in the threshold on the grid; "
                "the best threshold is the best of the points evaluated");
    bb_ctx_free(&ctx);
    return feasible ? BB_EXIT_OK : BB_EXIT_NO;
}
