/* fabric.c: flow-level bandwidth sharing with component-local max-min
 * recomputation (fabric.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "grow.h"
#include "fabric.h"
#include "maxmin.h"

#define PARKED 1e300

typedef struct {
    int path[BBS_NET_MAX_PATH];
    int pos[BBS_NET_MAX_PATH];   /* index in the link's flow list */
    unsigned char vc[BBS_NET_MAX_PATH]; /* its virtual channel on each link */
    int len;
    int src, dst, minimal, hops;
    double bytes, rem, rate, t_last, t_start, delay;
    bbs_event_id ev;
    int64_t tag;
    int active;
    int fresh;                   /* started, not yet given a rate */
    int bk;                      /* its bottleneck's place in the path: it
                                    fills the buffers of path[0 .. bk-1] */
    double bkrate;               /* the rate it holds them at */
} flow;

typedef struct {
    int *fl;                     /* flow ids */
    int n;
    size_t cap;
    double rate, t_last, bytes, sat_s;
    double crate[BBS_NET_MM_CLASSES]; /* the rate of its flows per channel */
    double backed;               /* rate of its flows held downstream of it */
    int nbacked;                 /* how many */
    unsigned char sat, dirty;
} link;

struct bbs_net_fabric {
    const bbs_net_topo *t;
    bbs_engine *e;
    bbs_net_done_fn done;
    void *ctx;
    int kind_done, kind_update;
    int update_pending;

    flow *fl;
    int nfl, nactive;
    size_t capfl;
    int *freefl;
    int nfree;
    size_t capfree;

    link *lk;
    int *lflows;                 /* flows per link (for adaptive routing) */
    int *dirty;                  /* dirty link ids */
    int ndirty;
    size_t capdirty;
    unsigned stamp;
    /* the component search's marks, per link and per flow id, apart from
     * the links and flows it walks (a flow seen again from its other
     * links is not read) */
    unsigned *lstamp, *fstamp;
    size_t capfstamp;

    /* component workspace */
    int *cf, *cl, *lmap, *poff, *path, *bott;
    unsigned char *pvc, *pgap;   /* per path entry, with vc_priority: its
                                    channel; its next link is shared */
    size_t capcf, capcl, cappath, cappvc, cappgap;
    double *win;                 /* per component link: its channel window */
    int vc_priority, vc_scheme;
    double *cap, *rate;
    unsigned char *sat;
    size_t sized_l, sized_f;     /* cap, win, sat: sized_l links; poff, rate,
                                    bott: sized_f + 1 flows */
    bbs_net_mm_ws *ws;
    bbs_net_fabric_cost cost;
    int exact_limit;
    uint64_t exact_limit_hit;
    int backoff, skip;           /* after components too large: go local for
                                    skip updates, doubling up to 64 */
};

static int on_done(bbs_engine *e, const bbs_event *ev, void *ctx);
static int on_update(bbs_engine *e, const bbs_event *ev, void *ctx);

int
bbs_net_fabric_new(bbs_net_fabric **out, const bbs_net_topo *t, bbs_engine *e,
                   bbs_net_done_fn done, void *ctx, char *err)
{
    bbs_net_fabric *f = calloc(1, sizeof *f);
    int rc;

    *out = NULL;
    if (!f)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fabric");
    f->t = t;
    f->e = e;
    f->done = done;
    f->ctx = ctx;
    f->lk = calloc((size_t)t->nlinks, sizeof *f->lk);
    f->lflows = calloc((size_t)t->nlinks, sizeof(int));
    f->lmap = malloc((size_t)t->nlinks * sizeof(int));
    f->lstamp = calloc((size_t)t->nlinks, sizeof(unsigned));
    f->ws = bbs_net_mm_ws_alloc();
    if (!f->lk || !f->lflows || !f->lmap || !f->lstamp || !f->ws) {
        bbs_net_fabric_free(f);
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fabric (%d links)", t->nlinks);
    }
    for (int l = 0; l < t->nlinks; l++)
        f->lmap[l] = -1;
    f->exact_limit = -1;
    if ((rc = bbs_engine_register(e, on_done, f, &f->kind_done)) != BB_OK
        || (rc = bbs_engine_register(e, on_update, f, &f->kind_update)) != BB_OK) {
        bbs_net_fabric_free(f);
        return bb_seterr(err, rc, "cannot register the fabric's event handlers");
    }
    *out = f;
    return BB_OK;
}

