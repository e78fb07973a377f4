/* netload.c: synthetic traffic driver on the engine and the fabric.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "engine.h"
#include "grow.h"
#include "netload.h"
#include "steady.h"
#include "rng.h"

int
bbs_net_pattern_parse(const char *name, int *kind, char *err)
{
    if (!strcmp(name, "uniform") || !strcmp(name, "uniform-random"))
        *kind = BBS_NET_PAT_UNIFORM;
    else if (!strcmp(name, "group-shift") || !strcmp(name, "shift"))
        *kind = BBS_NET_PAT_GROUP_SHIFT;
    else if (!strcmp(name, "random-perm") || !strcmp(name, "permutation"))
        *kind = BBS_NET_PAT_RANDOM_PERM;
    else if (!strcmp(name, "bb-io"))
        *kind = BBS_NET_PAT_BB_IO;
    else
        return bb_seterr(err, BB_EINVAL, "unknown pattern '%s' (expected uniform, group-shift, "
                         "random-perm or bb-io)", name);
    return BB_OK;
}

const char *
bbs_net_pattern_name(int kind)
{
    static const char *n[] = { "uniform", "group-shift", "random-perm", "bb-io" };
    return kind >= 0 && kind <= 3 ? n[kind] : "?";
}

static int
cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double
quantile(const double *v, size_t n, double q)
{
    double h = (n - 1) * q;
    size_t i = (size_t)floor(h);

    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (h - i) * (v[i + 1] - v[i]);
}

void
bbs_net_summarize(double *v, size_t n, bbs_net_summary *s)
{
    double sum = 0, iqr;

    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0) {
        s->mean = s->min = s->q1 = s->median = s->q3 = s->p99 = s->max = s->whisker_lo =
            s->whisker_hi = NAN;
        return;
    }
    qsort(v, n, sizeof *v, cmp_double);
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    s->mean = sum / n;
    s->min = v[0];
    s->max = v[n - 1];
    s->q1 = quantile(v, n, 0.25);
    s->median = quantile(v, n, 0.5);
    s->q3 = quantile(v, n, 0.75);
    s->p99 = quantile(v, n, 0.99);
    iqr = s->q3 - s->q1;
    s->whisker_lo = s->max;
    s->whisker_hi = s->min;
    for (size_t i = 0; i < n; i++)
        if (v[i] >= s->q1 - 1.5 * iqr) {
            s->whisker_lo = v[i];
            break;
        }
    for (size_t i = n; i-- > 0;)
        if (v[i] <= s->q3 + 1.5 * iqr) {
            s->whisker_hi = v[i];
            break;
        }
}

typedef struct {
    double t;        /* creation time */
    int dst;
} pending;

typedef struct {
    const bbs_net_topo *t;
    const bbs_net_load_opts *o;
    bbs_engine *e;
    bbs_net_fabric *fab;
    int kind_arrival;
    int nsend;
    int *senders;         /* node ids */
    int *sender_of;       /* node -> sender index or -1 */
    int *perm;            /* random-perm destinations (node ids) */
    int *lo, *hi;         /* uniform: sender s picks among senders [lo, hi) */
    gsl_rng **rng_gen, **rng_route;
    bbs_ring *q;          /* per sender: pending messages, FIFO */
    int *inflight, *outstanding;
    double *busy_start, *busy_s;
    double mean_gap_s;
    double *created;      /* per flow id */
    size_t capcreated;
    double *lat, *hop;
    size_t nlat, caplat, caphop;
    uint64_t generated, gen_window, delivered, minimal, nonminimal;
    double warm;          /* the measured window: [warm, end] */
    double end;
    char *err;
} run;

static int
pick_dst(run *R, int s, int node)
{
    const bbs_net_topo *t = R->t;
    int gsize = t->par.a * t->par.p;

    switch (R->o->pattern) {
    case BBS_NET_PAT_GROUP_SHIFT:
        return (node + gsize) % t->nodes;
    case BBS_NET_PAT_RANDOM_PERM:
        return R->perm[s];
    case BBS_NET_PAT_BB_IO:
        return (node / gsize) * gsize + (node % gsize) % t->par.bb_per_group;
    default: {
        int lo = R->lo[s], hi = R->hi[s];
        int k = lo + (int)gsl_rng_uniform_int(R->rng_gen[s], (unsigned long)(hi - lo - 1));
        if (k >= s)
            k++;
        return R->senders[k];
    }
    }
}

