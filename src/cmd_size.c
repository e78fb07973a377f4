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

/* The policy of a search: a threshold is a fraction of the size. */
static void
drain_of(const bb_policy_opts *p, bba_drain *d)
{
    d->lazy = p->lazy;
    d->threshold_is_bytes = 0;
    d->threshold = p->threshold_frac;
    d->eps = p->eps;
}

int
bb_cmd_size(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_settle st;
    bba_answer r;
    char err[BB_ERRLEN], sz[64], notes[600];
    int rc;

    memset(&a, 0, sizeof a);
    bb_common_init(&a.common);
    bb_policy_opts_init(&a.pol);
    bb_tgtopts_init(&a.tgt);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.pol.threshold_is_size)
        bb_die(BB_EXIT_USAGE, "option '--threshold': give a fraction of the buffer size "
               "(the size is what is searched)");
    memset(&st, 0, sizeof st);
    st.target = a.tgt.target_idle;
    drain_of(&a.pol, &st.drain);
    bb_ctx_load(&ctx, &a.common, a.file, &st);
    rc = bba_front_size(ctx.front, a.tgt.target_idle, &st.drain, &r, err);
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_ctx_die_answer(&ctx, rc, err);
    if (rc == BB_EINFEASIBLE) {
        if (a.common.out.json) {
            json_t *o = json_pack("{s:b, s:n, s:n, s:f, s:f, s:f, s:f, s:b, s:o}",
                                  "feasible", 0, "bb_size_bytes", "idle_fraction",
                                  "target_idle", a.tgt.target_idle,
                                  "load_ratio", r.load_ratio, "idle_limit", r.idle_limit,
                                  "idle_fraction_limit", r.idle_limit,
                                  "bandwidth_bound", r.bandwidth_bound,
                                  "platform", bb_json_platform(&ctx));

            json_object_set_new(o, "bb_bw_min_bytes_per_s",
                                r.bandwidth_bound && r.bb_bw_min_Bps > 0
                                    ? json_real(r.bb_bw_min_Bps) : json_null());
            bb_json_print(o);
        } else {
            char line[1400];

            bb_size_answer_line(&ctx, &r, rc, a.tgt.target_idle, line, sizeof line);
            printf("%s\n", line);
        }
        bb_ctx_free(&ctx);
        return BB_EXIT_NO;
    }
    bb_ctx_fmt_size(&ctx, sz, sizeof sz, r.S_bytes);
    bb_ctx_answer_notes(&ctx, &r, notes, sizeof notes);
    if (a.common.out.json) {
        json_t *o = json_pack("{s:b, s:o, s:f, s:f, s:f, s:f, s:s, s:f, s:o, s:I, s:f, s:I, s:o}",
                              "feasible", 1,
                              "bb_size_quanta", bb_json_quanta(r.S_quanta),
                              "bb_size_bytes", r.S_bytes,
                              "idle_fraction", r.idle,
                              "target_idle", a.tgt.target_idle,
                              "quiet_fraction", r.quiet,
                              "policy", a.pol.lazy ? "lazy" : "greedy",
                              "load_ratio", r.load_ratio,
                              "threshold_quanta", r.quantum_bytes > 0
                                  ? bb_json_quanta((long)(r.threshold_bytes / r.quantum_bytes + 0.5))
                                  : json_null(),
                              "states", (json_int_t)r.states,
                              "residual", r.residual,
                              "evaluations", (json_int_t)r.evaluations,
                              "platform", bb_json_platform(&ctx));

        bb_json_answer(o, &ctx, &r);
        if (r.res_change >= 0)
            json_object_set_new(o, "resolution_doubling_change", json_real(r.res_change));
        if (!isnan(r.S_double_unit_bytes))
            json_object_set_new(o, "bb_size_bytes_at_double_time_unit",
                                json_real(r.S_double_unit_bytes));
        bb_json_print(o);
    } else {
        char line[1400];

        bb_size_answer_line(&ctx, &r, rc, a.tgt.target_idle, line, sizeof line);
        printf("%s\n", line);
    }
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