void
bbs_net_fabric_free(bbs_net_fabric *f)
{
    if (!f)
        return;
    if (f->lk)
        for (int l = 0; l < f->t->nlinks; l++)
            free(f->lk[l].fl);
    free(f->lk);
    free(f->lflows);
    free(f->fl);
    free(f->freefl);
    free(f->dirty);
    free(f->cf);
    free(f->cl);
    free(f->lmap);
    free(f->lstamp);
    free(f->fstamp);
    free(f->poff);
    free(f->path);
    free(f->bott);
    free(f->pvc);
    free(f->pgap);
    free(f->win);
    free(f->cap);
    free(f->rate);
    free(f->sat);
    bbs_net_mm_ws_free(f->ws);
    free(f);
}

static int
mark_dirty(bbs_net_fabric *f, int l)
{
    if (f->lk[l].dirty)
        return 0;
    if (bbs_grow((void **)&f->dirty, sizeof(int), &f->capdirty, (size_t)(f->ndirty + 1)))
        return -1;
    f->lk[l].dirty = 1;
    f->dirty[f->ndirty++] = l;
    return 0;
}

static int
want_update(bbs_net_fabric *f, char *err)
{
    int rc;

    if (f->update_pending)
        return BB_OK;
    rc = bbs_engine_schedule(f->e, bbs_engine_now(f->e), f->kind_update, BBS_NET_PRIO_UPDATE, 0,
                             0, NULL, NULL);
    if (rc != BB_OK)
        return bb_seterr(err, rc, "cannot schedule a rate update");
    f->update_pending = 1;
    return BB_OK;
}

int
bbs_net_fabric_start(bbs_net_fabric *f, int src, int dst, double bytes, const int *path,
                     int len, int minimal, int64_t tag, int *flow_out, char *err)
{
    const bbs_net_topo *t = f->t;
    double now = bbs_engine_now(f->e);
    flow *x;
    int id, rc;

    if (!(bytes >= 0) || !isfinite(bytes))
        return bb_seterr(err, BB_EINVAL, "flow size %g bytes is not finite and >= 0", bytes);
    if (len < 1 || len > BBS_NET_MAX_PATH)
        return bb_seterr(err, BB_EINVAL, "path of %d links (1..%d)", len, BBS_NET_MAX_PATH);
    for (int i = 0; i < len; i++)
        if (path[i] < 0 || path[i] >= t->nlinks)
            return bb_seterr(err, BB_EINVAL, "path link %d is not a link id", path[i]);
    if (f->nfree > 0) {
        id = f->freefl[--f->nfree];
    } else {
        if (bbs_grow((void **)&f->fl, sizeof(flow), &f->capfl, (size_t)(f->nfl + 1))
            || bbs_grow((void **)&f->fstamp, sizeof(unsigned), &f->capfstamp,
                        (size_t)(f->nfl + 1)))
            return bb_seterr(err, BB_ENOMEM, "out of memory for flows");
        id = f->nfl++;
        f->fstamp[id] = 0;
    }
    x = &f->fl[id];
    x->len = len;
    x->src = src;
    x->dst = dst;
    x->minimal = minimal;
    x->bytes = x->rem = bytes;
    x->rate = 0;
    x->bk = 0;
    x->bkrate = 0;
    x->t_last = x->t_start = now;
    x->tag = tag;
    x->hops = bbs_net_path_router_hops(t, path, len);
    x->delay = bbs_net_path_delay_s(t, path, len);
    bbs_net_path_vc(t, path, len, f->vc_scheme, x->vc);
    x->active = 1;
    x->fresh = 1;
    x->ev = 0;
    for (int i = 0; i < len; i++) {
        link *L = &f->lk[path[i]];
        x->path[i] = path[i];
        if (bbs_grow((void **)&L->fl, sizeof(int), &L->cap, (size_t)(L->n + 1))
            || mark_dirty(f, path[i]))
            return bb_seterr(err, BB_ENOMEM, "out of memory for link flow lists");
        x->pos[i] = L->n;
        L->fl[L->n++] = id;
        f->lflows[path[i]]++;
    }
    f->nactive++;
    f->cost.flows_started++;
    /* the completion is scheduled by the update (rate unknown yet) */
    /* parked far ahead (the engine wants finite times) until the update */
    rc = bbs_engine_schedule(f->e, PARKED, f->kind_done, BBS_NET_PRIO_DONE, (uint64_t)id, 0,
                             NULL, &x->ev);
    if (rc != BB_OK)
        return bb_seterr(err, rc, "cannot schedule a flow completion");
    if (flow_out)
        *flow_out = id;
    return want_update(f, err);
}

