/* t_timeline.c: the I/O timeline of one job (analytic/questions/timeline.h):
 * union, phases, the derived gap tolerance, the period, heatmap bins and
 * bad input, on cases worked by hand in the comments.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bb_error.h"
#include "timeline.h"

#define REL(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol) * fabs((double)(b)))

static bb_tl_opts
opts(double gap)
{
    bb_tl_opts o;

    bb_tl_opts_default(&o);
    o.gap_s = gap;
    return o;
}

/* [0,1) 1 B, [0.5,2) 2 B, [2,3) 3 B (touches), [5,6) 4 B over 10 s: the
 * union is [0,3) with 6 B and [5,6) with 4 B; busy 4 s.  With gap 0 two
 * phases of 3 and 1 s: p = 0.4, burst 2, CV = sd(3, 1) / 2 = sqrt(2)/2,
 * OFF 2 s (3 to 5), starts 5 s apart. */
static void
test_union_and_phases(void **state)
{
    bb_tl_iv iv[] = { { 5, 6, 4 }, { 0.5, 2, 2 }, { 2, 3, 3 }, { 0, 1, 1 } };
    bb_tl_opts o = opts(0);
    bb_tl_stats st;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bb_tl_analyze(iv, 4, 10, &o, &st, err), BB_OK);
    assert_int_equal(st.transfers, 4);
    assert_true(st.bytes == 10);
    assert_true(st.busy_s == 4);
    assert_int_equal(st.phases, 2);
    assert_true(st.phase_s == 4);
    assert_true(st.burst_s == 2);
    REL(st.burst_cv, sqrt(2) / 2, 1e-12);
    assert_true(st.off_mean_s == 2);
    assert_true(st.start_mean_s == 5);
    assert_true(st.first_s == 0 && st.last_s == 6);
    assert_false(st.gap_derived);
    /* a gap of 2 s merges them: one phase [0, 6) */
    {
        bb_tl_iv iv2[] = { { 5, 6, 4 }, { 0.5, 2, 2 }, { 2, 3, 3 }, { 0, 1, 1 } };

        o = opts(2);
        assert_int_equal(bb_tl_analyze(iv2, 4, 10, &o, &st, err), BB_OK);
        assert_int_equal(st.phases, 1);
        assert_true(st.phase_s == 6);
        assert_true(st.busy_s == 4);
        assert_true(isnan(st.burst_cv));
    }
}

/* Ten phases of three 0.1 s transfers 1 ms apart, at 100 s intervals
 * from 0, over 1000 s.  Gaps: twenty of 0.001, nine of 99.698 and the
 * idle end 1000 - 900.302 = 99.698.  The widest band (resolution 1e-4
 * below): 0.001 -> 99.698, a ratio of about 1e5 (the resolution to 0.001
 * is 10): tolerance sqrt(0.001 x 99.698) = 0.31575; ten phases of 0.302 s,
 * p = 3.02 / 1000. */
static void
test_derived_gap(void **state)
{
    bb_tl_iv iv[30];
    bb_tl_opts o = opts(-1);
    bb_tl_stats st;
    char err[BB_ERRLEN];

    (void)state;
    for (int k = 0; k < 10; k++)
        for (int j = 0; j < 3; j++) {
            bb_tl_iv *v = &iv[3 * k + j];

            v->start_s = 100.0 * k + 0.101 * j;
            v->end_s = v->start_s + 0.1;
            v->bytes = 1e6;
        }
    assert_int_equal(bb_tl_analyze(iv, 30, 1000, &o, &st, err), BB_OK);
    assert_true(st.gap_derived);
    REL(st.gap_s, sqrt(0.001 * 99.698), 1e-6);
    assert_int_equal(st.phases, 10);
    REL(st.phase_s, 3.02, 1e-9);
    REL(st.burst_s, 0.302, 1e-9);
    REL(st.busy_s, 3.0, 1e-9);
    REL(st.bytes, 3e7, 1e-15);
    assert_true(st.burst_cv < 1e-9);
    REL(st.start_mean_s, 100, 1e-12);
    assert_true(st.start_cv < 1e-9);
}

/* Gaps of 1, 2, 4, 8 and 16 s between six 1 s blocks from 0, over 37 s
 * (no idle time before or after): every ratio is 2, below the default
 * band of 10, so the tolerance is the resolution (given as 1 s here) and
 * a gap equal to it merges: five phases of 7 s in all.  With
 * min_gap_ratio 1.5 the first ratio of 2 (gap 1 -> gap 2) is the widest
 * band: tolerance sqrt(2), the same phases. */
