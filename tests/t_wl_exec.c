/* t_wl_exec.c: the executor of operation streams against hand-worked
 * cases: one message, collective byte counts, MILC's closed form,
 * dependencies, deadlock and disagreeing collectives.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bb_error.h"
#include "network/place.h"
#include "rng.h"
#include "network/route.h"
#include "network/topo.h"
#include "workload/exec.h"
#include "workload/models.h"
#include "job_keys.h"

/* graph500-72 (9 groups x 4 routers x 2 nodes, 5e9 B/s links) with one
 * burst-buffer node per group. */
static bbs_net_topo *
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
static void
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

static void
run_net(bbs_wl *w, bbs_net_topo *t, bbs_net_placement *pl, bbs_exec_result *r, int want,
        char *err, const netif *ni)
{
    bbs_exec_config c;
    bbs_exec_config_init(&c);
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
    c.topo = t;
    c.place = pl;
    bbs_dev_params_init(&c.bb_dev, BBS_DEV_TABLE);
    c.bb_dev.capacity_bytes = 1e12;
    c.bb_dev.table.nbins = 1;
    c.bb_dev.table.read_MiBps[0] = c.bb_dev.table.write_MiBps[0] = 1000.0;
    int rc = bbs_exec_run(w, &c, r, err);
    if (rc != want)
        fail_msg("status %d, wanted %d: %s", rc, want, err);
}

static void
run(bbs_wl *w, bbs_net_topo *t, bbs_net_placement *pl, bbs_exec_result *r, int want,
    char *err)
{
    run_net(w, t, pl, r, want, err, NULL);
}

static double
path_of(const bbs_net_topo *t, int src, int dst, int *path, int *len)
{
    bbs_net_route_opts o = { BBS_NET_ROUTE_MIN, 0, 1 };
    double cap = INFINITY;

    *len = bbs_net_route(t, &o, src, dst, NULL, NULL, path, NULL);
    for (int i = 0; i < *len; i++)
        cap = fmin(cap, t->link_cap_Bps[path[i]]);
    return cap;
}

/* One node sends two messages of B = 1e6 bytes at once (non-blocking) to
 * two nodes of other groups; every link carries 5e9 B/s, so the node's
 * injection link is the bottleneck.  First come, first served: the first
 * leaves at full rate and arrives after B/c + d1, the second waits for it
 * and arrives after 2B/c + d2.  Concurrent flows share the injection
 * link and both arrive after 2B/c + d (d the path's delays).  The mean
 * latency tells the two apart by B/2c. */
