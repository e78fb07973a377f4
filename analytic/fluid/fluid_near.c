/* fluid_near.c: the near boundary block of the greedy fast path
 * (fluid_fast.c) solved through the biorthogonality of the modes, with no
 * factorisation of order P (fluid_int.h: fl_near).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The near block y [L | c] = g has nn mode unknowns (rows phi_i D) and na
 * atom unknowns (rows sg Q~_a, Q~ = Q at 0, Q^S at S), its equations the
 * phases but jd and the atoms' sum.  Where B_BB binds nowhere Q is
 * reversible, so the right eigenvectors are psi_k = phi_k / pi
 * (componentwise: Q psi_k = z_k D psi_k) and phi_i D psi_k = 0 for
 * z_i != z_k.  Put the whole equation over the P phases: v = sum_i y_i
 * phi_i D = g^ - sg l Q~, g^ the right side with g^_jd = -sum of the
 * others (every row's entries sum to zero: phi D 1 = 0, Q~ 1 = 0).  v
 * lies in the span of the near modes' fluxes exactly when it is
 * annihilated by the other na vectors of the basis: psi_j of the far
 * modes, e_z of the zero-drift phases (D e_z = 0) and 1 (implied by
 * g^).  So the atoms solve the na x na system
 *   sg l (Q~ psi_j) = g^ psi_j,   sg (l Q~)_z = g^_z,   sum_a l_a = g_c,
 * factored once (fl_fact: equilibrated LU, QR when LU is singular), and
 * then each mode's coefficient is a projection,
 *   y_i = (v psi_i) / (phi_i D psi_i).
 * Build: the na x na system from the far modes at the atoms' phases and
 * their neighbours (na nf (2 C + 1)) and its LU (2/3 na^3); the
 * denominators 3 P nn.  Solve: 2 P (nf + nn) + 2 nn na flops a column,
 * matrix products over blocks of columns, as many as the two triangular
 * solves of a dense factorisation (2 P^2),
 * where that factorisation costs 2/3 P^3 to build: at 4,096 phases in
 * three classes of 15, na = 77 against P = 4,096.  The caller refines
 * the solution on the whole system (fluid_fast.c), and keeps the dense
 * factorisation for the cases this route does not take (fl_near_build:
 * rare phases dropped at this end, zero mean drift). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_int.h"
#include "lapackf.h"

void
fl_near_free(fl_near *F)
{
    if (F == NULL)
        return;
    free(F->den);
    free(F->ipi);
    free(F->atom);
    free(F->T);
    fl_fact_free(&F->A);
    memset(F, 0, sizeof *F);
}

/* (Q~ psi)_f for psi = phi / pi of a mode (z, phi) of Q: z d_f psi_f, the
 * identity Q psi = z D psi, and at S (top) the writers' share: Q^S - Q
 * scales the ON -> OFF rates of phase f by c_f - 1, so it adds (c_f - 1)
 * sum_c m_c mu_c (psi_{f - s_c} - psi_f).  Never the difference of the
 * generator's large terms, which cancel where psi is small. */
static double
qt_psi(const bba_fluid *m, const fl_spec *sp, long k, long f, const double *ipi, int top)
{
    const double *ph = sp->phi + (size_t)k * (size_t)m->P;
    double psf = ph[f] * ipi[f], out = sp->z[k] * sp->d[f] * psf, c1;

    if (top && (c1 = m->share_top[f] - 1.0) != 0.0) {
        long rem = f;
        double s = 0.0;

        for (int c = 0; c < m->C; c++) {
            long mc = rem % (m->N[c] + 1), st = m->stride[c];

            rem /= m->N[c] + 1;
            if (mc > 0)
                s += (double)mc * m->mu[c] * (ph[f - st] * ipi[f - st] - psf);
        }
        out += c1 * s;
    }
    return out;
}

