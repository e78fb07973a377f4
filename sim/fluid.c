/* fluid.c: the fluid burst buffer driven by random ON/OFF sources on the
 * event engine (fluid.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One event kind: TOGGLE flips source `entity` (an index into the sources
 * with phases).  Its handler first moves the content to the event's time
 * at the old rate (fluidpath.h), then flips the source, recomputes the
 * rate, draws the source's next period and schedules its next flip. */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "bb_error.h"
#include "engine.h"
#include "fluid.h"
#include "rng.h"

typedef struct {
    const bbs_fluid_config *c;
    bbs_engine *e;
    int k_toggle;
    size_t nv;               /* sources with phases */
    size_t *app;             /* their application indices */
    gsl_rng **rng;           /* their streams */
    unsigned char *on;
    size_t *cls;             /* their rate class */
    size_t ncls;
    double *cls_rate;        /* distinct rates, increasing */
    long *m;                 /* sources ON per class */
    double r_const;          /* the p = 1 sources, summed in order */
    bbs_fluid_path path;
    bbs_fluid_tally warm, meas;
    int measuring;
    uint64_t toggles;        /* phase changes so far */
    uint64_t toggles_warm;   /* ... when the warm-up ended */
} fsim;

static int
has_phases(const bbs_fluid_config *c, size_t i)
{
    return c->p[i] > 0 && c->p[i] < 1 && c->rate_Bps[i] > 0;
}

int
bbs_fluid_check(const bbs_fluid_config *c, char *err)
{
    int rc;

    for (size_t i = 0; i < c->n; i++) {
        if (!(c->rate_Bps[i] >= 0) || !isfinite(c->rate_Bps[i]))
            return bb_seterr(err, BB_EINVAL, "application %zu: rate %g B/s is not finite "
                             "and >= 0", i + 1, c->rate_Bps[i]);
        if (!(c->p[i] >= 0 && c->p[i] <= 1))
            return bb_seterr(err, BB_EINVAL, "application %zu: p = %g is not in [0, 1]",
                             i + 1, c->p[i]);
        if (!has_phases(c, i))
            continue;
        if (!(c->on_s[i] > 0) || !isfinite(c->on_s[i]))
            return bb_seterr(err, BB_EINVAL, "application %zu: mean ON period %g s is not "
                             "positive and finite", i + 1, c->on_s[i]);
        if (!isfinite(c->on_s[i] * (1 - c->p[i]) / c->p[i]))
            return bb_seterr(err, BB_EINVAL, "application %zu: mean OFF period L (1 - p) / p "
                             "= %g s (L = %g s, p = %g) is not finite", i + 1,
                             c->on_s[i] * (1 - c->p[i]) / c->p[i], c->on_s[i], c->p[i]);
    }
    if ((rc = bbs_fluid_platform_check(&c->pf, err)) != BB_OK)
        return rc;
    if (!(c->horizon_s > 0) || !isfinite(c->horizon_s))
        return bb_seterr(err, BB_EINVAL, "horizon %g s is not positive and finite", c->horizon_s);
    if (!(c->warmup_s >= 0) || !isfinite(c->warmup_s))
        return bb_seterr(err, BB_EINVAL, "warm-up %g s is negative or not finite", c->warmup_s);
    return BB_OK;
}

double
bbs_fluid_event_rate(const bbs_fluid_config *c)
{
    double ev = 0;

    for (size_t i = 0; i < c->n; i++)
        if (has_phases(c, i))
            ev += 2 * c->p[i] / c->on_s[i];
    return ev;
}

double
bbs_fluid_mean_rate(const bbs_fluid_config *c)
{
    double E = 0;

    for (size_t i = 0; i < c->n; i++)
        E += c->p[i] * c->rate_Bps[i];
    return E;
}

