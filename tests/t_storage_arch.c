/* t_storage_arch.c: the burst-buffer architectures (sim/storage/arch.h):
 * client maps, hand-computed latencies, the SSD/HDD threshold, capacity
 * bounds and the byte accounting with and without failures of every
 * component (node, drive, controller, link), failure counts against their
 * rates, failure times by seed, lazy draining, the network interface with
 * the simple network and the dragonfly behind it, bad parameters.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "bb_error.h"
#include "network/topo.h"
#include "storage/arch.h"
#include "storage/arch_dfly.h"

#include "storage_test.h"

static double temp_t[] = { 0 }, temp_C[] = { 40 };

/* A deterministic SSD (Yoo model: 4 KiB pages, T_w = 10 (N - 1) + 70 us). */
static void
ssd(bbs_dev_params *p)
{
    bbs_dev_params_init(p, BBS_DEV_SSD);
    p->capacity_bytes = 1e12;
    p->ssd = (bbs_ssd_params){ 4096, 8, 4, 0, 100, 70, 10, 10, 0 };
}

static void
base(bbs_arch_config *c, bbs_arch_kind kind)
{
    bbs_arch_config_init(c);
    c->kind = kind;
    c->n_clients = 30;
    c->n_nodes = 2;
    ssd(&c->bb_dev);
    hp97560(&c->hdd_dev); /* a small, slow disk */
    c->capacity_bytes = 256.0 * 1048576;
    c->net_latency_s = 2e-6;
    c->net_bw_Bps = 5.25 * 1073741824.0;
    c->pfs_bw_Bps = 200e6;
    c->req_bytes = 8.0 * 1048576;
    c->mean_interarrival_s = 1.0;
    c->horizon_s = 200;
    c->drain_chunk_bytes = 16.0 * 1048576;
    c->temp = (bbs_temp_series){ 1, temp_t, temp_C };
    c->seed = 1;
}

static void
test_maps(void **st)
{
    bbs_arch_config c;
    int map[990], again[990], counts[66] = { 0 }, bad[4] = { 0, 1, 1, -1 };
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    /* MFNetSim: 990 compute nodes, 66 burst-buffer nodes, blocks of 15 */
    c.n_clients = 990;
    c.n_nodes = 66;
    assert_int_equal(bbs_arch_map(&c, map, err), BB_OK);
    for (int i = 0; i < 990; i++) {
        assert_int_equal(map[i], i / 15);
        counts[map[i]]++;
    }
    c.map = BBS_MAP_ROUND_ROBIN;
    assert_int_equal(bbs_arch_map(&c, map, err), BB_OK);
    assert_int_equal(map[67], 1);
    c.map = BBS_MAP_RANDOM;
    assert_int_equal(bbs_arch_map(&c, map, err), BB_OK);
    assert_int_equal(bbs_arch_map(&c, again, err), BB_OK);
    assert_memory_equal(map, again, sizeof map);
    for (int i = 0; i < 990; i++)
        assert_true(map[i] >= 0 && map[i] < 66);
    c.n_clients = 4;
    c.n_nodes = 2;
    c.map = BBS_MAP_EXPLICIT;
    c.explicit_map = bad;
    assert_int_equal(bbs_arch_map(&c, map, err), BB_EINVAL);
    assert_non_null(strstr(err, "client 3 maps to node -1"));
    c.map = BBS_MAP_STATIC_BLOCK;
    c.n_nodes = 0;
    assert_int_equal(bbs_arch_map(&c, map, err), BB_EINVAL);
    assert_non_null(strstr(err, "every client needs a buffer"));
}

/* One client writing 1 MiB every 100 s on average: no queueing. */
static void
sparse(bbs_arch_config *c)
{
    base(c, BBS_ARCH_COMPUTE_GLOBAL);
    c->n_clients = 1;
    c->req_bytes = 1048576;
    c->mean_interarrival_s = 100;
    c->horizon_s = 5000;
}

/* Sparse arrivals (no queueing): the write latency is the network time
 * plus the SSD's T_w; node-local has no network.  Greedy draining empties
 * every buffer to the PFS. */
