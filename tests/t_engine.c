/* t_engine.c: tests of the generic simulator engine: event order and ties,
 * cancel/reschedule, RNG stream derivation and independence, draw counts,
 * statistics and Student-t intervals against hand-computed values, and the
 * replication runner's independence from the thread count.
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
#include <gsl/gsl_errno.h>

#include "bbsim.h"

/* ---- event queue ---- */

typedef struct {
    int n;
    int64_t order[20000];
    double times[20000];
} trace;

static int
record(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    trace *t = ctx;

    (void)e;
    t->times[t->n] = ev->time_s;
    t->order[t->n++] = ev->arg;
    return BB_OK;
}

static void
test_ties_run_in_insertion_order(void **state)
{
    bbs_engine *e;
    trace *t = calloc(1, sizeof *t);
    int k;
    /* (time, arg): expected order by time, then insertion. */
    const double tm[] = { 3, 1, 2, 1, 3, 0, 1 };
    const int64_t want[] = { 5, 1, 3, 6, 2, 0, 4 };

    (void)state;
    assert_int_equal(bbs_engine_new(&e, 0, NULL), BB_OK);
    assert_int_equal(bbs_engine_register(e, record, t, &k), BB_OK);
    for (int i = 0; i < 7; i++)
        assert_int_equal(bbs_engine_schedule(e, tm[i], k, 0, 0, i, NULL, NULL), BB_OK);
    assert_int_equal(bbs_engine_run(e, INFINITY), BB_OK);
    assert_int_equal(t->n, 7);
    for (int i = 0; i < 7; i++)
        assert_int_equal(t->order[i], want[i]);
    assert_int_equal(bbs_engine_events(e), 7);
    assert_true(bbs_engine_now(e) == 3.0);
    bbs_engine_free(e);
    free(t);
}

static void
test_priority_orders_equal_times(void **state)
{
    bbs_engine *e;
    trace *t = calloc(1, sizeof *t);
    int k;

    (void)state;
    bbs_engine_new(&e, 0, NULL);
    bbs_engine_register(e, record, t, &k);
    bbs_engine_schedule(e, 1.0, k, 2, 0, 0, NULL, NULL);
    bbs_engine_schedule(e, 1.0, k, 1, 0, 1, NULL, NULL);
    bbs_engine_schedule(e, 1.0, k, 2, 0, 2, NULL, NULL);
    bbs_engine_schedule(e, 0.5, k, 9, 0, 3, NULL, NULL);
    bbs_engine_run(e, INFINITY);
    assert_int_equal(t->order[0], 3);
    assert_int_equal(t->order[1], 1);
    assert_int_equal(t->order[2], 0);
    assert_int_equal(t->order[3], 2);
    bbs_engine_free(e);
    free(t);
}

/* A dumb reference: many events with heavy ties, cancellations and
 * reschedules, compared with a stable sort of what should remain. */
typedef struct {
    double t;
    uint64_t seq;
    int64_t arg;
    int alive;
} ref_ev;

