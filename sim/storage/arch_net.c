/* arch_net.c: the simple network of the architectures and the transfer
 * pool shared by the network implementations (arch_net.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "arch_net.h"
#include "bb_error.h"
#include "grow.h"

int
bbs_arch_xfer_put(bbs_arch_xfer_pool *p, const bbs_arch_xfer *x)
{
    int id;

    if (p->nfree > 0) {
        id = p->free_ids[--p->nfree];
    } else {
        if (p->n == INT32_MAX
            || bbs_grow((void **)&p->v, sizeof *p->v, &p->capv, (size_t)p->n + 1)
            || bbs_grow((void **)&p->free_ids, sizeof *p->free_ids, &p->capf, (size_t)p->n + 1))
            return -1;
        id = p->n++;
    }
    p->v[id] = *x;
    return id;
}

bbs_arch_xfer
bbs_arch_xfer_take(bbs_arch_xfer_pool *p, int id)
{
    p->free_ids[p->nfree++] = id;
    return p->v[id];
}

void
bbs_arch_xfer_pool_free(bbs_arch_xfer_pool *p)
{
    free(p->v);
    free(p->free_ids);
    p->v = NULL;
    p->free_ids = NULL;
    p->n = p->nfree = 0;
    p->capv = p->capf = 0;
}

/* ---- the simple network ---------------------------------------------------- */

typedef struct {
    bbs_arch_simple_net par;
    bbs_engine *e;
    int kind, n_nodes;
    double *link_free;          /* per node: its ingress link is busy until then */
    bbs_arch_xfer_pool pool;
    bbs_arch_net_deliver_fn deliver;
    void *ctx;
} simple;

static int
simple_arrive(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    simple *s = ctx;
    bbs_arch_xfer x = bbs_arch_xfer_take(&s->pool, (int)ev->entity);

    (void)e;
    return s->deliver(s->ctx, x.client, x.node, x.bytes, x.tag);
}

static int
simple_open(void **impl, const void *params, bbs_engine *e, int n_clients, int n_nodes,
            uint64_t seed, uint64_t unit, bbs_arch_net_deliver_fn deliver, void *ctx,
            char *err)
{
    const bbs_arch_simple_net *par = params;
    simple *s;
    int rc;

    (void)n_clients;
    (void)seed;
    (void)unit;
    *impl = NULL;
    if (!(par->latency_s >= 0) || !isfinite(par->latency_s))
        return bb_seterr(err, BB_EINVAL, "network latency %g s is not >= 0", par->latency_s);
    if (!(par->bw_Bps > 0) || !isfinite(par->bw_Bps))
        return bb_seterr(err, BB_EINVAL, "network bandwidth %g B/s is not > 0", par->bw_Bps);
    s = calloc(1, sizeof *s);
    if (!s || !(s->link_free = calloc((size_t)n_nodes, sizeof *s->link_free))) {
        free(s);
        return bb_seterr(err, BB_ENOMEM, "out of memory (simple network)");
    }
    s->par = *par;
    s->e = e;
    s->n_nodes = n_nodes;
    s->deliver = deliver;
    s->ctx = ctx;
    if ((rc = bbs_engine_register(e, simple_arrive, s, &s->kind)) != BB_OK) {
        free(s->link_free);
        free(s);
        return bb_seterr(err, rc, "cannot register the simple network's event");
    }
    *impl = s;
    return BB_OK;
}

static int
simple_start(void *impl, int client, int node, double bytes, int64_t tag, char *err)
{
    simple *s = impl;
    bbs_arch_xfer x = { client, node, bytes, tag };
    double now = bbs_engine_now(s->e),
           t = fmax(now + s->par.latency_s, s->link_free[node]) + bytes / s->par.bw_Bps;
    int id = bbs_arch_xfer_put(&s->pool, &x);

    if (id < 0)
        return bb_seterr(err, BB_ENOMEM, "out of memory (simple network)");
    s->link_free[node] = t;
    return bbs_engine_schedule(s->e, t, s->kind, 0, (uint64_t)id, 0, NULL, NULL);
}

static void
simple_close(void *impl)
{
    simple *s = impl;

    if (!s)
        return;
    bbs_arch_xfer_pool_free(&s->pool);
    free(s->link_free);
    free(s);
}

const bbs_arch_net_class bbs_arch_net_simple = {
    "simple", simple_open, simple_start, simple_close
};
