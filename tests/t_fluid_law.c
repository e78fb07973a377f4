/* t_fluid_law.c: the fluid model's phase laws by blocked state reduction
 * (analytic/fluid/fluid_top.c) against a closed form worked by hand, each
 * phase's own balance (the relative accuracy the reduction promises, for
 * probabilities far below 1e-12), and an independent dense solve (GSL's LU)
 * on models whose band spans one, several and clamped blocks; the
 * status of a boundary solution whose residual is above tolerance; and
 * the cost estimate of a model far beyond the double range of P^3.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "testutil.h"
#include "fluid_int.h"

/* One class of two sources (rate b each, OFF -> ON lam, ON -> OFF mu) on
 * B with b < B < 2b: phases 0, 1, 2 ON; only phase 2 is above B and at a
 * full buffer writes the share c = B / 2b, leaving at 2 mu c.  Balance of
 * the birth-death chain: pi_1 = pi_0 2 lam / mu, pi_2 = pi_1 lam / (2 mu c). */
static void
two_sources_by_hand(void **state)
{
    (void)state;
    const double b = 3.0, B = 4.0, p = 0.2, L = 5.0;
    bba_fluid_class c[1] = { { b, p, L, 2 } };
    bba_fluid *m = tu_fluid(c, 1, B);
    double lam = p / ((1 - p) * L), mu = 1 / L, cs = B / (2 * b);
    double w[3] = { 1.0, 2 * lam / mu, 0.0 }, tot;

    w[2] = w[1] * lam / (2 * mu * cs);
    tot = w[0] + w[1] + w[2];
    assert_int_equal(m->P, 3);
    assert_int_equal(fl_top_law(m, NULL), BB_OK);
    for (int f = 0; f < 3; f++)
        assert_float_equal(m->pi_top[f], w[f] / tot, 1e-14);
    bba_fluid_free(m);
}

/* max over phases of |(x Q^S)_f| / (x_f q_f), q_f the rate of leaving f:
 * each balance equation to the rounding of its own terms */
static double
balance(const bba_fluid *m, const double *x)
{
    double *y = test_malloc((size_t)m->P * sizeof *y), worst = 0.0;

    fl_q_left(m, x, y, 1);
    for (long f = 0; f < m->P; f++)
        worst = fmax(worst, fabs(y[f]) / (x[f] * fl_q_out(m, f)));
    test_free(y);
    return worst;
}

/* the law of Q^S by GSL's LU on Q^S with its last column replaced by ones
 * (pi Q^S = 0, pi 1 = 1): accurate relative to the largest probability */
static void
dense_law(const bba_fluid *m, double *pi)
{
    long P = m->P;
    gsl_matrix *A = gsl_matrix_alloc((size_t)P, (size_t)P);
    gsl_vector *rhs = gsl_vector_calloc((size_t)P), *x = gsl_vector_alloc((size_t)P);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)P);
    double *row = test_malloc((size_t)P * sizeof *row);
    int sg;

    /* A = (Q^S)^T with the last row ones: A pi^T = e_P */
    for (long f = 0; f < P; f++) {
        fl_q_row(m, f, row, 1);
        for (long g = 0; g < P; g++)
            gsl_matrix_set(A, (size_t)g, (size_t)f, g == P - 1 ? 1.0 : row[g]);
    }
    gsl_vector_set(rhs, (size_t)P - 1, 1.0);
    assert_int_equal(gsl_linalg_LU_decomp(A, perm, &sg), 0);
    assert_int_equal(gsl_linalg_LU_solve(A, perm, rhs, x), 0);
    for (long f = 0; f < P; f++)
        pi[f] = gsl_vector_get(x, (size_t)f);
    test_free(row);
    gsl_matrix_free(A);
    gsl_vector_free(rhs);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
}

/* Three classes with strides 1, N0 + 1 and (N0 + 1)(N1 + 1): the band w
 * below, equal to and above the block of 64 phases, and P not a multiple
 * of the block (a clamped last block). */
