/* committee.c: what a procurement committee reads first in `bbsize
 * report` (report.h): the headline (capacity and bandwidth to buy, and
 * what the applications then wait, in minutes a day), the sizes for each
 * load growth, the endurance of the drives at the answer, the static
 * partitions against the shared buffer when the workload has groups, and
 * a sentence when lazy draining gains nothing.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define LEVER_GAIN 0.01   /* quiet fraction lazy draining must add to count */

/* The question of the designs (the pair and the walk), as `bbsize design`
 * asks it: the default solver (--solver chooses the sections' solves, and
 * a direct factorisation at the resolutions a design settles on takes
 * minutes; the sizes agree to the solvers' tolerance), the bounds of the
 * options. */
static void
design_question(bb_report *r)
{
    const bb_ctx *ctx = r->given;

    r->dq = ctx->qn;
    r->dq.target = r->o.target;
    r->dq.drain = r->o.drain;
    r->dq.progress = NULL;
    bba_solver_defaults(&r->dq.so);
    r->dq.so.mem_limit_bytes = ctx->qn.so.mem_limit_bytes;
    r->dq.so.max_ops = ctx->qn.so.max_ops;
    bb_design_spec_init(&r->dspec, &r->dq, r->o.priced ? r->o.prices : NULL,
                        r->o.end != NULL && r->o.end->set ? r->o.end : NULL);
}

void
bb_report_fmt_up(const bb_ctx *ctx, char *buf, size_t len, double v, int rate)
{
    if (isfinite(v) && v > 0) {
        /* the digits bb_fmt_size shows: 4 significant (6 plain) */
        double unit = pow(10.0, floor(log10(v)) - (ctx->plain ? 5 : 3));
        double k = ceil(v / unit * (1 - 1e-12));

        v = k * unit;
    }
    if (rate)
        bb_ctx_fmt_rate(ctx, buf, len, v);
    else
        bb_ctx_fmt_size(ctx, buf, len, v);
}

/* The pair to buy: at the platform's PFS bandwidth, the design `bbsize
 * design` chooses there with the same prices (designrun.h): the buffer
 * bandwidth given, or the cheapest share of the idle budget when the
 * buffer's bandwidth has a price, or half of it. */
void
bb_report_pair(bb_report *r)
{
    design_question(r);
    bba_design_choose(&r->dspec, r->given->pf.pfs_bw_Bps, &r->pair);
    if (r->pair.status != BB_OK && r->pair.status != BB_EINFEASIBLE)
        bb_warn("the burst-buffer bandwidth to buy: %s", r->pair.err);
}

size_t
bb_report_walk_pfs(const bb_ctx *ctx, const bb_report_opts *o, double *pfs)
{
    size_t n = o->walk ? o->nwalk : BB_REPORT_WALK_LAST - BB_REPORT_WALK_FIRST + 1;

    for (size_t i = 0; pfs != NULL && i < n; i++)
        pfs[i] = o->walk ? o->walk[i]
                         : ctx->pf.pfs_bw_Bps * (double)(BB_REPORT_WALK_FIRST + (int)i) / 10.0;
    return n;
}

/* With prices, the designs over the PFS bandwidths of --pfs-bw-walk (by
 * default 0.5 to 2 times the platform's), as `bbsize design --pfs-bw`
 * walks them, the walk's cost estimated first; a design that fails is
 * left out of the plot and named. */