void
fl_q_left_abs(const bba_fluid *m, const double *x, double *y, int top)
{
    int mc[FL_CLASSES_MAX] = { 0 }; /* the phase's digits, advanced with f */

    memset(y, 0, (size_t)m->P * sizeof *y);
    for (long f = 0; f < m->P; f++) {
        double out = 0.0, xf = fabs(x[f]), sh = top ? m->share_top[f] : m->share_in[f];

        if (xf != 0.0) {
            for (int c = 0; c < m->C; c++) {
                double up = (double)(m->N[c] - mc[c]) * m->lam[c];
                double dn = sh * (double)mc[c] * m->mu[c];

                if (mc[c] < m->N[c])
                    y[f + m->stride[c]] += xf * up;
                if (mc[c] > 0)
                    y[f - m->stride[c]] += xf * dn;
                out += up + dn;
            }
            y[f] += xf * out;
        }
        for (int c = 0; c < m->C && ++mc[c] > m->N[c]; c++)
            mc[c] = 0;
    }
}

/* the componentwise backward error of y for y [L | c] = g: the largest
 * residual of an equation over the moduli of its terms; wk 4 P doubles */
static double
near_berr(const fl_near *F, const double *y, const double *g, double *wk)
{
    const bba_fluid *m = F->m;
    const fl_spec *sp = F->sp;
    long P = F->P, nn = F->nn, na = F->na;
    double *res = wk, *mod = wk + P, *x = wk + 2 * P, *t = wk + 3 * P, worst = 0.0, sum = 0.0;
    double sumabs = 0.0;

    memset(res, 0, (size_t)P * sizeof *res);
    memset(mod, 0, (size_t)P * sizeof *mod);
    for (long i = 0; i < nn; i++) {
        const double *ph = sp->phi + (size_t)F->nmode[i] * (size_t)P;
        double yi = y[i], ay = fabs(yi);

        for (long f = 0; f < P; f++) {
            res[f] += yi * ph[f];
            mod[f] += ay * fabs(ph[f]);
        }
    }
    for (long f = 0; f < P; f++) {
        res[f] *= sp->d[f];
        mod[f] *= fabs(sp->d[f]);
    }
    /* the atoms' generator rows: signed, and their moduli */
    memset(x, 0, (size_t)P * sizeof *x);
    for (long a = 0; a < na; a++)
        x[F->natom[a]] = y[nn + a];
    fl_q_left(m, x, t, F->top);
    for (long f = 0; f < P; f++)
        res[f] += F->sg * t[f];
    for (long a = 0; a < na; a++)
        x[F->natom[a]] = y[nn + a];
    fl_q_left_abs(m, x, t, F->top);
    for (long f = 0; f < P; f++)
        mod[f] += t[f];
    for (long f = 0, e = 0; f < P; f++) {
        if (f == F->jd)
            continue;
        if (mod[f] > 0.0)
            worst = fmax(worst, fabs(res[f] - g[e]) / (mod[f] + fabs(g[e])));
        else if (g[e] != 0.0)
            worst = INFINITY;
        e++;
    }
    for (long a = 0; a < na; a++) {
        sum += y[nn + a];
        sumabs += fabs(y[nn + a]);
    }
    if (sumabs + fabs(g[P - 1]) > 0.0)
        worst = fmax(worst, fabs(sum - g[P - 1]) / (sumabs + fabs(g[P - 1])));
    return worst;
}

