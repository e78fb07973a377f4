/* fluid_fact.c: the factorisations of the fluid model's boundary systems
 * (fluid_solve.c), equilibrated in the frame of the phase law and
 * rank-revealing where LU is not enough.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A boundary system y A = r has one column per equation (a phase's flux
 * balance at a boundary, and the normalisation) and one row per unknown
 * (an atom or a mode's coefficient).  Its unknowns span as many orders of
 * magnitude as the phase law: an atom of phase f is about pi_f, and in a
 * class of 40 sources with p = 0.01, pi_40 = 1e-80.  A normwise stable
 * solve of A as it stands leaves every unknown accurate only to rounding
 * of the largest, so the atoms and densities of the rare phases above B,
 * the ones the idle fraction is made of, come out as noise (and a sign
 * the measures refuse).  Dividing the equation of phase f by pi_f (the
 * frame in which Q becomes Q^T for a reversible Q: pi_g Q_gf / pi_f =
 * Q_fg; in practice pi_f^0.9, FACT_FRAME_EXP below) and then each
 * unknown's row by its largest entry makes the unknowns of the scaled
 * system of comparable size; then the pivots of
 * an LU are the system's own and each unknown is accurate to its own
 * size.  Scales are powers of two (exact) from log pi, clamped at 2^-900
 * so that none overflows.
 *
 * LU with partial pivoting (dgetrf) first; when it meets a zero pivot,
 * QR with column pivoting (dgeqp3), which reveals the rank: the trailing
 * diagonal below n eps |R_11| is cut and the system is solved on the
 * leading block (the basic solution).  Not on a small reciprocal
 * condition: the scaled blocks of a large class have condition numbers
 * of 1e50 and more (their modes are nearly dependent in this frame) and
 * LU with refinement still solves them to the accuracy the residuals
 * check, where cutting the rank loses the answer.  The
 * caller may name unknowns and equations to leave out (as many of each):
 * those of phases whose probability is below 2^-900, which no measure can
 * see; they are set to zero.  Time:
 * LU 2/3 n^3 flops, QR 4/3 n^3 (half of it in matrix-vector products);
 * memory 2 n^2 doubles while it is built (a copy for QR), n^2 after. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"
#include "lapackf.h"

/* The frame's exponent: equations scaled by pi^-FACT_FRAME_EXP.  1 is the
 * law's own frame; 1/2 the symmetric one, in which the modes are best
 * conditioned but atoms of rare phases are left to rounding.  Between
 * them 0.9: on single classes of 34 to 1000 sources (p 0.01 to 0.3, one
 * to 467 phases above B) it kept every solution's residual at or below
 * that of both ends (1: 5e-8 where 0.9 gives 6e-15 on 200 sources of
 * p = 0.3; 1/2: 5e-3 where 0.9 gives 2e-9 on 300 sources of p = 0.05). */
#define FACT_FRAME_EXP 0.9
/* log2 of the smallest scale of an equation's phase */
#define FACT_LOG2_MIN (-900.0)

void
fl_phase_lpi(const bba_fluid *m, double *lpi)
{
    int mc[FL_CLASSES_MAX] = { 0 };

    for (long f = 0; f < m->P; f++) {
        double s = 0.0;

        for (int c = 0; c < m->C; c++)
            s += fl_log_binom(m->src[c], m->lo[c] + mc[c], m->lam[c] / (m->lam[c] + m->mu[c]));
        lpi[f] = s;
        for (int c = 0; c < m->C && ++mc[c] > m->N[c]; c++)
            mc[c] = 0;
    }
}

double
fl_phase_scale(double lpi)
{
    double e = floor(-FACT_FRAME_EXP * lpi / M_LN2);

    return ldexp(1.0, (int)fmin(-FACT_LOG2_MIN, fmax(FACT_LOG2_MIN, e)));
}

void
fl_fact_free(fl_fact *F)
{
    if (F == NULL)
        return;
    free(F->A);
    free(F->piv);
    free(F->su);
    free(F->sc);
    free(F->tau);
    free(F->rdrop);
    free(F->cdrop);
    memset(F, 0, sizeof *F);
}

/* a power of two s with s x in [1/2, 1) (x > 0, within 2^+-900), 1 for
 * x = 0 */
