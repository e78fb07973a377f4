/* t_fitjob.c: one job's p, bw and burst and a class's pooled values
 * (analytic/questions/fitjob.h), worked by hand; and the workload writer's
 * quoting (workload_csv.h bb_workload_field) read back by the reader on
 * names with commas, quotes, '#', blanks and line breaks.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fitjob.h"
#include "workload_csv.h"

#define REL(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol) * fabs((double)(b)))

static bb_tl_stats
stats(double horizon, double bytes, size_t phases, double phase_s, double sumsq)
{
    bb_tl_stats st;

    memset(&st, 0, sizeof st);
    st.horizon_s = horizon;
    st.bytes = bytes;
    st.phases = phases;
    st.phase_s = phase_s;
    st.phase_sumsq = sumsq;
    st.burst_s = phases ? phase_s / (double)phases : 0;
    st.burst_cv = st.period_s = st.period_acf = st.start_mean_s = st.start_cv = NAN;
    return st;
}

/* A DXT timeline of 1000 s with 4 phases of 10, 10, 20, 20 s (60 s) moving
 * 6e9 B: p = 0.06, bw = 1e8 B/s, burst 15 s, and p T = phases burst. */
static void
test_from_timeline(void **state)
{
    bb_tl_stats st = stats(1000, 6e9, 4, 60, 100 + 100 + 400 + 400);
    bb_fit_est e;

    (void)state;
    bb_fit_from_timeline(&st, BB_FIT_DXT, 1e-4, &e);
    assert_int_equal(e.source, BB_FIT_DXT);
    assert_false(e.p_from_counters);
    REL(e.p, 0.06, 1e-15);
    REL(e.bw_Bps, 1e8, 1e-15);
    REL(e.burst_s, 15, 1e-15);
    REL(e.p * e.run_s, e.phases * e.burst_s, 1e-15);
    REL(e.p * e.bw_Bps * e.run_s, 6e9, 1e-15);
    REL(e.phase_sumsq, 1000, 1e-15);
}

/* Counters: I/O time 40 s of 1000 s, 4e9 B; the heatmap resolves 4
 * phases of 60 s of bins: p = 0.04 (the counters'), bw = 1e8 B/s, burst =
 * 40 / 4 = 10 s; the squared lengths scale by (40/60)^2.  Without the
 * heatmap no burst.  With no counted time the heatmap alone: p = 0.06. */
static void
test_from_counters(void **state)
{
    bb_fit_counters j;
    bb_tl_stats heat = stats(1000, 4e9, 4, 60, 4 * 225);
    bb_fit_est e;

    (void)state;
    memset(&j, 0, sizeof j);
    j.run_s = 1000;
    j.records = 10;
    j.io_time_s = 40;
    j.bytes = 4e9;
    j.heat_width_s = 12.8;
    bb_fit_from_counters(&j, &heat, &e);
    assert_int_equal(e.source, BB_FIT_HEATMAP);
    assert_true(e.p_from_counters);
    REL(e.p, 0.04, 1e-15);
    REL(e.bw_Bps, 1e8, 1e-15);
    assert_int_equal(e.phases, 4);
    REL(e.burst_s, 10, 1e-15);
    REL(e.phase_sumsq, 900.0 * 40 * 40 / (60 * 60), 1e-12);
    assert_true(e.resolution_s == 12.8);
    bb_fit_from_counters(&j, NULL, &e);
    assert_int_equal(e.source, BB_FIT_COUNTERS);
    assert_int_equal(e.phases, 0);
    REL(e.p, 0.04, 1e-15);
    j.io_time_s = 0;
    bb_fit_from_counters(&j, &heat, &e);
    assert_false(e.p_from_counters);
    REL(e.p, 0.06, 1e-15);
    REL(e.burst_s, 15, 1e-15);
}

/* Three jobs of one class: A runs 1000 s from t = 0 with 40 s of I/O,
 * 4e9 B, 4 phases of 10 s; B runs 3000 s from t = 500 with 90 s, 3e9 B, no
 * phases (counters only); C runs 1000 s from t = 1000 without I/O.
 * Pooled: p = 130 / 5000 = 0.026 (the mean of the jobs' p, 0.04, 0.03 and
 * 0, is 7/300: pooling weighs by run time), bw = 7e9 / 130 B/s, burst =
 * 40 / 4 = 10 s with CV 0; concurrency = 5000 s of runs over the span 0 to
 * 3500: 10/7.  Per job p: mean 7/300, sd sqrt(13/30000). */
