/* arch.c: burst-buffer architectures on the engine (arch.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "arch.h"
#include "bb_error.h"
#include "bbnode.h"
#include "dev_int.h"
#include "devq.h"
#include "engine.h"
#include "grow.h"
#include "rng.h"

/* ---- state ------------------------------------------------------------------ */

typedef struct {
    int client;
    double t_issue, t_arrive, bytes;
} waiting;

/* Components of a node (comp[], rfail[]) in bbs_comp_class order. */
#define NCOMP 4

typedef struct sim sim;

/* A buffer node: the shared model (bbnode.h) and what the architecture
 * adds around it: its components' failures, its ingress link's queue and
 * its iostat snapshots. */
typedef struct {
    sim *s;
    int idx;
    bbs_bbnode *bn;
    gsl_rng *rs, *rh, *rfail[NCOMP], *rlazy;
    bbs_devq_stats prev_s, prev_h; /* at the last sample */
    bbs_ring linkwait;  /* waiting: at their clients for the node's ingress link */
    bbs_component comp[NCOMP]; /* electronics, drive, controller, ingress link */
} node;

static int
link_up(const node *n)
{
    return n->comp[BBS_COMP_LINK].health == BBS_HEALTH_OK;
}

/* The worst health of a node's components (the order of bbs_health). */
static bbs_health
node_health(const node *n)
{
    bbs_health h = BBS_HEALTH_OK;
    for (int k = 0; k < NCOMP; k++)
        if (n->comp[k].health > h)
            h = n->comp[k].health;
    return h;
}

struct sim {
    bbs_arch_config c;
    bbs_engine *e;
    int k_arrive, k_fail, k_repair, k_sample;
    int nn;
    const bbs_arch_net_class *net;
    void *net_impl;
    uint64_t started, delivered;   /* network transfers */
    node *nodes;
    int *map;
    gsl_rng **rcl;
    double *coff;                  /* per client: bytes of its file so far */
    bbs_bbsys *sys;
    double lat_sum;
    bbs_arch_result *r;
};

void
bbs_arch_config_init(bbs_arch_config *c)
{
    memset(c, 0, sizeof *c);
    c->map = BBS_MAP_STATIC_BLOCK;
    bbs_bbsys_params_init(&c->node);
    c->horizon_s = 0;                  /* the caller's to set */
    c->fail.ea_eV = 0.38;              /* SANgo */
    c->fail.tref_C = 25;
    c->repair.kind = BBS_REPAIR_EXPONENTIAL;
    c->repair.mean_s = 3600;
    c->ctrl_fail = c->link_fail = c->fail;
    c->ctrl_repair = c->link_repair = c->repair;
}

static int
n_nodes_of(const bbs_arch_config *c)
{
    return c->kind == BBS_ARCH_NODE_LOCAL ? c->n_clients : c->n_nodes;
}

int
bbs_arch_map(const bbs_arch_config *c, int *map, char *err)
{
    int nn = n_nodes_of(c);
    gsl_rng *r = NULL;

    if (c->n_clients < 1)
        return bb_seterr(err, BB_EINVAL, "n_clients %d is not >= 1", c->n_clients);
    if (nn < 1)
        return bb_seterr(err, BB_EINVAL, "%d buffer nodes: every client needs a buffer", nn);
    if (c->kind == BBS_ARCH_NODE_LOCAL) {
        for (int i = 0; i < c->n_clients; i++)
            map[i] = i;
        return BB_OK;
    }
    if (c->map == BBS_MAP_RANDOM) {
        r = bbs_rng_stream_new(NULL, c->seed, c->unit, BBS_ENTITY(BBS_ECLASS_SETUP, 0));
        if (!r)
            return bb_seterr(err, BB_ENOMEM, "out of memory");
    }
    for (int i = 0; i < c->n_clients; i++) {
        switch (c->map) {
        case BBS_MAP_STATIC_BLOCK:
            map[i] = (int)((long long)i * nn / c->n_clients);
            break;
        case BBS_MAP_ROUND_ROBIN:
            map[i] = i % nn;
            break;
        case BBS_MAP_RANDOM:
            map[i] = (int)gsl_rng_uniform_int(r, (unsigned long)nn);
            break;
        case BBS_MAP_EXPLICIT:
            if (!c->explicit_map)
                return bb_seterr(err, BB_EINVAL, "explicit client map missing");
            map[i] = c->explicit_map[i];
            if (map[i] < 0 || map[i] >= nn)
                return bb_seterr(err, BB_EINVAL, "client %d maps to node %d: every client "
                                 "needs a buffer node in 0..%d", i, map[i], nn - 1);
            break;
        default:
            gsl_rng_free(r);
            return bb_seterr(err, BB_EINVAL, "unknown client map %d", (int)c->map);
        }
    }
    gsl_rng_free(r);
    return BB_OK;
}

