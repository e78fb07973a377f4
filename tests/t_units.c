/* t_units.c: the one unit table (src/formats/units.h) both ways: every
 * unit through the command line's parsers and through the file formats'
 * (bb_unit_*, the scenario and job keys), against factors written out by
 * hand here; and printed answers parsed back.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bb_error.h"
#include "job_keys.h"
#include "scenario_keys.h"
#include "units.h"

typedef struct {
    const char *u;
    double f;
} unit;

/* Written out independently of units.c: 1000^k and 1024^k. */
static const unit sizes[] = {
    { "B", 1 },        { "kB", 1e3 },  { "KB", 1e3 },  { "MB", 1e6 },  { "GB", 1e9 },
    { "TB", 1e12 },    { "PB", 1e15 }, { "EB", 1e18 }, { "KiB", 1024.0 },
    { "MiB", 1024.0 * 1024 }, { "GiB", 1024.0 * 1024 * 1024 },
    { "TiB", 1024.0 * 1024 * 1024 * 1024 }, { "PiB", 1024.0 * 1024 * 1024 * 1024 * 1024 },
    { "EiB", 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024 },
};
static const unit times[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 }, { "sec", 1 },
    { "min", 60 },  { "h", 3600 },  { "d", 24 * 3600 },
};
#define N(a) (sizeof (a) / sizeof (a)[0])

