/* t_quanta.c: sizes in quanta (analytic/chain/quanta.h): the one rounding of a
 * size to quanta, by hand-worked cases, the draining policy at one size
 * (bba_drain_quanta, and drain.h's conversion to bytes), and the memory
 * cap of the chain, checked against the memory estimates at the cap and
 * one above it.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bbanalytic.h"

static void
size_rounds_down(void **state)
{
    (void)state;
    assert_int_equal(bba_size_quanta(0, 5), 0);
    assert_int_equal(bba_size_quanta(12, 5), 2);       /* 2.4 quanta: 2 */
    assert_int_equal(bba_size_quanta(14.999, 5), 2);   /* 2.9998: still 2 */
    assert_int_equal(bba_size_quanta(15, 5), 3);
    assert_int_equal(bba_size_quanta(-12, 5), -3);     /* floor, the caller refuses it */
    assert_int_equal(bba_size_quanta(999.99, 1), 999);
}

/* 0.3 / 0.1 is 2.9999999999999996 in binary: within 1e-9 of 3, so 3. */
static void
size_snaps_round_trip(void **state)
{
    (void)state;
    assert_true(0.3 / 0.1 < 3);
    assert_int_equal(bba_size_quanta(0.3, 0.1), 3);
    /* 1e-10 relative below a whole 1000: that number; 1e-7 below 1 is not */
    assert_int_equal(bba_size_quanta(1000 * (1 - 1e-10), 1), 1000);
    assert_int_equal(bba_size_quanta(1 - 1e-7, 1), 0);
    /* bytes of S quanta of an odd quantum come back as S */
    for (long S = 0; S < 2000; S += 37) {
        double q = 1e12 / 3.0;

        assert_int_equal(bba_size_quanta((double)S * q, q), S);
    }
}

/* The policy at one size, by hand: 10 quanta of 4 bytes. */
static void
drain_at_one_size(void **state)
{
    bb_drain q, b;
    bb_drain bytes = bb_drain_lazy(BB_DRAIN_BYTES, 13, 0.5);     /* 3.25 quanta */
    bb_drain frac = bb_drain_lazy(BB_DRAIN_FRACTION, 0.37, 0.5); /* 3.7 quanta */
    bb_drain big = bb_drain_lazy(BB_DRAIN_BYTES, 60, 0.5);       /* 15 > S */
    bb_drain over = bb_drain_lazy(BB_DRAIN_FRACTION, 1.5, 0.5);
    bb_drain greedy = bb_drain_greedy(0.25);

    (void)state;
    bba_drain_quanta(&bytes, 10, 4, &q);
    assert_int_equal(q.kind, BB_DRAIN_LAZY);
    assert_int_equal(q.unit, BB_DRAIN_QUANTA);
    assert_true(q.threshold == 3 && q.eps == 0.5);
    bba_drain_quanta(&frac, 10, 4, &q);
    assert_true(q.threshold == 3);
    bba_drain_quanta(&big, 10, 4, &q);
    assert_true(q.threshold == 15);           /* above S: the caller refuses it */
    bba_drain_quanta(&over, 10, 4, &q);
    assert_true(q.threshold == 10);           /* a fraction stays within S */
    bba_drain_quanta(&q, 10, 4, &b);          /* quanta stay */
    assert_true(b.threshold == 10 && b.unit == BB_DRAIN_QUANTA);
    bba_drain_quanta(&greedy, 10, 4, &q);
    assert_int_equal(q.kind, BB_DRAIN_GREEDY);
    assert_true(q.threshold == 0 && q.eps == 0.25);
    /* in bytes: a fraction of the size, EPS 1 when greedy */
    b = bb_drain_bytes(&frac, 40);
    assert_int_equal(b.unit, BB_DRAIN_BYTES);
    assert_true(fabs(b.threshold - 14.8) < 1e-12 && b.eps == 0.5);
    b = bb_drain_bytes(&bytes, 40);
    assert_true(b.threshold == 13);
    b = bb_drain_bytes(&greedy, 40);
    assert_true(b.kind == BB_DRAIN_GREEDY && b.threshold == 0 && b.eps == 1);
    assert_true(bb_drain_share(&frac) == 0.5 && bb_drain_share(&greedy) == 1);
    /* the same policy: the threshold counts only when lazy */
    assert_true(bb_drain_same(&frac, &frac));
    assert_false(bb_drain_same(&frac, &bytes));
    q = bb_drain_greedy(0.25);
    q.threshold = 7;
    assert_true(bb_drain_same(&greedy, &q));
    q.eps = 0.3;
    assert_false(bb_drain_same(&greedy, &q));
    assert_string_equal(bb_drain_kind_name(BB_DRAIN_LAZY), "lazy");
    assert_string_equal(bb_drain_kind_name(BB_DRAIN_GREEDY), "greedy");
}