static int
check_config(const bbs_arch_config *c, char *err)
{
#define NEED(cond, ...) do { if (!(cond)) return bb_seterr(err, BB_EINVAL, __VA_ARGS__); } while (0)
    int rc;

    NEED((unsigned)c->kind <= BBS_ARCH_STORAGE_SIDE, "unknown architecture %d", (int)c->kind);
    NEED(c->capacity_bytes > 0 && isfinite(c->capacity_bytes),
         "buffer capacity %g B is not > 0", c->capacity_bytes);
    NEED(c->capacity_bytes <= c->bb_dev.capacity_bytes, "buffer capacity %g B exceeds its "
         "device's %g B", c->capacity_bytes, c->bb_dev.capacity_bytes);
    NEED(c->ssd_threshold_bytes > 0, "SSD/HDD threshold %g B is not a positive size",
         c->ssd_threshold_bytes);
    NEED(c->net_latency_s >= 0 && isfinite(c->net_latency_s), "network latency %g s is not "
         ">= 0", c->net_latency_s);
    NEED(c->net_bw_Bps > 0 && isfinite(c->net_bw_Bps), "network bandwidth %g B/s is not > 0",
         c->net_bw_Bps);
    NEED(c->pfs_bw_Bps > 0 && isfinite(c->pfs_bw_Bps), "PFS bandwidth %g B/s is not > 0",
         c->pfs_bw_Bps);
    NEED(c->drain_chunk_bytes > 0, "drain chunk %g B is not > 0", c->drain_chunk_bytes);
    NEED(c->req_bytes > 0 && c->req_bytes <= c->capacity_bytes && c->req_bytes == floor(c->req_bytes),
         "request size %g B is not a whole number in (0, capacity]", c->req_bytes);
    NEED(c->mean_interarrival_s > 0, "mean inter-arrival time %g s is not > 0",
         c->mean_interarrival_s);
    NEED(c->horizon_s > 0 && isfinite(c->horizon_s), "horizon %g s is not > 0", c->horizon_s);
    NEED(c->drain.threshold >= 0 && c->drain.threshold <= c->capacity_bytes,
         "lazy threshold %g B is not in [0, capacity]", c->drain.threshold);
    NEED(c->drain.eps >= 0 && c->drain.eps <= 1, "lazy EPS %g is not in [0, 1]", c->drain.eps);
    NEED(c->drain.kind != BB_DRAIN_LAZY || c->lazy_check_s > 0, "lazy check interval %g s is "
         "not > 0", c->lazy_check_s);
    NEED(c->fail.rate_per_s >= 0, "failure rate %g /s is not >= 0", c->fail.rate_per_s);
    NEED(c->drive.scale_s == 0 || (c->drive.scale_s > 0 && c->drive.shape > 0),
         "drive Weibull shape %g and scale %g s must be > 0", c->drive.shape, c->drive.scale_s);
    NEED(c->drive_age0_s >= 0, "drive age %g s is not >= 0", c->drive_age0_s);
    NEED(c->sample_interval_s >= 0 && isfinite(c->sample_interval_s),
         "sample interval %g s is not >= 0", c->sample_interval_s);
    NEED(c->ctrl_fail.rate_per_s >= 0, "controller failure rate %g /s is not >= 0",
         c->ctrl_fail.rate_per_s);
    NEED(c->link_fail.rate_per_s >= 0, "link failure rate %g /s is not >= 0",
         c->link_fail.rate_per_s);
    NEED(c->link_fail.rate_per_s == 0 || c->kind != BBS_ARCH_NODE_LOCAL,
         "node-local buffers have no network link: link failures do not apply");
    if ((c->fail.rate_per_s > 0 || c->ctrl_fail.rate_per_s > 0 || c->link_fail.rate_per_s > 0)
        && (rc = bbs_temp_series_check(&c->temp, err)) != BB_OK)
        return rc;
    if (c->fail.rate_per_s > 0 || c->drive.scale_s > 0)
        NEED(c->repair.mean_s > 0, "mean repair time %g s is not > 0", c->repair.mean_s);
    if (c->ctrl_fail.rate_per_s > 0)
        NEED(c->ctrl_repair.mean_s > 0, "mean controller repair time %g s is not > 0",
             c->ctrl_repair.mean_s);
    if (c->link_fail.rate_per_s > 0)
        NEED(c->link_repair.mean_s > 0, "mean link repair time %g s is not > 0",
             c->link_repair.mean_s);
    if ((rc = bbs_dev_params_check(&c->bb_dev, err)) != BB_OK)
        return rc;
    if (c->kind == BBS_ARCH_STORAGE_SIDE && (rc = bbs_dev_params_check(&c->hdd_dev, err)) != BB_OK)
        return rc;
    return BB_OK;
#undef NEED
}

