/* fluid_far.c: the far boundary block of the greedy fast path
 * (fluid_solve.c) reduced through its atoms (fluid_int.h: fl_far).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The far block y L = r has nf mode unknowns (dense rows phi_j D) and na
 * atom unknowns whose rows are rows of a generator (+Q^S at S, -Q at 0):
 * sparse, one entry per class and direction.  With the equations split
 * into those of the atom phases (E_A) and the others (E_O),
 *   L = [ M_A  M_O ]  (mode rows)
 *       [ G    H   ]  (atom rows),
 * G the generator restricted to the atom phases: a sub-generator of an
 * irreducible chain, non-singular, and banded (its phases' strides).
 * With X = G^-1 H and the Schur complement S = M_O - M_A X (nf x nf):
 *   y L = r:  y_M = (r_O - r_A X) S^-1,  y_A = (r_A - y_M M_A) G^-1;
 *   L z = b:  w = G^-1 b_A, z_O = S^-1 (b_M - M_A w), z_A = w - X z_O.
 * G is equilibrated as fluid_fact.c does (equations by the phase law's
 * frame, unknowns by their largest entry) and factored by band LU with
 * partial pivoting (dgbtrf, 2 na kb (2 kb) flops, kb its bandwidth in
 * the atoms' order) or dense LU when the band is wide; S by fl_fact
 * (fluid_fact.c).  Time 4 na kb^2 + nf solves of G (6 na kb each) + 2 nf^2
 * na, where the dense block costs 2/3 P^3: at 4,096 phases in three
 * classes of 15 (kb = 256, nf = 76) 0.6e9 flops against 46e9. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

#include "bb_error.h"
#include "fluid_int.h"
#include "parfor.h"
#include "lapackf.h"

/* atoms from which a wide band is factored sparse rather than dense */
#define FAR_SPARSE_MIN 256

int
fl_far_choose(const bba_fluid *m, int top, long nf, long na, long jd, long *jf)
{
    int at_top = top ? FL_DOWN : FL_UP; /* the kind of the non-atom phases */

    *jf = jd;
    if (!(nf > 0 && na > 0 && 4 * nf <= m->P))
        return 0;
    if (m->cls[jd] != at_top) {
        *jf = -1;
        for (long ph = 0; ph < m->P; ph++)
            if (m->cls[ph] == at_top && (*jf < 0 || m->pi[ph] > m->pi[*jf]))
                *jf = ph;
        if (*jf < 0) {
            *jf = jd;
            return 0;
        }
    }
    return 1;
}

void
fl_far_free(fl_far *F)
{
    if (F == NULL)
        return;
    free(F->eq);
    free(F->G);
    free(F->gpiv);
    free(F->gr);
    free(F->gc);
    free(F->X);
    free(F->MA);
    free(F->Ap);
    free(F->Ai);
    free(F->Ax);
    if (F->num != NULL)
        umfpack_di_free_numeric(&F->num);
    fl_fact_free(&F->S);
    memset(F, 0, sizeof *F);
}

double
fl_pow2_inv(double x)
{
    int e;

    if (!(x > 0.0) || !isfinite(x))
        return 1.0;
    frexp(x, &e);
    return ldexp(1.0, -e > 900 ? 900 : (-e < -900 ? -900 : -e));
}

/* Sparse: nrhs columns of na (stride ld) solved in place with G~ (sys
 * UMFPACK_A) or its transpose (UMFPACK_At), the columns over the
 * processors (parfor.h): umfpack_di_wsolve takes the factors as input,
 * not modified, and allocates nothing, so each chunk gives its own
 * workspace; a column whose solve fails (memory) becomes NaN, which the
 * solution's residual then refuses. */
typedef struct {
    const fl_far *F;
    int sys;
    double *x;
    long ld;
} g_cols;

static int
g_cols_chunk(void *ctx, long lo, long hi, int tid)
{
    const g_cols *J = ctx;
    const fl_far *F = J->F;
    long n = F->na;
    /* the right side, then wsolve's W: n doubles, as UMFPACK_IRSTEP is 0
     * (g_factor_sparse; 5 n with refinement) */
    double *b = malloc((size_t)n * 2 * sizeof *b), info[UMFPACK_INFO];
    int *wi = malloc((size_t)n * sizeof *wi);

    (void)tid;
    for (long j = lo; j < hi; j++) {
        double *c = J->x + (size_t)j * (size_t)J->ld;

        if (b != NULL && wi != NULL) {
            memcpy(b, c, (size_t)n * sizeof *b);
            if (umfpack_di_wsolve(J->sys, F->Ap, F->Ai, F->Ax, c, b, F->num, F->ctl, info,
                                  wi, b + n) == UMFPACK_OK)
                continue;
        }
        for (long i = 0; i < n; i++)
            c[i] = NAN;
    }
    free(b);
    free(wi);
    return 0;
}