static void
test_latency_hand(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];
    /* 1 MiB = 256 pages: T_w = 10 x 255 + 70 us = 2620 us */
    double tw = 2620e-6, net;

    (void)st;
    sparse(&c);
    net = 2e-6 + 1048576 / c.net_bw_Bps;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.requests > 10);
    assert_close(r.mean_write_latency_s, net + tw, 1e-12);
    assert_close(r.bytes_in_buffers + r.bytes_on_pfs, r.bytes_written, 0);
    assert_close(r.stall_s, 0, 0);
    c.kind = BBS_ARCH_NODE_LOCAL;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_close(r.mean_write_latency_s, tw, 1e-12);
}

/* The node's ingress link is shared: with 1 MB/s links and 30 clients
 * offering 252 MB/s to 2 nodes, at most 2 x 1 MB/s x 200 s reach the
 * buffers. */
static void
test_link_shared(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.net_bw_Bps = 1e6;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.bytes_written > 0);
    assert_true(r.bytes_written <= 2 * 1e6 * 200);
    assert_true(r.mean_write_latency_s > 10); /* the link queue */
}

/* Storage-side: under 64 KiB to the SSD (buffer), the rest to the HDD (on
 * the storage tier at once). */
static void
test_storage_side_threshold(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_STORAGE_SIDE);
    c.req_bytes = 4096;
    c.horizon_s = 50;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.writes_ssd > 0);
    assert_int_equal(r.writes_hdd, 0);
    c.req_bytes = 65536; /* not under the threshold */
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_int_equal(r.writes_ssd, 0);
    assert_true(r.writes_hdd > 0);
    assert_close(r.bytes_on_pfs, r.bytes_written, 0);
    assert_close(r.bytes_in_buffers, 0, 0);
}

/* Capacity within [0, size] and written = pfs + buffers + lost at every
 * event, for the three architectures, greedy and lazy, with and without
 * failures; the load (30 clients x 8 MiB/s = 252 MB/s against a 200 MB/s
 * PFS) keeps the shared buffers full, so admission stalls happen. */
static void
test_accounting(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];

    (void)st;
    for (int kind = 0; kind < 3; kind++)
        for (int lazy = 0; lazy < 2; lazy++)
            for (int fail = 0; fail < 2; fail++) {
                base(&c, (bbs_arch_kind)kind);
                if (kind == BBS_ARCH_NODE_LOCAL)
                    c.n_clients = 4; /* 4 buffers, 4 x 8 MiB/s */
                c.drain.kind = lazy ? BB_DRAIN_LAZY : BB_DRAIN_GREEDY;
                c.drain.threshold = c.capacity_bytes / 2;
                if (kind == BBS_ARCH_STORAGE_SIDE) {
                    /* 32 KiB requests go to the SSD buffer: 30 clients x 500/s
                     * = 491 MB/s on 4 I/O nodes, for 20 s */
                    c.req_bytes = 32768;
                    c.n_nodes = 4;
                    c.mean_interarrival_s = 2e-3;
                    c.horizon_s = 20;
                }
                if (fail) {
                    c.fail.rate_per_s = kind == BBS_ARCH_STORAGE_SIDE ? 1.0 / 5 : 1.0 / 40;
                    c.repair = (bbs_repair){ BBS_REPAIR_EXPONENTIAL, 5 };
                }
                assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
                print_message("# arch %d lazy %d fail %d: written %.4g B, pfs %.4g, buffers "
                              "%.4g, lost %.4g (%llu files), stall %.3g s, failures %llu, "
                              "max used %.4f\n", kind, lazy, fail, r.bytes_written,
                              r.bytes_on_pfs, r.bytes_in_buffers, r.bytes_lost,
                              (unsigned long long)r.files_lost, r.stall_s,
                              (unsigned long long)r.node_failures, r.max_used_fraction);
                assert_true(r.bytes_written > 0);
                assert_true(r.max_used_fraction <= 1 + 1e-12);
                assert_true(r.min_used_bytes >= -1e-6);
                assert_true(r.max_identity_error <= 1e-9 * r.bytes_written);
                assert_close(r.bytes_written,
                             r.bytes_on_pfs + r.bytes_in_buffers + r.bytes_lost,
                             1e-9 * r.bytes_written);
                if (fail) {
                    assert_true(r.node_failures > 0);
                    assert_true(r.bytes_lost > 0 && r.files_lost > 0);
                } else {
                    assert_close(r.bytes_lost, 0, 0);
                }
                if (kind != BBS_ARCH_NODE_LOCAL && !fail)
                    assert_true(r.stall_s > 0);
            }
}

