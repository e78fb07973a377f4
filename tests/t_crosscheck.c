/* t_crosscheck.c: the rules of `bbsize validate` (sim/crosscheck.h): the
 * implied (p, b) of a simulated job, the agreement of a prediction with
 * a simulated interval, and the length that makes a verdict conclude, on
 * hand-worked cases.
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
 * beyond the tolerance 0.5; gap (0.12 - 0.1) / 0.1 = 0.2.  What would
 * decide is the rule's length (crosscheck.h), by hand: the logit
 * half-width h = (logit 0.3 - logit 0.02) / 2 = 2.369382 over 10
 * replications of 1000 units at mean 0.12 measures D = h^2 n U m (1 - m)
 * / t_{9, 0.975}^2 = 478.186 (t = 2.262157, a printed t table), so the
 * rule asks t^2 D / ((ln 1.5 / 2)^2 x (1 - x)) = 661,534.9 units in all:
 * 652 more replications of 1000, or 65,154 more units each. */
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
    assert_float_equal(a.v.more_replications, 652, 0);
    assert_float_equal(a.v.more_units, 65154, 1);
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
 * resolution.  The rule of independent units (D = 1) asks t_{14}^2 /
 * ((ln 1.5 / 2)^2 x (1 - x)) = 4.600111 / (0.04110049 x 1e-6 (1 - 1e-6))
 * = 111,923,630 units in all: 111,909 more replications, or 7,460,576
 * more units each. */
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
    assert_float_equal(a.v.more_replications, 111909, 1);
    assert_float_equal(a.v.more_units, 7460576, 8);   /* the table's 7 digits */
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

/* The units a verdict needs, by hand: t_{14, 0.975} = 2.144787 (a
 * printed t table), h = ln(1.5) / 2 = 0.2027326, x = 0.001:
 * N = t^2 D / (h^2 x (1 - x)) = 4.600111 / (0.04110049 x 0.000999)
 * = 112035.5 for D = 1; at x = 0.5, 447.694.  A huge tolerance leaves the
 * Clopper-Pearson floor, D (-ln(0.025)) / x = 3688.879 for D = 1, the
 * N / D independent chances of D = 3 asking 11066.638. */
static void
units_hand_worked(void **state)
{
    double N;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_units_for_verdict(1e-3, 0.5, 0.95, 15, 1, &N, err), BB_OK);
    assert_true(fabs(N - 112035.5) < 1);
    assert_int_equal(bbs_units_for_verdict(1e-3, 0.5, 0.95, 15, 3, &N, err), BB_OK);
    assert_true(fabs(N - 3 * 112035.5) < 3);
    assert_int_equal(bbs_units_for_verdict(0.5, 0.5, 0.95, 15, 1, &N, err), BB_OK);
    assert_true(fabs(N - 447.694) < 0.01);
    assert_int_equal(bbs_units_for_verdict(1e-3, 1e6, 0.95, 15, 1, &N, err), BB_OK);
    assert_true(fabs(N - 3688.879) < 0.01);
    assert_int_equal(bbs_units_for_verdict(1e-3, 1e6, 0.95, 15, 3, &N, err), BB_OK);
    assert_true(fabs(N - 11066.638) < 0.01);
}

/* 16 replications, half at m + a and half at m - a: mean m, sample
 * variance a^2 16 / 15; a chosen for the variance v. */
static bbs_ci
ci_of_runs(double m, double v, double units_per_rep)
{
    bbs_welford w;
    bbs_ci c;
    double a = sqrt(v * 15.0 / 16.0);
    char err[BB_ERRLEN];

    bbs_welford_init(&w);
    for (int i = 0; i < 8; i++) {
        bbs_welford_add(&w, m + a);
        bbs_welford_add(&w, m - a);
    }
    assert_int_equal(bbs_ci_fraction(&w, units_per_rep, 0.95, &c, err), BB_OK);
    return c;
}

/* At the rule's length, a run whose replications vary as D says
 * (variance D x (1 - x) / U) agrees when its mean is x, and still when its
 * mean is 0.9 of a half-width above x (logit scale); at a quarter of the
 * length (h doubles: its upper end is x (1 + tol) on the border) it may
 * still agree, at a ninth (h triples) it is inconclusive.  The dispersion
 * read back from the interval is D. */
