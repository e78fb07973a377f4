/* t_chain.c: the greedy and lazy chains (Algorithms 2 and 4).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

static double
entry(const bba_chain *c, long j, long l)
{
    for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
        if (c->col[q] == l)
            return c->val[q];
    return 0;
}

/* Every row of every chain sums to 1: greedy and lazy, S below, at and
 * above B, total bandwidth below and above B, several thresholds. */
static void
rows_sum_to_one(void **state)
{
    long sizes[] = { 0, 1, 7, 10, 11, 63, 250 };

    (void)state;
    for (unsigned long seed = 1; seed <= 8; seed++) {
        tu_workload w;
        bba_model m;

        /* seeds 7 and 8: total bandwidth below B (M < B, no overflow) */
        if (seed >= 7)
            tu_random(&w, 2, 3, 0.7, 10, seed);
        else
            tu_random(&w, 3 + seed % 5, seed % 2 ? 8 : 30, 0.7, 10, seed);
        tu_model(&m, &w);
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            long S = sizes[si];

            for (int t = 0; t <= 4; t++) {
                bb_drain pol = { .kind = t > 0, .unit = BB_DRAIN_QUANTA, .threshold = S * (t - 1) / 3, .eps = 0.013 * t };
                bba_chain *c = NULL;
                char err[BB_ERRLEN];

                if (t > 0 && pol.threshold > S)
                    pol.threshold = S;
                assert_int_equal(bba_chain_build(m.dist, m.M, m.B, S, &pol, 0, &c, err), BB_OK);
                assert_int_equal(c->n_states, S + (m.M > m.B ? m.M - m.B : 0) + 1);
                for (long j = 0; j < c->n_states; j++) {
                    assert_true(fabs(bba_chain_row_sum(c, j) - 1.0) < 1e-14);
                    /* column indices strictly increasing */
                    for (int q = c->rowptr[j] + 1; q < c->rowptr[j + 1]; q++)
                        assert_true(c->col[q] > c->col[q - 1]);
                }
                bba_chain_free(c);
            }
        }
        bba_model_free(&m);
    }
}

/* The tiny chain worked by hand: B = 2, one application b = 3, p = 1/2,
 * S = 2.  States 0..3 (3 = S + M - B is the only overflow state). */
static void
tiny_chain_by_hand(void **state)
{
    long b[1] = { 3 };
    double p[1] = { 0.5 };
    bba_model m;
    bba_chain *c;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.01 }, lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 2, .eps = 0.1 };
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 1, b, p, 2, 0, err), BB_OK);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 2, &greedy, 0, &c, err), BB_OK);
    assert_int_equal(c->n_states, 4);
    assert_float_equal(entry(c, 0, 0), 0.5, 0);
    assert_float_equal(entry(c, 0, 1), 0.5, 0);
    assert_float_equal(entry(c, 1, 0), 0.5, 0);
    assert_float_equal(entry(c, 1, 2), 0.5, 0);
    assert_float_equal(entry(c, 2, 0), 0.5, 0);
    assert_float_equal(entry(c, 2, 3), 0.5, 0);
    assert_float_equal(entry(c, 3, 1), 1.0, 0); /* overflow drains B */
    bba_chain_free(c);
    /* Lazy, THRESHOLD = 2, EPS = 0.1: state 1 keeps its load when the
     * applications need no more than B, except with probability EPS. */
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 2, &lazy, 0, &c, err), BB_OK);
    assert_float_equal(entry(c, 1, 1), 0.45, 1e-15);
    assert_float_equal(entry(c, 1, 0), 0.05, 1e-15);
    assert_float_equal(entry(c, 1, 2), 0.5, 0);
    assert_float_equal(entry(c, 2, 0), 0.5, 0); /* at the threshold: greedy */
    bba_chain_free(c);
    bba_model_free(&m);
}

/* The paper's printed lazy row (Section 7.2) has no P_{j,0} and its 0.99
 * term omits the loads that would empty the buffer: check that our row
 * for j < THRESHOLD, j <= B, keeps that mass (P(j,0) = EPS * Pr(k <= B - j)). */