static int
start_flow(run *R, int s, double t_created, int dst)
{
    int id, rc;

    rc = bbs_net_fabric_route_start(R->fab, &R->o->route, R->rng_route[s], R->senders[s], dst,
                                    R->o->msg_bytes, s, &id, R->err);
    if (rc != BB_OK)
        return rc;
    if (bbs_grow((void **)&R->created, sizeof *R->created, &R->capcreated, (size_t)id + 1))
        return bb_seterr(R->err, BB_ENOMEM, "out of memory");
    R->created[id] = t_created;
    R->inflight[s]++;
    return BB_OK;
}

static void
busy_close(run *R, int s, double now)
{
    double from = R->busy_start[s] > R->warm ? R->busy_start[s] : R->warm;

    if (now > from)
        R->busy_s[s] += now - from;
}

static int
on_arrival(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    run *R = ctx;
    int s = (int)ev->arg, node = R->senders[s], dst, rc;
    double now = ev->time_s;

    dst = pick_dst(R, s, node);
    R->generated++;
    if (now >= R->warm)
        R->gen_window++;
    if (R->outstanding[s]++ == 0)
        R->busy_start[s] = now;
    if (R->inflight[s] < R->o->window) {
        if ((rc = start_flow(R, s, now, dst)) != BB_OK)
            return rc; /* the message is in the engine's buffer */
    } else if (bbs_ring_push(&R->q[s], &(pending){ now, dst })) {
        return bbs_engine_fail(e, BB_ENOMEM, "out of memory for source queues");
    }
    rc = bbs_engine_schedule(e, now + gsl_ran_exponential(R->rng_gen[s], R->mean_gap_s),
                             R->kind_arrival, 0, 0, s, NULL, NULL);
    return rc == BB_OK ? BB_OK : bbs_engine_fail(e, rc, "cannot schedule an arrival");
}

static int
on_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    run *R = ctx;
    int s = (int)info->tag, rc;
    double created = R->created[info->flow], now = info->t_end_s;

    R->inflight[s]--;
    if (--R->outstanding[s] == 0)
        busy_close(R, s, now);
    if (created >= R->warm) {
        if (bbs_grow((void **)&R->lat, sizeof *R->lat, &R->caplat, R->nlat + 1)
            || bbs_grow((void **)&R->hop, sizeof *R->hop, &R->caphop, R->nlat + 1))
            return bbs_engine_fail(e, BB_ENOMEM, "out of memory");
        R->lat[R->nlat] = now - created + info->delay_s;
        R->hop[R->nlat] = info->router_hops;
        R->nlat++;
        R->delivered++;
        if (info->minimal)
            R->minimal++;
        else
            R->nonminimal++;
    }
    if (R->q[s].n > 0) {
        pending m = *(pending *)bbs_ring_front(&R->q[s]);
        bbs_ring_pop(&R->q[s]);
        if ((rc = start_flow(R, s, m.t, m.dst)) != BB_OK)
            return rc;
    }
    return BB_OK;
}