static void
assert_rel(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * fabs(want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* Every size unit, with and without a space, on the command line and in
 * files: the same value, 2.5 times the factor. */
static void
test_sizes(void **state)
{
    char s[64], err[256];
    bb_qty q;
    double v;

    (void)state;
    for (size_t i = 0; i < N(sizes); i++)
        for (int sp = 0; sp < 2; sp++) {
            snprintf(s, sizeof s, "2.5%s%s", sp ? " " : "", sizes[i].u);
            assert_int_equal(bb_parse_size(s, &q, err, sizeof err), 0);
            assert_false(q.plain);
            assert_rel(q.v, 2.5 * sizes[i].f, 1e-15);
            assert_int_equal(bb_unit_bytes(s, &v), 0);
            assert_true(v == q.v);
        }
    assert_int_equal(bb_unit_bytes("4096", &v), 0);
    assert_true(v == 4096);
}

static void
test_times(void **state)
{
    char s[64], err[256];
    bb_qty q;
    double v;

    (void)state;
    for (size_t i = 0; i < N(times); i++) {
        snprintf(s, sizeof s, " 3 %s ", times[i].u);
        assert_int_equal(bb_parse_duration(s, &q, err, sizeof err), 0);
        assert_rel(q.v, 3 * times[i].f, 1e-15);
        assert_int_equal(bb_unit_seconds(s, &v), 0);
        assert_true(v == q.v);
    }
    assert_int_equal(bb_unit_seconds("25", &v), 0);
    assert_true(v == 25);
}

/* Every size unit per every time unit. */
static void
test_rates(void **state)
{
    char s[64], err[256];
    bb_qty q;
    double v;

    (void)state;
    for (size_t i = 0; i < N(sizes); i++)
        for (size_t j = 0; j < N(times); j++) {
            snprintf(s, sizeof s, "6%s/%s", sizes[i].u, times[j].u);
            assert_int_equal(bb_parse_rate(s, &q, err, sizeof err), 0);
            assert_rel(q.v, 6 * sizes[i].f / times[j].f, 1e-15);
            assert_int_equal(bb_unit_Bps(s, &v), 0);
            assert_true(v == q.v);
        }
    assert_int_equal(bb_unit_Bps("1000", &v), 0);
    assert_true(v == 1000);
}

/* A decimal unit shifts the number's exponent and the result is rounded
 * once: "3.51us" is the double nearest 3.51e-6 (MFNetSim's send overhead
 * as the scenario's built-in default writes it), where 3.51 times 1e-6
 * lies a unit in the last place below; the same for an exponent already
 * there, for sizes and for rates, against the C compiler's reading of the
 * literal.  Binary and sexagesimal units still multiply. */
static void
test_decimal_once(void **state)
{
    static const struct { const char *s; double want; int kind; } c[] = {
        { "3.51us", 3.51e-6, 0 }, { "0.55ns", 0.55e-9, 0 }, { "1.5e2 us", 1.5e-4, 0 },
        { "35.1E-1us", 3.51e-6, 0 }, { "0.3ms", 0.3e-3, 0 }, { ".1 s", 0.1, 0 },
        { "0.7 GB", 0.7e9, 1 }, { "1.1e-3kB", 1.1, 1 }, { "2.5KiB", 2560, 1 },
        { "0.1 MB/ms", 0.1e9, 2 }, { "3.3GB/s", 3.3e9, 2 }, { "0.3 B/ns", 0.3e9, 2 },
        { "1.5 min", 90, 0 }, { "1e300 TB/ns", 0, 3 },
    };
    char err[256];
    bb_qty q;

    (void)state;
    assert_true(3.51 * 1e-6 != 3.51e-6); /* the case this is for */
    for (size_t i = 0; i < N(c); i++) {
        int rc = c[i].kind == 0 ? bb_parse_duration(c[i].s, &q, err, sizeof err)
                 : c[i].kind == 1 ? bb_parse_size(c[i].s, &q, err, sizeof err)
                 : bb_parse_rate(c[i].s, &q, err, sizeof err);
        if (c[i].kind == 3) {
            assert_int_not_equal(rc, 0); /* 1e321 B/s overflows */
            continue;
        }
        assert_int_equal(rc, 0);
        if (q.v != c[i].want)
            fail_msg("%s: got %.17g, want %.17g", c[i].s, q.v, c[i].want);
    }
}

/* What neither path accepts: wrong case, bits, other spellings, signs,
 * hexadecimal, overflow, a unit of the wrong kind. */
static void
test_refused(void **state)
{
    static const char *bad_size[] = { "1 mb", "1Gb", "1 kiB", "1 b", "1 GBs", "-1 GB",
                                      "0x10 GB", "1e400 B", "1e300 EB", "GB", "", "1 s",
                                      "nan", "inf GB" };
    static const char *bad_time[] = { "1 S", "1 hr", "1 m", "1 ps", "-2 s", "1 GB", "1 ns s" };
    static const char *bad_rate[] = { "1 GB", "1 Gb/s", "1 GB/x", "1 /s", "1 GB/s/s" };
    char err[256];
    bb_qty q;
    double v;

    (void)state;
    for (size_t i = 0; i < N(bad_size); i++) {
        assert_int_equal(bb_parse_size(bad_size[i], &q, err, sizeof err), BB_EINVAL);
        assert_int_equal(bb_unit_bytes(bad_size[i], &v), BB_EINVAL);
    }
    for (size_t i = 0; i < N(bad_time); i++) {
        assert_int_equal(bb_parse_duration(bad_time[i], &q, err, sizeof err), BB_EINVAL);
        assert_int_equal(bb_unit_seconds(bad_time[i], &v), BB_EINVAL);
    }
    for (size_t i = 0; i < N(bad_rate); i++) {
        assert_int_equal(bb_parse_rate(bad_rate[i], &q, err, sizeof err), BB_EINVAL);
        assert_int_equal(bb_unit_Bps(bad_rate[i], &v), BB_EINVAL);
    }
    /* the message lists the table */
    assert_int_equal(bb_parse_size("1 Gb", &q, err, sizeof err), BB_EINVAL);
    assert_non_null(strstr(err, "EiB"));
    assert_int_equal(bb_parse_duration("1 hr", &q, err, sizeof err), BB_EINVAL);
    assert_non_null(strstr(err, "ns, us, ms, s, min, h, d"));
}

/* The other way: what bbsize prints parses back to what it printed
 * (4 significant digits for sizes and rates, exact for durations). */
static void
test_printed_parse_back(void **state)
{
    static const double xs[] = { 7, 1250, 4.5e6, 1.25e12, 3e15, 9.5e18 };
    static const double ds[] = { 0.5, 59, 90, 120, 5400, 7200, 86400 };
    char buf[64], err[256];
    bb_qty q;

    (void)state;
    for (size_t i = 0; i < N(xs); i++) {
        bb_fmt_size(buf, sizeof buf, xs[i], 0);
        assert_int_equal(bb_parse_size(buf, &q, err, sizeof err), 0);
        assert_rel(q.v, xs[i], 5e-4);
        bb_fmt_rate(buf, sizeof buf, xs[i], 1, 0);
        assert_int_equal(bb_parse_rate(buf, &q, err, sizeof err), 0);
        assert_rel(q.v, xs[i], 5e-4);
    }
    for (size_t i = 0; i < N(ds); i++) {
        bb_fmt_duration(buf, sizeof buf, ds[i]);
        assert_int_equal(bb_parse_duration(buf, &q, err, sizeof err), 0);
        assert_true(q.v == ds[i]);
    }
    bb_fmt_duration(buf, sizeof buf, 5400);
    assert_string_equal(buf, "90 min");
}

/* The scenario format takes the whole table: units the scenario keys did
 * not know before (PB, EiB, d, sec, a rate per minute) and the ones they
 * did, through the keys of bbsize-scenario(5). */
static void
test_scenario_keys(void **state)
{
    bbs_scenario s;
    bbs_model m;
    bbs_tracejob j;
    char err[BB_ERRLEN];

    (void)state;
    bbs_scenario_init(&s, "t.ini");
    assert_int_equal(bbs_scenario_section(&s, "storage", 1, "t.ini:1", err), BB_OK);
    assert_int_equal(bbs_scenario_set(&s, "capacity", "2 PB", 2, "t.ini:2", err), BB_OK);
    assert_true(s.capacity_bytes == 2e15);
    assert_int_equal(bbs_scenario_set(&s, "chunk", "1EiB", 3, "t.ini:3", err), BB_OK);
    assert_true(s.chunk_bytes == 1152921504606846976.0);
    assert_int_equal(bbs_scenario_set(&s, "pfs_bandwidth", "600GB/min", 4, "t.ini:4", err),
                     BB_OK);
    assert_rel(s.pfs_bw_Bps, 1e10, 1e-15);
    assert_int_equal(bbs_scenario_set(&s, "piece", "64 KiB", 5, "t.ini:5", err), BB_OK);
    assert_true(s.piece_bytes == 65536);
    assert_int_equal(bbs_scenario_set(&s, "ssd_threshold", "1 Gb", 6, "t.ini:6", err),
                     BB_EINVAL);
    assert_non_null(strstr(err, "t.ini:6: [storage] ssd_threshold '1 Gb'"));
    assert_int_equal(bbs_scenario_section(&s, "run", 7, "t.ini:7", err), BB_OK);
    assert_int_equal(bbs_scenario_set(&s, "horizon", "2d", 8, "t.ini:8", err), BB_OK);
    assert_true(s.horizon_s == 172800);
    assert_int_equal(bbs_scenario_section(&s, "failures", 9, "t.ini:9", err), BB_OK);
    assert_int_equal(bbs_scenario_set(&s, "mttr", "90 sec", 10, "t.ini:10", err), BB_OK);
    assert_true(s.fail.mttr_s == 90);
    bbs_scenario_free(&s);

    bbs_model_defaults(&m, BBS_MODEL_MILC);
    assert_int_equal(bbs_model_set(&m, "compute", "25ns", err), BB_OK);
    assert_rel(m.compute_s, 25e-9, 1e-15);
    assert_int_equal(bbs_model_set(&m, "msg_bytes", "486 KiB", err), BB_OK);
    assert_true(m.msg_bytes == 497664);
    bbs_model_defaults(&m, BBS_MODEL_CHECKPOINT);
    assert_int_equal(bbs_model_set(&m, "mtti", "1 d", err), BB_OK);
    assert_true(m.mtti_s == 86400);
    assert_int_equal(bbs_model_set(&m, "total_bytes", "1.5 PB", err), BB_OK);
    assert_true(m.total_bytes == 1.5e15);
    assert_int_equal(bbs_model_set(&m, "delta", "-1 s", err), BB_EINVAL);
    assert_true(m.delta_s == 0);

    bbs_tracejob_defaults(&j, BBS_TJ_FILELOAD);
    assert_int_equal(bbs_tracejob_set(&j, "pause", "1ms:2h", err), BB_OK);
    assert_true(j.f.pause_min == 1e-3 && j.f.pause_max == 7200);
    assert_int_equal(bbs_tracejob_set(&j, "file_size", "1 PiB", err), BB_OK);
    assert_true(j.f.size_min == 1125899906842624.0 && j.f.size_max == j.f.size_min);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_decimal_once),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_printed_parse_back),
        cmocka_unit_test(test_scenario_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
