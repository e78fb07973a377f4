/* t_net_topo.c: dragonfly topology, CODES wiring and configuration files,
 * routing paths and placement (sim/network).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "bb_error.h"
#include "network/bbsnet.h"
#include "codesconf.h"
#include "wiring.h"
#include "alloc_file.h"
#include "rng.h"

#define DATA BBSIZE_SRCDATADIR "/network/"

static unsigned char *
slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf;
    long n;

    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    rewind(fp);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* The published MFNetSim files, byte for byte, from CODES' rule. */
static void
test_wiring_matches_published_1056(void **state)
{
    bbs_net_wiring w;
    unsigned char *pub, *mine;
    size_t plen, mlen;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_wiring_generate(33, 8, 4, &w, err), BB_OK);
    pub = slurp(DATA "dally-1056-intra", &plen);
    assert_int_equal(bbs_net_wiring_encode_intra(&w, &mine, &mlen, err), BB_OK);
    assert_int_equal(mlen, plen);
    assert_memory_equal(mine, pub, plen);
    free(pub);
    free(mine);
    pub = slurp(DATA "dally-1056-inter", &plen);
    assert_int_equal(bbs_net_wiring_encode_inter(&w, &mine, &mlen, err), BB_OK);
    assert_int_equal(plen, 1056 * 8);
    assert_int_equal(mlen, plen);
    assert_memory_equal(mine, pub, plen);
    /* the data README's spot check: router 0 -> 15, 23, 31, 39 */
    assert_int_equal(w.inter[0][1], 15);
    assert_int_equal(w.inter[3][1], 39);
    free(pub);
    free(mine);
    bbs_net_wiring_free(&w);
}

/* Reading the published files gives the same topology as generating. */
static void
test_read_files_build_same_topology(void **state)
{
    bbs_net_wiring w = { 0 };
    bbs_net_params par;
    bbs_net_topo *a = NULL, *b = NULL;
    unsigned char *buf;
    size_t len;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_preset("mfnetsim-1056", &par, err), BB_OK);
    buf = slurp(DATA "dally-1056-intra", &len);
    assert_int_equal(bbs_net_wiring_parse_intra(&w, buf, len, "intra", err), BB_OK);
    free(buf);
    buf = slurp(DATA "dally-1056-inter", &len);
    assert_int_equal(bbs_net_wiring_parse_inter(&w, buf, len, "inter", err), BB_OK);
    free(buf);
    assert_int_equal(w.nintra, 56);
    assert_int_equal(w.ninter, 1056);
    assert_int_equal(bbs_net_topo_build(&par, &w, &a, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &b, err), BB_OK);
    assert_int_equal(a->nlinks, b->nlinks);
    assert_memory_equal(a->link_src, b->link_src, (size_t)a->nlinks * sizeof(int));
    assert_memory_equal(a->link_dst, b->link_dst, (size_t)a->nlinks * sizeof(int));
    /* 33 x 8 x 4: 1,056 nodes, 990 compute (the first 30 of each group,
     * the first 2 of them shared with the group's 2 BB servers) */
    assert_int_equal(a->nodes, 1056);
    assert_int_equal(a->ncompute, 990);
    assert_int_equal(a->node_kind[0], BBS_NET_NODE_BB | BBS_NET_NODE_COMPUTE);
    assert_int_equal(a->node_kind[1], BBS_NET_NODE_BB | BBS_NET_NODE_COMPUTE);
    assert_int_equal(a->node_kind[2], BBS_NET_NODE_COMPUTE);
    assert_int_equal(a->node_kind[32], BBS_NET_NODE_BB | BBS_NET_NODE_COMPUTE);
    assert_int_equal(a->nlocal, 33 * 56);
    assert_int_equal(a->nglobal, 1056);
    /* one global link between every ordered pair of groups */
    for (int x = 0; x < 33; x++)
        for (int y = 0; y < 33; y++)
            assert_int_equal(bbs_net_topo_nglobal(a, x, y), x == y ? 0 : 1);
    bbs_net_topo_free(a);
    bbs_net_topo_free(b);
    bbs_net_wiring_free(&w);
}

