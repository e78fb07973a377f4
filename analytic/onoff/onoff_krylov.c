/* onoff_krylov.c: GMRES on the censored ON/OFF-modulated chain and its
 * preconditioner below a lazy threshold (onoff_int.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "bb_error.h"
#include "krylov.h"
#include "lapackf.h"
#include "onoff_int.h"

/* Products with A and M^-1 at most in one solve. */
#define GMRES_MAX_STEPS 600

/* The lazy preconditioner.  Below the threshold the buffer keeps its
 * level with probability h_f = (1 - EPS) Pr(k0 <= B - kf) + EPS Pr(k0 =
 * B - kf) (at level 0: Pr(k0 <= B - kf)) while the phases move: with EPS
 * = 0.01 a level holds for tens of steps, and the Krylov steps needed
 * grow with it (measured: GMRES(30) out of steps at 600 products on the
 * paper's workload with 10-unit bursts, 100-140 greedy).  The level
 * blocks of I - P there are A = I - diag(h) K (K the full phase kernel),
 * the same for every level 1..T-1: a block-diagonal right preconditioner
 * (Saad 2003, 9.3) over the lazy region, one per region as the scalar
 * solver's (fftwh.c), makes GMRES see the chain observed when the level
 * moves.  Builds pinv[0] (level 0) and pinv[1] (levels 1..T-1), A^-1
 * explicitly (P^3; P <= BBA_ONOFF_LAZY_PREC_MAX_P).  Returns 0 on success, -1 when
 * out of memory or a block is numerically singular (no preconditioner:
 * GMRES runs unpreconditioned). */
int
bba_onoff_lazy_prec_new(bba_onoff_work *w)
{
    const bba_onoff *m = w->m;
    long P = w->P, B = m->B;
    double *K = NULL, *cdf = NULL;
    gsl_permutation *perm = NULL;
    int rc = -1, sg;

    K = malloc((size_t)P * (size_t)P * sizeof *K);
    cdf = malloc(((size_t)m->M0 + 1) * sizeof *cdf);
    perm = gsl_permutation_alloc((size_t)P);
    w->pinv[0] = malloc((size_t)P * (size_t)P * sizeof *K);
    w->pinv[1] = malloc((size_t)P * (size_t)P * sizeof *K);
    if (!K || !cdf || !perm || !w->pinv[0] || !w->pinv[1])
        goto out;
    for (long k = 0; k <= m->M0; k++)
        cdf[k] = m->D0[k] + (k > 0 ? cdf[k - 1] : 0);
    /* The full kernel, K(f, f') = prod_c K_c(m_c(f), m_c(f')); phase
     * digits as kron_apply's (class 0 fastest). */
    for (long f = 0; f < P; f++)
        for (long g = 0; g < P; g++) {
            long a = f, b = g;
            double v = 1;

            for (size_t c = 0; c < m->n_classes && v != 0; c++) {
                int r = m->N[c] + 1;

                v *= m->K[c][(a % r) * r + b % r];
                a /= r;
                b /= r;
            }
            K[f * P + g] = v;
        }
    for (int blk = 0; blk < 2; blk++) {
        double *A = w->pinv[blk];
        gsl_matrix_view Av = gsl_matrix_view_array(A, (size_t)P, (size_t)P);
        gsl_matrix_view Iv;
        gsl_matrix *inv = NULL;

        for (long f = 0; f < P; f++) {
            long q = B - m->phase_load[f];
            double le = q < 0 ? 0 : cdf[q < m->M0 ? q : m->M0];
            double eq = q < 0 || q > m->M0 ? 0 : m->D0[q];
            double h = blk == 0 ? le : (1.0 - w->pol->eps) * le + w->pol->eps * eq;

            if (h > 1.0 - 1e-9)
                h = 1.0 - 1e-9;
            for (long g = 0; g < P; g++)
                A[f * P + g] = (f == g ? 1.0 : 0.0) - h * K[f * P + g];
        }
        if (gsl_linalg_LU_decomp(&Av.matrix, perm, &sg) != 0)
            goto out;
        inv = gsl_matrix_alloc((size_t)P, (size_t)P);
        if (inv == NULL || gsl_linalg_LU_invert(&Av.matrix, perm, inv) != 0) {
            gsl_matrix_free(inv);
            goto out;
        }
        Iv = gsl_matrix_view_array(A, (size_t)P, (size_t)P);
        gsl_matrix_memcpy(&Iv.matrix, inv);
        gsl_matrix_free(inv);
        for (long i = 0; i < P * P; i++)
            if (!isfinite(A[i]))
                goto out;
    }
    rc = 0;
out:
    if (rc != 0) {
        free(w->pinv[0]);
        free(w->pinv[1]);
        w->pinv[0] = w->pinv[1] = NULL;
    }
    free(K);
    free(cdf);
    if (perm)
        gsl_permutation_free(perm);
    return rc;
}