static void
test_fcfs_injection(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    int ranks[1] = { 3 }, nodes[3] = { 0, 71, 40 }, p1[BBS_NET_MAX_PATH], p2[BBS_NET_MAX_PATH];
    int l1, l2;
    double B = 1e6, c = fmin(path_of(t, 0, 71, p1, &l1), path_of(t, 0, 40, p2, &l2));
    double d1 = bbs_net_path_delay_s(t, p1, l1), d2 = bbs_net_path_delay_s(t, p2, l2);

    /* v = 2: FCFS after the on-node delays (MFNetSim's client), which the
     * two sends wait out side by side: both latencies grow by o + k B.
     * v = 3: FCFS with a send jitter J (1 ms, to see it): the two sends of
     * one instant share one draw, U J (U the first uniform of stream (seed
     * 1, unit 0, NETWORK 2)), and keep their program order: both
     * latencies grow by U J */
    for (int v = 0; v <= 3; v++) {
        bbs_wl *w;
        int job, fcfs = v > 0;
        bbs_net_placement pl;
        bbs_exec_result r;
        double o = v == 2 ? 3.51e-6 : 0, k = v == 2 ? 0.55e-9 : 0;
        netif ni = { fcfs, 0, 4096, 0, 0, o, k, 0, 0, 0 };
        double want_mean = fcfs ? (B / c + d1 + 2 * B / c + d2) / 2 : (4 * B / c + d1 + d2) / 2;
        want_mean += o + k * B;
        if (v == 3) {
            gsl_rng *g = bbs_rng_stream_new(NULL, 1, 0, BBS_ENTITY(BBS_ECLASS_NETWORK, 2));
            want_mean += 1e-3 * gsl_rng_uniform(g);
            gsl_rng_free(g);
            ni.jitter_s = 1e-3;
        }

        assert_int_equal(bbs_wl_new(&w, err), BB_OK);
        assert_int_equal(bbs_wl_add_job(w, "fan", 3, 0, &job, err), BB_OK);
        assert_int_equal(bbs_wl_send(w, job, 0, 1, B, 1, 1, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_send(w, job, 0, 2, B, 2, 1, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_waitall(w, job, 0, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, job, 1, 0, 1, 0, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, job, 2, 0, 2, 0, NULL, err), BB_OK);
        place_list(&pl, 1, ranks, nodes);
        run_net(w, t, &pl, &r, BB_OK, err, &ni);
        assert_int_equal(r.jobs[0].messages, 2);
        if (fabs(r.jobs[0].lat_mean_s - want_mean) > 1e-9 * want_mean)
            fail_msg("variant %d: mean latency %.12g s, want %.12g s", v, r.jobs[0].lat_mean_s,
                     want_mean);
        bbs_exec_result_free(&r);
        bbs_net_placement_free(&pl);
        bbs_wl_free(w);
    }
    bbs_net_topo_free(t);
}

/* Per-rank mean latency, as MFNetSim's client reports it (each rank's
 * latencies of the messages it sent over their number), against the mean
 * over messages.  One flow at a time: rank 0 sends B to rank 1 and then
 * 2B to rank 2 (blocking), rank 1 sends 4B to rank 2 a second after its
 * receive; every latency is bytes / c + the path's delays.  Rank 2 sends
 * nothing and is not in the per-rank mean. */
static void
test_rank_latency(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    int ranks[1] = { 3 }, nodes[3] = { 0, 71, 40 }, p[BBS_NET_MAX_PATH], len, job;
    double B = 1e6, L[3];
    const int pair[3][2] = { { 0, 71 }, { 0, 40 }, { 71, 40 } };
    bbs_wl *w;
    bbs_net_placement pl;
    bbs_exec_result r;

    for (int i = 0; i < 3; i++) {
        double c = path_of(t, pair[i][0], pair[i][1], p, &len);
        L[i] = (1 << i) * B / c + bbs_net_path_delay_s(t, p, len);
    }
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "chain", 3, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 1, B, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 2, 2 * B, 2, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 1, 0, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_compute(w, job, 1, 1.0, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 1, 2, 4 * B, 3, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 2, 0, 2, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 2, 1, 3, 0, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_int_equal(r.jobs[0].messages, 3);
    const double got[3] = { r.jobs[0].lat_mean_s, r.jobs[0].lat_rank_mean_s,
                            r.jobs[0].lat_rank_max_s };
    const double want[3] = { (L[0] + L[1] + L[2]) / 3, ((L[0] + L[1]) / 2 + L[2]) / 2, L[2] };
    for (int i = 0; i < 3; i++)
        if (!(fabs(got[i] - want[i]) <= 1e-12))
            fail_msg("statistic %d: %.12g s, want %.12g s", i, got[i], want[i]);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* the long flow 0 -> 71 and the small message 1 -> 70 of the queueing
 * tests: they cross between groups side by side */
static const int across[4] = { 0, 71, 1, 70 };

/* small_behind_big: the latency of a small message (1000 B, node
 * nodes[2] to nodes[3], sent at 0.1 ms) while a long one (1e8 B, nodes[0]
 * to nodes[1]) crosses the network, with network interface ni. */
static double
small_behind_big(bbs_net_topo *t, const netif *ni, const int *nodes, int nbig)
{
    char err[BB_ERRLEN];
    int ranks[2] = { 2, 2 }, big, small;
    bbs_wl *w;
    bbs_net_placement pl;
    bbs_exec_result r;
    double lat;

    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "big", 2, 0, &big, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "small", 2, 0, &small, err), BB_OK);
    for (int k = 0; k < nbig; k++) {
        assert_int_equal(bbs_wl_send(w, big, 0, 1, 1e8, 1, 0, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, big, 1, 0, 1, 0, NULL, err), BB_OK);
    }
    assert_int_equal(bbs_wl_compute(w, small, 0, 1e-4, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, small, 0, 1, 1000, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, small, 1, 0, 1, 0, NULL, err), BB_OK);
    place_list(&pl, 2, ranks, nodes);
    run_net(w, t, &pl, &r, BB_OK, err, ni);
    lat = r.jobs[1].lat_max_s;
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    return lat;
}

/* Strict channel priority: a small message (1000 B, not a flow) on
 * channel 3 of a local link (arrived in its destination group) that a
 * long flow (1e8 B, alone, 5e9 B/s on every link) fills on channel 0
 * (still in its source group) waits until the link has sent what the flow
 * has left: sent at 0.1 ms, (1e8 - 5e9 x 1e-4) / 5e9 = 19.9 ms more than
 * without priority.  The two share that link only; the pair is found by
 * search on the 72-node system.  With a second 1e8-B message after the
 * first, which starts at 20 ms, the small message looks again at
 * 0.1 ms + 1000 / 5e9 + 19.9 ms = 20.0002 ms, finds the link full on
 * channel 0 again and waits what the second has left, 1e8 / 5e9 -
 * 0.0002 ms: 39.8998 ms more in all (the output port always sends from
 * its lowest non-empty channel). */
static void
test_starved_small(void **state)
{
    (void)state;
    bbs_net_topo *t = small_topo(0);
    bbs_net_route_opts o = { BBS_NET_ROUTE_MIN, 0, 1 };
    int pick[4] = { -1, -1, -1, -1 };
    double lat[2];

    for (int a = 0; a < 72 && pick[0] < 0; a++)
        for (int b = 0; b < 72 && pick[0] < 0; b++)
            for (int c = 0; c < 72 && pick[0] < 0 && a != b; c++)
                for (int d = 0; d < 72 && pick[0] < 0 && c != d; d++) {
                    int pa[BBS_NET_MAX_PATH], pc[BBS_NET_MAX_PATH], la, lc, shared = 0, ok = 0;
                    unsigned char va[BBS_NET_MAX_PATH], vcc[BBS_NET_MAX_PATH];
                    if (a == c || a == d || b == c || b == d)
                        continue;
                    la = bbs_net_route(t, &o, a, b, NULL, NULL, pa, NULL);
                    lc = bbs_net_route(t, &o, c, d, NULL, NULL, pc, NULL);
                    bbs_net_path_vc(t, pa, la, BBS_NET_VC_GROUP, va);
                    bbs_net_path_vc(t, pc, lc, BBS_NET_VC_GROUP, vcc);
                    for (int i = 0; i < la; i++)
                        for (int j = 0; j < lc; j++)
                            if (pa[i] == pc[j]) {
                                shared++;
                                ok = t->link_kind[pa[i]] == BBS_NET_LINK_LOCAL && va[i] == 0
                                     && vcc[j] == 3;
                            }
                    if (shared == 1 && ok)
                        pick[0] = a, pick[1] = b, pick[2] = c, pick[3] = d;
                }
    assert_true(pick[0] >= 0);
    for (int nbig = 1; nbig <= 2; nbig++) {
        double s1 = (1e8 - 5e9 * 1e-4) / 5e9, tr = 1e-4 + 1000 / 5e9 + s1,
               want = nbig == 1 ? s1 : s1 + (1e8 - 5e9 * (tr - 0.02)) / 5e9;
        for (int prio = 0; prio < 2; prio++) {
            netif ni = { 1, 4096, 4096, 0, 0, 0, 0, 1, prio, 0 };
            lat[prio] = small_behind_big(t, &ni, pick, nbig);
        }
        if (fabs(lat[1] - lat[0] - want) > 1e-9)
            fail_msg("%d big: priority adds %.12g s, want %.12g s", nbig, lat[1] - lat[0], want);
    }
    bbs_net_topo_free(t);
}

/* A small message (1000 B, no flow) crosses the router-to-router links a
 * long flow fills (utilisation 1, one flow each): at each such link it
 * waits one packet time (4096 B / 5e9 B/s), its channel's buffer at the
 * port (graph500-72 gives no buffer sizes: a packet), which is also the
 * earlier model's bound of a packet per flow; on the others nothing.
 * Without a packet size it waits nothing. */
static void
test_queueing_delay(void **state)
{
    (void)state;
    bbs_net_topo *t = small_topo(0);
    int pb[BBS_NET_MAX_PATH], ps[BBS_NET_MAX_PATH], lb, ls, shared = 0;
    double cs = path_of(t, 1, 70, ps, &ls), qd = 0;

    (void)path_of(t, 0, 71, pb, &lb);
    for (int i = 0; i < ls; i++)
        for (int k = 0; k < lb; k++)
            if (ps[i] == pb[k]) {
                shared++;
                qd += 4096 / t->link_cap_Bps[ps[i]];
            }
    assert_true(shared >= 1);
    for (int pk = 0; pk <= 1; pk++) {
        netif ni = { 1, 4096, pk ? 4096 : 0, 0, 0, 0, 0, 0, 0, 0 };
        double want = 1000 / cs + bbs_net_path_delay_s(t, ps, ls) + (pk ? qd : 0);
        double lat = small_behind_big(t, &ni, across, 1);

        if (fabs(lat - want) > 1e-9 * want)
            fail_msg("packet %d: latency %.12g s, want %.12g s (%d shared links)", pk, lat,
                     want, shared);
    }
    bbs_net_topo_free(t);
}

/* The M/D/1 wait below saturation, by hand.  Node 0 sends two long
 * messages (1e8 B) at once, without FCFS injection, to node 71 and to a
 * node whose path shares only node 0's injection link with the first:
 * each runs at half of it, 2.5e9 B/s, so the first's router links are at
 * utilisation 0.5.  A small message (1000 B, no flow) from node 1 to node
 * 70 crosses them: at each it waits rho S / (2 (1 - rho)) = S / 2, S =
 * 4096 B / 5e9 B/s, in both queueing models (below a packet per flow and
 * below a buffer). */
static void
test_queueing_half_load(void **state)
{
    (void)state;
    bbs_net_topo *t = small_topo(0);
    int pa[BBS_NET_MAX_PATH], pb[BBS_NET_MAX_PATH], ps[BBS_NET_MAX_PATH], la, lb, ls;
    int other = -1, shared = 0;
    double cs = path_of(t, 1, 70, ps, &ls), qd = 0;
    char err[BB_ERRLEN];

    (void)path_of(t, 0, 71, pa, &la);
    for (int n = 2; n < 72 && other < 0; n++) {
        int common = 0;
        if (n == 70 || n == 71)
            continue;
        (void)path_of(t, 0, n, pb, &lb);
        for (int i = 0; i < lb; i++) {
            for (int k = 0; k < la; k++)
                common += pb[i] == pa[k];
            for (int k = 0; k < ls; k++)
                common += 2 * (pb[i] == ps[k]);
        }
        if (common == 1)
            other = n;
    }
    assert_true(other >= 0);
    for (int i = 0; i < ls; i++)
        for (int k = 0; k < la; k++)
            if (ps[i] == pa[k]) {
                shared++;
                qd += 0.5 * 4096 / t->link_cap_Bps[ps[i]];
            }
    assert_true(shared >= 1);
    for (int model = 0; model <= 1; model++) {
        int ranks[2] = { 3, 2 }, nodes[5] = { 0, 71, other, 1, 70 }, big, small;
        netif ni = { 0, 4096, 4096, 0, 0, 0, 0, 0, 0, 0 };
        double want = 1000 / cs + bbs_net_path_delay_s(t, ps, ls) + qd;
        bbs_wl *w;
        bbs_net_placement pl;
        bbs_exec_result r;
        bbs_exec_config c;

        assert_int_equal(bbs_wl_new(&w, err), BB_OK);
        assert_int_equal(bbs_wl_add_job(w, "big", 3, 0, &big, err), BB_OK);
        assert_int_equal(bbs_wl_add_job(w, "small", 2, 0, &small, err), BB_OK);
        assert_int_equal(bbs_wl_send(w, big, 0, 1, 1e8, 1, 1, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_send(w, big, 0, 2, 1e8, 2, 1, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_waitall(w, big, 0, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, big, 1, 0, 1, 0, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, big, 2, 0, 2, 0, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_compute(w, small, 0, 1e-4, err), BB_OK);
        assert_int_equal(bbs_wl_send(w, small, 0, 1, 1000, 1, 0, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, small, 1, 0, 1, 0, NULL, err), BB_OK);
        place_list(&pl, 2, ranks, nodes);
        bbs_exec_config_init(&c);
        c.inject_fcfs = ni.fcfs;
        c.small_bytes = ni.small_bytes;
        c.packet_bytes = ni.packet_bytes;
        c.queue_per_flow = model;
        c.topo = t;
        c.place = &pl;
        assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_OK);
        if (fabs(r.jobs[1].lat_max_s - want) > 1e-9 * want)
            fail_msg("model %d: latency %.12g s, want %.12g s (%d shared links)", model,
                     r.jobs[1].lat_max_s, want, shared);
        bbs_exec_result_free(&r);
        bbs_net_placement_free(&pl);
        bbs_wl_free(w);
    }
    bbs_net_topo_free(t);
}

/* seek_device: a table device of 1000 MiB/s, 20 us per access and a
 * 2.5 ms seek (MFNetSim's rule: a seek unless the access continues the
 * one before within 512 B). */
static void
seek_device(bbs_dev_params *d)
{
    bbs_dev_params_init(d, BBS_DEV_TABLE);
    d->capacity_bytes = 1e12;
    d->table.nbins = 1;
    d->table.read_MiBps[0] = d->table.write_MiBps[0] = 1000.0;
    d->table.write_seek_us[0] = 2500;
    d->table.write_overhead_us[0] = 20;
    d->table.seq_window_bytes = 512;
}

/* Back-pressure: a long flow from node 0 to 71 is held at its global link
 * (capacity lowered to 1e9 B/s), so it fills the virtual-channel buffers
 * of the links before it at 1e9 B/s.  A small message from node 1 to 70
 * (no packet queueing) waits, at each of those links it also crosses, the
 * buffer over 1e9 B/s; at the global link and after it, nothing more. */
static void
test_backpressure(void **state)
{
    (void)state;
    bbs_net_topo *t = small_topo(0);
    int pb[BBS_NET_MAX_PATH], ps[BBS_NET_MAX_PATH], lb, ls, gpos = -1;
    double hol = 0, lat[2];

    t->par.cn_vc_bytes = 32768;
    t->par.local_vc_bytes = t->par.global_vc_bytes = 16384;
    (void)path_of(t, 0, 71, pb, &lb);
    for (int k = 0; k < lb; k++)
        if (t->link_kind[pb[k]] == BBS_NET_LINK_GLOBAL)
            gpos = k;
    assert_true(gpos > 0);
    t->link_cap_Bps[pb[gpos]] = 1e9;
    (void)path_of(t, 1, 70, ps, &ls);
    for (int i = 0; i < ls; i++)
        for (int k = 0; k < gpos; k++)
            if (ps[i] == pb[k])
                hol += bbs_net_link_vc_bytes(t, ps[i]) / 1e9;
    assert_true(hol > 0);
    for (int bp = 0; bp <= 1; bp++) {
        netif ni = { 1, 4096, 0, 0, 0, 0, 0, bp, 0, 0 };
        lat[bp] = small_behind_big(t, &ni, across, 1);
    }
    if (fabs(lat[1] - lat[0] - hol) > 1e-9 * hol)
        fail_msg("back-pressure adds %.12g s, want %.12g s", lat[1] - lat[0], hol);
    bbs_net_topo_free(t);
}

/* One message of 1e6 B across groups on an idle network: transfer at the
 * path's bottleneck (5e9 B/s) plus its delays. */
static void
test_one_message(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 2 }, nodes[2] = { 0, 71 };
    bbs_net_placement pl;
    bbs_exec_result r;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "pp", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 1, 1e6, 7, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 1, 0, 7, 0, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    int path[BBS_NET_MAX_PATH];
    bbs_net_route_opts o = { BBS_NET_ROUTE_MIN, 0, 1 };
    int len = bbs_net_route(t, &o, 0, 71, NULL, NULL, path, NULL);
    double cap = INFINITY;
    for (int i = 0; i < len; i++)
        cap = fmin(cap, t->link_cap_Bps[path[i]]);
    double want = 1e6 / cap + bbs_net_path_delay_s(t, path, len);
    assert_true(fabs(r.jobs[0].elapsed_s - want) < 1e-9 * want + 1e-15);
    assert_true(fabs(r.jobs[0].lat_max_s - want) < 1e-9 * want + 1e-15);
    assert_int_equal(r.jobs[0].messages, 1);
    /* the one message's router-to-router hops */
    assert_true(r.jobs[0].hops_mean == bbs_net_path_router_hops(t, path, len));
    /* the communication time is point-to-point: the receiver's wait from 0
     * to the arrival (want), the sender's to the last byte's leaving (want
     * less the path's delays), per rank */
    assert_true(fabs(r.jobs[0].kind_mean_s[BBS_EXEC_P2P]
                     - (2 * want - bbs_net_path_delay_s(t, path, len)) / 2) < 1e-9 * want);
    assert_true(r.jobs[0].kind_mean_s[BBS_EXEC_P2P] == r.jobs[0].comm_mean_s);
    for (int q = 1; q < BBS_EXEC_NKINDS; q++)
        assert_true(r.jobs[0].kind_mean_s[q] == 0);
    assert_true(r.jobs[0].finished);
    bbs_exec_result_free(&r);
    /* store-and-forward (4 KiB packets): the first packet is received whole
     * at every hop, sum of P / c_i over the path less the slowest link's
     * (the 1 MB already pays it); an idle path adds no queueing.  With the
     * router's delay per packet (port_chunk_bytes) the links out of a
     * router carry c' = c P / (P + c d), the 1 MB goes at the slowest c',
     * and the first packet pays P / c_i on the wires, less its time P / c'
     * at the slowest link. */
    for (int per = 0; per <= 1; per++) {
        bbs_exec_config c0;
        bbs_net_topo *tp = t;
        double sf = 0, p = 4096, cp = INFINITY, wp;
        if (per) {
            bbs_net_params par = t->par;
            par.port_chunk_bytes = p;
            assert_int_equal(bbs_net_topo_build(&par, NULL, &tp, err), BB_OK);
        }
        for (int i = 0; i < len; i++) {
            double c = bbs_net_link_wire_Bps(tp, path[i]);
            int out = tp->link_kind[path[i]] != BBS_NET_LINK_INJ;
            sf += p / c;
            cp = fmin(cp, per && out ? c * p / (p + c * tp->par.router_delay_s) : c);
        }
        sf -= p / cp;
        wp = 1e6 / cp + bbs_net_path_delay_s(tp, path, len);
        assert_true(sf > 0);
        assert_true(per || wp == want);
        bbs_exec_config_init(&c0);
        c0.topo = tp;
        c0.place = &pl;
        c0.packet_bytes = p;
        c0.store_forward = 1;
        if (bbs_exec_run(w, &c0, &r, err) != BB_OK)
            fail_msg("%s", err);
        if (fabs(r.jobs[0].lat_max_s - (wp + sf)) > 1e-9 * wp)
            fail_msg("store-and-forward %d: latency %.12g s, want %.12g", per,
                     r.jobs[0].lat_max_s, wp + sf);
        bbs_exec_result_free(&r);
        if (per)
            bbs_net_topo_free(tp);
    }
    /* a send jitter J (1 ms, to see it): the message leaves U J later, U the
     * first uniform of stream (seed 3, unit 0, NETWORK 2), one per message */
    {
        bbs_exec_config c0;
        gsl_rng *g = bbs_rng_stream_new(NULL, 3, 0, BBS_ENTITY(BBS_ECLASS_NETWORK, 2));
        double u = gsl_rng_uniform(g);
        gsl_rng_free(g);
        bbs_exec_config_init(&c0);
        c0.topo = t;
        c0.place = &pl;
        c0.packet_bytes = 0;
        c0.jitter_s = 1e-3;
        c0.seed = 3;
        if (bbs_exec_run(w, &c0, &r, err) != BB_OK)
            fail_msg("%s", err);
        if (fabs(r.jobs[0].lat_max_s - (want + 1e-3 * u)) > 1e-9 * want)
            fail_msg("jitter: latency %.12g s, want %.12g", r.jobs[0].lat_max_s, want + 1e-3 * u);
        bbs_exec_result_free(&r);
        c0.jitter_s = 1;
        assert_int_equal(bbs_exec_run(w, &c0, &r, err), BB_EINVAL);
    }
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* Messages and bytes of collectives, counted by hand from the algorithms
 * of ops.h. */
static void
coll_case(int p, bbs_coll_kind k, double bytes, int job_algo, double want_msgs,
          double want_bytes)
{
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { p }, nodes[64];
    bbs_net_placement pl;
    bbs_exec_result r;
    for (int i = 0; i < p; i++)
        nodes[i] = i;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "c", p, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_job_allreduce(w, job), -1);
    if (job_algo >= 0)
        assert_int_equal(bbs_wl_set_job_allreduce(w, job, job_algo, err), BB_OK);
    for (int i = 0; i < p; i++)
        assert_int_equal(bbs_wl_coll(w, job, i, k, 0, 1 % p, bytes, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    if ((double)r.jobs[0].messages != want_msgs || fabs(r.jobs[0].bytes_sent - want_bytes) > 1e-6)
        fail_msg("%s (%s) p=%d: %llu messages %.0f B, wanted %.0f and %.0f", bbs_coll_name(k),
                 bbs_coll_algo_name(job_algo), p, (unsigned long long)r.jobs[0].messages,
                 r.jobs[0].bytes_sent, want_msgs, want_bytes);
    assert_true(r.jobs[0].finished);
    /* the communication time is all of this collective's kind */
    for (int q = 0; q < BBS_EXEC_NKINDS; q++)
        assert_true(r.jobs[0].kind_mean_s[q] == (q == 1 + (int)k ? r.jobs[0].comm_mean_s : 0));
    assert_true(r.jobs[0].comm_mean_s > 0 || p == 1);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* A job's own allreduce algorithm beats the run's: Rabenseifner on 8
 * members of 1e6 B is 2 log2 8 = 6 exchanges of 5e5, 2.5e5, 1.25e5 B and
 * back, 48 messages and 8 x 2 x 7/8 x 1e6 B; on 6 members (4 after the
 * fold of 2 pairs) 2 + 4 x 4 + 2 = 20 messages, 2 + 4 x 1.5 + 2 = 10 n;
 * recursive doubling at 1 MB (auto would ring): 3 rounds of 8 x 1 MB. */
static void
test_job_allreduce(void **state)
{
    char err[BB_ERRLEN];
    bbs_wl *w;
    int job;
    (void)state;
    coll_case(8, BBS_COLL_ALLREDUCE, 1e6, BBS_ALGO_RABENSEIFNER, 48, 8 * 2 * 7.0 / 8 * 1e6);
    coll_case(6, BBS_COLL_ALLREDUCE, 1e6, BBS_ALGO_RABENSEIFNER, 20, 10e6);
    coll_case(8, BBS_COLL_ALLREDUCE, 1e6, BBS_ALGO_RECDBL, 24, 24e6);
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "c", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_set_job_allreduce(w, job, BBS_ALGO_N, err), BB_EINVAL);
    assert_int_equal(bbs_wl_set_job_allreduce(w, job + 1, BBS_ALGO_RING, err), BB_EINVAL);
    bbs_wl_free(w);
}

/* Nekbone's streams on a non-periodic 3x2x2 lattice run to the end (every
 * receive matches a send: no deadlock) and send at least their p2p bytes
 * (t_wl_models.c checks the streams themselves). */
static void
test_nekbone_runs(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_model m;
    bbs_wl *w;
    int job, ranks[1] = { 12 }, nodes[12];
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_model_defaults(&m, BBS_MODEL_NEKBONE);
    assert_int_equal(bbs_model_set(&m, "grid", "3x2x2", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "orders", "2:4:1", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "cg_iterations", "3", err), BB_OK);
    for (int i = 0; i < 12; i++)
        nodes[i] = 3 * i;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "nek", 12, 0, &job, err), BB_OK);
    assert_int_equal(bbs_model_generate(&m, w, job, err), BB_OK);
    /* the skeleton waits for its receives, never for its sends: no
     * WAITALL, one WAIT per receive, each on a receive */
    for (int rk = 0; rk < 12; rk++) {
        int n, recvs = 0, waits = 0;
        const bbs_op *ops = bbs_wl_stream(w, job, rk, &n);
        for (int i = 0; i < n; i++) {
            assert_int_not_equal(ops[i].kind, BBS_OP_WAITALL);
            if (ops[i].kind == BBS_OP_RECV)
                recvs++;
            if (ops[i].kind == BBS_OP_WAIT) {
                waits++;
                assert_int_equal(ops[ops[i].ref].kind, BBS_OP_RECV);
            }
        }
        assert_true(recvs > 0);
        assert_int_equal(waits, recvs);
    }
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_true(r.jobs[0].finished);
    assert_true(r.jobs[0].bytes_sent >= bbs_model_p2p_bytes(&m, 12));
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

static void
test_collectives(void **state)
{
    (void)state;
    /* recursive doubling, p = 8: 3 rounds of 8 messages */
    coll_case(8, BBS_COLL_ALLREDUCE, 8, -1, 24, 24 * 8);
    /* p = 6: pof2 4, rem 2: 2 folds, 4 x 2 rounds, 2 unfolds = 12 */
    coll_case(6, BBS_COLL_ALLREDUCE, 8, -1, 12, 12 * 8);
    /* ring, p = 4, 1 MB: 2(p-1) steps of p messages of b/p: 2(p-1) b */
    coll_case(4, BBS_COLL_ALLREDUCE, 1e6, -1, 24, 6e6);
    /* binomial trees: p - 1 messages of b */
    coll_case(7, BBS_COLL_BCAST, 1000, -1, 6, 6000);
    coll_case(7, BBS_COLL_REDUCE, 1000, -1, 6, 6000);
    /* dissemination barrier, p = 5: ceil(log2 5) = 3 rounds of 5 */
    coll_case(5, BBS_COLL_BARRIER, 0, -1, 15, 0);
    /* gather: p - 1; alltoall: p(p-1) */
    coll_case(5, BBS_COLL_GATHER, 100, -1, 4, 400);
    coll_case(5, BBS_COLL_ALLTOALL, 100, -1, 20, 2000);
}

/* MILC at reduced scale: p2p bytes equal ranks x iterations x 16 x size. */
static void
test_milc_bytes(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_model m;
    bbs_wl *w;
    int job, ranks[1] = { 36 }, nodes[36];
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_wl_totals tot;
    bbs_model_defaults(&m, BBS_MODEL_MILC);
    m.ndims = 4;
    m.dims[0] = 3, m.dims[1] = 3, m.dims[2] = 2, m.dims[3] = 2;
    m.iterations = 3;
    for (int i = 0; i < 36; i++)
        nodes[i] = 2 * i;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "milc", 36, 0, &job, err), BB_OK);
    assert_int_equal(bbs_model_generate(&m, w, job, err), BB_OK);
    bbs_wl_job_totals(w, job, &tot);
    double closed = 36.0 * 3 * 16 * 497664;
    assert_true(tot.p2p_bytes == closed);
    assert_true(bbs_model_p2p_bytes(&m, 36) == closed);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    /* the simulated bytes: p2p plus the allreduces (36 ranks, pof2 32,
     * rem 4: 4 folds + 32 x 5 + 4 unfolds = 168 messages of 8 B, 2 per
     * iteration) */
    double coll = 3.0 * 2 * 168 * 8;
    assert_true(fabs(r.jobs[0].bytes_sent - (closed + coll)) < 1e-3);
    assert_true(r.jobs[0].finished);
    assert_true(r.jobs[0].comm_mean_s > 0);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* Checkpoint: every rank writes total/ranks through the table device:
 * bytes written equal the total; with 1 rank per buffer node, the I/O
 * time is at least the device time. */
static void
test_checkpoint_io(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(1);
    bbs_model m;
    bbs_wl *w;
    int job, ranks[1] = { 4 };
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_model_defaults(&m, BBS_MODEL_CHECKPOINT);
    m.total_bytes = 4e8;
    /* compute nodes 1, 18, 35, 52: distinct buffer nodes (8 per... ) */
    int nodes[4] = { t->compute_nodes[0], t->compute_nodes[8], t->compute_nodes[16],
                     t->compute_nodes[24] };
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "ckpt", 4, 0, &job, err), BB_OK);
    assert_int_equal(bbs_model_generate(&m, w, job, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_true(r.jobs[0].bytes_written == 4e8);
    double dev = 1e8 / (1000.0 * 1048576);
    assert_true(r.jobs[0].io_mean_s >= dev);
    assert_true(r.jobs[0].io_mean_s < dev + 1e8 / 5e9 + 1e-3);
    assert_true(fabs(r.jobs[0].compute_mean_s - 0.1) < 1e-12);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* Adaptive routing in pieces: on an idle network every piece takes the
 * minimal path, one after the other without a gap, so a message of 1e6 B
 * in pieces of 250,000 B is 4 flows and arrives exactly when one flow
 * would: 1e6 / c + d. */
static void
test_route_pieces(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 2 }, nodes[2] = { 0, 71 }, path[BBS_NET_MAX_PATH], len;
    bbs_net_placement pl;
    bbs_exec_result r;
    netif ni = { 1, 0, 4096, 1, 250000, 0, 0, 0, 0, 0 };
    double c = path_of(t, 0, 71, path, &len), want = 1e6 / c + bbs_net_path_delay_s(t, path, len);

    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "pp", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 1, 1e6, 7, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 1, 0, 7, 0, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run_net(w, t, &pl, &r, BB_OK, err, &ni);
    assert_int_equal(r.flows, 4);
    assert_int_equal(r.jobs[0].messages, 1);
    if (fabs(r.jobs[0].lat_max_s - want) > 1e-9 * want)
        fail_msg("latency %.12g s, want %.12g s", r.jobs[0].lat_max_s, want);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* The storage server's pieces: two ranks on one node write 8 MiB each to
 * their own files on the node-local buffer (a table device: 1000 MiB/s,
 * 20 us per request, a 2.5 ms seek whenever a piece does not continue the
 * previous one, as on MFNetSim's buffer), B just after A.  Pieces of 1 MiB,
 * 4 in flight, the next piece issued in turn over the requests present:
 * A1..A4 are issued when A arrives; then the device order is
 *   A1 A2 A3 A4 A5 B1 A6 B2 A7 B3 A8 B4 B5 B6 B7 B8
 * with a seek at A1, B1, A6, B2, A7, B3, A8, B4 (another file than the
 * piece before): A ends after 11 u + 7 s, B after 16 u + 8 s, u = 1 MiB /
 * rate + 20 us, s = 2.5 ms.  Whole requests in FIFO order: A then B, one
 * seek each: q = 8 MiB / rate + 20 us + 2.5 ms, A after q, B after 2 q. */
static void
test_storage_pieces(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    double mib = 1048576, rate = 1000 * mib, u = mib / rate + 20e-6, sk = 2.5e-3;
    double q = 8 * mib / rate + 20e-6 + sk, a_end = 11 * u + 7 * sk, b_end = 16 * u + 8 * sk;

    /* threads (MFNetSim's req_threads, 4 per request; on one node the
     * pieces move at once): A's threads hand A1..A4 to the device, then
     * B's B1..B4; each written piece's thread takes the next, queued at
     * the device's tail: A1-A4 B1-B4 A5-A8 B5-B8, a seek at A1, B1, A5,
     * B5: A ends after 12 u + 3 s, B after 16 u + 4 s. */
    double ta_end = 12 * u + 3 * sk, tb_end = 16 * u + 4 * sk;

    for (int pieces = 0; pieces <= 2; pieces++) {
        bbs_wl *w;
        int job, ranks[1] = { 2 }, nodes[2] = { 5, 5 };
        bbs_net_placement pl;
        bbs_exec_result r;
        bbs_exec_config c;
        double want_max = pieces == 2 ? tb_end : pieces ? b_end : 2 * q;
        double want_mean = pieces == 2 ? (ta_end + tb_end) / 2
                           : pieces ? (a_end + b_end) / 2 : 1.5 * q;

        assert_int_equal(bbs_wl_new(&w, err), BB_OK);
        assert_int_equal(bbs_wl_add_job(w, "two", 2, 0, &job, err), BB_OK);
        for (int k = 0; k < 2; k++)
            assert_int_equal(bbs_wl_io(w, job, k, 1, 8 * mib, (uint64_t)k + 1, 0, err),
                             BB_OK);
        place_list(&pl, 1, ranks, nodes);
        bbs_exec_config_init(&c);
        c.topo = t;
        c.place = &pl;
        c.arch = BBS_ARCH_NODE_LOCAL;
        c.piece_bytes = pieces ? mib : 0;
        c.pieces_in_flight = pieces ? 4 : 1;
        c.piece_threads = pieces == 2 ? 4 : 0;
        seek_device(&c.bb_dev);
        if (bbs_exec_run(w, &c, &r, err) != BB_OK)
            fail_msg("%s", err);
        if (fabs(r.jobs[0].io_max_s - want_max) > 1e-9 * want_max
            || fabs(r.jobs[0].io_mean_s - want_mean) > 1e-9 * want_mean)
            fail_msg("pieces %d: I/O max %.12g mean %.12g s, want %.12g and %.12g", pieces,
                     r.jobs[0].io_max_s, r.jobs[0].io_mean_s, want_max, want_mean);
        bbs_exec_result_free(&r);
        bbs_net_placement_free(&pl);
        bbs_wl_free(w);
    }
    bbs_net_topo_free(t);
}

/* One rank on node client writes 4 MiB to its buffer node in 1 MiB
 * pieces moved by threads threads (the seek device): its I/O time. */
static double
write_4mib(bbs_net_topo *t, int client, int threads)
{
    char err[BB_ERRLEN];
    double mib = 1048576, io;
    bbs_wl *w;
    int job, ranks[1] = { 1 }, nodes[1] = { client };
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_exec_config c0;

    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "one", 1, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_io(w, job, 0, 1, 4 * mib, 1, 0, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    bbs_exec_config_init(&c0);
    c0.topo = t;
    c0.place = &pl;
    c0.arch = BBS_ARCH_COMPUTE_GLOBAL;
    c0.piece_bytes = mib;
    c0.piece_threads = threads;
    seek_device(&c0.bb_dev);
    if (bbs_exec_run(w, &c0, &r, err) != BB_OK)
        fail_msg("%s", err);
    io = r.jobs[0].io_max_s;
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    return io;
}

/* The server's threads over the network (compute-side buffer node): one
 * rank writes 4 MiB in 1 MiB pieces.  Each piece crosses an idle path
 * (p / c + d) and is written (u; a seek before the first only, the others
 * continue it).  One thread: piece after piece, 4 (p / c + d + u) + s.
 * Four threads: the pieces leave the client one after the other (FCFS),
 * the first arrives at p / c + d and the device, slower than the link,
 * writes the four back to back: p / c + d + s + 4 u. */
static void
test_storage_threads_network(void **state)
{
    (void)state;
    bbs_net_topo *t = small_topo(1);
    double mib = 1048576, rate = 1000 * mib, u = mib / rate + 20e-6, sk = 2.5e-3;
    int client = t->compute_nodes[0], bb = -1, path[BBS_NET_MAX_PATH], len;

    for (int n = 0; n < t->nodes && bb < 0; n++)
        if (t->node_kind[n] & BBS_NET_NODE_BB)
            bb = n;
    double c = path_of(t, client, bb, path, &len), d = bbs_net_path_delay_s(t, path, len);
    assert_true(mib / c < u);
    for (int threads = 1; threads <= 4; threads += 3) {
        double want = threads == 1 ? 4 * (mib / c + d + u) + sk : mib / c + d + sk + 4 * u;
        double io = write_4mib(t, client, threads);
        if (fabs(io - want) > 1e-9 * want)
            fail_msg("%d threads: I/O %.12g s, want %.12g", threads, io, want);
    }
    bbs_net_topo_free(t);
}

/* CODES' LP mapping (compute_per_group): a client on its buffer node's
 * terminal moves its pieces without the network, so its 4 MiB write is
 * the device's alone, s + 4 u with any number of threads; a client on
 * the next terminal still pays its path. */
static void
test_shared_terminal(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_params par;
    bbs_net_topo *t;
    double mib = 1048576, rate = 1000 * mib, u = mib / rate + 20e-6, sk = 2.5e-3;
    double want = sk + 4 * u;

    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    par.bb_per_group = 1;
    par.compute_per_group = 8;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(t->node_kind[0], BBS_NET_NODE_BB | BBS_NET_NODE_COMPUTE);
    for (int threads = 1; threads <= 4; threads += 3) {
        double here = write_4mib(t, 0, threads), next = write_4mib(t, 1, threads);
        if (fabs(here - want) > 1e-9 * want)
            fail_msg("%d threads on the buffer node's terminal: I/O %.12g s, want %.12g",
                     threads, here, want);
        if (!(next > want * (1 + 1e-6)))
            fail_msg("%d threads one terminal further: I/O %.12g s, want more than %.12g",
                     threads, next, want);
    }
    bbs_net_topo_free(t);
}

/* BBS_DEP_OP: rank 1's compute waits for rank 0's receive; BBS_DEP_NONE
 * runs at once. */
static void
test_dependencies(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 3 }, nodes[3] = { 0, 1, 2 }, ri;
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_op op;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "dep", 3, 0, &job, err), BB_OK);
    /* rank 2 sends to 0 after 1 s; rank 0 receives; rank 1 computes 2 s
     * after rank 0's receive completes */
    assert_int_equal(bbs_wl_compute(w, job, 2, 1.0, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 2, 0, 0, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 0, 2, 1, 0, &ri, err), BB_OK);
    bbs_op_init(&op, BBS_OP_COMPUTE);
    op.dep = BBS_DEP_OP;
    op.dep_rank = 0;
    op.dep_op = ri;
    op.delay_s = 2.0;
    /* rank 1 has no earlier op: the dependency is cross-rank */
    assert_int_equal(bbs_wl_append(w, job, 1, &op, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_true(r.jobs[0].elapsed_s > 3.0 && r.jobs[0].elapsed_s < 3.0 + 1e-3);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

static void
test_bad(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 2 }, nodes[2] = { 0, 5 };
    bbs_net_placement pl;
    bbs_exec_result r;
    /* a receive that is never matched */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "dl", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 1, 0, 3, 0, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_EDATA, err);
    assert_non_null(strstr(err, "deadlock"));
    assert_non_null(strstr(err, "rank 1"));
    bbs_wl_free(w);
    /* collective participants that disagree */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "dis", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_coll(w, job, 0, BBS_COLL_BCAST, 0, 0, 8, err), BB_OK);
    assert_int_equal(bbs_wl_coll(w, job, 1, BBS_COLL_ALLREDUCE, 0, 0, 8, err), BB_OK);
    run(w, t, &pl, &r, BB_EDATA, err);
    assert_non_null(strstr(err, "bcast"));
    assert_non_null(strstr(err, "allreduce"));
    bbs_wl_free(w);
    /* appending out of range */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "x", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 2, 8, 0, 0, NULL, err), BB_EINVAL);
    assert_non_null(strstr(err, "peer 2"));
    bbs_wl_free(w);
    bbs_net_placement_free(&pl);
    bbs_net_topo_free(t);
}

/* Capacity and draining: two ranks on one buffer node write 1e8 B each
 * into a buffer of 1.5e8 B that drains at 1e9 B/s in 5e7-B chunks: the
 * second write cannot fit beside the first, so it stalls until a chunk has
 * drained; at the end every byte is on the PFS.  A single write larger
 * than the buffer is refused. */
static void
test_capacity_drain(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(1);
    bbs_wl *w;
    int job, ranks[1] = { 2 };
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_exec_config c;
    int nodes[2] = { t->compute_nodes[0], t->compute_nodes[1] };
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "w", 2, 0, &job, err), BB_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(bbs_wl_io(w, job, i, 1, 1e8, (uint64_t)i, 0, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    bbs_exec_config_init(&c);
    c.topo = t;
    c.place = &pl;
    bbs_dev_params_init(&c.bb_dev, BBS_DEV_TABLE);
    c.bb_dev.capacity_bytes = 1e12;
    c.bb_dev.table.nbins = 1;
    c.bb_dev.table.read_MiBps[0] = c.bb_dev.table.write_MiBps[0] = 1000.0;
    c.capacity_bytes = 1.5e8;
    c.pfs_bw_Bps = 1e9;
    c.drain_chunk_bytes = 5e7;
    assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_OK);
    assert_true(r.stall_s > 0);
    assert_true(fabs(r.bytes_on_pfs - 2e8) < 1);
    assert_true(r.jobs[0].bytes_written == 2e8);
    bbs_exec_result_free(&r);
    bbs_wl_free(w);
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "w", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_io(w, job, 0, 1, 2e8, 0, 0, err), BB_OK);
    assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "exceeds the buffer capacity"));
    bbs_wl_free(w);
    bbs_net_placement_free(&pl);
    bbs_net_topo_free(t);
}