static double
inv_pow2(double x)
{
    int e;

    if (!(x > 0.0) || !isfinite(x))
        return 1.0;
    frexp(x, &e);
    return ldexp(1.0, -e > 900 ? 900 : (-e < -900 ? -900 : -e));
}

int
fl_fact_build(fl_fact *F, double *A, int n, const double *sc, const char *rdrop,
              const char *cdrop, char *err)
{
    int info = 0, lwork = -1, nr = 0, nc = 0;
    double wq = 0.0, *work = NULL;

    memset(F, 0, sizeof *F);
    F->n = n;
    F->A = A;
    F->su = malloc((size_t)(n > 0 ? n : 1) * sizeof *F->su);
    F->sc = malloc((size_t)(n > 0 ? n : 1) * sizeof *F->sc);
    F->piv = calloc((size_t)(n > 0 ? n : 1), sizeof *F->piv);
    F->rdrop = calloc((size_t)(n > 0 ? n : 1), 1);
    F->cdrop = calloc((size_t)(n > 0 ? n : 1), 1);
    if (F->su == NULL || F->sc == NULL || F->piv == NULL || F->rdrop == NULL ||
        F->cdrop == NULL)
        goto nomem;
    if (n <= 0)
        return BB_OK;
    memcpy(F->sc, sc, (size_t)n * sizeof *sc);
    /* negligible unknowns and equations, as many of each, leave the
     * system: their rows and columns become those of a permutation */
    for (int i = 0; i < n; i++) {
        nr += rdrop != NULL && rdrop[i];
        nc += cdrop != NULL && cdrop[i];
    }
    if (nr == nc && nr > 0 && nr < n) {
        int e = 0;

        memcpy(F->rdrop, rdrop, (size_t)n);
        memcpy(F->cdrop, cdrop, (size_t)n);
        for (int u = 0; u < n; u++)
            for (int c = 0; c < n; c++)
                if (F->rdrop[u] || F->cdrop[c])
                    A[(size_t)u + (size_t)c * (size_t)n] = 0.0;
        for (int u = 0; u < n; u++) {
            if (!F->rdrop[u])
                continue;
            while (!F->cdrop[e])
                e++;
            A[(size_t)u + (size_t)e * (size_t)n] = 1.0 / sc[e];
            e++;
        }
        F->dropped = nr;
    }
    /* columns by their phase's scale, then each row by its largest entry */
    for (int u = 0; u < n; u++)
        F->su[u] = 0.0;
    for (int e = 0; e < n; e++)
        for (int u = 0; u < n; u++) {
            double *a = &A[(size_t)u + (size_t)e * (size_t)n];

            *a *= sc[e];
            F->su[u] = fmax(F->su[u], fabs(*a));
        }
    for (int u = 0; u < n; u++)
        F->su[u] = inv_pow2(F->su[u]);
    for (int e = 0; e < n; e++)
        for (int u = 0; u < n; u++)
            A[(size_t)u + (size_t)e * (size_t)n] *= F->su[u];
    /* keep a copy for QR should LU not do */
    work = bba_big_alloc((size_t)n * (size_t)n * sizeof *work, 0);
    if (work == NULL)
        goto nomem;
    memcpy(work, A, (size_t)n * (size_t)n * sizeof *A);
    dgetrf_(&n, &n, A, &n, F->piv, &info);
    if (info == 0) {
        free(work);
        F->rank = n;
        return BB_OK;
    }
    /* QR with column pivoting of M = A^T (equations x unknowns): the
     * system y A = r is M y^T = r^T */
    for (int u = 0; u < n; u++)
        for (int e = 0; e < n; e++)
            A[(size_t)e + (size_t)u * (size_t)n] = work[(size_t)u + (size_t)e * (size_t)n];
    free(work);
    work = NULL;
    F->qr = 1;
    F->tau = malloc((size_t)n * sizeof *F->tau);
    if (F->tau == NULL)
        goto nomem;
    memset(F->piv, 0, (size_t)n * sizeof *F->piv);
    dgeqp3_(&n, &n, A, &n, F->piv, F->tau, &wq, &lwork, &info);
    lwork = (int)wq + 1;
    work = malloc((size_t)lwork * sizeof *work);
    if (work == NULL)
        goto nomem;
    dgeqp3_(&n, &n, A, &n, F->piv, F->tau, work, &lwork, &info);
    free(work);
    if (info != 0) {
        fl_fact_free(F);
        return bb_seterr(err, BB_ENOCONV, "fluid model: QR with column pivoting failed "
                         "(info %d) on a boundary system of order %d", info, n);
    }
    F->rank = 0;
    while (F->rank < n && fabs(A[(size_t)F->rank * (size_t)(n + 1)]) >
                              (double)n * DBL_EPSILON * fabs(A[0]))
        F->rank++;
    return BB_OK;
nomem:
    free(work);
    fl_fact_free(F);
    return bb_seterr(err, BB_ENOMEM, "out of memory for a boundary system of order %d", n);
}

