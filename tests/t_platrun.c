/* t_platrun.c: tests of the simulator's entry for the paper's platform at a
 * list of sizes (sim/replicate.h, bbs_plat_prepare and bbs_plat_execute):
 * sizes, thresholds and durations converted as worked by hand, the
 * refusals (a threshold above a size, durations out of range, an
 * application without a period, the run bounds) and the replications
 * against bbs_bb_run called directly.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bbanalytic.h"
#include "bbsim.h"

/* Two applications in quanta of 10 bytes, B = 4 quanta per time unit of
 * 0.5 s; the second has no period. */
static long b2[] = { 3, 5 };
static double p2[] = { 0.3, 0.2 };
static bba_app apps2[] = { { "a", 0.3, 60, 5.0, 0 }, { "b", 0.2, 100, 0, 0 } };
static bba_quantized q2 = { .n = 2, .b = b2, .p = p2, .B = 4, .quantum_bytes = 10 };

static bbs_plat_question
question(const double *S, size_t n)
{
    bbs_plat_question qn;

    memset(&qn, 0, sizeof qn);
    qn.q = &q2;
    qn.apps = apps2;
    qn.source = "w.csv";
    qn.time_unit_s = 0.5;
    qn.S_bytes = S;
    qn.nsizes = n;
    qn.drain.eps = 0.01;
    qn.mode = BBS_BB_BERNOULLI;
    qn.horizon = (bbs_span){ 50, 0 };
    qn.run.replications = 3;
    qn.run.seed = 5;
    qn.run.confidence = 0.95;
    qn.run.threads = 2;
    qn.run.max_events = 1e9;
    qn.run.max_bytes = 1e12;
    return qn;
}

/* 95 bytes are 9 quanta of 10, 100 bytes 10; a lazy threshold of half
 * the buffer is floor(S / 2); 2 s of horizon at 0.5 s per unit are 4
 * units, a warm-up of 3 (plain) 3 units. */
static void
test_sizes_policy_durations(void **state)
{
    double S[] = { 0, 95, 100 };
    bbs_plat_question qn = question(S, 3);
    bbs_plat_runs r;
    char err[BB_ERRLEN];
    long want_S[] = { 0, 9, 10 }, want_thr[] = { 0, 4, 5 };

    (void)state;
    qn.drain = (bb_drain){ 1, 0, 0.5, 0.1 };
    qn.horizon = (bbs_span){ 2, 1 };
    qn.warmup = (bbs_span){ 3, 0 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    assert_int_equal(r.horizon_units, 4);
    assert_int_equal(r.warmup_units, 3);
    assert_int_equal(r.nsizes, 3);
    for (size_t k = 0; k < 3; k++) {
        assert_int_equal(r.cfg[k].S, want_S[k]);
        assert_true(r.cfg[k].pol.kind == BB_DRAIN_LAZY);
        assert_int_equal(r.cfg[k].pol.threshold, want_thr[k]);
        assert_true(r.cfg[k].pol.eps == 0.1);
        assert_int_equal(r.cfg[k].B, 4);
        assert_int_equal(r.cfg[k].horizon_units, 4);
        assert_int_equal(r.cfg[k].warmup_units, 3);
        assert_ptr_equal(r.cfg[k].b, b2);
    }
    /* Bernoulli: one event per unit, warm-up included: 3 sizes x 3
     * replications x 7 units */
    assert_true(r.events == 63);
    bbs_plat_free(&r);
}

/* A threshold in bytes: 55 bytes are 5 quanta, inside 9 quanta, above 4
 * (45 bytes): refused, naming the quantity. */
static void
test_threshold_in_bytes(void **state)
{
    double S[] = { 95, 45 };
    bbs_plat_question qn = question(S, 2);
    bbs_plat_runs r;
    char err[BB_ERRLEN];

    (void)state;
    qn.drain = (bb_drain){ 1, 1, 55, 0.01 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_EINVAL);
    assert_non_null(strstr(err, "55 bytes (5 quanta), is larger than the buffer, 45 bytes (4 quanta)"));
    assert_non_null(strstr(err, "lower the lazy threshold"));
    bbs_plat_free(&r);
    qn.nsizes = 1;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    assert_int_equal(r.cfg[0].pol.threshold, 5);
    bbs_plat_free(&r);
}

static void
test_durations_out_of_range(void **state)
{
    double S[] = { 100 };
    bbs_plat_question qn = question(S, 1);
    bbs_plat_runs r;
    char err[BB_ERRLEN];

    (void)state;
    /* 6e11 s are 1.2e12 units of 0.5 s */
    qn.horizon = (bbs_span){ 6e11, 1 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_EINVAL);
    assert_non_null(strstr(err, "a shorter horizon"));
    bbs_plat_free(&r);
    qn.horizon = (bbs_span){ 4e11, 1 };   /* 8e11 units: in range */
    qn.run.max_events = INFINITY;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    assert_int_equal(r.horizon_units, 800000000000L);
    bbs_plat_free(&r);
    qn.horizon = (bbs_span){ 1e-10, 1 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_EINVAL);
    assert_non_null(strstr(err, "a longer horizon"));
    bbs_plat_free(&r);
    qn.horizon = (bbs_span){ 50, 0 };
    qn.warmup = (bbs_span){ 2e12, 0 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_EINVAL);
    assert_non_null(strstr(err, "a shorter warm-up"));
    bbs_plat_free(&r);
}

/* Periodic: the applications' periods in time units, or d_min; the
 * second application has none. */
static void
test_periods(void **state)
{
    double S[] = { 100 };
    bbs_plat_question qn = question(S, 1);
    bbs_plat_runs r;
    char err[BB_ERRLEN];

    (void)state;
    qn.mode = BBS_BB_PERIODIC;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_EDATA);
    assert_non_null(strstr(err, "w.csv: application 2 ('b') has no period"));
    bbs_plat_free(&r);
    qn.d_min = (bbs_span){ 3, 1 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    assert_null(r.cfg[0].period_tu);
    assert_true(r.cfg[0].d_min_tu == 6);
    /* 50 units x (1 + 2 x 2 / 6) events per replication, 3 replications */
    assert_true(fabs(r.events - 3 * 50 * (1 + 4.0 / 6)) < 1e-9);
    bbs_plat_free(&r);
    apps2[1].period_s = 2.5;
    qn.d_min = (bbs_span){ 0, 0 };
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    apps2[1].period_s = 0;
    assert_non_null(r.cfg[0].period_tu);
    assert_true(r.cfg[0].period_tu[0] == 10 && r.cfg[0].period_tu[1] == 5);
    bbs_plat_free(&r);
}

/* The bounds: events in all (3 replications x 50 units = 150) and the
 * bytes of the threads' replications at once. */
static void
test_bounds(void **state)
{
    double S[] = { 100 };
    bbs_plat_question qn = question(S, 1);
    bbs_plat_runs r;
    char err[BB_ERRLEN];

    (void)state;
    qn.run.max_events = 150;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    bbs_plat_free(&r);
    qn.run.max_events = 149;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_ETOOBIG);
    assert_non_null(strstr(err, "about 150 events (1 size x 3 replications of 50 time units)"));
    assert_non_null(strstr(err, "raise the event bound"));
    assert_null(strstr(err, "--"));
    bbs_plat_free(&r);
    qn.run.max_events = 1e9;
    qn.run.max_bytes = 1000;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_ETOOBIG);
    assert_non_null(strstr(err, "raise the memory bound"));
    bbs_plat_free(&r);
}

