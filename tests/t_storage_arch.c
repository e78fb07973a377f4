/* t_storage_arch.c: the burst-buffer architectures (sim/storage/arch.h):
 * client maps, hand-computed latencies, the SSD/HDD threshold, capacity
 * bounds and the byte accounting with and without failures, lazy
 * draining, seeds, bad parameters.
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
#include "storage/arch.h"

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
    base(&c, BBS_ARCH_COMPUTE_GLOBAL);
    c.n_clients = 1;
    c.req_bytes = 1048576;
    c.mean_interarrival_s = 100;
    c.horizon_s = 5000;
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
                c.drain = lazy ? BBS_DRAIN_LAZY : BBS_DRAIN_GREEDY;
                c.lazy_threshold_bytes = c.capacity_bytes / 2;
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
    c.drain = BBS_DRAIN_LAZY;
    c.lazy_threshold_bytes = 1e12;
    c.lazy_eps = 0;
    assert_int_equal(bbs_arch_run(&c, &r, err), BB_OK);
    assert_true(r.bytes_written > 0);
    assert_close(r.bytes_on_pfs, 0, 0);
    c.lazy_eps = 1; /* a chunk at every check */
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
        cmocka_unit_test(test_bad),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