int
fl_near_build(const bba_fluid *m, const fl_spec *sp, int top, double sg, long nn,
              const long *nmode, long na, const long *natom, long nf, const long *fmode,
              long jd, fl_near *F, char *err)
{
    long P = m->P, nz = 0;
    double *A = NULL, *sc = NULL;
    int rc = BB_OK;

    memset(F, 0, sizeof *F);
    F->m = m;
    F->sp = sp;
    F->top = top;
    F->sg = sg;
    F->P = P;
    F->nn = nn;
    F->na = na;
    F->nf = nf;
    F->jd = jd;
    F->nmode = nmode;
    F->natom = natom;
    F->fmode = fmode;
    if (nn + na != P || nf + 1 + m->n_zero != na || !(sp->drift != 0.0))
        return bb_seterr(err, BB_EINVAL, "fluid model: the near block of %ld modes and "
                         "%ld atoms has no projection route", nn, na);
    F->den = malloc((size_t)(nn + 1) * sizeof *F->den);
    F->ipi = malloc((size_t)P * sizeof *F->ipi);
    F->atom = malloc((size_t)P * sizeof *F->atom);
    A = calloc((size_t)na * (size_t)na, sizeof *A);
    F->T = malloc((size_t)(nn > 0 ? nn : 1) * (size_t)na * sizeof *F->T);
    sc = malloc((size_t)na * sizeof *sc);
    if (F->den == NULL || F->ipi == NULL || F->atom == NULL || A == NULL || F->T == NULL ||
        sc == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the near block of %ld phases", P);
        goto out;
    }
    for (long f = 0; f < P; f++) {
        F->ipi[f] = 1.0 / m->pi[f];
        F->atom[f] = -1;
        if (!(m->pi[f] > 0.0) || !isfinite(F->ipi[f])) {
            rc = bb_seterr(err, BB_EINVAL, "fluid model: phase %ld has pi = %g", f, m->pi[f]);
            goto out;
        }
    }
    for (long a = 0; a < na; a++)
        F->atom[natom[a]] = a;
    /* denominators phi_i D psi_i */
    for (long i = 0; i < nn; i++) {
        const double *ph = sp->phi + (size_t)nmode[i] * (size_t)P;
        double s = 0.0, t = 0.0;

        for (long f = 0; f < P; f++) {
            double v = ph[f] * ph[f] * F->ipi[f] * sp->d[f];

            s += v;
            t += fabs(v);
        }
        F->den[i] = s;
        if (!(fabs(s) > 0.0) || !isfinite(s)) {
            rc = bb_seterr(err, BB_ESINGULAR, "fluid model: near mode %ld is neutral", i);
            goto out;
        }
    }
    /* A (rows atoms, columns equations): far modes, zero phases, the sum */
#define AT(a, e) A[(size_t)(a) + (size_t)(e) * (size_t)na]
    for (long j = 0; j < nf; j++)
        for (long a = 0; a < na; a++)
            AT(a, j) = sg * qt_psi(m, sp, fmode[j], natom[a], F->ipi, top);
    /* T: the near modes' (Q~ psi_i) at the atoms */
    for (long i = 0; i < nn; i++)
        for (long a = 0; a < na; a++)
            F->T[(size_t)a + (size_t)i * (size_t)na] = qt_psi(m, sp, nmode[i], natom[a], F->ipi, top);
    /* a zero phase's column: sg Q~_az, its own rate of leaving (its share
     * is 1) and the rates into it from its neighbours among the atoms */
    for (long f = 0; f < P; f++)
        if (m->cls[f] == FL_ZERO) {
            long rem = f;

            if (F->atom[f] >= 0)
                AT(F->atom[f], nf + nz) = -sg * fl_q_out(m, f);
            for (int c = 0; c < m->C; c++) {
                long mc = rem % (m->N[c] + 1), st = m->stride[c];

                rem /= m->N[c] + 1;
                /* from f - st (one fewer ON in class c): OFF -> ON */
                if (mc > 0 && F->atom[f - st] >= 0)
                    AT(F->atom[f - st], nf + nz) = sg * (double)(m->N[c] - mc + 1) * m->lam[c];
                /* from f + st: ON -> OFF at that phase's share */
                if (mc < m->N[c] && F->atom[f + st] >= 0) {
                    double sh = top ? m->share_top[f + st] : m->share_in[f + st];

                    AT(F->atom[f + st], nf + nz) = sg * sh * (double)(mc + 1) * m->mu[c];
                }
            }
            nz++;
        }
    for (long a = 0; a < na; a++)
        AT(a, na - 1) = 1.0;
    for (long e = 0; e < na; e++) {
        double big = 0.0;

        for (long a = 0; a < na; a++)
            big = fmax(big, fabs(AT(a, e)));
        sc[e] = fl_pow2_inv(big);
    }
#undef AT
    rc = fl_fact_build(&F->A, A, (int)na, sc, NULL, NULL, err);
    A = NULL;
    /* the route is taken only where it is backward stable componentwise
     * on the block's own problem (the atoms' sum 1): a residual of each
     * equation within P eps of its terms' moduli, the bound of a stable
     * solve (each equation a sum of at most P terms).  Where the law
     * spans many orders of magnitude the atoms of the rare phases are
     * lost in the far modes' basis, and the dense factorisation (its
     * equations in the law's frame) is needed. */
    if (rc == BB_OK) {
        double *y = calloc((size_t)P, sizeof *y), *g = calloc((size_t)P, sizeof *g);
        double *wk = malloc((size_t)5 * (size_t)P * sizeof *wk), be;

        if (y == NULL || g == NULL || wk == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for the near block of %ld phases",
                           P);
        } else {
            y[P - 1] = g[P - 1] = 1.0;
            fl_near_solve_T(F, 1, y, (int)P, wk);  /* one column: wk, no allocation */
            be = near_berr(F, y, g, wk);
            if (!(be <= (double)P * DBL_EPSILON))
                rc = bb_seterr(err, BB_ENOCONV, "fluid model: the near block by projection "
                               "has a backward error of %.3g", be);
        }
        free(y);
        free(g);
        free(wk);
    }
