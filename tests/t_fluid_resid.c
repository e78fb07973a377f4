/* t_fluid_resid.c: the separable spectrum's mode residual in O(P) from
 * the Kronecker structure (fl_sep_resid, analytic/fluid/fluid_resid.c) against
 * the residual formed directly, phase by phase, from a generator written
 * out here: equal on the computed modes (both at rounding), equal on a
 * mode whose root is moved (a residual well above rounding), and an upper
 * bound that fires when one component is changed (v no longer a product).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fluid_int.h"

/* max_g |(v (Q - z D))_g| / ((|v| |Q|)_g + |z v_g d_g|), Q built here
 * from the classes: from a phase with m_c sources of class c ON, one more
 * turns ON at (N_c - m_c) lam_c, one turns OFF at m_c mu_c; denominators
 * within 2^-900 of sum_c N_c max(lam_c, mu_c) left out (fluid_int.h) */
static double
direct_resid(const bba_fluid *m, const double *v, const double *d, double z)
{
    long P = m->P;
    double *num = calloc((size_t)P, sizeof *num), *den = calloc((size_t)P, sizeof *den);
    double qmax = 0.0, res = 0.0;

    assert_non_null(num);
    assert_non_null(den);
    for (int c = 0; c < m->C; c++)
        qmax += m->N[c] * fmax(m->lam[c], m->mu[c]);
    for (long g = 0; g < P; g++) {
        long rem = g, st = 1;
        double out = 0.0;

        for (int c = 0; c < m->C; c++) {
            long mc = rem % (m->N[c] + 1);
            double up = (double)(m->N[c] - mc) * m->lam[c], dn = (double)mc * m->mu[c];

            rem /= m->N[c] + 1;
            if (mc < m->N[c]) {
                num[g + st] += v[g] * up;
                den[g + st] += fabs(v[g]) * up;
            }
            if (mc > 0) {
                num[g - st] += v[g] * dn;
                den[g - st] += fabs(v[g]) * dn;
            }
            out += up + dn;
            st *= m->N[c] + 1;
        }
        num[g] -= v[g] * out;
        den[g] += fabs(v[g]) * out;
    }
    for (long g = 0; g < P; g++) {
        double r = fabs(num[g] - z * v[g] * d[g]), dd = den[g] + fabs(z * v[g] * d[g]);

        if (r > 0.0 && dd > 0x1p-900 * qmax)
            res = fmax(res, r / dd);
    }
    free(num);
    free(den);
    return res;
}

static double *
scratch(const bba_fluid *m)
{
    long n = 3 * m->P;
    double *wk;

    for (int c = 0; c < m->C; c++)
        n += 3 * (m->N[c] + 1);
    wk = malloc((size_t)n * sizeof *wk);
    assert_non_null(wk);
    return wk;
}

/* three workloads: classes of different sizes (the fibres have different
 * lengths and strides), eleven single sources (2,048 phases), one class
 * of 60 (components down to 1e-40 of the largest) */
static bba_fluid *
workload(int k)
{
    static const bba_fluid_class three[3] = { { 0.45, 0.2, 3, 4 }, { 0.7, 0.1, 7, 2 },
                                              { 0.3, 0.25, 1.5, 3 } };
    static const bba_fluid_class big = { 0.05, 0.1, 5, 60 };
    bba_fluid_class eleven[11];

    if (k == 0)
        return tu_fluid(three, 3, 1.0);
    if (k == 2)
        return tu_fluid(&big, 1, 0.6);
    for (int i = 0; i < 11; i++) {
        eleven[i].rate_Bps = 0.2 + 0.05 * i;
        eleven[i].p = 0.02 + 0.01 * i;
        eleven[i].burst_s = 60 + 20 * i;
        eleven[i].count = 1;
    }
    return tu_fluid(eleven, 11, 1.0);
}

/* On the computed modes both residuals are at rounding and agree there;
 * the spectrum's own figure (the largest) is the same bound. */
static void
computed_modes(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        bba_fluid *m = workload(k);
        const fl_spec *s = m->greedy;
        double *wk = scratch(m), top = 0.0;

        assert_non_null(s);
        assert_true(s->separable);
        for (long j = 0; j < s->m; j++) {
            const double *v = s->phi + (size_t)j * (size_t)m->P;
            double a = fl_sep_resid(m, v, s->d, s->z[j], wk), b = direct_resid(m, v, s->d, s->z[j]);

            assert_true(a < 1e-12);
            assert_true(b < 1e-12);
            assert_true(fabs(a - b) < 1e-13);
            top = fmax(top, a);
        }
        assert_true(top == s->resid);
        free(wk);
        bba_fluid_free(m);
    }
}

/* The root moved by 1e-6 relative: v is a product of class vectors but
 * not a mode, its residual well above rounding; the two agree to 1e-6
 * relative and both exceed the spectrum's guard (1e-8). */
static void
moved_root(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        bba_fluid *m = workload(k);
        const fl_spec *s = m->greedy;
        double *wk = scratch(m);

        for (long j = 0; j < s->m; j += 1 + s->m / 40) {
            const double *v = s->phi + (size_t)j * (size_t)m->P;
            double z = s->z[j] * (1.0 + 1e-6);
            double a = fl_sep_resid(m, v, s->d, z, wk), b = direct_resid(m, v, s->d, z);

            assert_true(b > 1e-8);
            tu_assert_rel(a, b, 1e-6);
        }
        free(wk);
        bba_fluid_free(m);
    }
}

/* One component changed by 1e-5 relative (v no longer a product of its
 * fibres): the O(P) figure bounds the direct one and fires; a zero mode
 * is refused outright. */
static void
changed_component(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        bba_fluid *m = workload(k);
        const fl_spec *s = m->greedy;
        long P = m->P;
        double *wk = scratch(m), *v = malloc((size_t)P * sizeof *v);

        assert_non_null(v);
        for (long j = 0; j < s->m; j += 1 + s->m / 10) {
            long g = (j * 7919) % P;
            double a, b;

            memcpy(v, s->phi + (size_t)j * (size_t)P, (size_t)P * sizeof *v);
            if (fabs(v[g]) < 1e-30)
                continue;
            v[g] *= 1.0 + 1e-5;
            a = fl_sep_resid(m, v, s->d, s->z[j], wk);
            b = direct_resid(m, v, s->d, s->z[j]);
            assert_true(a > 1e-8);
            assert_true(a >= b * (1.0 - 1e-9));
        }
        memset(v, 0, (size_t)P * sizeof *v);
        assert_true(isinf(fl_sep_resid(m, v, s->d, s->z[0], wk)));
        free(v);
        free(wk);
        bba_fluid_free(m);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(computed_modes),
        cmocka_unit_test(moved_root),
        cmocka_unit_test(changed_component),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