/* ---- accounting ---------------------------------------------------------------- */

/* The accounting identity, after every event. */
static void
check_identity(void *ctx)
{
    sim *s = ctx;
    bbs_arch_result *r = s->r;
    bbs_bbsys_totals t;
    double idn;

    bbs_bbsys_get_totals(s->sys, &t);
    idn = fabs(r->bytes_written - t.bytes_on_pfs - t.bytes_in_buffers - t.bytes_lost);
    if (idn > r->max_identity_error)
        r->max_identity_error = idn;
    r->identity_checks++;
}

static int
fail_nomem(sim *s)
{
    return bbs_engine_fail(s->e, BB_ENOMEM, "out of memory in the architecture model");
}

/* A request is written (buffer or HDD), or lost with its node. */
static int
written(void *ctx, bbs_bbnode *bn, const bbs_bbnode_req *rq, int hdd, int lost)
{
    sim *s = ctx;

    (void)bn;
    (void)hdd;
    (void)lost;
    s->r->writes_done++;
    s->lat_sum += bbs_engine_now(s->e) - rq->t_issue;
    s->r->bytes_written += rq->bytes;
    return BB_OK;
}

/* ---- events ------------------------------------------------------------------------ */

/* Transfers carry the issue time as the bits of a double. */
static int64_t
dbits(double x)
{
    int64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static double
bitsd(int64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* A request reaches node k (over the network, or at once for node-local):
 * the client's file grows by a request. */
static int
arrive_at(sim *s, int cl, int k, double t_issue)
{
    double b = s->c.req_bytes;
    bbs_bbnode_req rq = { (uint64_t)cl, 0, 1, b, (uint64_t)cl, (uint64_t)s->coff[cl], t_issue };

    if (s->c.kind == BBS_ARCH_STORAGE_SIDE)
        ++*(b >= s->c.ssd_threshold_bytes ? &s->r->writes_hdd : &s->r->writes_ssd);
    s->coff[cl] += b;
    return bbs_bbnode_submit(s->nodes[k].bn, &rq);
}

static int
deliver(void *ctx, int client, int node_idx, double bytes, int64_t tag)
{
    sim *s = ctx;
    int rc;

    (void)bytes;
    s->delivered++;
    rc = arrive_at(s, client, node_idx, bitsd(tag));
    check_identity(s);
    return rc;
}

static int
net_start(sim *s, int cl, int k, double t_issue)
{
    char msg[BB_ERRLEN];
    int rc = s->net->start(s->net_impl, cl, k, s->c.req_bytes, dbits(t_issue), msg);

    if (rc != BB_OK)
        return bbs_engine_fail(s->e, rc, "%s network: %s", s->net->name, msg);
    s->started++;
    return BB_OK;
}

/* Send a request of client cl towards node k, through its link. */
static int
send_req(sim *s, int cl, int k, double t_issue)
{
    node *n = &s->nodes[k];

    if (!link_up(n) && s->c.link_failover) {
        for (int j = 1; j < s->nn; j++) {
            int k2 = (k + j) % s->nn;
            if (link_up(&s->nodes[k2])) {
                s->r->failovers++;
                return net_start(s, cl, k2, t_issue);
            }
        }
    }
    if (!link_up(n)) {
        waiting w = { cl, t_issue, bbs_engine_now(s->e), s->c.req_bytes };
        return bbs_ring_push(&n->linkwait, &w) ? fail_nomem(s) : BB_OK;
    }
    return net_start(s, cl, k, t_issue);
}

static int
on_arrive(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    sim *s = ctx;
    int cl = (int)ev->entity, rc;
    double now = bbs_engine_now(e), next;

    s->r->requests++;
    rc = s->c.kind == BBS_ARCH_NODE_LOCAL ? arrive_at(s, cl, s->map[cl], now)
                                          : send_req(s, cl, s->map[cl], now);
    if (rc != BB_OK)
        return rc;
    next = now + gsl_ran_exponential(s->rcl[cl], s->c.mean_interarrival_s);
    if (next < s->c.horizon_s)
        return bbs_engine_schedule(e, next, s->k_arrive, 0, (uint64_t)cl, 0, NULL, NULL);
    return BB_OK;
}

static int
log_fail(sim *s, int node_idx, int cls, bbs_health h)
{
    int rc;

    if (!s->c.fail_fn)
        return BB_OK;
    rc = s->c.fail_fn(s->c.fail_ctx, bbs_engine_now(s->e), node_idx, (bbs_comp_class)cls, h);
    return rc == BB_OK ? BB_OK
                       : bbs_engine_fail(s->e, rc, "the failure callback failed at %.9g s",
                                         bbs_engine_now(s->e));
}

/* A component of a node fails: the electronics and the drive lose what
 * the node stores, the controller holds it (bbnode.h); the ingress link
 * only gates arrivals. */
static int
on_fail(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    sim *s = ctx;
    node *n = &s->nodes[ev->entity];
    int k = (int)ev->arg, rc;
    bbs_component *cp = &n->comp[k];
    double now = bbs_engine_now(e);
    uint64_t *count[NCOMP] = { &s->r->node_failures, &s->r->drive_failures,
                               &s->r->ctrl_failures, &s->r->link_failures };

    ++*count[k];
    if (k != BBS_COMP_LINK
        && (rc = bbs_bbnode_fail(n->bn, bbs_component_loses_data(cp->cls))) != BB_OK)
        return rc;
    bbs_component_fail(cp, now, n->rfail[k]);
    if ((rc = log_fail(s, n->idx, k, cp->health)) != BB_OK)
        return rc;
    return bbs_engine_schedule(e, cp->repair_done_s, s->k_repair, 0, ev->entity, k, NULL, NULL);
}

static int
on_repair(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    sim *s = ctx;
    node *n = &s->nodes[ev->entity];
    int k = (int)ev->arg;
    bbs_component *cp = &n->comp[k];
    double now = bbs_engine_now(e);
    char msg[BB_ERRLEN];
    int rc;

    if ((rc = bbs_component_repair(cp, now, &s->c.temp, n->rfail[k], msg)) != BB_OK)
        return bbs_engine_fail(e, rc, "node %d: %s", n->idx, msg);
    if ((rc = log_fail(s, n->idx, k, cp->health)) != BB_OK)
        return rc;
    if (cp->next_fail_s < s->c.horizon_s
        && (rc = bbs_engine_schedule(e, cp->next_fail_s, s->k_fail, 0, ev->entity, k, NULL,
                                     NULL)) != BB_OK)
        return rc;
    /* the link works again: the requests held for it go */
    while (link_up(n) && n->linkwait.n > 0) {
        waiting w = *(waiting *)bbs_ring_front(&n->linkwait);
        bbs_ring_pop(&n->linkwait);
        s->r->stall_s += now - w.t_arrive;
        if ((rc = net_start(s, w.client, n->idx, w.t_issue)) != BB_OK)
            return rc;
    }
    /* with fail-over, requests held for other broken links can use this one */
    for (int j = 0; s->c.link_failover && k == BBS_COMP_LINK && j < s->nn; j++) {
        node *o = &s->nodes[j];
        while (!link_up(o) && o->linkwait.n > 0) {
            waiting w = *(waiting *)bbs_ring_front(&o->linkwait);
            bbs_ring_pop(&o->linkwait);
            s->r->stall_s += now - w.t_arrive;
            if ((rc = send_req(s, w.client, j, w.t_issue)) != BB_OK)
                return rc;
        }
    }
    return k == BBS_COMP_LINK ? BB_OK : bbs_bbnode_repair(n->bn);
}

/* ---- iostat-like samples ----------------------------------------------------------- */

static int
sample_dev(sim *s, node *n, bbs_devq *q, bbs_devq_stats *prev, const char *name)
{
    bbs_devq_stats now;
    bbs_arch_sample row;
    double dt;
    uint64_t dr, dw;

    bbs_devq_get_stats(q, &now);
    dt = now.t_s - prev->t_s;
    dr = now.r_ios - prev->r_ios;
    dw = now.w_ios - prev->w_ios;
    memset(&row, 0, sizeof row);
    row.t_s = now.t_s;
    row.node = n->idx;
    row.device = name;
    if (dt > 0) {
        row.r_kBps = (now.r_bytes - prev->r_bytes) / dt / 1e3;
        row.w_kBps = (now.w_bytes - prev->w_bytes) / dt / 1e3;
        row.r_iops = (double)dr / dt;
        row.w_iops = (double)dw / dt;
        row.avgqu_sz = (now.queue_area_s - prev->queue_area_s) / dt;
        row.util_pct = 100 * (now.busy_s - prev->busy_s) / dt;
    }
    row.r_await_ms = dr ? 1e3 * (now.r_await_s - prev->r_await_s) / (double)dr : 0;
    row.w_await_ms = dw ? 1e3 * (now.w_await_s - prev->w_await_s) / (double)dw : 0;
    if (q == bbs_bbnode_devq(n->bn, 0)) {
        bbs_bbnode_state st;
        bbs_bbnode_get_state(n->bn, &st);
        row.used_bytes = st.used;
        row.capacity_bytes = s->c.capacity_bytes;
    }
    row.health = node_health(n);
    *prev = now;
    return s->c.sample_fn(s->c.sample_ctx, &row);
}

static int
on_sample(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    sim *s = ctx;
    double next = bbs_engine_now(e) + s->c.sample_interval_s;
    int rc;

    (void)ev;
    for (int i = 0; i < s->nn; i++) {
        node *n = &s->nodes[i];
        bbs_devq *qh = bbs_bbnode_devq(n->bn, 1);
        if ((rc = sample_dev(s, n, bbs_bbnode_devq(n->bn, 0), &n->prev_s, "bb")) != BB_OK
            || (qh && (rc = sample_dev(s, n, qh, &n->prev_h, "hdd")) != BB_OK))
            return bbs_engine_fail(e, rc, "the sample callback failed at %.9g s",
                                   bbs_engine_now(e));
    }
    if (next <= s->c.horizon_s * (1 + 1e-12))
        return bbs_engine_schedule(e, next, s->k_sample, 1, 0, 0, NULL, NULL);
    return BB_OK;
}

/* ---- set-up and run ------------------------------------------------------------------ */

/* Every handler of the model runs through a hook that checks the
 * accounting identity after the event. */
typedef struct {
    bbs_handler_fn fn;
    sim *s;
} hook;

enum { H_ARRIVE, H_FAIL, H_REPAIR, H_SAMPLE, NHOOK };

static int
hooked(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    hook *h = ctx;
    int rc = h->fn(e, ev, h->s);

    check_identity(h->s);
    return rc;
}

static void
sim_free(sim *s)
{
    bbs_bbsys_free(s->sys);
    if (s->nodes)
        for (int i = 0; i < s->nn; i++) {
            node *n = &s->nodes[i];
            gsl_rng_free(n->rs);
            gsl_rng_free(n->rh);
            for (int k = 0; k < NCOMP; k++)
                gsl_rng_free(n->rfail[k]);
            gsl_rng_free(n->rlazy);
            bbs_ring_free(&n->linkwait);
        }
    if (s->rcl)
        for (int i = 0; i < s->c.n_clients; i++)
            gsl_rng_free(s->rcl[i]);
    free(s->rcl);
    free(s->coff);
    free(s->nodes);
    free(s->map);
    if (s->net)
        s->net->close(s->net_impl);
    bbs_engine_free(s->e);
}

static gsl_rng *
stream(const bbs_arch_config *c, int cls, uint64_t i)
{
    return bbs_rng_stream_new(NULL, c->seed, c->unit, BBS_ENTITY(cls, i));
}

/* Expected failure-and-repair events of one component over [0, H]: a
 * renewal of mean (time to fail) + (repair), two events per cycle. */
static double
cycles2(double hazard, double repair_s, double H)
{
    if (!(hazard > 0))
        return 0;
    return 2.0 / (1.0 / hazard + (repair_s > 0 ? repair_s : 0) / H);
}

int
bbs_arch_check(const bbs_arch_config *c, char *err)
{
    return check_config(c, err);
}

/* ---- the cost of a run before it starts ------------------------------------------ */

/* Memory: the bytes one buffer node and one client hold, from the sizes
 * of what bbs_arch_run allocates for them: a node's record (its four
 * components and their laws), its seven random streams (a gsl_rng and
 * its xoshiro state, two allocations), each device (its parameters are
 * copied in, and an HDD with a write cache starts a ring of
 * BBS_HDD_DIRTY_CAP0 extents), and the buffer node's server, device queue
 * and the first blocks of their rings (bbnode.c, devq.c: 2 KiB, measured
 * with massif on 2,000 nodes, an upper side); a client's stream, its map
 * entry and offset, and one pending event each. */
#define ARCH_STREAM_BYTES (sizeof(gsl_rng) + 32 + 2 * 16)
#define ARCH_BBNODE_BYTES 2048.0
#define ARCH_NODE_STREAMS (3 + NCOMP)

static double
dev_bytes(const bbs_dev_params *p)
{
    double b = (double)sizeof(struct bbs_dev);

    if (p->kind == BBS_DEV_HDD && p->hdd.write_cache_bytes > 0)
        b += BBS_HDD_DIRTY_CAP0 * (double)sizeof(bbs_hdd_extent);
    return b;
}

/* Time: an event costs t0 while the state it touches stays in the
 * processor's caches.  Each event touches the state of one client and
 * one buffer node (its stream, record, buffer node, server, device and
 * queue: a dozen cache lines in as many allocations) and a path of the
 * engine's heap; spread over n nodes that state is touched at random, so
 * once it outgrows a cache, that share of the touches misses it.  The
 * cost of an event is then
 *     t0 + t2 m(W, L2) + t3 m(W, L3),   m(W, C) = max(0, 1 - C / W),
 * W the run's bytes, L2 and L3 the caches (512 KiB a core and 32 MiB, the
 * bench machine's), t2 the dozen lines' fetch from L3 and t3 from memory.
 * Measured on the bench of docs/bounds.md (user CPU of `bbsize bbarch
 * --arch local --clients N`, two horizons each, N from 100 to 10^6):
 * t0 6e-8 s, t2 2e-7 s, t3 2e-6 s; setting up costs 3e-9 s a byte (the
 * allocations and their first touch).  Work is counted in events of t0. */
#define ARCH_T2_OVER_T0 (2e-7 / 6e-8)
#define ARCH_T3_OVER_T0 (2e-6 / 6e-8)
#define ARCH_SETUP_OVER_T0 (3e-9 / 6e-8)
#define ARCH_L2_BYTES (512.0 * 1024)
#define ARCH_L3_BYTES (32.0 * 1048576)

static double
miss_share(double W, double cache)
{
    return W > cache ? 1 - cache / W : 0;
}

void
bbs_arch_estimate(const bbs_arch_config *c, double *events, double *bytes, double *work)
{
    double H = c->horizon_s, nn = n_nodes_of(c), ncl = c->n_clients, reqs, ev, by, wr;
    double ev_b = (double)bbs_engine_event_bytes(), node_b, cl_b, per_ev;

    reqs = ncl * H / c->mean_interarrival_s;
    wr = reqs * c->req_bytes;
    ev = 6.0 * reqs + ncl;
    if (c->drain_chunk_bytes > 0)
        ev += wr / c->drain_chunk_bytes;
    if (c->drain.kind == BB_DRAIN_LAZY && c->lazy_check_s > 0)
        ev += nn * H / c->lazy_check_s;
    if (c->fail.rate_per_s > 0)
        ev += nn * cycles2(bbs_arrhenius_hazard(&c->fail, &c->temp, 0, H), c->repair.mean_s, H);
    if (c->ctrl_fail.rate_per_s > 0)
        ev += nn * cycles2(bbs_arrhenius_hazard(&c->ctrl_fail, &c->temp, 0, H),
                           c->ctrl_repair.mean_s, H);
    if (c->link_fail.rate_per_s > 0)
        ev += nn * cycles2(bbs_arrhenius_hazard(&c->link_fail, &c->temp, 0, H),
                           c->link_repair.mean_s, H);
    if (c->drive.scale_s > 0 && c->drive.shape > 0)
        ev += nn * cycles2(bbs_weibull_cum_hazard(&c->drive, c->drive_age0_s + H)
                           - bbs_weibull_cum_hazard(&c->drive, c->drive_age0_s),
                           c->repair.mean_s, H);
    node_b = (double)sizeof(node) + ARCH_NODE_STREAMS * (double)ARCH_STREAM_BYTES
             + ARCH_BBNODE_BYTES + dev_bytes(&c->bb_dev) + 3 * ev_b
             + (c->kind == BBS_ARCH_STORAGE_SIDE ? dev_bytes(&c->hdd_dev) : 0);
    cl_b = (double)ARCH_STREAM_BYTES + sizeof(int) + sizeof(double) + sizeof(gsl_rng *)
           + 2 * ev_b;
    by = nn * node_b + ncl * cl_b;
    per_ev = 1 + ARCH_T2_OVER_T0 * miss_share(by, ARCH_L2_BYTES)
             + ARCH_T3_OVER_T0 * miss_share(by, ARCH_L3_BYTES);
    if (c->sample_interval_s > 0) {
        double rows = nn * 2.0 * H / c->sample_interval_s;

        ev += rows / 2.0;
        if (c->sample_fn != NULL)
            by += rows * (double)sizeof(bbs_arch_sample);
    }
    if (c->fail_fn != NULL)
        by += ev * 32.0;   /* a failure log keeps its rows: bounded by the events */
    *events = ev;
    *bytes = by;
    *work = ev * per_ev + (nn * node_b + ncl * cl_b) * ARCH_SETUP_OVER_T0;
}

int
bbs_arch_run(const bbs_arch_config *c, bbs_arch_result *r, char *err)
{
    sim s;
    hook hooks[NHOOK];
    bbs_handler_fn fns[NHOOK] = { on_arrive, on_fail, on_repair, on_sample };
    bbs_bbsys_hooks sh = { written, NULL, NULL, check_identity, NULL, NULL };
    int *kinds[NHOOK];
    bbs_arch_simple_net simple;
    bbs_bbsys_totals tot;
    int rc;

    memset(r, 0, sizeof *r);
    memset(&s, 0, sizeof s);
    if ((rc = check_config(c, err)) != BB_OK)
        return rc;
    s.c = *c;
    s.r = r;
    s.nn = n_nodes_of(c);
    rc = BB_ENOMEM;
    s.map = malloc((size_t)c->n_clients * sizeof *s.map);
    s.nodes = calloc((size_t)s.nn, sizeof *s.nodes);
    s.rcl = calloc((size_t)c->n_clients, sizeof *s.rcl);
    s.coff = calloc((size_t)c->n_clients, sizeof *s.coff);
    if (!s.map || !s.nodes || !s.rcl || !s.coff)
        goto nomem;
    if ((rc = bbs_arch_map(c, s.map, err)) != BB_OK)
        goto out;
    if ((rc = bbs_engine_new(&s.e, (size_t)(c->n_clients + 3 * s.nn + 16), err)) != BB_OK)
        goto out;
    kinds[H_ARRIVE] = &s.k_arrive;
    kinds[H_FAIL] = &s.k_fail;
    kinds[H_REPAIR] = &s.k_repair;
    kinds[H_SAMPLE] = &s.k_sample;
    for (int h = 0; h < NHOOK; h++) {
        hooks[h] = (hook){ fns[h], &s };
        if ((rc = bbs_engine_register(s.e, hooked, &hooks[h], kinds[h])) != BB_OK)
            break;
    }
    if (rc != BB_OK) {
        bb_seterr(err, rc, "cannot register the architecture's events");
        goto out;
    }
    sh.ctx = &s;
    if ((rc = bbs_bbsys_new(&s.sys, s.e, &c->node, &sh, err)) != BB_OK)
        goto out;
    if (c->kind != BBS_ARCH_NODE_LOCAL) {
        const void *par = c->net_params;
        if (!c->net) {
            simple = (bbs_arch_simple_net){ c->net_latency_s, c->net_bw_Bps };
            par = &simple;
        }
        if ((rc = (c->net ? c->net : &bbs_arch_net_simple)->open(&s.net_impl, par, s.e,
                                                                  c->n_clients, s.nn, c->seed,
                                                                  c->unit, deliver, &s, err))
            != BB_OK)
            goto out;
        s.net = c->net ? c->net : &bbs_arch_net_simple;
    }
    for (int i = 0; i < s.nn; i++) {
        node *n = &s.nodes[i];
        n->s = &s;
        n->idx = i;
        bbs_ring_init(&n->linkwait, sizeof(waiting));
        n->rs = stream(c, BBS_ECLASS_STORAGE, 2 * (uint64_t)i);
        n->rh = stream(c, BBS_ECLASS_STORAGE, 2 * (uint64_t)i + 1);
        for (int k = 0; k < NCOMP; k++)
            if (!(n->rfail[k] = stream(c, BBS_ECLASS_FAILURE, NCOMP * (uint64_t)i + k)))
                goto nomem;
        n->rlazy = stream(c, BBS_ECLASS_PLATFORM, (uint64_t)i);
        if (!n->rs || !n->rh || !n->rlazy)
            goto nomem;
        if ((rc = bbs_bbnode_new(s.sys, i, c->capacity_bytes, &c->bb_dev,
                                 c->kind == BBS_ARCH_STORAGE_SIDE ? &c->hdd_dev : NULL, n->rs,
                                 n->rh, n->rlazy, &n->bn, err)) != BB_OK)
            goto out;
        for (int k = 0; k < NCOMP; k++)
            n->comp[k].cls = (bbs_comp_class)k;
        n->comp[BBS_COMP_NODE].law = c->fail.rate_per_s > 0 ? BBS_LAW_ARRHENIUS : BBS_LAW_NONE;
        n->comp[BBS_COMP_NODE].arr = c->fail;
        n->comp[BBS_COMP_DRIVE].law = c->drive.scale_s > 0 ? BBS_LAW_WEIBULL : BBS_LAW_NONE;
        n->comp[BBS_COMP_DRIVE].wei = c->drive;
        n->comp[BBS_COMP_DRIVE].age0_s = c->drive_age0_s;
        n->comp[BBS_COMP_CONTROLLER].law = c->ctrl_fail.rate_per_s > 0 ? BBS_LAW_ARRHENIUS
                                                                        : BBS_LAW_NONE;
        n->comp[BBS_COMP_CONTROLLER].arr = c->ctrl_fail;
        n->comp[BBS_COMP_LINK].law = c->link_fail.rate_per_s > 0 ? BBS_LAW_ARRHENIUS
                                                                  : BBS_LAW_NONE;
        n->comp[BBS_COMP_LINK].arr = c->link_fail;
        for (int k = 0; k < NCOMP; k++) {
            bbs_component *cp = &n->comp[k];
            cp->repair = k == BBS_COMP_CONTROLLER ? c->ctrl_repair
                         : k == BBS_COMP_LINK     ? c->link_repair
                                                  : c->repair;
            if (cp->repair.mean_s <= 0)
                cp->repair.mean_s = 1; /* unused without failures */
            if ((rc = bbs_component_start(cp, 0, &c->temp, n->rfail[k], err)) != BB_OK)
                goto out;
            if (cp->next_fail_s < c->horizon_s
                && (rc = bbs_engine_schedule(s.e, cp->next_fail_s, s.k_fail, 0, (uint64_t)i, k,
                                             NULL, NULL)) != BB_OK)
                goto out;
        }
    }
    for (int i = 0; i < c->n_clients; i++) {
        double t0;
        s.rcl[i] = stream(c, BBS_ECLASS_WORKLOAD, (uint64_t)i);
        if (!s.rcl[i])
            goto nomem;
        t0 = gsl_ran_exponential(s.rcl[i], c->mean_interarrival_s);
        if (t0 < c->horizon_s
            && (rc = bbs_engine_schedule(s.e, t0, s.k_arrive, 0, (uint64_t)i, 0, NULL, NULL))
                   != BB_OK)
            goto out;
    }
    if (c->sample_interval_s > 0 && c->sample_fn && c->sample_interval_s <= c->horizon_s
        && (rc = bbs_engine_schedule(s.e, c->sample_interval_s, s.k_sample, 1, 0, 0, NULL,
                                     NULL)) != BB_OK)
        goto out;
    if (c->progress_fn == NULL)
        rc = bbs_engine_run(s.e, c->horizon_s);
    for (int k = 1; c->progress_fn != NULL && k <= 100 && rc == BB_OK; k++) {
        double t = k == 100 ? c->horizon_s : c->horizon_s * (double)k / 100.0;

        if ((rc = bbs_engine_run(s.e, t)) == BB_OK)
            c->progress_fn(c->progress_ctx, (size_t)k, 100);
    }
    if (rc != BB_OK)
        goto out;
    bbs_bbsys_get_totals(s.sys, &tot);
    r->bytes_in_buffers = tot.bytes_in_buffers;
    r->bytes_on_pfs = tot.bytes_on_pfs;
    r->bytes_lost = tot.bytes_lost;
    r->files_lost = tot.files_lost;
    r->stall_s += tot.stall_s;
    r->max_used_fraction = tot.max_used_fraction;
    r->min_used_bytes = tot.min_used_bytes;
    r->requests_in_flight = s.started - s.delivered;
    for (int i = 0; i < s.nn; i++) {
        bbs_bbnode_state st;
        bbs_bbnode_get_state(s.nodes[i].bn, &st);
        r->requests_in_flight += s.nodes[i].linkwait.n + st.waiting + st.present;
    }
    r->mean_write_latency_s = r->writes_done ? s.lat_sum / (double)r->writes_done : 0;
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory setting up %d clients and %d nodes",
                   c->n_clients, s.nn);
out:
    sim_free(&s);
    return rc;
}
