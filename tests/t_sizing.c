/* t_sizing.c: evaluation, the size search and the threshold search, and
 * the paper's stated findings (Sections 5.3 and 7.3).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

static double
idle_at(const bba_model *m, long S, const bb_drain *pol)
{
    bba_solver_opts so;
    bba_eval_result r;
    char err[BB_ERRLEN];

    tu_solver(&so, BBA_SOLVER_BANDED);
    assert_int_equal(bba_eval(m, S, pol, &so, &r, NULL, err), BB_OK);
    return r.meas.idle;
}

/* Idle never increases with the buffer size (greedy and lazy). */
static void
idle_non_increasing_in_size(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 4; seed++) {
        tu_workload w;
        bba_model m;
        double prev = 2;

        tu_random(&w, 8, 30, 0.3, 20, seed + 100);
        tu_model(&m, &w);
        for (long S = 0; S <= 300; S += 7) {
            bb_drain pol = { .kind = (int)(seed % 2), .unit = BB_DRAIN_QUANTA, .threshold = S / 5, .eps = 0.01 };
            double idle = idle_at(&m, S, &pol);

            assert_true(idle <= prev * (1 + 1e-9) + 1e-15);
            prev = idle;
        }
        bba_model_free(&m);
    }
}

/* The FFT solve's estimate (cost.h) against the GMRES steps the solver
 * takes: iterations x regions x 5 N log2 N, N = S + M + 1, each within
 * the 10x the estimates promise, greedy and lazy (two regions). */
static void
fft_cost_follows_steps(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 4; seed++) {
        tu_workload w;
        bba_model m;

        tu_random(&w, 8, 30, 0.3, 20, seed + 300);
        tu_model(&m, &w);
        for (int lazy = 0; lazy <= 1; lazy++) {
            long S = 200;
            bb_drain pol = { .kind = lazy, .unit = BB_DRAIN_QUANTA,
                             .threshold = lazy ? S / 3 : 0, .eps = lazy ? 0.05 : 0 };
            bba_solver_opts so;
            bba_eval_result r;
            bba_cost c;
            char err[BB_ERRLEN];
            double N = (double)S + (double)m.M + 1.0, did;

            tu_solver(&so, BBA_SOLVER_FFT);
            assert_int_equal(bba_eval(&m, S, &pol, &so, &r, NULL, err), BB_OK);
            assert_true(r.solve.iterations > 0);
            did = (double)r.solve.iterations * (lazy ? 2.0 : 1.0) * 5.0 * N * log2(N + 1.0);
            bba_cost_eval(&m, S, &so, &pol, &c);
            if (!(c.ops <= 10 * did && did <= 10 * c.ops))
                print_error("seed %lu lazy %d: %ld steps, %.3g done vs %.3g costed\n", seed,
                            lazy, (long)r.solve.iterations, did, c.ops);
            assert_true(c.ops <= 10 * did && did <= 10 * c.ops);
        }
        bba_model_free(&m);
    }
}

/* Expected load above B: idle tends to 1 - B/E as S grows. */
static void
overloaded_limit(void **state)
{
    long b[3] = { 15, 8, 6 };
    double p[3] = { 0.6, 0.5, 0.25 }; /* E = 9 + 4 + 1.5 = 14.5, B = 10 */
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    char err[BB_ERRLEN];
    double limit = 1.0 - 10.0 / 14.5, d100, d2000;

    (void)state;
    assert_int_equal(bba_model_init(&m, 3, b, p, 10, 0, err), BB_OK);
    d100 = fabs(idle_at(&m, 100, &greedy) - limit);
    d2000 = fabs(idle_at(&m, 2000, &greedy) - limit);
    assert_true(d2000 < d100);
    assert_true(d2000 < 2e-3);
    assert_true(idle_at(&m, 2000, &greedy) >= limit - 1e-9); /* never below */
    bba_model_free(&m);
}

/* The size search returns the smallest size meeting the target, checked
 * by direct evaluation at S and S - 1; also for lazy draining; and the
 * same from any guess (bba_size_min_from). */