static void
test_young_daly(void **state)
{
    (void)state;
    /* delta 60 s, MTTI 24 h: sqrt(2 60 86400) - 60 = 3219.9 - 60 */
    assert_true(fabs(bbs_young_daly_s(60, 86400) - (sqrt(2.0 * 60 * 86400) - 60)) < 1e-9);
    assert_true(fabs(bbs_young_daly_s(60, 86400) - 3159.9) < 0.1);
    assert_true(bbs_young_daly_s(100, 10) == 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_message),
        cmocka_unit_test(test_fcfs_injection),
        cmocka_unit_test(test_rank_latency),
        cmocka_unit_test(test_starved_small),
        cmocka_unit_test(test_queueing_delay),
        cmocka_unit_test(test_queueing_half_load),
        cmocka_unit_test(test_route_pieces),
        cmocka_unit_test(test_collectives),
        cmocka_unit_test(test_job_allreduce),
        cmocka_unit_test(test_nekbone_runs),
        cmocka_unit_test(test_milc_bytes),
        cmocka_unit_test(test_checkpoint_io),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_storage_pieces),
        cmocka_unit_test(test_storage_threads_network),
        cmocka_unit_test(test_shared_terminal),
        cmocka_unit_test(test_dependencies),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_capacity_drain),
        cmocka_unit_test(test_young_daly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
