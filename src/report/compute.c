/* compute.c: what `bbsize report` computes before it writes anything
 * (report.h): the recommendation, the curves, the best lazy threshold and
 * its release (the validation is validate.c's).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "grid.h"
#include "sweeprun.h"

/* The load law's model: the Bernoulli chain of the answer's platform, or
 * for the fluid model an auxiliary Bernoulli front at the paper's
 * resolution. */
static void
load_model(bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    char err[BB_ERRLEN];
    int rc;

    r->lm = ctx->model;
    if (r->lm == NULL) {
        bba_question q = ctx->qn;

        q.model = BBA_MODEL_BERNOULLI;
        q.pf.resolution = BBA_RES_START;
        q.progress = NULL;
        rc = bba_front_new(&q, &r->aux, err);
        if (rc != BB_OK)
            bb_ctx_die_answer(ctx, rc, err);
        r->lm = bba_front_chain(r->aux);
        r->lq = bba_front_quantized(r->aux)->quantum_bytes;
    } else {
        r->lq = ctx->q->quantum_bytes;
    }
    r->qrate = r->lq / ctx->pf.time_unit_s;
}

/* The answer's platform: the given one, or with the buffer bandwidth the
 * pair buys (the pair's resolution, so that its chain is the pair's). */
static void
answer_platform(bb_report *r)
{
    const bb_ctx *g = r->given;
    bb_ctx *a = &r->actx;
    char err[BB_ERRLEN];
    int rc;

    r->ctx = g;
    r->rec = r->unl;
    r->rec_rc = r->unl_rc;
    if (r->pair.status == BB_OK && r->pair.endurance_binds)
        r->rec = r->pair.a;   /* the drives' rating sets the size (--dwpd) */
    if (r->pair.status != BB_OK || g->pf.bb_bw_Bps > 0 || !(r->pair.bb_bw_Bps > 0))
        return;
    *a = *g;
    a->pf.bb_bw_Bps = a->qn.pf.bb_bw_Bps = r->pair.bb_bw_Bps;
    a->pf.resolution = a->qn.pf.resolution = r->pair.a.resolution;
    a->qn.progress = NULL;
    a->front = NULL;
    rc = bba_front_new(&a->qn, &a->front, err);
    if (rc != BB_OK)
        bb_ctx_die_answer(g, rc, err);
    a->q = bba_front_quantized(a->front);
    a->model = bba_front_chain(a->front);
    r->bought = 1;
    r->ctx = a;
    /* the headline's answer, as bbsize design gives it */
    r->rec = r->pair.a;
    r->rec_rc = BB_OK;
}

/* 1. The recommendation: exactly what `bbsize size` computes (the same
 * front door, settled on the same question), then the pair to buy and
 * the platform of the answer. */
static void
recommend(bb_report *r)
{
    const bb_ctx *ctx = r->given;
    bb_drain d = r->o.drain;
    char err[BB_ERRLEN];
    int rc;

    rc = bba_front_size(ctx->front, r->o.target, &d, &r->unl, err);
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_ctx_die_answer(ctx, rc, err);
    r->unl_rc = rc;
    r->ctx = ctx;
    bb_report_pair(r);
    answer_platform(r);
    r->ratio = r->rec.load_ratio;
    r->feasible = r->rec_rc == BB_OK;
    r->S_star = r->feasible ? r->rec.S_bytes : -1;
    load_model(r);
}

/* With E >= B no size suffices and idle(S) falls only to the model's limit
 * (1 - B/E for one application), the gap
 * shrinking geometrically (like the stationary mass near the empty buffer,
 * e^{theta* S} with theta* < 0 the Cramer root): plotting up to the
 * largest load M (32,933 quanta on the default workload at 30 GB/s, flat
 * after the first few hundred) cost about a minute of solves for nothing.
 * The curves end instead at the first size on a doubling grid from 10
 * where the gap is below 1e-3 of the gap at size 0 (at most M): about
 * log2(M / 10) greedy solves, each at most that size. */