static void
cost_walk(bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    size_t n = bb_report_walk_pfs(ctx, &r->o, NULL);
    bba_cost c;
    char err[BB_ERRLEN], what[200];
    int rc;

    r->walk_best = -1;
    if (!r->o.priced)
        return;
    r->walk_pfs = calloc(n, sizeof *r->walk_pfs);
    r->walk = calloc(n, sizeof *r->walk);
    if (r->walk_pfs == NULL || r->walk == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    r->nwalk = n;
    bb_report_walk_pfs(ctx, &r->o, r->walk_pfs);
    rc = bba_design_walk_cost(&r->dspec, r->walk_pfs, n, &c, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    snprintf(what, sizeof what, "the cost plot's designs at %zu PFS bandwidths (fewer, or "
             "further above the load, with --pfs-bw-walk, shrink it)", n);
    if (bba_cost_check(NULL, &c, ctx->opt->max_ops, what, err) != BB_OK)
        bb_die_lib(BB_ETOOBIG, err);
    {
        bb_meter m;

        bb_meter_start(&m, &ctx->opt->out, "report: the cost plot", "designs", n);
        rc = bb_design_walk(&r->dspec, r->walk_pfs, n, r->o.threads, &m, r->walk, err);
        bb_meter_end(&m);
    }
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    for (size_t i = 0; i < n; i++) {
        const bba_design *d = &r->walk[i];

        if (d->status != BB_OK && d->status != BB_EINFEASIBLE) {
            char bw[64];

            if (r->walk_failed++ == 0) {
                bb_ctx_fmt_rate(ctx, bw, sizeof bw, r->walk_pfs[i]);
                bb_warn("the cost plot leaves out PFS bandwidth %s: %s", bw, d->err);
            }
        }
    }
    r->walk_best = bba_design_cheapest(r->walk, n);
    if (r->walk_best >= 0 && n > 1 && (r->walk_best == 0 || (size_t)r->walk_best == n - 1)) {
        char bw[64];

        bb_ctx_fmt_rate(ctx, bw, sizeof bw, r->walk_pfs[r->walk_best]);
        bb_warn("the cheapest design of the cost plot is at the %s end of its walk (%s): a "
                "cheaper one may lie beyond it (--pfs-bw-walk)",
                r->walk_best == 0 ? "low" : "high", bw);
    }
}

/* The size for each load growth: the scenarios' fronts (grid.h). */
static void
growth(bb_report *r)
{
    bb_drain d = r->o.drain;
    char err[BB_ERRLEN];

    r->growth = calloc(r->nsc, sizeof *r->growth);
    r->growth_rc = calloc(r->nsc, sizeof *r->growth_rc);
    if (r->bought)
        r->growth_bw = calloc(r->nsc, sizeof *r->growth_bw);
    if (r->growth == NULL || r->growth_rc == NULL || (r->bought && r->growth_bw == NULL))
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < r->nsc; i++) {
        if (r->o.scales[i] == 1) {
            if (r->bought)
                r->growth_bw[i] = r->pair.bb_bw_Bps;
            /* the workload itself: the recommendation (grid.h: the same
             * answer), not a second search */
            r->growth[i] = r->rec;
            r->growth_rc[i] = r->rec_rc;
            continue;
        }
        if (r->bought) {
            /* the headline's design for the grown load: capacity and
             * bandwidth chosen by the same rule and prices */
            bba_question q = r->dq;
            bba_design_spec sp = r->dspec;
            bba_design gd;

            q.apps = r->sc[i].apps;
            sp.base = &q;
            bba_design_choose(&sp, r->given->pf.pfs_bw_Bps, &gd);
            r->growth[i] = gd.a;
            r->growth_rc[i] = gd.status;
            r->growth_bw[i] = gd.bb_bw_Bps;
            if (gd.status != BB_OK && gd.status != BB_EINFEASIBLE)
                bb_warn("load x%g: %s", r->o.scales[i], gd.err);
            continue;
        }
        if (r->sc[i].front == NULL) {   /* refused as infeasible (compute.c) */
            r->growth[i] = r->rec;
            /* every bandwidth scaled: E/B scales with them */
            r->growth[i].load_ratio = r->rec.load_ratio * r->o.scales[i];
            r->growth[i].bandwidth_bound = 0;
            r->growth_rc[i] = BB_EINFEASIBLE;
            continue;
        }
        r->growth_rc[i] = bba_front_size(r->sc[i].front, r->o.target, &d, &r->growth[i], err);
        if (r->growth_rc[i] != BB_OK && r->growth_rc[i] != BB_EINFEASIBLE)
            bb_warn("load x%g: %s", r->o.scales[i], err);
    }
}

/* Static partitions, one per group, when the workload has a group column
 * (analytic/questions/partition.h, as `bbsize partition` at its defaults). */
static void
partitions(bb_report *r)
{
    /* at the platform's buffer bandwidth as given: a bought bandwidth
     * split in proportion to the PFS shares would be a second design */
    const bb_ctx *ctx = r->given;
    const bb_workload_file *wl = &ctx->wl;
    bba_partition_spec sp;
    bba_question q = ctx->qn;
    char err[BB_ERRLEN];
    int rc;

    if (!wl->has_group)
        return;
    r->part_group = calloc(wl->n, sizeof *r->part_group);
    r->part_names = calloc(wl->n, sizeof *r->part_names);
    if (r->part_group == NULL || r->part_names == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < wl->n; i++) {
        size_t g = 0;

        while (g < r->part_n && strcmp(r->part_names[g], wl->group[i]) != 0)
            g++;
        if (g == r->part_n)
            snprintf(r->part_names[r->part_n++], BBA_NAME_LEN, "%s", wl->group[i]);
        r->part_group[i] = g;
    }
    q.target = r->o.target;
    q.drain = r->o.drain;
    q.progress = NULL;
    bba_solver_defaults(&q.so);   /* as pair() */
    q.so.mem_limit_bytes = ctx->qn.so.mem_limit_bytes;
    memset(&sp, 0, sizeof sp);
    sp.base = &q;
    sp.group = r->part_group;
    sp.ngroups = r->part_n;
    sp.steps = r->part_n > 100 ? (int)r->part_n : 100;
    rc = bba_partition_solve(&sp, &r->part, err);
    if (rc != BB_OK) {
        bb_warn("partitions: %s", err);
        r->part_n = 0;
        return;
    }
    r->has_part = 1;
}

void
bb_report_committee(bb_report *r)
{
    growth(r);
    partitions(r);
    cost_walk(r);
}

void
bb_report_committee_free(bb_report *r)
{
    free(r->growth);
    free(r->growth_rc);
    free(r->growth_bw);
    free(r->part_group);
    free(r->part_names);
    free(r->walk_pfs);
    free(r->walk);
    if (r->has_part)
        bba_partition_free(&r->part);
}

/* ---- the document ------------------------------------------------------------ */

/* Which of stalls, bandwidth or endurance sets what the headline buys. */
static void
binds(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bba_design *p = &r->pair;
    const bb_endopts *e = r->o.end;
    char st[64], dw[256];

    if (e == NULL || !e->set) {
        bb_doc_para_id(d, "binds", NULL, "What binds: stalls (the idle target) set the "
                       "capacity%s; drive endurance was not asked (--dwpd gives the drives' "
                       "rating).", r->bought ? ", and the buffer bandwidth is bought so that "
                       "throttling keeps within its share of the idle budget" : "");
        return;
    }
    snprintf(dw, sizeof dw, "drives rated %g writes a day for %g years, write amplification "
             "%g, over a lifetime of %g years", e->dwpd, e->rated_years, e->waf,
             e->lifetime_years);
    bb_report_fmt_up(ctx, st, sizeof st, p->stall_bytes, 0);
    if (p->endurance_binds)
        bb_doc_para_id(d, "binds", NULL, "What binds: endurance sets the capacity (%s); the "
                       "idle target alone needs %s.  At the capacity bought the buffer sees "
                       "%.3g drive writes a day.", dw, st,
                       bba_drive_writes_per_day(p->a.bb_write_Bps, p->a.S_bytes));
    else
        bb_doc_para_id(d, "binds", NULL, "What binds: stalls (the idle target) set the "
                       "capacity; the drives last at it (%s): %.3g drive writes a day.", dw,
                       bba_drive_writes_per_day(p->a.bb_write_Bps, p->a.S_bytes));
}

void
bb_report_headline(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bba_design *p = &r->pair;
    char sz[64], bw[64], rec[64];
    double minutes;

    if (!r->feasible && r->rec.bandwidth_bound) {
        /* E < B: the buffer's bandwidth given throttles too much */
        bb_ctx_fmt_rate(ctx, bw, sizeof bw, ctx->pf.bb_bw_Bps);
        bb_ctx_fmt_rate(ctx, sz, sizeof sz, r->rec.bb_bw_min_Bps);
        bb_doc_para_id(d, "headline", NULL, "No burst-buffer capacity meets the target with a "
                       "burst-buffer bandwidth of %s: above the PFS and buffer bandwidths "
                       "together the applications are throttled %.2g%% of the time, about %.2g "
                       "minutes a day, whatever the capacity.  Buy at least %s of burst-buffer "
                       "bandwidth, or more PFS bandwidth.", bw, 100 * r->rec.idle_limit,
                       1440 * r->rec.idle_limit, sz);
        return;
    }
    if (!r->feasible) {
        bb_doc_para_id(d, "headline", NULL, "No burst buffer meets the target: the applications "
                       "write more on average than the PFS drains (E/B = %.3g); add PFS "
                       "bandwidth or reduce the load.", r->ratio);
        return;
    }
    if (p->status != BB_OK) {
        bb_report_fmt_up(ctx, sz, sizeof sz, r->S_star, 0);
        minutes = r->rec.idle * 1440;
        bb_doc_para_id(d, "headline", NULL, "Buy at least %s of burst buffer; applications "
                       "then wait on I/O %.2g%% of the time, about %.2g minutes a day.", sz,
                       100 * r->rec.idle, minutes);
        bb_doc_para_id(d, "binds", NULL, "What binds: stalls (the idle target) set the "
                       "capacity.");
        return;
    }
    bb_report_fmt_up(ctx, sz, sizeof sz, p->a.S_bytes, 0);
    minutes = p->a.idle * 1440;
    if (p->bb_bw_Bps > 0) {
        bb_report_fmt_up(ctx, bw, sizeof bw, p->bb_bw_Bps, 1);
        bb_doc_para_id(d, "headline", NULL, "Buy at least %s of burst buffer and %s of "
                       "burst-buffer bandwidth; applications then wait on I/O %.2g%% of the "
                       "time, about %.2g minutes a day.", sz, bw, 100 * p->a.idle, minutes);
    } else {
        bb_doc_para_id(d, "headline", NULL, "Buy at least %s of burst buffer (its bandwidth "
                       "never binds: no load exceeds the PFS bandwidth); applications then wait "
                       "on I/O %.2g%% of the time, about %.2g minutes a day.", sz,
                       100 * p->a.idle, minutes);
    }
    binds(d, r);
    if (!r->bought)
        return;
    bb_ctx_fmt_size(ctx, rec, sizeof rec, r->unl.S_bytes);
    {
        char least[64];

        bb_ctx_fmt_rate(ctx, least, sizeof least, r->unl.bb_bw_min_Bps);
        if (r->dspec.rule == BBA_BW_PRICED)
            bb_doc_para(d, "How fast: the burst-buffer bandwidth %s is the one whose throttling "
                        "(the load above the PFS and buffer bandwidths together) takes %.3g of "
                        "the idle budget, the capacity keeping the rest: the cheapest split at "
                        "the prices given (as bbsize design chooses it).  Below %s no capacity "
                        "meets the target.  Every section below works at this pair; the size "
                        "with unlimited burst-buffer bandwidth, %s, is shown only as such.",
                        bw, p->share, least, rec);
        else
            bb_doc_para(d, "How fast: the burst-buffer bandwidth %s is the one whose throttling "
                        "(the load above the PFS and buffer bandwidths together) takes half the "
                        "idle budget, and the capacity keeps the other half (as bbsize design "
                        "chooses it).  Below %s no capacity meets the target.  Every section "
                        "below works at this pair; the size with unlimited burst-buffer "
                        "bandwidth, %s, is shown only as such.", bw, least, rec);
    }
}

/* The cost plot's data: each design of the walk as bbsize design prints
 * it, the cheapest marked. */
static void
cost_table(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    char pb[64], sz[64], bw[64], mc[BB_MONEY_LEN];

    bb_doc_details_begin(d, "Data of the plot");
    bb_doc_table_begin(d, "cost-table", "PFS bandwidth\tburst-buffer size\tburst-buffer "
                       "bandwidth\tidle\tcost\tcheapest");
    for (size_t i = 0; i < r->nwalk; i++) {
        const bba_design *x = &r->walk[i];
        int ok = x->status == BB_OK;

        bb_ctx_fmt_rate(ctx, pb, sizeof pb, r->walk_pfs[i]);
        if (ok) {
            bb_ctx_fmt_size(ctx, sz, sizeof sz, x->a.S_bytes);
            if (isfinite(x->cost))
                bb_fmt_money(mc, sizeof mc, r->o.prices, x->cost);
            else
                snprintf(mc, sizeof mc, "inf");
        } else {
            snprintf(sz, sizeof sz, x->status == BB_EINFEASIBLE ? "none (E >= B)" : "n/a");
            snprintf(mc, sizeof mc, "-");
        }
        if (ok && x->bb_bw_Bps > 0)
            bb_ctx_fmt_rate(ctx, bw, sizeof bw, x->bb_bw_Bps);
        else
            snprintf(bw, sizeof bw, ok && x->a.S_bytes > 0 ? "unlimited" : "-");
        if (ok)
            bb_doc_row(d, "%s\t%s\t%s\t%.3g\t%s\t%s", pb, sz, bw, x->a.idle, mc,
                       (long)i == r->walk_best ? "*" : "");
        else
            bb_doc_row(d, "%s\t%s\t%s\t-\t%s\t", pb, sz, bw, mc);
    }
    bb_doc_table_end(d);
    bb_doc_details_end(d);
}

/* The price of the pair, item by item, with the PFS bandwidth when it has
 * a price. */
static void
pair_cost_table(bb_doc *d, const bb_report *r, double size_b, double bw_b)
{
    const bb_prices *pr = r->o.prices;
    double pfs_b = r->ctx->pf.pfs_bw_Bps;
    double ct = pr->tb * size_b / 1e12, cb = pr->gbs * bw_b / 1e9, cp = pr->pfs_gbs * pfs_b / 1e9;
    char m1[BB_MONEY_LEN], m2[BB_MONEY_LEN];

    bb_doc_table_begin(d, "cost", "item\tquantity\tunit price\tcost");
    if (pr->has_tb) {
        bb_fmt_money(m1, sizeof m1, pr, pr->tb);
        bb_fmt_money(m2, sizeof m2, pr, ct);
        bb_doc_row(d, "burst-buffer capacity\t%.6g TB\t%s per TB\t%s", size_b / 1e12, m1, m2);
    }
    if (pr->has_gbs) {
        bb_fmt_money(m1, sizeof m1, pr, pr->gbs);
        bb_fmt_money(m2, sizeof m2, pr, cb);
        bb_doc_row(d, "burst-buffer bandwidth\t%.6g GB/s\t%s per GB/s\t%s", bw_b / 1e9, m1, m2);
    }
    if (pr->has_pfs_gbs) {
        bb_fmt_money(m1, sizeof m1, pr, pr->pfs_gbs);
        bb_fmt_money(m2, sizeof m2, pr, cp);
        bb_doc_row(d, "PFS bandwidth\t%.6g GB/s\t%s per GB/s\t%s", pfs_b / 1e9, m1, m2);
    }
    bb_fmt_money(m2, sizeof m2, pr, ct + cb + cp);
    bb_doc_row(d, "total\t\t\t%s", m2);
    bb_doc_table_end(d);
}

/* With prices: the pair's price when there is one to buy, then the cost
 * plot, its data and the cheapest design of the walk. */
void
bb_report_cost(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bb_prices *pr = r->o.prices;
    int paired = r->pair.status == BB_OK;

    if (!r->o.priced)
        return;
    if (paired || r->feasible)
        pair_cost_table(d, r, paired ? r->pair.a.S_bytes : r->S_star,
                        paired ? r->pair.bb_bw_Bps : 0);
    if (r->nfig > 4) {
        bb_doc_figure(d, &r->fig[4]);
        cost_table(d, r);
    }
    if (r->walk_best >= 0) {
        const bba_design *b = &r->walk[r->walk_best];
        char pb[64], sz[64], bw[64], mc[BB_MONEY_LEN];

        bb_ctx_fmt_rate(ctx, pb, sizeof pb, b->pfs_bw_Bps);
        bb_ctx_fmt_size(ctx, sz, sizeof sz, b->a.S_bytes);
        if (b->bb_bw_Bps > 0)
            bb_ctx_fmt_rate(ctx, bw, sizeof bw, b->bb_bw_Bps);
        else
            snprintf(bw, sizeof bw, "unlimited bandwidth");
        bb_fmt_money(mc, sizeof mc, pr, b->cost);
        if (b->a.S_bytes == 0)   /* no buffer: no bandwidth bought */
            bb_doc_para_id(d, "cheapest", NULL, "The cheapest design of the plot: a PFS of %s "
                           "and no burst buffer (the PFS alone meets the target), %s in all "
                           "(bbsize design --pfs-bw with the same PFS bandwidths and prices "
                           "gives it).", pb, mc);
        else
            bb_doc_para_id(d, "cheapest", NULL, "The cheapest design of the plot: a PFS of %s "
                           "with a %s burst buffer of %s, %s in all (bbsize design --pfs-bw "
                           "with the same PFS bandwidths and prices gives it).", pb, sz, bw, mc);
        if (r->nwalk > 1 && (r->walk_best == 0 || (size_t)r->walk_best == r->nwalk - 1))
            bb_doc_para_id(d, "cheapest-edge", NULL, "It lies at the %s end of the PFS "
                           "bandwidths walked: a cheaper design may lie beyond it (walk "
                           "further with --pfs-bw-walk).", r->walk_best == 0 ? "low" : "high");
    } else {
        char first[64];

        bb_ctx_fmt_rate(ctx, first, sizeof first, r->walk_pfs[0]);
        bb_doc_para_id(d, "cheapest", NULL, "No PFS bandwidth of the walk (%zu from %s, "
                       "--pfs-bw-walk) has a design meeting the target: no cost plot.",
                       r->nwalk, first);
    }
    if (r->walk_failed)
        bb_doc_para(d, "%zu of the %zu PFS bandwidths could not be solved and are missing from "
                    "the plot.", r->walk_failed, r->nwalk);
}

/* The size (and, bought, the buffer bandwidth) for each load growth. */
static void
growth_table(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    char sz[128], bw[64], ratio[32];

    bb_doc_table_begin(d, "growth-table", r->bought
                       ? "load\tE/B\tsize\tburst-buffer bandwidth\ttimes the recommended size"
                       : "load\tE/B\tsize\ttimes the recommended size");
    for (size_t i = 0; i < r->nsc; i++) {
        const bba_answer *a = &r->growth[i];

        snprintf(bw, sizeof bw, "-");
        snprintf(ratio, sizeof ratio, "-");
        if (r->growth_rc[i] == BB_OK) {
            bb_report_fmt_up(ctx, sz, sizeof sz, a->S_bytes, 0);
            if (r->bought)
                bb_report_fmt_up(ctx, bw, sizeof bw, r->growth_bw[i], 1);
            if (r->feasible && r->S_star > 0)
                snprintf(ratio, sizeof ratio, "%.3g", a->S_bytes / r->S_star);
        } else if (r->growth_rc[i] == BB_EINFEASIBLE && a->bandwidth_bound) {
            /* the buffer's bandwidth binds, not the PFS's mean load */
            bb_report_fmt_up(ctx, bw, sizeof bw, a->bb_bw_min_Bps, 1);
            snprintf(sz, sizeof sz, "none (the buffer bandwidth binds: needs >= %s)", bw);
            snprintf(bw, sizeof bw, "-");
        } else if (r->growth_rc[i] == BB_EINFEASIBLE && a->load_ratio >= 1) {
            snprintf(sz, sizeof sz, "none (E >= B)");
        } else {
            snprintf(sz, sizeof sz, "not computed");
        }
        if (r->bought)
            bb_doc_row(d, "x%g\t%.3g\t%s\t%s\t%s", r->o.scales[i], a->load_ratio, sz, bw,
                       ratio);
        else
            bb_doc_row(d, "x%g\t%.3g\t%s\t%s", r->o.scales[i], a->load_ratio, sz, ratio);
    }
    bb_doc_table_end(d);
}

static void
endurance_line(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bba_answer *a = r->pair.status == BB_OK ? &r->pair.a : &r->rec;
    char day[64], sz[64];

    if (!r->feasible || !(a->S_bytes > 0) || !isfinite(a->bb_write_Bps))
        return;
    bb_ctx_fmt_size(ctx, day, sizeof day, a->bb_write_Bps * 86400.0);
    bb_report_fmt_up(ctx, sz, sizeof sz, a->S_bytes, 0);   /* as the headline */
    bb_doc_para_id(d, "endurance", NULL, "Endurance: the %s buffer absorbs %s a day, %.3g "
                   "drive writes per day (write amplification not included); enterprise SSDs "
                   "are rated 1 to 3 a day.  When that is above the drives' rating, endurance "
                   "and not stalls sets the capacity: bbsize size --dwpd D --waf W gives it.",
                   sz, day, bba_drive_writes_per_day(a->bb_write_Bps, a->S_bytes));
}

static void
partition_table(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bba_partition *p = &r->part;
    char bw[64], sz[64], tot[64], sh[64];

    if (!r->has_part)
        return;
    if (!p->feasible) {
        bb_doc_para(d, "Static partitions, one per group: no split of the PFS bandwidth meets "
                    "the target in every group.");
        return;
    }
    bb_doc_table_begin(d, "partition-table", "group\tPFS bandwidth\tshare\tsize\tidle");
    for (size_t g = 0; g < p->ngroups; g++) {
        bb_ctx_fmt_rate(ctx, bw, sizeof bw, p->pfs_bw_Bps[g]);
        bb_ctx_fmt_size(ctx, sz, sizeof sz, p->bytes[g]);
        bb_doc_row(d, "%s\t%s\t%.2f\t%s\t%.3g", r->part_names[g], bw,
                   (double)p->k[g] / p->steps, sz, p->a[g].idle);
    }
    bb_doc_table_end(d);
    bb_ctx_fmt_size(ctx, tot, sizeof tot, p->total_bytes);
    if (isfinite(p->shared_bytes)) {
        char times[48];

        bb_ctx_fmt_size(ctx, sh, sizeof sh, p->shared_bytes);
        /* no ratio to a shared buffer that needs nothing */
        if (p->shared_bytes > 0)
            snprintf(times, sizeof times, " (%.3g times)", p->total_bytes / p->shared_bytes);
        else
            times[0] = '\0';
        bb_doc_para_id(d, "partitions", NULL, "Static partitions, one per group, each with its "
                       "share of the PFS bandwidth%s: %s in total against %s for one shared "
                       "buffer%s: what partitioning costs (bbsize partition).",
                       r->bought ? ", both with unlimited burst-buffer bandwidth (not the "
                       "headline's design)" : "", tot, sh, times);
    }
}

static void
lever(bb_doc *d, const bb_report *r)
{
    if (!r->feasible || r->thr_msg[0] || !r->thr_feasible)
        return;
    if (r->thr_best.quiet - r->thr_greedy.quiet < LEVER_GAIN)
        bb_doc_para_id(d, "lever-lazy", NULL, "Lazy draining gains nothing on this workload: "
                       "at the recommended size its best threshold leaves the PFS quiet %.3g "
                       "of the time against %.3g for greedy draining (section 4).",
                       r->thr_best.quiet, r->thr_greedy.quiet);
}

/* The requirements a vendor answers, in the committee's vocabulary: each
 * target with the acceptance test that shows it (the headline's design). */
static void
requirements(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bba_answer *a = &r->rec;
    const bb_endopts *e = r->o.end;
    double bw = r->bought ? ctx->pf.bb_bw_Bps : ctx->pf.bb_bw_Bps > 0 ? ctx->pf.bb_bw_Bps : 0;
    double day = a->bb_write_Bps * 86400.0, waf = e != NULL && e->set ? e->waf : 1;
    double years = e != NULL && e->set ? e->lifetime_years : 5;
    char sz[64], rt[64], v[64], t[64], wd[64], tot[64];

    if (!r->feasible || !(a->S_bytes > 0) || ctx->plain)
        return;
    bb_report_fmt_up(ctx, sz, sizeof sz, a->S_bytes, 0);
    bb_doc_para(d, "Requirements, as a vendor answers them (each a target and the acceptance "
                "test that shows it):");
    bb_doc_table_begin(d, "requirements", "requirement\ttarget\tacceptance test");
    if (bw > 0) {
        bb_report_fmt_up(ctx, rt, sizeof rt, bw, 1);
        bb_doc_row(d, "capacity\tat least %s usable\twrite %s into the burst buffer, read "
                   "it back and verify it", sz, sz);
        bb_fmt_duration(t, sizeof t, ceil(a->S_bytes / bw));
        bb_doc_row(d, "bandwidth\tat least %s aggregate write, beside the PFS's own\twrite "
                   "%s at %s or more, sustained, for %s (the capacity filled at the bandwidth) "
                   "while the PFS drains", rt, sz, rt, t);
    } else {
        bb_doc_row(d, "capacity\tat least %s usable\twrite %s into the burst buffer, read "
                   "it back and verify it", sz, sz);
        bb_doc_row(d, "bandwidth\tnot bound by this model (unlimited burst-buffer bandwidth "
                   "assumed)\t-");
    }
    if (isfinite(day) && day > 0) {
        bb_ctx_fmt_size(ctx, v, sizeof v, day * waf);
        bb_ctx_fmt_size(ctx, tot, sizeof tot, day * waf * 365.0 * years);
        snprintf(wd, sizeof wd, "%.3g", bba_drive_writes_per_day(a->bb_write_Bps, a->S_bytes)
                 * waf);
        bb_doc_row(d, "endurance\t%s drive writes a day at the capacity (%s a day, write "
                   "amplification %g) for %g years\tthe drives' rated writes (DWPD x "
                   "capacity x 365 x rated years) cover %s", wd, v, waf, years, tot);
    }
    bb_doc_table_end(d);
}

void
bb_report_sec_committee(bb_doc *d, const bb_report *r)
{
    requirements(d, r);
    bb_doc_para(d, "Sizes for each load growth asked (every bandwidth scaled, --load-scale), "
                "beyond the plot's range:");
    growth_table(d, r);
    endurance_line(d, r);
    partition_table(d, r);
    lever(d, r);
}
