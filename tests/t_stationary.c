/* t_stationary.c: the stationary solvers and the measures of Theorems 3
 * and 5, against hand-worked chains and against each other.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

static const bba_solver_kind kinds[] = {
    BBA_SOLVER_BANDED, BBA_SOLVER_UMFPACK, BBA_SOLVER_GAUSS_SEIDEL
};

/* Solve the hand chain (B = 2, b = 3, p = 1/2) with every solver. */
static void
check_hand(long S, const bb_drain *pol, const double *expect, long n,
           double idle, double quiet)
{
    long b[1] = { 3 };
    double p[1] = { 0.5 }, pi[8];
    bba_model m;
    char err[BB_ERRLEN];

    assert_int_equal(bba_model_init(&m, 1, b, p, 2, 0, err), BB_OK);
    for (size_t k = 0; k < 3; k++) {
        bba_chain *c;
        bba_solver_opts so;
        bba_solve_info info;
        bba_measures me;

        tu_solver(&so, kinds[k]);
        assert_int_equal(bba_chain_build(m.dist, m.M, m.B, S, pol, 0, &c, err), BB_OK);
        assert_int_equal(c->n_states, n);
        assert_int_equal(bba_stationary_solve(c, &so, pi, &info, err), BB_OK);
        for (long j = 0; j < n; j++)
            assert_float_equal(pi[j], expect[j], 1e-13);
        assert_true(info.residual < 1e-14);
        bba_measures_compute(c, pi, &me);
        assert_float_equal(me.idle, idle, 1e-13);
        assert_float_equal(me.quiet, quiet, 1e-13);
        bba_chain_free(c);
    }
    bba_model_free(&m);
}

/* Worked by hand from the balance equations:
 * S = 1 greedy: pi = (4, 2, 1)/7, idle 1/7, quiet 5/7.
 * S = 2 greedy: pi = (6, 4, 2, 1)/13, idle 1/13, quiet 9/13.
 * S = 2 lazy (THRESHOLD 2, EPS 0.1): pi = (0.6, 1, 0.5, 0.25)/2.35,
 *   idle 0.25/2.35 = 5/47, quiet 1.8/2.35 = 36/47. */
static void
hand_worked_chains(void **state)
{
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 2, .eps = 0.1 };
    double e1[3] = { 4.0 / 7, 2.0 / 7, 1.0 / 7 };
    double e2[4] = { 6.0 / 13, 4.0 / 13, 2.0 / 13, 1.0 / 13 };
    double e3[4] = { 0.6 / 2.35, 1 / 2.35, 0.5 / 2.35, 0.25 / 2.35 };

    (void)state;
    check_hand(1, &greedy, e1, 3, 1.0 / 7, 5.0 / 7);
    check_hand(2, &greedy, e2, 4, 1.0 / 13, 9.0 / 13);
    check_hand(2, &lazy, e3, 4, 5.0 / 47, 36.0 / 47);
}

/* Direct (UMFPACK), banded GTH and iterative (Gauss-Seidel) solutions
 * agree to 1e-10 on random greedy and lazy chains. */
static void
solvers_agree(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 12; seed++) {
        tu_workload w;
        bba_model m;
        long S = 5 + 37 * (long)seed;
        bb_drain pol = { .kind = (int)(seed % 2), .unit = BB_DRAIN_QUANTA, .threshold = S / 4, .eps = 0.05 };
        double *pi[3];
        long n = 0;

        if (seed == 12) /* total bandwidth below B */
            tu_random(&w, 2, 8, 0.5, 20, seed + 40);
        else
            tu_random(&w, 4 + seed % 8, 30, 0.5, 20, seed + 40);
        tu_model(&m, &w);
        for (size_t k = 0; k < 3; k++) {
            bba_chain *c;
            bba_solver_opts so;
            bba_solve_info info;
            char err[BB_ERRLEN];

            tu_solver(&so, kinds[k]);
            assert_int_equal(bba_chain_build(m.dist, m.M, m.B, S, &pol, 0, &c, err), BB_OK);
            n = c->n_states;
            pi[k] = malloc((size_t)n * sizeof(double));
            assert_int_equal(bba_stationary_solve(c, &so, pi[k], &info, err), BB_OK);
            assert_true(info.residual < 1e-12);
            bba_chain_free(c);
        }
        for (long j = 0; j < n; j++) {
            assert_true(fabs(pi[0][j] - pi[1][j]) < 1e-10);
            assert_true(fabs(pi[0][j] - pi[2][j]) < 1e-10);
        }
        /* The banded GTH keeps relative accuracy in the far tail too. */
        for (long j = 0; j < n; j++)
            if (pi[1][j] > 1e-200)
                assert_true(fabs(pi[0][j] - pi[1][j]) <= 1e-6 * pi[1][j] + 1e-15);
        for (size_t k = 0; k < 3; k++)
            free(pi[k]);
        bba_model_free(&m);
    }
}