int
bbs_net_fabric_route_start(bbs_net_fabric *f, const bbs_net_route_opts *o, gsl_rng *r, int src,
                           int dst, double bytes, int64_t tag, int *flow_out, char *err)
{
    int path[BBS_NET_MAX_PATH], minimal, len;

    if (src < 0 || src >= f->t->nodes || dst < 0 || dst >= f->t->nodes || src == dst)
        return bb_seterr(err, BB_EINVAL, "flow %d -> %d: nodes must differ and be in 0..%d",
                         src, dst, f->t->nodes - 1);
    len = bbs_net_fabric_route(f, o, r, src, dst, path, &minimal);
    return bbs_net_fabric_start(f, src, dst, bytes, path, len, minimal, tag, flow_out, err);
}

/* The buffer of a channel at link l's far end; a chunk when not known. */
static double
vc_buffer(const bbs_net_topo *t, int l)
{
    double b = bbs_net_link_vc_bytes(t, l);

    return b > 0 ? b : BBS_NET_CHUNK_BYTES;
}

double
bbs_net_fabric_port_occupancy(const bbs_net_fabric *f, int l)
{
    const link *L = &f->lk[l];
    double buf = vc_buffer(f->t, l), passing[BBS_NET_MM_CLASSES] = { 0 }, occ = 0;
    unsigned char full[BBS_NET_MM_CLASSES] = { 0 };

    for (int k = 0; k < L->n; k++) {
        const flow *x = &f->fl[L->fl[k]];
        int j = 0, bk = x->fresh ? 1 : x->bk;
        while (j < x->len - 1 && x->path[j] != l)
            j++;
        if (j <= bk) {
            full[x->vc[j]] = 1;
            if (j > 0)
                occ += vc_buffer(f->t, x->path[j - 1]);
        } else {
            passing[x->vc[j]] += BBS_NET_CHUNK_BYTES;
        }
    }
    for (int c = 0; c < BBS_NET_MM_CLASSES; c++)
        occ += full[c] ? buf : fmin(buf, passing[c]);
    return occ;
}

static double
occupancy_cb(int l, void *ctx)
{
    return bbs_net_fabric_port_occupancy(ctx, l);
}

int
bbs_net_fabric_route(const bbs_net_fabric *f, const bbs_net_route_opts *o, gsl_rng *r, int src,
                     int dst, int *path, int *took_min)
{
    if (o->kind == BBS_NET_ROUTE_PAR)
        return bbs_net_route_par(f->t, o, src, dst, r, occupancy_cb, (void *)f, path, took_min);
    return bbs_net_route(f->t, o, src, dst, r, f->lflows, path, took_min);
}

/* Bring link l's counters to now with its current rate. */
static void
integrate(link *L, double now)
{
    double dt = now - L->t_last;

    if (dt > 0) {
        L->bytes += L->rate * dt;
        if (L->sat)
            L->sat_s += dt;
    }
    L->t_last = now;
}

/* Collect the flows to re-solve into cf and their links into cl.  Exact:
 * the whole connected component of the dirty links, unless it grows past
 * exact_limit flows; then (and in local mode) only the flows on dirty links
 * ("local": the flows that share a link with one that changed) with every
 * other flow held at its rate.  Returns 1 when the set is exact. */
/* backed_set: flow x now fills the buffers of the links before its
 * bottleneck, path[0 .. bk-1], at rate r (credit back-pressure). */
static void
backed_set(bbs_net_fabric *f, flow *x, int bk, double r)
{
    for (int j = 0; j < x->bk; j++) {
        link *L = &f->lk[x->path[j]];
        L->backed = --L->nbacked > 0 ? L->backed - x->bkrate : 0; /* no drift left */
    }
    for (int j = 0; j < bk; j++) {
        f->lk[x->path[j]].backed += r;
        f->lk[x->path[j]].nbacked++;
    }
    x->bk = bk;
    x->bkrate = r;
}

/* next_shared: whether the link after x's j-th carries another flow (its
 * chunks can wait there: strict priority's gaps, maxmin.h). */
static int
next_shared(const bbs_net_fabric *f, const flow *x, int j)
{
    return j + 1 < x->len && f->lflows[x->path[j + 1]] > 1;
}