static void
size_is_minimal(void **state)
{
    double targets[] = { 1e-2, 1e-4, 1e-7 };

    (void)state;
    for (unsigned long seed = 1; seed <= 3; seed++)
        for (size_t t = 0; t < 3; t++)
            for (int lazy = 0; lazy <= 1; lazy++) {
                tu_workload w;
                bba_model m;
                bba_solver_opts so;
                bba_size_result r;
                bb_drain ps = { .kind = lazy, .unit = BB_DRAIN_FRACTION, .threshold = 0.2, .eps = 0.01 };
                bb_drain pol;
                char err[BB_ERRLEN];

                tu_random(&w, 10, 40, 0.1, 20, seed + 7);
                tu_model(&m, &w);
                tu_solver(&so, BBA_SOLVER_BANDED);
                assert_int_equal(bba_size_min(&m, targets[t], &ps, &so, 100000, NULL, NULL,
                                              &r, err), BB_OK);
                assert_true(r.feasible);
                bba_drain_quanta(&ps, r.best.S, 1, &pol);
                assert_true(idle_at(&m, r.best.S, &pol) <= targets[t]);
                if (r.best.S > 0) {
                    bba_drain_quanta(&ps, r.best.S - 1, 1, &pol);
                    assert_true(idle_at(&m, r.best.S - 1, &pol) > targets[t]);
                }
                assert_true(r.evaluations <= 20);
                /* from any guess, the same answer; a close guess is cheap */
                {
                    const long S = r.best.S;
                    const long hints[] = { 1, S > 3 ? S - 3 : 1, S, S + 1, S + 40,
                                           20 * S + 7 };

                    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
                        bba_size_result rh;

                        assert_int_equal(bba_size_min_from(&m, targets[t], &ps, &so, 100000,
                                                           hints[h], NULL, NULL, &rh, err),
                                         BB_OK);
                        assert_int_equal(rh.best.S, S);
                        assert_float_equal(rh.best.meas.idle, r.best.meas.idle,
                                           1e-9 * r.best.meas.idle);
                        if (hints[h] == S || hints[h] == S + 1)
                            assert_true(rh.evaluations <= 4);
                    }
                }
                bba_model_free(&m);
            }
}

/* Every bound a search states holds: the last (the lowest) is at least
 * the solves it took, counted by the search itself, over searches from
 * no guess and from guesses below, at and above the answer, with memory
 * bounds that clip the stepping, greedy and lazy, and the threshold
 * search over grids coarse and fine. */
static void
search_bounds_hold(void **state)
{
    double targets[] = { 1e-2, 1e-4, 1e-7 };
    long s_maxes[] = { 100000, 300 };

    (void)state;
    for (unsigned long seed = 1; seed <= 3; seed++)
        for (size_t t = 0; t < 3; t++)
            for (int lazy = 0; lazy <= 1; lazy++)
                for (size_t k = 0; k < 2; k++) {
                    tu_workload w;
                    bba_model m;
                    bba_solver_opts so;
                    bba_size_result r;
                    bb_drain ps = { .kind = lazy, .unit = BB_DRAIN_FRACTION, .threshold = 0.3, .eps = 0.01 };
                    tu_progress_rec rec = { 0, 0, 0 };
                    char err[BB_ERRLEN];
                    long S;
                    int rc;

                    tu_random(&w, 10, 40, 0.1, 20, seed + 7);
                    tu_model(&m, &w);
                    tu_solver(&so, BBA_SOLVER_BANDED);
                    rc = bba_size_min(&m, targets[t], &ps, &so, s_maxes[k],
                                      tu_progress_record, &rec, &r,
                                      err);
                    assert_true(rc == BB_OK || rc == BB_ETOOBIG);
                    assert_int_equal(rec.calls, r.evaluations + 1);
                    assert_true(rec.most >= r.evaluations);
                    S = rc == BB_OK ? r.best.S : s_maxes[k];
                    {
                        const long hints[] = { 1, S > 9 ? S - 9 : 1, S, S + 1, S + 300,
                                               4 * S + 7 };

                        for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
                            tu_progress_rec rh = { 0, 0, 0 };

                            rc = bba_size_min_from(&m, targets[t], &ps, &so, s_maxes[k],
                                                   hints[h], tu_progress_record, &rh, &r,
                                                   err);
                            assert_true(rc == BB_OK || rc == BB_ETOOBIG);
                            assert_int_equal(rh.calls, r.evaluations + 1);
                            assert_true(rh.most >= r.evaluations);
                        }
                    }
                    for (int grid = 1; grid <= 16; grid *= 4) {
                        bba_threshold_result tr;
                        tu_progress_rec rt = { 0, 0, 0 };

                        assert_int_equal(bba_threshold_best(&m, 2 * S + 10, targets[t], 0.01,
                                                            grid, &so, tu_progress_record,
                                                            &rt, &tr, err),
                                         BB_OK);
                        assert_int_equal(rt.calls, tr.evaluations + 1);
                        assert_true(rt.most >= tr.evaluations);
                    }
                    bba_model_free(&m);
                }
}

/* E >= B: no size suffices; the limit is reported.  A target outside
 * (0, 1) is refused.  A size beyond the budget says how far it got. */
static void
size_infeasible_and_bounds(void **state)
{
    long b[2] = { 20, 20 };
    double p[2] = { 0.5, 0.5 };
    bba_model m;
    bba_solver_opts so;
    bba_size_result r;
    bb_drain ps = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0, .eps = 0.01 };
    char err[BB_ERRLEN];

    (void)state;
    tu_solver(&so, BBA_SOLVER_BANDED);
    assert_int_equal(bba_model_init(&m, 2, b, p, 20, 0, err), BB_OK);
    assert_int_equal(bba_size_min(&m, 1e-3, &ps, &so, 100000, NULL, NULL, &r, err),
                     BB_EINFEASIBLE);
    assert_false(r.feasible);
    assert_float_equal(r.idle_limit, 0.0, 1e-15); /* E = B exactly */
    bba_model_free(&m);
    p[0] = 0.9;
    assert_int_equal(bba_model_init(&m, 2, b, p, 20, 0, err), BB_OK);
    assert_int_equal(bba_size_min(&m, 1e-3, &ps, &so, 100000, NULL, NULL, &r, err),
                     BB_EINFEASIBLE);
    assert_float_equal(r.idle_limit, 1 - 20.0 / 28.0, 1e-12);
    assert_non_null(strstr(err, "1 - B/E"));
    assert_int_equal(bba_size_min(&m, 1.5, &ps, &so, 100000, NULL, NULL, &r, err), BB_EINVAL);
    bba_model_free(&m);
    p[0] = 0.3;
    assert_int_equal(bba_model_init(&m, 2, b, p, 20, 0, err), BB_OK);
    assert_int_equal(bba_size_min(&m, 1e-12, &ps, &so, 50, NULL, NULL, &r, err), BB_ETOOBIG);
    assert_non_null(strstr(err, "50 quanta"));
    bba_model_free(&m);
}

