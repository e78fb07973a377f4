/* wl_exec_test.h: helpers shared by the executor's test programs
 * (t_wl_exec, t_wl_exec_net): a small dragonfly, placements by list, runs
 * with chosen network-interface settings.  Include after cmocka.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_TESTS_WL_EXEC_TEST_H
#define BBSIZE_TESTS_WL_EXEC_TEST_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "network/place.h"
#include "network/route.h"
#include "network/topo.h"
#include "workload/exec.h"

/* graph500-72 (9 groups x 4 routers x 2 nodes, 5e9 B/s links) with one
 * burst-buffer node per group. */
static inline bbs_net_topo *
small_topo(int bb)
{
    bbs_net_params par;
    bbs_net_topo *t = NULL;
    char err[BB_ERRLEN];
    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    par.bb_per_group = bb;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    return t;
}

/* Place ranks of every job on the given nodes (list, in order). */
static inline void
place_list(bbs_net_placement *pl, int njobs, const int *ranks, const int *nodes)
{
    int tot = 0;
    pl->njobs = njobs;
    pl->job_off = malloc((size_t)(njobs + 1) * sizeof(int));
    pl->job_off[0] = 0;
    for (int j = 0; j < njobs; j++)
        pl->job_off[j + 1] = (tot += ranks[j]);
    pl->node = malloc((size_t)tot * sizeof(int));
    memcpy(pl->node, nodes, (size_t)tot * sizeof(int));
}

/* The default configuration on topology t and placement pl, with a
 * 1 TB buffer device of 1000 MiB/s both ways. */
static inline void
exec_config_on(bbs_exec_config *c, const bbs_net_topo *t, const bbs_net_placement *pl)
{
    bbs_exec_config_init(c);
    c->topo = t;
    c->place = pl;
    bbs_dev_params_init(&c->bb_dev, BBS_DEV_TABLE);
    c->bb_dev.capacity_bytes = 1e12;
    c->bb_dev.table.nbins = 1;
    c->bb_dev.table.read_MiBps[0] = c->bb_dev.table.write_MiBps[0] = 1000.0;
}

/* Network-interface settings of a run (run_net); run() keeps the
 * defaults. */
typedef struct {
    int fcfs;
    double small_bytes, packet_bytes;
    int adaptive;
    double route_piece_bytes;
    double send_overhead_s, copy_s_per_byte;
    int backpressure, vc_priority;
    double jitter_s;
} netif;

static inline void
run_net(bbs_wl *w, bbs_net_topo *t, bbs_net_placement *pl, bbs_exec_result *r, int want,
        char *err, const netif *ni)
{
    bbs_exec_config c;
    exec_config_on(&c, t, pl);
    if (ni) {
        c.inject_fcfs = ni->fcfs;
        c.small_bytes = ni->small_bytes;
        c.packet_bytes = ni->packet_bytes;
        if (ni->adaptive)
            c.route.kind = BBS_NET_ROUTE_ADAPTIVE;
        c.route_piece_bytes = ni->route_piece_bytes;
        c.send_overhead_s = ni->send_overhead_s;
        c.copy_s_per_byte = ni->copy_s_per_byte;
        c.backpressure = ni->backpressure;
        c.vc_priority = ni->vc_priority;
        c.jitter_s = ni->jitter_s;
        c.seed = 1;
    }
    int rc = bbs_exec_run(w, &c, r, err);
    if (rc != want)
        fail_msg("status %d, wanted %d: %s", rc, want, err);
}

static inline void
run(bbs_wl *w, bbs_net_topo *t, bbs_net_placement *pl, bbs_exec_result *r, int want,
    char *err)
{
    run_net(w, t, pl, r, want, err, NULL);
}

static inline double
path_of(const bbs_net_topo *t, int src, int dst, int *path, int *len)
{
    bbs_net_route_opts o = { BBS_NET_ROUTE_MIN, 0, 1 };
    double cap = INFINITY;

    *len = bbs_net_route(t, &o, src, dst, NULL, NULL, path, NULL);
    for (int i = 0; i < *len; i++)
        cap = fmin(cap, t->link_cap_Bps[path[i]]);
    return cap;
}

#endif