static int
collect(bbs_net_fabric *f, unsigned st, int *ncf_out, int *ncl_out, int *np_out)
{
    int ncf = 0, ncl = 0, np = 0, head = 0, ndl, exact = f->exact_limit != 0;

    if (exact && f->exact_limit > 0 && f->skip > 0) {
        f->skip--;
        exact = 0;
    }

    for (int i = 0; i < f->ndirty; i++) {
        int l = f->dirty[i];
        f->lstamp[l] = st;
        f->cl[ncl++] = l;
    }
    ndl = ncl;
    while (head < ncl) {
        int li = head++;
        link *L = &f->lk[f->cl[li]];
        if (!exact && li >= ndl)
            break;
        for (int k = 0; k < L->n; k++) {
            flow *x;
            if (f->fstamp[L->fl[k]] == st)
                continue;
            if (exact && f->exact_limit > 0 && ncf >= f->exact_limit) {
                /* too large: restart as local */
                f->exact_limit_hit++;
                f->backoff = f->backoff ? (f->backoff < 64 ? 2 * f->backoff : 64) : 1;
                f->skip = f->backoff;
                for (int i = 0; i < ncf; i++)
                    f->fstamp[f->cf[i]] = 0;
                for (int i = 0; i < ncl; i++)
                    f->lstamp[f->cl[i]] = 0;
                ncf = ncl = np = head = 0;
                exact = 0;
                for (int i = 0; i < f->ndirty; i++) {
                    int l = f->dirty[i];
                    f->lstamp[l] = st;
                    f->cl[ncl++] = l;
                }
                goto restart;
            }
            f->fstamp[L->fl[k]] = st;
            x = &f->fl[L->fl[k]];
            f->cf[ncf++] = L->fl[k];
            np += x->len;
            for (int j = 0; j < x->len; j++) {
                int m = x->path[j];
                if (f->lstamp[m] == st)
                    continue;
                f->lstamp[m] = st;
                f->cl[ncl++] = m;
            }
        }
        continue;
    restart:
        head = 0;
    }
    if (exact)
        f->backoff = 0;
    *ncf_out = ncf;
    *ncl_out = ncl;
    *np_out = np;
    return exact;
}

/* grow_work: the solver's per-link arrays to capcl links and per-flow
 * ones to capcf + 1 flows (reallocated only when those grew). */
static int
grow_work(bbs_net_fabric *f)
{
    void *p;

    if (f->sized_l != f->capcl) {
        if (!(p = realloc(f->cap, f->capcl * sizeof(double))))
            return -1;
        f->cap = p;
        if (!(p = realloc(f->win, f->capcl * sizeof(double))))
            return -1;
        f->win = p;
        if (!(p = realloc(f->sat, f->capcl)))
            return -1;
        f->sat = p;
        f->sized_l = f->capcl;
    }
    if (f->sized_f != f->capcf) {
        if (!(p = realloc(f->poff, (f->capcf + 1) * sizeof(int))))
            return -1;
        f->poff = p;
        if (!(p = realloc(f->rate, (f->capcf + 1) * sizeof(double))))
            return -1;
        f->rate = p;
        if (!(p = realloc(f->bott, (f->capcf + 1) * sizeof(int))))
            return -1;
        f->bott = p;
        f->sized_f = f->capcf;
    }
    return 0;
}