/* Lazy with the threshold at the capacity and EPS = 0 never drains a
 * buffer that stays below it; greedy drains it. */
static void
test_lazy_quiet(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_clients = 2;
    c.capacity_bytes = 1e12;
    c.horizon_s = 20;
    c.drain.kind = BB_DRAIN_LAZY;
    c.drain.threshold = 1e12;
    c.drain.eps = 0;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.bytes_written > 0);
    assert_close(r.bytes_on_pfs, 0, 0);
    c.drain.eps = 1; /* a chunk at every check */
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.bytes_on_pfs > 0);
}

/* Drives only, shape 1 (exponential lives, mean 50 s), near-instant
 * repairs: over 200 s on 20 nodes the drive failures are about Poisson with
 * mean 20 x 200 / 50 = 80 (4 sigma); nothing else fails; the accounting
 * holds. */
static void
test_drive_failures(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_nodes = 20;
    c.drive = (bbs_weibull){ 1, 50 };
    c.repair = (bbs_repair){ BBS_REPAIR_FIXED, 1e-3 };
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    print_message("# drive failures %llu (expected about 80)\n",
                  (unsigned long long)r.drive_failures);
    assert_int_equal(r.node_failures, 0);
    assert_true(fabs((double)r.drive_failures - 80) <= 4 * sqrt(80.0));
    assert_true(r.bytes_lost > 0);
    assert_close(r.bytes_written, r.bytes_on_pfs + r.bytes_in_buffers + r.bytes_lost,
                 1e-9 * r.bytes_written);
    assert_true(r.max_identity_error <= 1e-9 * r.bytes_written);
    c.drive = (bbs_weibull){ 0, 50 };
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "drive Weibull shape 0"));
}

static void
test_seed(void **st)
{
    bbs_arch_config c;
    bbs_arch_result a, b;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.fail.rate_per_s = 1.0 / 40;
    c.repair = (bbs_repair){ BBS_REPAIR_EXPONENTIAL, 5 };
    assert_int_equal(bbs_arch_run(&c, &a, err), BB_OK);
    assert_int_equal(bbs_arch_run(&c, &b, err), BB_OK);
    assert_memory_equal(&a, &b, sizeof a);
    c.seed = 2;
    assert_int_equal(bbs_arch_run(&c, &b, err), BB_OK);
    assert_true(a.bytes_written != b.bytes_written || a.bytes_lost != b.bytes_lost);
}

/* iostat rows: one per device and interval, in node order; the written
 * kB/s integrate to the bytes the buffer devices wrote; utilisation in
 * [0, 100] %, used within the capacity. */
typedef struct { int rows; double bytes, last_t; int bad; } rows_acc;

static int
take_row(void *ctx, const bbs_arch_sample *row)
{
    rows_acc *a = ctx;
    a->rows++;
    a->bytes += row->w_kBps * 1e3 * 10; /* interval 10 s */
    if (row->util_pct < 0 || row->util_pct > 100 + 1e-9 || row->used_bytes > 256.0 * 1048576
        || row->t_s < a->last_t || row->health != BBS_HEALTH_OK)
        a->bad++;
    a->last_t = row->t_s;
    return BB_OK;
}

static void
test_iostat_rows(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    rows_acc a = { 0, 0, 0, 0 };
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.sample_interval_s = 10;
    c.sample_fn = take_row;
    c.sample_ctx = &a;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_int_equal(a.rows, 2 * 20);
    assert_int_equal(a.bad, 0);
    /* every write completes on a buffer device: the rows add up to it */
    assert_close(a.bytes, r.bytes_written, 1e-6 * r.bytes_written);
}