static int
check_opts(const bbs_net_topo *t, const bbs_net_load_opts *o, char *err)
{
    if (!(o->load > 0 && o->load <= 1))
        return bb_seterr(err, BB_EINVAL, "load %g is outside (0, 1]", o->load);
    if (!(o->msg_bytes > 0) || !isfinite(o->msg_bytes))
        return bb_seterr(err, BB_EINVAL, "message size %g bytes must be > 0", o->msg_bytes);
    if (!(o->warmup_s >= 0) || !(o->duration_s > o->warmup_s) || !isfinite(o->duration_s))
        return bb_seterr(err, BB_EINVAL, "need 0 <= warmup (%g s) < duration (%g s)",
                         o->warmup_s, o->duration_s);
    if (o->window < 1)
        return bb_seterr(err, BB_EINVAL, "window %d: need >= 1 message in flight", o->window);
    if (o->steady && (!(o->batch_s >= 0) || !(o->rel_half >= 0) || !isfinite(o->rel_half)))
        return bb_seterr(err, BB_EINVAL, "steady mode: interval %g s and precision %g must be "
                         ">= 0", o->batch_s, o->rel_half);
    if (o->steady && o->batch_s > 0 && o->duration_s / o->batch_s > 1e7)
        return bb_seterr(err, BB_EINVAL, "steady mode: %g s in intervals of %g s is %.3g "
                         "intervals (at most 1e7): raise the interval length or lower the "
                         "run duration",
                         o->duration_s, o->batch_s, o->duration_s / o->batch_s);
    if (o->route.bias < 0 || o->route.candidates < 1)
        return bb_seterr(err, BB_EINVAL, "adaptive bias must be >= 0 and candidates >= 1");
    if (o->pattern == BBS_NET_PAT_BB_IO && t->par.bb_per_group == 0)
        return bb_seterr(err, BB_EINVAL, "pattern bb-io needs burst-buffer nodes (none in this "
                         "topology)");
    if (o->pattern < 0 || o->pattern > 3)
        return bb_seterr(err, BB_EINVAL, "unknown pattern %d", o->pattern);
    return BB_OK;
}

static void
run_free(run *R)
{
    for (int s = 0; s < R->nsend; s++) {
        if (R->rng_gen && R->rng_gen[s])
            gsl_rng_free(R->rng_gen[s]);
        if (R->rng_route && R->rng_route[s])
            gsl_rng_free(R->rng_route[s]);
        if (R->q)
            bbs_ring_free(&R->q[s]);
    }
    free(R->rng_gen);
    free(R->rng_route);
    free(R->q);
    free(R->senders);
    free(R->sender_of);
    free(R->perm);
    free(R->lo);
    free(R->hi);
    free(R->inflight);
    free(R->outstanding);
    free(R->busy_start);
    free(R->busy_s);
    free(R->created);
    free(R->lat);
    free(R->hop);
    bbs_net_fabric_free(R->fab);
    bbs_engine_free(R->e);
}

/* Link statistics over [warm, end] from the snapshots. */
static int
link_results(run *R, const double *b0, const double *s0, bbs_net_load_result *res, char *err)
{
    const bbs_net_topo *t = R->t;
    double W = R->end - R->warm;
    double *u = malloc((size_t)t->nlinks * sizeof(double));
    double *sf = malloc((size_t)t->nlinks * sizeof(double));

    if (!u || !sf) {
        free(u);
        free(sf);
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    }
    for (int k = 0; k < 4; k++) {
        size_t n = 0;
        for (int l = 0; l < t->nlinks; l++) {
            bbs_net_link_stat st;
            if (t->link_kind[l] != k)
                continue;
            bbs_net_fabric_link_stat(R->fab, l, &st);
            res->class_links[k]++;
            res->class_bytes[k] += st.bytes - b0[l];
            res->class_sat_s[k] += st.saturated_s - s0[l];
            u[n] = (st.bytes - b0[l]) / (t->link_cap_Bps[l] * W);
            sf[n] = (st.saturated_s - s0[l]) / W;
            n++;
            if (res->link_bytes) {
                res->link_bytes[l] = st.bytes - b0[l];
                res->link_sat_s[l] = st.saturated_s - s0[l];
            }
        }
        bbs_net_summarize(u, n, &res->class_util[k]);
        bbs_net_summarize(sf, n, &res->class_sat_frac[k]);
    }
    free(u);
    free(sf);
    return BB_OK;
}

/* The bytes ejected so far (every ejection link), at time t. */
static double
ejected(run *R, double t)
{
    double ej = 0;

    bbs_net_fabric_flush(R->fab, t);
    for (int l = 0; l < R->t->nlinks; l++)
        if (R->t->link_kind[l] == BBS_NET_LINK_EJ) {
            bbs_net_link_stat st;
            bbs_net_fabric_link_stat(R->fab, l, &st);
            ej += st.bytes;
        }
    return ej;
}

/* Link counters at the start of the measured window. */
static void
snapshot(run *R, double *b0, double *s0)
{
    for (int l = 0; l < R->t->nlinks; l++) {
        bbs_net_link_stat st;
        bbs_net_fabric_link_stat(R->fab, l, &st);
        b0[l] = st.bytes;
        s0[l] = st.saturated_s;
    }
}

