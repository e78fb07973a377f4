/* cmd_design.c: `bbsize design`, the cheapest design over a walk of PFS
 * bandwidths: at each, the burst buffer (capacity and bandwidth, endurance
 * included) that `bbsize size` gives there, its cost, and the cheapest
 * (analytic/questions/design.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csvout.h"
#include "cmdspec.h"
#include "commands.h"
#include "designrun.h"
#include "simcli.h"
#include "grid.h"
#include "progress.h"

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
    bb_qty_list pfs;   /* the walk */
};

static const bb_cmd_spec spec = {
    .args_doc = "[FILE]",
    .doc = "The cheapest design over PFS bandwidths: at each, the smallest burst buffer "
    "(capacity and bandwidth; with --dwpd, endurance too) meeting the target, as "
    "`bbsize size` gives it there, its cost, and the cheapest.\v"
    "The buffer's bandwidth is the platform's when it has one (--bb-bw, the preset, the "
    "file); else, without --cost-gbs, the one whose throttling takes half the idle "
    "budget; else the cheapest share of the budget (bbsize-design(1)).  A PFS "
    "bandwidth at or below the expected load has no design.  Designs run in parallel; "
    "the output is the same for any --threads.",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .runs = BB_RUN_THREADS,
    .targets = BB_TGT_IDLE,
    .groups = BB_CMD_ENDURANCE | BB_CMD_PRICES | BB_CMD_LOADS,
    .walks = BB_PLAT_PFS_BW,
    .walk_doc = "the PFS bandwidths to walk: FIRST:LAST:STEP (e.g. 0.8TB/s:3TB/s:0.1TB/s) or "
    "a list (required)",
    .walk_at = offsetof(struct args, pfs),
    .walk_max = 10000,
    .walk_required = 1,
    .walk_example = "0.8TB/s:3TB/s:0.1TB/s",
};

static const char *
rule_name(bba_bw_rule r)
{
    return r == BBA_BW_FIXED ? "given" : r == BBA_BW_HALF ? "half of the idle budget"
                                                          : "cheapest share";
}


typedef struct {
    const struct args *a;
    bba_design_spec sp;    /* the workload's; each load's borrows its question */
    int priced;
    double *pfs;           /* the walk, bytes/s */
    double ops;            /* the estimate of every load's walk */
} walk_ctx;

/* The walk at one load (cmdspec.h bb_cmd_each_load): its designs, their
 * rows (text: after a LOAD column with --load-scale) and the cheapest. */