/* ---- controller and link failures ---------------------------------------------- */

/* The Arrhenius factor at 40 C against 25 C with Ea = 0.38 eV, by hand. */
static double
factor40(void)
{
    return exp(0.38 / 8.617333262e-5 * (1 / 298.15 - 1 / 313.15));
}

static void
all_failures(bbs_arch_config *c, double node, double drive, double ctrl, double link,
             double repair_s)
{
    bbs_repair rep = { BBS_REPAIR_EXPONENTIAL, repair_s };
    c->fail.rate_per_s = node;
    c->repair = rep;
    c->drive = (bbs_weibull){ drive > 0 ? 1 : 0, drive > 0 ? 1 / drive : 0 };
    c->ctrl_fail.rate_per_s = ctrl;
    c->ctrl_repair = rep;
    c->link_fail.rate_per_s = link;
    c->link_repair = rep;
}

/* Each component type alone is a renewal process; with near-instant
 * repairs its failures over 20 nodes x 1000 s are Poisson with mean
 * 20 x 1000 x rate (x the Arrhenius factor at 40 C for the electronics);
 * all four types on at once, each count within 4 sigma of its own mean.
 * Drives: exponential lives (shape 1), which have no temperature factor. */
static void
test_component_counts(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];
    double f = factor40(), T = 1000, n = 20, m[4];
    double rate[4] = { 1.0 / 400, 1.0 / 250, 1.0 / 200, 1.0 / 300 };
    uint64_t got[4];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_nodes = 20;
    c.horizon_s = T;
    c.mean_interarrival_s = 5;
    all_failures(&c, rate[0], rate[1], rate[2], rate[3], 0);
    c.repair = c.ctrl_repair = c.link_repair = (bbs_repair){ BBS_REPAIR_FIXED, 1e-3 };
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    got[0] = r.node_failures;
    got[1] = r.drive_failures;
    got[2] = r.ctrl_failures;
    got[3] = r.link_failures;
    for (int k = 0; k < 4; k++) {
        m[k] = n * T * rate[k] * (k == 1 ? 1 : f);
        print_message("# component %d: %llu failures, expected %.1f\n", k,
                      (unsigned long long)got[k], m[k]);
        assert_true(fabs((double)got[k] - m[k]) <= 4 * sqrt(m[k]));
    }
    assert_true(r.max_identity_error <= 1e-9 * r.bytes_written);
}

/* Every failure type on, the three architectures (no link for node-local),
 * with and without fail-over: written = pfs + buffers + lost after every
 * event, capacity in [0, size], every request written or in flight. */
static void
test_all_failures_accounting(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    char err[BB_ERRLEN];

    (void)st;
    for (int kind = 0; kind < 3; kind++)
        for (int fo = 0; fo < 2; fo++) {
            base(&c, (bbs_arch_kind)kind);
            c.n_nodes = 4;
            if (kind == BBS_ARCH_NODE_LOCAL)
                c.n_clients = 4;
            if (kind == BBS_ARCH_STORAGE_SIDE) {
                c.req_bytes = 32768;
                c.mean_interarrival_s = 5e-3;
                c.horizon_s = 20;
            }
            all_failures(&c, 1.0 / (c.horizon_s / 2), 1.0 / c.horizon_s,
                         4 / c.horizon_s, kind == BBS_ARCH_NODE_LOCAL ? 0 : 4 / c.horizon_s,
                         c.horizon_s / 40);
            c.link_failover = fo;
            assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
            print_message("# arch %d failover %d: written %.4g = pfs %.4g + buffers %.4g + "
                          "lost %.4g; failures %llu/%llu/%llu/%llu, failovers %llu, "
                          "%llu checks\n", kind, fo, r.bytes_written, r.bytes_on_pfs,
                          r.bytes_in_buffers, r.bytes_lost,
                          (unsigned long long)r.node_failures,
                          (unsigned long long)r.drive_failures,
                          (unsigned long long)r.ctrl_failures,
                          (unsigned long long)r.link_failures,
                          (unsigned long long)r.failovers,
                          (unsigned long long)r.identity_checks);
            assert_true(r.bytes_written > 0);
            assert_true(r.node_failures > 0 && r.drive_failures > 0 && r.ctrl_failures > 0);
            assert_true(kind == BBS_ARCH_NODE_LOCAL ? r.link_failures == 0
                                                    : r.link_failures > 0);
            assert_true(fo && kind != BBS_ARCH_NODE_LOCAL ? r.failovers > 0 : r.failovers == 0);
            assert_true(r.identity_checks >= r.requests);
            assert_true(r.max_identity_error <= 1e-9 * r.bytes_written);
            assert_close(r.bytes_written, r.bytes_on_pfs + r.bytes_in_buffers + r.bytes_lost,
                         1e-9 * r.bytes_written);
            assert_true(r.max_used_fraction <= 1 + 1e-12);
            assert_true(r.min_used_bytes >= -1e-6);
            assert_int_equal(r.writes_done + r.requests_in_flight, r.requests);
        }
}

