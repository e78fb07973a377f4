/* t_storage_fail.c: SANgo-style failures (sim/storage/failure.h): the
 * Arrhenius factor against SANgo's own table, hazards by hand, failure
 * counts against their rates, Weibull with age, draw counts, seeds,
 * health transitions and bad parameters.
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
#include "storage/failure.h"
#include "storage/rngstream.h"

#include "storage_test.h"

/* SANgo's temp.json (the HSE-LAMBDA/sango repository):
 * failure-rate multipliers by temperature, printed to 4 decimals. */
static void
test_arrhenius_sango_table(void **st)
{
    static const double T[] = { 25, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62, 66, 70 };
    static const double f[] = { 1, 1.0507, 1.2763, 1.5425, 1.8552, 2.2208, 2.6465, 3.1401,
                                3.7103, 4.3664, 5.1186, 5.9779, 6.9562 };
    (void)st;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        assert_close(bbs_arrhenius_factor(0.38, 25, T[i]) / f[i], 1, 1e-4);
}

/* 100 s at 25 C then 100 s at 70 C with A = 1e-3 /s. */
static void
test_arrhenius_hazard_hand(void **st)
{
    double ts_t[] = { 0, 100 }, ts_T[] = { 25, 70 };
    bbs_temp_series ts = { 2, ts_t, ts_T };
    bbs_arrhenius a = { 1e-3, 0.38, 25 };
    double f70 = bbs_arrhenius_factor(0.38, 25, 70);

    (void)st;
    assert_close(bbs_arrhenius_hazard(&a, &ts, 0, 200), 0.1 + 0.1 * f70, 1e-12);
    assert_close(bbs_arrhenius_hazard(&a, &ts, 50, 150), 0.05 + 0.05 * f70, 1e-12);
    /* before the first point the first temperature holds, after the last
     * the last */
    assert_close(bbs_arrhenius_hazard(&a, &ts, -100, 0), 0.1, 1e-12);
    assert_close(bbs_arrhenius_hazard(&a, &ts, 1000, 1100), 0.1 * f70, 1e-12);
}

/* The failure time inverts the hazard with E = -ln(1 - U), one uniform. */
static void
test_arrhenius_next_inverts(void **st)
{
    double ts_t[] = { 0, 100 }, ts_T[] = { 25, 70 };
    bbs_temp_series ts = { 2, ts_t, ts_T };
    bbs_arrhenius a = { 1e-3, 0.38, 25 };
    gsl_rng *r = bbs_storage_rng_new(9, 0, 0), *c = gsl_rng_clone(r);
    char err[BB_ERRLEN];
    double t, e;

    (void)st;
    for (int k = 0; k < 50; k++) {
        assert_int_equal(bbs_arrhenius_next(&a, &ts, 10, r, &t, err), BB_OK);
        e = -log(1 - gsl_rng_uniform(c));
        assert_close(bbs_arrhenius_hazard(&a, &ts, 10, t), e, 1e-9 * (1 + e));
    }
    /* after 50 draws each, both generators are at the same place */
    assert_int_equal(gsl_rng_get(r), gsl_rng_get(c));
    a.rate_per_s = 0;
    assert_int_equal(bbs_arrhenius_next(&a, &ts, 10, r, &t, err), BB_OK);
    assert_true(isinf(t));
    gsl_rng_free(c);
    gsl_rng_free(r);
}

/* Counts over a long run: a renewal process of Arrhenius failures with
 * instant repair is Poisson with mean H(0, T); the count must fall within
 * 4 standard deviations (a false alarm about 6e-5 of the time; the seed is
 * fixed, so the test is deterministic). */