double
bbs_fluid_default_warmup(const bbs_fluid_config *c, double horizon_s)
{
    const bbs_fluid_platform *f = &c->pf;
    double tau = 0, E = bbs_fluid_mean_rate(c), B = f->pfs_bw_Bps;

    if (E > B)
        tau = f->size_bytes / (E - B);
    else if (f->lazy && E < B)
        tau = f->threshold_bytes / (f->eps * (B - E));
    return fmax(horizon_s / 10, fmin(tau, horizon_s));
}

void
bbs_fluid_default_times(const bbs_fluid_config *c, double *horizon_s, double *warmup_s)
{
    double cycle = 0, H, W, ev = bbs_fluid_event_rate(c);

    for (size_t i = 0; i < c->n; i++)
        if (has_phases(c, i) && c->on_s[i] / c->p[i] > cycle)
            cycle = c->on_s[i] / c->p[i];
    if (!(cycle > 0))
        cycle = 1;
    H = BBS_FLUID_CYCLES * cycle;
    W = bbs_fluid_default_warmup(c, H);
    if (ev * (H + W) > BBS_FLUID_DEFAULT_EVENTS) {
        double k = BBS_FLUID_DEFAULT_EVENTS / (ev * (H + W));

        H *= k;
        W *= k;
    }
    *horizon_s = H;
    *warmup_s = W;
}

void
bbs_fluid_estimate(const bbs_fluid_config *c, double *events, double *bytes)
{
    double nv = 0;

    for (size_t i = 0; i < c->n; i++)
        nv += has_phases(c, i);
    *events = nv + (c->warmup_s + c->horizon_s) * bbs_fluid_event_rate(c);
    /* a xoshiro256 stream (gsl_rng, 32 bytes of state, allocator overhead),
     * one pending event and six words of state per source */
    *bytes = nv * (128.0 + (double)bbs_engine_event_bytes() + 6.0 * sizeof(double));
}

/* ---- one replication ------------------------------------------------------ */

/* An exponential period of mean `mean` from one uniform. */
static double
period(gsl_rng *g, double mean)
{
    return -mean * log1p(-gsl_rng_uniform(g));
}

/* Source k's next period: ON or OFF, whichever it is in now. */
static double
next_period(const fsim *s, size_t k)
{
    size_t i = s->app[k];
    double L = s->c->on_s[i], p = s->c->p[i];

    return period(s->rng[k], s->on[k] ? L : L * (1 - p) / p);
}

static double
total_rate(const fsim *s)
{
    double r = 0;

    for (size_t c = 0; c < s->ncls; c++)
        r += (double)s->m[c] * s->cls_rate[c];
    return r + s->r_const;
}

/* Move the content to t, into the warm-up tally before the warm-up ends
 * and into the measured one after. */
static void
advance(fsim *s, double t)
{
    if (!s->measuring) {
        double w = s->c->warmup_s;

        if (t <= w) {
            bbs_fluid_path_advance(&s->path, t, &s->warm);
            return;
        }
        bbs_fluid_path_advance(&s->path, w, &s->warm);
        s->measuring = 1;
        s->toggles_warm = s->toggles;
    }
    bbs_fluid_path_advance(&s->path, t, &s->meas);
}