/* The threshold search finds the quietest feasible threshold: checked
 * against every integer threshold of a small buffer. */
static void
threshold_best_is_exhaustive_best(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 3; seed++) {
        tu_workload w;
        bba_model m;
        bba_solver_opts so;
        bba_threshold_result r;
        long S = 60;
        double target = 5e-3, best_quiet = -1;
        char err[BB_ERRLEN];

        tu_random(&w, 6, 25, 0.3, 10, seed + 300);
        tu_model(&m, &w);
        tu_solver(&so, BBA_SOLVER_BANDED);
        assert_int_equal(bba_threshold_best(&m, S, target, 0.01, 10, &so, NULL, NULL, &r, err),
                         BB_OK);
        for (long t = 0; t <= S; t++) {
            bb_drain pol = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = t, .eps = 0.01 };
            bba_eval_result e;

            assert_int_equal(bba_eval(&m, S, &pol, &so, &e, NULL, err), BB_OK);
            if (e.meas.idle <= target && e.meas.quiet > best_quiet)
                best_quiet = e.meas.quiet;
        }
        if (best_quiet < 0) {
            assert_false(r.feasible);
        } else {
            assert_true(r.feasible);
            assert_true(r.best.meas.idle <= target);
            /* exact when idle is monotone in the threshold, which the
             * search reports */
            if (r.monotone_idle)
                assert_float_equal(r.best.meas.quiet, best_quiet, 1e-12);
            assert_true(r.best.meas.quiet >= r.greedy.meas.quiet - 1e-15);
        }
        bba_model_free(&m);
    }
}

/* Section 5.3 / Figure 3: lower p_max (shorter, more intense bursts) needs
 * a larger buffer for the same idle target at the same load; and
 * Section 7.3 / Figure 6: a small threshold already raises the quiet time
 * at moderate load.  Workloads from the paper's generator, B = R = 100. */
static void
paper_findings(void **state)
{
    long s_lo = 0, s_hi = 0;

    (void)state;
    for (unsigned long seed = 1; seed <= 3; seed++) {
        double pmax[2] = { 0.1, 0.8 };
        long sz[2];

        for (int k = 0; k < 2; k++) {
            bba_app apps[20];
            bba_platform pf = { 100, 0, 1, 100 };
            bba_quantized q;
            bba_model m;
            bba_solver_opts so;
            bba_size_result r;
            bb_drain ps = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0, .eps = 0.01 };
            char err[BB_ERRLEN];

            assert_int_equal(bba_generate_paper(20, pmax[k], 0.5, 100, 0, seed, apps, err), BB_OK);
            assert_int_equal(bba_quantize(apps, 20, &pf, &q, err), BB_OK);
            assert_int_equal(bba_model_init(&m, q.n, q.b, q.p, q.B, 0, err), BB_OK);
            tu_solver(&so, BBA_SOLVER_BANDED);
            assert_int_equal(bba_size_min(&m, 1e-3, &ps, &so, 100000, NULL, NULL, &r, err), BB_OK);
            sz[k] = r.best.S;
            if (k == 0 && seed == 1) {
                bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.01 }, l = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = r.best.S / 10, .eps = 0.01 };
                bba_eval_result eg, el;

                assert_int_equal(bba_eval(&m, r.best.S, &g, &so, &eg, NULL, err), BB_OK);
                assert_int_equal(bba_eval(&m, r.best.S, &l, &so, &el, NULL, err), BB_OK);
                assert_true(el.meas.quiet > eg.meas.quiet + 0.01);
            }
            bba_model_free(&m);
            bba_quantized_free(&q);
        }
        s_lo += sz[0];
        s_hi += sz[1];
        assert_true(sz[0] > sz[1]);
    }
    assert_true(s_lo > 2 * s_hi);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(idle_non_increasing_in_size),
        cmocka_unit_test(overloaded_limit),
        cmocka_unit_test(size_is_minimal),
        cmocka_unit_test(search_bounds_hold),
        cmocka_unit_test(size_infeasible_and_bounds),
        cmocka_unit_test(threshold_best_is_exhaustive_best),
        cmocka_unit_test(paper_findings),
        cmocka_unit_test(fft_cost_follows_steps),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
