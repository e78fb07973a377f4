/* t_bounds.c: the shared mechanisms of issue 15 below src/: the strict
 * number reader (bb_num), the intervals made for a fraction and for a
 * quantity >= 0, the three verdicts, and the event engine's bounds.
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

#include "bb_num.h"
#include "bbsim.h"

/* ---- bb_num ---- */

static void
test_decimal_accepted(void **state)
{
    static const struct { const char *s; double v; } ok[] = {
        { "0", 0 }, { "-1.5", -1.5 }, { "+2", 2 }, { ".5", 0.5 }, { "5.", 5 },
        { "1e3", 1000 }, { "1E-3", 1e-3 }, { "  7  ", 7 }, { "1e308", 1e308 },
    };
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double v = -99;

        assert_int_equal(bb_num_full(ok[i].s, &v), BB_NUM_OK);
        assert_true(v == ok[i].v);
    }
}

static void
test_refusals_say_why(void **state)
{
    static const struct { const char *s; int why; } bad[] = {
        { "0x10", BB_NUM_HEX }, { "-0X1p3", BB_NUM_HEX }, { "0x", BB_NUM_HEX },
        { "inf", BB_NUM_INF }, { "-Infinity", BB_NUM_INF }, { "nan", BB_NUM_NAN },
        { "NaN(1)", BB_NUM_NAN }, { "1e309", BB_NUM_OVERFLOW }, { "-1e400", BB_NUM_OVERFLOW },
        { "1e-400", BB_NUM_UNDERFLOW }, { "", BB_NUM_EMPTY }, { "   ", BB_NUM_EMPTY },
        { "abc", BB_NUM_NOTNUM }, { "1,5", BB_NUM_NOTNUM }, { "1.5.2", BB_NUM_NOTNUM },
        { ".", BB_NUM_NOTNUM }, { "e5", BB_NUM_NOTNUM },
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = 42;

        assert_int_equal(bb_num_full(bad[i].s, &v), bad[i].why);
        assert_true(v == 0);
        assert_non_null(bb_num_why(bad[i].why));
    }
}

static void
test_scanner_and_integers(void **state)
{
    double v;
    long l;
    char *end;

    (void)state;
    /* a number followed by a unit: the scanner stops before the unit */
    assert_int_equal(bb_strtod("40GB/s", &v, &end), BB_NUM_OK);
    assert_true(v == 40 && strcmp(end, "GB/s") == 0);
    /* "1e" is the number 1 followed by "e" */
    assert_int_equal(bb_strtod("1e", &v, &end), BB_NUM_OK);
    assert_true(v == 1 && strcmp(end, "e") == 0);
    /* the lax form hides a refusal as "no number here" */
    assert_true(bb_strtod_lax("0x10", &end) == 0);
    assert_string_equal(end, "0x10");
    assert_int_equal(bb_num_full_long("12", &l), BB_NUM_OK);
    assert_int_equal(l, 12);
    assert_int_equal(bb_num_full_long("1.5", &l), BB_NUM_NOTNUM);
    assert_int_equal(bb_num_full_long("0x10", &l), BB_NUM_HEX);
    assert_int_equal(bb_num_full_long("99999999999999999999", &l), BB_NUM_OVERFLOW);
}

static void
test_bom(void **state)
{
    char with[] = "\xEF\xBB\xBFname", without[] = "name", half[] = "\xEF\xBBx";

    (void)state;
    assert_string_equal(bb_skip_bom(with), "name");
    assert_ptr_equal(bb_skip_bom(without), without);
    assert_ptr_equal(bb_skip_bom(half), half);
}

/* ---- intervals ---- */

static void
add_all(bbs_welford *w, const double *x, size_t n)
{
    bbs_welford_init(w);
    for (size_t i = 0; i < n; i++)
        bbs_welford_add(w, x[i]);
}

