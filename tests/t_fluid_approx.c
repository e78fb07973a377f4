/* t_fluid_approx.c: the folded fluid model (analytic/fluid/fluid_approx.h):
 * Lambda against its defining equation and its derivatives at 0 (mean,
 * asymptotic variance), theta* against the closed form of one source,
 * the folded model keeping theta* and the mean, the approximation with
 * everything kept exact being the exact model, the interval covering the
 * exact answer on fixed workloads, bad input.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"
#include "fluid_approx.h"
#include "fluid_bufferless.h"
#include "generate.h"

#define TB 1e12

/* Lambda is a root of det(Q + theta R - x I) = 0, the larger one; its
 * slope at 0 is the mean p b and its curvature the asymptotic variance
 * 2 b^2 p (1 - p)^2 L (the two-state formula 2 b^2 a m / (a + m)^3). */
static void
lambda_closed_form(void **state)
{
    const double b = 3.0, p = 0.2, L = 5.0, a = p / ((1 - p) * L), m = 1 / L;
    (void)state;
    for (double th = 1e-3; th < 100; th *= 3.7) {
        double x = bba_fluid_lambda(b, p, L, th);
        double det = (-a - x) * (-m + th * b - x) - a * m;

        assert_true(fabs(det) <= 1e-12 * (1 + x * x));
        assert_true(x > th * p * b && x < th * b);   /* between mean and peak */
    }
    {
        double h = 1e-6, l1 = bba_fluid_lambda(b, p, L, h), l2 = bba_fluid_lambda(b, p, L, 2 * h);
        double slope = l1 / h, curv = (l2 - 2 * l1) / (h * h);

        tu_assert_rel(slope, p * b, 1e-3);
        tu_assert_rel(curv, 2 * b * b * a * m / pow(a + m, 3), 1e-3);
        tu_assert_rel(curv, 2 * b * b * p * (1 - p) * (1 - p) * L, 1e-3);
    }
    /* tiny theta: no cancellation (the naive form loses every digit) */
    tu_assert_rel(bba_fluid_lambda(b, p, L, 1e-14) / 1e-14, p * b, 1e-6);
}

/* One ON/OFF source into an infinite buffer: the tail decays at
 * theta* = mu / (b - B) - lam / B (the negative eigenvalue of
 * phi Q = z phi D, worked in t_fluid.c). */
static void
decay_one_source(void **state)
{
    const double b = 2.5, p = 0.3, L = 7.0, B = 1.0;
    bba_fluid_class c = { b, p, L, 1 };
    double th, lam = p / ((1 - p) * L), mu = 1 / L;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_fluid_decay(&c, 1, B, &th, err), BB_OK);
    tu_assert_rel(th, mu / (b - B) - lam / B, 1e-11);
    /* constant sources shift B */
    {
        bba_fluid_class c2[2] = { { b, p, L, 1 }, { 0.25, 1.0, 0, 2 } };
        double th2;

        assert_int_equal(bba_fluid_decay(c2, 2, B + 0.5, &th2, err), BB_OK);
        tu_assert_rel(th2, th, 1e-11);
    }
}

static void
paper_classes(size_t n, double load, double pmax, unsigned long seed, bba_fluid_class *c)
{
    bba_app apps[32];
    char err[BB_ERRLEN];

    assert_int_equal(bba_generate_paper(n, pmax, load, 1 * TB, 0, seed, apps, err), BB_OK);
    for (size_t i = 0; i < n; i++) {
        c[i].rate_Bps = apps[i].bw_Bps;
        c[i].p = apps[i].p;
        c[i].burst_s = 5.0 + 3.0 * (double)(i % 7);
        c[i].count = 1;
    }
}