static void
units_conclude(void **state)
{
    const double x = 2e-3, D = 4, n = 16;
    double N, U, v, h, lx, m;
    bbs_ci c;
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_units_for_verdict(x, 0.5, 0.95, n, D, &N, err), BB_OK);
    U = N / n;
    v = D * x * (1 - x) / U;
    c = ci_of_runs(x, v, U);
    assert_int_equal(bbs_agreement_judge(x, &c, n, U, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_AGREES);
    assert_true(fabs(bbs_fraction_dispersion(&c, n, U) / D - 1) < 1e-6);
    h = 0.5 * (log(c.hi / (1 - c.hi)) - log(c.lo / (1 - c.lo)));
    lx = log(x / (1 - x)) + 0.9 * h;
    m = 1 / (1 + exp(-lx));
    c = ci_of_runs(m, D * m * (1 - m) / U, U);
    assert_int_equal(bbs_agreement_judge(x, &c, n, U, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_AGREES);
    c = ci_of_runs(x, 9 * v, U / 9);
    assert_int_equal(bbs_agreement_judge(x, &c, n, U / 9, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_INCONCLUSIVE);
}

static void
units_refuses(void **state)
{
    double N = -1;
    char err[BB_ERRLEN] = "";
    bbs_ci zero = { 0, 0, 3e-4, 1.5e-4, 0.95, 15 };

    (void)state;
    assert_int_equal(bbs_units_for_verdict(0, 0.5, 0.95, 15, 1, &N, err), BB_EINVAL);
    assert_non_null(strstr(err, "prediction 0"));
    assert_int_equal(bbs_units_for_verdict(1, 0.5, 0.95, 15, 1, &N, err), BB_EINVAL);
    assert_int_equal(bbs_units_for_verdict(0.1, 0, 0.95, 15, 1, &N, err), BB_EINVAL);
    assert_int_equal(bbs_units_for_verdict(0.1, 0.5, 1, 15, 1, &N, err), BB_EINVAL);
    assert_int_equal(bbs_units_for_verdict(0.1, 0.5, 0.95, 1, 1, &N, err), BB_EINVAL);
    assert_int_equal(bbs_units_for_verdict(0.1, 0.5, 0.95, 15, 0, &N, err), BB_EINVAL);
    assert_true(N == -1);
    assert_true(isnan(bbs_fraction_dispersion(&zero, 15, 1000)));
}

/* The stalls' clustering, hand-worked (crosscheck.h): one application of
 * b = 2 quanta, p = 1/2, mean ON run L = 4 units on B = 2: E = 1, mu = 1,
 * sigma^2 = 4 (1/4) (2 * 4 * 1/2 - 1) = 3, so 2 sigma^2 / mu^2 = 6, and
 * a burst at a full buffer L M / B = 4 * 2 / 2 = 4: kappa 10.  Drawn
 * afresh each unit (L NULL): sigma^2 = 1, 2 + 1 * 2 / 2 = 3.  E >= B:
 * the runs never end.  A light load clusters at least 1. */
static void
cluster_hand_worked(void **state)
{
    long b[1] = { 2 }, b4[1] = { 4 }, b1[1] = { 1 };
    double p[1] = { 0.5 }, L[1] = { 4 }, p1[1] = { 0.1 };

    (void)state;
    assert_float_equal(bbs_stall_cluster(1, b, p, L, 2), 10, 1e-12);
    assert_float_equal(bbs_stall_cluster(1, b, p, NULL, 2), 3, 1e-12);
    /* a burst no longer than the memoryless 1/(1 - p) = 2 is memoryless */
    L[0] = 2;
    assert_float_equal(bbs_stall_cluster(1, b, p, L, 2), 3, 1e-12);
    assert_true(isinf(bbs_stall_cluster(1, b4, p, NULL, 2)));
    assert_true(isinf(bbs_stall_cluster(1, b, p, NULL, 1)));
    /* 2 (0.09) / 9.9^2 + 1 / 10 < 1 */
    assert_float_equal(bbs_stall_cluster(1, b1, p1, NULL, 10), 1, 0);
}

/* The plan over four predictions, 15 replications at kappa 10, floor
 * 1,000, budget 100,000 units each; the rule (units_hand_worked) at D =
 * 10 over 15 replications: 0.01 needs 113,054.06 / 15 = 7,536.94 units
 * each, 1e-3 1,120,355.5 / 15 = 74,690.37 (the horizon, rounded up),
 * 1e-9 about 7.4616e10 (beyond: counted, not run), 0 nothing.  A floor
 * above every need is the horizon; when every positive prediction is
 * beyond, the budget is (1e-9 alone: 100,000).  A prediction of 1 needs
 * nothing; one replication (no interval) or kappa infinite (E >= B)
 * resolves none, and the floor is run.
 * Bad arguments are refused. */
static void
horizon_plan(void **state)
{
    double x[4] = { 0.01, 1e-3, 1e-9, 0 }, one[2] = { 1, 0.5 };
    bbs_horizon_plan h;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_horizon_plan_make(x, 4, 10, 0.95, 0.5, 15, 1000, 1e5, &h, err), BB_OK);
    assert_float_equal(h.horizon_units, 74691, 0);
    assert_float_equal(h.resolved, 1e-3, 0);
    assert_int_equal(h.unresolved, 1);
    assert_float_equal(h.need_units, 7.4615679e10, 1e-6 * 7.4615679e10);
    assert_int_equal(bbs_horizon_plan_make(x, 1, 10, 0.95, 0.5, 15, 1000, 1e5, &h, err), BB_OK);
    assert_float_equal(h.horizon_units, 7537, 0);
    assert_int_equal(bbs_horizon_plan_make(x, 2, 10, 0.95, 0.5, 15, 80000, 1e5, &h, err),
                     BB_OK);
    assert_float_equal(h.horizon_units, 80000, 0);
    assert_int_equal(h.unresolved, 0);
    assert_int_equal(bbs_horizon_plan_make(x + 3, 1, 10, 0.95, 0.5, 15, 1000, 1e5, &h, err),
                     BB_OK);
    assert_float_equal(h.horizon_units, 1000, 0);
    assert_true(h.resolved == 0 && h.need_units == 0);
    assert_int_equal(bbs_horizon_plan_make(x + 2, 2, 10, 0.95, 0.5, 15, 1000, 1e5, &h, err),
                     BB_OK);
    assert_true(h.horizon_units == 1e5 && h.resolved == 0 && h.unresolved == 1);
    assert_int_equal(bbs_horizon_plan_make(one, 1, 10, 0.95, 0.5, 15, 1000, 1e5, &h, err),
                     BB_OK);
    assert_true(h.horizon_units == 1000 && h.unresolved == 0 && h.need_units == 0);
    assert_int_equal(bbs_horizon_plan_make(x, 2, 10, 0.95, 0.5, 1, 1000, 1e5, &h, err), BB_OK);
    assert_true(h.horizon_units == 1000 && h.unresolved == 2 && isinf(h.need_units));
    assert_int_equal(bbs_horizon_plan_make(x, 2, INFINITY, 0.95, 0.5, 15, 1000, 1e5, &h, err),
                     BB_OK);
    assert_true(h.horizon_units == 1000 && h.unresolved == 2 && isinf(h.need_units));
    assert_int_equal(bbs_horizon_plan_make(x, 2, 10, 0.95, 0.5, 15, 1000, 999, &h, err),
                     BB_EINVAL);
    assert_int_equal(bbs_horizon_plan_make(x, 2, 0.5, 0.95, 0.5, 15, 1000, 1e5, &h, err),
                     BB_EINVAL);
    x[0] = 1.5;
    assert_int_equal(bbs_horizon_plan_make(x, 2, 10, 0.95, 0.5, 15, 1000, 1e5, &h, err),
                     BB_EINVAL);
    assert_non_null(strstr(err, "1.5"));
}

/* The one re-run's length (bbs_rerun_units): 16 replications of U units
 * whose fraction 2e-3 varies as a dispersion of 4 says, at a ninth of the
 * rule's length (inconclusive, units_conclude), measure D = 4 and ask the
 * rule's length: t_{15, 0.975} = 2.131450 (a printed t table), 2.131450^2
 * x 4 / (0.04110049 x 0.002 x 0.998) = 221,514.8 units in all, 13,844.68
 * a replication, nine times what ran.  Nothing seen: the rule at the
 * clustering the row was judged with (kappa 150 at 1e-3 over 15
 * replications: 150 x 112,035.5 / 15 = 1,120,355.5); infinite kappa and
 * nothing seen, or one replication: no length.  Concluded, or a
 * prediction of 0: nothing. */
static void
rerun_units(void **state)
{
    const double x = 2e-3, D = 4, n = 16, U = 13844.67569 / 9;
    double disp, cp = -expm1(log(0.025) / 15000);
    bbs_ci c = ci_of_runs(x, D * x * (1 - x) / U, U), z = { 0, 0, cp, 0.5 * cp, 0.95, 15 };

    (void)state;
    assert_float_equal(bbs_rerun_units(x, &c, BBS_INCONCLUSIVE, n, U, 0.5, 1, &disp),
                       13844.676, 0.01);
    assert_float_equal(disp, 4, 1e-6);
    assert_float_equal(bbs_rerun_units(1e-3, &z, BBS_INCONCLUSIVE, 15, 1000, 0.5, 150, &disp),
                       1120355.5, 1);
    assert_true(isnan(disp));
    assert_true(isinf(bbs_rerun_units(1e-3, &z, BBS_INCONCLUSIVE, 15, 1000, 0.5, INFINITY,
                                      &disp)));
    assert_true(isinf(bbs_rerun_units(1e-3, &z, BBS_INCONCLUSIVE, 1, 1000, 0.5, 1, &disp)));
    assert_true(bbs_rerun_units(x, &c, BBS_AGREES, n, U, 0.5, 1, &disp) == 0 && isnan(disp));
    assert_true(bbs_rerun_units(x, &c, BBS_DISAGREES, n, U, 0.5, 1, &disp) == 0);
    assert_true(bbs_rerun_units(0, &z, BBS_INCONCLUSIVE, 15, 1000, 0.5, 1, &disp) == 0);
}

/* No stalled unit in 15 x 1,000 units: the independent-unit bound is
 * 1 - 0.025^(1/15000) = 2.459e-4, which excludes a prediction of 1e-3
 * (disagrees); with stalls in runs of 150 units there were 100 chances:
 * 1 - 0.025^(1/100) = 0.036217, and 1e-3 is below resolution, the units
 * needed 150 times those of independent units (the rule at D = 150,
 * 150 x 112,035.5 = 16,805,333 in all: 16,791 more replications, about
 * 1,119,356 more units each).  A run with stalls keeps its interval, and
 * with no more chances than kappa nothing is bounded. */
static void
clustered_zero(void **state)
{
    double cp = -expm1(log(0.025) / 15000);
    bbs_ci c = { 0, 0, cp, 0.5 * cp, 0.95, 15 }, c0 = c, w = ci_of(2e-3, 1e-3, 3e-3);
    bbs_agreement a;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_agreement_judge(1e-3, &c0, 15, 1000, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_DISAGREES);
    assert_int_equal(bbs_agreement_judge_clustered(1e-3, &c, 15, 1000, 150, 0.5, &a, err),
                     BB_OK);
    assert_float_equal(c.hi, -expm1(log(0.025) / 100), 1e-15);
    assert_int_equal(a.v.kind, BBS_INCONCLUSIVE);
    assert_true(a.below_resolution && a.covered);
    assert_float_equal(a.v.more_replications, 16791, 1);
    assert_float_equal(a.v.more_units, 1119356, 0.001 * 1119356);
    bbs_ci_cluster_zero(&w, 15000, 150);
    assert_true(w.lo == 1e-3 && w.hi == 3e-3);
    c = c0;
    bbs_ci_cluster_zero(&c, 100, 150);
    assert_float_equal(c.hi, 1, 0);
    c = c0;
    assert_int_equal(bbs_agreement_judge_clustered(1e-3, &c, 15, 1000, 1, 0.5, &a, err), BB_OK);
    assert_int_equal(a.v.kind, BBS_DISAGREES);
    assert_int_equal(bbs_agreement_judge_clustered(1e-3, &c, 15, 1000, 0.5, 0.5, &a, err),
                     BB_EINVAL);
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
        cmocka_unit_test(units_hand_worked),
        cmocka_unit_test(units_conclude),
        cmocka_unit_test(units_refuses),
        cmocka_unit_test(cluster_hand_worked),
        cmocka_unit_test(horizon_plan),
        cmocka_unit_test(rerun_units),
        cmocka_unit_test(clustered_zero),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