typedef struct {
    int starts;
    double events;
    size_t units, last_done, calls;
} report;

static void
on_start(void *rctx, double events, size_t units)
{
    report *rep = rctx;

    rep->starts++;
    rep->events = events;
    rep->units = units;
}

static void
on_progress(void *rctx, size_t done, size_t total)
{
    report *rep = rctx;

    rep->calls++;
    rep->last_done = done;
    assert_int_equal(total, rep->units);
}

/* Size k's replication j is bbs_bb_run at size k on the streams of unit
 * j (common random numbers), whichever thread ran it; the summary is
 * bbs_bb_summarize's of those. */
static void
test_execute_is_the_units(void **state)
{
    double S[] = { 20, 60 };
    bbs_plat_question qn = question(S, 2);
    bbs_plat_runs r;
    report rep = { 0, 0, 0, 0, 0 };
    char err[BB_ERRLEN];

    (void)state;
    qn.run.start = on_start;
    qn.run.progress = on_progress;
    qn.run.rctx = &rep;
    assert_int_equal(bbs_plat_prepare(&r, &qn, err), BB_OK);
    assert_int_equal(rep.starts, 0);
    assert_int_equal(bbs_plat_execute(&r, &qn, err), BB_OK);
    assert_int_equal(rep.starts, 1);
    assert_true(rep.events == 300);
    assert_int_equal(rep.units, 6);
    assert_int_equal(rep.calls, 6);
    assert_int_equal(rep.last_done, 6);
    for (size_t k = 0; k < 2; k++) {
        bbs_bb_result one[3];
        bbs_bb_summary s;

        for (uint64_t j = 0; j < 3; j++) {
            const bbs_bb_result *got = &r.res[k * 3 + j];

            assert_int_equal(bbs_bb_run(&r.cfg[k], j, &one[j], err), BB_OK);
            assert_true(got->idle == one[j].idle && got->quiet == one[j].quiet);
            assert_true(got->written == one[j].written && got->events == one[j].events);
            assert_int_equal(got->stalls, one[j].stalls);
        }
        assert_int_equal(bbs_bb_summarize(one, 3, 0.95, &s, err), BB_OK);
        assert_true(s.idle_mean == r.sum[k].idle_mean && s.idle_hi == r.sum[k].idle_hi);
        assert_true(s.occ_mean == r.sum[k].occ_mean);
    }
    /* a larger buffer stalls no more, draw for draw */
    for (size_t j = 0; j < 3; j++)
        assert_true(r.res[3 + j].stalls <= r.res[j].stalls);
    bbs_plat_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_policy_durations),
        cmocka_unit_test(test_threshold_in_bytes),
        cmocka_unit_test(test_durations_out_of_range),
        cmocka_unit_test(test_periods),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_execute_is_the_units),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
