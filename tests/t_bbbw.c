/* t_bbbw.c: the burst buffer's bandwidth in the discrete chains (bbbw.h):
 * the throttled law worked by hand, the measures' time accounting, the
 * bandwidth bound and its inverse, and the four solvers agreeing on the
 * throttled chain.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

/* B = 10, B_BB = 2: a load of 24 needs (24 - 12)/12 = 1 more unit exactly
 * (load 14 then one stall); 15 needs 3/12 = 0.25: load 15 with probability
 * 3/4, load 5 (15 - 10) and one stall with 1/4; loads up to 12 are not
 * throttled. */
static void
test_throttled_law_by_hand(void **state)
{
    double d[25] = { 0 }, o[25];
    double cbar;

    (void)state;
    d[0] = 0.2;
    d[12] = 0.1;
    d[15] = 0.3;
    d[24] = 0.4;
    cbar = bba_bbbw_throttle(d, 24, 10, 2, o);
    assert_float_equal(cbar, 0.3 * 0.25 + 0.4 * 1.0, 1e-15);
    assert_float_equal(o[0], 0.2, 0);
    assert_float_equal(o[12], 0.1, 0);
    assert_float_equal(o[15], 0.3 * 0.75, 1e-16);
    assert_float_equal(o[5], 0.3 * 0.25, 1e-16);
    assert_float_equal(o[14], 0.4, 0);
    assert_float_equal(o[24], 0, 0);
    assert_float_equal(bba_bbbw_stall(d, 24, 10, 2), cbar, 1e-15);
    assert_float_equal(bba_bbbw_stall(d, 24, 10, 0), 0, 0);
    /* the expected load the chain sees is the load less B per stall */
    {
        double e = 0, e1 = 0;

        for (int k = 0; k <= 24; k++) {
            e += k * d[k];
            e1 += k * o[k];
        }
        assert_float_equal(e1, e - 10 * cbar, 1e-12);
    }
}

/* The time accounting: idle' 0.1 of the chain's units, cbar 0.5 stall per
 * normal unit: 0.9 x 0.5 = 0.45 throttle stalls per chain unit, so idle =
 * (0.1 + 0.45) / 1.45 and quiet, p_empty, p_full divided by 1.45. */
static void
test_apply(void **state)
{
    bba_measures m = { 0 };

    (void)state;
    m.idle = 0.1;
    m.quiet = 0.6;
    m.p_empty = 0.3;
    m.p_full = 0.2;
    m.mean_load = 7;
    bba_bbbw_apply(0.5, &m);
    assert_float_equal(m.idle, 0.55 / 1.45, 1e-15);
    assert_float_equal(m.quiet, 0.6 / 1.45, 1e-15);
    assert_float_equal(m.p_empty, 0.3 / 1.45, 1e-15);
    assert_float_equal(m.p_full, 0.2 / 1.45, 1e-15);
    assert_float_equal(m.mean_load, 7, 0);
    assert_float_equal(m.log10_idle, log10(0.55 / 1.45), 1e-15);
}

/* The bound cbar / (1 + cbar) and the smallest B_BB for a target: one
 * application writing 30 quanta with probability 0.1, B = 10: cbar(x) =
 * 0.1 (20 - x)/(10 + x).  Target 0.01: cbar <= 1/99, so (20 - x)/(10 + x)
 * <= 10/99, x >= (1980 - 100)/109 = 17.25: 18. */