/* Bad wiring: wrong size, out-of-range routers, not all-to-all, h wrong,
 * asymmetric, unconnected groups; CODES' rule refuses impossible shapes. */
static void
test_bad_wiring(void **state)
{
    bbs_net_wiring w = { 0 }, gen;
    bbs_net_params par;
    bbs_net_topo *t = NULL;
    unsigned char buf[12] = { 0 };
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_wiring_parse_inter(&w, buf, 7, "x-inter", err), BB_EDATA);
    assert_non_null(strstr(err, "x-inter: 7 bytes is not a whole number of 8-byte records"));
    assert_int_equal(bbs_net_wiring_parse_intra(&w, buf, 8, "x-intra", err), BB_EDATA);
    assert_int_equal(bbs_net_wiring_parse_intra(&w, buf, 0, "x-intra", err), BB_EDATA);

    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    assert_int_equal(bbs_net_wiring_generate(9, 4, 2, &gen, err), BB_OK);
    gen.inter[5][1] = 36; /* 36 routers: 0..35 */
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    assert_non_null(strstr(err, "record 6: router"));
    assert_non_null(strstr(err, "out of range 0..35"));
    assert_null(t);
    bbs_net_wiring_free(&gen);

    assert_int_equal(bbs_net_wiring_generate(9, 4, 2, &gen, err), BB_OK);
    gen.intra[0][1] = 0; /* router 0 -> 0 */
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    assert_non_null(strstr(err, "links to itself"));
    gen.intra[0][1] = 2; /* 0 -> 2 twice, 0 -> 1 missing */
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    assert_non_null(strstr(err, "no link from router 0 to 1"));
    bbs_net_wiring_free(&gen);

    /* p, a, h inconsistent with the wiring: the 72-node wiring read as h = 3 */
    assert_int_equal(bbs_net_wiring_generate(9, 4, 2, &gen, err), BB_OK);
    par.h = 3;
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    assert_non_null(strstr(err, "expected g*a*h"));
    par.h = 2;
    par.a = 5; /* intra records fine for a = 5? no: router 4 has no links */
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    par.a = 4;
    /* asymmetric: redirect one link to another group */
    gen.inter[0][1] = (gen.inter[0][1] + 4) % 36;
    if (gen.inter[0][1] / 4 == 0)
        gen.inter[0][1] += 8;
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    assert_non_null(strstr(err, "not symmetric"));
    bbs_net_wiring_free(&gen);

    /* a global link inside a group */
    assert_int_equal(bbs_net_wiring_generate(9, 4, 2, &gen, err), BB_OK);
    gen.inter[0][1] = 1;
    assert_int_equal(bbs_net_topo_build(&par, &gen, &t, err), BB_EDATA);
    assert_non_null(strstr(err, "stays in group 0"));
    bbs_net_wiring_free(&gen);

    /* a*h not a multiple of g-1 */
    assert_int_equal(bbs_net_wiring_generate(10, 4, 2, &gen, err), BB_EINVAL);
    assert_non_null(strstr(err, "multiple of g-1"));
    bbs_net_wiring_free(&w);
}

static bbs_net_conf *
parse_text(const char *text, int expect, char *err)
{
    bbs_net_conf *c = NULL;
    assert_int_equal(bbs_net_conf_parse(text, strlen(text), "t.conf", &c, err), expect);
    return c;
}