/* The failure log: states by class, time order, fail/repair alternating
 * per component. */
typedef struct {
    int n;
    double t[4096];
    int node[4096], cls[4096], health[4096];
    int bad;
} flog;

static int
take_fail(void *ctx, double t, int node, bbs_comp_class cls, bbs_health h)
{
    flog *l = ctx;
    static const bbs_health want[4] = { BBS_HEALTH_LOST, BBS_HEALTH_LOST, BBS_HEALTH_BAD,
                                        BBS_HEALTH_MISSED };
    if (l->n == 4096)
        return BB_ENOMEM;
    if ((l->n > 0 && t < l->t[l->n - 1]) || (h != BBS_HEALTH_OK && h != want[cls]))
        l->bad++;
    /* the previous entry of this component has the other state */
    for (int i = l->n - 1; i >= 0; i--)
        if (l->node[i] == node && l->cls[i] == (int)cls) {
            if ((l->health[i] == BBS_HEALTH_OK) == (h == BBS_HEALTH_OK))
                l->bad++;
            break;
        }
    l->t[l->n] = t;
    l->node[l->n] = node;
    l->cls[l->n] = (int)cls;
    l->health[l->n++] = (int)h;
    return BB_OK;
}

/* Controller failures alone lose nothing (the data waits behind the
 * controller); link failures alone lose nothing either, and without
 * fail-over they only delay requests.  Same seed, same failure times; the
 * failure times do not depend on the load (their own streams). */
static void
test_ctrl_link_semantics(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r, r0;
    static flog a, b, d;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_nodes = 4;
    assert_int_equal(bbs_arch_run(&c, &r0, err), BB_OK);
    all_failures(&c, 0, 0, 1.0 / 50, 1.0 / 50, 10);
    c.fail_fn = take_fail;
    c.fail_ctx = &a;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.ctrl_failures > 0 && r.link_failures > 0);
    assert_int_equal(a.bad, 0);
    assert_close(r.bytes_lost, 0, 0);
    assert_int_equal(r.files_lost, 0);
    assert_true(r.stall_s > r0.stall_s);
    assert_int_equal(r.requests, r0.requests);
    assert_close(r.bytes_written, r.bytes_on_pfs + r.bytes_in_buffers, 1e-9 * r.bytes_written);
    c.fail_ctx = &b;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.t, b.t, (size_t)a.n * sizeof a.t[0]);
    assert_memory_equal(a.node, b.node, (size_t)a.n * sizeof a.node[0]);
    c.mean_interarrival_s = 0.5; /* another load, the same failure times */
    c.fail_ctx = &d;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_int_equal(a.n, d.n);
    assert_memory_equal(a.t, d.t, (size_t)a.n * sizeof a.t[0]);
    c.seed = 2;
    c.fail_ctx = &d;
    d.n = 0;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(d.n != a.n || memcmp(a.t, d.t, (size_t)a.n * sizeof a.t[0]) != 0);
}

/* All clients write to node 0 of 2; links fail (rate 1/50 s each) and
 * take 20 s to repair.  Without fail-over the requests wait at their
 * clients through node 0's outages; with it they go to node 1 while its
 * link works, and wait less.  Node-local buffers have no link to fail. */
