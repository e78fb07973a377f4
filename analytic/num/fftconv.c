/* fftconv.c: the FFT engine, power-series inversion and the fixed-kernel
 * convolver (fftconv.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <complex.h>
#include <pthread.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "bb_error.h"
#include "fftconv.h"

static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

void
bba_fft_plan_lock(void)
{
    pthread_mutex_lock(&plan_lock);
}

void
bba_fft_plan_unlock(void)
{
    pthread_mutex_unlock(&plan_lock);
}

struct bba_fft {
    long N;              /* transform length */
    double *rbuf;        /* N reals */
    fftw_complex *cbuf;  /* N/2 + 1 */
    fftw_plan fwd, bwd;
};

long
bba_fft_size(long n)
{
    long best = LONG_MAX;

    if (n < 16)
        n = 16;
    /* smallest 2^a 3^b 5^c >= n */
    for (long p5 = 1; p5 < 2 * n; p5 *= 5)
        for (long p3 = p5; p3 < 2 * n; p3 *= 3) {
            long v = p3;

            while (v < n)
                v *= 2;
            if (v < best)
                best = v;
        }
    return best;
}

bba_fft *
bba_fft_new(long N)
{
    bba_fft *e;

    if (N < 2 || N > INT_MAX)
        return NULL;
    e = calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    e->N = N;
    e->rbuf = fftw_malloc((size_t)N * sizeof *e->rbuf);
    e->cbuf = fftw_malloc((size_t)(N / 2 + 1) * sizeof *e->cbuf);
    if (e->rbuf == NULL || e->cbuf == NULL) {
        bba_fft_free(e);
        return NULL;
    }
    bba_fft_plan_lock();
    e->fwd = fftw_plan_dft_r2c_1d((int)N, e->rbuf, e->cbuf, FFTW_ESTIMATE);
    e->bwd = fftw_plan_dft_c2r_1d((int)N, e->cbuf, e->rbuf, FFTW_ESTIMATE);
    bba_fft_plan_unlock();
    if (e->fwd == NULL || e->bwd == NULL) {
        bba_fft_free(e);
        return NULL;
    }
    return e;
}

void
bba_fft_free(bba_fft *e)
{
    if (e == NULL)
        return;
    bba_fft_plan_lock();
    if (e->fwd)
        fftw_destroy_plan(e->fwd);
    if (e->bwd)
        fftw_destroy_plan(e->bwd);
    bba_fft_plan_unlock();
    fftw_free(e->rbuf);
    fftw_free(e->cbuf);
    free(e);
}

long
bba_fft_len(const bba_fft *e)
{
    return e->N;
}

double *
bba_fft_spec_new(const bba_fft *e)
{
    return fftw_malloc((size_t)(e->N / 2 + 1) * sizeof(fftw_complex));
}

void
bba_fft_spec_free(double *spec)
{
    fftw_free(spec);
}

void
bba_fft_spectrum(bba_fft *e, const double *a, long na, double *spec)
{
    memcpy(e->rbuf, a, (size_t)na * sizeof *a);
    memset(e->rbuf + na, 0, (size_t)(e->N - na) * sizeof *a);
    fftw_execute_dft_r2c(e->fwd, e->rbuf, (fftw_complex *)spec);
}

void
bba_fft_conv(bba_fft *e, const double *x, long nx, const double *kspec, double *out,
             long o0, long nout)
{
    long h = e->N / 2 + 1;
    double s = 1.0 / (double)e->N;
    const fftw_complex *ks = (const fftw_complex *)kspec;

    bba_fft_spectrum(e, x, nx, (double *)e->cbuf);
    for (long i = 0; i < h; i++)
        e->cbuf[i] *= ks[i];
    fftw_execute_dft_c2r(e->bwd, e->cbuf, e->rbuf);
    for (long i = 0; i < nout; i++)
        out[i] = e->rbuf[o0 + i] * s;
}

int
bba_fft_series_inverse(const double *a, long na, double *b, long L)
{
    double *t = NULL, *buf = NULL;
    long len = 1;
    int rc = BB_ENOMEM;

    b[0] = 1.0 / a[0];
    if ((double)L * (double)(na < L ? na : L) <= 4e7) {
        /* short: the renewal recursion directly (no FFTW plans, whose
         * first creation in a process costs more than this) */
        for (long i = 1; i < L; i++) {
            double acc = 0;

            for (long d = 1; d < na && d <= i; d++)
                acc -= a[d] * b[i - d];
            b[i] = acc / a[0];
        }
        return BB_OK;
    }
    t = malloc((size_t)L * sizeof *t);
    buf = malloc((size_t)L * sizeof *buf);
    if (t == NULL || buf == NULL)
        goto out;
    while (len < L) {
        long n2 = 2 * len < L ? 2 * len : L, nb = na < n2 ? na : n2;
        bba_fft *e = bba_fft_new(bba_fft_size(nb + len > n2 ? nb + len : n2));
        double *sp = e ? bba_fft_spec_new(e) : NULL;

        if (sp != NULL) {
            /* e = a b (first n2 terms), then b[len..n2) = b * (-e[len..n2)) */
            bba_fft_spectrum(e, b, len, sp);
            bba_fft_conv(e, a, nb, sp, buf, 0, n2);
            for (long i = len; i < n2; i++)
                t[i - len] = -buf[i];
            bba_fft_conv(e, t, n2 - len, sp, b + len, 0, n2 - len);
        }
        bba_fft_spec_free(sp);
        bba_fft_free(e);
        if (sp == NULL)
            goto out;
        len = n2;
    }
    rc = BB_OK;
out:
    free(t);
    free(buf);
    return rc;
}

/* ---- a convolution with a fixed kernel ----------------------------------- */

struct bba_fftconv {
    bba_fft *e;
    double *kspec;
    long nk, nx;
};

bba_fftconv *
bba_fftconv_new(const double *k, long nk, long nx_max)
{
    bba_fftconv *c;

    if (nk < 1 || nx_max < 1)
        return NULL;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->nk = nk;
    c->nx = nx_max;
    c->e = bba_fft_new(bba_fft_size(nk + nx_max - 1));
    c->kspec = c->e ? bba_fft_spec_new(c->e) : NULL;
    if (c->kspec == NULL) {
        bba_fftconv_free(c);
        return NULL;
    }
    bba_fft_spectrum(c->e, k, nk, c->kspec);
    return c;
}

void
bba_fftconv_apply(bba_fftconv *c, const double *x, long nx, double *out)
{
    if (nx > c->nx)
        nx = c->nx;
    bba_fft_conv(c->e, x, nx, c->kspec, out, 0, nx + c->nk - 1);
}

void
bba_fftconv_free(bba_fftconv *c)
{
    if (c == NULL)
        return;
    bba_fft_free(c->e);
    bba_fft_spec_free(c->kspec);
    free(c);
}