static double
infeasible_top(const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    bb_drain greedy = { 0, 0, 0, r->o.eps };
    bba_answer e;
    double lim = r->rec.idle_limit, gap0, q = r->lq;
    double top = (double)r->lm->M * q;
    char err[BB_ERRLEN];

    if (bba_front_idle(ctx->front, 0, &greedy, &e, err) != BB_OK)
        return top;
    gap0 = e.idle - lim;
    for (double S = 10 * q; S < top; S *= 2) {
        if (bba_front_idle(ctx->front, S, &greedy, &e, err) != BB_OK)
            return top;
        if (!(e.idle - lim > 1e-3 * gap0))
            return S;
    }
    return top;
}

/* The sweep of r's points whose scenario has a model: those are costed
 * and run in one grid, the others get BB_EINFEASIBLE and their
 * scenario's message; the first error, as bb_sweep_run's. */
static int
sweep_built(bb_report *r, char *err)
{
    bb_meter m;
    size_t n = 0, *at = malloc(r->npts * sizeof *at);
    bba_sweep_point *pts = malloc(r->npts * sizeof *pts);
    bba_sweep_out *out = calloc(r->npts, sizeof *out);
    int rc = BB_OK;

    if (at == NULL || pts == NULL || out == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < r->npts; i++)
        if (r->pts[i].front != NULL) {
            at[n] = i;
            pts[n++] = r->pts[i];
        } else {
            r->out[i].status = BB_EINFEASIBLE;
            snprintf(r->out[i].err, sizeof r->out[i].err, "load scale %g: %s",
                     r->o.scales[i / (size_t)r->nsz], r->sc_msg[i / (size_t)r->nsz]);
        }
    if (n > 0) {
        bb_grid_cost(r->ctx->opt, pts, n);
        bb_meter_start(&m, &r->ctx->opt->out, "report", "points", n);
        rc = bb_sweep_run(pts, n, r->o.threads, bb_meter_progress, &m, out, err);
        bb_meter_end(&m);
    }
    for (size_t k = 0; k < n; k++)
        r->out[at[k]] = out[k];
    for (size_t i = 0; rc == BB_OK && i < r->npts; i++)
        if (r->out[i].status != BB_OK)
            rc = bb_seterr(err, r->out[i].status, "point %zu: %s", i + 1, r->out[i].err);
    free(at);
    free(pts);
    free(out);
    return rc;
}

/* 2. Idle versus size for each load scale, sizes 0..S_top; 4. lazy
 * thresholds 0, 0.05, ..., 1 at the recommended size: one sweep. */