/* The folded model has the whole workload's theta* and mean rate. */
static void
folded_keeps_decay(void **state)
{
    bba_fluid_class c[20];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bba_fluid_approx *a = NULL;
    char err[BB_ERRLEN];
    double th, thf, E = 0, Ef = 0;
    size_t nf;
    const bba_fluid_class *f;

    (void)state;
    paper_classes(20, 0.8, 0.1, 1, c);
    assert_int_equal(bba_fluid_decay(c, 20, o.pfs_bw_Bps, &th, err), BB_OK);
    assert_int_equal(bba_fluid_approx_new(c, 20, &o, 256, &a, err), BB_OK);
    assert_false(bba_fluid_approx_exact(a));
    assert_true(bba_fluid_phases(bba_fluid_approx_model(a)) <= 256);
    tu_assert_rel(bba_fluid_approx_theta(a), th, 1e-12);
    f = bba_fluid_approx_classes(a, &nf);
    assert_true(nf < 20);
    assert_int_equal(bba_fluid_decay(f, nf, o.pfs_bw_Bps, &thf, err), BB_OK);
    tu_assert_rel(thf, th, 1e-9);
    for (size_t i = 0; i < 20; i++)
        E += c[i].count * c[i].p * c[i].rate_Bps;
    for (size_t i = 0; i < nf; i++)
        Ef += f[i].count * f[i].p * f[i].rate_Bps;
    tu_assert_rel(Ef, E, 1e-12);
    tu_assert_rel(bba_fluid_mean_rate(bba_fluid_approx_model(a)), E, 1e-12);
    bba_fluid_approx_free(a);
}

/* Everything kept exact: the same model as bba_fluid_new, the same
 * answer, a zero-width interval. */
static void
exact_when_it_fits(void **state)
{
    bba_fluid_class c[6];
    bba_fluid_opts o = { 1 * TB, 0.8 * TB, 0, 0 };
    bba_fluid_approx *a = NULL;
    bba_fluid *m = NULL;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
    bba_fluid_result r1, r2;
    double lo, hi, slo, shi;
    bb_drain ps = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0, .eps = 1 };
    char err[BB_ERRLEN];

    (void)state;
    paper_classes(6, 0.7, 0.3, 7, c);
    assert_int_equal(bba_fluid_approx_new(c, 6, &o, 64, &a, err), BB_OK);
    assert_true(bba_fluid_approx_exact(a));
    assert_int_equal(bba_fluid_new(c, 6, &o, &m, err), BB_OK);
    assert_int_equal(bba_fluid_eval(m, 5 * TB, &pol, &r1, err), BB_OK);
    assert_int_equal(bba_fluid_eval(bba_fluid_approx_model(a), 5 * TB, &pol, &r2, err), BB_OK);
    tu_assert_rel(r2.idle, r1.idle, 1e-13);
    tu_assert_rel(r2.quiet, r1.quiet, 1e-13);
    assert_int_equal(bba_fluid_approx_interval(a, 5 * TB, &pol, r2.idle, &lo, &hi, err), BB_OK);
    assert_true(lo == r2.idle && hi == r2.idle);
    assert_int_equal(bba_fluid_approx_size_interval(a, 1e-3, &ps, 7 * TB, NULL, NULL,
                                                    &slo, &shi, err),
                     BB_OK);
    assert_true(slo == 7 * TB && shi == 7 * TB);
    bba_fluid_free(m);
    bba_fluid_approx_free(a);
}

/* Fixed workloads of 9 to 10 distinct sources, folded into 32 phases:
 * the interval at the folded model's size for 1e-3 covers the exact idle
 * fraction there, and the size interval the exact size. */