static int
recompute(bbs_net_fabric *f, char *err)
{
    const bbs_net_topo *t = f->t;
    double now = bbs_engine_now(f->e);
    int ncf, ncl, np, rc, exact;
    unsigned st = ++f->stamp;
    bbs_net_mm_problem pb;

    if (st == 0 || st > 0xFFFFFFF0u) { /* stamps about to wrap: clear */
        memset(f->lstamp, 0, (size_t)t->nlinks * sizeof(unsigned));
        memset(f->fstamp, 0, (size_t)f->nfl * sizeof(unsigned));
        st = f->stamp = 1;
    }
    /* room for every active flow and link: collect never reallocates */
    if (bbs_grow((void **)&f->cl, sizeof(int), &f->capcl, (size_t)(t->nlinks))
        || bbs_grow((void **)&f->cf, sizeof(int), &f->capcf, (size_t)(f->nfl + 1)))
        goto nomem;
    exact = collect(f, st, &ncf, &ncl, &np);
    for (int i = 0; i < f->ndirty; i++)
        f->lk[f->dirty[i]].dirty = 0;
    f->ndirty = 0;
    if (bbs_grow((void **)&f->path, sizeof(int), &f->cappath, (size_t)(np + 1))
        || (f->vc_priority && bbs_grow((void **)&f->pvc, 1, &f->cappvc, (size_t)(np + 1)))
        || (f->vc_priority && bbs_grow((void **)&f->pgap, 1, &f->cappgap, (size_t)(np + 1)))
        || grow_work(f))
        goto nomem;
    for (int i = 0; i < ncl; i++) {
        int l = f->cl[i];
        f->lmap[l] = i;
        integrate(&f->lk[l], now);
        f->cap[i] = t->link_cap_Bps[l];
        f->win[i] = bbs_net_link_vc_bytes(t, l);
    }
    np = 0;
    f->poff[0] = 0;
    for (int i = 0; i < ncf; i++) {
        flow *x = &f->fl[f->cf[i]];
        for (int j = 0; j < x->len; j++) {
            if (f->vc_priority) {
                f->pvc[np] = x->vc[j];
                f->pgap[np] = (unsigned char)next_shared(f, x, j);
            }
            f->path[np++] = f->lmap[x->path[j]];
            /* local: what the re-solved flows may use is what the others leave */
            f->lk[x->path[j]].rate -= x->rate;
            f->lk[x->path[j]].crate[x->vc[j]] -= x->rate;
        }
        f->poff[i + 1] = np;
        x->rem -= x->rate * (now - x->t_last);
        if (x->rem < 0)
            x->rem = 0;
        x->t_last = now;
    }
    for (int i = 0; i < ncl; i++) {
        link *L = &f->lk[f->cl[i]];
        if (exact || L->rate < 0)
            L->rate = 0; /* exact: nobody else; clamp rounding */
        for (int c = 0; c < BBS_NET_MM_CLASSES; c++)
            if (exact || L->crate[c] < 0)
                L->crate[c] = 0;
        f->cap[i] -= L->rate;
        if (f->cap[i] < 0)
            f->cap[i] = 0;
    }
    pb.nflows = ncf;
    pb.nlinks = ncl;
    pb.path_off = f->poff;
    pb.path = f->path;
    pb.cap = f->cap;
    pb.cls = f->vc_priority ? f->pvc : NULL;
    pb.gap = f->vc_priority ? f->pgap : NULL;
    pb.win = f->win;
    pb.chunk = BBS_NET_CHUNK_BYTES;
    if (ncf > 0 && (rc = bbs_net_maxmin_solve(&pb, f->ws, f->rate, f->bott, f->sat, err)) != BB_OK)
        return rc;
    for (int i = 0; i < ncf; i++) {
        flow *x = &f->fl[f->cf[i]];
        double r = f->rate[i];
        int bk = 0;
        for (int j = 0; j < x->len; j++) {
            f->lk[x->path[j]].rate += r;
            f->lk[x->path[j]].crate[x->vc[j]] += r;
            if (f->lmap[x->path[j]] == f->bott[i])
                bk = j;
        }
        backed_set(f, x, bk, r);
        x->fresh = 0;
        if (r != x->rate || x->rem == 0) {
            double when = r > 0 ? now + x->rem / r : PARKED;
            x->rate = r;
            if (!isfinite(when))
                when = PARKED;
            if ((rc = bbs_engine_reschedule(f->e, x->ev, when)) != BB_OK)
                return bb_seterr(err, rc, "cannot reschedule the completion of flow %d",
                                 f->cf[i]);
        }
    }
    for (int i = 0; i < ncl; i++) {
        int l = f->cl[i];
        link *L = &f->lk[l];
        int s = ncf > 0 ? f->sat[i] : 0;
        if (!exact && !s && L->sat && L->rate >= t->link_cap_Bps[l] * (1 - 1e-9))
            s = 1; /* still full and held by flows not re-solved */
        L->sat = (unsigned char)s;
        f->lmap[l] = -1;
    }
    f->cost.updates++;
    f->cost.flows_touched += (uint64_t)ncf;
    f->cost.path_touched += (uint64_t)np;
    if (exact)
        f->cost.exact_updates++;
    if ((uint64_t)ncf > f->cost.max_component)
        f->cost.max_component = (uint64_t)ncf;
    return BB_OK;
nomem:
    return bb_seterr(err, BB_ENOMEM, "out of memory recomputing rates");
}

static int
on_update(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_net_fabric *f = ctx;
    char err[BB_ERRLEN];
    int rc;

    (void)ev;
    f->update_pending = 0;
    if ((rc = recompute(f, err)) != BB_OK)
        return bbs_engine_fail(e, rc, "%s", err);
    return BB_OK;
}

