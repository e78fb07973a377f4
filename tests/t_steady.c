/* t_steady.c: MSER truncation and batch-means intervals (sim/steady.h)
 * on series worked by hand.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "steady.h"

/* A transient of 5 batches, then a constant: MSER(d) is 0 for every
 * d >= 5 and positive below, so d* = 5 (the smallest of the ties). */
static void
mser_cuts_the_transient(void **state)
{
    double x[30];

    (void)state;
    for (int i = 0; i < 30; i++)
        x[i] = i < 5 ? 10.0 - 2.0 * i : 1.0;
    assert_int_equal(bbs_mser(x, 30), 5);
}

/* A constant series has settled from the start. */
static void
mser_constant_is_zero(void **state)
{
    double x[12];

    (void)state;
    for (int i = 0; i < 12; i++)
        x[i] = 3.25;
    assert_int_equal(bbs_mser(x, 12), 0);
    assert_int_equal(bbs_mser(x, 1), 0);
}

/* A linear trend never settles: the sum of squares of m consecutive
 * integers about their mean is m (m^2 - 1) / 12, so MSER(d) =
 * (m^2 - 1) / (12 m) grows with m = n - d: the minimum is at the edge
 * d = n/2, which says "not yet". */
static void
mser_trend_is_at_the_edge(void **state)
{
    double x[41];

    (void)state;
    for (int i = 0; i < 41; i++)
        x[i] = 1000.0 + i;
    assert_int_equal(bbs_mser(x, 41), 20);
    assert_int_equal(bbs_mser(x, 40), 20);
}

/* x = 1..20 in 4 groups of 5: group means 3, 8, 13, 18; mean 10.5;
 * their sample variance is (2 x 7.5^2 + 2 x 2.5^2) / 3 = 125/3; the 95%
 * half-width is t_{0.975, 3} sqrt(125/3 / 4), t_{0.975, 3} = 3.182446305. */
static void
batch_means_by_hand(void **state)
{
    double x[22], mean, half;

    (void)state;
    for (int i = 0; i < 20; i++)
        x[i] = i + 1;
    assert_int_equal(bbs_batch_means(x, 20, 4, &mean, &half), 0);
    assert_true(fabs(mean - 10.5) < 1e-12);
    assert_true(fabs(half - 3.182446305284263 * sqrt(125.0 / 3.0 / 4.0)) < 1e-9);
    /* Two more at the front are dropped: the same groups. */
    x[0] = -1e9;
    x[1] = 1e9;
    for (int i = 0; i < 20; i++)
        x[i + 2] = i + 1;
    assert_int_equal(bbs_batch_means(x, 22, 4, &mean, &half), 0);
    assert_true(fabs(mean - 10.5) < 1e-12);
}

static void
batch_means_too_few(void **state)
{
    double x[3] = { 1, 2, 6 }, mean, half;

    (void)state;
    assert_int_equal(bbs_batch_means(x, 3, 4, &mean, &half), -1);
    assert_true(fabs(mean - 3.0) < 1e-12);
    assert_true(isinf(half));
    assert_int_equal(bbs_batch_means(x, 0, 4, &mean, &half), -1);
    assert_true(isnan(mean));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mser_cuts_the_transient),
        cmocka_unit_test(mser_constant_is_zero),
        cmocka_unit_test(mser_trend_is_at_the_edge),
        cmocka_unit_test(batch_means_by_hand),
        cmocka_unit_test(batch_means_too_few),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
