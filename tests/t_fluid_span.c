/* t_fluid_span.c: the fluid model's precision rule (fluid_span.h): the
 * span of a workload's time scales worked by hand (bursts, the time unit
 * of memoryless applications, the bound itself), and a failed solve said
 * as the input's only where the span is beyond the bound and the failure
 * numerical.  (tests/hostile/nonanswer.sh checks the command's message on
 * a workload the solve really fails on.)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

static bba_app
app(double burst_s)
{
    bba_app a;

    memset(&a, 0, sizeof a);
    a.p = 0.25;
    a.bw_Bps = 3e9;
    a.burst_s = burst_s;
    return a;
}

static void
test_span_by_hand(void **state)
{
    bba_app w[3] = { app(7.5), app(0), app(7.5e13) };
    double lo, hi;

    (void)state;
    /* the shortest scale is the burst of 7.5 s, below the time unit 60 s */
    assert_true(fabs(bba_fluid_span(w, 3, 60, &lo, &hi) - 1e13) < 1e-3);
    assert_true(lo == 7.5 && hi == 7.5e13);
    /* a time unit below every burst is the shortest scale */
    assert_true(fabs(bba_fluid_span(w, 3, 0.5, &lo, &hi) - 1.5e14) < 1e-2);
    assert_true(lo == 0.5);
    /* the memoryless application alone: no burst, no span */
    assert_true(bba_fluid_span(w + 1, 1, 60, &lo, &hi) == 0 && hi == 0);
    /* at the bound, not beyond it: 0 */
    w[2].burst_s = 7.5 * BBA_FLUID_SPAN_MAX;
    assert_true(bba_fluid_span(w, 3, 60, &lo, &hi) == 0);
    w[2].burst_s = 7.5 * BBA_FLUID_SPAN_MAX * 1.001;
    assert_true(bba_fluid_span(w, 3, 60, &lo, &hi) > BBA_FLUID_SPAN_MAX);
}

static void
test_precision(void **state)
{
    bba_app far[2] = { app(3), app(3e17) }, near[2] = { app(3), app(3e11) };
    const int numerical[] = { BB_ESINGULAR, BB_ENOCONV, BB_EDATA };
    char err[BB_ERRLEN];

    (void)state;
    for (size_t k = 0; k < sizeof numerical / sizeof numerical[0]; k++) {
        strcpy(err, "boundary system singular");
        assert_int_equal(bba_fluid_precision(far, 2, 60, numerical[k], err, sizeof err), BB_EDATA);
        assert_non_null(strstr(err, "boundary system singular; the workload's time scales "
                               "span 1e+17 (bursts of up to 3e+17 s against 3 s)"));
        assert_non_null(strstr(err, "shorten the longest bursts"));
        /* within the bound the failure stays what it was */
        strcpy(err, "boundary system singular");
        assert_int_equal(bba_fluid_precision(near, 2, 60, numerical[k], err, sizeof err),
                         numerical[k]);
        assert_string_equal(err, "boundary system singular");
    }
    /* a failure that is not numerical is not the span's */
    strcpy(err, "no memory");
    assert_int_equal(bba_fluid_precision(far, 2, 60, BB_ENOMEM, err, sizeof err), BB_ENOMEM);
    assert_string_equal(err, "no memory");
    /* a short buffer: cut, still terminated */
    strcpy(err, "x");
    assert_int_equal(bba_fluid_precision(far, 2, 60, BB_ENOCONV, err, 40), BB_EDATA);
    assert_int_equal((int)strlen(err), 39);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_span_by_hand),
        cmocka_unit_test(test_precision),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
