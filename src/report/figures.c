/* figures.c: the plots of `bbsize report` (report.h), drawn by gnuplot
 * before anything is written: one function per figure.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "report/report.h"

/* The answer's marks: black, dash-dotted. */
#define ANSWER_STYLE "lines lc rgb '#000000'"

static void
draw(bb_report *r, bb_figure *f, const bb_plot *p)
{
    char err[BB_ERRLEN];
    int rc = bb_plot_svg(r->plots, p, &f->svg, &f->data, err, sizeof err);

    if (rc != 0)
        bb_die(rc, "%s", err);
}

/* Display unit for sizes on an axis: divisor and name. */
static void
size_unit(const bb_ctx *c, double max_bytes, double *div, const char **name)
{
    if (c->plain) {
        *div = 1;
        *name = "data units";
    } else if (max_bytes >= 1e15 * 2) {
        *div = 1e15;
        *name = "PB";
    } else if (max_bytes >= 1e12 * 2) {
        *div = 1e12;
        *name = "TB";
    } else {
        *div = 1e9;
        *name = "GB";
    }
}

/* Figure 3 view: idle versus size, one curve per load scale. */
static void
fig_idle_vs_size(bb_report *r, bb_figure *f)
{
    const bb_ctx *ctx = r->ctx;
    const size_t nsc = r->nsc, nsz = (size_t)r->nsz;
    bb_plot_series *se = calloc(nsc + 4, sizeof *se);
    double *xs = calloc(nsz, sizeof *xs), *ys = calloc(nsc * nsz, sizeof *ys);
    double tx[2], ty[2], ax[2], ay[2], ux[2], sdiv, ymin = INFINITY, ymax = 0;
    char (*names)[96] = calloc(nsc, sizeof *names);
    char xl[128], ttl[256], atl[160], utl[160], vtl[96], asz[64], usz[64], alab[96], ulab[96];
    char (*gtext)[96] = calloc(nsc, sizeof *gtext);
    double *vx = NULL, *vy, *vlo, *vhi;
    bb_plot_label *lab = calloc(nsc + 2, sizeof *lab);
    size_t ns, nl = 0;
    const char *sunit;
    bb_plot p;

    if (se == NULL || xs == NULL || ys == NULL || names == NULL || gtext == NULL || lab == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    size_unit(ctx, r->S_top, &sdiv, &sunit);
    for (size_t z = 0; z < nsz; z++)
        xs[z] = r->sizes[z] / sdiv;
    for (size_t i = 0; i < nsc; i++) {
        for (size_t z = 0; z < nsz; z++)
            ys[i * nsz + z] = r->out[i * nsz + z].a.idle;
        snprintf(names[i], sizeof names[i], "load x%g (E/B = %.3g)", r->o.scales[i],
                 r->out[i * nsz].a.load_ratio);
        se[i] = (bb_plot_series){ names[i], xs, ys + i * nsz, nsz, "linespoints", 0, NULL,
                                  NULL };
    }
    tx[0] = xs[0];
    tx[1] = xs[nsz - 1];
    ty[0] = ty[1] = r->o.target;
    snprintf(ttl, sizeof ttl, "target idle fraction %g", r->o.target);
    se[nsc] = (bb_plot_series){ ttl, tx, ty, 2, "lines", 2, NULL, NULL };
    ns = nsc + 1;
    if (r->feasible && r->S_star <= r->S_top) {
        /* the answer, marked: a vertical line at the recommended size */
        for (size_t k = 0; k < nsc * nsz; k++)
            if (ys[k] > 0) {
                ymin = fmin(ymin, ys[k]);
                ymax = fmax(ymax, ys[k]);
            }
        ax[0] = ax[1] = r->S_star / sdiv;
        ay[0] = isfinite(ymin) ? fmin(ymin, r->o.target / 10) : r->o.target / 10;
        ay[1] = ymax > 0 ? ymax : 1;
        bb_report_fmt_up(ctx, asz, sizeof asz, r->S_star, 0);   /* as the headline */
        /* the curves are at the answer's platform: the buffer bandwidth
         * the headline buys when it buys one */
        if (r->bought) {
            char bw[64];

            bb_report_fmt_up(ctx, bw, sizeof bw, ctx->pf.bb_bw_Bps, 1);
            snprintf(atl, sizeof atl, "the answer: %s (buffer bandwidth %s)", asz, bw);
        } else {
            snprintf(atl, sizeof atl, "the answer: %s", asz);
        }
        se[ns++] = (bb_plot_series){ atl, ax, ay, 2, ANSWER_STYLE, 4, NULL, NULL };
        if (r->bought && r->unl_rc == BB_OK && r->unl.S_bytes <= r->S_top) {
            /* the size with unlimited buffer bandwidth, named as such */
            int right = r->S_star >= r->unl.S_bytes;

            ux[0] = ux[1] = r->unl.S_bytes / sdiv;
            bb_ctx_fmt_size(ctx, usz, sizeof usz, r->unl.S_bytes);
            snprintf(utl, sizeof utl, "unlimited buffer bandwidth would need %s", usz);
            se[ns++] = (bb_plot_series){ utl, ux, ay, 2, "lines", 5, NULL, NULL };
            /* the two lines can nearly meet (Nova: 8.705 and 8.544 PB):
             * each named at its top, on its own side */
            snprintf(alab, sizeof alab, "answer %s", asz);
            snprintf(ulab, sizeof ulab, "unlimited %s", usz);
            lab[nl++] = (bb_plot_label){ ax[0], ay[1], alab, 0, right ? 1 : -1 };
            lab[nl++] = (bb_plot_label){ ux[0], ay[1], ulab, 0, right ? -1 : 1 };
        }
    }
    /* --validate's simulated points (section 6) with their intervals */
    if (r->o.validate && r->val_rc == BB_OK && r->val.n > 0) {
        const size_t nv = r->val.n;

        vx = calloc(4 * nv, sizeof *vx);
        if (vx == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        vy = vx + nv;
        vlo = vy + nv;
        vhi = vlo + nv;
        for (size_t k = 0; k < nv; k++) {
            vx[k] = r->val.rows[k].S_bytes / sdiv;
            vy[k] = r->val.rows[k].idle.mean;
            vlo[k] = r->val.rows[k].idle.lo;
            vhi[k] = r->val.rows[k].idle.hi;
        }
        snprintf(vtl, sizeof vtl, "simulated, load x1: mean and %g%% interval (section 6)",
                 100 * r->val_opts.confidence);
        se[ns++] = (bb_plot_series){ vtl, vx, vy, nv, NULL, 0, vlo, vhi };
    }
    /* the size for each load growth, where it meets the target inside the
     * plot (the growth table has them all) */
    for (size_t i = 0; i < nsc; i++) {
        char gs[64];

        /* bought: a growth's design has its own bandwidth, not the
         * curves' (the growth table has it) */
        if (r->bought || r->growth_rc[i] != BB_OK || r->o.scales[i] == 1
            || r->growth[i].S_bytes > r->S_top)
            continue;
        bb_ctx_fmt_size(ctx, gs, sizeof gs, r->growth[i].S_bytes);
        snprintf(gtext[nl], sizeof gtext[nl], "load x%g: %s", r->o.scales[i], gs);
        lab[nl] = (bb_plot_label){ r->growth[i].S_bytes / sdiv, r->o.target, gtext[nl], 0, 0 };
        nl++;
    }
    snprintf(xl, sizeof xl, "burst-buffer size (%s)", sunit);
    p = (bb_plot){ r->o.drain.kind == BB_DRAIN_LAZY ? "Idle fraction versus burst-buffer size (lazy draining)"
                                   : "Idle fraction versus burst-buffer size (greedy draining)", xl,
                   "idle fraction (log scale)", 1, 0, 0, se, ns, "idle-vs-size", lab, nl, 0, 0 };
    f->id = "fig-idle-vs-size";
    f->caption = r->bought
        ? "Idle fraction versus buffer size at the burst-buffer bandwidth the headline buys, "
          "for the workload and for load growth (every bandwidth scaled), the answer and the "
          "size with unlimited buffer bandwidth marked (each growth's own design is in the "
          "growth table); the paper's Figure 3 view."
        : "Idle fraction versus buffer size, for the workload and for load growth "
          "(every bandwidth scaled), the answer and the size for each growth marked; "
          "the paper's Figure 3 view.";
    draw(r, f, &p);
    free(vx);
    free(gtext);
    free(lab);
    free(se);
    free(xs);
    free(ys);
    free(names);
}

/* Figure 2 view: the load's CDF with the Chernoff bounds of Theorem 1. */
static void
fig_load(bb_report *r, bb_figure *f)
{
    const bb_ctx *ctx = r->ctx;
    const bba_model *m = r->lm;
    size_t n = (size_t)m->M + 1;
    double *x = calloc(n, sizeof *x), *cdf = calloc(n, sizeof *cdf), *lo = calloc(n, sizeof *lo),
           *hi = calloc(n, sizeof *hi), c = 0, bx[2], by[2], rdiv = ctx->plain ? 1 : 1e9;
    char xl[128], bl[128], tl[160], b1[64];
    double tx[2];
    size_t ns;
    bb_plot_series se[5];
    bb_plot p;

    if (x == NULL || cdf == NULL || lo == NULL || hi == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t k = 0; k < n; k++) {
        c += m->dist[k];
        x[k] = (double)k * r->qrate / rdiv * (ctx->plain ? ctx->pf.time_unit_s : 1);
        cdf[k] = c > 1 ? 1 : c;
        lo[k] = bba_chernoff_cdf_lower(&m->mom, (double)k);
        hi[k] = bba_chernoff_cdf_upper(&m->mom, (double)k);
    }
    bx[0] = bx[1] = ctx->pf.pfs_bw_Bps / rdiv * (ctx->plain ? ctx->pf.time_unit_s : 1);
    by[0] = 0;
    by[1] = 1;
    bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->pf.pfs_bw_Bps);
    snprintf(bl, sizeof bl, "PFS bandwidth B = %s", b1);
    se[0] = (bb_plot_series){ "exact CDF (Algorithm 1)", x, cdf, n, "steps", 0, NULL, NULL };
    se[1] = (bb_plot_series){ "Chernoff lower bound (Theorem 1)", x, lo, n, "lines", 2, NULL,
                              NULL };
    se[2] = (bb_plot_series){ "Chernoff upper bound (Theorem 1)", x, hi, n, "lines", 3, NULL,
                              NULL };
    se[3] = (bb_plot_series){ bl, bx, by, 2, "lines", 4, NULL, NULL };
    ns = 4;
    if (r->pair.status == BB_OK && r->pair.bb_bw_Bps > 0) {
        /* the answer's bandwidth: loads above B + B_BB are throttled */
        tx[0] = tx[1] = (ctx->pf.pfs_bw_Bps + r->pair.bb_bw_Bps) / rdiv;
        bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->pf.pfs_bw_Bps + r->pair.bb_bw_Bps);
        snprintf(tl, sizeof tl, "B + buffer bandwidth bought: %s", b1);
        se[ns++] = (bb_plot_series){ tl, tx, by, 2, ANSWER_STYLE, 4, NULL, NULL };
    }
    snprintf(xl, sizeof xl, "instantaneous I/O load (%s)",
             ctx->plain ? "data units per time unit" : "GB/s");
    p = (bb_plot){ "Distribution of the instantaneous load: Pr(load <= x)", xl,
                   "cumulative probability", 0, 0, 1.05, se, ns, "load-distribution", NULL, 0, 0, 0 };
    f->id = "fig-load-distribution";
    f->caption = "Cumulative distribution of the instantaneous I/O load with the Chernoff "
                 "bounds of Theorem 1, the PFS bandwidth and the bandwidth the answer adds "
                 "marked; the paper's Figure 2 view.";
    draw(r, f, &p);
    free(x);
    free(cdf);
    free(lo);
    free(hi);
}

