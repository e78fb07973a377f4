/* cmd_frontier.c: `bbsize frontier`, the capacity-bandwidth frontier: for
 * each burst-buffer bandwidth, the smallest capacity meeting the target,
 * as `bbsize size --bb-bw` gives it (analytic/questions/design.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csvout.h"
#include "cmdspec.h"
#include "commands.h"
#include "simcli.h"
#include "grid.h"
#include "progress.h"
#include "replicate.h"

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
    bb_qty_list bbw;   /* the walk */
};

static const bb_cmd_spec spec = {
    .args_doc = "[FILE]",
    .doc = "The capacity-bandwidth frontier: for each burst-buffer bandwidth, the smallest "
    "capacity whose idle fraction is at most the target (with --dwpd, whose drives last "
    "too), as `bbsize size --bb-bw` gives it; with prices, what each costs.\v"
    "Below the smallest bandwidth any capacity needs (printed) no capacity suffices.  "
    "Points run in parallel; the output is the same for any --threads.",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .runs = BB_RUN_THREADS,
    .targets = BB_TGT_IDLE,
    .groups = BB_CMD_POLICY | BB_CMD_ENDURANCE | BB_CMD_PRICES | BB_CMD_LOADS,
    .walks = BB_PLAT_BB_BW,
    .walk_doc = "burst-buffer bandwidths: FIRST:LAST:STEP or a list (default: those whose "
    "throttling takes 0.9, 0.75, 0.5, 0.25, 0.1, 0.03 and 0.01 of the idle budget, and "
    "unlimited)",
    .walk_at = offsetof(struct args, bbw),
    .walk_max = 10000,
};

typedef struct {
    const bba_design_spec *sp;
    double pfs;
    const double *bbw, *share;
} line;

static int
point_unit(size_t unit, void *result, const void *ctx, char *err)
{
    const line *l = ctx;

    (void)err;
    bba_design_at(l->sp, l->pfs, l->bbw[unit], l->share[unit], result);
    return BB_OK;
}


typedef struct {
    const struct args *a;
    bba_design_spec sp;    /* the workload's; each load's borrows its question */
    int priced;
    int headed;            /* the text table's header is out */
} loads_ctx;

/* The text table's header, once, before the first line a load prints:
 * a run refused by its bounds prints nothing on stdout. */
static void
header(loads_ctx *lc)
{
    const struct args *a = lc->a;

    if (!lc->headed && !a->common.out.csv && !a->common.out.json)
        printf("%s%-12s %-6s %-11s %-10s %-10s %-9s %s\n", a->loads.n ? "LOAD   " : "", "BB_BW",
               "SHARE", "BB_SIZE", "IDLE", "THROTTLE", "BINDS", lc->priced ? "COST" : "");
    lc->headed = 1;
}

/* The frontier at one load (cmdspec.h bb_cmd_each_load): its points, their
 * rows (text: after a LOAD column with --load-scale) and the least
 * bandwidth. */