static void
test_bound_and_min(void **state)
{
    const long b[] = { 30 };
    const double p[] = { 0.1 };
    bba_model m;
    char err[BB_ERRLEN];
    int bw;
    double lim;

    (void)state;
    assert_int_equal(bba_bbbw_min((double[]){ 0.9, 0, 0.1 }, 2, 10, 0.01), 0);
    assert_int_equal(bba_model_init(&m, 1, b, p, 10, 0, err), BB_OK);
    assert_int_equal(bba_bbbw_min(m.dist, m.M, 10, 0.01), 18);
    assert_true(bba_bbbw_stall(m.dist, m.M, 10, 17) > 1.0 / 99);
    assert_true(bba_bbbw_stall(m.dist, m.M, 10, 18) <= 1.0 / 99);
    assert_int_equal(bba_model_set_bbbw(&m, 5, err), BB_OK);
    assert_float_equal(m.throttle, 0.1 * 15.0 / 15.0, 1e-15);
    lim = bba_model_idle_limit(&m, &bw);
    assert_float_equal(lim, 0.1 / 1.1, 1e-15);
    assert_int_equal(bw, 1);
    /* the size search refuses: the bandwidth binds whatever the size */
    {
        bba_solver_opts so;
        bba_size_result r;
        bb_drain ps = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0, .eps = 0.01 };

        tu_solver(&so, BBA_SOLVER_FFT);
        assert_int_equal(bba_size_min(&m, 0.05, &ps, &so, 100000, NULL, NULL, &r, err),
                         BB_EINFEASIBLE);
        assert_int_equal(r.bandwidth_bound, 1);
        assert_float_equal(r.idle_limit, 0.1 / 1.1, 1e-15);
        assert_int_equal(bba_size_min(&m, 0.2, &ps, &so, 100000, NULL, NULL, &r, err), BB_OK);
        assert_true(r.best.meas.idle <= 0.2 && r.best.meas.idle > 0.1 / 1.1);
    }
    bba_model_free(&m);
}

/* FFT Wiener-Hopf, banded GTH, UMFPACK and Gauss-Seidel solve the same
 * throttled chain (greedy and lazy) to the same measures, and the idle
 * fraction falls towards the bandwidth bound as S grows. */
static void
test_solvers_agree(void **state)
{
    const bba_solver_kind kinds[] = { BBA_SOLVER_FFT, BBA_SOLVER_BANDED, BBA_SOLVER_UMFPACK,
                                      BBA_SOLVER_GAUSS_SEIDEL };
    tu_workload w;
    bba_model m;
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 6, 30, 0.3, 20, 7);
    tu_model(&m, &w);
    assert_int_equal(bba_model_set_bbbw(&m, 7, err), BB_OK);
    assert_true(m.throttle > 0);
    for (int lazy = 0; lazy <= 1; lazy++) {
        bb_drain pol = { .kind = lazy, .unit = BB_DRAIN_QUANTA, .threshold = lazy ? 20 : 0, .eps = 0.05 };
        bba_eval_result r0, r;
        bba_solver_opts so;

        tu_solver(&so, kinds[0]);
        assert_int_equal(bba_eval(&m, 60, &pol, &so, &r0, NULL, err), BB_OK);
        for (size_t i = 1; i < sizeof kinds / sizeof kinds[0]; i++) {
            tu_solver(&so, kinds[i]);
            assert_int_equal(bba_eval(&m, 60, &pol, &so, &r, NULL, err), BB_OK);
            assert_float_equal(r.meas.idle, r0.meas.idle, 1e-9 * r0.meas.idle);
            assert_float_equal(r.meas.quiet, r0.meas.quiet, 1e-9);
            assert_float_equal(r.meas.p_full, r0.meas.p_full, 1e-9);
        }
    }
    {
        bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
        bba_solver_opts so;
        bba_eval_result r;
        double lim = bba_model_idle_limit(&m, NULL);

        tu_solver(&so, BBA_SOLVER_FFT);
        assert_int_equal(bba_eval(&m, 5000, &g, &so, &r, NULL, err), BB_OK);
        assert_true(r.meas.idle >= lim);
        assert_float_equal(r.meas.idle, lim, 1e-9);
    }
    bba_model_free(&m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_throttled_law_by_hand),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_bound_and_min),
        cmocka_unit_test(test_solvers_agree),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