#define G_COLS_GRAIN 4   /* columns a chunk, at least: a solve is ~0.2 ms */
static void
g_solve_sparse(const fl_far *F, int sys, int nrhs, double *x, long ld)
{
    g_cols J = { F, sys, x, ld };

    bba_parfor(nrhs, G_COLS_GRAIN, g_cols_chunk, &J);
}

/* Sparse: the scaled G from nt triplets (row ti, column tj, value tx)
 * by columns, and its LU; our equilibration kept (no scaling of
 * UMFPACK's own), no refinement (the outer solve has its own). */
static int
g_factor_sparse(fl_far *F, const int *ti, const int *tj, const double *tx, int nt,
                char *err)
{
    int n = (int)F->na, st;
    void *sym = NULL;
    double info[UMFPACK_INFO];

    F->Ap = malloc((size_t)(n + 1) * sizeof *F->Ap);
    F->Ai = malloc((size_t)(nt > 0 ? nt : 1) * sizeof *F->Ai);
    F->Ax = malloc((size_t)(nt > 0 ? nt : 1) * sizeof *F->Ax);
    if (F->Ap == NULL || F->Ai == NULL || F->Ax == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the far block's %ld atoms", F->na);
    umfpack_di_defaults(F->ctl);
    F->ctl[UMFPACK_PRL] = 0;
    F->ctl[UMFPACK_SCALE] = UMFPACK_SCALE_NONE;
    F->ctl[UMFPACK_IRSTEP] = 0;
    st = umfpack_di_triplet_to_col(n, n, nt, ti, tj, tx, F->Ap, F->Ai, F->Ax, NULL);
    if (st == UMFPACK_OK)
        st = umfpack_di_symbolic(n, n, F->Ap, F->Ai, F->Ax, &sym, F->ctl, info);
    if (st == UMFPACK_OK)
        st = umfpack_di_numeric(F->Ap, F->Ai, F->Ax, sym, &F->num, F->ctl, info);
    if (sym != NULL)
        umfpack_di_free_symbolic(&sym);
    if (st == UMFPACK_ERROR_out_of_memory)
        return bb_seterr(err, BB_ENOMEM, "out of memory factoring the far block's %ld atoms",
                         F->na);
    if (st != UMFPACK_OK)
        return bb_seterr(err, BB_ESINGULAR, "fluid model: the generator of the %ld atom "
                         "phases is singular (UMFPACK status %d)", F->na, st);
    return BB_OK;
}

/* x := G^-1 x (trans 'N') or x := x G^-1 (trans 'T'), nrhs columns of
 * na, through the scaled factors: G~ = Dr G Dc */
static void
g_solve(const fl_far *F, char trans, int nrhs, double *x)
{
    int n = (int)F->na, info = 0;
    const double *pre = trans == 'N' ? F->gr : F->gc, *post = trans == 'N' ? F->gc : F->gr;

    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            x[(size_t)j * (size_t)n + (size_t)i] *= pre[i];
    if (F->band) {
        int ld = 3 * F->kb + 1;

        dgbtrs_(&trans, &n, &F->kb, &F->kb, &nrhs, F->G, &ld, F->gpiv, x, &n, &info, 1);
    } else if (F->sparse) {
        g_solve_sparse(F, trans == 'N' ? UMFPACK_A : UMFPACK_At, nrhs, x, n);
    } else {
        dgetrs_(&trans, &n, &nrhs, F->G, &n, F->gpiv, x, &n, &info, 1);
    }
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            x[(size_t)j * (size_t)n + (size_t)i] *= post[i];
}

/* y += a x over n (distinct rows of one array) */
static void
row_axpy(int n, double a, const double *restrict x, double *restrict y)
{
    int one = 1;

    if (a != 0.0)
        daxpy_(&n, &a, x, &one, y, &one);
}

/* X := G^-1 X for X row-major (na x nrhs), through the scaled factors:
 * on the band path the LU of dgbtrf applied as dgbtrs does, but one row
 * update over all right-hand sides at a time (contiguous: dgbtrs goes
 * column by column at level 2); dense: through a column-major copy */
static int
g_solve_rows(const fl_far *F, int nrhs, double *X)
{
    long n = F->na;

    for (long i = 0; i < n; i++)
        for (int k = 0; k < nrhs; k++)
            X[i * nrhs + k] *= F->gr[i];
    if (F->band) {
        long kl = F->kb, kd = 2 * F->kb, ld = 3 * F->kb + 1;
        const double *AB = F->G;

        for (long j = 0; j + 1 < n; j++) {
            long lm = kl < n - 1 - j ? kl : n - 1 - j, l = F->gpiv[j] - 1;
            double *xj = X + j * nrhs;

            if (l != j)
                for (int k = 0; k < nrhs; k++) {
                    double t = xj[k];

                    xj[k] = X[l * nrhs + k];
                    X[l * nrhs + k] = t;
                }
            for (long r = 1; r <= lm; r++)
                row_axpy(nrhs, -AB[kd + r + j * ld], xj, X + (j + r) * nrhs);
        }
        for (long j = n - 1; j >= 0; j--) {
            double *xj = X + j * nrhs, dj = AB[kd + j * ld];

            for (int k = 0; k < nrhs; k++)
                xj[k] /= dj;
            for (long r = 1; r <= kd && r <= j; r++)
                row_axpy(nrhs, -AB[kd - r + j * ld], xj, X + (j - r) * nrhs);
        }
    } else {
        int nn = (int)n, info = 0;
        double *t = malloc((size_t)n * (size_t)nrhs * sizeof *t);

        if (t == NULL)
            return BB_ENOMEM;
        for (long i = 0; i < n; i++)
            for (int k = 0; k < nrhs; k++)
                t[i + (size_t)k * (size_t)n] = X[i * nrhs + k];
        if (F->sparse)
            g_solve_sparse(F, UMFPACK_A, nrhs, t, n);
        else
            dgetrs_("N", &nn, &nrhs, F->G, &nn, F->gpiv, t, &nn, &info, 1);
        for (long i = 0; i < n; i++)
            for (int k = 0; k < nrhs; k++)
                X[i * nrhs + k] = t[i + (size_t)k * (size_t)n];
        free(t);
    }
    for (long i = 0; i < n; i++)
        for (int k = 0; k < nrhs; k++)
            X[i * nrhs + k] *= F->gc[i];
    return BB_OK;
}

int
fl_far_build(const bba_fluid *m, const fl_spec *sp, int top, double sg, long nf,
             const long *fmode, long na, const long *fatom, long jf, const double *lf,
             fl_far *F, char *err)
{
    long P = m->P, Pm = P - 1, *pos = NULL, no = 0;
    double *row = NULL, *H = NULL, *Sb = NULL, *sco = NULL, *tx = NULL;
    int rc = BB_OK, n = (int)na, info = 0, *ti = NULL, *tj = NULL, nt = 0;

    memset(F, 0, sizeof *F);
    F->P = P;
    F->nf = nf;
    F->na = na;
    if (nf + na != Pm || na <= 0 || nf <= 0)
        return bb_seterr(err, BB_EDATA, "fluid model: a far block of %ld modes and %ld "
                         "atoms for %ld phases", nf, na, P);
    pos = malloc((size_t)P * sizeof *pos);
    row = malloc((size_t)P * sizeof *row);
    F->eq = malloc((size_t)Pm * sizeof *F->eq);
    F->gr = malloc((size_t)na * sizeof *F->gr);
    F->gc = malloc((size_t)na * sizeof *F->gc);
    F->gpiv = malloc((size_t)na * sizeof *F->gpiv);
    F->X = malloc((size_t)na * (size_t)nf * sizeof *F->X);
    F->MA = malloc((size_t)nf * (size_t)na * sizeof *F->MA);
    H = F->X;
    Sb = malloc((size_t)nf * (size_t)nf * sizeof *Sb);
    sco = malloc((size_t)nf * sizeof *sco);
    if (pos == NULL || row == NULL || F->eq == NULL || F->gr == NULL || F->gc == NULL ||
        F->gpiv == NULL || F->X == NULL || F->MA == NULL || Sb == NULL ||
        sco == NULL)
        goto nomem;
    /* pos[phase]: its atom rank (>= 0), -1 - its rank among E_O, or
     * P for the dropped equation jf; eq[e] the same for the equations */
    for (long ph = 0; ph < P; ph++)
        pos[ph] = -1;
    for (long i = 0; i < na; i++)
        pos[fatom[i]] = i;
    if (pos[jf] >= 0) {
        rc = bb_seterr(err, BB_EDATA, "fluid model: the far block drops the equation of "
                       "an atom phase");
        goto out;
    }
    for (long ph = 0, e = 0; ph < P; ph++) {
        if (ph == jf)
            continue;
        if (pos[ph] < 0)
            pos[ph] = -1 - no++;
        F->eq[e++] = pos[ph];
    }
    pos[jf] = P;
    if (no != nf) {
        rc = bb_seterr(err, BB_EDATA, "fluid model: %ld far equations for %ld far modes",
                       no, nf);
        goto out;
    }
    /* G's bandwidth in the atoms' order */
    F->kb = 0;
    for (long i = 0; i < na; i++)
        for (int c = 0; c < m->C; c++) {
            long st = m->stride[c], ph = fatom[i];
            long mc = (ph / st) % (m->N[c] + 1);

            if (mc < m->N[c] && pos[ph + st] >= 0 && pos[ph + st] < P &&
                pos[ph + st] - i > F->kb)
                F->kb = (int)(pos[ph + st] - i);
            if (mc > 0 && pos[ph - st] >= 0 && pos[ph - st] < P && i - pos[ph - st] > F->kb)
                F->kb = (int)(i - pos[ph - st]);
        }
    F->band = 6.0 * (double)F->kb * (double)F->kb < (double)na * (double)na;
    F->sparse = !F->band && na >= FAR_SPARSE_MIN;
    if (F->sparse) {
        size_t cap = (size_t)na * (size_t)(2 * m->C + 1);

        ti = malloc(cap * sizeof *ti);
        tj = malloc(cap * sizeof *tj);
        tx = malloc(cap * sizeof *tx);
        if (ti == NULL || tj == NULL || tx == NULL)
            goto nomem;
    } else {
        size_t gsz = F->band ? (size_t)(3 * F->kb + 1) * (size_t)na : (size_t)na * (size_t)na;

        F->G = calloc(gsz, sizeof *F->G);
        if (F->G == NULL)
            goto nomem;
    }
    /* equation scales (the law's frame at this end), then G and H from
     * the atoms' generator rows, each row by its largest scaled entry */
    for (long i = 0; i < na; i++)
        F->gc[i] = fl_phase_scale(lf[fatom[i]]);
    memset(H, 0, (size_t)na * (size_t)nf * sizeof *H);
    for (long i = 0; i < na; i++) {
        double big = 0.0;
        long ph = fatom[i];

        fl_q_row(m, ph, row, top);
        row[ph] *= sg;
        big = fabs(row[ph]) * F->gc[i];
        for (int c = 0; c < m->C; c++)
            for (int dir = -1; dir <= 1; dir += 2) {
                long mc = (ph / m->stride[c]) % (m->N[c] + 1), nb = ph + dir * m->stride[c];

                if ((dir > 0 && mc == m->N[c]) || (dir < 0 && mc == 0))
                    continue;
                row[nb] *= sg;
                if (pos[nb] >= 0 && pos[nb] < P)
                    big = fmax(big, fabs(row[nb]) * F->gc[pos[nb]]);
            }
        F->gr[i] = fl_pow2_inv(big);
        for (int c = -1; c < m->C; c++)
            for (int dir = -1; dir <= 1; dir += 2) {
                long nb = ph, j;

                if (c >= 0) {
                    long mc = (ph / m->stride[c]) % (m->N[c] + 1);

                    if ((dir > 0 && mc == m->N[c]) || (dir < 0 && mc == 0))
                        continue;
                    nb = ph + dir * m->stride[c];
                } else if (dir > 0) {
                    continue;
                }
                j = pos[nb];
                if (j == P)
                    continue;
                if (j >= 0) {
                    double v = row[nb] * F->gr[i] * F->gc[j];

                    if (F->band) {
                        F->G[(size_t)(2 * F->kb + i - j) + (size_t)j * (size_t)(3 * F->kb + 1)] = v;
                    } else if (F->sparse) {
                        ti[nt] = (int)i;
                        tj[nt] = (int)j;
                        tx[nt++] = v;
                    } else
                        F->G[(size_t)i + (size_t)j * (size_t)na] = v;
                } else {
                    H[(size_t)i * (size_t)nf + (size_t)(-1 - j)] = row[nb];
                }
            }
    }
    if (F->sparse) {
        if ((rc = g_factor_sparse(F, ti, tj, tx, nt, err)) != BB_OK)
            goto out;
    } else if (F->band) {
        int ld = 3 * F->kb + 1;

        dgbtrf_(&n, &n, &F->kb, &F->kb, F->G, &ld, F->gpiv, &info);
    } else {
        dgetrf_(&n, &n, F->G, &n, F->gpiv, &info);
    }
    if (info != 0) {
        rc = bb_seterr(err, BB_ESINGULAR, "fluid model: the generator of the %ld atom "
                       "phases at %s is singular (pivot %d)", na, top ? "S" : "0", info);
        goto out;
    }
    /* X = G^-1 H (in place, row-major) */
    if (g_solve_rows(F, (int)nf, F->X) != BB_OK)
        goto nomem;
    /* M_A, and M_O into S; S = M_O - M_A X */
    for (long u = 0; u < nf; u++) {
        const double *ph = sp->phi + (size_t)fmode[u] * (size_t)P;

        for (long f = 0; f < P; f++) {
            long j = pos[f];
            double v = ph[f] * sp->d[f];

            if (j == P)
                continue;
            if (j >= 0)
                F->MA[(size_t)u + (size_t)j * (size_t)nf] = v;
            else
                Sb[(size_t)u + (size_t)(-1 - j) * (size_t)nf] = v;
        }
    }
    {
        int inf = (int)nf, ina = (int)na;
        double mone = -1.0, one = 1.0;

        dgemm_("N", "T", &inf, &inf, &ina, &mone, F->MA, &inf, F->X, &inf, &one, Sb, &inf,
               1, 1);
    }
    for (long f = 0; f < P; f++)
        if (pos[f] < 0)
            sco[-1 - pos[f]] = fl_phase_scale(lf[f]);
    rc = fl_fact_build(&F->S, Sb, (int)nf, sco, NULL, NULL, err);
    Sb = NULL;
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the far block of %ld phases", P);
out:
    free(pos);
    free(row);
    free(Sb);
    free(sco);
    free(ti);
    free(tj);
    free(tx);
    if (rc != BB_OK)
        fl_far_free(F);
    return rc;
}

void
fl_far_solve_T(const fl_far *F, double *x, double *wk)
{
    long nf = F->nf, na = F->na, Pm = nf + na;
    double *rA = wk, *rO = wk + na, mone = -1.0, one = 1.0;
    int inf = (int)nf, ina = (int)na, inc = 1;

    for (long e = 0; e < Pm; e++) {
        long j = F->eq[e];

        if (j >= 0)
            rA[j] = x[e];
        else
            rO[-1 - j] = x[e];
    }
    /* y_M = (r_O - r_A X) S^-1 */
    dgemv_("N", &inf, &ina, &mone, F->X, &inf, rA, &inc, &one, rO, &inc, 1);
    fl_fact_solve_T(&F->S, 1, rO, inf);
    /* y_A = (r_A - y_M M_A) G^-1 */
    dgemv_("T", &inf, &ina, &mone, F->MA, &inf, rO, &inc, &one, rA, &inc, 1);
    g_solve(F, 'T', 1, rA);
    memcpy(x, rO, (size_t)nf * sizeof *x);
    memcpy(x + nf, rA, (size_t)na * sizeof *x);
}

void
fl_far_solve_N(const fl_far *F, int nrhs, double *B, int ldb, double *wk)
{
    long nf = F->nf, na = F->na, Pm = nf + na;
    double *w = wk, *zO = wk + na, mone = -1.0, one = 1.0;
    int inf = (int)nf, ina = (int)na, inc = 1;

    for (int k = 0; k < nrhs; k++) {
        double *b = B + (size_t)k * (size_t)ldb;
        int any = 0;

        memcpy(zO, b, (size_t)nf * sizeof *zO);
        for (long i = 0; i < na; i++) {
            w[i] = b[nf + i];
            any |= w[i] != 0.0;
        }
        if (any) {
            g_solve(F, 'N', 1, w);
            dgemv_("N", &inf, &ina, &mone, F->MA, &inf, w, &inc, &one, zO, &inc, 1);
        }
        fl_fact_solve_N(&F->S, 1, zO, inf);
        dgemv_("T", &inf, &ina, &mone, F->X, &inf, zO, &inc, &one, w, &inc, 1);
        for (long e = 0; e < Pm; e++) {
            long j = F->eq[e];

            b[e] = j >= 0 ? w[j] : zO[-1 - j];
        }
    }
}
