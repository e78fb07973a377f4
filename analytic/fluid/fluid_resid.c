/* fluid_resid.c: the componentwise residual of a separable mode of the
 * fluid model from its Kronecker structure (fluid_int.h fl_sep_resid),
 * and the check every separable spectrum's mode passes (fl_sep_check,
 * called by fluid_spec.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "bb_error.h"
#include "fluid_int.h"
#include "parfor.h"

/* modes a thread takes at least (each O(P)) */
#define CHK_GRAIN 64

/* The Kronecker structure (fluid_int.h): v = (x)_c v_c, class 0
 * fastest, and Q = (+)_c Q_c, so v Q = sum_c v_0 (x) .. (x) v_c Q_c (x)
 * .. and |v| |Q| likewise with |v_c| |Q_c|, built class by class in place
 * (A the product so far, T its v Q, U its |v| |Q|).  The class vectors
 * are read off v along the fibres through its largest component, where
 * every other class is at its own largest, so they are v's own digits.
 * R1 is the residual with their product p in v Q and |v| |Q| (v itself
 * in z v_g d_g); with rho = max_g |v_g - p_g| / |v_g| (v's defect as a
 * product, |v_g| within 2^-900 of its largest left out) v's own is at
 * most (1 + rho) R1 + rho, returned. */
double
fl_sep_resid(const bba_fluid *m, const double *v, const double *d, double z, double *wk)
{
    long P = m->P, len = 1, gmax = 0, rem;
    double *A = wk, *T = wk + P, *U = wk + 2 * P, *fc = wk + 3 * P, v0, res = 0.0, qmax = 0.0;
    double rho = 0.0;

    for (int c = 0; c < m->C; c++)
        qmax += (double)m->N[c] * fmax(m->lam[c], m->mu[c]);
    for (long f = 1; f < P; f++)
        if (fabs(v[f]) > fabs(v[gmax]))
            gmax = f;
    v0 = v[gmax];
    rem = gmax;
    if (!(v0 != 0.0) || !isfinite(v0))
        return INFINITY;
    A[0] = 1.0;
    T[0] = 0.0;
    U[0] = 0.0;
    for (int c = 0; c < m->C; c++) {
        int n = m->N[c] + 1;
        long gc = rem % n, base = gmax - gc * m->stride[c];
        double *vq = fc + n, *aq = fc + 2 * n, lam = m->lam[c], mu = m->mu[c];

        rem /= n;
        for (int a = 0; a < n; a++)
            fc[a] = v[base + (long)a * m->stride[c]] / v0;
        /* v_c Q_c and |v_c| |Q_c| */
        for (int a = 0; a < n; a++) {
            double up = (double)(n - 1 - a) * lam, dn = (double)a * mu;
            double in_up = a > 0 ? (double)(n - a) * lam * fc[a - 1] : 0.0;
            double in_dn = a + 1 < n ? (double)(a + 1) * mu * fc[a + 1] : 0.0;

            vq[a] = in_up + in_dn - (up + dn) * fc[a];
            aq[a] = fabs(in_up) + fabs(in_dn) + (up + dn) * fabs(fc[a]);
        }
        if (c + 1 < m->C) {
            /* in place, from the top: index i + a len >= i */
            for (long i = len - 1; i >= 0; i--) {
                double Ai = A[i], Ti = T[i], Ui = U[i];

                for (int a = n - 1; a >= 0; a--) {
                    long g = i + (long)a * len;

                    T[g] = Ti * fc[a] + Ai * vq[a];
                    U[g] = Ui * fabs(fc[a]) + fabs(Ai) * aq[a];
                    A[g] = Ai * fc[a];
                }
            }
            len *= n;
            fc += 3 * n;
            continue;
        }
        for (int a = 0; a < n; a++)
            for (long i = 0; i < len; i++) {
                long g = i + (long)a * len;
                double zt = z * v[g] * d[g], pg = A[i] * fc[a] * v0;
                double r = fabs((T[i] * fc[a] + A[i] * vq[a]) * v0 - zt);
                double den = (U[i] * fabs(fc[a]) + fabs(A[i]) * aq[a]) * fabs(v0) + fabs(zt);

                /* the largest ratios, divided only where they grow */
                if (r > 0.0 && den > 0x1p-900 * qmax && r > res * den)
                    res = r / den;
                if (fabs(v[g]) > 0x1p-900 * fabs(v0) && fabs(v[g] - pg) > rho * fabs(v[g]))
                    rho = fabs(v[g] - pg) / fabs(v[g]);
            }
    }
    return (1.0 + rho) * res + rho;
}

/* The check of separable modes [lo, hi) (fl_spec_build): each scaled to
 * max_f |phi_f d_f| = 1, its mass, its residual (fl_sep_resid) on chunk
 * t's scratch; the largest residual per chunk, or its first mode without
 * a finite flux. */
typedef struct {
    const bba_fluid *m;
    fl_spec *s;
    double *qx;  /* per chunk: nq doubles */
    long nq;
    double res[BBA_PAR_MAX];
    long bad[BBA_PAR_MAX];
    int inf[BBA_PAR_MAX]; /* the bad mode's flux is not finite */
} chk_job;

static int
chk_chunk(void *ctx, long lo, long hi, int t)
{
    chk_job *J = ctx;
    const fl_spec *s = J->s;
    long P = J->m->P;
    double *qx = J->qx + (size_t)t * (size_t)J->nq, worst = 0.0;

    for (long k = lo; k < hi; k++) {
        double *v = s->phi + (size_t)k * (size_t)P, sc = 0.0, mass = 0.0;

        for (long f = 0; f < P; f++)
            sc = fmax(sc, fabs(v[f] * s->d[f]));
        if (!(sc > 0.0) || !isfinite(sc)) {
            J->bad[t] = k;
            J->inf[t] = !isfinite(sc);
            return 1;
        }
        for (long f = 0; f < P; f++) {
            v[f] /= sc;
            mass += v[f];
        }
        J->s->mass[k] = mass;
        worst = fmax(worst, fl_sep_resid(J->m, v, s->d, s->z[k], qx));
    }
    J->res[t] = worst;
    return 0;
}

int
fl_sep_check(const bba_fluid *m, fl_spec *s, char *err)
{
    long P = m->P;
    int T = bba_par_threads(s->m, CHK_GRAIN);
    chk_job J = { m, s, NULL, 0, { 0 }, { 0 }, { 0 } };

    J.nq = 3 * P;
    for (int c = 0; c < m->C; c++)
        J.nq += 3 * (m->N[c] + 1);
    J.qx = malloc((size_t)T * (size_t)J.nq * sizeof *J.qx);
    if (J.qx == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the spectrum of %ld phases", P);
    for (int t = 0; t < T; t++)
        J.bad[t] = -1;
    bba_parfor(s->m, CHK_GRAIN, chk_chunk, &J);
    free(J.qx);
    for (int t = 0; t < T; t++) {
        if (J.bad[t] >= 0)
            return bb_seterr(err, BB_ENOCONV, "fluid model (%ld phases): mode %ld %s", P,
                             J.bad[t], J.inf[t] ? "is not finite: the eigensolver lost it"
                                                : "has no flux");
        s->resid = fmax(s->resid, J.res[t]);
    }
    return BB_OK;
}