/* The legacy grammar and what CODES reads from the MFNetSim and CODES files. */
static void
test_codes_conf(void **state)
{
    bbs_net_conf *c;
    bbs_net_conf_dally d;
    unsigned char *buf;
    size_t len;
    char err[BB_ERRLEN];
    const bbs_net_conf_entry *e;
    const double GiB = 1073741824.0;

    (void)state;
    buf = slurp(DATA "dally-1056-min.conf", &len);
    assert_int_equal(bbs_net_conf_parse((char *)buf, len, "dally", &c, err), BB_OK);
    free(buf);
    e = bbs_net_conf_get(c, "PARAMS", "modelnet_order");
    assert_non_null(e);
    assert_int_equal(e->nvals, 3);
    assert_string_equal(e->vals[2], "simplenet");
    e = bbs_net_conf_get(c, "LPGROUPS/DRAGONFLY_GRP", "codes-store");
    assert_non_null(e);
    assert_string_equal(e->vals[0], "2");
    e = bbs_net_conf_get(c, "lsm", "request_sizes");
    assert_non_null(e);
    assert_int_equal(bbs_net_conf_dally_params(c, &d, err), BB_OK);
    assert_int_equal(d.par.g, 33);
    assert_int_equal(d.par.a, 8);
    assert_int_equal(d.par.p, 4);
    assert_int_equal(d.par.h, 4);
    assert_int_equal(d.par.bb_per_group, 2);
    /* GiB/s as CODES reads them: 4.7 (the paper's 4.37 is 4.7 GB/s) */
    assert_float_equal(d.par.global_bw_Bps, 4.7 * GiB, 1e-3);
    assert_float_equal(d.par.local_bw_Bps, 5.25 * GiB, 1e-3);
    assert_float_equal(d.par.cn_bw_Bps, 16.0 * GiB, 1e-3);
    assert_float_equal(d.par.router_delay_s, 100e-9, 1e-15); /* CODES' default */
    /* no link latency keys: dragonfly-dally's defaults on kronos-union, one
     * chunk (chunk_size = "4096") at the link's bandwidth: 4096 B / 16 GiB/s
     * = 238.4 ns, / 5.25 GiB/s = 726.6 ns, / 4.7 GiB/s = 811.6 ns */
    assert_float_equal(d.par.cn_delay_s, 4096 / (16.0 * GiB), 1e-18);
    assert_float_equal(d.par.local_delay_s, 4096 / (5.25 * GiB), 1e-18);
    assert_float_equal(d.par.global_delay_s, 4096 / (4.7 * GiB), 1e-18);
    /* 30 test-checkpoint-client LPs per repetition: 30 compute nodes per
     * group, mapped group-modulo beside the 2 servers */
    assert_int_equal(d.par.compute_per_group, 30);
    assert_string_equal(d.routing, "minimal");
    assert_non_null(strstr(d.intra_path, "dally-1056-intra"));
    bbs_net_conf_free(c);

    buf = slurp(DATA "dfdally_72.conf", &len);
    assert_int_equal(bbs_net_conf_parse((char *)buf, len, "72", &c, err), BB_OK);
    free(buf);
    assert_int_equal(bbs_net_conf_dally_params(c, &d, err), BB_OK);
    assert_int_equal(d.par.g, 9);
    assert_int_equal(d.par.a, 4);
    assert_int_equal(d.par.p, 2);
    assert_int_equal(d.par.h, 2);
    assert_int_equal(d.par.bb_per_group, 0);
    assert_int_equal(d.par.compute_per_group, 0);
    assert_float_equal(d.par.global_bw_Bps, 2.0 * GiB, 1e-3);
    bbs_net_conf_free(c);

    /* given link delays (ns) are read, the others are one chunk of
     * CODES' default chunk_size, 512 B: 512 / (2 GiB/s) and / (4 GiB/s) */
    c = parse_text("PARAMS { num_groups=\"9\"; num_routers=\"4\"; num_cns_per_router=\"2\";\n"
                   "num_global_channels=\"2\"; local_delay=\"50\";\n"
                   "cn_bandwidth=\"2\"; local_bandwidth=\"2\"; global_bandwidth=\"4\"; }",
                   BB_OK, err);
    assert_int_equal(bbs_net_conf_dally_params(c, &d, err), BB_OK);
    assert_float_equal(d.par.local_delay_s, 50e-9, 1e-18);
    assert_float_equal(d.par.cn_delay_s, 512 / (2 * GiB), 1e-18);
    assert_float_equal(d.par.global_delay_s, 512 / (4 * GiB), 1e-18);
    bbs_net_conf_free(c);

    /* comments of the three kinds, an annotation, a list, nested sections */
    c = parse_text("# c\nA { // c\n B { k@ann = \"v\"; /* c\n c */ l = (\"x\", \"y\"); }\n}\n",
                   BB_OK, err);
    e = bbs_net_conf_get(c, "A/B", "k");
    assert_non_null(e);
    assert_string_equal(e->annotation, "ann");
    assert_int_equal(e->line, 3);
    assert_int_equal(bbs_net_conf_get(c, "A/B", "l")->nvals, 2);
    bbs_net_conf_free(c);

    /* syntax errors name the file and line */
    c = parse_text("PARAMS {\n a = \"1\";\n b = 2;\n}\n", BB_EDATA, err);
    assert_null(c);
    assert_non_null(strstr(err, "t.conf:3: expected a quoted value"));
    parse_text("PARAMS {\n a = \"1;\n}\n", BB_EDATA, err);
    assert_non_null(strstr(err, "t.conf:2: unterminated string"));
    parse_text("PARAMS {\n a = \"1\";\n", BB_EDATA, err);
    assert_non_null(strstr(err, "missing '}'"));

    /* a missing num_global_channels is refused, not defaulted to 10 */
    c = parse_text("PARAMS { num_groups=\"9\"; num_routers=\"4\"; num_cns_per_router=\"2\";\n"
                   "cn_bandwidth=\"2\"; local_bandwidth=\"2\"; global_bandwidth=\"2\"; }",
                   BB_OK, err);
    assert_int_equal(bbs_net_conf_dally_params(c, &d, err), BB_EDATA);
    assert_non_null(strstr(err, "num_global_channels"));
    assert_non_null(strstr(err, "10"));
    bbs_net_conf_free(c);
    c = parse_text("PARAMS { num_groups=\"9\"; num_routers=\"4\"; num_cns_per_router=\"2\";\n"
                   "num_global_channels=\"2\";\n"
                   "cn_bandwidth=\"fast\"; local_bandwidth=\"2\"; global_bandwidth=\"2\"; }",
                   BB_OK, err);
    assert_int_equal(bbs_net_conf_dally_params(c, &d, err), BB_EDATA);
    assert_non_null(strstr(err, "t.conf:3: field 'cn_bandwidth': 'fast' is not a number"));
    bbs_net_conf_free(c);
    /* LP counts that do not match g*a*p */
    c = parse_text("LPGROUPS { G { repetitions=\"36\"; modelnet_dragonfly_dally=\"3\"; } }\n"
                   "PARAMS { num_groups=\"9\"; num_routers=\"4\"; num_cns_per_router=\"2\";\n"
                   "num_global_channels=\"2\";\n"
                   "cn_bandwidth=\"2\"; local_bandwidth=\"2\"; global_bandwidth=\"2\"; }",
                   BB_OK, err);
    assert_int_equal(bbs_net_conf_dally_params(c, &d, err), BB_EDATA);
    assert_non_null(strstr(err, "g*a*p"));
    bbs_net_conf_free(c);
}