static int
on_done(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_net_fabric *f = ctx;
    int id = (int)ev->entity;
    flow *x = &f->fl[id];
    bbs_net_flow_info info;
    char err[BB_ERRLEN];
    int rc;

    if (!x->active)
        return bbs_engine_fail(e, BB_EDATA, "completion of inactive flow %d", id);
    for (int i = 0; i < x->len; i++) {
        link *L = &f->lk[x->path[i]];
        int p = x->pos[i], last = L->fl[--L->n];
        integrate(L, ev->time_s);
        L->rate -= x->rate;
        if (L->n == 0 || L->rate < 0)
            L->rate = 0;
        L->crate[x->vc[i]] -= x->rate;
        if (L->crate[x->vc[i]] < 0)
            L->crate[x->vc[i]] = 0;
        if (L->n == 0)
            memset(L->crate, 0, sizeof L->crate);
        /* swap-remove; fix the moved flow's position for this link */
        L->fl[p] = last;
        if (last != id) {
            flow *y = &f->fl[last];
            for (int j = 0; j < y->len; j++)
                if (y->path[j] == x->path[i] && y->pos[j] == L->n) {
                    y->pos[j] = p;
                    break;
                }
        }
        f->lflows[x->path[i]]--;
        if (mark_dirty(f, x->path[i]))
            return bbs_engine_fail(e, BB_ENOMEM, "out of memory");
    }
    backed_set(f, x, 0, 0);
    x->active = 0;
    f->nactive--;
    if (bbs_grow((void **)&f->freefl, sizeof(int), &f->capfree, (size_t)(f->nfree + 1)))
        return bbs_engine_fail(e, BB_ENOMEM, "out of memory");
    f->freefl[f->nfree++] = id;
    info.flow = id;
    info.src = x->src;
    info.dst = x->dst;
    info.bytes = x->bytes;
    info.t_start_s = x->t_start;
    info.t_end_s = ev->time_s;
    info.delay_s = x->delay;
    info.router_hops = x->hops;
    info.minimal = x->minimal;
    info.tag = x->tag;
    if ((rc = want_update(f, err)) != BB_OK)
        return bbs_engine_fail(e, rc, "%s", err);
    return f->done ? f->done(e, &info, f->ctx) : BB_OK;
}

/* Rates summed over a link are exact to about this share of its capacity
 * (the drift of adding and taking away rates). */
#define RATE_TOL 1e-9

/* waits_behind: whether a held rate r on link l is one to wait behind:
 * below RATE_TOL of the link's capacity it is drift, or flows held at 0
 * (a local re-solve can leave a flow no capacity, a higher channel can
 * starve it). */
static int
waits_behind(const bbs_net_fabric *f, int l, double r)
{
    return r > RATE_TOL * f->t->link_cap_Bps[l];
}

double
bbs_net_fabric_backed_Bps(const bbs_net_fabric *f, int l)
{
    double b = f->lk[l].backed;
    return f->lk[l].nbacked > 0 && waits_behind(f, l, b) ? b : 0;
}

/* path_index: where link l is on flow x's path (-1: not on it). */
static int
path_index(const flow *x, int l)
{
    for (int j = 0; j < x->len; j++)
        if (x->path[j] == l)
            return j;
    return -1;
}

/* lower_left: the bytes the flows on link l below channel vc (with a
 * rate) have left to send, now; *use: their rate; *gaps (may be NULL):
 * the number of lower channels they use when every one of them has a
 * shared next link and l's channel window is known (strict priority's
 * gaps, maxmin.h), else 0. */
static double
lower_left(const bbs_net_fabric *f, int l, int vc, double now, double *use, int *gaps)
{
    const link *L = &f->lk[l];
    double left = 0;
    unsigned chans = 0;
    int solid = !(bbs_net_link_vc_bytes(f->t, l) > 0);

    *use = 0;
    for (int k = 0; k < L->n; k++) {
        const flow *g = &f->fl[L->fl[k]];
        int j = path_index(g, l);
        if (j >= 0 && g->vc[j] < vc && g->rate > 0) {
            *use += g->rate;
            left += fmax(g->rem - g->rate * (now - g->t_last), 0);
            chans |= 1u << g->vc[j];
            solid |= !next_shared(f, g, j);
        }
    }
    if (gaps) {
        *gaps = 0;
        for (unsigned b = solid ? 0 : chans; b; b &= b - 1)
            ++*gaps;
    }
    return left;
}

/* lower_clear_s: with strict priority, link l on channel vc: when the
 * lower channels fill l (their rates reach its capacity, to RATE_TOL),
 * the time l needs to send what their flows have left, at its capacity
 * (the link serves them first and stays busy with them until they are
 * done, with no new ones), at most their m windows at its capacity when
 * they leave gaps (lower_left; *gap, may be NULL, says so); else -1
 * (they leave room: nothing to wait for). */
