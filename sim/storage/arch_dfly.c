/* arch_dfly.c: the dragonfly behind the architectures' network interface
 * (arch_dfly.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>

#include "arch_dfly.h"
#include "bb_error.h"
#include "network/fabric.h"
#include "rng.h"

typedef struct {
    bbs_arch_dfly_params par;
    bbs_engine *e;
    bbs_net_fabric *fab;
    gsl_rng *rng;
    int kind;                   /* delivery after the path's delays */
    int *client_term, *node_term;
    bbs_arch_xfer_pool pool;
    bbs_arch_net_deliver_fn deliver;
    void *ctx;
} dfly;

static int
dfly_arrive(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    dfly *d = ctx;
    bbs_arch_xfer x = bbs_arch_xfer_take(&d->pool, (int)ev->entity);

    (void)e;
    return d->deliver(d->ctx, x.client, x.node, x.bytes, x.tag);
}

/* The last byte left the fabric: it arrives after the path's delays. */
static int
dfly_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    dfly *d = ctx;

    return bbs_engine_schedule(e, info->t_end_s + info->delay_s, d->kind, 0,
                               (uint64_t)info->tag, 0, NULL, NULL);
}

static void
dfly_close(void *impl)
{
    dfly *d = impl;

    if (!d)
        return;
    bbs_net_fabric_free(d->fab);
    gsl_rng_free(d->rng);
    bbs_arch_xfer_pool_free(&d->pool);
    free(d->client_term);
    free(d->node_term);
    free(d);
}

static int
dfly_open(void **impl, const void *params, bbs_engine *e, int n_clients, int n_nodes,
          uint64_t seed, uint64_t unit, bbs_arch_net_deliver_fn deliver, void *ctx, char *err)
{
    const bbs_arch_dfly_params *par = params;
    const bbs_net_topo *t = par->topo;
    dfly *d;
    int nbb = 0, rc;

    *impl = NULL;
    if (n_clients > t->ncompute)
        return bb_seterr(err, BB_EINVAL, "%d clients but the topology has %d compute "
                         "terminals", n_clients, t->ncompute);
    if (!(d = calloc(1, sizeof *d)))
        return bb_seterr(err, BB_ENOMEM, "out of memory (dragonfly network)");
    d->par = *par;
    d->e = e;
    d->deliver = deliver;
    d->ctx = ctx;
    d->client_term = malloc((size_t)n_clients * sizeof *d->client_term);
    d->node_term = malloc((size_t)n_nodes * sizeof *d->node_term);
    d->rng = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_NETWORK, 0));
    if (!d->client_term || !d->node_term || !d->rng) {
        dfly_close(d);
        return bb_seterr(err, BB_ENOMEM, "out of memory (dragonfly network)");
    }
    for (int i = 0; i < n_clients; i++)
        d->client_term[i] = t->compute_nodes[i];
    for (int n = 0; n < t->nodes && nbb < n_nodes; n++)
        if (t->node_kind[n] & BBS_NET_NODE_BB)
            d->node_term[nbb++] = n;
    if (nbb < n_nodes) {
        dfly_close(d);
        return bb_seterr(err, BB_EINVAL, "%d buffer nodes but the topology has %d "
                         "burst-buffer terminals (bb_per_group %d)", n_nodes, nbb,
                         t->par.bb_per_group);
    }
    if ((rc = bbs_engine_register(e, dfly_arrive, d, &d->kind)) != BB_OK
        || (rc = bbs_net_fabric_new(&d->fab, t, e, dfly_done, d, err)) != BB_OK) {
        dfly_close(d);
        return rc == BB_EINVAL || rc == BB_ENOMEM ? bb_seterr(err, rc, "cannot set up the "
                                                              "dragonfly network") : rc;
    }
    *impl = d;
    return BB_OK;
}

static int
dfly_start(void *impl, int client, int node, double bytes, int64_t tag, char *err)
{
    dfly *d = impl;
    bbs_arch_xfer x = { client, node, bytes, tag };
    int id = bbs_arch_xfer_put(&d->pool, &x);

    if (id < 0)
        return bb_seterr(err, BB_ENOMEM, "out of memory (dragonfly network)");
    /* a client on its buffer node's terminal (CODES' LP mapping): no
     * network, the bytes are there at once */
    if (d->client_term[client] == d->node_term[node])
        return bbs_engine_schedule(d->e, bbs_engine_now(d->e), d->kind, 0, (uint64_t)id, 0,
                                   NULL, NULL);
    return bbs_net_fabric_route_start(d->fab, &d->par.route, d->rng, d->client_term[client],
                                      d->node_term[node], bytes, id, NULL, err);
}

const bbs_arch_net_class bbs_arch_net_dragonfly = {
    "dragonfly", dfly_open, dfly_start, dfly_close
};