out:
    free(A);
    free(sc);
    if (rc != BB_OK)
        fl_near_free(F);
    return rc;
}

/* X (n x nb, leading dimension P) = Phi U for the n spectrum rows Phi
 * (row-major, P each) and U (P x nb): a matrix product, or for one column
 * a matrix-vector one (a product of one column would copy all of Phi) */
static void
prod_T(int nP, int n, int nb, const double *Phi, const double *U, double *X)
{
    double d1 = 1.0, d0 = 0.0;
    int one = 1;

    if (nb == 1)
        dgemv_("T", &nP, &n, &d1, Phi, &nP, U, &one, &d0, X, &one, 1);
    else
        dgemm_("T", "N", &n, &nb, &nP, &d1, Phi, &nP, U, &nP, &d0, X, &nP, 1, 1);
}

/* nb columns of B at once (U, X, R: P, P and na rows each, nb columns):
 * every pass over the modes a matrix product */
static void
solve_cols(const fl_near *F, int nb, double *B, int ldb, double *U, double *X, double *R)
{
    const bba_fluid *m = F->m;
    const fl_spec *sp = F->sp;
    long P = F->P, nn = F->nn, na = F->na, nf = F->nf;
    int nP = (int)P, inf = (int)nf, inn = (int)nn, ina = (int)na, one = 1;
    double d1 = 1.0, msg = -F->sg;
    long near0 = sp->m, far0 = sp->m;

    /* the blocks of spectrum rows: the near and far modes, contiguous */
    for (long i = 0; i < nn; i++)
        near0 = F->nmode[i] < near0 ? F->nmode[i] : near0;
    for (long j = 0; j < nf; j++)
        far0 = F->fmode[j] < far0 ? F->fmode[j] : far0;
    /* U = g^ / pi, g^ the right side over all P phases (g^_jd = -sum) */
    for (int k = 0; k < nb; k++) {
        const double *g = B + (size_t)k * (size_t)ldb;
        double *u = U + (size_t)k * (size_t)P, sum = 0.0, *r = R + (size_t)k * (size_t)na;
        long nz = 0;

        for (long f = 0, e = 0; f < P; f++)
            if (f != F->jd) {
                u[f] = g[e++];
                sum += u[f];
            }
        u[F->jd] = -sum;
        /* the atoms' right side: g^_z at the zero-drift phases, g_c */
        for (long f = 0; f < P; f++)
            if (m->cls[f] == FL_ZERO)
                r[nf + nz++] = u[f];
        r[na - 1] = g[P - 1];
        for (long f = 0; f < P; f++)
            u[f] *= F->ipi[f];
    }
    /* ... and g^ psi_j for the far modes; then the atoms */
    if (nf > 0) {
        prod_T(nP, inf, nb, sp->phi + (size_t)far0 * (size_t)P, U, X);
        for (int k = 0; k < nb; k++)
            for (long j = 0; j < nf; j++)
                R[(size_t)k * (size_t)na + (size_t)j] =
                    X[(size_t)k * (size_t)P + (size_t)(F->fmode[j] - far0)];
    }
    fl_fact_solve_T(&F->A, nb, R, ina);
    /* y_i = (v psi_i) / (phi_i D psi_i), v = g^ - sg l Q~: v psi_i =
     * g^ psi_i - sg l (Q~ psi_i), never v itself (it is the difference of
     * terms far larger than it where pi is small) */
    prod_T(nP, inn, nb, sp->phi + (size_t)near0 * (size_t)P, U, X);
    for (int k = 0; k < nb; k++) {
        const double *x = X + (size_t)k * (size_t)P;
        double *y = U + (size_t)k * (size_t)P;

        for (long i = 0; i < nn; i++)
            y[i] = x[F->nmode[i] - near0];
    }
    if (nb == 1)
        dgemv_("T", &ina, &inn, &msg, F->T, &ina, R, &one, &d1, U, &one, 1);
    else
        dgemm_("T", "N", &inn, &nb, &ina, &msg, F->T, &ina, R, &ina, &d1, U, &nP, 1, 1);
    for (int k = 0; k < nb; k++) {
        double *g = B + (size_t)k * (size_t)ldb, *y = U + (size_t)k * (size_t)P;

        for (long i = 0; i < nn; i++)
            g[i] = y[i] / F->den[i];
        memcpy(g + nn, R + (size_t)k * (size_t)na, (size_t)na * sizeof *g);
    }
}