static void
curves(bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const size_t nth = BB_REPORT_NTH;
    char err[BB_ERRLEN];
    int rc;

    r->S_top = r->feasible ? 2 * r->S_star : infeasible_top(r);
    if (r->feasible && r->pair.status == BB_OK && r->pair.endurance_binds
        && r->pair.stall_bytes > 0)
        /* endurance sets the size far above where idle falls: the curves
         * show the idle target's range (the answer is marked when in it) */
        r->S_top = fmin(r->S_top, 2 * r->pair.stall_bytes);
    if (r->S_top < 10 * r->lq)
        r->S_top = 10 * r->lq;
    if (r->S_top > bba_front_s_max_bytes(ctx->front))
        r->S_top = bba_front_s_max_bytes(ctx->front);
    r->sizes = calloc((size_t)r->o.points, sizeof *r->sizes);
    if (r->sizes == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    r->nsz = 0;
    for (int i = 0; i < r->o.points; i++) {
        double s = (double)i * r->S_top / (double)(r->o.points - 1);

        /* whole quanta, so that every point is a size the chain has */
        if (ctx->q)
            s = (double)lround(s / ctx->q->quantum_bytes) * ctx->q->quantum_bytes;

        if (r->nsz == 0 || s != r->sizes[r->nsz - 1])
            r->sizes[r->nsz++] = s;
    }
    r->nsc = r->o.nscales;
    r->npts = r->nsc * (size_t)r->nsz + nth;
    r->sc = calloc(r->nsc, sizeof *r->sc);
    r->sc_msg = calloc(r->nsc, sizeof *r->sc_msg);
    r->pts = calloc(r->npts, sizeof *r->pts);
    r->out = calloc(r->npts, sizeof *r->out);
    if (r->sc == NULL || r->sc_msg == NULL || r->pts == NULL || r->out == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < r->nsc; i++) {
        /* a load growth the model refuses as infeasible (the chain's
         * correction at E >= B): its curve is left out and named, as a
         * point that cannot be solved is */
        (void)bb_scenario_try(&r->sc[i], ctx, r->o.scales[i], ctx->pf.pfs_bw_Bps, r->sc_msg[i]);
        for (long z = 0; z < r->nsz; z++) {
            bba_sweep_point *p = &r->pts[i * (size_t)r->nsz + (size_t)z];

            p->front = r->sc[i].front;
            p->S_bytes = r->sizes[z];
            p->drain = r->o.drain;
        }
    }
    r->S_lazy = r->feasible ? r->S_star : r->S_top;
    for (size_t t = 0; t < nth; t++) {
        bba_sweep_point *p = &r->pts[r->nsc * (size_t)r->nsz + t];

        p->front = ctx->front;
        p->S_bytes = r->S_lazy;
        p->drain.kind = BB_DRAIN_LAZY;
        p->drain.eps = r->o.eps;
        p->drain.threshold = (double)t / (double)(nth - 1);
    }
    /* A point the solver cannot do (a lazy chain at an extreme threshold,
     * say) is left out of the plots and named, not fatal to the report. */
    rc = sweep_built(r, err);
    if (rc != BB_OK && rc != BB_ENOMEM) {
        for (size_t i = 0; i < r->npts; i++)
            if (r->out[i].status != BB_OK) {
                r->out[i].a.idle = r->out[i].a.quiet = NAN;
                r->out[i].a.drain.threshold = r->pts[i].drain.threshold * r->pts[i].S_bytes;
                r->nfailed++;
            }
        snprintf(r->failed_msg, sizeof r->failed_msg, "%s", err);
        bb_warn("%zu of %zu points could not be solved and are left out (first: %s)",
                r->nfailed, r->npts, err);
    } else if (rc != BB_OK) {
        bb_die_lib(rc, err);
    }
}

void
bb_report_compute(bb_report *r, const bb_ctx *ctx, const bb_report_opts *o,
                  bb_plot_session *plots)
{
    char err[BB_ERRLEN];
    int rc;

    memset(r, 0, sizeof *r);
    r->o = *o;
    r->given = r->ctx = ctx;
    r->plots = plots;
    recommend(r);
    curves(r);
    if (!r->feasible) {
        /* No size meets the target: every policy idles at least the
         * limit (1 - B/E, or what the buffer's bandwidth leaves) > target,
         * so no threshold can; the search would only repeat the sweep's
         * solves at S_top (40 s on the default workload at 30 GB/s).  The
         * greedy point is the sweep's threshold 0. */
        const bba_sweep_out *g = &r->out[r->nsc * (size_t)r->nsz];

        r->thr_feasible = 0;
        if (g->status == BB_OK)
            r->thr_greedy = g->a;
        else
            snprintf(r->thr_msg, sizeof r->thr_msg, "%s", "greedy draining could not be "
                     "solved at this size");
        return;
    }
    {
        int mono;

        rc = bba_front_threshold(ctx->front, r->S_lazy, o->target, o->eps, 20, &r->thr_best,
                                 &r->thr_greedy, &r->thr_feasible, &mono, err);
    }
    if (rc != BB_OK) {
        snprintf(r->thr_msg, sizeof r->thr_msg, "%s", err);
        bb_warn("best threshold: %s", err);
    }
}

void
bb_report_free(bb_report *r)
{
    for (int i = 0; i < BB_REPORT_NFIG; i++) {
        free(r->fig[i].svg);
        free(r->fig[i].data);
    }
    for (size_t i = 0; i < r->nsc; i++)
        bb_scenario_free(&r->sc[i]);
    free(r->sc);
    free(r->sc_msg);
    free(r->pts);
    free(r->out);
    free(r->sizes);
    bba_front_free(r->aux);
    if (r->bought)
        bba_front_free(r->actx.front);
    bb_validation_free(&r->val);
    bb_report_committee_free(r);
}