/* apply Q^T (trans 'T') or Q (trans 'N') of the QR factors to x */
static void
qr_apply(const fl_fact *F, char trans, double *x)
{
    int n = F->n, one = 1, info = 0, lwork = n;
    double *work = malloc((size_t)(n > 0 ? n : 1) * sizeof *work);

    if (work == NULL) {
        for (int i = 0; i < n; i++)
            x[i] = NAN;
        return;
    }
    dormqr_("L", &trans, &n, &one, &n, F->A, &n, F->tau, x, &n, work, &lwork, &info, 1, 1);
    free(work);
}

/* the columns of B (n rows each) scaled entry by entry: x[e] = drop[e] ?
 * 0 : x[e] s[e] (drop may be NULL) */
static void
scale_rows(int n, int nrhs, double *B, int ldb, const double *s, const char *drop)
{
    for (int j = 0; j < nrhs; j++) {
        double *x = B + (size_t)j * (size_t)ldb;

        for (int e = 0; e < n; e++)
            x[e] = drop != NULL && drop[e] ? 0.0 : x[e] * s[e];
    }
}

/* one column through the QR factorisation: trans 'T' solves M y = x
 * (M P = Q R: y = P [R_11^-1 (Q^T x)_1; 0]), 'N' solves M^T z = x
 * (z = Q [R_11^-T (P^T x)_1; 0]); NaN when out of memory */
static void
qr_solve(const fl_fact *F, char trans, double *x)
{
    int n = F->n, one = 1;
    double *t = malloc((size_t)n * sizeof *t);

    if (t == NULL) {
        for (int i = 0; i < n; i++)
            x[i] = NAN;
        return;
    }
    if (trans == 'T') {
        qr_apply(F, 'T', x);
        for (int i = F->rank; i < n; i++)
            x[i] = 0.0;
        if (F->rank > 0)
            dtrsv_("U", "N", "N", &F->rank, F->A, &n, x, &one, 1, 1, 1);
        for (int i = 0; i < n; i++)
            t[F->piv[i] - 1] = x[i];
    } else {
        for (int i = 0; i < n; i++)
            t[i] = x[F->piv[i] - 1];
        for (int i = F->rank; i < n; i++)
            t[i] = 0.0;
        if (F->rank > 0)
            dtrsv_("U", "T", "N", &F->rank, F->A, &n, t, &one, 1, 1, 1);
        qr_apply(F, 'N', t);
    }
    memcpy(x, t, (size_t)n * sizeof *t);
    free(t);
}

/* both solves: the scaled system, every right-hand side in one dgetrs
 * (level 3) on the LU path, column by column on the QR path */
static void
fact_solve(const fl_fact *F, char trans, int nrhs, double *B, int ldb)
{
    int n = F->n, info = 0;
    int T = trans == 'T';

    if (n <= 0 || nrhs <= 0)
        return;
    scale_rows(n, nrhs, B, ldb, T ? F->sc : F->su, T ? F->cdrop : F->rdrop);
    if (!F->qr)
        dgetrs_(T ? "T" : "N", &n, &nrhs, F->A, &n, F->piv, B, &ldb, &info, 1);
    else
        for (int j = 0; j < nrhs; j++)
            qr_solve(F, trans, B + (size_t)j * (size_t)ldb);
    scale_rows(n, nrhs, B, ldb, T ? F->su : F->sc, NULL);
}

void
fl_fact_solve_T(const fl_fact *F, int nrhs, double *B, int ldb)
{
    fact_solve(F, 'T', nrhs, B, ldb);
}

void
fl_fact_solve_N(const fl_fact *F, int nrhs, double *B, int ldb)
{
    fact_solve(F, 'N', nrhs, B, ldb);
}