static void
interval_covers(void **state)
{
    static const struct {
        size_t n;
        double load, pmax, bbbw;
        unsigned long seed;
        int lazy;
    } w[] = { { 9, 0.8, 0.1, 0, 3, 0 }, { 10, 0.6, 0.3, 0, 6, 0 },
              { 8, 0.9, 0.1, 0, 5, 1 } };

    (void)state;
    for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
        bba_fluid_class c[16];
        bba_fluid_opts o = { 1 * TB, w[k].bbbw, 0, 0 };
        bb_drain ps = { .kind = w[k].lazy ? BB_DRAIN_LAZY : BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = w[k].lazy ? 0.3 : 0, .eps = w[k].lazy ? 0.01 : 1 };
        bba_fluid_approx *a = NULL;
        bba_fluid *m = NULL;
        bba_fluid_result ra, rx;
        double Sa, Sx, lo, hi, slo, shi;
        char err[BB_ERRLEN];

        paper_classes(w[k].n, w[k].load, w[k].pmax, w[k].seed, c);
        assert_int_equal(bba_fluid_new(c, w[k].n, &o, &m, err), BB_OK);
        assert_int_equal(bba_fluid_approx_new(c, w[k].n, &o, 32, &a, err), BB_OK);
        assert_false(bba_fluid_approx_exact(a));
        assert_int_equal(bba_fluid_size_min(m, 1e-3, &ps, 1e-6, 0, NULL, NULL,
                                            &Sx, NULL, NULL, err), BB_OK);
        assert_int_equal(bba_fluid_size_min(bba_fluid_approx_model(a), 1e-3, &ps, 1e-6, 0,
                                            NULL, NULL, &Sa, &ra, NULL, err),
                         BB_OK);
        {
            bb_drain pol = { .kind = w[k].lazy ? BB_DRAIN_LAZY : BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = w[k].lazy ? 0.3 * Sa : 0, .eps = w[k].lazy ? 0.01 : 1 };

            assert_int_equal(bba_fluid_eval(m, Sa, &pol, &rx, err), BB_OK);
            assert_int_equal(bba_fluid_approx_interval(a, Sa, &pol, ra.idle, &lo, &hi, err),
                             BB_OK);
        }
        if (!(rx.idle >= lo && rx.idle <= hi))
            print_error("workload %zu: exact idle %g outside [%g, %g]\n", k, rx.idle, lo, hi);
        assert_true(rx.idle >= lo && rx.idle <= hi);
        assert_true(lo < ra.idle && ra.idle < hi);
        assert_int_equal(bba_fluid_approx_size_interval(a, 1e-3, &ps, Sa, NULL, NULL,
                                                        &slo, &shi, err),
                         BB_OK);
        if (!(Sx >= slo && Sx <= shi))
            print_error("workload %zu: exact size %g outside [%g, %g]\n", k, Sx, slo, shi);
        assert_true(Sx >= slo && Sx <= shi);
        bba_fluid_free(m);
        bba_fluid_approx_free(a);
    }
}

/* One dominant class beside many small sources (16 x 200 GB/s, p 0.05,
 * 60 s; 240 x 30 GB/s, p 0.01, 30 s: 17 x 241 = 4,097 phases) folded
 * within 512: the 240 small ones become at most 29 larger ones keeping
 * their mean and the whole theta*, the dominant class stays exact, and
 * at S = 0 the interval holds the exact solver's stall fraction (a
 * bufferless stall: the phase law of Q^S alone). */
static void
dominant_class_capped(void **state)
{
    bba_fluid_class c[2] = { { 200e9, 0.05, 60, 16 }, { 30e9, 0.01, 30, 240 } };
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
    bba_fluid_approx *a = NULL;
    bba_fluid *m = NULL;
    bba_fluid_result rx, ra;
    const bba_fluid_class *f;
    double lo, hi, th, thf, Ef = 0;
    size_t nf;
    int kept = 0;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_fluid_approx_new(c, 2, &o, 512, &a, err), BB_OK);
    assert_false(bba_fluid_approx_exact(a));
    assert_true(bba_fluid_phases(bba_fluid_approx_model(a)) <= 512);
    f = bba_fluid_approx_classes(a, &nf);
    for (size_t i = 0; i < nf; i++) {
        kept += f[i].rate_Bps == 200e9 && f[i].count == 16;
        Ef += f[i].count * f[i].p * f[i].rate_Bps;
        if (f[i].rate_Bps != 200e9)
            assert_true(f[i].count >= BBA_FLUID_APPROX_CAP_MIN && f[i].count < 240);
    }
    assert_int_equal(kept, 1);
    tu_assert_rel(Ef, 16 * 0.05 * 200e9 + 240 * 0.01 * 30e9, 1e-12);
    assert_int_equal(bba_fluid_decay(c, 2, o.pfs_bw_Bps, &th, err), BB_OK);
    assert_int_equal(bba_fluid_decay(f, nf, o.pfs_bw_Bps, &thf, err), BB_OK);
    tu_assert_rel(thf, th, 1e-9);
    assert_true(bba_fluid_approx_folded_load(a) < 0.5 && bba_fluid_approx_trusted(a));
    assert_int_equal(bba_fluid_new(c, 2, &o, &m, err), BB_OK);
    assert_int_equal(bba_fluid_eval(m, 0, &pol, &rx, err), BB_OK);
    assert_int_equal(bba_fluid_eval(bba_fluid_approx_model(a), 0, &pol, &ra, err), BB_OK);
    assert_int_equal(bba_fluid_approx_interval(a, 0, &pol, ra.idle, &lo, &hi, err), BB_OK);
    if (!(rx.idle >= lo && rx.idle <= hi))
        print_error("exact idle at 0 %g outside [%g, %g]\n", rx.idle, lo, hi);
    assert_true(rx.idle >= lo && rx.idle <= hi);
    bba_fluid_free(m);
    bba_fluid_approx_free(a);
}