static void
test_link_failover(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r0, r, r1;
    char err[BB_ERRLEN];

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_clients = 4;
    c.n_nodes = 2;
    c.map = BBS_MAP_EXPLICIT;
    c.explicit_map = (int[]){ 0, 0, 0, 0 };
    c.horizon_s = 400;
    c.capacity_bytes = 1e12;
    assert_int_equal(bbs_arch_run(&c, &r0, err), BB_OK);
    c.link_fail = (bbs_arrhenius){ 1.0 / 50, 0, 25 }; /* Ea 0: no temperature effect */
    c.link_repair = (bbs_repair){ BBS_REPAIR_FIXED, 20 };
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.link_failures > 0);
    assert_int_equal(r.failovers, 0);
    assert_true(r.stall_s > r0.stall_s + 20);
    assert_int_equal(r.writes_done + r.requests_in_flight, r.requests);
    c.link_failover = 1;
    assert_int_equal(bbs_arch_run(&c, &r1, err), BB_OK);
    print_message("# link stalls: none %.3g s, waiting %.4g s, fail-over %.4g s (%llu "
                  "requests redirected)\n", r0.stall_s, r.stall_s, r1.stall_s,
                  (unsigned long long)r1.failovers);
    assert_int_equal(r1.requests, r.requests);
    assert_true(r1.failovers > 0);
    assert_true(r1.stall_s < r.stall_s);
    assert_int_equal(r1.writes_done + r1.requests_in_flight, r1.requests);
    assert_close(r1.bytes_lost, 0, 0);
    c.kind = BBS_ARCH_NODE_LOCAL;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "no network link"));
}

/* ---- the network interface --------------------------------------------------------- */

/* A recording wrapper around any network class: start and delivery times
 * per buffer node (the interface's contract lets it sit in between). */
#define RMAX 8192
typedef struct {
    const bbs_arch_net_class *inner;
    void *impl;
    bbs_engine *e;
    bbs_arch_net_deliver_fn deliver;
    void *ctx;
    int nstart[4], ndone[4];
    double start[4][RMAX], done[4][RMAX];
} rec;
static rec *rec_cur;

static int
rec_deliver(void *ctx, int client, int node, double bytes, int64_t tag)
{
    rec *R = ctx;
    if (R->ndone[node] < RMAX)
        R->done[node][R->ndone[node]++] = bbs_engine_now(R->e);
    return R->deliver(R->ctx, client, node, bytes, tag);
}

static int
rec_open(void **impl, const void *params, bbs_engine *e, int nc, int nn, uint64_t seed,
         uint64_t unit, bbs_arch_net_deliver_fn deliver, void *ctx, char *err)
{
    rec *R = rec_cur;
    R->e = e;
    R->deliver = deliver;
    R->ctx = ctx;
    *impl = R;
    return R->inner->open(&R->impl, params, e, nc, nn, seed, unit, rec_deliver, R, err);
}

static int
rec_start(void *impl, int client, int node, double bytes, int64_t tag, char *err)
{
    rec *R = impl;
    if (R->nstart[node] < RMAX)
        R->start[node][R->nstart[node]++] = bbs_engine_now(R->e);
    return R->inner->start(R->impl, client, node, bytes, tag, err);
}

static void
rec_close(void *impl)
{
    rec *R = impl;
    R->inner->close(R->impl);
}

static const bbs_arch_net_class rec_class = { "recording", rec_open, rec_start, rec_close };

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* graph500-72 (all links 5 GB/s, delays 50 ns per terminal or local link,
 * 500 ns global, 200 ns per router) with 2 burst-buffer terminals per group. */
static bbs_net_topo *
g500(void)
{
    bbs_net_params par;
    bbs_net_topo *t = NULL;
    char err[BB_ERRLEN];

    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    par.bb_per_group = 2;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    return t;
}

/* Idle: client 0 is terminal 2 (router 1), buffer node 0 terminal 0
 * (router 0); the minimal path is injection, one local link, ejection:
 * 3 x 50 ns + 2 routers x 200 ns = 550 ns of delays, and 1 MiB at 5 GB/s;
 * then the SSD's T_w as in test_latency_hand. */