/* z = u M^-1 (krylov.h's Minv): levels below the threshold times their
 * block's inverse, the others copied.  Levels 1..T-1 share one block: one
 * matrix product (T - 1) x P by P x P (BLAS dgemm; row-major Z = U A is
 * column-major Z^t = A^t U^t), level 0 one vector-matrix product.
 * T >= 1 (the preconditioner exists below a positive threshold only);
 * T P^2 operations. */
static void
lazy_prec_apply(void *ctx, const double *u, double *z)
{
    const bba_onoff_work *w = ctx;
    long P = w->P, T = w->pol->threshold;
    int n = (int)P, rows = (int)(T - 1), one = 1;
    double d1 = 1.0, d0 = 0.0;

    memcpy(z + T * P, u + T * P, (size_t)(w->S + 1 - T) * (size_t)P * sizeof *z);
    dgemv_("N", &n, &n, &d1, w->pinv[0], &n, u, &one, &d0, z, &one, 1);
    if (rows > 0)
        dgemm_("N", "N", &n, &rows, &n, &d1, w->pinv[1], &n, u + P, &n, &d0, z + P, &n, 1, 1);
}

/* A v = v - v P (krylov.h's A), v signed. */
static void
op_A(void *ctx, const double *v, double *y)
{
    bba_onoff_work *w = ctx;
    size_t cells = (size_t)(w->S + 1) * (size_t)w->P;

    bba_onoff_apply(w, v, y);
    for (size_t i = 0; i < cells; i++)
        y[i] = v[i] - y[i];
}

/* Restarted GMRES(BBA_ONOFF_GMRES_M) (krylov.h) on x (I - P) = 0 from x,
 * FFT path only: a consistent singular system (x P - x sums to 0), so
 * each restart solves for the correction to x.  At the end x is clamped
 * at 0 and normalised, and the true max |x P - x| is returned (x is then
 * usable by the smoothing whatever it is).  Below a lazy threshold
 * right-preconditioned by the level blocks (w->pinv); else plain: after
 * the level mode is removed by the first level solve, what remains are
 * the phase modes (1 - a - c per step for power steps), which Krylov
 * steps resolve in far fewer products. */
double
bba_onoff_gmres(bba_onoff_work *w, bba_krylov *ws, double *x, double *y, double tol)
{
    size_t cells = (size_t)(w->S + 1) * (size_t)w->P;
    bba_krylov_sys sys = { (long)cells, op_A, w->pinv[0] ? lazy_prec_apply : NULL, w, 1, 0,
                           tol, tol, GMRES_MAX_STEPS };
    double sum = 0;

    memset(y, 0, cells * sizeof *y);   /* b = 0 */
    w->clamp = 0;
    if (bba_krylov_set(ws, &sys, y, x, 0) == BB_OK)
        while (bba_krylov_test(ws) == BBA_KRYLOV_CONTINUE)
            bba_krylov_iterate(ws);
    w->clamp = 1;
    for (size_t i = 0; i < cells; i++) {
        if (!(x[i] > 0))
            x[i] = 0;
        sum += x[i];
    }
    if (!(sum > 0))
        return INFINITY;
    for (size_t i = 0; i < cells; i++)
        x[i] /= sum;
    return bba_onoff_apply(w, x, y);
}