/* The fixed window [warmup_s, duration_s]. */
static int
run_fixed(run *R, double *b0, double *s0, double *ej0, double *ej1)
{
    int rc;

    R->warm = R->o->warmup_s;
    R->end = R->o->duration_s;
    if ((rc = bbs_engine_run(R->e, R->warm)) != BB_OK)
        return rc;
    *ej0 = ejected(R, R->warm);
    snapshot(R, b0, s0);
    if ((rc = bbs_engine_run(R->e, R->end)) != BB_OK)
        return rc;
    *ej1 = ejected(R, R->end);
    return BB_OK;
}

/* Steady mode (netload.h): intervals until MSER finds the warm-up's end,
 * then until the accepted load's batch-means interval is narrow. */
static int
run_steady(run *R, double *b0, double *s0, double *ej0, double *ej1, bbs_net_load_result *res)
{
    const bbs_net_load_opts *o = R->o;
    double bw = R->t->par.cn_bw_Bps, dt = o->batch_s, rel = o->rel_half > 0 ? o->rel_half : 0.02;
    double ej_prev = 0, mean = NAN, half = INFINITY;
    size_t cap, k = 0, j0;
    double *acc;
    int rc = BB_OK;

    if (!(dt > 0))
        dt = fmin(10 * o->msg_bytes / (o->load * bw), o->duration_s / 40);
    cap = (size_t)ceil(o->duration_s / dt) + 1;
    if ((acc = malloc(cap * sizeof *acc)) == NULL)
        return bb_seterr(R->err, BB_ENOMEM, "out of memory for %zu intervals", cap);
    /* Nothing is measured until the warm-up ends. */
    R->warm = INFINITY;
    for (;;) {
        double t = (double)(k + 1) * dt, ej;

        if (t > o->duration_s / 2 && t >= o->warmup_s && k > 0)
            break;
        if ((rc = bbs_engine_run(R->e, t)) != BB_OK)
            goto out;
        ej = ejected(R, t);
        acc[k++] = (ej - ej_prev) / ((double)R->nsend * dt * bw);
        ej_prev = ej;
        if (t >= o->warmup_s && k >= 10 && bbs_mser(acc, k) < k / 2) {
            res->settled = 1;
            break;
        }
    }
    R->warm = (double)k * dt;
    *ej0 = ej_prev;
    snapshot(R, b0, s0);
    j0 = k;
    while (k < cap && (double)(k + 1) * dt <= o->duration_s * (1 + 1e-12)) {
        double t = (double)(k + 1) * dt, ej;

        if ((rc = bbs_engine_run(R->e, t)) != BB_OK)
            goto out;
        ej = ejected(R, t);
        acc[k++] = (ej - ej_prev) / ((double)R->nsend * dt * bw);
        ej_prev = ej;
        if (k - j0 >= 20 && bbs_batch_means(acc + j0, k - j0, 10, &mean, &half) == 0
            && mean > 0 && half <= rel * mean) {
            res->precise = 1;
            break;
        }
    }
    if (k - j0 >= 20)
        bbs_batch_means(acc + j0, k - j0, 10, &mean, &half);
    R->end = (double)k * dt;
    *ej1 = ej_prev;
    res->batches = (int)k;
    res->accepted_half = half;
    if (R->end <= R->warm)
        rc = bb_seterr(R->err, BB_EINVAL, "steady mode: nothing left to measure after the "
                       "warm-up (%g s of %g s): raise the run duration", R->warm, o->duration_s);
out:
    free(acc);
    return rc;
}

