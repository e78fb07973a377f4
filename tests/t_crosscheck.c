/* t_crosscheck.c: the rules of `bbsize validate` (sim/crosscheck.h): the
 * implied (p, b) of a simulated job and the agreement of a prediction with
 * a simulated interval, on hand-worked cases.
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

#include "bbsim.h"

/* E = 10 s, W = 2 s, V = 8 GB: writes 20% of the time at 4 GB/s. */
static void
implied_hand_worked(void **state)
{
    const bbs_job_demand d[4] = {
        { 10, 2, 8e9 },      /* p = 0.2, b = 4e9 */
        { 5, 0, 0 },         /* never writes: 0, 0 */
        { 3, 4, 2e9 },       /* W > E: p capped at 1, b = 0.5e9 */
        { 0, 1, 3e9 },       /* no elapsed time: p = 0, b = 3e9 */
    };
    double p[4], b[4];
    char err[BB_ERRLEN];

    (void)state;
    for (int j = 0; j < 4; j++)
        assert_int_equal(bbs_implied_pb(&d[j], &p[j], &b[j], err), BB_OK);
    assert_float_equal(p[0], 0.2, 1e-15);
    assert_float_equal(b[0], 4e9, 1e-3);
    assert_true(p[1] == 0 && b[1] == 0);
    assert_true(p[2] == 1);
    assert_float_equal(b[2], 0.5e9, 1e-3);
    assert_true(p[3] == 0);
    assert_float_equal(b[3], 3e9, 1e-3);
}

static void
implied_refuses(void **state)
{
    bbs_job_demand d = { 10, -1, 0 };
    double p = -7, b = -7;
    char err[BB_ERRLEN] = "";

    (void)state;
    assert_int_equal(bbs_implied_pb(&d, &p, &b, err), BB_EINVAL);
    assert_non_null(strstr(err, "write time -1 s"));
    assert_true(p == -7 && b == -7);   /* nothing written on error */
    d = (bbs_job_demand){ NAN, 1, 1 };
    assert_int_equal(bbs_implied_pb(&d, &p, &b, err), BB_EINVAL);
    d = (bbs_job_demand){ 1, 1, INFINITY };
    assert_int_equal(bbs_implied_pb(&d, &p, &b, err), BB_EINVAL);
}

static bbs_ci
ci_of(double mean, double lo, double hi)
{
    bbs_ci c = { mean, lo, hi, 0.5 * (hi - lo), 0.95, 10 };

    return c;
}

/* 0.1 inside [0.09, 0.11]: half-width 10% of it, within 0.5: agrees. */
static void
agrees_inside_narrow(void **state)
{
    bbs_ci c = ci_of(0.1, 0.09, 0.11);
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_agreement_judge(0.1, &c, 10, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_AGREES);
    assert_true(a.covered);
    assert_false(a.below_resolution);
    assert_float_equal(a.gap, 0, 1e-12);
    assert_string_equal(bbs_verdict_name(a.v.kind), "agrees");
}

/* 0.1 inside [0.02, 0.3]: relative half-width max(0.2, 0.08) / 0.1 = 2,
 * four times the tolerance 0.5, so 16 times the work: 10 * 15 = 150 more
 * replications or 1000 * 15 more units; gap (0.12 - 0.1) / 0.1 = 0.2. */
static void
inconclusive_wide(void **state)
{
    bbs_ci c = ci_of(0.12, 0.02, 0.3);
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_agreement_judge(0.1, &c, 10, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_INCONCLUSIVE);
    assert_true(a.covered);
    assert_float_equal(a.v.rel_halfwidth, 2, 1e-12);
    assert_float_equal(a.v.more_replications, 150, 0);
    assert_float_equal(a.v.more_units, 15000, 0);
    assert_float_equal(a.gap, 0.2, 1e-12);
    assert_string_equal(bbs_verdict_name(a.v.kind), "inconclusive");
}

/* 0.1 below [0.2, 0.3]: disagrees, gap (0.25 - 0.1) / 0.1 = 1.5. */
static void
disagrees_outside(void **state)
{
    bbs_ci c = ci_of(0.25, 0.2, 0.3);
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_agreement_judge(0.1, &c, 10, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_DISAGREES);
    assert_false(a.covered);
    assert_false(a.below_resolution);
    assert_float_equal(a.gap, 1.5, 1e-12);
    assert_string_equal(bbs_verdict_name(a.v.kind), "disagrees");
}

/* A prediction of 1e-6 and no idle unit in 15 x 1000 units: below
 * resolution.  To see 1e-6 within 0.5 at 95% takes (1.96 / 0.5)^2 / 1e-6
 * = 15,365,835 units, 1024.39 times what ran: 15 * 1023.39 = 15351 more
 * replications, or 1000 * 1023.39 = 1,023,390 more units each. */
static void
below_resolution(void **state)
{
    bbs_ci c = ci_of(0, 0, 2.5e-4);
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_agreement_judge(1e-6, &c, 15, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_INCONCLUSIVE);
    assert_true(a.covered && a.below_resolution);
    assert_float_equal(a.v.more_replications, 15351, 0);
    assert_float_equal(a.v.more_units, 1023390, 0);
    assert_float_equal(a.gap, -1, 1e-12);
}

/* A prediction of exactly 0 agrees only with a simulation that saw
 * nothing; its gap is undefined.  A solver's -1e-12 is 0. */
static void
zero_prediction(void **state)
{
    bbs_ci none = ci_of(0, 0, 3e-3), some = ci_of(0.01, 0.005, 0.02);
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_agreement_judge(0, &none, 10, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_AGREES);
    assert_true(isnan(a.gap));
    assert_int_equal(bbs_agreement_judge(-1e-12, &none, 10, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_AGREES);
    assert_int_equal(bbs_agreement_judge(0, &some, 10, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_DISAGREES);
    assert_false(a.covered);
}

static void
judge_refuses(void **state)
{
    bbs_ci c = ci_of(0.1, 0.09, 0.11);
    bbs_agreement a;
    char err[BB_ERRLEN] = "";

    (void)state;
    assert_int_equal(bbs_agreement_judge(1.5, &c, 10, 1000, 0.5, &a, err), BB_EINVAL);
    assert_non_null(strstr(err, "1.5"));
    assert_int_equal(bbs_agreement_judge(NAN, &c, 10, 1000, 0.5, &a, err), BB_EINVAL);
    assert_int_equal(bbs_agreement_judge(0.1, &c, 10, 1000, 0, &a, err), BB_EINVAL);
    assert_int_equal(bbs_agreement_judge(0.1, &c, 0, 1000, 0.5, &a, err), BB_EINVAL);
    assert_int_equal(bbs_agreement_judge(0.1, &c, 10, -1, 0.5, &a, err), BB_EINVAL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(implied_hand_worked),
        cmocka_unit_test(implied_refuses),
        cmocka_unit_test(agrees_inside_narrow),
        cmocka_unit_test(inconclusive_wide),
        cmocka_unit_test(disagrees_outside),
        cmocka_unit_test(below_resolution),
        cmocka_unit_test(zero_prediction),
        cmocka_unit_test(judge_refuses),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