/* Figures 5 and 6 views: idle and quiet fractions versus the lazy
 * threshold, greedy draining beside. */
static void
fig_lazy(bb_report *r, bb_figure *f_idle, bb_figure *f_quiet)
{
    enum { NTH = BB_REPORT_NTH };
    double tx[NTH], idle[NTH], quiet[NTH], gx[2], gi[2], gq[2], ty[2];
    char ttl[128], t_idle[160], t_quiet[160], t_best[160], szs[64], b1[64];
    bb_plot_label lab;
    size_t nl;
    bb_plot_series se[3];
    bb_plot p;
    const bba_sweep_out *lz = r->out + r->nsc * (size_t)r->nsz;

    for (size_t t = 0; t < NTH; t++) {
        tx[t] = (double)t / (double)(NTH - 1);
        idle[t] = lz[t].a.idle;
        quiet[t] = lz[t].a.quiet;
    }
    gx[0] = 0;
    gx[1] = 1;
    gi[0] = gi[1] = lz[0].a.idle;
    gq[0] = gq[1] = lz[0].a.quiet;
    ty[0] = ty[1] = r->o.target;
    snprintf(ttl, sizeof ttl, "target idle fraction %g", r->o.target);
    bb_report_fmt_up(r->ctx, szs, sizeof szs, r->S_lazy, 0);   /* as the headline */
    snprintf(t_idle, sizeof t_idle, "Idle fraction versus lazy threshold, %s buffer", szs);
    snprintf(t_quiet, sizeof t_quiet, "Quiet fraction versus lazy threshold, %s buffer", szs);
    se[0] = (bb_plot_series){ "lazy draining", tx, idle, NTH, "linespoints", 0, NULL, NULL };
    se[1] = (bb_plot_series){ "greedy draining", gx, gi, 2, "lines", 2, NULL, NULL };
    se[2] = (bb_plot_series){ ttl, gx, ty, 2, "lines", 3, NULL, NULL };
    nl = 0;
    if (r->thr_msg[0] == '\0' && r->thr_feasible && r->S_lazy > 0) {
        /* the best threshold, marked where it is on each curve */
        double f = r->thr_best.drain.threshold / r->S_lazy;

        bb_ctx_fmt_size(r->ctx, b1, sizeof b1, r->thr_best.drain.threshold);
        snprintf(t_best, sizeof t_best, "best threshold %.2f (%s)", f, b1);
        lab = (bb_plot_label){ f, r->thr_best.idle, t_best, 0, 0 };
        nl = 1;
    }
    p = (bb_plot){ t_idle, "threshold (fraction of the buffer size)",
                   "idle fraction (log scale)", 1, 0, 0, se, 3, "lazy-idle", &lab, nl, 0, 0 };
    f_idle->id = "fig-lazy-idle";
    f_idle->caption = "Idle fraction of lazy draining versus its threshold at the recommended "
                      "size, the best threshold marked; the paper's Figure 5 view.";
    draw(r, f_idle, &p);
    se[0] = (bb_plot_series){ "lazy draining", tx, quiet, NTH, "linespoints", 0, NULL, NULL };
    se[1] = (bb_plot_series){ "greedy draining", gx, gq, 2, "lines", 2, NULL, NULL };
    lab.y = r->thr_best.quiet;
    /* the fluid model has no time unit: the quiet fraction is of time */
    p = (bb_plot){ t_quiet, "threshold (fraction of the buffer size)",
                   r->ctx->q ? "quiet fraction (time units without draining)"
                             : "quiet fraction (time without draining)", 0, 0, 0, se, 2,
                   "lazy-quiet", &lab, nl, 0, 0 };
    f_quiet->id = "fig-lazy-quiet";
    f_quiet->caption = r->ctx->q
        ? "Quiet fraction (time units in which the buffer is not drained) versus the "
          "threshold, the best threshold marked; the paper's Figure 6 view."
        : "Quiet fraction (the time in which the buffer is not drained) versus the "
          "threshold, the best threshold marked; the paper's Figure 6 view.";
    draw(r, f_quiet, &p);
}

