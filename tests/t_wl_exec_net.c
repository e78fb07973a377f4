/* t_wl_exec_net.c: the executor's network side against hand-worked
 * cases: one message, first-come first-served injection, per-rank
 * latency, channel priority for small messages, queueing on loaded links,
 * back-pressure, adaptive routing in pieces.
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
#include "wl_exec_test.h"
#include "job_keys.h"

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
     * router's chunk given (port_chunk_bytes) nothing changes: the router
     * delay is latency, the links carry their wires' bandwidth. */
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
            sf += p / c;
            cp = fmin(cp, c);
        }
        sf -= p / cp;
        wp = 1e6 / cp + bbs_net_path_delay_s(tp, path, len);
        assert_true(sf > 0);
        assert_true(wp == want);
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

/* Under par a message's pieces go at once: 1e6 B in pieces of 250,000 B
 * on the idle graph500-72 are 4 flows started at one instant (the later
 * ones routed around the port the first fills), and the message arrives
 * once, when its last piece has: one message, 4 flows, its latency at
 * least its bytes over the injection link (5e9 B/s) and the minimal
 * path's delays. */
static void
test_par_pieces(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 2 }, nodes[2] = { 0, 71 }, path[BBS_NET_MAX_PATH], len;
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_exec_config c;
    double cap = path_of(t, 0, 71, path, &len), least = 1e6 / cap;

    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "pp", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 1, 1e6, 7, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 1, 0, 7, 0, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    exec_config_on(&c, t, &pl);
    c.route.kind = BBS_NET_ROUTE_PAR;
    c.route_piece_bytes = 250000;
    if (bbs_exec_run(w, &c, &r, err) != BB_OK)
        fail_msg("%s", err);
    assert_int_equal(r.flows, 4);
    assert_int_equal(r.jobs[0].messages, 1);
    assert_true(r.jobs[0].finished);
    assert_true(r.jobs[0].lat_max_s >= least * (1 - 1e-12));
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
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
        cmocka_unit_test(test_par_pieces),
        cmocka_unit_test(test_backpressure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
