/* bbpart.c: the partitioned platform on the event engine (bbpart.h): one
 * TICK per time unit (arg = u) applies every partition's transition.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "bb_error.h"
#include "bbpart.h"
#include "bbstep.h"
#include "quanta.h"
#include "engine.h"
#include "rng.h"

typedef struct {
    double L, H;              /* buffer load and held data, quanta */
    bb_drain pol;             /* the policy at this partition's size, quanta */
    gsl_rng *plat;            /* lazy EPS draws */
    long stalls;
    double to_bb;             /* into the buffer, measured units */
} part;

typedef struct {
    const bbs_part_config *c;
    bbs_engine *e;
    int k_tick;
    gsl_rng **rng;            /* per application */
    part *p;                  /* G */
    double *k, *demand, *alloc;
    int *drain;
    long measured;
    double written, to_pfs, pfs_used;
} partsim;

int
bbs_part_check(const bbs_part_config *c, char *err)
{
    if (c->n == 0)
        return bb_seterr(err, BB_EINVAL, "the workload has no application");
    if (c->G == 0 || c->G > BBS_PART_MAX)
        return bb_seterr(err, BB_EINVAL, "%zu partitions: between 1 and %d", c->G, BBS_PART_MAX);
    for (size_t i = 0; i < c->n; i++) {
        if (c->group[i] >= c->G)
            return bb_seterr(err, BB_EINVAL, "application %zu: partition %zu of %zu", i + 1,
                             c->group[i] + 1, c->G);
        if (c->b[i] < 0)
            return bb_seterr(err, BB_EINVAL, "application %zu: bandwidth %ld quanta is negative",
                             i + 1, c->b[i]);
        if (!(c->p[i] >= 0.0 && c->p[i] <= 1.0))
            return bb_seterr(err, BB_EINVAL, "application %zu: p = %g is not in [0, 1]", i + 1,
                             c->p[i]);
    }
    for (size_t g = 0; g < c->G; g++) {
        if (c->B[g] < 0)
            return bb_seterr(err, BB_EINVAL, "partition %zu: PFS share %ld quanta is "
                             "negative", g + 1, c->B[g]);
        if (c->S[g] < 0)
            return bb_seterr(err, BB_EINVAL, "partition %zu: size %ld quanta is negative", g + 1,
                             c->S[g]);
    }
    if (c->horizon_units <= 0 || c->warmup_units < 0)
        return bb_seterr(err, BB_EINVAL, "horizon %ld and warm-up %ld time units",
                         c->horizon_units, c->warmup_units);
    if (!(c->time_unit_s > 0) || !isfinite(c->time_unit_s))
        return bb_seterr(err, BB_EINVAL, "time unit %g s is not positive", c->time_unit_s);
    assert(BB_DRAIN_IN(&c->pol, BB_DRAIN_FRACTION));
    if (c->pol.kind == BB_DRAIN_LAZY && (!(c->pol.threshold >= 0 && c->pol.threshold <= 1)
                                         || !(c->pol.eps >= 0 && c->pol.eps <= 1)))
        return bb_seterr(err, BB_EINVAL, "lazy: threshold %g or EPS %g outside [0, 1]",
                         c->pol.threshold, c->pol.eps);
    return BB_OK;
}

/* Work-conserving: min(demand, share) first, then what is left of B to
 * the partitions that want more, in proportion to their shares, capped at
 * their demand; each round satisfies at least one partition or hands out
 * everything, so G rounds suffice. */
static void
share_out(const bbs_part_config *c, const double *demand, double *alloc)
{
    double B = 0, spare;

    for (size_t g = 0; g < c->G; g++) {
        B += (double)c->B[g];
        alloc[g] = demand[g] < (double)c->B[g] ? demand[g] : (double)c->B[g];
    }
    if (c->pfs == BBS_PART_STATIC)
        return;
    spare = B;
    for (size_t g = 0; g < c->G; g++)
        spare -= alloc[g];
    for (size_t round = 0; round < c->G && spare > 1e-12 * B; round++) {
        double w = 0, given = 0;

        for (size_t g = 0; g < c->G; g++)
            if (demand[g] > alloc[g])
                w += (double)c->B[g];
        if (w == 0)
            break;
        for (size_t g = 0; g < c->G; g++) {
            double want, x;

            if (!(demand[g] > alloc[g]))
                continue;
            want = demand[g] - alloc[g];
            x = spare * (double)c->B[g] / w;
            if (x > want)
                x = want;
            alloc[g] += x;
            given += x;
        }
        spare -= given;
    }
}