static void
lazy_row_keeps_emptying_mass(void **state)
{
    tu_workload w;
    bba_model m;
    bba_chain *c;
    bb_drain lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 40, .eps = 0.01 };
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 6, 25, 0.5, 10, 77);
    tu_model(&m, &w);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 50, &lazy, 0, &c, err), BB_OK);
    for (long j = 0; j < 40; j++) {
        double cdf = 0, cdf_b = 0;

        for (long k = 0; k <= m.M && k <= m.B - j; k++)
            cdf += m.dist[k];
        for (long k = 0; k <= m.M && k <= m.B; k++)
            cdf_b += m.dist[k];
        if (j == 0)
            assert_float_equal(entry(c, 0, 0), cdf_b, 1e-15);
        else
            assert_float_equal(entry(c, j, 0), 0.01 * cdf, 1e-15);
        if (j > 0)
            assert_float_equal(entry(c, j, j), 0.99 * cdf_b + 0.01 * m.dist[m.B], 1e-15);
    }
    bba_chain_free(c);
    bba_model_free(&m);
}

/* Threshold 0 makes the lazy chain the greedy chain, entry for entry. */
static void
lazy_threshold_zero_is_greedy(void **state)
{
    tu_workload w;
    bba_model m;
    bba_chain *g, *l;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.3 };
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 8, 20, 0.4, 10, 5);
    tu_model(&m, &w);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 70, &greedy, 0, &g, err), BB_OK);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 70, &lazy, 0, &l, err), BB_OK);
    assert_int_equal(g->nnz, l->nnz);
    assert_memory_equal(g->rowptr, l->rowptr, (size_t)(g->n_states + 1) * sizeof(int));
    assert_memory_equal(g->col, l->col, (size_t)g->nnz * sizeof(int));
    assert_memory_equal(g->val, l->val, (size_t)g->nnz * sizeof(double));
    bba_chain_free(g);
    bba_chain_free(l);
    bba_model_free(&m);
}

/* p = 1: fine while state 0 stays reachable; refused with the reason when
 * the always-on applications alone fill the PFS. */
static void
p_one_reachability(void **state)
{
    long b[2] = { 4, 7 };
    double p[2] = { 1.0, 0.3 };
    bba_model m;
    bba_chain *c;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy0 = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 25, .eps = 0.0 };
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 2, b, p, 10, 0, err), BB_OK);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 30, &greedy, 0, &c, err), BB_OK);
    assert_int_equal(bba_chain_check_reachable(c, err), BB_OK);
    bba_chain_free(c);
    bba_model_free(&m);
    b[0] = 10; /* the p = 1 application alone uses all of B */
    assert_int_equal(bba_model_init(&m, 2, b, p, 10, 0, err), BB_OK);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 30, &greedy, 0, &c, err), BB_OK);
    err[0] = '\0';
    assert_int_equal(bba_chain_check_reachable(c, err), BB_EDATA);
    assert_non_null(strstr(err, "p = 1"));
    bba_chain_free(c);
    bba_model_free(&m);
    /* EPS = 0 below a threshold above B traps the load: from 25 it can
     * drop to 15 at most, and below 25 it never drains. */
    b[0] = 4;
    p[0] = 0.5;
    assert_int_equal(bba_model_init(&m, 2, b, p, 10, 0, err), BB_OK);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 30, &lazy0, 0, &c, err), BB_OK);
    assert_int_equal(bba_chain_check_reachable(c, err), BB_EDATA);
    assert_non_null(strstr(err, "EPS"));
    bba_chain_free(c);
    bba_model_free(&m);
}

/* A chain that would not fit is refused before allocation, with its size. */
static void
too_big_refused(void **state)
{
    tu_workload w;
    bba_model m;
    bba_chain *c = (bba_chain *)&c;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 10, 200, 0.1, 100, 9);
    tu_model(&m, &w);
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 100000000L, &greedy, 1e9, &c, err),
                     BB_ETOOBIG);
    assert_null(c);
    assert_non_null(strstr(err, "states"));
    assert_non_null(strstr(err, "GB"));
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, -1, &greedy, 0, &c, err), BB_EINVAL);
    greedy.kind = BB_DRAIN_LAZY;
    greedy.threshold = 11;
    assert_int_equal(bba_chain_build(m.dist, m.M, m.B, 10, &greedy, 0, &c, err), BB_EINVAL);
    bba_model_free(&m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_sum_to_one),
        cmocka_unit_test(tiny_chain_by_hand),
        cmocka_unit_test(lazy_row_keeps_emptying_mass),
        cmocka_unit_test(lazy_threshold_zero_is_greedy),
        cmocka_unit_test(p_one_reachability),
        cmocka_unit_test(too_big_refused),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