static int
frontier_load(const bb_ctx *ctx, const bba_front *front, const bba_question *q, double scale,
              const char *prefix, void *arg)
{
    loads_ctx *lc = arg;
    const struct args *a = lc->a;
    bba_design_spec sp = lc->sp;
    bba_design *d;
    double *bbw, *share, least;
    size_t n;
    line l;
    int priced = lc->priced, rc;
    char err[BB_ERRLEN], lb[32], col[32] = "";
    json_t *rows = NULL;
    bb_meter meter;

    (void)front;
    sp.base = q;
    if (a->loads.n)
        snprintf(col, sizeof col, "x%-6g", scale);
    sp.rule = BBA_BW_FIXED;
    rc = bba_design_bandwidth(&sp, ctx->pf.pfs_bw_Bps, 1.0, &least, err);
    if (rc == BB_EINFEASIBLE && a->loads.n == 0)
        bb_die(BB_EXIT_NO, "%s: no capacity suffices at any burst-buffer bandwidth: the expected "
               "load is not below the PFS bandwidth", ctx->wl.source);
    if (rc == BB_EINFEASIBLE) {   /* one load of several: its line, and the next */
        header(lc);
        printf("%sno capacity suffices at any burst-buffer bandwidth: the expected load is not "
               "below the PFS bandwidth\n", prefix);
        return rc;
    }
    if (rc != BB_OK)
        bb_ctx_die_answer(ctx, rc, err);
    n = a->bbw.n ? a->bbw.n : BBA_DESIGN_NSHARES + 1;
    d = calloc(n, sizeof *d);
    bbw = calloc(n, sizeof *bbw);
    share = calloc(n, sizeof *share);
    if (d == NULL || bbw == NULL || share == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < n; i++) {
        share[i] = NAN;
        if (a->bbw.n) {
            bbw[i] = bb_qty_rate_Bps(&a->bbw.v[i], ctx->pf.time_unit_s);
            if (!(bbw[i] > 0))
                bb_usage_error("bb-bw", "'%s': a bandwidth must be positive", "0");
        } else if (i < BBA_DESIGN_NSHARES) {
            share[i] = BBA_DESIGN_SHARES[i];
            rc = bba_design_bandwidth(&sp, ctx->pf.pfs_bw_Bps, share[i], &bbw[i], err);
            if (rc != BB_OK)
                bb_ctx_die_answer(ctx, rc, err);
        }   /* the last: unlimited (0) */
    }
    l = (line){ &sp, ctx->pf.pfs_bw_Bps, bbw, share };
    bb_meter_start(&meter, &a->common.out, "frontier", "points", n);
    rc = bbs_replicate_run(n, sizeof *d, d, point_unit, &l,
                           a->run.threads > 0 ? a->run.threads : bb_grid_threads(),
                           bb_meter_progress, &meter, err);
    bb_meter_end(&meter);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    /* a point that cannot be solved is skipped with its reason; the
     * others are still the frontier */
    for (size_t i = 0; i < n; i++)
        if (d[i].status != BB_OK && d[i].status != BB_EINFEASIBLE) {
            char bw[64];

            if (bbw[i] > 0)
                bb_ctx_fmt_rate(ctx, bw, sizeof bw, bbw[i]);
            else
                snprintf(bw, sizeof bw, "unlimited");
            if (a->bbw.n && bb_exit_status(d[i].status) == BB_EXIT_DATAERR)   /* a list entry */
                bb_usage_error("bb-bw", "%s: %s", bw, d[i].err);
            bb_warn("%s: %sburst-buffer bandwidth %s left out: %s", ctx->wl.source, prefix, bw,
                    d[i].err);
        }

    bb_ctx_fmt_rate(ctx, lb, sizeof lb, least);
    header(lc);
    if (a->common.out.csv)
        printf("bb_bw_bytes_per_s,throttle_share,feasible,bb_size_bytes,idle_fraction,"
               "bandwidth_idle_fraction,binding,bb_write_bytes_per_day,cost\n");
    else if (a->common.out.json)
        rows = json_array();
    for (size_t i = 0; i < n; i++) {
        const bba_design *x = &d[i];
        int ok = x->status == BB_OK;
        const char *binds = !ok ? (x->status == BB_EINFEASIBLE ? "none" : "failed")
                                : x->endurance_binds ? "endurance" : "idle";

        if (a->common.out.csv) {
            bb_csv_row(stdout, "nndnnnsnn", bbw[i] > 0 ? bbw[i] : NAN, share[i], ok,
                       ok ? x->a.S_bytes : NAN, ok ? x->a.idle : NAN, x->a.idle_limit, binds,
                       ok ? x->a.bb_write_Bps * 86400.0 : NAN, priced && ok ? x->cost : NAN);
        } else if (a->common.out.json) {
            json_array_append_new(rows, json_pack(
                "{s:o, s:o, s:b, s:o, s:o, s:o, s:s, s:o, s:o}",
                "bb_bw_bytes_per_s", bbw[i] > 0 ? json_real(bbw[i]) : json_null(),
                "throttle_share", bb_json_real_or_null(share[i]), "feasible", ok,
                "bb_size_bytes", ok ? json_real(x->a.S_bytes) : json_null(),
                "idle_fraction", ok ? json_real(x->a.idle) : json_null(),
                "bandwidth_idle_fraction", bb_json_real_or_null(x->a.idle_limit), "binding", binds,
                "bb_write_bytes_per_day", ok ? bb_json_real_or_null(x->a.bb_write_Bps * 86400.0)
                                             : json_null(),
                "cost", priced && ok ? bb_json_real_or_null(x->cost) : json_null()));
        } else {
            char bw[32], sz[32], sh[16], c[BB_MONEY_LEN] = "", id[32], th[32];

            if (bbw[i] > 0)
                bb_ctx_fmt_rate(ctx, bw, sizeof bw, bbw[i]);
            else
                snprintf(bw, sizeof bw, "unlimited");
            if (ok)
                bb_ctx_fmt_size(ctx, sz, sizeof sz, x->a.S_bytes);
            else
                snprintf(sz, sizeof sz, "none");
            if (isnan(share[i]))
                snprintf(sh, sizeof sh, "-");
            else
                snprintf(sh, sizeof sh, "%g", share[i]);
            if (priced && ok && isfinite(x->cost))
                bb_fmt_money(c, sizeof c, &a->prices, x->cost);
            else if (priced && ok)
                snprintf(c, sizeof c, "inf");
            /* no number where there is none: "-", never nan */
            if (ok)
                snprintf(id, sizeof id, "%.3g", x->a.idle);
            else
                snprintf(id, sizeof id, "-");
            if (isfinite(x->a.idle_limit) && x->status != BB_OK && x->status != BB_EINFEASIBLE)
                snprintf(th, sizeof th, "-");
            else if (isfinite(x->a.idle_limit))
                snprintf(th, sizeof th, "%.3g", x->a.idle_limit);
            else
                snprintf(th, sizeof th, "-");
            printf("%s%-12s %-6s %-11s %-10s %-10s %-9s %s\n", col, bw, sh, sz, id, th, binds, c);
        }
    }
    if (a->common.out.json) {
        json_t *o = json_pack("{s:o, s:f, s:f, s:o}", "points", rows,
                              "bb_bw_min_bytes_per_s", least, "target_idle", a->tgt.target_idle,
                              "platform", bb_json_platform(ctx));

        /* the model that answered (the first point found; null if none) */
        for (size_t i = 0; i < n && !json_object_get(o, "model"); i++)
            if (d[i].status == BB_OK)
                json_object_set_new(o, "model", json_string(bba_model_kind_name(d[i].a.model)));
        bb_json_head(o, ctx);
        bb_json_print(o);
    } else if (!a->common.out.csv) {
        printf("%sany capacity needs a burst-buffer bandwidth of at least %s (SHARE: the share "
               "of the idle budget its throttling takes)\n", prefix, lb);
    }
    free(d);
    free(bbw);
    free(share);
    return BB_OK;
}

int
bb_cmd_frontier(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    loads_ctx lc;
    int rc;

    memset(&a, 0, sizeof a);
    bb_cmd_parse(&spec, argc, argv, &a.c, &a);
    if (a.pol.threshold_is_size)
        bb_usage_error("threshold", "give a fraction of the buffer size "
                       "(the size is what is searched)");
    bb_ctx_read(&ctx, &a.common, a.file);
    bb_policy_drain(&a.pol, &ctx.qn.drain);   /* --policy, --threshold (a fraction) */
    lc.a = &a;
    lc.priced = bb_cmd_design_spec(&ctx, &a.c, &lc.sp);
    lc.headed = 0;
    rc = bb_cmd_each_load(&ctx, &a.c, frontier_load, &lc);
    bb_qty_list_free(&a.bbw);
    bb_cmd_args_free(&a.c);
    bb_ctx_free(&ctx);
    return rc == BB_OK ? BB_EXIT_OK : BB_EXIT_NO;
}
