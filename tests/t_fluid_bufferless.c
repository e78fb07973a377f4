/* t_fluid_bufferless.c: the bufferless stall bounds
 * (analytic/fluid/fluid_bufferless.h) against sums worked independently: one
 * class on the grid (the bounds meet the binomial sum), two classes off
 * it (a double sum over the counts), a grid widened past 2 B, the coupling's claim against the
 * exact fluid model at S = 0 (writers wait: at least the bound), the
 * folded model's interval at S = 0 holding the exact stall where a cap
 * makes the folded tail far too light, 10,000 sources in 50 classes
 * against bench/approx_bufferless.py (a separate convolution in numpy),
 * the front door never answering 0 B where the stall at 0 B exceeds the
 * target, the trivial cases and bad input.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"
#include "answer.h"
#include "fluid_approx.h"
#include "fluid_bufferless.h"

#define TB 1e12

static double
binom(int N, int k, double p)
{
    return exp(lgamma(N + 1.0) - lgamma(k + 1.0) - lgamma(N - k + 1.0) + k * log(p)
               + (N - k) * log1p(-p));
}

static double
f(double r, double B)
{
    return r > B ? (r - B) / r : 0;
}

/* 9 sources of 0.1875 B/s, p 0.3, B = 1, a constant 0.125 B/s beside
 * them (the peak within the grid's 2 B): s0 = sum_k C(9,k) 0.3^k
 * 0.7^(9-k) f(0.125 + 0.1875 k) lies in [lo, hi], and hi - lo is at most
 * 2 m h / 2 times the slope of f above B (at most 1 / B), m = 2
 * roundings of h = 2 B / BINS each.  With 10 sources the peak 2.0 is
 * beyond the grid, where hi counts it as 1 (the bound then widens by its
 * probability 0.3^10 times 1 - f(2)). */
static void
one_class_on_grid(void **state)
{
    bba_fluid_class c[2] = { { 0.1875, 0.3, 5, 9 }, { 0.125, 1.0, 0, 1 } };
    double lo, hi, x = 0, h = 2.0 / BBA_BUFFERLESS_BINS;
    char err[BB_ERRLEN];

    (void)state;
    for (int k = 0; k <= 9; k++)
        x += binom(9, k, 0.3) * f(0.125 + 0.1875 * k, 1.0);
    assert_int_equal(bba_fluid_bufferless(c, 2, 1.0, &lo, &hi, err), BB_OK);
    assert_true(lo <= x && x <= hi);
    assert_true(hi - lo <= 2 * h * (1 + 1e-9));
    c[0].count = 10;
    x = 0;
    for (int k = 0; k <= 10; k++)
        x += binom(10, k, 0.3) * f(0.125 + 0.1875 * k, 1.0);
    assert_int_equal(bba_fluid_bufferless(c, 2, 1.0, &lo, &hi, err), BB_OK);
    assert_true(lo <= x && x <= hi);
    assert_true(hi - lo <= 2 * h * (1 + 1e-9) + pow(0.3, 10) * (1 - f(2.0, 1.0)));
    assert_true(hi - lo >= pow(0.3, 10) * (1 - f(2.0, 1.0)) * 0.999);
}

/* Two classes off the grid: 7 of 0.3137 and 25 of 0.0731 B/s on B = 1;
 * the double sum lies between the bounds, which are within 2% of it. */
static void
two_classes_off_grid(void **state)
{
    bba_fluid_class c[2] = { { 0.3137, 0.21, 5, 7 }, { 0.0731, 0.13, 9, 25 } };
    double lo, hi, x = 0;
    char err[BB_ERRLEN];

    (void)state;
    for (int i = 0; i <= 7; i++)
        for (int j = 0; j <= 25; j++)
            x += binom(7, i, 0.21) * binom(25, j, 0.13) * f(0.3137 * i + 0.0731 * j, 1.0);
    assert_int_equal(bba_fluid_bufferless(c, 2, 1.0, &lo, &hi, err), BB_OK);
    assert_true(x > 1e-4);
    assert_true(lo <= x && x <= hi);
    assert_true(hi - lo < 0.02 * x);
}

/* Three classes of 12 (2,197 phases, exact): the model's stall at S = 0
 * (writers wait) is at least the lower bound and above the stationary
 * law's upper one by less than r/B - 1 at the peak; the folded model
 * within 32 phases (a cap binds) misses it by itself, its interval holds
 * it. */