static void
test_arrhenius_counts(void **st)
{
    double ts_t[8], ts_T[8];
    bbs_temp_series ts = { 8, ts_t, ts_T };
    bbs_arrhenius a = { 1e-3, 0.38, 25 };
    gsl_rng *r = bbs_storage_rng_new(1, 0, 5);
    char err[BB_ERRLEN];
    double t = 0, horizon = 2e6, mean;
    long n = 0;

    (void)st;
    for (int i = 0; i < 8; i++) { /* a daily-like cycle repeated: 25..60 C */
        ts_t[i] = i * 250000.0;
        ts_T[i] = i % 2 ? 60 : 25;
    }
    mean = bbs_arrhenius_hazard(&a, &ts, 0, horizon);
    for (;;) {
        assert_int_equal(bbs_arrhenius_next(&a, &ts, t, r, &t, err), BB_OK);
        if (t > horizon)
            break;
        n++;
    }
    print_message("# Arrhenius: %ld failures, expected %.1f\n", n, mean);
    assert_true(fabs(n - mean) <= 4 * sqrt(mean));
    gsl_rng_free(r);
}

/* Weibull: of N new drives the fraction failed by age zeta is
 * 1 - exp(-1); of N drives already aged zeta, the fraction failing within
 * another zeta is 1 - exp(-(2^beta - 1)).  Binomial, 4 sigma. */
static void
test_weibull_fractions(void **st)
{
    bbs_weibull w = { 1.5, 3.6e8 };
    gsl_rng *r = bbs_storage_rng_new(3, 0, 0);
    char err[BB_ERRLEN];
    const int N = 20000;
    double af, p1 = 1 - exp(-1), p2 = 1 - exp(-(pow(2, 1.5) - 1));
    int k1 = 0, k2 = 0;

    (void)st;
    for (int i = 0; i < N; i++) {
        assert_int_equal(bbs_weibull_next(&w, 0, r, &af, err), BB_OK);
        k1 += af <= w.scale_s;
        assert_int_equal(bbs_weibull_next(&w, w.scale_s, r, &af, err), BB_OK);
        assert_true(af >= w.scale_s);
        k2 += af <= 2 * w.scale_s;
    }
    print_message("# Weibull: %.4f (expected %.4f), aged %.4f (expected %.4f)\n",
                  (double)k1 / N, p1, (double)k2 / N, p2);
    assert_true(fabs((double)k1 / N - p1) <= 4 * sqrt(p1 * (1 - p1) / N));
    assert_true(fabs((double)k2 / N - p2) <= 4 * sqrt(p2 * (1 - p2) / N));
    /* hazard by hand: beta 2, zeta 10: h(5) = 2/10 (0.5) = 0.1, H(5) = 0.25 */
    w.shape = 2;
    w.scale_s = 10;
    assert_close(bbs_weibull_hazard_rate(&w, 5), 0.1, 1e-15);
    assert_close(bbs_weibull_cum_hazard(&w, 5), 0.25, 1e-15);
    gsl_rng_free(r);
}

