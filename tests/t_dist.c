/* t_dist.c: DIST (Algorithm 1), moments and the Chernoff bounds.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

/* DIST against brute-force enumeration of all 2^n activity patterns. */
static void
dist_matches_enumeration(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 30; seed++) {
        tu_workload w;
        long m;
        double dist[12 * 40 + 1], brute[12 * 40 + 1];
        size_t n = 1 + seed % 12;
        char err[BB_ERRLEN];

        tu_random(&w, n, 40, 0.9, 10, seed);
        assert_int_equal(bba_dist_support(n, w.b, &m, err), BB_OK);
        bba_dist_compute(n, w.b, w.p, m, dist);
        memset(brute, 0, sizeof brute);
        for (unsigned long mask = 0; mask < (1UL << n); mask++) {
            double pr = 1;
            long k = 0;

            for (size_t i = 0; i < n; i++) {
                if (mask & (1UL << i)) {
                    pr *= w.p[i];
                    k += w.b[i];
                } else {
                    pr *= 1 - w.p[i];
                }
            }
            brute[k] += pr;
        }
        for (long k = 0; k <= m; k++)
            assert_true(fabs(dist[k] - brute[k]) <= 1e-14);
    }
}

/* The hand-worked case: b = (1, 2), p = (0.5, 0.25): loads 0..3 (M + 1 = 4
 * entries: the paper's "size sum b_i" would lose load 3). */
static void
dist_small_by_hand(void **state)
{
    long b[2] = { 1, 2 };
    double p[2] = { 0.5, 0.25 }, d[4];
    bba_moments mo;

    (void)state;
    bba_dist_compute(2, b, p, 3, d);
    assert_float_equal(d[0], 0.375, 1e-15);
    assert_float_equal(d[1], 0.375, 1e-15);
    assert_float_equal(d[2], 0.125, 1e-15);
    assert_float_equal(d[3], 0.125, 1e-15);
    bba_dist_moments(2, b, p, &mo);
    assert_float_equal(mo.mean, 1.0, 1e-15);
    assert_float_equal(mo.variance, 0.25 + 0.75, 1e-15);
    assert_float_equal(mo.nu, 0.5 + 1.0, 1e-15);
    assert_float_equal(bba_dist_tail(d, 3, 1.0), 0.25, 1e-15);
    assert_float_equal(bba_dist_tail(d, 3, 1.5), 0.25, 1e-15);
    assert_float_equal(bba_dist_tail(d, 3, -1), 1.0, 0);
}

/* f_l(x) <= Pr(X <= x) <= f_u(x) for every x, on random workloads
 * (Section 4.3 as corrected), including non-integer x. */
static void
chernoff_bounds_hold(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 40; seed++) {
        tu_workload w;
        long m;
        double *dist;
        bba_moments mo;
        char err[BB_ERRLEN];
        double cdf = 0;

        tu_random(&w, 20, 300, seed % 2 ? 0.1 : 0.8, 100, seed + 1000);
        assert_int_equal(bba_dist_support(w.n, w.b, &m, err), BB_OK);
        dist = malloc((size_t)(m + 1) * sizeof *dist);
        assert_non_null(dist);
        bba_dist_compute(w.n, w.b, w.p, m, dist);
        bba_dist_moments(w.n, w.b, w.p, &mo);
        for (long k = 0; k <= m; k++) {
            double lo, hi;

            cdf += dist[k];
            for (int h = 0; h < 2; h++) {
                double x = k + 0.5 * h; /* F(k + 0.5) = F(k) */

                lo = bba_chernoff_cdf_lower(&mo, x);
                hi = bba_chernoff_cdf_upper(&mo, x);
                assert_true(lo <= cdf + 1e-12);
                assert_true(cdf <= hi + 1e-12);
            }
        }
        /* The bounds are not vacuous: somewhere above the mean f_l > 0.5. */
        assert_true(bba_chernoff_cdf_lower(&mo, (double)m) > 0.5);
        free(dist);
    }
}