static void
test_fraction_interval_inside_unit(void **state)
{
    /* two replications with a small fraction: the symmetric t interval
     * is [-0.0013, 0.0050]; the logit one must stay inside [0, 1] and hold
     * the mean */
    const double x[] = { 0.0003, 0.0034 }, y[] = { 0.99, 0.999, 0.97 };
    bbs_welford w;
    bbs_ci ci, t;

    (void)state;
    add_all(&w, x, 2);
    assert_int_equal(bbs_ci_t(&w, 0.95, &t, NULL), BB_OK);
    assert_true(t.lo < 0);   /* the interval this one replaces */
    assert_int_equal(bbs_ci_fraction(&w, 1000, 0.95, &ci, NULL), BB_OK);
    assert_true(ci.lo > 0 && ci.lo < w.mean && w.mean < ci.hi && ci.hi < 1);
    add_all(&w, y, 3);
    assert_int_equal(bbs_ci_fraction(&w, 1000, 0.95, &ci, NULL), BB_OK);
    assert_true(ci.lo > 0 && ci.lo < w.mean && w.mean < ci.hi && ci.hi < 1);
    /* replications all equal: [m, m] exactly, not an ulp beside m */
    {
        const double e[] = { 0.048048303409265802, 0.048048303409265802 };
        bbs_welford we;
        bbs_ci ce;

        add_all(&we, e, 2);
        assert_int_equal(bbs_ci_fraction(&we, 100, 0.95, &ce, NULL), BB_OK);
        assert_true(ce.lo <= we.mean && we.mean <= ce.hi);
    }
    /* a wider level gives a wider interval */
    {
        bbs_ci c99;

        assert_int_equal(bbs_ci_fraction(&w, 1000, 0.99, &c99, NULL), BB_OK);
        assert_true(c99.lo < ci.lo && c99.hi > ci.hi);
    }
    assert_int_equal(bbs_ci_fraction(&w, 1000, 1.0, &ci, NULL), BB_EINVAL);
}

static void
test_fraction_interval_no_event(void **state)
{
    const double z[] = { 0, 0, 0, 0, 0 }, o[] = { 1, 1, 1 };
    bbs_welford w;
    bbs_ci ci;
    double N = 5 * 1000.0;

    (void)state;
    add_all(&w, z, 5);
    assert_int_equal(bbs_ci_fraction(&w, 1000, 0.95, &ci, NULL), BB_OK);
    /* Clopper-Pearson for 0 of N: (1 - hi)^N = 0.025 */
    assert_true(ci.lo == 0);
    assert_true(fabs(pow(1 - ci.hi, N) - 0.025) < 1e-9);
    assert_true(ci.hi > 3.6 / N && ci.hi < 3.8 / N);
    add_all(&w, o, 3);
    assert_int_equal(bbs_ci_fraction(&w, 10, 0.95, &ci, NULL), BB_OK);
    assert_true(ci.hi == 1 && ci.lo < 1 && ci.lo > 0.8);
    /* one replication says nothing */
    add_all(&w, z, 1);
    assert_int_equal(bbs_ci_fraction(&w, 1000, 0.95, &ci, NULL), BB_OK);
    assert_true(ci.lo == 0 && ci.hi == 1);
}

static void
test_positive_interval(void **state)
{
    const double x[] = { 0.1, 5.0 }, z[] = { 0, 0, 0 };
    bbs_welford w;
    bbs_ci ci, t;

    (void)state;
    add_all(&w, x, 2);
    assert_int_equal(bbs_ci_t(&w, 0.95, &t, NULL), BB_OK);
    assert_true(t.lo < 0);
    assert_int_equal(bbs_ci_positive(&w, 0.95, &ci, NULL), BB_OK);
    assert_true(ci.lo > 0 && ci.lo < w.mean && ci.hi > w.mean);
    /* log scale: the mean is the geometric centre */
    assert_true(fabs(ci.lo * ci.hi - w.mean * w.mean) < 1e-9 * w.mean * w.mean);
    add_all(&w, z, 3);
    assert_int_equal(bbs_ci_positive(&w, 0.95, &ci, NULL), BB_OK);
    assert_true(ci.lo == 0 && ci.hi == 0);
}

/* ---- verdicts ---- */

static void
test_three_verdicts(void **state)
{
    bbs_ci ci = { 0.01, 0.009, 0.011, 0.001, 0.95, 15 };
    bbs_verdict v;

    (void)state;
    bbs_verdict_fraction(0.0100, &ci, 15, 1000, 0.5, &v);
    assert_int_equal(v.kind, BBS_AGREES);
    assert_true(v.more_replications == 0);
    bbs_verdict_fraction(0.02, &ci, 15, 1000, 0.5, &v);
    assert_int_equal(v.kind, BBS_DISAGREES);
    /* inside, but the interval is +-10% wide and the tolerance 1%: about
     * (0.1 / 0.01)^2 = 100 times the replications would decide */
    bbs_verdict_fraction(0.0100, &ci, 15, 1000, 0.01, &v);
    assert_int_equal(v.kind, BBS_INCONCLUSIVE);
    assert_true(fabs(v.more_replications - 15 * 99) <= 1);
    assert_true(fabs(v.more_units - 1000 * 99) <= 1);
    assert_false(v.below_resolution);
}

