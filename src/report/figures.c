/* figures.c: the four plots of `bbsize report` (report.h), drawn by
 * gnuplot before anything is written: one function per figure.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "report/report.h"

static void
draw(bb_report *r, bb_figure *f, const bb_plot *p)
{
    char err[BB_ERRLEN];
    int rc = bb_plot_svg(r->plots, p, &f->svg, err, sizeof err);

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
    bb_plot_series *se = calloc(nsc + 1, sizeof *se);
    double *xs = calloc(nsz, sizeof *xs), *ys = calloc(nsc * nsz, sizeof *ys);
    double tx[2], ty[2], sdiv;
    char (*names)[96] = calloc(nsc, sizeof *names);
    char xl[128], ttl[256];
    const char *sunit;
    bb_plot p;

    if (se == NULL || xs == NULL || ys == NULL || names == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    size_unit(ctx, r->S_top, &sdiv, &sunit);
    for (size_t z = 0; z < nsz; z++)
        xs[z] = r->sizes[z] / sdiv;
    for (size_t i = 0; i < nsc; i++) {
        for (size_t z = 0; z < nsz; z++)
            ys[i * nsz + z] = r->out[i * nsz + z].a.idle;
        snprintf(names[i], sizeof names[i], "load x%g (E/B = %.3g)", r->o.scales[i],
                 r->out[i * nsz].a.load_ratio);
        se[i] = (bb_plot_series){ names[i], xs, ys + i * nsz, nsz, "linespoints", 0 };
    }
    tx[0] = xs[0];
    tx[1] = xs[nsz - 1];
    ty[0] = ty[1] = r->o.target;
    snprintf(ttl, sizeof ttl, "target idle fraction %g", r->o.target);
    se[nsc] = (bb_plot_series){ ttl, tx, ty, 2, "lines", 2 };
    snprintf(xl, sizeof xl, "burst-buffer size (%s)", sunit);
    p = (bb_plot){ "Idle fraction versus burst-buffer size (greedy draining)", xl,
                   "idle fraction (log scale)", 1, 0, 0, se, nsc + 1, "idle-vs-size" };
    f->id = "fig-idle-vs-size";
    f->caption = "Idle fraction versus buffer size, for the workload and for load growth "
                 "(every bandwidth scaled); the paper's Figure 3 view.";
    draw(r, f, &p);
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
    char xl[128], bl[128], b1[64];
    bb_plot_series se[4];
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
    se[0] = (bb_plot_series){ "exact CDF (Algorithm 1)", x, cdf, n, "steps", 0 };
    se[1] = (bb_plot_series){ "Chernoff lower bound (Theorem 1)", x, lo, n, "lines", 2 };
    se[2] = (bb_plot_series){ "Chernoff upper bound (Theorem 1)", x, hi, n, "lines", 3 };
    se[3] = (bb_plot_series){ bl, bx, by, 2, "lines", 4 };
    snprintf(xl, sizeof xl, "instantaneous I/O load (%s)",
             ctx->plain ? "data units per time unit" : "GB/s");
    p = (bb_plot){ "Distribution of the instantaneous load: Pr(load <= x)", xl,
                   "cumulative probability", 0, 0, 1.05, se, 4, "load-distribution" };
    f->id = "fig-load-distribution";
    f->caption = "Cumulative distribution of the instantaneous I/O load with the Chernoff "
                 "bounds of Theorem 1; the paper's Figure 2 view.";
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
    char ttl[128], t_idle[160], t_quiet[160], szs[64];
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
    bb_ctx_fmt_size(r->ctx, szs, sizeof szs, r->S_lazy);
    snprintf(t_idle, sizeof t_idle, "Idle fraction versus lazy threshold, %s buffer", szs);
    snprintf(t_quiet, sizeof t_quiet, "Quiet fraction versus lazy threshold, %s buffer", szs);
    se[0] = (bb_plot_series){ "lazy draining", tx, idle, NTH, "linespoints", 0 };
    se[1] = (bb_plot_series){ "greedy draining", gx, gi, 2, "lines", 2 };
    se[2] = (bb_plot_series){ ttl, gx, ty, 2, "lines", 3 };
    p = (bb_plot){ t_idle, "threshold (fraction of the buffer size)",
                   "idle fraction (log scale)", 1, 0, 0, se, 3, "lazy-idle" };
    f_idle->id = "fig-lazy-idle";
    f_idle->caption = "Idle fraction of lazy draining versus its threshold at the recommended "
                      "size; the paper's Figure 5 view.";
    draw(r, f_idle, &p);
    se[0] = (bb_plot_series){ "lazy draining", tx, quiet, NTH, "linespoints", 0 };
    se[1] = (bb_plot_series){ "greedy draining", gx, gq, 2, "lines", 2 };
    p = (bb_plot){ t_quiet, "threshold (fraction of the buffer size)",
                   "quiet fraction (time units without draining)", 0, 0, 0, se, 2,
                   "lazy-quiet" };
    f_quiet->id = "fig-lazy-quiet";
    f_quiet->caption = "Quiet fraction (time units in which the buffer is not drained) versus "
                       "the threshold; the paper's Figure 6 view.";
    draw(r, f_quiet, &p);
}

void
bb_report_figures(bb_report *r)
{
    fig_idle_vs_size(r, &r->fig[0]);
    fig_load(r, &r->fig[1]);
    fig_lazy(r, &r->fig[2], &r->fig[3]);
}