/* A constant load (nu = 0) is the step function at E. */
static void
chernoff_constant_load(void **state)
{
    bba_moments mo = { 5.0, 0.0, 0.0, 0.0 };

    (void)state;
    assert_float_equal(bba_chernoff_cdf_upper(&mo, 4.9), 0.0, 0);
    assert_float_equal(bba_chernoff_cdf_upper(&mo, 5.0), 1.0, 0);
    assert_float_equal(bba_chernoff_cdf_lower(&mo, 4.9), 0.0, 0);
    assert_float_equal(bba_chernoff_cdf_lower(&mo, 5.0), 1.0, 0);
}

/* Quantisation in the paper's setting (B = 100 = R, integer bandwidths) is
 * exact; otherwise the rounding error is at most half a quantum. */
static void
quantize_exact_and_bounded(void **state)
{
    bba_app apps[3] = { { "a", 0.1, 37, 0 }, { "b", 0.2, 100, 0 }, { "c", 0.3, 251, 0 } };
    bba_platform pf = { 100, 0, 1, 100 };
    bba_quantized q;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_OK);
    assert_int_equal(q.b[0], 37);
    assert_int_equal(q.b[2], 251);
    assert_float_equal(q.quantum_bytes, 1.0, 0);
    assert_true(q.max_round_bytes < 1e-9);
    bba_quantized_free(&q);
    pf.pfs_bw_Bps = 1.45e12;
    pf.time_unit_s = 60;
    apps[0].bw_Bps = 0.4e12;
    apps[1].bw_Bps = 1.1e12;
    apps[2].bw_Bps = 2.9e12;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_OK);
    assert_int_equal(q.b[0], 28); /* 27.59 */
    assert_int_equal(q.b[2], 200);
    assert_true(q.max_round_bytes <= q.quantum_bytes / 2);
    assert_true(q.max_round_bytes > 0);
    bba_quantized_free(&q);
    apps[1].p = 1.5;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_EINVAL);
    assert_non_null(strstr(err, "application 2"));
    apps[1].p = NAN;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_EINVAL);
    apps[1].p = 0.2;
    pf.resolution = 0;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_EINVAL);
    assert_non_null(strstr(err, "resolution"));
    pf.resolution = 100;
    pf.pfs_bw_Bps = 0;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_EINVAL);
    pf.pfs_bw_Bps = 1;
    assert_int_equal(bba_quantize(apps, 0, &pf, &q, err), BB_EINVAL);
}

/* An application of count N is N entries, in order, as the rows written
 * out (worked by hand: a x 3, b x 1 (count 0 read as 1), c x 2); the
 * rows map back; bad counts are refused naming the application. */
static void
quantize_expands_counts(void **state)
{
    bba_app apps[3] = { { "a", 0.1, 37, 0, 0, 3 }, { "b", 0.2, 100, 0, 0, 0 },
                        { "c", 0.3, 251, 0, 0, 2 } };
    static const long b[6] = { 37, 37, 37, 100, 251, 251 };
    static const size_t row[6] = { 0, 0, 0, 1, 2, 2 };
    bba_platform pf = { 100, 0, 1, 100 };
    bba_quantized q;
    char err[BB_ERRLEN];
    size_t total;

    (void)state;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_OK);
    assert_int_equal(q.n, 6);
    for (size_t k = 0; k < 6; k++) {
        assert_int_equal(q.b[k], b[k]);
        assert_int_equal(q.row[k], row[k]);
        assert_float_equal(q.p[k], apps[row[k]].p, 0);
    }
    bba_quantized_free(&q);
    assert_int_equal(bba_apps_total(apps, 3, &total, err), BB_OK);
    assert_int_equal(total, 6);
    apps[2].count = -1;
    assert_int_equal(bba_quantize(apps, 3, &pf, &q, err), BB_EINVAL);
    assert_non_null(strstr(err, "application 3"));
    apps[2].count = BBA_COUNT_MAX;   /* 3 + 1 + 1e6 in all */
    assert_int_equal(bba_apps_total(apps, 3, &total, err), BB_EINVAL);
    assert_non_null(strstr(err, "in all"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dist_matches_enumeration),
        cmocka_unit_test(dist_small_by_hand),
        cmocka_unit_test(chernoff_bounds_hold),
        cmocka_unit_test(chernoff_constant_load),
        cmocka_unit_test(quantize_exact_and_bounded),
        cmocka_unit_test(quantize_expands_counts),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