/* Follow a path: consecutive links meet at a router, it starts at src and
 * ends at dst. */
static void
check_path(const bbs_net_topo *t, int src, int dst, const int *p, int len)
{
    assert_true(len >= 2 && len <= BBS_NET_MAX_PATH);
    assert_int_equal(p[0], BBS_NET_INJ(t, src));
    assert_int_equal(p[len - 1], BBS_NET_EJ(t, dst));
    for (int i = 0; i + 1 < len; i++)
        assert_int_equal(t->link_dst[p[i]], t->link_src[p[i + 1]]);
}

/* Minimal: at most 3 router hops (local, global, local); exactly 0 on the
 * same router, 1 in the same group; at least the BFS distance of the
 * router graph.  Valiant: at most 5, through a third group. */
static void
test_routing_paths(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    gsl_rng *r = bbs_rng_stream_new(NULL, 7, 0, 0);
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 }, vo = { BBS_NET_ROUTE_VAL, 0, 1 };
    char err[BB_ERRLEN];
    int path[BBS_NET_MAX_PATH], *dist, R;
    int count3 = 0, inter = 0;

    (void)state;
    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    R = t->routers;
    /* all-pairs router distances by BFS over router links */
    dist = malloc((size_t)R * R * sizeof(int));
    for (int s = 0; s < R; s++) {
        int *d = dist + s * R, q[64], h = 0, n = 0;
        for (int i = 0; i < R; i++)
            d[i] = -1;
        d[s] = 0;
        q[n++] = s;
        while (h < n) {
            int u = q[h++];
            for (int l = 2 * t->nodes; l < t->nlinks; l++)
                if (t->link_src[l] == u && d[t->link_dst[l]] < 0) {
                    d[t->link_dst[l]] = d[u] + 1;
                    q[n++] = t->link_dst[l];
                }
        }
    }
    for (int s = 0; s < t->nodes; s++)
        for (int d = 0; d < t->nodes; d++) {
            int len, hops, rs = s / 2, rd = d / 2, took;
            if (s == d)
                continue;
            len = bbs_net_route(t, &mo, s, d, r, NULL, path, &took);
            check_path(t, s, d, path, len);
            assert_true(took);
            hops = bbs_net_path_router_hops(t, path, len);
            assert_true(hops <= 3);
            assert_true(hops >= dist[rs * R + rd]);
            if (rs == rd)
                assert_int_equal(hops, 0);
            else if (rs / 4 == rd / 4)
                assert_int_equal(hops, 1);
            count3 += hops == 3;
            len = bbs_net_route(t, &vo, s, d, r, NULL, path, &took);
            check_path(t, s, d, path, len);
            assert_false(took);
            hops = bbs_net_path_router_hops(t, path, len);
            assert_true(hops <= 5);
            if (rs / 4 != rd / 4) {
                int globals = 0, mid = -1;
                inter++;
                for (int i = 0; i < len; i++)
                    if (t->link_kind[path[i]] == BBS_NET_LINK_GLOBAL) {
                        globals++;
                        if (globals == 1)
                            mid = t->link_dst[path[i]] / 4;
                    }
                assert_int_equal(globals, 2);
                assert_true(mid != rs / 4 && mid != rd / 4);
            }
        }
    assert_true(count3 > 0);
    assert_int_equal(inter, 72 * 64);
    /* delays: graph500-72 router 200 ns, links 50/500 ns (1 GHz assumed) */
    {
        int len = bbs_net_route(t, &mo, 0, 71, r, NULL, path, NULL);
        double expect = 0;
        for (int i = 0; i < len; i++)
            expect += t->link_kind[path[i]] == BBS_NET_LINK_GLOBAL ? 500e-9 : 50e-9;
        expect += (bbs_net_path_router_hops(t, path, len) + 1) * 200e-9;
        assert_float_equal(bbs_net_path_delay_s(t, path, len), expect, 1e-15);
    }
    free(dist);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* Contiguous placement equals MFNetSim's published contiguous allocation;
 * random policies give distinct compute nodes; errors name line and field. */