static void
test_dragonfly_idle(void **st)
{
    bbs_arch_config c;
    bbs_arch_result r;
    bbs_net_topo *t = g500();
    bbs_arch_dfly_params dp = { t, { BBS_NET_ROUTE_MIN, 0, 1 } };
    char err[BB_ERRLEN];

    (void)st;
    sparse(&c);
    c.net = &bbs_arch_net_dragonfly;
    c.net_params = &dp;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.requests > 10);
    assert_close(r.mean_write_latency_s, 550e-9 + 1048576 / 5e9 + 2620e-6, 1e-12);
    c.n_clients = 100; /* 72 terminals, 18 of them buffers */
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "54 compute terminals"));
    c.n_clients = 1;
    c.n_nodes = 19;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "18 burst-buffer terminals"));
    bbs_net_topo_free(t);
}

/* The same load behind both networks: the same requests, both conserve
 * bytes, every request written or in flight; the dragonfly delivers no
 * transfer to a node earlier than the simple network does with the
 * node's ejection-link capacity (5 GB/s) and no latency (the j-th delivery
 * of any sharing of one link is no earlier than the j-th of FIFO for equal
 * sizes).  The load is heavy (36 clients x 64 MiB/s against 4 nodes'
 * 5 GB/s links, from groups 0 to 1 over global links) so that links are
 * shared. */
static void
test_dragonfly_vs_simple(void **st)
{
    bbs_arch_config c;
    bbs_arch_result rs, rd;
    bbs_net_topo *t = g500();
    bbs_arch_dfly_params dp = { t, { BBS_NET_ROUTE_MIN, 0, 1 } };
    bbs_arch_simple_net sp = { 0, 5e9 };
    static rec Rs, Rd;
    char err[BB_ERRLEN];
    long later = 0, n = 0;

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_clients = 36;
    c.n_nodes = 4;
    c.map = BBS_MAP_ROUND_ROBIN;
    c.req_bytes = 64.0 * 1048576;
    c.mean_interarrival_s = 1;
    c.capacity_bytes = 1e12;
    c.pfs_bw_Bps = 20e9;
    c.horizon_s = 20;
    Rs.inner = &bbs_arch_net_simple;
    rec_cur = &Rs;
    c.net = &rec_class;
    c.net_params = &sp;
    assert_int_equal(bbs_arch_run(&c, &rs, err), BB_OK);
    Rd.inner = &bbs_arch_net_dragonfly;
    rec_cur = &Rd;
    c.net_params = &dp;
    assert_int_equal(bbs_arch_run(&c, &rd, err), BB_OK);
    assert_int_equal(rs.requests, rd.requests);
    assert_true(rd.bytes_written > 0);
    for (int i = 0; i < 2; i++) {
        bbs_arch_result *r = i ? &rd : &rs;
        assert_close(r->bytes_written, r->bytes_on_pfs + r->bytes_in_buffers + r->bytes_lost,
                     1e-9 * r->bytes_written);
        assert_true(r->max_identity_error <= 1e-9 * r->bytes_written);
        assert_int_equal(r->writes_done + r->requests_in_flight, r->requests);
    }
    for (int k = 0; k < 4; k++) {
        assert_int_equal(Rs.nstart[k], Rd.nstart[k]);
        assert_memory_equal(Rs.start[k], Rd.start[k], (size_t)Rs.nstart[k] * sizeof(double));
        assert_true(Rd.ndone[k] <= Rs.ndone[k]);
        qsort(Rd.done[k], (size_t)Rd.ndone[k], sizeof(double), cmp_d);
        for (int j = 0; j < Rd.ndone[k]; j++) {
            assert_true(Rd.done[k][j] >= Rs.done[k][j] - 1e-12);
            later += Rd.done[k][j] > Rs.done[k][j] + 1e-6;
            n++;
        }
    }
    print_message("# dragonfly deliveries %ld, %ld of them > 1 us after the bound\n", n, later);
    assert_true(n > 100 && later > 0);
    bbs_net_topo_free(t);
}

