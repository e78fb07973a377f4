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
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_TARGETS_ARGP(BB_TGT_IDLE), 0, NULL, 0 }, { 0 }
};
static const struct argp argp = {
    NULL, parse, "[FILE]",
    "The smallest burst-buffer size whose idle fraction is at most the target.\v"
    "Exit status 1 when no size suffices: the expected load is at least the PFS bandwidth, or the burst buffer's bandwidth alone keeps the idle fraction above the target.",
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

/* The answer as JSON (docs/json/size.schema.json): the same keys whether
 * a size was found or not, null where there is none. */
static void
size_json(const bb_ctx *ctx, const bba_answer *r, int feasible, const struct args *a)
{
    json_t *o = json_object();
    json_t *(*num)(double) = bb_json_real_or_null;

    if (o == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory building JSON");
    json_object_set_new(o, "feasible", json_boolean(feasible));
    json_object_set_new(o, "bb_size_quanta", feasible ? bb_json_quanta(r->S_quanta) : json_null());
    json_object_set_new(o, "bb_size_bytes", feasible ? num(r->S_bytes) : json_null());
    json_object_set_new(o, "idle_fraction", feasible ? num(r->idle) : json_null());
    json_object_set_new(o, "target_idle", json_real(a->tgt.target_idle));
    json_object_set_new(o, "quiet_fraction", feasible ? num(r->quiet) : json_null());
    json_object_set_new(o, "policy", json_string(a->pol.lazy ? "lazy" : "greedy"));
    json_object_set_new(o, "load_ratio", num(r->load_ratio));
    json_object_set_new(o, "threshold_quanta", feasible && r->quantum_bytes > 0
                        ? bb_json_quanta((long)(r->threshold_bytes / r->quantum_bytes + 0.5))
                        : json_null());
    json_object_set_new(o, "states", feasible ? json_integer((json_int_t)r->states) : json_null());
    json_object_set_new(o, "residual", feasible ? num(r->residual) : json_null());
    json_object_set_new(o, "evaluations", json_integer((json_int_t)r->evaluations));
    /* infeasible: the limit the idle fraction falls to, and whether the
     * buffer's bandwidth alone sets it */
    json_object_set_new(o, "idle_fraction_limit", feasible ? json_null() : num(r->idle_limit));
    json_object_set_new(o, "bandwidth_bound", json_boolean(!feasible && r->bandwidth_bound));
    json_object_set_new(o, "lazy_bound", json_boolean(!feasible && r->lazy_bound));
    json_object_set_new(o, "bb_bw_min_bytes_per_s", !feasible && r->bandwidth_bound
                        && r->bb_bw_min_Bps > 0 ? json_real(r->bb_bw_min_Bps) : json_null());
    bb_json_answer(o, ctx, r);
    if (!feasible) {
        json_object_set_new(o, "idle_fraction_low", json_null());
        json_object_set_new(o, "idle_fraction_high", json_null());
        json_object_set_new(o, "bb_write_bytes_per_s", json_null());
    }
    json_object_set_new(o, "resolution_doubling_change", r->res_change >= 0
                        ? json_real(r->res_change) : json_null());
    json_object_set_new(o, "bb_size_bytes_at_double_time_unit",
                        feasible ? num(r->S_double_unit_bytes) : json_null());
    bb_json_head(o, ctx);
    bb_json_print(o);
}

int
bb_cmd_size(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_settle st;
    bba_answer r;
    char err[BB_ERRLEN];
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
    if (a.common.out.csv) {
        bb_csv_answer(&r, rc, a.tgt.target_idle);
    } else if (a.common.out.json) {
        size_json(&ctx, &r, rc == BB_OK, &a);
    } else {
        char line[1400];

        bb_size_answer_line(&ctx, &r, rc, a.tgt.target_idle, line, sizeof line);
        printf("%s\n", line);
    }
    bb_ctx_free(&ctx);
    return rc == BB_OK ? BB_EXIT_OK : BB_EXIT_NO;
}