int
bbs_net_load_run(const bbs_net_topo *t, const bbs_net_load_opts *o, bbs_net_load_result *res,
                 char *err)
{
    run R;
    double *b0 = NULL, *s0 = NULL, ej0 = 0, ej1 = 0, W;
    int rc;

    memset(res, 0, sizeof *res);
    if ((rc = check_opts(t, o, err)) != BB_OK)
        return rc;
    memset(&R, 0, sizeof R);
    R.t = t;
    R.o = o;
    R.err = err;
    R.warm = o->warmup_s;
    rc = BB_ENOMEM;
    R.senders = malloc((size_t)t->nodes * sizeof(int));
    R.sender_of = malloc((size_t)t->nodes * sizeof(int));
    if (!R.senders || !R.sender_of)
        goto nomem;
    R.lo = malloc((size_t)t->nodes * sizeof(int));
    R.hi = malloc((size_t)t->nodes * sizeof(int));
    if (!R.lo || !R.hi)
        goto nomem;
    for (int n = 0; n < t->nodes; n++)
        R.sender_of[n] = -1;
    if (o->job_nodes) {
        for (int j = 0; j < o->njobs; j++) {
            if (o->job_off[j + 1] - o->job_off[j] < 2) {
                run_free(&R);
                return bb_seterr(err, BB_EINVAL, "job %d has fewer than 2 ranks: nothing to "
                                 "send", j + 1);
            }
            for (int i = o->job_off[j]; i < o->job_off[j + 1]; i++) {
                int n = o->job_nodes[i];
                if (n < 0 || n >= t->nodes || R.sender_of[n] >= 0) {
                    run_free(&R);
                    return bb_seterr(err, BB_EINVAL, "placement: node %d is out of range or "
                                     "used twice", n);
                }
                R.sender_of[n] = R.nsend;
                R.lo[R.nsend] = o->job_off[j];
                R.hi[R.nsend] = o->job_off[j + 1];
                R.senders[R.nsend++] = n;
            }
        }
    } else {
        for (int n = 0; n < t->nodes; n++) {
            int send = !o->compute_only || (t->node_kind[n] & BBS_NET_NODE_COMPUTE);
            if (o->pattern == BBS_NET_PAT_BB_IO)   /* a client on its server's
                                                      terminal writes locally */
                send = t->node_kind[n] == BBS_NET_NODE_COMPUTE;
            R.sender_of[n] = send ? R.nsend : -1;
            if (send)
                R.senders[R.nsend++] = n;
        }
        for (int s = 0; s < R.nsend; s++) {
            R.lo[s] = 0;
            R.hi[s] = R.nsend;
        }
    }
    if (R.nsend < 2) {
        run_free(&R);
        return bb_seterr(err, BB_EINVAL, "fewer than 2 senders");
    }
    R.rng_gen = calloc((size_t)R.nsend, sizeof(gsl_rng *));
    R.rng_route = calloc((size_t)R.nsend, sizeof(gsl_rng *));
    R.q = calloc((size_t)R.nsend, sizeof *R.q);
    R.inflight = calloc((size_t)R.nsend, sizeof(int));
    R.outstanding = calloc((size_t)R.nsend, sizeof(int));
    R.busy_start = calloc((size_t)R.nsend, sizeof(double));
    R.busy_s = calloc((size_t)R.nsend, sizeof(double));
    b0 = calloc((size_t)t->nlinks, sizeof(double));
    s0 = calloc((size_t)t->nlinks, sizeof(double));
    if (!R.rng_gen || !R.rng_route || !R.q || !R.inflight || !R.outstanding || !R.busy_start
        || !R.busy_s || !b0 || !s0)
        goto nomem;
    for (int s = 0; s < R.nsend; s++) {
        int n = R.senders[s];
        bbs_ring_init(&R.q[s], sizeof(pending));
        R.rng_gen[s] = bbs_rng_stream_new(NULL, o->seed, o->unit,
                                          BBS_ENTITY(BBS_ECLASS_NETWORK, 2 * (uint64_t)n));
        R.rng_route[s] = bbs_rng_stream_new(NULL, o->seed, o->unit,
                                            BBS_ENTITY(BBS_ECLASS_NETWORK, 2 * (uint64_t)n + 1));
        if (!R.rng_gen[s] || !R.rng_route[s])
            goto nomem;
    }
    if (o->pattern == BBS_NET_PAT_RANDOM_PERM) {
        /* Sattolo's algorithm: one cycle, so nobody sends to itself */
        gsl_rng *pr = bbs_rng_stream_new(NULL, o->seed, o->unit,
                                         BBS_ENTITY(BBS_ECLASS_NETWORK, 2 * (uint64_t)t->nodes));
        R.perm = malloc((size_t)R.nsend * sizeof(int));
        if (!pr || !R.perm) {
            if (pr)
                gsl_rng_free(pr);
            goto nomem;
        }
        for (int s = 0; s < R.nsend; s++)
            R.perm[s] = R.senders[s];
        for (int i = R.nsend - 1; i > 0; i--) {
            int j = (int)gsl_rng_uniform_int(pr, (unsigned long)i), tmp = R.perm[i];
            R.perm[i] = R.perm[j];
            R.perm[j] = tmp;
        }
        gsl_rng_free(pr);
    }
    R.mean_gap_s = o->msg_bytes / (o->load * t->par.cn_bw_Bps);
    if ((rc = bbs_engine_new(&R.e, (size_t)R.nsend * 4, err)) != BB_OK
        || (rc = bbs_engine_register(R.e, on_arrival, &R, &R.kind_arrival)) != BB_OK
        || (rc = bbs_net_fabric_new(&R.fab, t, R.e, on_done, &R, err)) != BB_OK)
        goto fail;
    bbs_net_fabric_set_exact_limit(R.fab, o->exact_limit);
    for (int s = 0; s < R.nsend; s++)
        if ((rc = bbs_engine_schedule(R.e, gsl_ran_exponential(R.rng_gen[s], R.mean_gap_s),
                                      R.kind_arrival, 0, 0, s, NULL, NULL)) != BB_OK)
            goto fail;
    if (o->steady)
        rc = run_steady(&R, b0, s0, &ej0, &ej1, res);
    else
        rc = run_fixed(&R, b0, s0, &ej0, &ej1);
    if (rc != BB_OK)
        goto fail;
    for (int s = 0; s < R.nsend; s++) {
        if (R.outstanding[s] > 0)
            busy_close(&R, s, R.end);
        res->queued_at_end += (uint64_t)R.q[s].n;
        res->inflight_at_end += (uint64_t)R.inflight[s];
    }
    W = R.end - R.warm;
    res->warmup_s = R.warm;
    res->window_s = W;
    res->nsenders = R.nsend;
    res->generated = R.gen_window;
    res->delivered = R.delivered;
    res->minimal = R.minimal;
    res->nonminimal = R.nonminimal;
    res->offered_Bps = R.gen_window * o->msg_bytes / (R.nsend * W);
    res->accepted_Bps = (ej1 - ej0) / (R.nsend * W);
    res->offered = res->offered_Bps / t->par.cn_bw_Bps;
    res->accepted = res->accepted_Bps / t->par.cn_bw_Bps;
    bbs_net_summarize(R.lat, R.nlat, &res->latency_s);
    bbs_net_summarize(R.hop, R.nlat, &res->hops);
    bbs_net_summarize(R.busy_s, (size_t)R.nsend, &res->comm_time_s);
    if (o->keep_links) {
        res->link_bytes = calloc((size_t)t->nlinks, sizeof(double));
        res->link_sat_s = calloc((size_t)t->nlinks, sizeof(double));
        if (!res->link_bytes || !res->link_sat_s)
            goto nomem;
    }
    if ((rc = link_results(&R, b0, s0, res, err)) != BB_OK)
        goto fail;
    bbs_net_fabric_cost_get(R.fab, &res->cost);
    res->events = bbs_engine_events(R.e);
    free(b0);
    free(s0);
    run_free(&R);
    return BB_OK;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory simulating %d nodes", t->nodes);
fail:
    free(b0);
    free(s0);
    run_free(&R);
    bbs_net_load_result_free(res);
    return rc;
}

void
bbs_net_load_estimate(const bbs_net_topo *t, const bbs_net_load_opts *o, double *events,
                      double *bytes)
{
    double senders = o->job_nodes ? (double)o->job_off[o->njobs] : (double)t->nodes;
    double msgs = senders * o->duration_s * o->load * t->par.cn_bw_Bps / o->msg_bytes;

    *events = 4.0 * msgs + senders;
    *bytes = 32.0 * msgs + (double)t->nlinks * 64.0 + senders * 256.0;
}

void
bbs_net_load_result_free(bbs_net_load_result *res)
{
    if (!res)
        return;
    free(res->link_bytes);
    free(res->link_sat_s);
    res->link_bytes = res->link_sat_s = NULL;
}