static int
on_toggle(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    fsim *s = ctx;
    size_t k = (size_t)ev->entity;

    advance(s, ev->time_s);
    s->toggles++;
    s->on[k] = !s->on[k];
    s->m[s->cls[k]] += s->on[k] ? 1 : -1;
    bbs_fluid_path_set_rate(&s->path, total_rate(s));
    return bbs_engine_schedule(e, ev->time_s + next_period(s, k), s->k_toggle, 0, k, 0,
                               NULL, NULL);
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The distinct rates of the sources with phases, and each one's class. */
static void
make_classes(fsim *s)
{
    size_t nv = s->nv;

    for (size_t k = 0; k < nv; k++)
        s->cls_rate[k] = s->c->rate_Bps[s->app[k]];
    qsort(s->cls_rate, nv, sizeof *s->cls_rate, cmp_double);
    s->ncls = 0;
    for (size_t k = 0; k < nv; k++)
        if (s->ncls == 0 || s->cls_rate[k] != s->cls_rate[s->ncls - 1])
            s->cls_rate[s->ncls++] = s->cls_rate[k];
    for (size_t k = 0; k < nv; k++) {
        double b = s->c->rate_Bps[s->app[k]];
        size_t lo = 0, hi = s->ncls;

        while (hi - lo > 1) {   /* the class of b: cls_rate[lo] == b */
            size_t mid = (lo + hi) / 2;

            if (s->cls_rate[mid] <= b)
                lo = mid;
            else
                hi = mid;
        }
        assert(s->cls_rate[lo] == b);
        s->cls[k] = lo;
    }
}

static void
fsim_free(fsim *s)
{
    if (s->rng)
        for (size_t k = 0; k < s->nv; k++)
            gsl_rng_free(s->rng[k]);
    free(s->rng);
    free(s->app);
    free(s->on);
    free(s->cls);
    free(s->cls_rate);
    free(s->m);
    bbs_engine_free(s->e);
}

/* Fill *r from the tallies at the end of the run. */
static int
finish(const fsim *s, bbs_fluid_result *r, char *err)
{
    const bbs_fluid_tally *w = &s->warm, *m = &s->meas;
    double T = m->time_s, scale, e1, e2;

    r->idle = m->stall_s / T;
    r->quiet = m->quiet_s / T;
    r->p_empty = m->empty_s / T;
    r->p_full = m->full_s / T;
    r->mean_occupancy_bytes = m->content_Bs / T;
    r->bb_in_Bps = m->into_bb_bytes / T;
    r->bb_out_Bps = m->drained_bytes / T;
    r->written_bytes = w->written_bytes + m->written_bytes;
    r->to_pfs_bytes = w->to_pfs_bytes + m->to_pfs_bytes;
    r->into_bb_bytes = w->into_bb_bytes + m->into_bb_bytes;
    r->drained_bytes = w->drained_bytes + m->drained_bytes;
    r->left_bytes = s->path.x_bytes;
    r->events = s->toggles;
    r->measured_events = s->toggles - s->toggles_warm;
    r->pieces = s->path.pieces;
    /* Conservation, two ways: what the applications wrote went to the PFS
     * or is still in the buffer; what entered the buffer was drained or is
     * still there. */
    e1 = fabs(r->written_bytes - r->to_pfs_bytes - r->left_bytes);
    e2 = fabs(r->into_bb_bytes - r->drained_bytes - r->left_bytes);
    r->conservation_error_bytes = fmax(e1, e2);
    scale = fmax(r->written_bytes, r->into_bb_bytes);
    if (r->conservation_error_bytes > 1e-9 * scale)
        return bb_seterr(err, BB_EDATA, "conservation violated: written %.17g bytes, to PFS "
                         "%.17g, into the buffer %.17g, drained %.17g, left %.17g",
                         r->written_bytes, r->to_pfs_bytes, r->into_bb_bytes,
                         r->drained_bytes, r->left_bytes);
    return BB_OK;
}

int
bbs_fluid_run(const bbs_fluid_config *c, uint64_t unit, bbs_fluid_result *r, char *err)
{
    fsim s;
    size_t nv = 0;
    int rc;

    memset(r, 0, sizeof *r);
    memset(&s, 0, sizeof s);
    if ((rc = bbs_fluid_check(c, err)) != BB_OK)
        return rc;
    s.c = c;
    for (size_t i = 0; i < c->n; i++) {
        nv += has_phases(c, i);
        if (c->p[i] >= 1)
            s.r_const += c->rate_Bps[i];
    }
    s.nv = nv;
    if ((rc = bbs_engine_new(&s.e, nv + 1, err)) != BB_OK)
        return rc;
    s.app = calloc(nv + 1, sizeof *s.app);
    s.rng = calloc(nv + 1, sizeof *s.rng);
    s.on = calloc(nv + 1, sizeof *s.on);
    s.cls = calloc(nv + 1, sizeof *s.cls);
    s.cls_rate = calloc(nv + 1, sizeof *s.cls_rate);
    s.m = calloc(nv + 1, sizeof *s.m);
    if (!s.app || !s.rng || !s.on || !s.cls || !s.cls_rate || !s.m) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu sources", nv);
        goto out;
    }
    for (size_t i = 0, k = 0; i < c->n; i++)
        if (has_phases(c, i))
            s.app[k++] = i;
    make_classes(&s);
    if ((rc = bbs_engine_register(s.e, on_toggle, &s, &s.k_toggle)) != BB_OK)
        goto out;
    /* Stationary phases at time 0: ON with probability p, then the rest of
     * the current period, which is a whole period (memoryless). */
    for (size_t k = 0; k < nv; k++) {
        s.rng[k] = bbs_rng_stream_new(NULL, c->seed, unit, BBS_ENTITY(BBS_ECLASS_APP, s.app[k]));
        if (s.rng[k] == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for random streams");
            goto out;
        }
        s.on[k] = gsl_rng_uniform(s.rng[k]) < c->p[s.app[k]];
        s.m[s.cls[k]] += s.on[k];
        rc = bbs_engine_schedule(s.e, next_period(&s, k), s.k_toggle, 0, k, 0, NULL, NULL);
        if (rc != BB_OK)
            goto out;
    }
    bbs_fluid_path_init(&s.path, &c->pf, 0, 0, total_rate(&s));
    if ((rc = bbs_engine_run(s.e, c->warmup_s + c->horizon_s)) != BB_OK)
        goto out;
    advance(&s, c->warmup_s + c->horizon_s);
    rc = finish(&s, r, err);
out:
    fsim_free(&s);
    return rc;
}

