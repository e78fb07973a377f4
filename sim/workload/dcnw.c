/* dcnw.c: DCNW / CDCNW / FLOWS message generators.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "rng.h"
#include "workload/dcnw.h"

/* A binary min-heap of tasks keyed by (next arrival, task). */
typedef struct {
    int *h;
    double *t;
    int n;
} theap;

static int
less(const theap *q, int a, int b)
{
    return q->t[a] < q->t[b] || (q->t[a] == q->t[b] && a < b);
}

static void
sift_down(theap *q, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i, x;
        if (l < q->n && less(q, q->h[l], q->h[m]))
            m = l;
        if (l + 1 < q->n && less(q, q->h[l + 1], q->h[m]))
            m = l + 1;
        if (m == i)
            return;
        x = q->h[i];
        q->h[i] = q->h[m];
        q->h[m] = x;
        i = m;
    }
}

static int
walk_dcnw(const bbs_vef *v, const bbs_sizedist *d, long cap, uint64_t seed, uint64_t unit,
          const bbs_wl_sink *sink, double *last_s, char *err)
{
    int n = v->ntasks, rc = BB_OK;
    gsl_rng **r = calloc((size_t)n, sizeof *r);
    theap q = { malloc((size_t)n * sizeof(int)), malloc((size_t)n * sizeof(double)), n };
    double gap = bbs_poisson_mean_gap_s(bbs_sizedist_mean(d), v->load_gbps);

    if (!r || !q.h || !q.t) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (!(r[i] = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_WORKLOAD, i)))) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
        q.h[i] = i;
        q.t[i] = gsl_ran_exponential(r[i], gap);
    }
    for (int i = n / 2 - 1; i >= 0; i--)
        sift_down(&q, i);
    for (long m = 0; m < cap; m++) {
        int s = q.h[0], dst;
        double t = q.t[s], bytes;

        bytes = bbs_sizedist_sample(d, r[s]);
        dst = bbs_dest_draw(&v->dest, n, s, r[s]);
        if (sink->msg && (rc = sink->msg(sink->ctx, t, s, dst, bytes, m)))
            goto done;
        if (last_s)
            *last_s = t;
        q.t[s] = t + gsl_ran_exponential(r[s], gap);
        sift_down(&q, 0);
    }
done:
    for (int i = 0; r && i < n; i++)
        if (r[i])
            gsl_rng_free(r[i]);
    free(r);
    free(q.h);
    free(q.t);
    return rc;
}

static int
walk_flows(const bbs_vef *v, long cap, uint64_t seed, uint64_t unit, const bbs_wl_sink *sink,
           double *last_s, char *err)
{
    gsl_rng *r = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_WORKLOAD, 0));
    double tick = v->clock_ps * 1e-12, gap = v->flow_time / (double)v->nmsgs, t = 0;
    int n = v->ntasks, rc = BB_OK;

    if (!r)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    for (long m = 0; m < cap; m++) {
        double u, acc = 0, kb;
        int c = v->nclasses - 1, s, dst;
        const bbs_dest *law;

        t += gsl_ran_exponential(r, gap);
        s = (int)gsl_rng_uniform_int(r, (unsigned long)n);
        u = gsl_rng_uniform(r) * 100;
        for (int k = 0; k < v->nclasses; k++) {
            acc += v->classes[k].perc;
            if (u < acc) {
                c = k;
                break;
            }
        }
        kb = bbs_rng_uniform_ab(r, v->classes[c].min_kb, v->classes[c].max_kb);
        law = v->classes[c].has_dest ? &v->classes[c].dest : &v->dest;
        dst = bbs_dest_draw(law, n, s, r);
        if (sink->msg && (rc = sink->msg(sink->ctx, t * tick, s, dst, round(kb * 1024), m)))
            break;
        if (last_s)
            *last_s = t * tick;
    }
    gsl_rng_free(r);
    return rc;
}

int
bbs_dcnw_walk(const bbs_vef *v, const bbs_sizedist *d, long max_msgs, uint64_t seed,
              uint64_t unit, const bbs_wl_sink *sink, double *last_s, char *err)
{
    long cap = v->nmsgs;

    if (max_msgs > 0 && max_msgs < cap)
        cap = max_msgs;
    if (last_s)
        *last_s = 0;
    if (v->ntasks < 2)
        return bb_seterr(err, BB_EINVAL, "%s needs at least 2 tasks", bbs_vef_kind_name(v->kind));
    if (v->kind == BBS_VEF_FLOWS)
        return walk_flows(v, cap, seed, unit, sink, last_s, err);
    if (v->kind != BBS_VEF_DCNW && v->kind != BBS_VEF_CDCNW)
        return bb_seterr(err, BB_EINVAL, "not a DCNW, CDCNW or FLOWS trace");
    if (!d)
        return bb_seterr(err, BB_EINVAL, "%s needs a size distribution", bbs_vef_kind_name(v->kind));
    return walk_dcnw(v, d, cap, seed, unit, sink, last_s, err);
}