static void
test_class(void **state)
{
    bb_tl_stats ta = stats(1000, 4e9, 4, 40, 400), tc = stats(1000, 0, 0, 0, 0);
    bb_fit_est a, b, c;
    bb_fit_counters jb;
    bb_fit_class k;
    bb_fit_row r;

    (void)state;
    bb_fit_from_timeline(&ta, BB_FIT_DXT, 1e-4, &a);
    memset(&jb, 0, sizeof jb);
    jb.run_s = 3000;
    jb.records = 1;
    jb.io_time_s = 90;
    jb.bytes = 3e9;
    bb_fit_from_counters(&jb, NULL, &b);
    bb_fit_from_timeline(&tc, BB_FIT_DXT, 1e-4, &c);
    bb_fit_class_init(&k);
    bb_fit_class_add(&k, &a, 0);
    bb_fit_class_add(&k, &b, 500);
    bb_fit_class_add(&k, &c, 1000);
    bb_fit_class_row(&k, &r);
    assert_int_equal(k.jobs, 3);
    assert_int_equal(k.jobs_io, 2);
    assert_int_equal(k.jobs_burst, 1);
    assert_int_equal(k.by_source[BB_FIT_DXT], 2);
    assert_int_equal(k.by_source[BB_FIT_COUNTERS], 1);
    REL(r.p, 0.026, 1e-15);
    REL(r.bw_Bps, 7e9 / 130, 1e-15);
    assert_true(r.has_burst);
    REL(r.burst_s, 10, 1e-15);
    assert_true(r.burst_cv < 1e-7);
    REL(r.concurrency, 10.0 / 7, 1e-15);
    REL(bb_spread_mean(&k.p), 7.0 / 300, 1e-15);
    REL(bb_spread_sd(&k.p), sqrt(13.0 / 30000), 1e-12);
    assert_true(k.p.min == 0 && k.p.max == 0.04);
    /* a class of the job without I/O alone carries nothing */
    bb_fit_class_init(&k);
    bb_fit_class_add(&k, &c, -1);
    bb_fit_class_row(&k, &r);
    assert_true(r.p == 0 && r.bw_Bps == 0 && !r.has_burst && isnan(r.concurrency));
}

/* A name written by bb_workload_field in a row, read back by the reader:
 * the same bytes, control characters turned to '?'. */
static void
roundtrip(const char *name)
{
    char field[512], text[1024], err[512], want[256];
    bb_workload_file w;
    size_t n = bb_workload_field(field, sizeof field, name), k = 0;

    assert_int_equal(n, strlen(field));
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        want[k++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
    want[k] = '\0';
    snprintf(text, sizeof text, "# a comment\nname,p,bw\n%s,0.5,1GB/s\nother,0.1,2GB/s\n", field);
    if (bb_workload_parse(text, "t.csv", &w, err, sizeof err) != 0)
        fail_msg("'%s' written as %s: %s", name, field, err);
    assert_int_equal(w.n, 2);
    assert_string_equal(w.apps[0].name, want);
    assert_true(w.apps[0].p == 0.5);
    bb_workload_free(&w);
}

static void
test_quoting(void **state)
{
    static const char *const names[] = {
        "plain", "a,b", "say \"hi\"", "\"", ",", "#not a comment", "#@ pfs-bw = 1",
        " lead", "trail ", "line\nbreak", "cr\rhere", "tab\tin", "x,\"y\",z", "\xc3\xa9t\xc3\xa9",
        "  ", "a\"\"b",
    };
    char small[4];
    unsigned s = 12345;

    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        roundtrip(names[i]);
    /* random names over the characters that matter */
    for (int t = 0; t < 2000; t++) {
        static const char alpha[] = "ab ,\"#\n\t\r-_";
        char name[40];
        int len = 1 + (int)((s = s * 1103515245 + 12345) >> 16) % 30;

        for (int i = 0; i < len; i++)
            name[i] = alpha[((s = s * 1103515245 + 12345) >> 16) % (sizeof alpha - 1)];
        name[len] = '\0';
        roundtrip(name);
    }
    /* the length is returned whole, the buffer cut with a NUL */
    assert_int_equal(bb_workload_field(small, sizeof small, "a,bcdef"), 9);
    assert_string_equal(small, "\"a,");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_timeline),
        cmocka_unit_test(test_from_counters),
        cmocka_unit_test(test_class),
        cmocka_unit_test(test_quoting),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
