/* cmdspec.c: the one argp wiring of the analytic commands (cmdspec.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmdspec.h"
#include "designrun.h"

/* The command's own options, the walk, the seven shared groups and the end. */
#define MAX_CHILDREN 11

typedef struct {
    const bb_cmd_spec *spec;
    bb_cmd_args *a;
    void *own;
    void *inputs[MAX_CHILDREN];
} wiring;

enum { OPT_WALK = 0x1f80, OPT_LOAD_SCALE };

/* --load-scale (BB_CMD_LOADS), parsed into the shared arguments. */
static const struct argp_option loads_options[] = {
    { "load-scale", OPT_LOAD_SCALE, "FACTORS", 0,
      "every bandwidth of the workload times each factor (a list or FIRST:LAST:STEP): "
      "one answer per load (text output only)", 0 },
    { 0 }
};

static error_t
loads_parse(int key, char *arg, struct argp_state *state)
{
    bb_cmd_args *a = state->input;

    switch (key) {
    case OPT_LOAD_SCALE:
        bb_num_list_free(&a->loads);
        bb_grid_numbers("load-scale", arg, 1e-6, 1e6, &a->loads);
        if (a->loads.n > 1000)
            bb_usage_error("load-scale", "at most 1000 loads (%zu given)", a->loads.n);
        break;
    case ARGP_KEY_END:
        if (a->loads.n > 0 && (a->common.out.json || a->common.out.csv))
            bb_usage_error("load-scale", "prints one text line per load; for --json or --csv "
                           "run one load at a time");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp loads_argp = { loads_options, loads_parse, NULL, NULL, NULL, NULL,
                                        NULL };

/* The walk: --pfs-bw RATES or --bb-bw RATES (cmdspec.h). */
static error_t
walk_parse(int key, char *arg, struct argp_state *state)
{
    const wiring *w = state->input;
    const bb_cmd_spec *spec = w->spec;
    const char *name = spec->walks == BB_PLAT_PFS_BW ? "pfs-bw" : "bb-bw";
    bb_qty_list *l = (bb_qty_list *)((char *)w->own + spec->walk_at);

    switch (key) {
    case OPT_WALK:
        bb_qty_list_free(l);
        bb_grid_rates(name, arg, l);
        if (spec->walk_max && l->n > spec->walk_max)
            bb_usage_error(name, "at most %zu values (%zu given)", spec->walk_max, l->n);
        if (spec->walks == BB_PLAT_PFS_BW)   /* bb_ctx_read needs one */
            w->a->common.pfs_bw = l->v[0];
        break;
    case ARGP_KEY_END:
        if (spec->walk_required && l->n == 0)
            bb_usage_required(name, "RATES, e.g. %s", spec->walk_example);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    wiring *w = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        for (int i = 0; i < MAX_CHILDREN && w->inputs[i] != NULL; i++)
            state->child_inputs[i] = w->inputs[i];
        break;
    case ARGP_KEY_ARG:
        bb_argp_file(arg, &w->a->file);
        break;
    case ARGP_KEY_END:
        if ((w->spec->required & BB_TGT_SIZE) && !w->a->tgt.bb_size.set)
            bb_usage_required("bb-size", NULL);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

void
bb_cmd_parse(const bb_cmd_spec *spec, int argc, char **argv, bb_cmd_args *a, void *own)
{
    struct argp own_argp = { spec->options, spec->parser, NULL, NULL, NULL, NULL, NULL };
    struct argp_option walk_opt[2] = {
        { spec->walks == BB_PLAT_PFS_BW ? "pfs-bw" : "bb-bw", OPT_WALK, "RATES", 0,
          spec->walk_doc, 0 },
        { 0 }
    };
    struct argp walk_argp = { walk_opt, walk_parse, NULL, NULL, NULL, NULL, NULL };
    struct argp_child children[MAX_CHILDREN];
    wiring w;
    size_t n = 0;

    memset(children, 0, sizeof children);
    memset(&w, 0, sizeof w);
    w.spec = spec;
    w.a = a;
    w.own = own;
#define CHILD(argp_, input_) \
    do { children[n].argp = (argp_); w.inputs[n++] = (input_); } while (0)
    if (spec->options != NULL || spec->parser != NULL)
        CHILD(&own_argp, own);
    if (spec->walks)
        CHILD(&walk_argp, &w);
    if (spec->groups & BB_CMD_LOADS)
        CHILD(&loads_argp, a);
    CHILD(BB_COMMON_ARGP(spec->walks), &a->common);
    if (spec->groups & BB_CMD_POLICY)
        CHILD(&bb_policy_argp, &a->pol);
    CHILD(BB_OUTPUT_ARGP(spec->out), &a->common.out);
    if (spec->runs)
        CHILD(BB_RUNS_ARGP(spec->runs), &a->run);
    if (spec->targets)
        CHILD(BB_TARGETS_ARGP(spec->targets), &a->tgt);
    if (spec->groups & BB_CMD_ENDURANCE)
        CHILD(&bb_endurance_argp, &a->end);
    if (spec->groups & BB_CMD_PRICES)
        CHILD(&bb_prices_argp, &a->prices);
#undef CHILD

    {
        struct argp argp = { NULL, parse, spec->args_doc, spec->doc, children, NULL, NULL };

        memset(a, 0, sizeof *a);
        bb_common_init(&a->common);
        a->common.walks = spec->walks;
        bb_policy_opts_init(&a->pol);
        bb_tgtopts_init(&a->tgt);
        bb_endopts_init(&a->end);
        argp_parse(&argp, argc, argv, 0, NULL, &w);
    }
}

int
bb_prices_check(const bb_ctx *ctx, const bb_prices *p)
{
    int priced = p->has_tb || p->has_gbs || p->has_pfs_gbs;

    if (ctx->plain && priced)
        bb_usage_error(NULL, "options '--cost-*': the workload and platform are in data units, "
                       "not bytes; give --pfs-bw with a unit (e.g. 1.45TB/s) to price them");
    return priced;
}

int
bb_cmd_design_spec(bb_ctx *ctx, const bb_cmd_args *a, bba_design_spec *sp)
{
    int priced = bb_prices_check(ctx, &a->prices);

    ctx->qn.target = a->tgt.target_idle;
    bb_design_spec_init(sp, &ctx->qn, &a->prices, &a->end);
    return priced;
}

int
bb_cmd_each_load(const bb_ctx *ctx, const bb_cmd_args *a, bb_load_fn fn, void *arg)
{
    int worst = BB_OK;

    if (a->loads.n == 0)
        return fn(ctx, ctx->front, &ctx->qn, 1.0, "", arg);
    for (size_t i = 0; i < a->loads.n; i++) {
        double f = a->loads.v[i];
        char prefix[64];
        int rc;

        snprintf(prefix, sizeof prefix, "load x%g: ", f);
        if (f == 1) {   /* the workload itself: its own front, the same answer */
            rc = fn(ctx, ctx->front, &ctx->qn, f, prefix, arg);
        } else {
            bb_scenario sc;
            bba_question q = ctx->qn;

            if (ctx->front != NULL)
                bb_scenario_init(&sc, ctx, f, ctx->pf.pfs_bw_Bps);
            else
                bb_scenario_apps(&sc, ctx, f, ctx->pf.pfs_bw_Bps);
            q.apps = sc.apps;
            rc = fn(ctx, sc.front, &q, f, prefix, arg);
            bb_scenario_free(&sc);
        }
        if (rc != BB_OK)
            worst = rc;
    }
    return worst;
}

void
bb_cmd_args_free(bb_cmd_args *a)
{
    bb_num_list_free(&a->loads);
}