/* A capped fold keeps the variance but not the bufferless tail: 3
 * classes of 12 copies (36 sources, p 0.02 to 0.06, E/B 0.12: a stall
 * at S = 0 far in the tail) folded within 32 phases into one class of at
 * most 31.  The exact model (2,197 phases) is the truth: the primary's
 * stall at 0 is several times too small; the variant keeping the
 * capped class's cumulant at the bufferless tilt brings the hull to
 * within a factor 2 of it, and the interval holds it. */
static void
capped_tail_kept(void **state)
{
    bba_fluid_class c[3];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
    bba_fluid_approx *a = NULL;
    bba_fluid *m = NULL;
    bba_fluid_result rx, ra;
    double lo, hi, hl, hh;
    char err[BB_ERRLEN];

    (void)state;
    tu_fluid_tail36(c, o.pfs_bw_Bps);
    assert_int_equal(bba_fluid_new(c, 3, &o, &m, err), BB_OK);
    assert_int_equal(bba_fluid_approx_new(c, 3, &o, 32, &a, err), BB_OK);
    assert_false(bba_fluid_approx_exact(a));
    assert_int_equal(bba_fluid_eval(m, 0, &pol, &rx, err), BB_OK);
    assert_int_equal(bba_fluid_eval(bba_fluid_approx_model(a), 0, &pol, &ra, err), BB_OK);
    assert_true(ra.idle < rx.idle / 2);   /* the variance fold alone misses */
    assert_int_equal(bba_fluid_approx_hull(a, 0, &pol, ra.idle, &hl, &hh, err), BB_OK);
    assert_true(hh > rx.idle / 2);
    assert_int_equal(bba_fluid_approx_interval(a, 0, &pol, ra.idle, &lo, &hi, err), BB_OK);
    if (!(rx.idle >= lo && rx.idle <= hi))
        print_error("exact idle at 0 %g outside [%g, %g]\n", rx.idle, lo, hi);
    assert_true(rx.idle >= lo && rx.idle <= hi);
    bba_fluid_free(m);
    bba_fluid_approx_free(a);
}

/* The prefactor (fluid_approx.h, Interval) on the capped case above: the
 * primary's rate law above B is lighter than the workload's, so rho > 1,
 * the ratio of the two bufferless laws' midpoints; against the exact
 * model (2,197 phases), an independent method, it is the factor the
 * primary misses the stall at S = 0 by (7.0; rho 6.8), to 10%.  (Deeper
 * in this far tail, E/B 0.12, the miss grows: 11.7 at theta* S = 1, 15.6
 * at 5, docs/fluid.md.)  A fold within the whole model's phases is
 * exact: rho 1. */
static void
prefactor_measured(void **state)
{
    bba_fluid_class c[3];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
    bba_fluid_approx *a = NULL, *whole = NULL;
    bba_fluid *m = NULL;
    bba_fluid_result rx, ra;
    const bba_fluid_class *f;
    size_t nf;
    double wl, wh, fl, fh, rho;
    char err[BB_ERRLEN];

    (void)state;
    tu_fluid_tail36(c, o.pfs_bw_Bps);
    assert_int_equal(bba_fluid_new(c, 3, &o, &m, err), BB_OK);
    assert_int_equal(bba_fluid_approx_new(c, 3, &o, 32, &a, err), BB_OK);
    f = bba_fluid_approx_classes(a, &nf);
    assert_int_equal(bba_fluid_bufferless(c, 3, o.pfs_bw_Bps, &wl, &wh, err), BB_OK);
    assert_int_equal(bba_fluid_bufferless(f, nf, o.pfs_bw_Bps, &fl, &fh, err), BB_OK);
    assert_true(fh < wl);   /* lighter beyond the grid's rounding */
    rho = bba_fluid_approx_prefactor(a);
    tu_assert_rel(rho, (wl + wh) / (fl + fh), 1e-12);
    assert_int_equal(bba_fluid_eval(m, 0, &pol, &rx, err), BB_OK);
    assert_int_equal(bba_fluid_eval(bba_fluid_approx_model(a), 0, &pol, &ra, err), BB_OK);
    tu_assert_rel(rho, rx.idle / ra.idle, 0.1);
    assert_int_equal(bba_fluid_approx_new(c, 3, &o, 2197, &whole, err), BB_OK);
    assert_true(bba_fluid_approx_exact(whole));
    assert_true(bba_fluid_approx_prefactor(whole) == 1.0);
    bba_fluid_free(m);
    bba_fluid_approx_free(a);
    bba_fluid_approx_free(whole);
}

