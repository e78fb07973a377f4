/* t_fluidplat.c: tests of the fluid simulation's question (sim/fluidplat):
 * a workload's applications as sources (counts expanded, memoryless ON
 * periods, the refusals naming file, line and field; the classes of the
 * conversion shared with the analytic model), and the mixing
 * estimate worked by hand (the ON/OFF variance rate against its
 * two-state-chain form, the reflected walk's relaxation time, the
 * stationary mean's limits, the start's weight) with the warning's rule
 * on both sides of its edge.
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
#include <gsl/gsl_errno.h>

#include "bbsim.h"
#include "fluid_apps.h"
#include "fluidplat.h"

static void
near(double a, double b, double tol, const char *expr, int line)
{
    if (!(fabs(a - b) <= tol))
        fail_msg("line %d: %s = %.17g, expected %.17g (tolerance %g)", line, expr, a, b, tol);
}
#define CLOSE(a, b) near((a), (double)(b), 1e-12 * (1 + fabs((double)(b))), #a, __LINE__)

static bba_app
app(double p, double bw, double burst, long count)
{
    bba_app a;

    memset(&a, 0, sizeof a);
    a.p = p;
    a.bw_Bps = bw;
    a.burst_s = burst;
    a.count = count;
    return a;
}

/* Rows of counts 2, 1, 1 are 4 sources in order; the memoryless one's ON
 * period is 60 / (1 - 0.5) = 120 s; a constant writer (p = 1) has none. */
static void
test_sources_by_hand(void **state)
{
    bba_app a[3] = { app(0.3, 2, 1, 2), app(0.5, 8, 0, 1), app(1, 3, 0, 1) };
    bbs_fluid_sources s;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_fluid_sources_make(&s, a, 3, NULL, "w.csv", 60, err), BB_OK);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.phased, 3);
    assert_int_equal(s.memoryless, 1);
    CLOSE(s.rate_Bps[1], 2);
    CLOSE(s.on_s[1], 1);
    CLOSE(s.p[2], 0.5);
    CLOSE(s.on_s[2], 120);
    CLOSE(s.on_s[3], 0);
    bbs_fluid_sources_free(&s);
}

/* The one conversion both fluid front ends read (fluid_apps.h): rows
 * A (count 2), B memoryless, A again and a constant writer C are three
 * classes, A's count 3, in the order they first appear; the simulator's
 * sources are the same numbers row by row, in file order. */
static void
test_classes_shared(void **state)
{
    bba_app a[4] = { app(0.3, 2, 1, 2), app(0.5, 8, 0, 1), app(0.3, 2, 1, 1), app(1, 3, 0, 1) };
    bba_fluid_class *c;
    bbs_fluid_sources s;
    size_t nc, of[4], k = 0;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_fluid_apps(a, 4, 60, NULL, NULL, &c, &nc, of, err), BB_OK);
    assert_int_equal(nc, 3);
    assert_int_equal(of[0], 0);
    assert_int_equal(of[1], 1);
    assert_int_equal(of[2], 0);
    assert_int_equal(of[3], 2);
    assert_int_equal(c[0].count, 3);
    assert_int_equal(c[1].count, 1);
    CLOSE(c[1].burst_s, 120);
    CLOSE(c[2].burst_s, 0);
    assert_int_equal(bbs_fluid_sources_make(&s, a, 4, NULL, "w.csv", 60, err), BB_OK);
    assert_int_equal(s.n, 5);
    for (size_t i = 0; i < 4; i++)
        for (long e = 0; e < a[i].count; e++, k++) {
            CLOSE(s.rate_Bps[k], c[of[i]].rate_Bps);
            CLOSE(s.p[k], c[of[i]].p);
            CLOSE(s.on_s[k], c[of[i]].burst_s);
        }
    assert_int_equal(k, 5);
    assert_int_equal(s.phased, 4);
    assert_int_equal(s.memoryless, 1);
    bbs_fluid_sources_free(&s);
    free(c);
    a[1] = app(0.5, INFINITY, 1, 1);
    assert_int_equal(bba_fluid_apps(a, 4, 60, NULL, NULL, &c, &nc, NULL, err), BB_EDATA);
    assert_null(c);
    assert_non_null(strstr(err, "workload: application 2: field 'bw'"));
}

/* A rate or a mean OFF period that overflows is refused by file, line and
 * field; without lines, by the application's number. */
static void
test_sources_refused(void **state)
{
    bba_app a[2] = { app(0.3, 2, 1, 1), app(0.5, INFINITY, 1, 1) };
    long line[2] = { 6, 7 };
    bbs_fluid_sources s;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_fluid_sources_make(&s, a, 2, line, "w.csv", 60, err), BB_EDATA);
    assert_non_null(strstr(err, "w.csv:7: field 'bw'"));
    bbs_fluid_sources_free(&s);
    a[1] = app(1e-310, 1, 1e300, 1);
    assert_int_equal(bbs_fluid_sources_make(&s, a, 2, NULL, "w.csv", 60, err), BB_EDATA);
    assert_non_null(strstr(err, "w.csv: application 2: field 'p'"));
    bbs_fluid_sources_free(&s);
}

static bbs_fluid_config
config(size_t n, const double *rate, const double *p, const double *on, double B, double S,
       double W, double H)
{
    bbs_fluid_config c;

    memset(&c, 0, sizeof c);
    c.n = n;
    c.rate_Bps = rate;
    c.p = p;
    c.on_s = on;
    c.pf.pfs_bw_Bps = B;
    c.pf.bb_bw_Bps = INFINITY;
    c.pf.size_bytes = S;
    c.warmup_s = W;
    c.horizon_s = H;
    return c;
}