/* 3 sources of 1.5 B/s, p 0.3, B = 1: two of the three ON states are
 * above the first grid's 2 B (the mass there counted 1 in hi, 1/2 in
 * lo: hi - lo about 0.14 here), so the grid widens to 8 B, which holds
 * the peak 4.5 B: the bounds then meet the binomial sum to the
 * rounding's width. */
static void
widened_past_2B(void **state)
{
    bba_fluid_class c = { 1.5, 0.3, 10, 3 };
    double lo, hi, s0 = 0;
    char err[BB_ERRLEN];

    (void)state;
    for (int k = 1; k <= 3; k++)
        s0 += binom(3, k, 0.3) * f(1.5 * k, 1.0);
    assert_int_equal(bba_fluid_bufferless(&c, 1, 1.0, &lo, &hi, err), BB_OK);
    if (!(lo <= s0 && s0 <= hi))
        print_error("s0 %.17g outside [%.17g, %.17g]\n", s0, lo, hi);
    assert_true(lo <= s0 && s0 <= hi);
    assert_true(hi - lo <= 2 * (8.0 / BBA_BUFFERLESS_BINS) * s0);
}

static void
coupling_and_interval(void **state)
{
    bba_fluid_class c[3];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
    bba_fluid *m = NULL;
    bba_fluid_approx *a = NULL;
    bba_fluid_result rx, ra;
    double lo, hi, il, ih, peak = 0, l2, h2;
    char err[BB_ERRLEN];

    (void)state;
    tu_fluid_tail36(c, o.pfs_bw_Bps);
    for (int i = 0; i < 3; i++)
        peak += c[i].count * c[i].rate_Bps;
    assert_int_equal(bba_fluid_bufferless(c, 3, o.pfs_bw_Bps, &lo, &hi, err), BB_OK);
    assert_int_equal(bba_fluid_new(c, 3, &o, &m, err), BB_OK);
    assert_int_equal(bba_fluid_eval(m, 0, &pol, &rx, err), BB_OK);
    assert_true(lo > 0);
    assert_true(rx.idle >= lo);
    assert_true(rx.idle <= hi * peak / o.pfs_bw_Bps);
    assert_int_equal(bba_fluid_approx_new(c, 3, &o, 32, &a, err), BB_OK);
    bba_fluid_approx_stall0(a, &l2, &h2);
    assert_true(l2 == lo && h2 == hi);
    assert_int_equal(bba_fluid_eval(bba_fluid_approx_model(a), 0, &pol, &ra, err), BB_OK);
    assert_true(ra.idle < lo);   /* the folded tail is too light */
    assert_int_equal(bba_fluid_approx_interval(a, 0, &pol, ra.idle, &il, &ih, err), BB_OK);
    assert_true(il <= rx.idle && rx.idle <= ih);
    bba_fluid_free(m);
    bba_fluid_approx_free(a);
}

/* 10,000 sources in 50 classes of 200 (class i: p = 0.01 + 0.04 i / 49,
 * 0.07 / p GB/s, written to 4 digits as bench/fluid.sh writes them) on
 * 1 TB/s: bench/approx_bufferless.py (numpy, a 0.02 GB/s grid) puts s0
 * in [9.875e-13, 1.101e-12]; the bounds here bracket s0 too, so they
 * overlap that, and the folded model's interval at S = 0 reaches above
 * the stall with waiting writers (at most s0 times 1.02 here: the
 * stalled rates are within 2% of B). */
static void
ten_thousand(void **state)
{
    bba_fluid_class c[50];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
    bba_fluid_approx *a = NULL;
    bba_fluid_result r;
    double lo, hi, il, ih;
    char err[BB_ERRLEN], b[32];

    (void)state;
    for (int i = 0; i < 50; i++) {
        double p;

        snprintf(b, sizeof b, "%.4f", 0.01 + 0.04 * i / 49);
        p = atof(b);
        snprintf(b, sizeof b, "%.4g", 0.07 / p);
        c[i].p = p;
        c[i].rate_Bps = atof(b) * 1e9;
        c[i].burst_s = 30 + 6 * i;
        c[i].count = 200;
    }
    assert_int_equal(bba_fluid_bufferless(c, 50, o.pfs_bw_Bps, &lo, &hi, err), BB_OK);
    assert_true(lo <= 1.101e-12 && hi >= 9.875e-13);
    assert_true(lo > 0.5e-12 && hi < 5e-12);
    assert_int_equal(bba_fluid_approx_new(c, 50, &o, 512, &a, err), BB_OK);
    assert_int_equal(bba_fluid_eval(bba_fluid_approx_model(a), 0, &pol, &r, err), BB_OK);
    assert_int_equal(bba_fluid_approx_interval(a, 0, &pol, r.idle, &il, &ih, err), BB_OK);
    assert_true(il <= 9.875e-13 && ih >= 1.02 * 1.101e-12);
    bba_fluid_approx_free(a);
}

