/* cmd_idle.c: `bbsize idle`, idle and quiet fractions for one buffer size
 * (Theorems 3 and 5 on the greedy or lazy chain).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

enum { OPT_BB_SIZE = 0x2000 };

static const struct argp_option options[] = {
    { "bb-size", OPT_BB_SIZE, "SIZE", 0, "burst-buffer size S, e.g. 2PB (required)", 0 },
    { 0 }
};

struct args {
    bb_common common;
    bb_policy_opts pol;
    bb_qty size;
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
    case OPT_BB_SIZE:
        bb_opt_size("bb-size", arg, &a->size);
        break;
    case ARGP_KEY_ARG:
        bb_argp_file(state, arg, &a->file);
        break;
    case ARGP_KEY_END:
        if (!a->size.set)
            argp_error(state, "--bb-size SIZE is required");
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
    "Idle and quiet fractions of a burst buffer of a given size.\v"
    "The idle fraction is the fraction of time units in which every application "
    "stalls because the buffer would overflow (Theorem 3); the quiet fraction the "
    "fraction in which the buffer is not drained to the PFS (Theorem 5).",
    children, NULL, NULL
};

int
bb_cmd_idle(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_policy pol;
    bba_eval_result r;
    char err[BB_ERRLEN], sz[64], th[64], occ[64];
    long S;
    int rc;

    memset(&a, 0, sizeof a);
    bb_common_init(&a.common);
    bb_policy_opts_init(&a.pol);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    bb_ctx_load(&ctx, &a.common, a.file);
    S = bb_ctx_size_to_quanta(&ctx, &a.size);
    bb_policy_resolve(&ctx, &a.pol, S, &pol);
    rc = bba_eval(&ctx.model, S, &pol, &ctx.so, &r, NULL, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);

    bb_ctx_fmt_size(&ctx, sz, sizeof sz, bb_ctx_quanta_to_bytes(&ctx, S));
    bb_ctx_fmt_size(&ctx, th, sizeof th, bb_ctx_quanta_to_bytes(&ctx, r.threshold));
    bb_ctx_fmt_size(&ctx, occ, sizeof occ, r.meas.mean_load * ctx.q.quantum_bytes);
    if (a.common.json) {
        json_t *o = json_pack("{s:f, s:f, s:I, s:I, s:f, s:f, s:s, s:I, s:f, s:f, s:f, s:I, s:o}",
                              "idle_fraction", r.meas.idle,
                              "quiet_fraction", r.meas.quiet,
                              "states", (json_int_t)r.n_states,
                              "bb_size_quanta", (json_int_t)S,
                              "bb_size_bytes", bb_ctx_quanta_to_bytes(&ctx, S),
                              "load_ratio", bba_model_load_ratio(&ctx.model),
                              "policy", bb_policy_name(&pol),
                              "threshold_quanta", (json_int_t)r.threshold,
                              "empty_prob", pol.eps,
                              "mean_occupancy_bytes", r.meas.mean_load * ctx.q.quantum_bytes,
                              "residual", r.solve.residual,
                              "transitions", (json_int_t)r.nnz,
                              "platform", bb_json_platform(&ctx));
        bb_json_print(o);
    } else {
        char tus[64];

        bb_fmt_duration(tus, sizeof tus, ctx.pf.time_unit_s);
        printf("idle %.4g (%.4g%% of time units of %s), quiet %.4g, with a %s burst buffer "
               "(%ld quanta), %s draining",
               r.meas.idle, 100.0 * r.meas.idle, tus, r.meas.quiet, sz, S,
               bb_policy_name(&pol));
        if (pol.lazy)
            printf(" (threshold %s, EPS %g)", th, pol.eps);
        printf("; E/B = %.4g; mean occupancy %s; %ld states, residual %.1e\n",
               bba_model_load_ratio(&ctx.model), occ, r.n_states, r.solve.residual);
    }
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