static void
test_placement(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    bbs_net_placement cont, file, rnd;
    int ranks[3] = { 300, 300, 300 };
    unsigned char *buf;
    size_t len;
    char err[BB_ERRLEN];
    gsl_rng *r = bbs_rng_stream_new(NULL, 3, 0, 0);

    (void)state;
    assert_int_equal(bbs_net_preset("mfnetsim-1056", &par, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(bbs_net_place(t, BBS_NET_PLACE_CONT, ranks, 3, r, &cont, err), BB_OK);
    buf = slurp(DATA "cont-1d-1056-mixwkld.conf", &len);
    assert_int_equal(bbs_net_alloc_parse(t, (char *)buf, len, "cont", &file, err), BB_OK);
    free(buf);
    assert_int_equal(file.njobs, 3);
    assert_memory_equal(file.job_off, cont.job_off, 4 * sizeof(int));
    assert_memory_equal(file.node, cont.node, 900 * sizeof(int));
    /* compute client 0 is node 0 (CODES' group-modulo mapping: client k
     * of a group on its terminal k), client 30 the first of group 1 */
    assert_int_equal(cont.node[0], 0);
    assert_int_equal(cont.node[30], 32);
    for (int k = BBS_NET_PLACE_RAND_NODE; k <= BBS_NET_PLACE_RAND_GROUP; k++) {
        char *seen = calloc((size_t)t->nodes, 1);
        assert_int_equal(bbs_net_place(t, k, ranks, 3, r, &rnd, err), BB_OK);
        for (int i = 0; i < 900; i++) {
            assert_true(t->node_kind[rnd.node[i]] & BBS_NET_NODE_COMPUTE);
            assert_false(seen[rnd.node[i]]);
            seen[rnd.node[i]] = 1;
        }
        if (k == BBS_NET_PLACE_RAND_GROUP) /* whole groups: 30 compute nodes each */
            for (int i = 0; i < 900; i += 30)
                assert_int_equal(rnd.node[i] / 32, rnd.node[i + 29] / 32);
        bbs_net_placement_free(&rnd);
        free(seen);
    }
    bbs_net_placement_free(&cont);
    bbs_net_placement_free(&file);
    /* errors */
    {
        int big[2] = { 900, 91 };
        assert_int_equal(bbs_net_place(t, BBS_NET_PLACE_CONT, big, 2, r, &rnd, err), BB_EINVAL);
        assert_non_null(strstr(err, "991 nodes but the topology has 990 compute nodes"));
    }
    assert_int_equal(bbs_net_alloc_parse(t, "0 1 2\n3 1\n", 10, "a", &rnd, err), BB_EDATA);
    assert_non_null(strstr(err, "a:2: field 2: node index 1 repeats (already used on line 1)"));
    assert_int_equal(bbs_net_alloc_parse(t, "0 990\n", 6, "a", &rnd, err), BB_EDATA);
    assert_non_null(strstr(err, "a:1: field 2: node index 990 is out of range 0..989"));
    assert_int_equal(bbs_net_alloc_parse(t, "0 x1\n", 5, "a", &rnd, err), BB_EDATA);
    assert_non_null(strstr(err, "a:1: field 2: 'x1' is not a node index"));
    assert_int_equal(bbs_net_alloc_parse(t, "\n\n", 2, "a", &rnd, err), BB_EDATA);
    assert_non_null(strstr(err, "no job"));
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* Presets: sizes of the three systems. */
/* Which terminals are compute nodes and which buffer nodes: bbsize's
 * layout (buffer nodes first, the rest compute) and CODES' group-modulo LP
 * mapping (compute_per_group: the first k terminals compute, the first
 * bb_per_group of them shared with a server, the rest idle). */
static void
test_node_layout(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_preset("mfnetsim-1056", &par, err), BB_OK);
    assert_int_equal(par.compute_per_group, 30);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(t->ncompute, 990);
    assert_int_equal(t->node_kind[0], BBS_NET_NODE_COMPUTE | BBS_NET_NODE_BB);
    assert_int_equal(t->node_kind[1], BBS_NET_NODE_COMPUTE | BBS_NET_NODE_BB);
    assert_int_equal(t->node_kind[2], BBS_NET_NODE_COMPUTE);
    assert_int_equal(t->node_kind[29], BBS_NET_NODE_COMPUTE);
    assert_int_equal(t->node_kind[30], 0);
    assert_int_equal(t->node_kind[31], 0);
    /* client 30 is the first of group 1: terminal 32; client 989 the last
     * of group 32: terminal 32 * 32 + 29 */
    assert_int_equal(t->compute_nodes[0], 0);
    assert_int_equal(t->compute_nodes[30], 32);
    assert_int_equal(t->compute_nodes[989], 32 * 32 + 29);
    bbs_net_topo_free(t);

    par.compute_per_group = 0;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(t->ncompute, 990);
    assert_int_equal(t->node_kind[0], BBS_NET_NODE_BB);
    assert_int_equal(t->node_kind[2], BBS_NET_NODE_COMPUTE);
    assert_int_equal(t->node_kind[31], BBS_NET_NODE_COMPUTE);
    assert_int_equal(t->compute_nodes[0], 2);
    assert_int_equal(t->compute_nodes[30], 34);
    bbs_net_topo_free(t);

    par.compute_per_group = 33;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "33 compute nodes per group"));
}