static int
on_tick(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    partsim *s = ctx;
    const bbs_part_config *c = s->c;
    long u = (long)ev->arg;
    int measured = u >= c->warmup_units;

    for (size_t g = 0; g < c->G; g++)
        s->k[g] = 0;
    /* the loads of the partitions in a normal unit, and their demand */
    for (size_t i = 0; i < c->n; i++) {
        size_t g = c->group[i];

        if (s->p[g].H <= 0 && bbs_rng_bernoulli(s->rng[i], c->p[i]))
            s->k[g] += (double)c->b[i];
    }
    for (size_t g = 0; g < c->G; g++) {
        part *q = &s->p[g];

        if (q->H > 0) {
            s->drain[g] = 1;
            s->demand[g] = q->H + q->L;
        } else {
            double eps_u = bbs_step_draw(&q->pol, q->plat);

            s->drain[g] = bbs_step_drains(&q->pol, q->L, eps_u);
            s->demand[g] = s->k[g] + (s->drain[g] ? q->L : 0);
            s->written += s->k[g];
        }
    }
    share_out(c, s->demand, s->alloc);
    for (size_t g = 0; g < c->G; g++) {
        part *q = &s->p[g];
        double A = s->alloc[g], S = (double)c->S[g];

        s->pfs_used += measured ? A : 0;
        if (q->H > 0) {
            /* a stall of this partition's applications: held data first */
            double from_held = q->H < A ? q->H : A;
            double from_bb = q->L < A - from_held ? q->L : A - from_held;

            q->H -= from_held;
            q->L -= from_bb;
            s->to_pfs += from_held + from_bb;
            q->stalls += measured;
        } else if (s->k[g] <= A) {
            double d = s->drain[g] ? (q->L < A - s->k[g] ? q->L : A - s->k[g]) : 0;

            q->L -= d;
            s->to_pfs += s->k[g] + d;
        } else {
            double ex = s->k[g] - A, into = bbs_step_into(S, q->L, ex);

            q->L += into;
            q->H += ex - into;
            s->to_pfs += A;
            if (measured)
                q->to_bb += into;
        }
    }
    s->measured += measured;
    if (u + 1 >= c->warmup_units + c->horizon_units)
        return BB_OK;
    return bbs_engine_schedule(e, (double)(u + 2) * c->time_unit_s, s->k_tick, 1, 0,
                               (uint64_t)(u + 1), NULL, NULL);
}

static void
partsim_free(partsim *s)
{
    if (s->rng)
        for (size_t i = 0; i < s->c->n; i++)
            gsl_rng_free(s->rng[i]);
    if (s->p)
        for (size_t g = 0; g < s->c->G; g++)
            gsl_rng_free(s->p[g].plat);
    free(s->rng);
    free(s->p);
    free(s->k);
    free(s->demand);
    free(s->alloc);
    free(s->drain);
    bbs_engine_free(s->e);
}

int
bbs_part_run(const bbs_part_config *c, uint64_t unit, bbs_part_result *r, char *err)
{
    partsim s;
    double B = 0, left = 0, resid;
    int rc;

    memset(r, 0, sizeof *r);
    memset(&s, 0, sizeof s);
    if ((rc = bbs_part_check(c, err)) != BB_OK)
        return rc;
    s.c = c;
    rc = bbs_engine_new(&s.e, 4, err);
    if (rc != BB_OK)
        return rc;
    s.rng = calloc(c->n, sizeof *s.rng);
    s.p = calloc(c->G, sizeof *s.p);
    s.k = calloc(c->G, sizeof *s.k);
    s.demand = calloc(c->G, sizeof *s.demand);
    s.alloc = calloc(c->G, sizeof *s.alloc);
    s.drain = calloc(c->G, sizeof *s.drain);
    if (!s.rng || !s.p || !s.k || !s.demand || !s.alloc || !s.drain) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", c->n);
        goto out;
    }
    for (size_t i = 0; i < c->n; i++)
        if (!(s.rng[i] = bbs_rng_stream_new(NULL, c->seed, unit, BBS_ENTITY(BBS_ECLASS_APP, i)))) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for random streams");
            goto out;
        }
    for (size_t g = 0; g < c->G; g++) {
        bba_drain_quanta(&c->pol, c->S[g], 1, &s.p[g].pol);
        s.p[g].plat = bbs_rng_stream_new(NULL, c->seed, unit,
                                         BBS_ENTITY(BBS_ECLASS_PLATFORM, g));
        if (s.p[g].plat == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for random streams");
            goto out;
        }
        B += (double)c->B[g];
    }
    if ((rc = bbs_engine_register(s.e, on_tick, &s, &s.k_tick)) != BB_OK)
        goto out;
    if ((rc = bbs_engine_schedule(s.e, c->time_unit_s, s.k_tick, 1, 0, 0, NULL, NULL)) != BB_OK)
        goto out;
    rc = bbs_engine_run(s.e, (double)(c->warmup_units + c->horizon_units) * c->time_unit_s);
    if (rc != BB_OK)
        goto out;
    for (size_t g = 0; g < c->G; g++) {
        r->idle[g] = (double)s.p[g].stalls / (double)s.measured;
        r->bb_in[g] = s.p[g].to_bb / (double)s.measured;
        left += s.p[g].L + s.p[g].H;
    }
    r->pfs_busy = s.pfs_used / ((double)s.measured * B);
    r->written = s.written;
    r->to_pfs = s.to_pfs;
    r->left = left;
    r->measured = s.measured;
    r->events = bbs_engine_events(s.e);
    resid = fabs(s.written - s.to_pfs - left);
    r->conservation_error = resid;
    if (resid > 1e-9 * (s.written > 1.0 ? s.written : 1.0))
        rc = bb_seterr(err, BB_EDATA, "conservation violated: written %.17g quanta, to PFS "
                       "%.17g, in buffers and held %.17g", s.written, s.to_pfs, left);
out:
    partsim_free(&s);
    return rc;
}

int
bbs_part_run_unit(size_t unit, void *result, const void *ctx, char *err)
{
    return bbs_part_run(ctx, unit, result, err);
}