static void
test_below_resolution(void **state)
{
    bbs_ci ci = { 0, 0, 2.459e-4, 1.2e-4, 0.95, 15 };
    bbs_verdict v;

    (void)state;
    bbs_verdict_fraction(3e-5, &ci, 15, 1000, 0.5, &v);
    assert_int_equal(v.kind, BBS_INCONCLUSIVE);
    assert_true(v.below_resolution);
    /* about (1.96 / 0.5)^2 / 3e-5 = 5.1e5 units in all are needed */
    assert_true(fabs((15 + v.more_replications) * 1000 - 1.96 * 1.96 / 0.25 / 3e-5) < 2000);
    bbs_verdict_fraction(1e-3, &ci, 15, 1000, 0.5, &v);
    assert_int_equal(v.kind, BBS_DISAGREES);
    /* an exact 0 agrees with nothing seen, and only with that */
    bbs_verdict_fraction(0, &ci, 15, 1000, 0.5, &v);
    assert_int_equal(v.kind, BBS_AGREES);
    ci.mean = 0.001;
    ci.lo = 0.0005;
    bbs_verdict_fraction(0, &ci, 15, 1000, 0.5, &v);
    assert_int_equal(v.kind, BBS_DISAGREES);
}

/* ---- engine bounds ---- */

static int
forever(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)ctx;
    /* a clock that does not advance: 1e-300 s after 1 s is 1 s */
    return bbs_engine_schedule(e, ev->time_s + 1e-300, ev->kind, 0, 0, 0, NULL, NULL);
}

static int
fanout(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    int rc = bbs_engine_schedule(e, ev->time_s + 1, ev->kind, 0, 0, 0, NULL, NULL);

    (void)ctx;
    return rc != BB_OK ? rc : bbs_engine_schedule(e, ev->time_s + 1, ev->kind, 0, 0, 0, NULL, NULL);
}

static void
test_engine_bounds(void **state)
{
    bbs_engine *e;
    char err[BB_ERRLEN];
    int k;

    (void)state;
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    bbs_engine_set_limits(e, 1000, 0);
    assert_int_equal(bbs_engine_register(e, forever, NULL, &k), BB_OK);
    assert_int_equal(bbs_engine_schedule(e, 1.0, k, 0, 0, 0, NULL, NULL), BB_OK);
    assert_int_equal(bbs_engine_run(e, 10.0), BB_ETOOBIG);
    assert_int_equal(bbs_engine_events(e), 1000);
    assert_non_null(strstr(err, "raise the event bound"));
    assert_non_null(strstr(err, "not advancing"));
    bbs_engine_free(e);

    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    bbs_engine_set_limits(e, 0, 100);
    assert_int_equal(bbs_engine_register(e, fanout, NULL, &k), BB_OK);
    assert_int_equal(bbs_engine_schedule(e, 0.0, k, 0, 0, 0, NULL, NULL), BB_OK);
    assert_int_equal(bbs_engine_run(e, INFINITY), BB_ETOOBIG);
    assert_true(bbs_engine_pending(e) <= 100);
    assert_non_null(strstr(err, "raise the memory bound"));
    bbs_engine_free(e);

    /* the process-wide default reaches new engines */
    bbs_engine_set_default_limits(10, 0);
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    assert_int_equal(bbs_engine_register(e, forever, NULL, &k), BB_OK);
    assert_int_equal(bbs_engine_schedule(e, 1.0, k, 0, 0, 0, NULL, NULL), BB_OK);
    assert_int_equal(bbs_engine_run(e, 2.0), BB_ETOOBIG);
    assert_int_equal(bbs_engine_events(e), 10);
    bbs_engine_free(e);
    bbs_engine_set_default_limits(0, 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal_accepted),
        cmocka_unit_test(test_refusals_say_why),
        cmocka_unit_test(test_scanner_and_integers),
        cmocka_unit_test(test_bom),
        cmocka_unit_test(test_fraction_interval_inside_unit),
        cmocka_unit_test(test_fraction_interval_no_event),
        cmocka_unit_test(test_positive_interval),
        cmocka_unit_test(test_three_verdicts),
        cmocka_unit_test(test_below_resolution),
        cmocka_unit_test(test_engine_bounds),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