static double
lower_clear_s(const bbs_net_fabric *f, int l, int vc, double now, int *gap)
{
    double use, cap = f->t->link_cap_Bps[l], w;
    int m;
    double left = lower_left(f, l, vc, now, &use, &m);

    if (gap)
        *gap = 0;
    if (use < cap * (1 - RATE_TOL))
        return -1;
    w = left / cap;
    if (m > 0) {
        w = fmin(w, bbs_net_mm_gap_wait_s(cap, bbs_net_link_vc_bytes(f->t, l), m));
        if (gap)
            *gap = 1;
    }
    return w;
}

int
bbs_net_fabric_lower_gaps(const bbs_net_fabric *f, int l, int vc)
{
    int gap;

    return f->vc_priority && vc > 0 && lower_clear_s(f, l, vc, bbs_engine_now(f->e), &gap) >= 0
           && gap;
}

double
bbs_net_fabric_starve_gap_s(const bbs_net_fabric *f, int l, int vc, int *gap)
{
    double now = bbs_engine_now(f->e);
    int g = 0;
    double t = f->vc_priority && vc > 0 ? lower_clear_s(f, l, vc, now, &g) : -1;

    /* a wait the clock cannot add to now is the rounding of a flow that
     * ends within a unit of it (its bytes less its rate times the time):
     * none, else whoever waits would look again at the same instant for
     * ever */
    if (!(t > 0 && isfinite(t) && now + t > now))
        t = 0;
    if (gap)
        *gap = t > 0 && g;
    return t;
}

double
bbs_net_fabric_starve_wait_s(const bbs_net_fabric *f, int l, int vc)
{
    return bbs_net_fabric_starve_gap_s(f, l, vc, NULL);
}

double
bbs_net_fabric_hol_wait_s(const bbs_net_fabric *f, int l, int vc, double vc_bytes)
{
    const link *L = &f->lk[l];
    double now = bbs_engine_now(f->e), held = 0, clear = 0;
    int any = 0, bounded = 1;

    if (!(vc_bytes > 0))
        return 0;
    if (!f->vc_priority) {
        held = bbs_net_fabric_backed_Bps(f, l);
        return held > 0 ? vc_bytes / held : 0;
    }
    for (int k = 0; k < L->n; k++) {
        const flow *x = &f->fl[L->fl[k]];
        int j = path_index(x, l);
        double t;
        if (j < 0 || j >= x->bk || x->vc[j] != vc)
            continue; /* not held beyond l, or in another channel's buffer */
        any = 1;
        held += x->rate;
        /* starved where it is held: it drains once the lower channels
         * there are gone */
        t = lower_clear_s(f, x->path[x->bk], x->vc[x->bk], now, NULL);
        if (t < 0)
            bounded = 0;
        else
            clear = fmax(clear, t);
    }
    if (!any)
        return 0;
    double w = waits_behind(f, l, held) ? vc_bytes / held : INFINITY;
    if (bounded)
        w = fmin(w, clear);
    return isfinite(w) ? w : 0;
}

double
bbs_net_md1_wait_s(double cap_Bps, double pkt_bytes, double buf_bytes, const double *class_Bps,
                   int nclass, int c)
{
    double rho = 0, lo = 0, hi, S = pkt_bytes / cap_Bps, most;

    for (int q = 0; q < nclass; q++) {
        rho += class_Bps[q] / cap_Bps;
        if (q < c)
            lo += class_Bps[q] / cap_Bps;
    }
    hi = lo + class_Bps[c] / cap_Bps;
    if (!(rho > 0))
        return 0;
    most = buf_bytes / (cap_Bps * (lo < 1 ? 1 - lo : 1));
    return hi < 1 ? fmin(rho * S / (2 * (1 - lo) * (1 - hi)), most) : most;
}

double
bbs_net_fabric_queue_wait_s(const bbs_net_fabric *f, int l, int vc, double pkt_bytes,
                            double buf_bytes)
{
    const link *L = &f->lk[l];
    double cap = f->t->link_cap_Bps[l], buf = fmax(buf_bytes, pkt_bytes);

    double w, use;

    if (!(pkt_bytes > 0))
        return 0;
    if (!f->vc_priority)
        return bbs_net_md1_wait_s(cap, pkt_bytes, buf, &L->rate, 1, 0);
    w = bbs_net_md1_wait_s(cap, pkt_bytes, buf, L->crate, BBS_NET_MM_CLASSES, vc);
    /* the buffer ahead goes at what the lower channels leave, but their
     * flows end: at most until the link has sent what they have left,
     * then the buffer at the whole link */
    if (vc > 0 && w > buf / cap) {
        int m;
        double clear = lower_left(f, l, vc, bbs_engine_now(f->e), &use, &m) / cap;
        if (m > 0)
            clear = fmin(clear, bbs_net_mm_gap_wait_s(cap, bbs_net_link_vc_bytes(f->t, l), m));
        w = fmin(w, clear + buf / cap);
    }
    return w;
}