static void
six_blocks(bb_tl_iv *iv)
{
    static const double gaps[] = { 1, 2, 4, 8, 16 };
    double t = 0;

    for (int i = 0; i < 6; i++) {
        iv[i].start_s = t;
        iv[i].end_s = t + 1;
        iv[i].bytes = 1;
        t += 1 + (i < 5 ? gaps[i] : 0);
    }
}

static void
test_no_band(void **state)
{
    bb_tl_iv iv[6];
    bb_tl_opts o = opts(-1);
    bb_tl_stats st;
    char err[BB_ERRLEN];

    (void)state;
    six_blocks(iv);
    o.resolution_s = 1;
    assert_int_equal(bb_tl_analyze(iv, 6, 37, &o, &st, err), BB_OK);
    assert_true(st.gap_s == 1);
    assert_int_equal(st.phases, 5);
    REL(st.phase_s, 7, 1e-12);   /* [0, 3) and four blocks of 1 s */
    six_blocks(iv);   /* iv holds the union's blocks now */
    o.min_gap_ratio = 1.5;
    assert_int_equal(bb_tl_analyze(iv, 6, 37, &o, &st, err), BB_OK);
    REL(st.gap_s, sqrt(2), 1e-12);
    assert_int_equal(st.phases, 5);
}

/* One checkpoint that ends the run: fifty 0.01 s transfers 2 ms apart
 * from 900 s to the end, 900.598 s.  The gaps are 2 ms and the idle start
 * 900 s (nothing idle after): the band 0.002 -> 900 makes one phase of 50
 * x 0.01 + 49 x 0.002 = 0.598 s.  (Without the idle start the widest band
 * would be the resolution's, 1e-4 -> 0.002, and each transfer a phase.) */
static void
test_one_phase(void **state)
{
    bb_tl_iv iv[50];
    bb_tl_opts o = opts(-1);
    bb_tl_stats st;
    char err[BB_ERRLEN];

    (void)state;
    for (int i = 0; i < 50; i++) {
        iv[i].start_s = 900 + 0.012 * i;
        iv[i].end_s = iv[i].start_s + 0.01;
        iv[i].bytes = 1;
    }
    assert_int_equal(bb_tl_analyze(iv, 50, 900.598, &o, &st, err), BB_OK);
    assert_int_equal(st.phases, 1);
    REL(st.phase_s, 0.598, 1e-9);
    assert_true(isnan(st.period_s));
}

/* A pulse train: 5 s pulses every 50 s over 1000 s (20 pulses): periodic,
 * period 50 s to 1%, autocorrelation near 1.  The same pulses at
 * irregular starts (gaps drawn by hand) are not periodic. */
static void
test_period(void **state)
{
    static const double irregular[] = { 3, 41, 160, 197, 330, 347, 501, 612, 640, 803, 951 };
    bb_tl_iv iv[20];
    bb_tl_opts o = opts(-1);
    bb_tl_stats st;
    char err[BB_ERRLEN];

    (void)state;
    for (int k = 0; k < 20; k++) {
        iv[k].start_s = 50.0 * k + 10;
        iv[k].end_s = iv[k].start_s + 5;
        iv[k].bytes = 5e9;
    }
    assert_int_equal(bb_tl_analyze(iv, 20, 1000, &o, &st, err), BB_OK);
    assert_int_equal(st.phases, 20);
    assert_true(st.periodic);
    REL(st.period_s, 50, 0.01);
    assert_true(st.period_acf > 0.9);
    for (int k = 0; k < 11; k++) {
        iv[k].start_s = irregular[k];
        iv[k].end_s = iv[k].start_s + 5;
        iv[k].bytes = 5e9;
    }
    assert_int_equal(bb_tl_analyze(iv, 11, 1000, &o, &st, err), BB_OK);
    assert_int_equal(st.phases, 11);
    assert_false(st.periodic);
}

/* bb_tl_period on a sine of 25 bins over 1000 bins of 0.5 s: 12.5 s to
 * 0.5%; a constant signal has none. */
static void
test_period_sine(void **state)
{
    double x[1000], p, acf;
    char err[BB_ERRLEN];

    (void)state;
    for (int i = 0; i < 1000; i++)
        x[i] = sin(2 * M_PI * i / 25.0);
    assert_int_equal(bb_tl_period(x, 1000, 0.5, 0.5, &p, &acf, err), BB_OK);
    REL(p, 12.5, 0.005);
    assert_true(acf > 0.9);
    for (int i = 0; i < 1000; i++)
        x[i] = 3;
    assert_int_equal(bb_tl_period(x, 1000, 0.5, 0.5, &p, &acf, err), BB_OK);
    assert_true(isnan(p) && isnan(acf));
}