static void
test_presets(void **state)
{
    static const struct { const char *name; int nodes; } want[] = {
        { "graph500-72", 72 }, { "mfnetsim-1056", 1056 }, { "balanced-16k", 16512 } };
    char err[BB_ERRLEN];

    (void)state;
    for (size_t i = 0; i < 3; i++) {
        bbs_net_params par;
        bbs_net_topo *t;
        assert_int_equal(bbs_net_preset(want[i].name, &par, err), BB_OK);
        assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
        assert_int_equal(t->nodes, want[i].nodes);
        bbs_net_topo_free(t);
    }
    {
        bbs_net_params par;
        assert_int_equal(bbs_net_preset("torus", &par, err), BB_EINVAL);
        assert_non_null(strstr(err, "unknown topology preset 'torus'"));
    }
}

/* The router's delay is latency, not port time (dragonfly-dally's
 * router_packet_send adds router_delay to a chunk's arrival and takes it
 * off the port's next free time): with port_chunk_bytes = 4096 on
 * mfnetsim-1056 every link still carries its wires' bandwidth, and a path
 * of five links (inj, local, global, local, ej) pays each link's chunk
 * latency and 100 ns for each of the 4 routers it enters.  By hand, with
 * 4096 / 2^30 = 3.814697265625e-6: terminal 16 GiB/s -> 238.4186 ns,
 * local 5.25 GiB/s -> 726.6090 ns, global 4.7 GiB/s -> 811.6377 ns:
 * 2 x 238.4186 + 2 x 726.6090 + 811.6377 + 4 x 100 = 3141.6929 ns.  A flow
 * of 1e6 B alone on that chain goes at the global wires' 4.7 GiB/s
 * (5,046,586,572.8 B/s): it ends 198.1537 us after it starts. */