/* Same seed, same failure times; and the component state machine. */
static void
test_components(void **st)
{
    bbs_component d = { 0 }, l = { 0 }, d2;
    gsl_rng *r1 = bbs_storage_rng_new(11, 2, 3), *r2 = bbs_storage_rng_new(11, 2, 3);
    double ts_t[] = { 0 }, ts_T[] = { 35 };
    bbs_temp_series ts = { 1, ts_t, ts_T };
    char err[BB_ERRLEN];
    double first;

    (void)st;
    d.cls = BBS_COMP_DRIVE;
    d.law = BBS_LAW_WEIBULL;
    d.wei = (bbs_weibull){ 1.2, 1e8 };
    d.age0_s = 5e7;
    d.repair = (bbs_repair){ BBS_REPAIR_EXPONENTIAL, 86400 };
    d2 = d;
    assert_int_equal(bbs_component_start(&d, 0, NULL, r1, err), BB_OK);
    assert_int_equal(bbs_component_start(&d2, 0, NULL, r2, err), BB_OK);
    assert_true(d.next_fail_s == d2.next_fail_s);
    assert_int_equal(d.health, BBS_HEALTH_OK);
    first = d.next_fail_s;
    bbs_component_fail(&d, first, r1);
    bbs_component_fail(&d2, first, r2);
    assert_int_equal(d.health, BBS_HEALTH_LOST);
    assert_true(d.repair_done_s > first && d.repair_done_s == d2.repair_done_s);
    assert_true(isinf(d.next_fail_s));
    assert_int_equal(bbs_component_repair(&d, d.repair_done_s, NULL, r1, err), BB_OK);
    assert_int_equal(d.health, BBS_HEALTH_OK);
    assert_close(d.age0_s, 0, 0); /* a new drive */
    assert_int_equal(d.failures, 1);

    l.cls = BBS_COMP_LINK;
    l.law = BBS_LAW_ARRHENIUS;
    l.arr = (bbs_arrhenius){ 1e-6, 0.38, 25 };
    l.repair = (bbs_repair){ BBS_REPAIR_FIXED, 3600 };
    assert_int_equal(bbs_component_start(&l, 0, &ts, r1, err), BB_OK);
    first = l.next_fail_s;
    bbs_component_fail(&l, first, r1);
    assert_int_equal(l.health, BBS_HEALTH_MISSED);
    assert_close(l.repair_done_s, first + 3600, 1e-9 * first); /* FIXED repair */
    assert_int_equal(bbs_component_repair(&l, l.repair_done_s, &ts, r1, err), BB_OK);
    assert_int_equal(l.health, BBS_HEALTH_OK);
    assert_string_equal(bbs_health_name(BBS_HEALTH_MISSED), "MISSED");
    /* a controller fails BAD (contents intact), and its repair keeps its age */
    l.cls = BBS_COMP_CONTROLLER;
    assert_int_equal(bbs_component_start(&l, 0, &ts, r1, err), BB_OK);
    first = l.next_fail_s;
    bbs_component_fail(&l, first, r1);
    assert_int_equal(l.health, BBS_HEALTH_BAD);
    assert_false(bbs_component_loses_data(BBS_COMP_CONTROLLER));
    assert_false(bbs_component_loses_data(BBS_COMP_LINK));
    assert_int_equal(bbs_component_repair(&l, l.repair_done_s, &ts, r1, err), BB_OK);
    assert_int_equal(l.health, BBS_HEALTH_OK);
    gsl_rng_free(r1);
    gsl_rng_free(r2);
}

static void
test_bad_parameters(void **st)
{
    double ts_t[] = { 0, 10, 5 }, ts_T[] = { 25, 25, 25 }, bad_T[] = { -300 };
    bbs_temp_series empty = { 0, ts_t, ts_T }, unsorted = { 3, ts_t, ts_T },
                    cold = { 1, ts_t, bad_T };
    bbs_arrhenius a = { 1e-3, 0.38, 25 };
    bbs_weibull w = { 0, 1 };
    gsl_rng *r = bbs_storage_rng_new(1, 0, 0);
    char err[BB_ERRLEN];
    double t;
    bbs_component c = { 0 };

    (void)st;
    assert_int_equal(bbs_arrhenius_next(&a, &empty, 0, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "empty"));
    assert_int_equal(bbs_arrhenius_next(&a, &unsorted, 0, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "point 3"));
    assert_int_equal(bbs_arrhenius_next(&a, &cold, 0, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "absolute zero"));
    a.rate_per_s = -1;
    assert_int_equal(bbs_arrhenius_next(&a, &cold, 0, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "rate constant"));
    assert_int_equal(bbs_weibull_next(&w, 0, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "shape"));
    w = (bbs_weibull){ 1, -5 };
    assert_int_equal(bbs_weibull_next(&w, 0, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "scale"));
    w = (bbs_weibull){ 1, 5 };
    assert_int_equal(bbs_weibull_next(&w, -1, r, &t, err), BB_EINVAL);
    assert_non_null(strstr(err, "age"));
    c.law = BBS_LAW_WEIBULL;
    c.wei = w;
    assert_int_equal(bbs_component_start(&c, 0, NULL, r, err), BB_EINVAL);
    assert_non_null(strstr(err, "repair"));
    gsl_rng_free(r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrhenius_sango_table),
        cmocka_unit_test(test_arrhenius_hazard_hand),
        cmocka_unit_test(test_arrhenius_next_inverts),
        cmocka_unit_test(test_arrhenius_counts),
        cmocka_unit_test(test_weibull_fractions),
        cmocka_unit_test(test_components),
        cmocka_unit_test(test_bad_parameters),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
