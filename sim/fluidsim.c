/* fluidsim.c: the fluid burst buffer driven by random ON/OFF sources on the
 * event engine (fluidsim.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The writers wait: an ON period is a volume, drawn as L_i seconds of
 * unthrottled writing, and every ON writer advances at the common share c
 * (fluidpath.h), so the ON writers run on one virtual clock V.  An ON
 * source's key is V at its start plus its drawn period, kept in a binary
 * heap ordered by (key, source); an OFF source's end is a real time.
 *
 * Two event kinds: OFF_END (source `entity` turns ON) at the real end of
 * its OFF period, and ON_END, one pending event at the real time V reaches
 * the smallest key at the current rate (bbs_fluid_path_time_at, which
 * accounts for the content's hit of S).  c changes only at phase changes
 * and at that hit, so the time is exact until the next phase change:
 * every handler moves the content to its time at the old rate, flips a
 * source, recomputes the rate and the weight, draws the source's next
 * period and moves ON_END to the new smallest key's time. */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "bb_error.h"
#include "engine.h"
#include "fluidsim.h"
#include "rng.h"

/* Sources grouped by their rate: the
 * distinct values in increasing order and how many ON sources hold each,
 * so a sum over the ON sources is always added in the same order and the
 * same phase gives the same sum to the last bit. */
typedef struct {
    size_t n;
    double *val;             /* distinct values, increasing */
    long *m;                 /* ON sources per value */
    size_t *of;              /* each source's class */
} vclass;

