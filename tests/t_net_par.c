/* t_net_par.c: progressive adaptive routing (route.h's bbs_net_route_par)
 * on hand-set port occupancies, the ports' occupancy at flow level
 * (fabric.h's bbs_net_fabric_port_occupancy), and strict priority's gaps
 * (maxmin.h, fabric.h's bbs_net_fabric_lower_gaps).
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
#include "network/bbsnet.h"
#include "rng.h"

/* topo: the preset's topology (graph500-72: 9 groups of 4 routers, 2
 * nodes each, 2 global links per router, one global link between every
 * two groups; mfnetsim-1056: the artifact's). */
static bbs_net_topo *
topo(const char *preset)
{
    bbs_net_params par;
    bbs_net_topo *t;
    char err[BB_ERRLEN];

    assert_int_equal(bbs_net_preset(preset, &par, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    return t;
}

static bbs_net_topo *
g500(void)
{
    return topo("graph500-72");
}

static double
occ_table(int l, void *ctx)
{
    return ((const double *)ctx)[l];
}

/* The global link from group x to group y (one per pair here). */
static int
glink(const bbs_net_topo *t, int x, int y)
{
    assert_int_equal(bbs_net_topo_nglobal(t, x, y), 1);
    return bbs_net_topo_global_links(t, x, y)[0];
}

/* The first group y that router 0 reaches on a global link of its own. */
static int
own_global_group(const bbs_net_topo *t)
{
    for (int y = 1; y < t->par.g; y++)
        if (t->link_src[glink(t, 0, y)] == 0)
            return y;
    fail_msg("router 0 has no global link");
    return -1;
}

/* A path is connected from src's injection link to dst's ejection link. */
static void
check_path(const bbs_net_topo *t, int src, int dst, const int *p, int len)
{
    assert_true(len >= 2 && len <= 7);
    assert_int_equal(p[0], BBS_NET_INJ(t, src));
    assert_int_equal(p[len - 1], BBS_NET_EJ(t, dst));
    for (int i = 0; i + 1 < len; i++)
        assert_int_equal(t->link_dst[p[i]], t->link_src[p[i + 1]]);
}

/* The group the first global link of a path leads to. */
static int
first_global_group(const bbs_net_topo *t, const int *p, int len)
{
    for (int i = 0; i < len; i++)
        if (t->link_kind[p[i]] == BBS_NET_LINK_GLOBAL)
            return t->link_dst[p[i]] / t->par.a;
    return -1;
}

static int
globals(const bbs_net_topo *t, const int *p, int len)
{
    int n = 0;

    for (int i = 0; i < len; i++)
        n += t->link_kind[p[i]] == BBS_NET_LINK_GLOBAL;
    return n;
}

/* Every port empty (or no occupancies at all): the minimal path, for every
 * pair of nodes. */
static void
test_par_idle_is_minimal(void **state)
{
    bbs_net_topo *t = g500();
    bbs_net_route_opts po = { BBS_NET_ROUTE_PAR, 0, 2 }, mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 3, 0, 0);
    double *occ = calloc((size_t)t->nlinks, sizeof(double));

    (void)state;
    for (int s = 0; s < t->nodes; s++)
        for (int d = 0; d < t->nodes; d++) {
            int p[BBS_NET_MAX_PATH], m[BBS_NET_MAX_PATH], lp, lm, took = -1;
            if (s == d)
                continue;
            lm = bbs_net_route(t, &mo, s, d, r, NULL, m, NULL);
            lp = bbs_net_route_par(t, &po, s, d, r, occ_table, occ, p, &took);
            assert_int_equal(lp, lm);
            assert_memory_equal(p, m, (size_t)lm * sizeof(int));
            assert_int_equal(took, 1);
            lp = bbs_net_route(t, &po, s, d, r, NULL, p, &took);
            assert_int_equal(lp, lm);
            assert_memory_equal(p, m, (size_t)lm * sizeof(int));
        }
    free(occ);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* Node 0 is on router 0 of group 0, whose global links go to groups y1
 * and y2.  To a node of y1 the minimal route leaves router 0 on its global
 * link.  (a) That port holds 16 KiB, every other port is empty: the route
 * turns non-minimal at router 0, whatever intermediate group is drawn
 * (its candidate port is empty: 16384 > 2 x 0).  (b) Every router port
 * holds one chunk (4,096 B) and router 0's global link to y1 two: 8,192 <=
 * 2 x 4,096, minimal; (c) one byte more, non-minimal; (d) with bias 0.5
 * (3 x 4,096), minimal again. */
static void
test_par_source_port(void **state)
{
    bbs_net_topo *t = g500();
    bbs_net_route_opts po = { BBS_NET_ROUTE_PAR, 0, 2 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 5, 0, 0);
    double *occ = calloc((size_t)t->nlinks, sizeof(double));
    int y1 = own_global_group(t), lg = glink(t, 0, y1), dst;

    (void)state;
    dst = y1 * t->par.a * t->par.p; /* the first node of group y1 */
    for (int c = 0; c < 4; c++) {
        for (int l = 0; l < t->nlinks; l++)
            occ[l] = c == 0 || t->link_kind[l] < BBS_NET_LINK_LOCAL ? 0 : 4096;
        occ[lg] = c == 0 ? 16384 : c == 2 ? 8193 : 8192;
        po.bias = c == 3 ? 0.5 : 0;
        for (int seed = 0; seed < 50; seed++) {
            int p[BBS_NET_MAX_PATH], len, took = -1, gi;
            gsl_rng_set(r, (unsigned long)seed + 1);
            len = bbs_net_route_par(t, &po, 0, dst, r, occ_table, occ, p, &took);
            check_path(t, 0, dst, p, len);
            if (c == 1 || c == 3) {
                assert_int_equal(took, 1);
                assert_int_equal(p[1], lg);
                continue;
            }
            assert_int_equal(took, 0);
            assert_true(p[1] != lg);
            gi = first_global_group(t, p, len);
            assert_true(gi != 0 && gi != y1);
            assert_int_equal(globals(t, p, len), 2);
            assert_true(bbs_net_path_router_hops(t, p, len) <= 5);
        }
    }
    free(occ);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* To a group xd that router 0 has no global link to, the minimal route
 * goes first to gw, the router of group 0 that has one.  (a) The local
 * hop 0 -> gw is free but gw's global link to xd holds 16 KiB: the route
 * stays minimal at router 0 (its port is empty) and turns non-minimal at
 * gw, out of gw's other global link (to a group other than 0 and xd),
 * whatever group router 0 drew.  (b) The reverse: the local hop 0 -> gw
 * holds 16 KiB and every other port is empty: the route turns at router
 * 0, unless the intermediate group drawn is the one gw's other global
 * link reaches (then the non-minimal candidate is that same local hop,
 * 16384 <= 2 x 16384): one draw in 7 over the 7 groups other than 0 and
 * xd. */
static void
test_par_later_router(void **state)
{
    bbs_net_topo *t = g500();
    bbs_net_route_opts po = { BBS_NET_ROUTE_PAR, 0, 2 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 9, 0, 0);
    double *occ = calloc((size_t)t->nlinks, sizeof(double));
    int a = t->par.a, xd = -1, gw, lgw, lloc, dst, nmin = 0, runs = 700;

    (void)state;
    for (int y = 1; y < t->par.g && xd < 0; y++)
        if (t->link_src[glink(t, 0, y)] != 0)
            xd = y;
    assert_true(xd > 0);
    lgw = glink(t, 0, xd);
    gw = t->link_src[lgw];
    lloc = t->local_link[0 * a + gw % a];
    dst = xd * a * t->par.p + 1;
    occ[lgw] = 16384;
    for (int seed = 0; seed < 50; seed++) {
        int p[BBS_NET_MAX_PATH], len, took = -1, gi;
        gsl_rng_set(r, (unsigned long)seed + 1);
        len = bbs_net_route_par(t, &po, 0, dst, r, occ_table, occ, p, &took);
        check_path(t, 0, dst, p, len);
        assert_int_equal(took, 0);
        assert_int_equal(p[1], lloc);
        assert_int_equal(t->link_kind[p[2]], BBS_NET_LINK_GLOBAL);
        assert_int_equal(t->link_src[p[2]], gw);
        assert_true(p[2] != lgw);
        gi = first_global_group(t, p, len);
        assert_true(gi != 0 && gi != xd);
        assert_int_equal(globals(t, p, len), 2);
    }
    occ[lgw] = 0;
    occ[lloc] = 16384;
    for (int seed = 0; seed < runs; seed++) {
        int p[BBS_NET_MAX_PATH], len, took = -1;
        gsl_rng_set(r, (unsigned long)seed + 1);
        len = bbs_net_route_par(t, &po, 0, dst, r, occ_table, occ, p, &took);
        check_path(t, 0, dst, p, len);
        if (took) {
            nmin++;
            assert_int_equal(p[1], lloc);
            assert_int_equal(p[2], lgw);
        } else {
            assert_true(p[1] != lloc);
            assert_int_equal(globals(t, p, len), 2);
        }
    }
    /* binomial(700, 1/7): mean 100, sd 9.3 */
    assert_true(nmin >= 60 && nmin <= 140);
    free(occ);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

static int
no_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    (void)e;
    (void)info;
    (void)ctx;
    return BB_OK;
}

/* A fabric on its own engine over a topology the fixture owns. */
typedef struct {
    bbs_net_topo *t;
    bbs_engine *e;
    bbs_net_fabric *f;
} fab;

static void
fab_open(fab *x, bbs_net_topo *t)
{
    char err[BB_ERRLEN];

    x->t = t;
    assert_int_equal(bbs_engine_new(&x->e, 0, err), BB_OK);
    assert_int_equal(bbs_net_fabric_new(&x->f, t, x->e, no_done, NULL, err), BB_OK);
}

static void
fab_close(fab *x)
{
    bbs_net_fabric_free(x->f);
    bbs_engine_free(x->e);
    bbs_net_topo_free(x->t);
}

/* The occupancy of a port at flow level, by hand, on mfnetsim-1056
 * (local 5.64e9 B/s, global 5.05e9 B/s, injection 17.2e9 B/s; channel
 * buffers 16 KiB beyond a local or global link, 32 KiB beyond an
 * injection link).  A flow from node 0 (router 0) to a node of a group
 * router 0 has no global link to, not on the router where the global link
 * arrives, goes inj, local, global, local, ej: its bottleneck is the
 * global link.  Before its rate is known it fills its first router port
 * (the local link: its 16 KiB and the injection buffer's 32 KiB, 49,152 B,
 * as a message's first packets fill it before its later ones are routed)
 * and passes the others with a chunk in flight (4,096 B).  Then the local link before the
 * global one is held (its channel's 16 KiB full, and 32 KiB of chunks
 * waiting for a credit in the injection buffer): 49,152 B; the global
 * link, its bottleneck: 16,384 + the local buffer it comes from, 16,384;
 * the local link after it: a chunk in flight.  A second flow from node 1
 * on the same routers doubles the waiting chunks (81,920 and 49,152) and
 * the chunks in flight (8,192), and an idle port holds 0. */
static void
test_port_occupancy(void **state)
{
    bbs_net_topo *t = topo("mfnetsim-1056");
    bbs_engine *e;
    bbs_net_fabric *f;
    fab x;
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    int p[BBS_NET_MAX_PATH], q[BBS_NET_MAX_PATH], len, dst = -1, a;
    char err[BB_ERRLEN];

    (void)state;
    a = t->par.a;
    for (int y = 1; y < t->par.g && dst < 0; y++) {
        int l = glink(t, 0, y);
        if (t->link_src[l] != 0)
            dst = (y * a + (t->link_dst[l] % a + 1) % a) * t->par.p;
    }
    assert_true(dst > 0);
    len = bbs_net_route(t, &mo, 0, dst, NULL, NULL, p, NULL);
    assert_int_equal(len, 5);
    assert_int_equal(t->link_kind[p[1]], BBS_NET_LINK_LOCAL);
    assert_int_equal(t->link_kind[p[2]], BBS_NET_LINK_GLOBAL);
    assert_int_equal(t->link_kind[p[3]], BBS_NET_LINK_LOCAL);
    assert_int_equal(bbs_net_route(t, &mo, 1, dst, NULL, NULL, q, NULL), 5);
    assert_memory_equal(p + 1, q + 1, 4 * sizeof(int));
    fab_open(&x, t);
    e = x.e;
    f = x.f;
    assert_int_equal(bbs_net_fabric_start(f, 0, dst, 1e9, p, len, 1, 0, NULL, err), BB_OK);
    assert_true(bbs_net_fabric_port_occupancy(f, p[1]) == 49152);
    for (int i = 2; i < 4; i++)
        assert_true(bbs_net_fabric_port_occupancy(f, p[i]) == 4096);
    assert_int_equal(bbs_engine_run(e, 1e-6), BB_OK);
    assert_true(bbs_net_fabric_port_occupancy(f, p[1]) == 49152);
    assert_true(bbs_net_fabric_port_occupancy(f, p[2]) == 32768);
    assert_true(bbs_net_fabric_port_occupancy(f, p[3]) == 4096);
    assert_int_equal(bbs_net_fabric_start(f, 1, dst, 1e9, q, len, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_engine_run(e, 2e-6), BB_OK);
    assert_true(bbs_net_fabric_port_occupancy(f, p[1]) == 81920);
    assert_true(bbs_net_fabric_port_occupancy(f, p[2]) == 49152);
    assert_true(bbs_net_fabric_port_occupancy(f, p[3]) == 8192);
    assert_true(bbs_net_fabric_port_occupancy(f, t->local_link[1 * t->par.a + 2]) == 0);
    fab_close(&x);
}

/* Strict priority's gaps in the solver, by hand: a port P (capacity 1,
 * a channel window of 3 chunks of 1) carries flow L on channel 0 and flow
 * H on channel 1; L goes on to link N (capacity 2).
 *  - N carries flow O (channel 0) too: L's chunks can wait at N, so the
 *    port runs out of L's credits after its window and H goes: channel 0
 *    fills at most 1 - 1 / (3 + 1) = 0.75 of P.  Class 0: L = 0.75 (P),
 *    O = 2 - 0.75 = 1.25 (N); class 1: H = 1 - 0.75 = 0.25.
 *  - without O, L's next link is its own: no gaps, L = 1, H = 0.
 *  - without a window (win 0): no gaps either, L = 1, O = 1, H = 0. */
static void
test_gap_solver(void **state)
{
    int off3[] = { 0, 2, 3, 4 }, path3[] = { 0, 1, 0, 1 };  /* L: P N; H: P; O: N */
    unsigned char cls3[] = { 0, 0, 1, 0 }, gap3[] = { 1, 0, 0, 0 };
    int off2[] = { 0, 2, 3 }, path2[] = { 0, 1, 0 };       /* L: P N; H: P */
    unsigned char cls2[] = { 0, 0, 1 }, gap2[] = { 0, 0, 0 };
    double cap[] = { 1, 2 }, win[] = { 3, 3 }, nowin[] = { 0, 0 }, r[3];
    bbs_net_mm_ws *ws = bbs_net_mm_ws_alloc();
    char err[BB_ERRLEN];

    (void)state;
    assert_non_null(ws);
    assert_float_equal(bbs_net_mm_gap_share(3, 1, 1), 0.25, 1e-15);
    assert_float_equal(bbs_net_mm_gap_share(3, 1, 2), 1.0 / 7, 1e-15);
    assert_true(bbs_net_mm_gap_share(0, 1, 1) == 0);
    assert_float_equal(bbs_net_mm_gap_wait_s(2, 3, 2), 3, 1e-15);
    {
        bbs_net_mm_problem pb = { 3, 2, off3, path3, cap, cls3, gap3, win, 1 };
        assert_int_equal(bbs_net_maxmin_solve(&pb, ws, r, NULL, NULL, err), BB_OK);
        assert_float_equal(r[0], 0.75, 1e-12);
        assert_float_equal(r[1], 0.25, 1e-12);
        assert_float_equal(r[2], 1.25, 1e-12);
        pb.win = nowin;
        assert_int_equal(bbs_net_maxmin_solve(&pb, ws, r, NULL, NULL, err), BB_OK);
        assert_float_equal(r[0], 1, 1e-12);
        assert_true(r[1] == 0);
        assert_float_equal(r[2], 1, 1e-12);
    }
    {
        bbs_net_mm_problem pb = { 2, 2, off2, path2, cap, cls2, gap2, win, 1 };
        assert_int_equal(bbs_net_maxmin_solve(&pb, ws, r, NULL, NULL, err), BB_OK);
        assert_float_equal(r[0], 1, 1e-12);
        assert_true(r[1] == 0);
    }
    bbs_net_mm_ws_free(ws);
}

/* The gaps in the fabric, on mfnetsim-1056 (global links 4.7 GiB/s =
 * 5,046,586,572.8 B/s, a channel window of 16,384 B beyond them, chunks
 * of 4,096 B).  Routers r1 (with the global link G to group y) and r0 of
 * group 0; D on the router G reaches, d2 the next router there (over
 * local link Lg).  Flow B from r1 to d2 goes inj, G, Lg, ej: channel 0
 * on G; flow A from r0 goes inj, local, G, ...: channel 1 on G (after its
 * local hop).
 *  - B alone fills G; B's next link Lg carries nothing else: a packet on
 *    channel 1 waits until G has sent what B has left, at G's capacity
 *    ((1e9 - c 1e-6) / c, 1 us in), no gaps.
 *  - with O (r1 to d2 + 1, inj, G, Lg, ej) B's and O's next link is
 *    shared: the wait is one window at G, 16384 / c = 3.2466 us, and the
 *    packet is through then (bbs_net_fabric_lower_gaps, and the gap flag
 *    of bbs_net_fabric_starve_gap_s, which B alone does not raise).
 *  - with A too, channel 0 fills at most 1 - 4096 / (16384 + 4096) = 0.8
 *    of G: B = O = 0.4 c, A = 0.2 c (every other link has room), and the
 *    rates pass bbs_net_fabric_check. */
static void
test_gap_fabric(void **state)
{
    bbs_net_topo *t = topo("mfnetsim-1056");
    bbs_engine *e;
    bbs_net_fabric *f;
    fab x;
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    int pb[BBS_NET_MAX_PATH], po[BBS_NET_MAX_PATH], pa[BBS_NET_MAX_PATH];
    int lb, lo, la, G = -1, r1 = -1, r0, d2, a, p, fb, fo, fa, gap = -1;
    unsigned char vc[BBS_NET_MAX_PATH];
    double c = 4.7 * 1073741824.0;
    char err[BB_ERRLEN];

    (void)state;
    a = t->par.a;
    p = t->par.p;
    for (int y = 1; y < t->par.g && G < 0; y++) {
        int l = glink(t, 0, y);
        if (t->link_mult[l] == 1) {
            G = l;
            r1 = t->link_src[l];
        }
    }
    assert_true(G >= 0);
    r0 = r1 == 0 ? 1 : 0;
    d2 = ((t->link_dst[G] / a) * a + (t->link_dst[G] % a + 1) % a) * p;
    lb = bbs_net_route(t, &mo, r1 * p, d2, NULL, NULL, pb, NULL);
    lo = bbs_net_route(t, &mo, r1 * p + 1, d2 + 1, NULL, NULL, po, NULL);
    la = bbs_net_route(t, &mo, r0 * p, d2, NULL, NULL, pa, NULL);
    assert_int_equal(lb, 4);
    assert_int_equal(lo, 4);
    assert_int_equal(la, 5);
    assert_int_equal(pb[1], G);
    assert_int_equal(po[1], G);
    assert_int_equal(pa[2], G);
    assert_int_equal(pb[2], po[2]);
    bbs_net_path_vc(t, pb, lb, BBS_NET_VC_GROUP, vc);
    assert_int_equal(vc[1], 0);
    bbs_net_path_vc(t, pa, la, BBS_NET_VC_GROUP, vc);
    assert_int_equal(vc[2], 1);
    fab_open(&x, t);
    e = x.e;
    f = x.f;
    bbs_net_fabric_set_vc_priority(f, 1, BBS_NET_VC_GROUP);
    assert_int_equal(bbs_net_fabric_start(f, r1 * p, d2, 1e9, pb, lb, 1, 0, &fb, err), BB_OK);
    assert_int_equal(bbs_engine_run(e, 1e-6), BB_OK);
    assert_float_equal(bbs_net_fabric_flow_rate(f, fb), c, 1);
    assert_float_equal(bbs_net_fabric_starve_wait_s(f, G, 1), 1e9 / c - 1e-6, 1e-12);
    assert_int_equal(bbs_net_fabric_lower_gaps(f, G, 1), 0);
    assert_float_equal(bbs_net_fabric_starve_gap_s(f, G, 1, &gap), 1e9 / c - 1e-6, 1e-12);
    assert_int_equal(gap, 0);
    assert_int_equal(bbs_net_fabric_start(f, r1 * p + 1, d2 + 1, 1e9, po, lo, 1, 0, &fo, err),
                     BB_OK);
    assert_int_equal(bbs_engine_run(e, 2e-6), BB_OK);
    assert_float_equal(bbs_net_fabric_flow_rate(f, fb), c / 2, 1);
    assert_float_equal(bbs_net_fabric_starve_wait_s(f, G, 1), 16384 / c, 1e-15);
    assert_float_equal(16384 / c, 3.2466e-6, 1e-10);
    assert_int_equal(bbs_net_fabric_lower_gaps(f, G, 1), 1);
    assert_int_equal(bbs_net_fabric_lower_gaps(f, G, 0), 0);
    assert_float_equal(bbs_net_fabric_starve_gap_s(f, G, 1, &gap), 16384 / c, 1e-15);
    assert_int_equal(gap, 1);
    assert_true(bbs_net_fabric_starve_gap_s(f, G, 0, &gap) == 0); /* nothing below 0 */
    assert_int_equal(gap, 0);
    assert_int_equal(bbs_net_fabric_start(f, r0 * p, d2, 1e9, pa, la, 1, 0, &fa, err), BB_OK);
    assert_int_equal(bbs_engine_run(e, 3e-6), BB_OK);
    assert_float_equal(bbs_net_fabric_flow_rate(f, fb), 0.4 * c, 1);
    assert_float_equal(bbs_net_fabric_flow_rate(f, fo), 0.4 * c, 1);
    assert_float_equal(bbs_net_fabric_flow_rate(f, fa), 0.2 * c, 1);
    assert_int_equal(bbs_net_fabric_check(f, 1e-9, err), BB_OK);
    fab_close(&x);
}

/* A message's pieces under par see the ports its earlier pieces fill
 * (graph500-72: channel buffers not given, so a chunk, 4,096 B, each).
 * Router 0 has the global link lg to group y1.  On the idle fabric a
 * piece from node 0 to group y1 goes minimal (lg's port empty: 0 <= 2 x
 * 0).  A piece started at this instant, not yet given a rate, fills its
 * first router port, lg: lg's buffer and the injection buffer it comes
 * from, 4,096 + 4,096 = 8,192 B, so the next piece finds lg at 8,192 >
 * 2 x 0 and turns non-minimal, whatever the draws. */
static void
test_par_pieces(void **state)
{
    bbs_net_topo *t = g500();
    bbs_net_route_opts po = { BBS_NET_ROUTE_PAR, 0, 2 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 5, 0, 0);
    bbs_net_fabric *f;
    fab x;
    int y1 = own_global_group(t), lg = glink(t, 0, y1), dst, p[BBS_NET_MAX_PATH], len, took;
    char err[BB_ERRLEN];

    (void)state;
    dst = y1 * t->par.a * t->par.p;
    fab_open(&x, t);
    f = x.f;
    len = bbs_net_fabric_route(f, &po, r, 0, dst, p, &took);
    assert_int_equal(took, 1);
    assert_int_equal(p[1], lg);
    assert_int_equal(bbs_net_fabric_start(f, 0, dst, 262144, p, len, 1, 0, NULL, err), BB_OK);
    assert_true(bbs_net_fabric_port_occupancy(f, lg) == 8192);
    for (int seed = 0; seed < 50; seed++) {
        int q[BBS_NET_MAX_PATH], lq;
        gsl_rng_set(r, (unsigned long)seed + 1);
        lq = bbs_net_fabric_route(f, &po, r, 0, dst, q, &took);
        check_path(t, 0, dst, q, lq);
        assert_int_equal(took, 0);
        assert_true(q[1] != lg);
    }
    fab_close(&x);
    gsl_rng_free(r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_par_idle_is_minimal),
        cmocka_unit_test(test_par_source_port),
        cmocka_unit_test(test_par_later_router),
        cmocka_unit_test(test_port_occupancy),
        cmocka_unit_test(test_gap_solver),
        cmocka_unit_test(test_gap_fabric),
        cmocka_unit_test(test_par_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