/* The words read back to their kinds; anything else is refused and leaves
 * the kind as it was. */
static void
drain_words(void **state)
{
    bb_drain_kind k = BB_DRAIN_LAZY;

    (void)state;
    assert_int_equal(bb_drain_kind_parse("greedy", &k), 0);
    assert_int_equal(k, BB_DRAIN_GREEDY);
    assert_int_equal(bb_drain_kind_parse("lazy", &k), 0);
    assert_int_equal(k, BB_DRAIN_LAZY);
    assert_int_equal(bb_drain_kind_parse(bb_drain_kind_name(BB_DRAIN_GREEDY), &k), 0);
    assert_int_equal(k, BB_DRAIN_GREEDY);
    assert_int_equal(bb_drain_kind_parse("Lazy", &k), -1);
    assert_int_equal(bb_drain_kind_parse("lazy ", &k), -1);
    assert_int_equal(bb_drain_kind_parse("", &k), -1);
    assert_int_equal(k, BB_DRAIN_GREEDY);
}

static void
size_caps(void **state)
{
    (void)state;
    assert_int_equal(bba_size_quanta(INFINITY, 1), LONG_MAX / 2);
    assert_int_equal(bba_size_quanta(1e300, 1e-300), LONG_MAX / 2);
    assert_int_equal(bba_size_quanta(NAN, 1), 0);
}

/* A small workload: b = (3, 2), p = (0.5, 0.5), B = 2: M = 5. */
static void
model(bba_model *m)
{
    static const long b[2] = { 3, 2 };
    static const double p[2] = { 0.5, 0.5 };
    char err[BB_ERRLEN];

    assert_int_equal(bba_model_init(m, 2, b, p, 2, 0, err), BB_OK);
}

/* The chain's bytes at s_max fit a third of the budget; at s_max + 1
 * they do not (chain.h's estimate, evaluated at the two points). */
static void
s_max_chain(void **state)
{
    bba_model m;
    bba_solver_opts so;

    (void)state;
    model(&m);
    bba_solver_defaults(&so);
    so.kind = BBA_SOLVER_BANDED;
    for (double budget = 1e5; budget < 1e10; budget *= 7.3) {
        long s;
        double at, above;

        so.mem_limit_bytes = budget;
        s = bba_model_s_max(&m, &so);
        assert_true(s > 0);
        bba_chain_estimate(s, m.B, m.M, NULL, NULL, &at);
        bba_chain_estimate(s + 1, m.B, m.M, NULL, NULL, &above);
        assert_true(at <= budget / 3);
        assert_true(above > budget / 3);
    }
    so.mem_limit_bytes = 1;         /* not even S = 0 fits */
    assert_int_equal(bba_model_s_max(&m, &so), 0);
    so.mem_limit_bytes = 0;         /* no budget: the cap alone */
    assert_int_equal(bba_model_s_max(&m, &so), INT_MAX / 2);
    bba_model_free(&m);
}

/* The FFT solver: its whole workspace (fftwh.h) within the budget. */
static void
s_max_fft(void **state)
{
    bba_model m;
    bba_solver_opts so;

    (void)state;
    model(&m);
    bba_solver_defaults(&so);
    assert_int_equal(so.kind, BBA_SOLVER_FFT);
    for (double budget = 1e6; budget < 1e10; budget *= 9.1) {
        long s;

        so.mem_limit_bytes = budget;
        s = bba_model_s_max(&m, &so);
        assert_true(s > 0);
        assert_true(bba_fftwh_bytes(m.M, m.B, s, &so) <= budget);
        assert_true(bba_fftwh_bytes(m.M, m.B, s + 1, &so) > budget);
    }
    so.mem_limit_bytes = 0;
    assert_int_equal(bba_model_s_max(&m, &so), INT_MAX / 4);
    bba_model_free(&m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(size_rounds_down),
        cmocka_unit_test(size_snaps_round_trip),
        cmocka_unit_test(size_caps),
        cmocka_unit_test(drain_at_one_size),
        cmocka_unit_test(drain_words),
        cmocka_unit_test(s_max_chain),
        cmocka_unit_test(s_max_fft),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