static void
expect_bad(bbs_arch_config *c, const char *needle)
{
    bbs_arch_result r;
    char err[BB_ERRLEN];

    err[0] = 0;
    assert_int_equal(bbs_arch_run(c, &r, err), BB_EINVAL);
    if (!strstr(err, needle))
        fail_msg("message '%s' lacks '%s'", err, needle);
}

static void
test_bad(void **st)
{
    bbs_arch_config c;

    (void)st;
    base(&c, BBS_ARCH_STORAGE_SIDE);
    c.capacity_bytes = 0;
    expect_bad(&c, "capacity 0 B is not > 0");
    base(&c, BBS_ARCH_STORAGE_SIDE);
    c.pfs_bw_Bps = 0;
    expect_bad(&c, "PFS bandwidth");
    base(&c, BBS_ARCH_STORAGE_SIDE);
    c.ssd_threshold_bytes = 0;
    expect_bad(&c, "threshold 0 B is not a positive size");
    base(&c, BBS_ARCH_STORAGE_SIDE);
    c.req_bytes = 1e12;
    expect_bad(&c, "request size");
    base(&c, BBS_ARCH_STORAGE_SIDE);
    c.fail.rate_per_s = 1e-3;
    c.temp.n = 0;
    expect_bad(&c, "temperature series is empty");
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_nodes = 0;
    expect_bad(&c, "every client needs a buffer");
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.bb_dev.ssd.page_bytes = 0;
    expect_bad(&c, "page_bytes");
}

/* The cost before a run (bbs_arch_estimate): a run whose state fits a
 * core's cache costs its events (plus its set-up); the work per event
 * grows with the nodes but never past the cost of all of an event's
 * touches missing both caches; memory is linear in the nodes. */
static void
test_estimate_scales(void **st)
{
    bbs_arch_config c;
    double ev, by, work, ev2, by2, work2, prev = 1;

    (void)st;
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    bbs_arch_estimate(&c, &ev, &by, &work);
    assert_true(by < 512.0 * 1024);             /* 2 nodes, 30 clients */
    assert_true(work >= ev && work < ev + by);  /* set-up < 1 event a byte */
    base(&c, BBS_ARCH_NODE_LOCAL);
    c.horizon_s = 1000;         /* 6,000 events a node: the set-up is a few % */
    for (int n = 100; n <= 1000000; n *= 10) {
        double ratio;

        c.n_clients = n;
        bbs_arch_estimate(&c, &ev, &by, &work);
        c.n_clients = 2 * n;
        bbs_arch_estimate(&c, &ev2, &by2, &work2);
        assert_true(fabs(by2 / by - 2) < 1e-12);  /* bytes per node and client */
        ratio = work / ev;
        print_message("# %d node-local buffers: %.3g B, %.3g events of work %.3g each\n", n,
                      by, ev, ratio);
        assert_true(ratio >= prev);
        assert_true(ratio < 1 + 2e-7 / 6e-8 + 2e-6 / 6e-8 + 0.05 * by / ev);
        prev = ratio;
    }
    assert_true(prev > 20);   /* 2e6 nodes' state is far past the caches */
    base(&c, BBS_ARCH_STORAGE_SIDE);
    bbs_arch_estimate(&c, &ev, &by, &work);
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    bbs_arch_estimate(&c, &ev2, &by2, &work2);
    assert_true(by > by2);    /* the I/O nodes' HDDs */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_maps),
        cmocka_unit_test(test_latency_hand),
        cmocka_unit_test(test_link_shared),
        cmocka_unit_test(test_storage_side_threshold),
        cmocka_unit_test(test_accounting),
        cmocka_unit_test(test_lazy_quiet),
        cmocka_unit_test(test_drive_failures),
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_iostat_rows),
        cmocka_unit_test(test_component_counts),
        cmocka_unit_test(test_all_failures_accounting),
        cmocka_unit_test(test_ctrl_link_semantics),
        cmocka_unit_test(test_link_failover),
        cmocka_unit_test(test_dragonfly_idle),
        cmocka_unit_test(test_dragonfly_vs_simple),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_estimate_scales),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