/* Cost versus PFS bandwidth (priced): the designs of the walk, their
 * total and its parts, the platform's PFS bandwidth and the cheapest
 * design marked. */
static void
fig_cost(bb_report *r, bb_figure *f)
{
    const bb_ctx *ctx = r->ctx;
    const bb_prices *pr = r->o.prices;
    const size_t n = r->nwalk;
    double *x = calloc(n, sizeof *x), *tot = calloc(n, sizeof *tot), *bb = calloc(n, sizeof *bb),
           *pfs = calloc(n, sizeof *pfs), rdiv, cdiv = 1, cmax = 0, bx[2], by[2];
    char xl[128], yl[160 + BB_MONEY_LEN], cur[BB_MONEY_LEN], bl[160], ct[200 + BB_MONEY_LEN], b1[64],
        m1[BB_MONEY_LEN];
    const char *rname, *cname = "";
    bb_plot_series se[5];
    bb_plot_label lab;
    size_t ns = 0, k = 0;
    bb_plot p;

    if (x == NULL || tot == NULL || bb == NULL || pfs == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    rdiv = r->walk_pfs[n - 1] >= 2e12 ? 1e12 : 1e9;
    rname = rdiv == 1e12 ? "TB/s" : "GB/s";
    for (size_t i = 0; i < n; i++)
        if (r->walk[i].status == BB_OK && isfinite(r->walk[i].cost))
            cmax = fmax(cmax, r->walk[i].cost);
    if (cmax >= 2e9) {
        cdiv = 1e9;
        cname = "billions";
    } else if (cmax >= 2e6) {
        cdiv = 1e6;
        cname = "millions";
    } else if (cmax >= 2e3) {
        cdiv = 1e3;
        cname = "thousands";
    }
    /* the currency symbol without its spaces, for the axis label */
    snprintf(cur, sizeof cur, "%s", pr->currency ? pr->currency : "");
    for (size_t i = 0; cur[i]; i++)
        if (cur[i] != ' ')
            cur[k++] = cur[i];
    cur[k] = '\0';
    if (cname[0] && cur[0])
        snprintf(yl, sizeof yl, "cost (%s of %s)", cname, cur);
    else if (cname[0])
        snprintf(yl, sizeof yl, "cost (%s)", cname);
    else if (cur[0])
        snprintf(yl, sizeof yl, "cost (%s)", cur);
    else
        snprintf(yl, sizeof yl, "cost");
    for (size_t i = 0; i < n; i++) {
        const bba_design *d = &r->walk[i];
        int ok = d->status == BB_OK && isfinite(d->cost);
        double cp = pr->pfs_gbs * d->pfs_bw_Bps / 1e9;

        x[i] = r->walk_pfs[i] / rdiv;
        tot[i] = ok ? d->cost / cdiv : NAN;
        pfs[i] = ok ? cp / cdiv : NAN;
        bb[i] = ok ? (d->cost - cp) / cdiv : NAN;
    }
    se[ns++] = (bb_plot_series){ "total cost", x, tot, n, "linespoints", 0, NULL, NULL };
    if (pr->has_pfs_gbs) {
        /* the parts, when the total is not the buffer's alone */
        se[ns++] = (bb_plot_series){ "burst buffer (capacity and bandwidth)", x, bb, n, "lines",
                                     2, NULL, NULL };
        se[ns++] = (bb_plot_series){ "PFS bandwidth", x, pfs, n, "lines", 3, NULL, NULL };
    }
    bx[0] = bx[1] = ctx->pf.pfs_bw_Bps / rdiv;
    by[0] = 0;
    by[1] = cmax > 0 ? cmax / cdiv : 1;
    bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->pf.pfs_bw_Bps);
    snprintf(bl, sizeof bl, "the platform's PFS bandwidth, %s", b1);
    se[ns++] = (bb_plot_series){ bl, bx, by, 2, "lines", 4, NULL, NULL };
    if (r->walk_best >= 0) {
        const bba_design *b = &r->walk[r->walk_best];

        bb_ctx_fmt_rate(ctx, b1, sizeof b1, b->pfs_bw_Bps);
        if (cname[0])
            snprintf(m1, sizeof m1, "%s%.4g %s", pr->currency ? pr->currency : "",
                     b->cost / cdiv, cname[0] == 'b' ? "billion" : cname[0] == 'm' ? "million"
                                                                       : "thousand");
        else
            bb_fmt_money(m1, sizeof m1, pr, b->cost);
        snprintf(ct, sizeof ct, "cheapest: %s at %s", m1, b1);
        /* below the least cost the plot is free, unless it is near the
         * bottom */
        lab = (bb_plot_label){ b->pfs_bw_Bps / rdiv, b->cost / cdiv, ct,
                               b->cost > 0.2 * cmax, 0 };
    }
    snprintf(xl, sizeof xl, "PFS bandwidth (%s)", rname);
    /* the whole walk, where no design is too, and the platform's */
    p = (bb_plot){ "Cost of the cheapest burst buffer meeting the target, by PFS bandwidth", xl,
                   yl, 0, 0, 0, se, ns, "cost", &lab, r->walk_best >= 0,
                   fmin(x[0], bx[0]), fmax(x[n - 1], bx[0]) };
    f->id = "fig-cost";
    f->caption = "At each PFS bandwidth, the cost of the burst buffer bbsize design chooses "
                 "there (capacity and bandwidth meeting the target) and of the PFS bandwidth; "
                 "the cheapest design marked.  No point where no burst buffer meets the target.";
    draw(r, f, &p);
    free(x);
    free(tot);
    free(bb);
    free(pfs);
}

void
bb_report_figures(bb_report *r)
{
    fig_idle_vs_size(r, &r->fig[0]);
    fig_load(r, &r->fig[1]);
    fig_lazy(r, &r->fig[2], &r->fig[3]);
    r->nfig = 4;
    for (size_t i = 0; r->o.priced && i < r->nwalk; i++)
        if (r->walk[i].status == BB_OK && isfinite(r->walk[i].cost)) {
            /* a plot only with a design to show */
            fig_cost(r, &r->fig[r->nfig++]);
            break;
        }
}