static void
blocked_against_dense(void **state)
{
    (void)state;
    const int sizes[4][3] = { { 3, 4, 5 }, { 7, 7, 3 }, { 9, 9, 2 }, { 12, 10, 3 } };

    for (int k = 0; k < 4; k++) {
        bba_fluid_class c[3] = { { 0.9, 0.02, 300, sizes[k][0] },
                                 { 1.3, 0.01, 180, sizes[k][1] },
                                 { 0.4, 0.05, 120, sizes[k][2] } };
        bba_fluid *m = tu_fluid(c, 3, 2.0);
        double *pi = test_malloc((size_t)m->P * sizeof *pi), tiny = 1.0, big = 0.0;

        dense_law(m, pi);
        assert_int_equal(fl_top_law(m, NULL), BB_OK);
        for (long f = 0; f < m->P; f++) {
            /* the dense solve is accurate to the largest probability */
            assert_float_equal(m->pi_top[f], pi[f], 1e-13);
            tiny = fmin(tiny, m->pi_top[f]);
            big = fmax(big, fabs(m->pi_top[f] - pi[f]) / pi[f]);
        }
        print_message("# sizes %d %d %d: %ld phases, smallest probability %.3g, "
                      "largest relative gap to the dense solve %.3g\n", sizes[k][0],
                      sizes[k][1], sizes[k][2], m->P, tiny, big);
        /* the reduction's own accuracy, far below the dense solve's reach */
        assert_true(tiny < 1e-12);
        assert_true(balance(m, m->pi_top) < 1e-12);
        test_free(pi);
        bba_fluid_free(m);
    }
}

/* The same law through a reused scratch: bit for bit. */
static void
work_reused(void **state)
{
    (void)state;
    bba_fluid_class c[3] = { { 0.9, 0.10, 300, 9 }, { 1.3, 0.05, 180, 9 },
                             { 0.4, 0.20, 120, 2 } };
    bba_fluid *m = tu_fluid(c, 3, 2.0);
    double *a = test_malloc((size_t)m->P * sizeof *a), *b = test_malloc((size_t)m->P * sizeof *b);
    double *share = test_malloc((size_t)m->P * sizeof *share), *work = NULL;
    char err[BB_ERRLEN];

    for (long f = 0; f < m->P; f++)
        share[f] = m->rate[f] > 3.0 ? 3.0 / m->rate[f] : 1.0;
    assert_int_equal(fl_law(m, m->share_top, a, &work, err), BB_OK);
    assert_int_equal(fl_law(m, share, b, &work, err), BB_OK);
    assert_int_equal(fl_law(m, m->share_top, b, &work, err), BB_OK);
    assert_memory_equal(a, b, (size_t)m->P * sizeof *a);
    assert_int_equal(fl_top_law(m, err), BB_OK);
    assert_memory_equal(a, m->pi_top, (size_t)m->P * sizeof *a);
    free(work);
    test_free(a);
    test_free(b);
    test_free(share);
    bba_fluid_free(m);
}

/* The sweeps' estimate of the law of Q^S (fl_law_sweep) against the
 * reduction, where the band is wide and the model builds its law only
 * on use: 11 distinct sources (w = P / 2) and 3 classes of 15 (w = 256).
 * It starts 6,700 and 7e22 times off (pi / share); settled, it is
 * within 5% of the law at every phase a double holds.  One class of 500
 * has w = 1: the reduction, at once. */