/* Heatmap bins of 10 s over 200 s: bytes in bins 1-2 (5, 5), 6 (3) and
 * 12-14 (7 each): blocks [10, 30) 10 B, [60, 70) 3 B, [120, 150) 21 B.
 * Gaps 30 and 50, idle start 10 and end 50: ratios above the resolution
 * 1, 3, 5/3, 1, all below 10: nothing merges beyond a bin.  Three phases
 * of 60 s in all: p = 0.3, burst 20 s, busy 60 s, 34 B. */
static void
test_bins(void **state)
{
    double b[20] = { 0, 5, 5, 0, 0, 0, 3, 0, 0, 0, 0, 0, 7, 7, 7, 0, 0, 0, 0, 0 };
    bb_tl_opts o = opts(-1);
    bb_tl_stats st;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bb_tl_analyze_bins(b, 20, 10, 200, &o, &st, err), BB_OK);
    assert_int_equal(st.transfers, 6);
    assert_true(st.gap_s == 10);
    assert_int_equal(st.phases, 3);
    assert_true(st.phase_s == 60 && st.busy_s == 60 && st.bytes == 34);
    assert_true(st.burst_s == 20);
    assert_true(st.first_s == 10 && st.last_s == 150);
    /* bins beyond the run time extend the horizon */
    assert_int_equal(bb_tl_analyze_bins(b, 20, 10, 150, &o, &st, err), BB_OK);
    assert_true(st.horizon_s == 200);
}

static void
test_bad_input(void **state)
{
    bb_tl_opts o = opts(-1);
    bb_tl_stats st;
    char err[BB_ERRLEN];
    bb_tl_iv back[] = { { 2, 1, 0 } }, neg[] = { { 0, 1, -1 } };
    bb_tl_iv big[] = { { 0, 1, 1e308 }, { 1, 2, 1e308 } };
    double nanbin[] = { 1, NAN };

    (void)state;
    assert_int_equal(bb_tl_analyze(back, 1, 10, &o, &st, err), BB_EDATA);
    assert_non_null(strstr(err, "transfer 1"));
    assert_int_equal(bb_tl_analyze(neg, 1, 10, &o, &st, err), BB_EDATA);
    assert_int_equal(bb_tl_analyze(big, 2, 10, &o, &st, err), BB_EDATA);
    assert_non_null(strstr(err, "largest double"));
    assert_int_equal(bb_tl_analyze_bins(nanbin, 2, 1, 10, &o, &st, err), BB_EDATA);
    assert_int_equal(bb_tl_analyze(NULL, 0, 0, &o, &st, err), BB_EINVAL);
    o.resolution_s = 0;
    assert_int_equal(bb_tl_analyze(NULL, 0, 10, &o, &st, err), BB_EINVAL);
    o = opts(-1);
    o.min_gap_ratio = 0.5;
    assert_int_equal(bb_tl_analyze(NULL, 0, 10, &o, &st, err), BB_EINVAL);
    /* no transfer: no phase, no error */
    o = opts(-1);
    assert_int_equal(bb_tl_analyze(NULL, 0, 10, &o, &st, err), BB_OK);
    assert_int_equal(st.phases, 0);
    assert_true(st.phase_s == 0 && st.bytes == 0 && isnan(st.period_s));
}

/* Pulses one bin wide every 31.5 bins (at round(31.5 k)): from one pulse
 * to the next the distance is 31 or 32 bins in turn, so without the
 * smoothing over two bins only half the pulses match at either lag and
 * the autocorrelation is about 0.5.  With it: the period to 1% and an
 * autocorrelation above 0.7. */
static void
test_period_narrow(void **state)
{
    double x[2048] = { 0 }, p, acf;
    char err[BB_ERRLEN];

    (void)state;
    for (int k = 0; k < 64; k++)
        x[(int)floor(31.5 * k + 0.5)] = 1;
    assert_int_equal(bb_tl_period(x, 2048, 1.0, 0.5, &p, &acf, err), BB_OK);
    REL(p, 31.5, 0.01);
    assert_true(acf > 0.7);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_union_and_phases),
        cmocka_unit_test(test_derived_gap),
        cmocka_unit_test(test_no_band),
        cmocka_unit_test(test_one_phase),
        cmocka_unit_test(test_period),
        cmocka_unit_test(test_period_sine),
        cmocka_unit_test(test_period_narrow),
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_bad_input),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