typedef struct {
    const bbs_fluid_config *c;
    bbs_engine *e;
    int k_off_end, k_on_end;
    bbs_event_id on_end;     /* the pending ON_END (0: none) */
    size_t nv;               /* sources with phases */
    size_t *app;             /* their application indices */
    gsl_rng **rng;           /* their streams */
    unsigned char *on;
    double *key;             /* an ON source's end in virtual time, s */
    size_t *heap;            /* the ON sources, a min-heap by (key, index) */
    size_t nheap;
    vclass rate;             /* by b_i */
    double r_const;          /* b_i of the p = 1 sources, in order */
    double offered_bytes;    /* the drawn volumes of the ON periods begun */
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
bbs_fluid_fill_time(const bbs_fluid_config *c)
{
    const bbs_fluid_platform *f = &c->pf;
    double E = bbs_fluid_mean_rate(c), B = f->pfs_bw_Bps;

    if (E > B)
        return f->size_bytes / (E - B);
    if (f->drain.kind == BB_DRAIN_LAZY && E < B)
        return f->drain.threshold / (f->drain.eps * (B - E));
    return 0;
}

double
bbs_fluid_default_warmup(const bbs_fluid_config *c, double horizon_s)
{
    return fmax(horizon_s / 10, fmin(bbs_fluid_fill_time(c), horizon_s));
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
     * one pending event and a dozen words of state per source (phase, key,
     * heap slot, two value classes, the scratch of their making) */
    *bytes = nv * (128.0 + (double)bbs_engine_event_bytes() + 12.0 * sizeof(double))
             + (double)bbs_engine_event_bytes();
}

/* ---- one replication ------------------------------------------------------ */

/* An exponential period of mean `mean` from one uniform. */
static double
period(gsl_rng *g, double mean)
{
    return -mean * log1p(-gsl_rng_uniform(g));
}

/* Source k's next period: ON (a volume, in seconds of unthrottled
 * writing) or OFF (seconds), whichever it is in now. */
static double
next_period(const fsim *s, size_t k)
{
    size_t i = s->app[k];
    double L = s->c->on_s[i], p = s->c->p[i];

    return period(s->rng[k], s->on[k] ? L : L * (1 - p) / p);
}

static double
vclass_sum(const vclass *v, double constant)
{
    double r = 0;

    for (size_t c = 0; c < v->n; c++)
        r += (double)v->m[c] * v->val[c];
    return r + constant;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The classes of x[0..nv-1] (v's arrays hold nv + 1 entries). */
static void
vclass_make(vclass *v, const double *x, size_t nv)
{
    memcpy(v->val, x, nv * sizeof *x);
    qsort(v->val, nv, sizeof *v->val, cmp_double);
    v->n = 0;
    for (size_t k = 0; k < nv; k++)
        if (v->n == 0 || v->val[k] != v->val[v->n - 1])
            v->val[v->n++] = v->val[k];
    for (size_t k = 0; k < nv; k++) {
        size_t lo = 0, hi = v->n;

        while (hi - lo > 1) {   /* the class of x[k]: val[lo] == x[k] */
            size_t mid = (lo + hi) / 2;

            if (v->val[mid] <= x[k])
                lo = mid;
            else
                hi = mid;
        }
        assert(v->val[lo] == x[k]);
        v->of[k] = lo;
    }
}

static int
vclass_alloc(vclass *v, size_t nv)
{
    v->val = calloc(nv + 1, sizeof *v->val);
    v->m = calloc(nv + 1, sizeof *v->m);
    v->of = calloc(nv + 1, sizeof *v->of);
    return v->val && v->m && v->of;
}

static void
vclass_free(vclass *v)
{
    free(v->val);
    free(v->m);
    free(v->of);
}

/* ---- the ON sources' heap, by (key, index) ---- */

static int
heap_less(const fsim *s, size_t a, size_t b)
{
    return s->key[a] < s->key[b] || (s->key[a] == s->key[b] && a < b);
}

static void
heap_push(fsim *s, size_t k)
{
    size_t j = s->nheap++;

    while (j > 0 && heap_less(s, k, s->heap[(j - 1) / 2])) {
        s->heap[j] = s->heap[(j - 1) / 2];
        j = (j - 1) / 2;
    }
    s->heap[j] = k;
}

static size_t
heap_pop(fsim *s)
{
    size_t top = s->heap[0], last = s->heap[--s->nheap], j = 0, n = s->nheap;

    for (;;) {
        size_t c = 2 * j + 1;

        if (c >= n)
            break;
        if (c + 1 < n && heap_less(s, s->heap[c + 1], s->heap[c]))
            c++;
        if (!heap_less(s, s->heap[c], last))
            break;
        s->heap[j] = s->heap[c];
        j = c;
    }
    if (n > 0)
        s->heap[j] = last;
    return top;
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

/* Source k has just changed phase (or starts): the rate and the weight,
 * its next period (a key in virtual time when ON, an OFF_END in real time
 * when OFF). */
static int
begin_period(fsim *s, size_t k, double now)
{
    double d = next_period(s, k);

    bbs_fluid_path_set_rate(&s->path, vclass_sum(&s->rate, s->r_const));
    if (!s->on[k])
        return bbs_engine_schedule(s->e, now + d, s->k_off_end, 0, k, 0, NULL, NULL);
    s->key[k] = s->path.v_s + d;
    s->offered_bytes += s->c->rate_Bps[s->app[k]] * d;
    heap_push(s, k);
    return BB_OK;
}

/* ON_END at the real time V reaches the smallest key at the current rate. */
static int
place_on_end(fsim *s)
{
    double t;

    if (s->nheap == 0) {
        if (s->on_end)
            bbs_engine_cancel(s->e, s->on_end);
        s->on_end = 0;
        return BB_OK;
    }
    t = bbs_fluid_path_time_at(&s->path, fmax(s->key[s->heap[0]] - s->path.v_s, 0));
    t = fmax(t, s->path.t_s);
    if (s->on_end)
        return bbs_engine_reschedule(s->e, s->on_end, t);
    return bbs_engine_schedule(s->e, t, s->k_on_end, 0, 0, 0, NULL, &s->on_end);
}

static void
flip(fsim *s, size_t k)
{
    long d = s->on[k] ? -1 : 1;

    s->toggles++;
    s->on[k] = !s->on[k];
    s->rate.m[s->rate.of[k]] += d;
}

static int
on_off_end(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    fsim *s = ctx;
    size_t k = (size_t)ev->entity;
    int rc;

    (void)e;
    advance(s, ev->time_s);
    flip(s, k);
    if ((rc = begin_period(s, k, ev->time_s)) != BB_OK)
        return rc;
    return place_on_end(s);
}

static int
on_on_end(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    fsim *s = ctx;
    size_t k;
    int rc;

    (void)e;
    s->on_end = 0;   /* it has run */
    advance(s, ev->time_s);
    k = heap_pop(s);
    flip(s, k);
    if ((rc = begin_period(s, k, ev->time_s)) != BB_OK)
        return rc;
    return place_on_end(s);
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
    free(s->key);
    free(s->heap);
    vclass_free(&s->rate);
    bbs_engine_free(s->e);
}

/* Fill *r from the tallies at the end of the run. */
static int
finish(const fsim *s, bbs_fluid_result *r, char *err)
{
    const bbs_fluid_tally *w = &s->warm, *m = &s->meas;
    double T = m->time_s, scale, e1, e2, e3;

    r->idle = m->stall_s / T;
    r->throughput_Bps = m->written_bytes / T;
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
    /* The bytes asked for: the drawn volumes of the ON periods begun and
     * the constant sources' share-weighted time; those not yet written are
     * the ON sources' rest, b_i (key - V). */
    r->offered_bytes = s->offered_bytes + s->r_const * s->path.v_s;
    r->held_bytes = 0;
    for (size_t j = 0; j < s->nheap; j++) {
        size_t k = s->heap[j];

        r->held_bytes += s->c->rate_Bps[s->app[k]] * fmax(s->key[k] - s->path.v_s, 0);
    }
    r->events = s->toggles;
    r->measured_events = s->toggles - s->toggles_warm;
    r->pieces = s->path.pieces;
    /* Conservation, three ways: what the applications wrote went to the
     * PFS or is still in the buffer; what entered the buffer was drained
     * or is still there; what they asked for was written or is still held
     * on the compute nodes (no byte is lost). */
    e1 = fabs(r->written_bytes - r->to_pfs_bytes - r->left_bytes);
    e2 = fabs(r->into_bb_bytes - r->drained_bytes - r->left_bytes);
    e3 = fabs(r->offered_bytes - r->written_bytes - r->held_bytes);
    r->conservation_error_bytes = fmax(fmax(e1, e2), e3);
    scale = fmax(fmax(r->written_bytes, r->into_bb_bytes), r->offered_bytes);
    if (r->conservation_error_bytes > 1e-9 * scale)
        return bb_seterr(err, BB_EDATA, "conservation violated: asked %.17g bytes, written "
                         "%.17g, held %.17g, to PFS %.17g, into the buffer %.17g, drained "
                         "%.17g, left %.17g", r->offered_bytes, r->written_bytes,
                         r->held_bytes, r->to_pfs_bytes, r->into_bb_bytes,
                         r->drained_bytes, r->left_bytes);
    return BB_OK;
}

int
bbs_fluid_run(const bbs_fluid_config *c, uint64_t unit, bbs_fluid_result *r, char *err)
{
    fsim s;
    size_t nv = 0;
    double *tmp = NULL;
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
    if ((rc = bbs_engine_new(&s.e, nv + 2, err)) != BB_OK)
        return rc;
    s.app = calloc(nv + 1, sizeof *s.app);
    s.rng = calloc(nv + 1, sizeof *s.rng);
    s.on = calloc(nv + 1, sizeof *s.on);
    s.key = calloc(nv + 1, sizeof *s.key);
    s.heap = calloc(nv + 1, sizeof *s.heap);
    tmp = calloc(nv + 1, sizeof *tmp);
    if (!s.app || !s.rng || !s.on || !s.key || !s.heap || !tmp
        || !vclass_alloc(&s.rate, nv)) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu sources", nv);
        goto out;
    }
    for (size_t i = 0, k = 0; i < c->n; i++)
        if (has_phases(c, i))
            s.app[k++] = i;
    for (size_t k = 0; k < nv; k++)
        tmp[k] = c->rate_Bps[s.app[k]];
    vclass_make(&s.rate, tmp, nv);
    if ((rc = bbs_engine_register(s.e, on_off_end, &s, &s.k_off_end)) != BB_OK
        || (rc = bbs_engine_register(s.e, on_on_end, &s, &s.k_on_end)) != BB_OK)
        goto out;
    /* Stationary phases at time 0: ON with probability p (the unthrottled
     * law; the empty buffer starts unthrottled, and the warm-up forgets
     * it), then the rest of the current period, which is a whole period
     * (memoryless). */
    for (size_t k = 0; k < nv; k++) {
        s.rng[k] = bbs_rng_stream_new(NULL, c->seed, unit, BBS_ENTITY(BBS_ECLASS_APP, s.app[k]));
        if (s.rng[k] == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for random streams");
            goto out;
        }
        s.on[k] = gsl_rng_uniform(s.rng[k]) < c->p[s.app[k]];
        s.rate.m[s.rate.of[k]] += s.on[k];
    }
    bbs_fluid_path_init(&s.path, &c->pf, 0, 0, vclass_sum(&s.rate, s.r_const));
    for (size_t k = 0; k < nv; k++)
        if ((rc = begin_period(&s, k, 0)) != BB_OK)
            goto out;
    if ((rc = place_on_end(&s)) != BB_OK)
        goto out;
    if ((rc = bbs_engine_run(s.e, c->warmup_s + c->horizon_s)) != BB_OK)
        goto out;
    advance(&s, c->warmup_s + c->horizon_s);
    rc = finish(&s, r, err);
out:
    free(tmp);
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
    bbs_welford w[7];
    double trials = 0;
    int rc;

    memset(s, 0, sizeof *s);
    if (n == 0)
        return bb_seterr(err, BB_EINVAL, "no replication to summarise");
    for (int j = 0; j < 7; j++)
        bbs_welford_init(&w[j]);
    for (size_t k = 0; k < n; k++) {
        bbs_welford_add(&w[0], r[k].idle);
        bbs_welford_add(&w[1], r[k].quiet);
        bbs_welford_add(&w[2], r[k].p_empty);
        bbs_welford_add(&w[3], r[k].p_full);
        bbs_welford_add(&w[4], r[k].mean_occupancy_bytes);
        bbs_welford_add(&w[5], r[k].bb_in_Bps);
        bbs_welford_add(&w[6], r[k].throughput_Bps);
        s->bb_out_Bps += r[k].bb_out_Bps / (double)n;
        s->written += r[k].written_bytes;
        s->to_pfs += r[k].to_pfs_bytes;
        s->into_bb += r[k].into_bb_bytes;
        s->drained += r[k].drained_bytes;
        s->left += r[k].left_bytes;
        s->offered += r[k].offered_bytes;
        s->held += r[k].held_bytes;
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
    bbs_ci_positive(&w[6], level, &s->throughput_Bps, NULL);
    return BB_OK;
}
