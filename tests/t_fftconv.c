/* t_fftconv.c: the FFT engine of analytic/num/fftconv.h against direct sums:
 * transform sizes, convolutions (with an offset window), the fixed-kernel
 * convolver, and the power-series inverse by Newton's iteration against
 * the renewal recursion.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bb_error.h"
#include "fftconv.h"

/* The smallest 2^a 3^b 5^c at or above n (at least 16), by hand. */
static void
sizes(void **state)
{
    (void)state;
    assert_int_equal(bba_fft_size(1), 16);
    assert_int_equal(bba_fft_size(16), 16);
    assert_int_equal(bba_fft_size(17), 18);
    assert_int_equal(bba_fft_size(97), 100);
    assert_int_equal(bba_fft_size(121), 125);
    assert_int_equal(bba_fft_size(1000), 1000);
    assert_int_equal(bba_fft_size(1001), 1024);
    assert_int_equal(bba_fft_size(6145), 6250);
}

/* Deterministic test data of both signs and several magnitudes. */
static double
val(long i, double s)
{
    return sin(1.3 * (double)i + s) * (1.0 + (double)(i % 7));
}

static void
convolution(void **state)
{
    long nx = 300, nk = 77, N = bba_fft_size(nx + nk - 1), o0 = 40, nout = 250;
    double x[300], k[77], out[300], mx = 0, sk = 0;
    bba_fft *e = bba_fft_new(N);
    double *ks = e ? bba_fft_spec_new(e) : NULL;

    (void)state;
    assert_non_null(ks);
    assert_int_equal(bba_fft_len(e), N);
    for (long i = 0; i < nx; i++) {
        x[i] = val(i, 0.2);
        mx = fmax(mx, fabs(x[i]));
    }
    for (long i = 0; i < nk; i++) {
        k[i] = val(i, 2.1) / 10;
        sk += fabs(k[i]);
    }
    bba_fft_spectrum(e, k, nk, ks);
    bba_fft_conv(e, x, nx, ks, out, o0, nout);
    for (long i = 0; i < nout; i++) {
        double d = 0;

        for (long j = 0; j < nk; j++)
            if (o0 + i - j >= 0 && o0 + i - j < nx)
                d += k[j] * x[o0 + i - j];
        assert_float_equal(out[i], d, 1e-14 * mx * sk);
    }
    bba_fft_spec_free(ks);
    bba_fft_free(e);
    assert_null(bba_fft_new(1));
    bba_fft_free(NULL);
    bba_fft_spec_free(NULL);
}

static void
fixed_kernel(void **state)
{
    double k[5] = { 0.1, -0.2, 0.35, 0.05, 0.7 }, x[40], out[44];
    bba_fftconv *c = bba_fftconv_new(k, 5, 40);

    (void)state;
    assert_non_null(c);
    for (long i = 0; i < 40; i++)
        x[i] = val(i, 1.0);
    for (long nx = 1; nx <= 40; nx += 13) {
        bba_fftconv_apply(c, x, nx, out);
        for (long i = 0; i < nx + 4; i++) {
            double d = 0;

            for (long j = 0; j < 5; j++)
                if (i - j >= 0 && i - j < nx)
                    d += k[j] * x[i - j];
            assert_float_equal(out[i], d, 1e-14 * 8 * 1.4);
        }
    }
    bba_fftconv_free(c);
    assert_null(bba_fftconv_new(k, 0, 10));
    assert_null(bba_fftconv_new(k, 5, 0));
    bba_fftconv_free(NULL);
}

/* 1/a for a = 1 - G(z), G a defective law (mass 0.9 spread over 9000
 * terms): the renewal sequence, nonnegative and summing to 1/(1 - 0.9) =
 * 10 (9.9989 to L terms: the tail decays slowly).  At this
 * length (L min(na, L) = 8.1e7 > 4e7) bba_fft_series_inverse takes
 * Newton's iteration; the test computes the recursion itself. */
static void
series_inverse(void **state)
{
    long L = 9000;
    double *a = malloc((size_t)L * sizeof *a), *b = malloc((size_t)L * sizeof *b);
    double *r = malloc((size_t)L * sizeof *r), s = 0, sr = 0;

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(r);
    for (long d = 1; d < L; d++) {
        a[d] = exp(-0.01 * (double)d) * (1.2 + sin(0.7 * (double)d));
        s += a[d];
    }
    a[0] = 1;
    for (long d = 1; d < L; d++)
        a[d] *= -0.9 / s;
    r[0] = 1;
    for (long i = 1; i < L; i++) {
        double acc = 0;

        for (long d = 1; d <= i; d++)
            acc -= a[d] * r[i - d];
        r[i] = acc;
    }
    assert_int_equal(bba_fft_series_inverse(a, L, b, L), BB_OK);
    for (long i = 0; i < L; i++) {
        assert_float_equal(b[i], r[i], 1e-11);
        assert_true(r[i] >= 0);
        sr += r[i];
    }
    assert_true(sr > 9.99 && sr < 10);
    /* and short, by the recursion inside */
    assert_int_equal(bba_fft_series_inverse(a, 50, b, 100), BB_OK);
    for (long i = 0; i < 50; i++)
        assert_float_equal(b[i], r[i], 1e-15 * 10);
    free(a);
    free(b);
    free(r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),
        cmocka_unit_test(convolution),
        cmocka_unit_test(fixed_kernel),
        cmocka_unit_test(series_inverse),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