const int *
bbs_net_fabric_link_flows(const bbs_net_fabric *f)
{
    return f->lflows;
}

int
bbs_net_fabric_active(const bbs_net_fabric *f)
{
    return f->nactive;
}

double
bbs_net_fabric_flow_rate(const bbs_net_fabric *f, int id)
{
    return id >= 0 && id < f->nfl && f->fl[id].active ? f->fl[id].rate : 0;
}

void
bbs_net_fabric_flush(bbs_net_fabric *f, double now_s)
{
    for (int l = 0; l < f->t->nlinks; l++)
        integrate(&f->lk[l], now_s);
}

void
bbs_net_fabric_link_stat(const bbs_net_fabric *f, int l, bbs_net_link_stat *s)
{
    const link *L = &f->lk[l];

    s->bytes = L->bytes;
    s->saturated_s = L->sat_s;
    s->rate_Bps = L->rate;
    s->saturated = L->sat;
    s->flows = L->n;
}

void
bbs_net_fabric_cost_get(const bbs_net_fabric *f, bbs_net_fabric_cost *c)
{
    *c = f->cost;
}

/* gap_applies: whether the channels up to c on link l leave the channels
 * above a share (maxmin.h's gaps): l's window is known, it carries a
 * channel above c, and every flow of the channels up to c on it has a
 * shared next link. */
static int
gap_applies(const bbs_net_fabric *f, int l, int c)
{
    const link *L = &f->lk[l];
    int above = 0;

    if (!(bbs_net_link_vc_bytes(f->t, l) > 0))
        return 0;
    for (int k = 0; k < L->n; k++) {
        const flow *g = &f->fl[L->fl[k]];
        int j = path_index(g, l);
        if (g->vc[j] > c)
            above = 1;
        else if (!next_shared(f, g, j))
            return 0;
    }
    return above;
}

int
bbs_net_fabric_check(const bbs_net_fabric *f, double tol, char *err)
{
    const bbs_net_topo *t = f->t;

    for (int l = 0; l < t->nlinks; l++) {
        const link *L = &f->lk[l];
        double sum = 0;
        for (int k = 0; k < L->n; k++)
            sum += f->fl[L->fl[k]].rate;
        if (sum > t->link_cap_Bps[l] * (1 + tol))
            return bb_seterr(err, BB_EDATA, "link %d carries %.6g B/s > capacity %.6g B/s", l,
                             sum, t->link_cap_Bps[l]);
        if (fabs(sum - L->rate) > tol * t->link_cap_Bps[l])
            return bb_seterr(err, BB_EDATA, "link %d: aggregate %.6g B/s != sum of flows %.6g",
                             l, L->rate, sum);
    }
    for (int i = 0; i < f->nfl; i++) {
        const flow *x = &f->fl[i];
        int ok = 0;
        if (!x->active)
            continue;
        for (int j = 0; j < x->len && !ok; j++) {
            int l = x->path[j];
            const link *L = &f->lk[l];
            double sum = 0, mx = 0;
            int gaps = f->vc_priority && gap_applies(f, l, x->vc[j]);
            for (int k = 0; k < L->n; k++) {
                const flow *g = &f->fl[L->fl[k]];
                int gv = f->vc_priority ? g->vc[path_index(g, l)] : 0;
                sum += g->rate;
                /* with priority, x shares with its channel and the later
                 * ones; with gaps the later ones have their share */
                if (g->rate > mx && (!f->vc_priority || (gaps ? gv == x->vc[j] : gv >= x->vc[j])))
                    mx = g->rate;
            }
            if (sum >= t->link_cap_Bps[l] * (1 - tol) && x->rate >= mx * (1 - tol))
                ok = 1;
        }
        if (!ok)
            return bb_seterr(err, BB_EDATA,
                             "flow %d (%d -> %d, %.6g B/s) has no bottleneck link: not max-min "
                             "fair", i, x->src, x->dst, x->rate);
    }
    return BB_OK;
}

void
bbs_net_fabric_set_exact_limit(bbs_net_fabric *f, int limit)
{
    f->exact_limit = limit;
}

void
bbs_net_fabric_set_vc_priority(bbs_net_fabric *f, int on, int scheme)
{
    f->vc_priority = on != 0;
    f->vc_scheme = scheme;
}