static int
ref_cmp(const void *a, const void *b)
{
    const ref_ev *x = a, *y = b;

    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
test_heap_matches_sorted_reference(void **state)
{
    enum { N = 5000 };
    bbs_engine *e;
    trace *t = calloc(1, sizeof *t);
    ref_ev *ref = calloc(N, sizeof *ref);
    bbs_event_id *ids = calloc(N, sizeof *ids);
    gsl_rng *r = bbs_rng_stream_new(NULL, 7, 0, 0);
    uint64_t seq = 0;
    int k, n_alive = 0, j = 0;

    (void)state;
    bbs_engine_new(&e, 4, NULL);
    bbs_engine_register(e, record, t, &k);
    for (int i = 0; i < N; i++) {
        ref[i].t = (double)gsl_rng_uniform_int(r, 50);   /* many ties */
        ref[i].seq = seq++;
        ref[i].arg = i;
        ref[i].alive = 1;
        assert_int_equal(bbs_engine_schedule(e, ref[i].t, k, 0, 0, i, NULL, &ids[i]), BB_OK);
    }
    for (int i = 0; i < N; i += 7) {          /* cancel every 7th */
        assert_int_equal(bbs_engine_cancel(e, ids[i]), 1);
        assert_int_equal(bbs_engine_cancel(e, ids[i]), 0);   /* second time: gone */
        ref[i].alive = 0;
    }
    for (int i = 3; i < N; i += 11) {         /* reschedule some (fresh seq) */
        if (!ref[i].alive)
            continue;
        ref[i].t = (double)gsl_rng_uniform_int(r, 50);
        ref[i].seq = seq++;
        assert_int_equal(bbs_engine_reschedule(e, ids[i], ref[i].t), BB_OK);
        assert_true(bbs_engine_event_time(e, ids[i]) == ref[i].t);
    }
    for (int i = 0; i < N; i++)
        n_alive += ref[i].alive;
    assert_int_equal(bbs_engine_pending(e), n_alive);
    qsort(ref, N, sizeof *ref, ref_cmp);
    bbs_engine_run(e, INFINITY);
    assert_int_equal(t->n, n_alive);
    for (int i = 0; i < N; i++)
        if (ref[i].alive) {
            assert_int_equal(t->order[j], ref[i].arg);
            j++;
        }
    gsl_rng_free(r);
    bbs_engine_free(e);
    free(ids);
    free(ref);
    free(t);
}

static void
test_stale_id_does_not_cancel_new_event(void **state)
{
    bbs_engine *e;
    trace *t = calloc(1, sizeof *t);
    bbs_event_id a, b;
    int k;

    (void)state;
    bbs_engine_new(&e, 0, NULL);
    bbs_engine_register(e, record, t, &k);
    bbs_engine_schedule(e, 1.0, k, 0, 0, 1, NULL, &a);
    bbs_engine_run(e, INFINITY);              /* a ran; its slot is free */
    bbs_engine_schedule(e, 2.0, k, 0, 0, 2, NULL, &b);   /* reuses the slot */
    assert_true(a != b);
    assert_int_equal(bbs_engine_cancel(e, a), 0);
    assert_int_equal(bbs_engine_cancel(e, 0), 0);
    assert_true(isnan(bbs_engine_event_time(e, a)));
    assert_int_equal(bbs_engine_pending(e), 1);
    bbs_engine_run(e, INFINITY);
    assert_int_equal(t->n, 2);
    bbs_engine_free(e);
    free(t);
}

static int
fail_at_two(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (*(int *)ctx)++;
    if (ev->arg == 2)
        return bbs_engine_fail(e, BB_EDATA, "event %lld failed", (long long)ev->arg);
    return BB_OK;
}

static void
test_errors_and_horizon(void **state)
{
    bbs_engine *e;
    char err[BB_ERRLEN] = "";
    int k, count = 0;

    (void)state;
    bbs_engine_new(&e, 0, err);
    assert_int_equal(bbs_engine_register(e, NULL, NULL, &k), BB_EINVAL);
    bbs_engine_register(e, fail_at_two, &count, &k);
    assert_int_equal(bbs_engine_schedule(e, 1.0, k + 1, 0, 0, 0, NULL, NULL), BB_EINVAL);
    assert_int_equal(bbs_engine_schedule(e, NAN, k, 0, 0, 0, NULL, NULL), BB_EINVAL);
    for (int i = 1; i <= 4; i++)
        bbs_engine_schedule(e, (double)i, k, 0, 0, i, NULL, NULL);
    /* Run to 1.5: one event, clock at the horizon, the rest pending. */
    assert_int_equal(bbs_engine_run(e, 1.5), BB_OK);
    assert_int_equal(count, 1);
    assert_true(bbs_engine_now(e) == 1.5);
    assert_true(bbs_engine_next_time(e) == 2.0);
    assert_int_equal(bbs_engine_schedule(e, 1.0, k, 0, 0, 0, NULL, NULL), BB_EINVAL);
    assert_non_null(strstr(err, "before the clock"));
    /* The handler's failure stops the run at event 2. */
    assert_int_equal(bbs_engine_run(e, INFINITY), BB_EDATA);
    assert_string_equal(err, "event 2 failed");
    assert_true(bbs_engine_now(e) == 2.0);
    assert_int_equal(bbs_engine_pending(e), 2);
    bbs_engine_free(e);
    bbs_engine_free(NULL);
}

/* ---- random streams ---- */

static void
test_rng_hand_values(void **state)
{
    gsl_rng *r = gsl_rng_alloc(bbs_rng_xoshiro256);
    uint64_t *s = gsl_rng_state(r);

    (void)state;
    /* splitmix64's first output from state 0 (Vigna's reference code). */
    assert_true(bbs_rng_mix(0) == 0xE220A8397B1DCDAFull);
    assert_true(bbs_rng_key(1, 2, 3)
                == bbs_rng_mix(bbs_rng_mix(bbs_rng_mix(1) ^ 2) ^ 3));
    /* xoshiro256** from state {1, 2, 3, 4}: rotl(2 * 5, 7) * 9 = 11520;
     * get returns the upper 32 bits (0), get_double 11520 >> 11 = 5 / 2^53. */
    s[0] = 1; s[1] = 2; s[2] = 3; s[3] = 4;
    assert_true(gsl_rng_get(r) == 0);
    /* Second output by hand: after one step s = {7, 0, 262146, 6 * 2^45};
     * rotl(0 * 5, 7) * 9 = 0. */
    assert_true(gsl_rng_uniform(r) == 0.0);
    s[0] = 1; s[1] = 2; s[2] = 3; s[3] = 4;
    assert_true(gsl_rng_uniform(r) == 5.0 * 0x1.0p-53);
    gsl_rng_free(r);
}

static void
test_streams_independent_and_reproducible(void **state)
{
    double a1[100], a2[100];
    gsl_rng *a = bbs_rng_stream_new(NULL, 42, 3, 5);
    gsl_rng *b, *c, *d;
    int same_b = 0, same_c = 0;

    (void)state;
    for (int i = 0; i < 100; i++)
        a1[i] = gsl_rng_uniform(a);
    /* Another stream created and drawn from in between changes nothing. */
    b = bbs_rng_stream_new(NULL, 42, 3, 6);
    c = bbs_rng_stream_new(NULL, 43, 3, 5);
    d = bbs_rng_stream_new(NULL, 42, 4, 5);
    for (int i = 0; i < 1000; i++)
        gsl_rng_uniform(b);
    bbs_rng_stream_reset(a, 42, 3, 5);
    for (int i = 0; i < 100; i++)
        a2[i] = gsl_rng_uniform(a);
    assert_memory_equal(a1, a2, sizeof a1);
    bbs_rng_stream_reset(b, 42, 3, 6);
    for (int i = 0; i < 100; i++) {
        same_b += gsl_rng_uniform(b) == a1[i];
        same_c += gsl_rng_uniform(c) == a1[i];
        assert_true(gsl_rng_uniform(d) != a1[i] || i < 0);
    }
    assert_int_equal(same_b, 0);
    assert_int_equal(same_c, 0);
    assert_int_not_equal(BBS_ENTITY(BBS_ECLASS_APP, 1), BBS_ENTITY(BBS_ECLASS_STORAGE, 1));
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_rng_free(c);
    gsl_rng_free(d);
}

static void
test_draw_counts(void **state)
{
    gsl_rng *ref = bbs_rng_stream_new(NULL, 9, 9, 9);
    gsl_rng *r = bbs_rng_stream_new(NULL, 9, 9, 9);
    double u[8];

    (void)state;
    for (int i = 0; i < 8; i++)
        u[i] = gsl_rng_uniform(ref);
    /* Each sampler consumes exactly one uniform, whatever p. */
    assert_int_equal(bbs_rng_bernoulli(r, 0.0), 0);
    assert_int_equal(bbs_rng_bernoulli(r, 1.0), 1);
    assert_int_equal(bbs_rng_bernoulli(r, 0.5), u[2] < 0.5);
    assert_true(bbs_rng_uniform_ab(r, 2.0, 4.0) == 2.0 + 2.0 * u[3]);
    (void)gsl_rng_get(r);                      /* one step */
    assert_true(gsl_rng_uniform(r) == u[5]);
    gsl_rng_free(ref);
    gsl_rng_free(r);
}

static void
test_uniform_moments(void **state)
{
    /* 10^5 uniforms: mean 1/2 +- 5 sd (sd = 1/sqrt(12 * 10^5) = 0.00091). */
    gsl_rng *r = bbs_rng_stream_new(NULL, 1, 0, 0);
    bbs_welford w;

    (void)state;
    bbs_welford_init(&w);
    for (int i = 0; i < 100000; i++)
        bbs_welford_add(&w, gsl_rng_uniform(r));
    assert_float_equal(w.mean, 0.5, 5 * 0.00091);
    assert_float_equal(bbs_welford_var(&w), 1.0 / 12.0, 0.002);
    assert_true(w.min >= 0.0 && w.max < 1.0);
    gsl_rng_free(r);
}

/* ---- statistics ---- */

static void
test_welford_and_merge(void **state)
{
    const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    bbs_welford all, lo, hi;

    (void)state;
    bbs_welford_init(&all);
    bbs_welford_init(&lo);
    bbs_welford_init(&hi);
    for (int i = 0; i < 8; i++) {
        bbs_welford_add(&all, x[i]);
        bbs_welford_add(i < 3 ? &lo : &hi, x[i]);
    }
    assert_float_equal(all.mean, 5.0, 1e-15);
    assert_float_equal(bbs_welford_var(&all), 32.0 / 7.0, 1e-14);
    bbs_welford_merge(&lo, &hi);
    assert_int_equal(lo.n, 8);
    assert_float_equal(lo.mean, 5.0, 1e-14);
    assert_float_equal(bbs_welford_var(&lo), 32.0 / 7.0, 1e-13);
    assert_true(lo.min == 2 && lo.max == 9);
}

static void
test_time_average_and_histogram(void **state)
{
    bbs_timeavg a;
    bbs_hist h, g;
    char err[BB_ERRLEN];

    (void)state;
    /* v = 2 on [0, 1), 5 on [1, 4), 0 on [4, 6]: area 2 + 15 = 17 over 6. */
    bbs_timeavg_init(&a, 0.0, 2.0);
    bbs_timeavg_set(&a, 1.0, 5.0);
    bbs_timeavg_set(&a, 4.0, 0.0);
    assert_float_equal(bbs_timeavg_mean(&a, 6.0), 17.0 / 6.0, 1e-15);
    assert_float_equal(bbs_timeavg_mean(&a, 4.0), 17.0 / 4.0, 1e-15);

    assert_int_equal(bbs_hist_init(&h, 0, 0, 1, err), BB_EINVAL);
    assert_int_equal(bbs_hist_init(&h, 4, 0.0, 4.0, err), BB_OK);
    bbs_hist_add(&h, 0.5, 1.0);
    bbs_hist_add(&h, 1.5, 2.0);
    bbs_hist_add(&h, 3.99, 1.0);
    bbs_hist_add(&h, -1.0, 0.5);
    bbs_hist_add(&h, 4.0, 0.5);
    assert_true(h.w[0] == 1.0 && h.w[1] == 2.0 && h.w[2] == 0.0 && h.w[3] == 1.0);
    assert_true(h.under == 0.5 && h.over == 0.5 && h.total == 5.0);
    /* weight below 2.0 is 3.5 of 5: the median edge is 2. */
    assert_float_equal(bbs_hist_quantile(&h, 0.5), 2.0, 1e-15);
    assert_int_equal(bbs_hist_init(&g, 4, 0.0, 4.0, err), BB_OK);
    bbs_hist_add(&g, 2.5, 3.0);
    assert_int_equal(bbs_hist_merge(&h, &g, err), BB_OK);
    assert_true(h.w[2] == 3.0 && h.total == 8.0);
    bbs_hist_free(&g);
    assert_int_equal(bbs_hist_init(&g, 3, 0.0, 4.0, err), BB_OK);
    assert_int_equal(bbs_hist_merge(&h, &g, err), BB_EINVAL);
    bbs_hist_free(&g);
    bbs_hist_free(&h);
}

static void
test_student_t_interval(void **state)
{
    bbs_welford w;
    bbs_ci ci;
    char err[BB_ERRLEN];

    (void)state;
    bbs_welford_init(&w);
    for (int i = 1; i <= 4; i++)
        bbs_welford_add(&w, (double)i);
    /* mean 2.5, sd sqrt(5/3); t quantiles with 3 degrees of freedom from
     * printed tables: t_{0.975} = 3.182446, t_{0.95} = 2.353363. */
    assert_int_equal(bbs_ci_t(&w, 0.95, &ci, err), BB_OK);
    assert_float_equal(ci.half, 3.182446305 * sqrt(5.0 / 3.0) / 2.0, 1e-8);
    assert_float_equal(ci.lo, 2.5 - ci.half, 1e-15);
    assert_int_equal(bbs_ci_t(&w, 0.90, &ci, err), BB_OK);
    assert_float_equal(ci.half, 2.353363435 * sqrt(5.0 / 3.0) / 2.0, 1e-8);
    assert_true(bbs_ci_contains(&ci, 2.5) && !bbs_ci_contains(&ci, 5.0));
    assert_int_equal(bbs_ci_t(&w, 1.0, &ci, err), BB_EINVAL);
    assert_non_null(strstr(err, "outside (0, 1)"));
    assert_int_equal(bbs_ci_t(&w, 0.0, &ci, err), BB_EINVAL);
    bbs_welford_init(&w);
    bbs_welford_add(&w, 1.0);
    assert_int_equal(bbs_ci_t(&w, 0.95, &ci, err), BB_OK);
    assert_true(isinf(ci.half) && ci.lo < 0 && isinf(ci.hi));
}

/* ---- replication runner ---- */

typedef struct {
    double x[4];
    uint64_t unit;
} unit_out;

static int
unit_fn(size_t unit, void *result, const void *ctx, char *err)
{
    unit_out *o = result;
    const int *fail = ctx;
    gsl_rng *r;

    if (fail && (unit == (size_t)fail[0] || unit == (size_t)fail[1]))
        return bb_seterr(err, BB_EDATA, "bad point %zu", unit);
    r = bbs_rng_stream_new(NULL, 5, unit, 0);
    for (int i = 0; i < 4; i++)
        o->x[i] = gsl_rng_uniform(r);
    o->unit = unit;
    gsl_rng_free(r);
    return BB_OK;
}

static void
count_progress(void *pctx, size_t done, size_t total)
{
    size_t *last = pctx;

    assert_true(done <= total);
    *last = done;
}

static void
test_replicate_thread_independent(void **state)
{
    enum { N = 37 };
    unit_out *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    char err[BB_ERRLEN];
    size_t last = 0;
    const int fail[2] = { 11, 5 };

    (void)state;
    assert_true(bbs_replicate_threads() >= 1);
    assert_int_equal(bbs_replicate_run(N, sizeof *a, a, unit_fn, NULL, 1, NULL, NULL, err), BB_OK);
    for (int t = 2; t <= 5; t += 3) {
        assert_int_equal(bbs_replicate_run(N, sizeof *b, b, unit_fn, NULL, t, count_progress,
                                           &last, err), BB_OK);
        assert_memory_equal(a, b, N * sizeof *a);
        assert_int_equal(last, N);
    }
    for (int i = 0; i < N; i++)
        assert_int_equal(a[i].unit, i);
    /* Failures: the lowest failed unit is reported, whatever the threads. */
    for (int t = 1; t <= 4; t++) {
        assert_int_equal(bbs_replicate_run(N, sizeof *b, b, unit_fn, fail, t, NULL, NULL, err),
                         BB_EDATA);
        assert_string_equal(err, "unit 5: bad point 5");
    }
    assert_int_equal(bbs_replicate_run(0, sizeof *b, NULL, unit_fn, NULL, 2, NULL, NULL, err), BB_OK);
    assert_int_equal(bbs_replicate_run(3, sizeof *b, NULL, unit_fn, NULL, 2, NULL, NULL, err),
                     BB_EINVAL);
    free(a);
    free(b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ties_run_in_insertion_order),
        cmocka_unit_test(test_priority_orders_equal_times),
        cmocka_unit_test(test_heap_matches_sorted_reference),
        cmocka_unit_test(test_stale_id_does_not_cancel_new_event),
        cmocka_unit_test(test_errors_and_horizon),
        cmocka_unit_test(test_rng_hand_values),
        cmocka_unit_test(test_streams_independent_and_reproducible),
        cmocka_unit_test(test_draw_counts),
        cmocka_unit_test(test_uniform_moments),
        cmocka_unit_test(test_welford_and_merge),
        cmocka_unit_test(test_time_average_and_histogram),
        cmocka_unit_test(test_student_t_interval),
        cmocka_unit_test(test_replicate_thread_independent),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