static double chain_end_s, chain_delay_s;

static int
chain_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    (void)e;
    (void)ctx;
    chain_end_s = info->t_end_s - info->t_start_s;
    chain_delay_s = info->delay_s;
    return BB_OK;
}

static void
test_router_delay_is_latency(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    bbs_engine *e;
    bbs_net_fabric *f;
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    int p[BBS_NET_MAX_PATH], len, dst = -1, a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_preset("mfnetsim-1056", &par, err), BB_OK);
    par.port_chunk_bytes = 4096;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    for (int l = 0; l < t->nlinks; l++) {
        int k = t->link_kind[l];
        double bw = k == BBS_NET_LINK_LOCAL ? 5.25 : k == BBS_NET_LINK_GLOBAL ? 4.7 : 16.0;
        assert_true(t->link_cap_Bps[l] == bw * 1073741824.0 * t->link_mult[l]);
        assert_true(bbs_net_link_wire_Bps(t, l) == t->link_cap_Bps[l]);
    }
    a = t->par.a;
    for (int y = 1; y < t->par.g && dst < 0; y++) {
        int l = bbs_net_topo_global_links(t, 0, y)[0];
        if (t->link_src[l] != 0 && t->link_mult[l] == 1)
            dst = (y * a + (t->link_dst[l] % a + 1) % a) * t->par.p;
    }
    assert_true(dst > 0);
    len = bbs_net_route(t, &mo, 0, dst, NULL, NULL, p, NULL);
    assert_int_equal(len, 5);
    assert_int_equal(t->link_kind[p[1]], BBS_NET_LINK_LOCAL);
    assert_int_equal(t->link_kind[p[2]], BBS_NET_LINK_GLOBAL);
    assert_int_equal(t->link_kind[p[3]], BBS_NET_LINK_LOCAL);
    assert_int_equal(t->link_mult[p[2]], 1);
    assert_float_equal(bbs_net_path_delay_s(t, p, len), 3141.6929e-9, 1e-13);
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    assert_int_equal(bbs_net_fabric_new(&f, t, e, chain_done, NULL, err), BB_OK);
    assert_int_equal(bbs_net_fabric_start(f, 0, dst, 1e6, p, len, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_engine_run(e, 1.0), BB_OK);
    assert_float_equal(chain_end_s, 198.1537e-6, 1e-10);
    assert_float_equal(chain_delay_s, 3141.6929e-9, 1e-13);
    bbs_net_fabric_free(f);
    bbs_engine_free(e);
    bbs_net_topo_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wiring_matches_published_1056),
        cmocka_unit_test(test_read_files_build_same_topology),
        cmocka_unit_test(test_bad_wiring),
        cmocka_unit_test(test_codes_conf),
        cmocka_unit_test(test_routing_paths),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_node_layout),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_router_delay_is_latency),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