/* Many identical classes (30 of 5 to 92 copies: 1,460 sources) fold
 * within 64 phases: no class above the cap, the mean kept; the folded
 * part carries the whole load, so the interval is not trusted. */
static void
many_classes_fold(void **state)
{
    bba_fluid_class c[30];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bba_fluid_approx *a = NULL;
    const bba_fluid_class *f;
    double E = 0, Ef = 0, P = 1;
    size_t nf;
    char err[BB_ERRLEN];

    (void)state;
    for (int i = 0; i < 30; i++) {
        c[i].rate_Bps = (1 + i % 7) * 1e9;
        c[i].p = 0.01 + 0.003 * i;
        c[i].burst_s = 10 + 7 * i;
        c[i].count = 5 + (i * 29) % 88;
        E += c[i].count * c[i].p * c[i].rate_Bps;
    }
    assert_int_equal(bba_fluid_approx_new(c, 30, &o, 64, &a, err), BB_OK);
    f = bba_fluid_approx_classes(a, &nf);
    for (size_t i = 0; i < nf; i++) {
        assert_true(f[i].count <= BBA_FLUID_APPROX_CAP_MAX);
        Ef += f[i].count * f[i].p * f[i].rate_Bps;
        P *= f[i].count + 1;
    }
    assert_true(P <= 64);
    tu_assert_rel(Ef, E, 1e-12);
    assert_false(bba_fluid_approx_trusted(a));
    tu_assert_rel(bba_fluid_approx_folded_load(a), 1.0, 1e-12);
    bba_fluid_approx_free(a);
}

static void
bad_input(void **state)
{
    bba_fluid_class ok = { 2.0, 0.3, 5.0, 1 }, bad = ok;
    bba_fluid_opts o = { 1.0, 0, 0, 0 };
    bba_fluid_approx *a = NULL;
    double th;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_fluid_approx_new(&ok, 1, &o, 3, &a, err), BB_EINVAL);
    assert_null(a);
    bad.p = -0.1;
    assert_int_equal(bba_fluid_approx_new(&bad, 1, &o, 64, &a, err), BB_EINVAL);
    assert_non_null(strstr(err, "class 1"));
    bad = ok;
    bad.burst_s = NAN;
    assert_int_equal(bba_fluid_approx_new(&bad, 1, &o, 64, &a, err), BB_EINVAL);
    assert_int_equal(bba_fluid_decay(&bad, 1, 1.0, &th, err), BB_EINVAL);
    assert_int_equal(bba_fluid_decay(&ok, 1, 0.0, &th, err), BB_EINVAL);
    /* E = 0.6 >= B: no decay rate; peak 2 <= B: the buffer never fills */
    assert_int_equal(bba_fluid_decay(&ok, 1, 0.5, &th, err), BB_EINFEASIBLE);
    assert_int_equal(bba_fluid_decay(&ok, 1, 2.0, &th, err), BB_EDATA);
    assert_true(isnan(th));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lambda_closed_form),
        cmocka_unit_test(decay_one_source),
        cmocka_unit_test(folded_keeps_decay),
        cmocka_unit_test(exact_when_it_fits),
        cmocka_unit_test(interval_covers),
        cmocka_unit_test(dominant_class_capped),
        cmocka_unit_test(capped_tail_kept),
        cmocka_unit_test(prefactor_measured),
        cmocka_unit_test(many_classes_fold),
        cmocka_unit_test(bad_input),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
