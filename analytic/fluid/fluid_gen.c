/* fluid_gen.c: the modes phi Q' = z phi D of a region of the fluid model
 * (fluid.h) where the buffer's bandwidth binds.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where r_f > B + B_BB the writers write their share (B + B_BB) / r_f and
 * their I/O phases advance at it, so the interior generator Q' has the
 * ON -> OFF rates of those phases scaled: it is not reversible, the
 * symmetric route of fluid_spec.c does not apply, and the pencil may have
 * complex eigenvalues (in conjugate pairs: Q' and D are real).  With the
 * zero-drift phases censored (by the caller, fluid_spec.c), the modes are
 * the left
 * eigenvectors of Q~' D^-1, i.e. the right eigenvectors of
 * A = D^-1 Q~'^T, by LAPACK dgeev (Hessenberg QR, about 10 P^3 flops).
 * The eigenvalue 0 (the law of Q~') is dropped.  A pair z = a +- i b,
 * phi = p + i q, is kept as two real rows p and q (kind 1 and 2): the
 * real solutions Re and Im of phi e^{z t}; the boundary system and the
 * measures combine them (fluid_solve.c, fluid.c).  Modes by real part
 * ascending, a pair's rows together. */
#include "config.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"
#include "lapackf.h"

typedef struct {
    double re;
    long j;      /* eigenvalue index (the one with wi > 0 for a pair) */
    int pair;
} gen_item;

static int
cmp_item(const void *a, const void *b)
{
    const gen_item *x = a, *y = b;

    return (x->re > y->re) - (x->re < y->re);
}

int
fl_spec_general(const bba_fluid *m, fl_spec *s, const long *in, long Pn, const long *i0,
                long P0, const double *Qt, const double *X0, char *err)
{
    long P = m->P, nit = 0, j0 = -1;
    double *A = NULL, *wr = NULL, *wi = NULL, *vr = NULL;
    double *work = NULL, wq = 0.0, best = INFINITY;
    gen_item *it = NULL;
    int rc = BB_OK, n = (int)Pn, info = 0, lwork = -1, one = 1;

    A = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *A, 0);
    vr = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *vr, 0);
    wr = malloc((size_t)Pn * sizeof *wr);
    wi = malloc((size_t)Pn * sizeof *wi);
    it = malloc((size_t)Pn * sizeof *it);
    if (A == NULL || vr == NULL || wr == NULL || wi == NULL || it == NULL)
        goto nomem;
    /* column-major A(i, j) = Q~'(j, i) / d_i */
    for (long i = 0; i < Pn; i++)
        for (long j = 0; j < Pn; j++)
            A[i + j * Pn] = Qt[j * Pn + i] / s->d[in[i]];
    dgeev_("N", "V", &n, A, &n, wr, wi, NULL, &one, vr, &n, &wq, &lwork, &info, 1, 1);
    lwork = (int)wq + 1;
    work = malloc((size_t)lwork * sizeof *work);
    if (work == NULL)
        goto nomem;
    dgeev_("N", "V", &n, A, &n, wr, wi, NULL, &one, vr, &n, work, &lwork, &info, 1, 1);
    if (info != 0) {
        rc = bb_seterr(err, BB_ENOCONV, "fluid model: dgeev failed (info %d) on order %d "
                       "(the spectrum where the buffer's bandwidth binds)", info, n);
        goto out;
    }
    /* the eigenvalue 0: the real one of least modulus */
    for (long j = 0; j < Pn; j++)
        if (wi[j] == 0.0 && fabs(wr[j]) < best) {
            best = fabs(wr[j]);
            j0 = j;
        }
    for (long j = 0; j < Pn; j++) {
        if (j == j0)
            continue;
        if (wi[j] != 0.0) {
            it[nit].re = wr[j];
            it[nit].j = j;
            it[nit].pair = 1;
            nit++;
            j++; /* its conjugate */
            continue;
        }
        it[nit].re = wr[j];
        it[nit].j = j;
        it[nit].pair = 0;
        nit++;
    }
    qsort(it, (size_t)nit, sizeof *it, cmp_item);
    {
        long k = 0;

        for (long i = 0; i < nit; i++)
            for (int r = 0; r <= it[i].pair; r++, k++) {
                double *v = s->phi + (size_t)k * (size_t)P;
                const double *col = vr + (size_t)(it[i].j + r) * (size_t)Pn;

                if (k >= s->m) {
                    rc = bb_seterr(err, BB_ENOCONV, "fluid model: more modes than the "
                                   "%ld phases with a drift allow", Pn);
                    goto out;
                }
                s->z[k] = wr[it[i].j];
                s->zi[k] = it[i].pair ? wi[it[i].j] : 0.0;
                s->kind[k] = it[i].pair ? (signed char)(1 + r) : 0;
                if (it[i].pair)
                    s->cplx = 1;
                memset(v, 0, (size_t)P * sizeof *v);
                for (long a = 0; a < Pn; a++)
                    v[in[a]] = col[a];
                for (long b = 0; b < P0; b++) {
                    double acc = 0.0;

                    for (long a = 0; a < Pn; a++)
                        acc += col[a] * X0[a * P0 + b];
                    v[i0[b]] = acc;
                }
            }
        if (k != s->m) {
            rc = bb_seterr(err, BB_ENOCONV, "fluid model: %ld modes for %ld phases with a "
                           "drift", k, Pn);
            goto out;
        }
    }
    s->drift = 0.0;
    for (long f = 0; f < P; f++)
        s->drift += m->pi_in[f] * s->d[f];
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the general spectrum of %ld phases", P);
out:
    free(A);
    free(vr);
    free(wr);
    free(wi);
    free(it);
    free(work);
    return rc;
}

void
fl_mode_at(const fl_spec *sp, long P, long k, double t, double *out)
{
    const double *v = sp->phi + (size_t)k * (size_t)P;

    if (sp->kind[k] == 0) {
        memcpy(out, v, (size_t)P * sizeof *out);
        return;
    }
    {
        const double *p = sp->kind[k] == 1 ? v : v - P, *q = p + P;
        double bt = sp->zi[k] * t, c = cos(bt), sn = sin(bt);

        for (long f = 0; f < P; f++)
            out[f] = sp->kind[k] == 1 ? p[f] * c - q[f] * sn : p[f] * sn + q[f] * c;
    }
}

void
fl_cexpint(double wr, double wi, double L, double complex *I0, double complex *I1)
{
    double complex w = wr + I * wi, a = w * L;

    if (cabs(a) < 0.5) {
        /* L^(k+1) sum_n a^n / (n! (n + 1 + k)), k = 0, 1 */
        double complex t = 1.0, s0 = 0.0, s1 = 0.0;

        for (int n = 0; n < 30; n++) {
            s0 += t / (n + 1);
            s1 += t / (n + 2);
            t *= a / (n + 1);
        }
        *I0 = L * s0;
        *I1 = L * L * s1;
    } else {
        double complex e = cexp(a);

        *I0 = (e - 1.0) / w;
        *I1 = (e * (a - 1.0) + 1.0) / (w * w);
    }
}