/* The variance rate of an ON/OFF source, against the two-state chain's
 * 2 b^2 p (1 - p) / (a + c) (a, c its switching rates): b = 3, p = 0.3,
 * L = 2: a = 0.3 / 1.4, c = 0.5, so 2 9 0.21 / (5/7) = 5.292; two
 * independent sources add. */
static void
test_variance_rate(void **state)
{
    double rate[2] = { 3, 2 }, p[2] = { 0.3, 0.5 }, on[2] = { 2, 1 };
    bbs_fluid_config c = config(1, rate, p, on, 10, 100, 0, 1e3);
    bbs_fluid_mix m;

    (void)state;
    bbs_fluid_mixing(&c, &m);
    CLOSE(m.var_B2ps, 2 * 9 * 0.21 / (5.0 / 7.0));
    CLOSE(m.var_B2ps, 5.292);
    CLOSE(m.drift_Bps, 0.9 - 10);
    c.n = 2;   /* b = 2, p = 1/2, L = 1: a = c = 1, 2 4 (1/4) / 2 = 1 */
    bbs_fluid_mixing(&c, &m);
    CLOSE(m.var_B2ps, 5.292 + 1);
}

/* Without drift (b = 2, p = 1/2, B = 1, s2 = 1), S = 100: relaxation
 * 2 S^2 / pi^2, no filling, stationary mean S / 2; the start weighs
 * R (1 - exp(-H / R)) / H from W = 0. */
static void
test_driftless_walk(void **state)
{
    double rate = 2, p = 0.5, on = 1, R = 2e4 / (M_PI * M_PI);
    bbs_fluid_config c = config(1, &rate, &p, &on, 1, 100, 0, 1e4);
    bbs_fluid_mix m;

    (void)state;
    bbs_fluid_mixing(&c, &m);
    CLOSE(m.drift_Bps, 0);
    CLOSE(m.relax_s, R);
    CLOSE(m.transit_s, 0);
    CLOSE(m.mix_s, R);
    CLOSE(m.mean_bytes, 50);
    CLOSE(m.weight, R * -expm1(-1e4 / R) / 1e4);
    CLOSE(m.bias_bytes, 50 * m.weight);
    c.warmup_s = 3 * R;   /* forgotten: exp(-3) of it */
    bbs_fluid_mixing(&c, &m);
    CLOSE(m.weight, R * exp(-3.0) * -expm1(-1e4 / R) / 1e4);
}

/* The stationary mean's limits: a strong drift down leaves s2 / (2 |mu|)
 * (the exponential law, the upper wall far away), a strong drift up
 * S - s2 / (2 mu); a constant source (s2 = 0) fills: S, after the filling
 * time S / (E - B) = 10 / 2, which is the whole offset over [0, 5] and
 * none after: weight 5 / 20. */
static void
test_drift_limits(void **state)
{
    double rate[2] = { 2, 3 }, p[2] = { 0.5, 1 }, on[2] = { 1, 0 };
    bbs_fluid_config c = config(1, rate, p, on, 11, 1e6, 0, 1e3);
    bbs_fluid_mix m;

    (void)state;
    bbs_fluid_mixing(&c, &m);   /* mu = -10, s2 = 1 */
    CLOSE(m.mean_bytes, 1.0 / 20);
    CLOSE(m.relax_s, 1 / (100.0 / 2 + M_PI * M_PI / 2e12));
    c.pf.pfs_bw_Bps = 0.5;      /* mu = 0.5, s2 = 1: S - 1 */
    bbs_fluid_mixing(&c, &m);
    near(m.mean_bytes, 1e6 - 1, 1e-6, "m.mean_bytes", __LINE__);
    CLOSE(m.transit_s, 1e6 / 0.5);
    c = config(1, rate + 1, p + 1, on + 1, 1, 10, 0, 20);
    bbs_fluid_mixing(&c, &m);
    CLOSE(m.var_B2ps, 0);
    CLOSE(m.relax_s, 0);
    CLOSE(m.transit_s, 5);
    CLOSE(m.mean_bytes, 10);
    CLOSE(m.weight, 0.25);
    c.warmup_s = 5;             /* measured from full: nothing left */
    bbs_fluid_mixing(&c, &m);
    CLOSE(m.weight, 0);
}

/* The warning's rule: the likely bias (weight m) against what the
 * occupancy interval reaches above its mean, and against 1% of m. */
static void
test_warning_rule(void **state)
{
    bbs_fluid_mix m;
    bbs_fluid_summary s;
    bbs_fluid_config c;
    char buf[BB_ERRLEN];

    (void)state;
    memset(&m, 0, sizeof m);
    memset(&s, 0, sizeof s);
    memset(&c, 0, sizeof c);
    m.mean_bytes = 100;
    m.bias_bytes = 5;
    s.replications = 8;
    s.occupancy_bytes = (bbs_ci){ 90, 86, 94.9, 0, 0.95, 8 };
    assert_int_equal(bbs_fluid_mix_message(&m, &c, &s, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "a longer horizon"));
    s.occupancy_bytes.hi = 95.1;   /* the interval reaches the bias */
    assert_int_equal(bbs_fluid_mix_message(&m, &c, &s, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    s.replications = 1;            /* no interval: the bias alone */
    assert_int_equal(bbs_fluid_mix_message(&m, &c, &s, buf, sizeof buf), 1);
    m.bias_bytes = 0.9;            /* under 1% of m */
    assert_int_equal(bbs_fluid_mix_message(&m, &c, &s, buf, sizeof buf), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sources_by_hand),
        cmocka_unit_test(test_sources_refused),
        cmocka_unit_test(test_classes_shared),
        cmocka_unit_test(test_variance_rate),
        cmocka_unit_test(test_driftless_walk),
        cmocka_unit_test(test_drift_limits),
        cmocka_unit_test(test_warning_rule),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