int
fl_near_far_flux(const fl_near *F, long j0, long cnt, double *B, int ldb)
{
    const fl_spec *sp = F->sp;
    long P = F->P, nn = F->nn, na = F->na;
    int inn = (int)nn, ina = (int)na, icnt = (int)cnt;
    double *R = calloc((size_t)na * (size_t)(cnt > 0 ? cnt : 1), sizeof *R);
    double *Y = malloc((size_t)(nn > 0 ? nn : 1) * (size_t)(cnt > 0 ? cnt : 1) * sizeof *Y);
    double msg = -F->sg, d0 = 0.0;

    if (R == NULL || Y == NULL) {
        free(R);
        free(Y);
        return BB_ENOMEM;
    }
    for (long k = 0; k < cnt; k++) {
        const double *ph = sp->phi + (size_t)F->fmode[j0 + k] * (size_t)P;
        double dj = 0.0;

        for (long f = 0; f < P; f++)
            dj += ph[f] * ph[f] * F->ipi[f] * sp->d[f];
        R[(size_t)k * (size_t)na + (size_t)(j0 + k)] = dj;
    }
    fl_fact_solve_T(&F->A, icnt, R, ina);
    if (cnt > 0 && nn > 0)
        dgemm_("T", "N", &inn, &icnt, &ina, &msg, F->T, &ina, R, &ina, &d0, Y, &inn, 1, 1);
    for (long k = 0; k < cnt; k++) {
        double *g = B + (size_t)k * (size_t)ldb;

        for (long i = 0; i < nn; i++)
            g[i] = Y[(size_t)k * (size_t)nn + (size_t)i] / F->den[i];
        memcpy(g + nn, R + (size_t)k * (size_t)na, (size_t)na * sizeof *g);
    }
    free(R);
    free(Y);
    return BB_OK;
}

int
fl_near_solve_T(const fl_near *F, int nrhs, double *B, int ldb, double *wk)
{
    long P = F->P;
    int nb = nrhs < 64 ? nrhs : 64;
    double *own = NULL;

    if (nrhs <= 0)
        return BB_OK;
    if (nb > 1) {
        own = malloc((size_t)3 * (size_t)P * (size_t)nb * sizeof *own);
        if (own == NULL)
            return BB_ENOMEM;
        wk = own;
    }
    for (int k0 = 0; k0 < nrhs; k0 += nb) {
        int n = nrhs - k0 < nb ? nrhs - k0 : nb;

        solve_cols(F, n, B + (size_t)k0 * (size_t)ldb, ldb, wk, wk + (size_t)P * (size_t)nb,
                   wk + (size_t)2 * (size_t)P * (size_t)nb);
    }
    free(own);
    return BB_OK;
}