/* An iterative solve stopped early says so, with the residual reached. */
static void
gauss_seidel_reports_no_convergence(void **state)
{
    tu_workload w;
    bba_model m;
    bba_chain *c;
    bba_solver_opts so;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    bba_solve_info info;
    double *pi;
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 10, 40, 0.2, 20, 3);
    tu_model(&m, &w);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 400, &pol, 0, &c, err), BB_OK);
    tu_solver(&so, BBA_SOLVER_GAUSS_SEIDEL);
    so.max_iter = 3;
    pi = malloc((size_t)c->n_states * sizeof *pi);
    assert_int_equal(bba_stationary_solve(c, &so, pi, &info, err), BB_ENOCONV);
    assert_non_null(strstr(err, "residual"));
    free(pi);
    bba_chain_free(c);
    bba_model_free(&m);
}

/* The UMFPACK memory estimate is checked against the limit. */
static void
umfpack_refuses_over_limit(void **state)
{
    tu_workload w;
    bba_model m;
    bba_chain *c;
    bba_solver_opts so;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    double *pi;
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 10, 40, 0.2, 20, 3);
    tu_model(&m, &w);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 400, &pol, 0, &c, err), BB_OK);
    pi = malloc((size_t)c->n_states * sizeof *pi);
    for (size_t k = 0; k < 2; k++) {
        tu_solver(&so, kinds[k]);
        so.mem_limit_bytes = 1000;
        assert_int_equal(bba_stationary_solve(c, &so, pi, NULL, err), BB_ETOOBIG);
        assert_non_null(strstr(err, "GB"));
    }
    free(pi);
    bba_chain_free(c);
    bba_model_free(&m);
}

/* Output's name and note for each solver: the FFT default names its GTH
 * fallback (bbsize report's platform table), unless the fallback is off;
 * the banded solver is never "Gauss-Seidel" (a bug once). */
static void
solver_described(void **state)
{
    bba_solver_opts so;
    const char *name, *note;

    (void)state;
    bba_solver_defaults(&so);
    bba_solver_describe(&so, &name, &note);
    assert_string_equal(name, "FFT Wiener-Hopf");
    assert_string_equal(note, "banded GTH where GMRES does not converge");
    so.no_fallback = 1;
    bba_solver_describe(&so, &name, &note);
    assert_string_equal(note, "");
    so.no_fallback = 0;
    so.kind = BBA_SOLVER_BANDED;
    bba_solver_describe(&so, &name, &note);
    assert_string_equal(name, "banded GTH");
    assert_string_equal(note, "");
    so.kind = BBA_SOLVER_GAUSS_SEIDEL;
    bba_solver_describe(&so, &name, &note);
    assert_string_equal(name, "Gauss-Seidel");
    so.kind = BBA_SOLVER_UMFPACK;
    bba_solver_describe(&so, &name, &note);
    assert_string_equal(name, "UMFPACK (sparse LU)");
    assert_string_equal(note, "");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_worked_chains),
        cmocka_unit_test(solvers_agree),
        cmocka_unit_test(gauss_seidel_reports_no_convergence),
        cmocka_unit_test(umfpack_refuses_over_limit),
        cmocka_unit_test(solver_described),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