static void
sweep_against_reduction(void **state)
{
    (void)state;
    bba_fluid_class d[11], t[3] = { { 0.2, 0.10, 300, 15 }, { 0.27, 0.05, 180, 15 },
                                    { 0.08, 0.20, 120, 15 } };
    bba_fluid_class one[1] = { { 0.03, 0.05, 60, 500 } };

    for (int i = 0; i < 11; i++)
        d[i] = (bba_fluid_class){ 0.2 + 0.05 * i, 0.02 + 0.01 * i, 60 + 20 * i, 1 };
    for (int k = 0; k < 2; k++) {
        bba_fluid *m = k == 0 ? tu_fluid(d, 11, 1.0) : tu_fluid(t, 3, 1.0);
        double *lx = test_malloc((size_t)m->P * sizeof *lx), worst = 0.0, start = 0.0;

        assert_false(fl_law_narrow(m));
        assert_null(m->pi_top);
        assert_int_equal(fl_law_sweep(m, m->share_top, lx), BB_OK);
        assert_int_equal(fl_top_law(m, NULL), BB_OK);
        for (long f = 0; f < m->P; f++) {
            double lt = log(m->pi_top[f]);

            if (lt < FL_LPI_MIN)
                continue;
            worst = fmax(worst, fabs(lx[f] - lt));
            start = fmax(start, fabs(log(m->pi[f] / m->share_top[f]) - lt));
        }
        print_message("# %ld phases: the estimate within %.3g (log), the start %.3g\n", m->P,
                      worst, start);
        assert_true(start > 8.0);
        assert_true(worst < log(1.05));
        test_free(lx);
        bba_fluid_free(m);
    }
    {
        bba_fluid *m = tu_fluid(one, 1, 1.0);

        assert_true(fl_law_narrow(m));
        assert_non_null(m->pi_top);
        bba_fluid_free(m);
    }
}

/* A boundary solution spoilt after the solve: its residual is above
 * tolerance, a numerical failure (BB_ENOCONV, exit 70), not bad input. */
static void
residual_status(void **state)
{
    (void)state;
    bba_fluid_class c[2] = { { 1.5, 0.10, 300, 1 }, { 2.0, 0.05, 180, 1 } };
    bba_fluid *m = tu_fluid(c, 2, 1.0);
    bba_fluid_result r;
    fl_sol s;
    char err[BB_ERRLEN];

    assert_int_equal(fl_solve_fast(m, 1e3, &s, err), BB_OK);
    assert_int_equal(fl_measures(m, &s, 1.0, &r, err), BB_OK);
    assert_true(r.residual < 1e-10);
    s.y[0][0] = 2.0 * s.y[0][0] + 1.0;
    assert_int_equal(fl_measures(m, &s, 1.0, &r, err), BB_ENOCONV);
    assert_non_null(strstr(err, "residual"));
    assert_non_null(strstr(err, "1000 B"));
    fl_sol_free(&s);
    bba_fluid_free(m);
}

/* 50 classes of 200 (201^50 phases): the estimate capped at 512 phases
 * (what a folded model costs) is that of one class of 511, finite; the
 * exact model's is beyond any bound. */
static void
estimate_capped(void **state)
{
    (void)state;
    bba_fluid_class c[50], one[1] = { { 7e9, 0.01, 30, 511 } };
    bba_fluid_opts o = { 1e12, 0, 0, 0 }, cap = { 1e12, 0, 0, 512 };
    double P, fl, fl512, P512;

    for (int i = 0; i < 50; i++)
        c[i] = (bba_fluid_class){ 7e9 / (1 + i), 0.01 + 0.001 * i, 30 + i, 200 };
    bba_fluid_estimate(c, 50, &o, &P, NULL, &fl);
    assert_true(P > 1e115 && isfinite(P));
    assert_false(fl < 1e300);
    bba_fluid_estimate(c, 50, &cap, &P, NULL, &fl);
    assert_true(P > 1e115);
    bba_fluid_estimate(one, 1, &o, &P512, NULL, &fl512);
    assert_float_equal(P512, 512.0, 0.0);
    assert_true(isfinite(fl) && fl > 0);
    assert_float_equal(fl, fl512, 0.0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_sources_by_hand),
        cmocka_unit_test(blocked_against_dense),
        cmocka_unit_test(work_reused),
        cmocka_unit_test(sweep_against_reduction),
        cmocka_unit_test(residual_status),
        cmocka_unit_test(estimate_capped),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