int
bbs_fluid_run_unit(size_t unit, void *result, const void *ctx, char *err)
{
    return bbs_fluid_run(ctx, unit, result, err);
}

int
bbs_fluid_summarize(const bbs_fluid_result *r, size_t n, double level, bbs_fluid_summary *s,
                    char *err)
{
    bbs_welford w[6];
    double trials = 0;
    int rc;

    memset(s, 0, sizeof *s);
    if (n == 0)
        return bb_seterr(err, BB_EINVAL, "no replication to summarise");
    for (int j = 0; j < 6; j++)
        bbs_welford_init(&w[j]);
    for (size_t k = 0; k < n; k++) {
        bbs_welford_add(&w[0], r[k].idle);
        bbs_welford_add(&w[1], r[k].quiet);
        bbs_welford_add(&w[2], r[k].p_empty);
        bbs_welford_add(&w[3], r[k].p_full);
        bbs_welford_add(&w[4], r[k].mean_occupancy_bytes);
        bbs_welford_add(&w[5], r[k].bb_in_Bps);
        s->bb_out_Bps += r[k].bb_out_Bps / (double)n;
        s->written += r[k].written_bytes;
        s->to_pfs += r[k].to_pfs_bytes;
        s->into_bb += r[k].into_bb_bytes;
        s->drained += r[k].drained_bytes;
        s->left += r[k].left_bytes;
        s->max_conservation_error = fmax(s->max_conservation_error,
                                         r[k].conservation_error_bytes);
        s->events += r[k].events;
        trials += (double)r[k].measured_events / (double)n;
    }
    s->level = level;
    s->replications = n;
    /* A fraction no replication moved from 0 (or 1): each measured phase
     * change is a chance for it to move (at least one per replication). */
    trials = fmax(trials, 1);
    if ((rc = bbs_ci_fraction(&w[0], trials, level, &s->idle, err)) != BB_OK)
        return rc;
    bbs_ci_fraction(&w[1], trials, level, &s->quiet, NULL);
    bbs_ci_fraction(&w[2], trials, level, &s->p_empty, NULL);
    bbs_ci_fraction(&w[3], trials, level, &s->p_full, NULL);
    bbs_ci_positive(&w[4], level, &s->occupancy_bytes, NULL);
    bbs_ci_positive(&w[5], level, &s->bb_in_Bps, NULL);
    return BB_OK;
}
