/* krylov.c: restarted, right-preconditioned GMRES(m) (krylov.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Hessenberg matrix is kept row-major with m columns, H[i m + k] =
 * h_{i,k}; the Givens rotations are applied to column k as it is built,
 * so that |g[k + 1]| is the residual norm of the current least-squares
 * problem (Saad 2003, Proposition 6.9). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "krylov.h"

struct bba_krylov {
    long n;
    int m;
    bba_krylov_sys sys;
    const double *b;
    double *x;
    double *V;      /* (m + 1) n: the Arnoldi basis */
    double *H;      /* (m + 1) m */
    double *cs, *sn, *g, *yv;  /* m, m, m + 1, m */
    double *r, *z;  /* n: residual, preconditioned vector */
    double (*dot)(const double *, const double *, long);  /* as sys asks */
    double bnorm, beta, prev;  /* ||b||, ||b - A x||, beta before the last cycle */
    long steps, products;
    int cycles;
};

/* sum a[i] b[i] and y += alpha x, unrolled by four: -O2 vectorises
 * neither (no reassociation for the sum, possible aliasing for the axpy),
 * and these are most of the orthogonalisation's time. */
double
bba_krylov_dot(const double *restrict a, const double *restrict b, long n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    long i = 0;

    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

/* sum a[i] b[i] in index order (bba_krylov_sys.sum_in_order). */
static double
dot_in_order(const double *a, const double *b, long n)
{
    double s = 0;

    for (long i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

void
bba_krylov_axpy(double alpha, const double *restrict x, double *restrict y, long n)
{
    long i = 0;

    for (; i + 4 <= n; i += 4) {
        y[i] += alpha * x[i];
        y[i + 1] += alpha * x[i + 1];
        y[i + 2] += alpha * x[i + 2];
        y[i + 3] += alpha * x[i + 3];
    }
    for (; i < n; i++)
        y[i] += alpha * x[i];
}

double
bba_krylov_bytes(long n, int m)
{
    return 8.0 * (((double)m + 3.0) * (double)n + ((double)m + 1.0) * (double)m
                  + 4.0 * (double)m + 1.0);
}

bba_krylov *
bba_krylov_alloc(long n, int m)
{
    bba_krylov *w;

    if (n < 1 || m < 1 || (double)(m + 1) * (double)n > (double)(SIZE_MAX / sizeof(double)))
        return NULL;
    w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->n = n;
    w->m = m;
    w->V = bba_big_alloc((size_t)(m + 1) * (size_t)n * sizeof *w->V, 0);
    w->H = calloc((size_t)(m + 1) * (size_t)m, sizeof *w->H);
    w->cs = malloc((size_t)m * sizeof *w->cs);
    w->sn = malloc((size_t)m * sizeof *w->sn);
    w->g = malloc((size_t)(m + 1) * sizeof *w->g);
    w->yv = malloc((size_t)m * sizeof *w->yv);
    w->r = malloc((size_t)n * sizeof *w->r);
    w->z = malloc((size_t)n * sizeof *w->z);
    if (!w->V || !w->H || !w->cs || !w->sn || !w->g || !w->yv || !w->r || !w->z) {
        bba_krylov_free(w);
        return NULL;
    }
    return w;
}

void
bba_krylov_free(bba_krylov *w)
{
    if (w == NULL)
        return;
    free(w->V);
    free(w->H);
    free(w->cs);
    free(w->sn);
    free(w->g);
    free(w->yv);
    free(w->r);
    free(w->z);
    free(w);
}

/* r = b - A x, beta = ||r||: one product. */
static void
true_residual(bba_krylov *w)
{
    long n = w->n;

    w->sys.A(w->sys.ctx, w->x, w->r);
    w->products++;
    for (long l = 0; l < n; l++)
        w->r[l] = w->b[l] - w->r[l];
    w->beta = sqrt(w->dot(w->r, w->r, n));
}

int
bba_krylov_set(bba_krylov *w, const bba_krylov_sys *sys, const double *b, double *x,
               int x_is_zero)
{
    if (sys->n != w->n || sys->A == NULL || (sys->orth_passes != 1 && sys->orth_passes != 2)
        || !(sys->tol >= 0) || !(sys->floor_tol >= sys->tol) || sys->max_steps < 1)
        return bb_seterr(NULL, BB_EINVAL, "bad GMRES problem");
    w->sys = *sys;
    w->dot = sys->sum_in_order ? dot_in_order : bba_krylov_dot;
    w->b = b;
    w->x = x;
    w->steps = w->products = 0;
    w->cycles = 0;
    w->bnorm = sqrt(w->dot(b, b, w->n));
    w->prev = INFINITY;
    if (x_is_zero) {
        memset(x, 0, (size_t)w->n * sizeof *x);
        memcpy(w->r, b, (size_t)w->n * sizeof *w->r);
        w->beta = w->bnorm;
    } else {
        true_residual(w);
    }
    return BB_OK;
}

int
bba_krylov_iterate(bba_krylov *w)
{
    long n = w->n;
    int m = w->m, k;
    double *V = w->V, *H = w->H, *g = w->g, *yv = w->yv;
    double tol = w->sys.tol;

    w->prev = w->beta;
    if (!(w->beta > 0))
        return BB_OK;   /* x solves it already */
    for (long l = 0; l < n; l++)
        V[l] = w->r[l] / w->beta;
    memset(g, 0, (size_t)(m + 1) * sizeof *g);
    memset(H, 0, (size_t)(m + 1) * (size_t)m * sizeof *H);
    g[0] = w->beta;
    for (k = 0; k < m && w->steps < w->sys.max_steps; k++) {
        double *vk = V + (size_t)k * (size_t)n, *vn = V + (size_t)(k + 1) * (size_t)n;
        double hn, t;

        /* vn = A M^-1 vk */
        if (w->sys.Minv) {
            w->sys.Minv(w->sys.ctx, vk, w->z);
            w->sys.A(w->sys.ctx, w->z, vn);
        } else {
            w->sys.A(w->sys.ctx, vk, vn);
        }
        w->products++;
        w->steps++;
        for (int pass = 0; pass < w->sys.orth_passes; pass++)
            for (int i = 0; i <= k; i++) {
                const double *vi = V + (size_t)i * (size_t)n;
                double hij = w->dot(vn, vi, n);

                H[i * m + k] += hij;
                bba_krylov_axpy(-hij, vi, vn, n);
            }
        hn = sqrt(w->dot(vn, vn, n));
        H[(k + 1) * m + k] = hn;
        if (hn > 0)
            for (long l = 0; l < n; l++)
                vn[l] /= hn;
        /* the earlier rotations, then the one that zeroes h_{k+1,k} */
        for (int i = 0; i < k; i++) {
            double a = H[i * m + k], c = H[(i + 1) * m + k];

            H[i * m + k] = w->cs[i] * a + w->sn[i] * c;
            H[(i + 1) * m + k] = -w->sn[i] * a + w->cs[i] * c;
        }
        t = hypot(H[k * m + k], H[(k + 1) * m + k]);
        w->cs[k] = t > 0 ? H[k * m + k] / t : 1.0;
        w->sn[k] = t > 0 ? H[(k + 1) * m + k] / t : 0.0;
        H[k * m + k] = t;
        H[(k + 1) * m + k] = 0;
        g[k + 1] = -w->sn[k] * g[k];
        g[k] = w->cs[k] * g[k];
        if (fabs(g[k + 1]) <= tol || !(hn > 0)) {
            k++;    /* converged (by the estimate), or the space is invariant */
            break;
        }
    }
    /* y = H^-1 g (upper triangular), x += M^-1 V y */
    for (int i = k - 1; i >= 0; i--) {
        double acc = g[i];

        for (int j = i + 1; j < k; j++)
            acc -= H[i * m + j] * yv[j];
        yv[i] = H[i * m + i] != 0 ? acc / H[i * m + i] : 0.0;
    }
    memset(w->r, 0, (size_t)n * sizeof *w->r);
    for (int i = 0; i < k; i++)
        bba_krylov_axpy(yv[i], V + (size_t)i * (size_t)n, w->r, n);
    if (w->sys.Minv) {
        w->sys.Minv(w->sys.ctx, w->r, w->z);
        bba_krylov_axpy(1.0, w->z, w->x, n);
    } else {
        bba_krylov_axpy(1.0, w->r, w->x, n);
    }
    w->cycles++;
    true_residual(w);
    return BB_OK;
}

int
bba_krylov_test(const bba_krylov *w)
{
    if (!isfinite(w->beta))
        return BB_ENOCONV;
    if (w->beta <= w->sys.tol)
        return BB_OK;
    if (w->cycles > 0 && w->beta <= w->sys.floor_tol && w->beta > 0.5 * w->prev)
        return BB_OK;
    if (w->steps >= w->sys.max_steps)
        return BB_ENOCONV;
    return BBA_KRYLOV_CONTINUE;
}

double
bba_krylov_residual(const bba_krylov *w)
{
    return w->beta;
}

double
bba_krylov_bnorm(const bba_krylov *w)
{
    return w->bnorm;
}

long
bba_krylov_steps(const bba_krylov *w)
{
    return w->steps;
}

long
bba_krylov_products(const bba_krylov *w)
{
    return w->products;
}
