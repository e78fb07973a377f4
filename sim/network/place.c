/* place.c: contiguous, random and file-given job placement.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "place.h"

int
bbs_net_place_parse(const char *name, int *kind, char *err)
{
    if (!strcmp(name, "cont") || !strcmp(name, "contiguous"))
        *kind = BBS_NET_PLACE_CONT;
    else if (!strcmp(name, "rand") || !strcmp(name, "random-node") || !strcmp(name, "random"))
        *kind = BBS_NET_PLACE_RAND_NODE;
    else if (!strcmp(name, "random-router"))
        *kind = BBS_NET_PLACE_RAND_ROUTER;
    else if (!strcmp(name, "random-group"))
        *kind = BBS_NET_PLACE_RAND_GROUP;
    else
        return bb_seterr(err, BB_EINVAL, "unknown placement '%s' (expected cont, random-node, "
                         "random-router or random-group)", name);
    return BB_OK;
}

const char *
bbs_net_place_name(int kind)
{
    static const char *n[] = { "cont", "random-node", "random-router", "random-group" };
    return kind >= 0 && kind <= 3 ? n[kind] : "?";
}

void
bbs_net_placement_free(bbs_net_placement *pl)
{
    if (!pl)
        return;
    free(pl->job_off);
    free(pl->node);
    memset(pl, 0, sizeof *pl);
}

/* Fisher-Yates with one uniform_int per step (n - 1 draws). */
static void
shuffle(int *v, int n, gsl_rng *r)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gsl_rng_uniform_int(r, (unsigned long)i + 1);
        int tmp = v[i];
        v[i] = v[j];
        v[j] = tmp;
    }
}

int
bbs_net_place(const bbs_net_topo *t, int kind, const int *ranks, int njobs, gsl_rng *r,
              bbs_net_placement *pl, char *err)
{
    long total = 0;
    int *order = NULL, *unit = NULL, nunit, per, k = 0;

    memset(pl, 0, sizeof *pl);
    if (njobs < 1)
        return bb_seterr(err, BB_EINVAL, "no job to place");
    for (int j = 0; j < njobs; j++) {
        if (ranks[j] < 1)
            return bb_seterr(err, BB_EINVAL, "job %d has %d ranks (need >= 1)", j + 1, ranks[j]);
        total += ranks[j];
    }
    if (total > t->ncompute)
        return bb_seterr(err, BB_EINVAL,
                         "placement asks for %ld nodes but the topology has %d compute nodes",
                         total, t->ncompute);
    pl->job_off = malloc((size_t)(njobs + 1) * sizeof(int));
    pl->node = malloc((size_t)(total ? total : 1) * sizeof(int));
    order = malloc((size_t)t->ncompute * sizeof(int));
    if (!pl->job_off || !pl->node || !order)
        goto nomem;
    switch (kind) {
    case BBS_NET_PLACE_CONT:
        memcpy(order, t->compute_nodes, (size_t)t->ncompute * sizeof(int));
        break;
    case BBS_NET_PLACE_RAND_NODE:
        memcpy(order, t->compute_nodes, (size_t)t->ncompute * sizeof(int));
        shuffle(order, t->ncompute, r);
        break;
    case BBS_NET_PLACE_RAND_ROUTER:
    case BBS_NET_PLACE_RAND_GROUP:
        per = kind == BBS_NET_PLACE_RAND_ROUTER ? t->par.p : t->par.p * t->par.a;
        nunit = t->nodes / per;
        unit = malloc((size_t)nunit * sizeof(int));
        if (!unit)
            goto nomem;
        for (int u = 0; u < nunit; u++)
            unit[u] = u;
        shuffle(unit, nunit, r);
        for (int u = 0; u < nunit; u++)
            for (int n = unit[u] * per; n < (unit[u] + 1) * per; n++)
                if (t->node_kind[n] & BBS_NET_NODE_COMPUTE)
                    order[k++] = n;
        break;
    default:
        free(order);
        bbs_net_placement_free(pl);
        return bb_seterr(err, BB_EINVAL, "unknown placement policy %d", kind);
    }
    pl->njobs = njobs;
    pl->job_off[0] = 0;
    for (int j = 0; j < njobs; j++)
        pl->job_off[j + 1] = pl->job_off[j] + ranks[j];
    memcpy(pl->node, order, (size_t)total * sizeof(int));
    free(order);
    free(unit);
    return BB_OK;
nomem:
    free(order);
    free(unit);
    bbs_net_placement_free(pl);
    return bb_seterr(err, BB_ENOMEM, "out of memory placing %ld ranks", total);
}