/* Three classes of 20 (9,261 phases: folded by the front door): the
 * stall at 0 B is at least s0 (the coupling), 6.0e-12 by the triple sum
 * over the counts, while the folded model alone says 5.4e-12 there.
 * Asked for 5.7e-12, the answer is a buffer, not 0 B: the interval's
 * safe end, said so, and the folded model's own 0 B kept beside it; the
 * interval at 0 B holds s0. */
static void
never_zero_where_needed(void **state)
{
    bba_app ap[3];
    bba_question q;
    bba_front *fr = NULL;
    bb_drain d = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0, .eps = 0.01 };
    bba_answer a, b;
    double s0 = 0, bw[3], pp[3];
    char err[BB_ERRLEN];

    (void)state;
    memset(ap, 0, sizeof ap);
    for (int i = 0; i < 3; i++) {
        pp[i] = 0.02 + 0.02 * i;
        bw[i] = 0.12 * TB / 36 / pp[i] * 12 / 20;
        snprintf(ap[i].name, sizeof ap[i].name, "c%d", i);
        ap[i].p = pp[i];
        ap[i].bw_Bps = bw[i];
        ap[i].burst_s = 20 + 10 * i;
        ap[i].count = 20;
    }
    for (int i = 0; i <= 20; i++)
        for (int j = 0; j <= 20; j++)
            for (int k = 0; k <= 20; k++)
                s0 += binom(20, i, pp[0]) * binom(20, j, pp[1]) * binom(20, k, pp[2])
                      * f(i * bw[0] + j * bw[1] + k * bw[2], 1 * TB);
    assert_true(s0 > 5.7e-12);
    bba_question_init(&q);
    q.apps = ap;
    q.n = 3;
    q.pf.pfs_bw_Bps = 1 * TB;
    q.pf.time_unit_s = 1;
    q.time_unit_given = 1;
    q.model = BBA_MODEL_FLUID;
    assert_int_equal(bba_front_new(&q, &fr, err), BB_OK);
    assert_int_equal(bba_front_idle(fr, 0, &d, &b, err), BB_OK);
    assert_false(b.exact);
    assert_true(b.idle_low <= s0 && s0 <= b.idle_high);
    assert_true(b.idle < 5.7e-12);   /* the folded model alone would answer 0 B */
    assert_int_equal(bba_front_size(fr, 5.7e-12, &d, &a, err), BB_OK);
    assert_true(a.S_bytes > 0);
    assert_true(a.safe_end && a.S_model_bytes == 0);
    assert_true(a.S_bytes == a.S_high_bytes);
    bba_front_free(fr);
}

static void
trivial_and_bad(void **state)
{
    bba_fluid_class c[2] = { { 0.2, 0.5, 5, 4 }, { 0.1, 1.0, 0, 1 } };
    double lo = -1, hi = -1;
    char err[BB_ERRLEN];

    (void)state;
    /* peak 0.9 <= B: never stalls */
    assert_int_equal(bba_fluid_bufferless(c, 2, 1.0, &lo, &hi, err), BB_OK);
    assert_true(lo == 0 && hi == 0);
    /* constant rate above B: always stalls, f = 1 - B / r */
    c[1].rate_Bps = 4.0;
    c[0].count = 0;
    assert_int_equal(bba_fluid_bufferless(c, 2, 1.0, &lo, &hi, err), BB_OK);
    tu_assert_rel(lo, 0.75, 1e-3);
    assert_true(hi >= 0.75 - 1e-12 && hi <= 1);
    assert_int_equal(bba_fluid_bufferless(c, 2, 0.0, &lo, &hi, err), BB_EINVAL);
    c[0].p = 1.5;
    assert_int_equal(bba_fluid_bufferless(c, 2, 1.0, &lo, &hi, err), BB_EINVAL);
    assert_non_null(strstr(err, "class 1"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_class_on_grid),
        cmocka_unit_test(two_classes_off_grid),
        cmocka_unit_test(widened_past_2B),
        cmocka_unit_test(coupling_and_interval),
        cmocka_unit_test(ten_thousand),
        cmocka_unit_test(never_zero_where_needed),
        cmocka_unit_test(trivial_and_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