static int
design_load(const bb_ctx *ctx, const bba_front *front, const bba_question *q, double scale,
            const char *prefix, void *arg)
{
    walk_ctx *wc = arg;
    const struct args *a = wc->a;
    bba_design_spec sp = wc->sp;
    bba_design *d;
    const double *pfs = wc->pfs;
    long best;
    int priced = wc->priced, rc;
    char err[BB_ERRLEN], col[32] = "";
    json_t *rows = NULL;
    bb_meter meter;

    (void)front;
    sp.base = q;
    if (a->loads.n)
        snprintf(col, sizeof col, "x%-6g", scale);
    d = calloc(a->pfs.n, sizeof *d);
    if (d == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    bb_meter_start(&meter, &a->common.out, "design", "PFS bandwidths", a->pfs.n);
    rc = bb_design_walk(&sp, pfs, a->pfs.n, a->run.threads, &meter, d, err);
    bb_meter_end(&meter);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    /* a point that cannot be solved is skipped with its reason; the walk
     * goes on */
    for (size_t i = 0; i < a->pfs.n; i++)
        if (d[i].status != BB_OK && d[i].status != BB_EINFEASIBLE) {
            char pb[64];

            bb_ctx_fmt_rate(ctx, pb, sizeof pb, pfs[i]);
            if (bb_ctx_blame(ctx, d[i].status, d[i].err) != NULL)   /* a list entry */
                bb_usage_error("pfs-bw", "%s: %s", pb, d[i].err);
            bb_warn("%s: %sPFS bandwidth %s left out: %s", ctx->wl.source, prefix, pb, d[i].err);
        } else if (d[i].status == BB_EINFEASIBLE && !a->common.out.json && !a->common.out.csv) {
            /* the row says "none": the note says why, as `size` would */
            char pb[64];

            bb_ctx_fmt_rate(ctx, pb, sizeof pb, pfs[i]);
            bb_warn("%sPFS bandwidth %s: no burst-buffer size suffices: the idle fraction only "
                    "falls to %.4g as the buffer grows (expected load %.4g times the PFS "
                    "bandwidth), above the target %g", prefix, pb, d[i].a.idle_limit,
                    d[i].a.load_ratio, a->tgt.target_idle);
        }
    best = priced ? bba_design_cheapest(d, a->pfs.n) : -1;
    if (best >= 0 && a->pfs.n > 1 && (best == 0 || (size_t)best == a->pfs.n - 1)) {
        char pb[32];

        bb_ctx_fmt_rate(ctx, pb, sizeof pb, pfs[best]);
        bb_warn("%sthe cheapest design is at the %s end of the walk (%s): a cheaper one may "
                "lie beyond it; walk further (--pfs-bw)", prefix, best == 0 ? "low" : "high", pb);
    }

    if (a->common.out.csv)
        printf("pfs_bw_bytes_per_s,feasible,bb_size_bytes,bb_bw_bytes_per_s,throttle_share,"
               "idle_fraction,binding,bb_write_bytes_per_day,drive_writes_per_day,cost,"
               "cheapest,idle_fraction_limit\n");
    else if (a->common.out.json)
        rows = json_array();
    for (size_t i = 0; i < a->pfs.n; i++) {
        const bba_design *x = &d[i];
        int ok = x->status == BB_OK;
        const char *binds = !ok ? (x->status == BB_EINFEASIBLE ? "none" : "failed")
                                : x->endurance_binds ? "endurance" : "idle";
        double day = ok ? x->a.bb_write_Bps * 86400.0 : NAN;
        double dwpd = ok ? bba_drive_writes_per_day(x->a.bb_write_Bps, x->a.S_bytes) : NAN;

        if (a->common.out.csv) {
            bb_csv_row(stdout, "ndnnnnsnnndn", x->pfs_bw_Bps, ok, ok ? x->a.S_bytes : NAN,
                       x->bb_bw_Bps > 0 ? x->bb_bw_Bps : NAN, x->share, ok ? x->a.idle : NAN,
                       binds, day, dwpd, priced && ok ? x->cost : NAN, (long)i == best,
                       ok ? NAN : x->a.idle_limit);
        } else if (a->common.out.json) {
            json_t *o = json_pack("{s:f, s:b, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:b}",
                                  "pfs_bw_bytes_per_s", x->pfs_bw_Bps, "feasible", ok,
                                  "bb_size_bytes", ok ? json_real(x->a.S_bytes) : json_null(),
                                  "bb_bw_bytes_per_s",
                                  x->bb_bw_Bps > 0 ? json_real(x->bb_bw_Bps) : json_null(),
                                  "throttle_share", bb_json_real_or_null(x->share),
                                  "idle_fraction", ok ? json_real(x->a.idle) : json_null(),
                                  "binding", binds,
                                  "bb_write_bytes_per_day", bb_json_real_or_null(day),
                                  "drive_writes_per_day", bb_json_real_or_null(dwpd),
                                  "cost", priced && ok ? bb_json_real_or_null(x->cost) : json_null(),
                                  "cheapest", (long)i == best);

            json_object_set_new(o, "idle_fraction_limit",
                                ok ? json_null() : bb_json_real_or_null(x->a.idle_limit));
            json_array_append_new(rows, o);
        } else {
            char pb[32], sz[32], bw[32], wd[32], c[BB_MONEY_LEN];

            bb_ctx_fmt_rate(ctx, pb, sizeof pb, x->pfs_bw_Bps);
            if (ok)
                bb_ctx_fmt_size(ctx, sz, sizeof sz, x->a.S_bytes);
            else
                snprintf(sz, sizeof sz, "none");
            if (x->bb_bw_Bps > 0)
                bb_ctx_fmt_rate(ctx, bw, sizeof bw, x->bb_bw_Bps);
            else   /* a buffer of 0 B has no bandwidth */
                snprintf(bw, sizeof bw, ok && x->a.S_bytes > 0 ? "unlimited" : "-");
            if (ok && isfinite(dwpd))
                snprintf(wd, sizeof wd, "%.3g", dwpd);
            else
                snprintf(wd, sizeof wd, "-");
            c[0] = '\0';
            if (priced && ok && isfinite(x->cost))
                bb_fmt_money(c, sizeof c, &a->prices, x->cost);
            else if (priced && ok)   /* priced unlimited bandwidth, or an overflow */
                snprintf(c, sizeof c, "inf");
            {
                /* infeasible: the limit the idle fraction falls to; failed: none */
                double v = ok ? x->a.idle : x->status == BB_EINFEASIBLE ? x->a.idle_limit : NAN;
                char iv[32];

                if (isfinite(v))
                    snprintf(iv, sizeof iv, "%.3g", v);
                else
                    snprintf(iv, sizeof iv, "-");
                printf("%s%-12s %-11s %-12s %-10s %-8s %-12s %s%s\n", col, pb, sz, bw, iv, binds,
                       wd, c, (long)i == best ? " *" : "");
            }
        }
    }
    if (a->common.out.json) {
        json_t *o = json_pack("{s:o, s:o, s:s, s:f, s:o}", "points", rows,
                              "cheapest", best >= 0 ? json_integer(best) : json_null(),
                              "bandwidth_rule", sp.rule == BBA_BW_FIXED ? "given"
                                                : sp.rule == BBA_BW_HALF ? "half" : "priced",
                              "target_idle", a->tgt.target_idle,
                              "platform", bb_json_platform(ctx));

        if (priced)
            json_object_set_new(o, "prices", json_pack("{s:f, s:f, s:f, s:o}", "tb", a->prices.tb,
                                                       "bb_gbs", a->prices.gbs, "pfs_gbs",
                                                       a->prices.pfs_gbs, "currency",
                                                       a->prices.currency
                                                           ? json_string(a->prices.currency)
                                                           : json_null()));
        else
            json_object_set_new(o, "prices", json_null());
        /* the model that answered (the first design found; null if none) */
        for (size_t i = 0; i < a->pfs.n && !json_object_get(o, "model"); i++)
            if (d[i].status == BB_OK)
                json_object_set_new(o, "model", json_string(bba_model_kind_name(d[i].a.model)));
        bb_json_head(o, ctx);
        bb_json_print(o);
    } else if (!a->common.out.csv) {
        if (best >= 0) {
            char pb[32], sz[32], bw[32], c[BB_MONEY_LEN];

            bb_ctx_fmt_rate(ctx, pb, sizeof pb, d[best].pfs_bw_Bps);
            bb_ctx_fmt_size(ctx, sz, sizeof sz, d[best].a.S_bytes);
            if (d[best].bb_bw_Bps > 0)
                bb_ctx_fmt_rate(ctx, bw, sizeof bw, d[best].bb_bw_Bps);
            else
                snprintf(bw, sizeof bw, "unlimited bandwidth");
            bb_fmt_money(c, sizeof c, &a->prices, d[best].cost);
            if (d[best].a.S_bytes == 0)   /* no buffer, no bandwidth bought */
                printf("%scheapest (*): PFS %s and no burst buffer (the PFS alone meets the "
                       "target), %s\n", prefix, pb, c);
            else
                printf("%scheapest (*): PFS %s with a %s burst buffer of %s, %s; buffer "
                       "bandwidth: %s\n", prefix, pb, sz, bw, c, rule_name(sp.rule));
        } else if (priced) {
            size_t feas = 0;

            for (size_t i = 0; i < a->pfs.n; i++)
                feas += d[i].status == BB_OK;
            if (feas > 0)
                printf("%sno cheapest: every design meeting the target costs more than the "
                       "largest number (inf: the prices are too large)\n", prefix);
            else
                printf("%sno design meets the target at these PFS bandwidths\n", prefix);
        } else {
            printf("%sbuffer bandwidth: %s; give prices (--cost-tb, --cost-gbs, --cost-pfs-gbs) "
                   "for the cheapest\n", prefix, rule_name(sp.rule));
        }
    }
    free(d);
    return BB_OK;
}

/* The walk's multiply-adds at one load, added to *arg (designrun.h). */
static int
cost_load(const bb_ctx *ctx, const bba_front *front, const bba_question *q, double scale,
          const char *prefix, void *arg)
{
    walk_ctx *wc = arg;
    bba_design_spec sp = wc->sp;
    bba_cost c;
    char err[BB_ERRLEN];
    int rc;

    (void)front;
    (void)scale;
    (void)prefix;
    sp.base = q;
    rc = bba_design_walk_cost(&sp, wc->pfs, wc->a->pfs.n, &c, err);
    if (rc != BB_OK)
        bb_ctx_die_answer(ctx, rc, err);
    wc->ops += c.ops;
    return BB_OK;
}

int
bb_cmd_design(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    walk_ctx w;
    int rc;

    memset(&a, 0, sizeof a);
    bb_cmd_parse(&spec, argc, argv, &a.c, &a);
    bb_ctx_read(&ctx, &a.common, a.file);
    w.a = &a;
    w.priced = bb_cmd_design_spec(&ctx, &a.c, &w.sp);
    w.pfs = calloc(a.pfs.n, sizeof *w.pfs);
    if (w.pfs == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < a.pfs.n; i++)
        w.pfs[i] = bb_qty_rate_Bps(&a.pfs.v[i], ctx.pf.time_unit_s);
    /* the whole run's estimate is its one line (cli.c: the first
     * announced), before any design's own */
    w.ops = 0;
    bb_cmd_each_load(&ctx, &a.c, cost_load, &w);
    if (a.common.max_ops > 0 && !(w.ops <= a.common.max_ops)) {   /* refused before a design */
        char err[BB_ERRLEN];

        snprintf(err, sizeof err, "the walk of %zu PFS bandwidth%s would take about %.2g "
                 "operations, more than the bound of %.3g: walk fewer PFS bandwidths, give a "
                 "resolution, or raise the operation bound", a.pfs.n, a.pfs.n == 1 ? "" : "s",
                 w.ops, a.common.max_ops);
        bb_ctx_die_answer(&ctx, BB_ETOOBIG, err);
    }
    if (ctx.qn.so.announce != NULL && w.ops > 0)
        ctx.qn.so.announce(ctx.qn.so.announce_ctx, w.ops);
    if (!a.common.out.csv && !a.common.out.json)
        printf("%s%-12s %-11s %-12s %-10s %-8s %-12s %s\n", a.loads.n ? "LOAD   " : "",
               "PFS_BW", "BB_SIZE", "BB_BW", "IDLE", "BINDS", "WRITES/DAY", w.priced ? "COST" : "");
    rc = bb_cmd_each_load(&ctx, &a.c, design_load, &w);
    (void)rc;   /* a design without answer is a row, not a failure */
    free(w.pfs);
    bb_qty_list_free(&a.pfs);
    bb_cmd_args_free(&a.c);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
