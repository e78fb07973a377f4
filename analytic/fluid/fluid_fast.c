/* fluid_fast.c: the greedy fast path of the fluid model's boundary
 * conditions (fluid_solve.c states them): the two boundary blocks
 * factored once, then each size by a low-rank correction.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fl_solve_fast (greedy): with the boundary where the mean drift pushes
 * the content called near (0 when it is <= 0, else S), the near block L_n
 * (near modes and atoms x phases) is square of rank P - 1 and the far
 * block L_f has full row rank P - 1, independent of S.  Their factors
 * are computed once, each block in the frame of the phase law at its end
 * (fluid_fact.c: pi at 0, the law of Q^S at S), so that the atoms and
 * densities of phases of probability 1e-80 keep their own accuracy.  With R_i = (phi_i D) L_f^-1 and W_j = (phi_j D)
 * [L_n | c]^-1 (c: the near atoms' sum), the far unknowns are
 * y_f = -(sum_i a_i e^{-|z_i| S} phi_i D) L_f^-1 (one triangular solve)
 * and the near ones
 *   y_n = y_inf + t (I - W rho)^-1 W,  rho_ij = e^{-|z_i| S} R_i,j e^{-|z_j| S}
 * (Sherman-Morrison-Woodbury), where rho is restricted to the modes with
 * e^{-(|z_i| + |z_j|) S} > e^-46 and formed as (phi_i D) (L_f^-1 e_j):
 * O(r_n r_f P + r_f^3) per size for r_n near and r_f far modes coupled;
 * each W_j and L_f^-1 e_j (4 P^2 flops) is computed the first time a size
 * couples far mode j.  Then up to two steps of iterative refinement on
 * both blocks together (at REFINE_STEPS below).  The far block, when its modes
 * are few, is not factored dense but reduced through its atoms
 * (fluid_far.c), its dropped equation then a non-atom phase's (jf).  The
 * near block is not factored either where no phase leaves it: its solves
 * go through the modes' biorthogonality (fluid_near.c, an na x na system
 * for its atoms and a projection per mode), where that is backward
 * stable componentwise; else it is factored dense (2/3 P^3). */
#include "config.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"
#include "lapackf.h"

/* Couplings below e^-LAMBDA relative to the terms they join are dropped
 * (4e-21: below the rounding of the O(1) terms) */
#define LAMBDA 46.0

/* ---- the greedy fast path ------------------------------------------------ */

typedef struct fl_fast {
    int refl;           /* 1: the near boundary is S */
    long P, nn, nf;     /* near modes, far modes */
    long *nmode, *fmode;/* spectrum indices, |z| ascending */
    double *zn, *zf;    /* their |z| */
    long na_n, na_f;    /* near and far atoms */
    long *natom, *fatom;
    long jd;            /* dropped column (the near block's, and the far's
                           when dense) */
    long jf;            /* the far block's dropped column */
    int schur;          /* the far block reduced through its atoms (Fs) */
    fl_fact Fn, Ff;     /* the blocks' factors (fluid_fact.c), rows = unknowns */
    int proj;           /* the near block solved by projection (Np) */
    fl_near Np;         /* fluid_near.c */
    fl_far Fs;          /* the far block when schur (fluid_far.c) */
    double *yinf;       /* P */
    double *W;          /* P x nf, column j: [phi_j D | 0] [L_n | c]^-1 */
    double *Z;          /* (P-1) x nf, column j: L_f^-1 e_j */
    double *C;          /* nn x nf, column j: (phi_i D) Z_j, near modes by |z| */
    long nW;            /* columns of W and Z computed */
} fl_fast;

void
fl_fast_free(fl_fast *f)
{
    if (f == NULL)
        return;
    free(f->nmode);
    free(f->fmode);
    free(f->zn);
    free(f->zf);
    free(f->natom);
    free(f->fatom);
    fl_fact_free(&f->Fn);
    fl_near_free(&f->Np);
    fl_fact_free(&f->Ff);
    fl_far_free(&f->Fs);
    free(f->yinf);
    free(f->W);
    free(f->Z);
    free(f->C);
    free(f);
}

/* row of mode k, phi_k D without column jd, into out (P - 1) */
static void
mode_flux(const fl_spec *sp, long P, long k, long jd, double *out)
{
    const double *ph = sp->phi + (size_t)k * (size_t)P;

    for (long f = 0, a = 0; f < P; f++)
        if (f != jd)
            out[a++] = ph[f] * sp->d[f];
}

/* One boundary block, column-major with rows = unknowns: the near (or
 * far) modes' phi D, then the atoms' -Q rows at 0 or +Q^S rows at S, over
 * the phases but jd; the near block has one more column, c, the atoms'
 * sum.  row: P doubles. */
static void
fill_block(const bba_fluid *m, const fl_fast *f, int near, double *L, double *row)
{
    const fl_spec *sp = m->greedy;
    long P = f->P, Pm = P - 1, ld = near ? P : Pm;
    long nmod = near ? f->nn : f->nf, nat = near ? f->na_n : f->na_f;
    const long *mode = near ? f->nmode : f->fmode, *atom = near ? f->natom : f->fatom;
    double sg = (near == !f->refl) ? -1.0 : 1.0;

    /* the modes' rows, a transpose: in tiles of 32 modes x 256 phases,
     * whose source rows stay in cache while the columns are written */
    for (long i0 = 0; i0 < nmod; i0 += 32) {
        long i1 = i0 + 32 < nmod ? i0 + 32 : nmod;

        for (long p0 = 0; p0 < P; p0 += 256) {
            long p1 = p0 + 256 < P ? p0 + 256 : P;

            for (long ph = p0; ph < p1; ph++) {
                long e = ph < f->jd ? ph : ph - 1;
                double *col = L + (size_t)e * (size_t)ld;

                if (ph == f->jd)
                    continue;
                for (long i = i0; i < i1; i++)
                    col[i] = sp->phi[(size_t)mode[i] * (size_t)P + (size_t)ph] * sp->d[ph];
            }
        }
        if (near)
            for (long i = i0; i < i1; i++)
                L[(size_t)i + (size_t)Pm * (size_t)ld] = 0.0;
    }
    for (long i = 0; i < nat; i++) {
        long u = nmod + i;

        fl_q_row(m, atom[i], row, sg > 0.0);
        for (long ph = 0, e = 0; ph < P; ph++)
            if (ph != f->jd)
                L[(size_t)u + (size_t)(e++) * (size_t)ld] = sg * row[ph];
        if (near)
            L[(size_t)u + (size_t)Pm * (size_t)ld] = 1.0;
    }
}

/* columns of B (by equation) -> by unknown, y [L_n | c] = b: by
 * projection or through the factors; BB_ENOMEM */
static int
near_T(const fl_fast *f, int nrhs, double *B, int ldb, double *wk)
{
    double *own = NULL;
    int rc;

    if (!f->proj) {
        fl_fact_solve_T(&f->Fn, nrhs, B, ldb);
        return BB_OK;
    }
    if (wk == NULL && (wk = own = malloc((size_t)3 * (size_t)f->P * sizeof *wk)) == NULL)
        return BB_ENOMEM;
    rc = fl_near_solve_T(&f->Np, nrhs, B, ldb, wk);
    free(own);
    return rc;
}

static int
fast_build(const bba_fluid *m, fl_fast **out, char *err)
{
    const fl_spec *sp = m->greedy;
    long P = m->P, Pm = P - 1;
    fl_fast *f = calloc(1, sizeof *f);
    double *row = NULL, *Ln = NULL, *Lf = NULL, *sc = NULL;
    int rc = BB_OK;

    if (f == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fluid factors");
    f->P = P;
    f->refl = sp->drift > 0.0;
    f->jd = fl_drop_col(m);
    f->nn = f->refl ? sp->m - sp->mneg : sp->mneg;
    f->nf = sp->m - f->nn;
    f->na_n = fl_atoms(m, f->refl, NULL);
    f->na_f = fl_atoms(m, !f->refl, NULL);
    f->nmode = malloc((size_t)(f->nn + 1) * sizeof *f->nmode);
    f->fmode = malloc((size_t)(f->nf + 1) * sizeof *f->fmode);
    f->zn = malloc((size_t)(f->nn + 1) * sizeof *f->zn);
    f->zf = malloc((size_t)(f->nf + 1) * sizeof *f->zf);
    f->natom = malloc((size_t)(f->na_n + 1) * sizeof *f->natom);
    f->fatom = malloc((size_t)(f->na_f + 1) * sizeof *f->fatom);
    sc = malloc((size_t)4 * (size_t)P * sizeof *sc);
    f->yinf = calloc((size_t)P, sizeof *f->yinf);
    f->W = bba_big_alloc((size_t)P * (size_t)(f->nf + 1) * sizeof *f->W, 0);
    f->Z = bba_big_alloc((size_t)P * (size_t)(f->nf + 1) * sizeof *f->Z, 0);
    f->C = bba_big_alloc((size_t)(f->nn + 1) * (size_t)(f->nf + 1) * sizeof *f->C, 0);
    row = malloc((size_t)P * sizeof *row);
    if (f->nmode == NULL || f->fmode == NULL || f->zn == NULL || f->zf == NULL ||
        f->natom == NULL || f->fatom == NULL ||
        sc == NULL || f->yinf == NULL || f->W == NULL || f->Z == NULL || f->C == NULL ||
        row == NULL) {
        free(Ln);
        free(Lf);
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the fluid factors of %ld "
                       "phases (%.3g GB)", P, 4.0 * (double)P * (double)P * 8.0 / 1e9);
        goto out;
    }
    fl_atoms(m, f->refl, f->natom);
    fl_atoms(m, !f->refl, f->fatom);
    /* modes by |z| ascending: left-scaled ones are z < 0, descending index */
    for (long i = 0; i < sp->mneg; i++) {
        long k = sp->mneg - 1 - i;

        if (f->refl) {
            f->fmode[i] = k;
            f->zf[i] = fabs(sp->z[k]);
        } else {
            f->nmode[i] = k;
            f->zn[i] = fabs(sp->z[k]);
        }
    }
    for (long i = 0; i < sp->m - sp->mneg; i++) {
        long k = sp->mneg + i;

        if (f->refl) {
            f->nmode[i] = k;
            f->zn[i] = fabs(sp->z[k]);
        } else {
            f->fmode[i] = k;
            f->zf[i] = fabs(sp->z[k]);
        }
    }
    if (f->nn + f->na_n != P || f->nf + f->na_f != Pm) {
        rc = bb_seterr(err, BB_EDATA, "fluid model: %ld + %ld near and %ld + %ld far "
                       "unknowns for %ld phases", f->nn, f->na_n, f->nf, f->na_f, P);
        goto out;
    }
    /* equations by 1 / the phase law at their end (fluid_fact.c): pi at
     * 0, the law of Q^S at S (the writers there wait, and the phases far
     * above B are far likelier at S than under pi; fl_top_lpi: the law or
     * its estimate, a scale needing only its magnitude); the near atoms' sum
     * as it is.  Phases too rare at an end for any measure: their
     * equations, their atoms and the modes counted for them (fl_spec.home)
     * leave that end's block. */
    {
        double *lz = sc + P, *ls = sc + 2 * P, *sf = sc + 3 * P;
        const double *ln = f->refl ? ls : lz, *lf = f->refl ? lz : ls;
        char *cn = calloc((size_t)4 * (size_t)P, 1), *cf = cn + P, *rn = cn + 2 * P;
        char *rf = cn + 3 * P;
        int home = sp->home != NULL, rare = 0;

        if (cn == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for the fluid factors");
            goto out;
        }
        fl_phase_lpi(m, lz);
        rc = fl_top_lpi(m, ls, err);
        if (rc != BB_OK) {
            free(cn);
            goto out;
        }
        for (long ph = 0, e = 0; ph < P; ph++)
            if (ph != f->jd) {
                sc[e] = fl_phase_scale(ln[ph]);
                sf[e] = fl_phase_scale(lf[ph]);
                cn[e] = home && ln[ph] < FL_LPI_MIN;
                cf[e] = home && lf[ph] < FL_LPI_MIN;
                e++;
            }
        sc[Pm] = 1.0;
        for (long i = 0; home && i < f->nn; i++)
            rn[i] = ln[sp->home[f->nmode[i]]] < FL_LPI_MIN;
        for (long i = 0; home && i < f->na_n; i++)
            rn[f->nn + i] = ln[f->natom[i]] < FL_LPI_MIN;
        for (long i = 0; home && i < f->nf; i++)
            rf[i] = lf[sp->home[f->fmode[i]]] < FL_LPI_MIN;
        for (long i = 0; home && i < f->na_f; i++)
            rf[f->nf + i] = lf[f->fatom[i]] < FL_LPI_MIN;
        /* the near block by projection (fluid_near.c) where no phase
         * leaves it; else L_n: rows near modes then near atoms, columns
         * the phases but jd, then c (the near atoms' sum), factored */
        for (long e = 0; e < P; e++)
            rare |= cn[e] | rn[e];
        f->proj = !rare && fl_near_build(m, sp, f->refl, f->refl ? 1.0 : -1.0, f->nn,
                                         f->nmode, f->na_n, f->natom, f->nf, f->fmode,
                                         f->jd, &f->Np, NULL) == BB_OK;
        rare = 0;
        if (!f->proj) {
            Ln = bba_big_alloc((size_t)P * (size_t)P * sizeof *Ln, 0);
            if (Ln == NULL)
                rc = bb_seterr(err, BB_ENOMEM, "out of memory for the fluid factors of "
                               "%ld phases", P);
            else
                fill_block(m, f, 1, Ln, row);
        }
        if (rc == BB_OK && !f->proj)
            rc = fl_fact_build(&f->Fn, Ln, (int)P, sc, rn, cn, err);
        Ln = NULL;
        f->jf = f->jd;
        f->schur = 0;
        for (long ph = 0; rc == BB_OK && home && ph < P; ph++)
            rare |= lf[ph] < FL_LPI_MIN;
        f->schur = rc == BB_OK && !rare &&
                   fl_far_choose(m, !f->refl, f->nf, f->na_f, f->jd, &f->jf);
        if (rc == BB_OK && f->schur) {
            rc = fl_far_build(m, sp, !f->refl, f->refl ? -1.0 : 1.0, f->nf, f->fmode,
                              f->na_f, f->fatom, f->jf, lf, &f->Fs, err);
            /* the dense block then (its factorisation is rank-revealing) */
            if (rc == BB_ESINGULAR) {
                rc = BB_OK;
                f->schur = 0;
                f->jf = f->jd;
            }
        }
        if (rc == BB_OK && !f->schur) {
            Lf = bba_big_alloc((size_t)(Pm > 0 ? Pm : 1) * (size_t)(Pm > 0 ? Pm : 1) *
                               sizeof *Lf, 0);
            if (Lf == NULL)
                rc = bb_seterr(err, BB_ENOMEM, "out of memory for the fluid factors of %ld "
                               "phases", P);
            else
                fill_block(m, f, 0, Lf, row);
        }
        if (rc == BB_OK && !f->schur)
            rc = fl_fact_build(&f->Ff, Lf, (int)Pm, sf, rf, cf, err);
        Lf = NULL;
        free(cn);
    }
    if (rc != BB_OK)
        goto out;
    f->yinf[P - 1] = 1.0;
    rc = near_T(f, 1, f->yinf, (int)P, NULL);
out:
    free(row);
    free(sc);
    if (rc != BB_OK)
        fl_fast_free(f);
    else
        *out = f;
    return rc;
}

/* The spectrum rows of the first n near (or far) modes, |z| ascending,
 * are contiguous: ascending index for the modes with z > 0, descending for
 * z < 0 (the near ones unless reflected).  first_row gives the block's
 * first index, row_of the block position of the i-th mode. */
static long
first_row(const fl_fast *f, const fl_spec *sp, int near, long n)
{
    return (near == !f->refl) ? sp->mneg - n : sp->mneg;
}

static long
row_of(const fl_fast *f, int near, long n, long i)
{
    return (near == !f->refl) ? n - 1 - i : i;
}

/* compute W, Z and C columns up to nw (m->lock held); BB_ENOMEM */
static int
fast_extend(const bba_fluid *m, fl_fast *f, long nw)
{
    const fl_spec *sp = m->greedy;
    long P = f->P, Pm = P - 1;
    int nP = (int)P, nPm = (int)Pm, cnt;
    long to;

    if (nw > f->nf)
        nw = f->nf;
    if (nw <= f->nW)
        return BB_OK;
    /* a quarter beyond the need: nearby sizes couple nearby modes */
    to = nw + nw / 4 > f->nf ? f->nf : nw + nw / 4;
    cnt = (int)(to - f->nW);
    for (long j = f->nW; j < to; j++) {
        double *c = f->W + (size_t)j * (size_t)P, *zc = f->Z + (size_t)j * (size_t)Pm;

        if (!f->proj) {
            mode_flux(sp, P, f->fmode[j], f->jd, c);
            c[Pm] = 0.0;
        }
        memset(zc, 0, (size_t)Pm * sizeof *zc);
        zc[j] = 1.0;
    }
    if (f->proj ? fl_near_far_flux(&f->Np, f->nW, cnt, f->W + (size_t)f->nW * (size_t)P, nP)
                : near_T(f, cnt, f->W + (size_t)f->nW * (size_t)P, nP, NULL))
        return BB_ENOMEM;
    if (f->schur) {
        double *wk = malloc((size_t)P * sizeof *wk);

        if (wk == NULL)
            return BB_ENOMEM;
        fl_far_solve_N(&f->Fs, cnt, f->Z + (size_t)f->nW * (size_t)Pm, nPm, wk);
        free(wk);
    } else {
        fl_fact_solve_N(&f->Ff, cnt, f->Z + (size_t)f->nW * (size_t)Pm, nPm);
    }
    /* C_ij = (phi_i D) Z_j over the whole near block (rho's entries but
     * their decay at a size) */
    if (f->nn > 0) {
        int inn = (int)f->nn;
        double one = 1.0, zero = 0.0;
        double *DZ = malloc((size_t)P * (size_t)cnt * sizeof *DZ);
        double *Cb = malloc((size_t)f->nn * (size_t)cnt * sizeof *Cb);

        if (DZ == NULL || Cb == NULL) {
            free(DZ);
            free(Cb);
            return BB_ENOMEM;
        }
        for (long j = 0; j < cnt; j++) {
            const double *zc = f->Z + (size_t)(f->nW + j) * (size_t)Pm;

            for (long ph = 0, e = 0; ph < P; ph++)
                DZ[(size_t)j * (size_t)P + (size_t)ph] = ph == f->jf ? 0.0 : sp->d[ph] * zc[e++];
        }
        dgemm_("T", "N", &inn, &cnt, &nP, &one,
               sp->phi + (size_t)first_row(f, sp, 1, f->nn) * (size_t)P, &nP, DZ, &nP, &zero,
               Cb, &inn, 1, 1);
        for (long j = 0; j < cnt; j++)
            for (long i = 0; i < f->nn; i++)
                f->C[(size_t)i + (size_t)(f->nW + j) * (size_t)f->nn] =
                    Cb[(size_t)row_of(f, 1, f->nn, i) + (size_t)j * (size_t)f->nn];
        free(DZ);
        free(Cb);
    }
    f->nW = to;
    return BB_OK;
}

/* out (P) = (sum_i c_i phi_mode(i)) D over the first n near or far modes
 * (trailing zero weights, which the decay across a large buffer gives,
 * left out: exact); mod, unless NULL, the moduli of its terms */
static void
mode_combo(const fl_fast *f, const fl_spec *sp, int near, long n, const double *c,
           double *cr, double *out, double *mod)
{
    long P = f->P;
    int nP = (int)P, in, inc = 1;
    double one = 1.0, zero = 0.0;

    while (n > 0 && c[n - 1] == 0.0)
        n--;
    in = (int)n;
    if (mod != NULL)
        memset(mod, 0, (size_t)P * sizeof *mod);
    if (n == 0) {
        memset(out, 0, (size_t)P * sizeof *out);
        return;
    }
    if (mod == NULL) {
        for (long i = 0; i < n; i++)
            cr[row_of(f, near, n, i)] = c[i];
        dgemv_("N", &nP, &in, &one, sp->phi + (size_t)first_row(f, sp, near, n) * (size_t)P,
               &nP, cr, &inc, &zero, out, &inc, 1);
    } else {
        /* one pass for both, four phases a step (straight-line code that
         * the compiler turns into vector operations) */
        memset(out, 0, (size_t)P * sizeof *out);
        for (long i = 0; i < n; i++) {
            const double *restrict ph =
                sp->phi + (size_t)(first_row(f, sp, near, n) + row_of(f, near, n, i)) * (size_t)P;
            double ci = c[i], ai = fabs(ci);
            long g = 0;

            for (; g + 4 <= P; g += 4) {
                out[g] += ci * ph[g];
                out[g + 1] += ci * ph[g + 1];
                out[g + 2] += ci * ph[g + 2];
                out[g + 3] += ci * ph[g + 3];
                mod[g] += ai * fabs(ph[g]);
                mod[g + 1] += ai * fabs(ph[g + 1]);
                mod[g + 2] += ai * fabs(ph[g + 2]);
                mod[g + 3] += ai * fabs(ph[g + 3]);
            }
            for (; g < P; g++) {
                out[g] += ci * ph[g];
                mod[g] += ai * fabs(ph[g]);
            }
        }
        for (long g = 0; g < P; g++)
            mod[g] *= fabs(sp->d[g]);
    }
    for (long ph = 0; ph < P; ph++)
        out[ph] *= sp->d[ph];
}

/* One size's near system y M = b, M = [L_n' | c] - (the far modes'
 * coupling, rank cf), solved by Sherman-Morrison-Woodbury. */
typedef struct {
    const fl_fast *f;
    const fl_spec *sp;
    long cn, cf;
    double *rho;   /* cn x cf */
    double *K;     /* LU of I - W rho, cf x cf column-major */
    int *piv;
} near_sys;

/* g := g M^-1 (g: P; t: P doubles, wk 5 P) */
static void
near_solve(const near_sys *ns, double *g, double *t, double *wk)
{
    const fl_fast *f = ns->f;
    int nP = (int)f->P, one = 1, info = 0, ncf = (int)ns->cf;

    near_T(f, 1, g, nP, wk);
    if (ns->cf == 0)
        return;
    for (long j = 0; j < ns->cf; j++) {
        double acc = 0.0;

        for (long i = 0; i < ns->cn; i++)
            acc += g[i] * ns->rho[i * ns->cf + j];
        t[j] = acc;
    }
    dgetrs_("T", &ncf, &one, ns->K, &ncf, ns->piv, t, &ncf, &info, 1);
    for (long j = 0; j < ns->cf; j++) {
        const double *Wj = f->W + (size_t)j * (size_t)f->P;

        for (long u = 0; u < f->P; u++)
            g[u] += t[j] * Wj[u];
    }
}

/* The two boundary blocks at one size: y_n the near unknowns (P: near
 * modes by |z|, near atoms), y_f the far ones (P - 1) on the log scale
 * gfar = -|z_n0| S.  Equations (phases but jd; near also the atoms' sum):
 *   near: y_n [L_n' | c] + e^gfar sum_j y_f,j e^{-|z_j| S} [phi_j D | 0] = r_n
 *   far:  y_f L_f'      + sum_i y_n,i e^{-(|z_i| - |z_n0|) S} phi_i D = r_f */
typedef struct {
    const bba_fluid *m;
    near_sys ns;
    double S, gfar;
    long cr;          /* near modes that reach the far end */
    double *w;        /* 13 P doubles: 4 P scratch, 4 P the caller's, 5 P
                         the near block's solves */
} sys2;

/* out (P, then dropped to P - 1 in place at the caller) = the flux of one
 * block's own unknowns: modes phi D plus atoms (-l Q at 0, +u Q^S at S);
 * mod, unless NULL, += the moduli of its terms */
static void
own_flux(const sys2 *q, int near, const double *y, double *out, double *mod)
{
    const fl_fast *f = q->ns.f;
    long P = f->P, nmod = near ? f->nn : f->nf, nat = near ? f->na_n : f->na_f;
    const long *atom = near ? f->natom : f->fatom;
    double sg = (near == !f->refl) ? -1.0 : 1.0, *x = q->w + P, *tmp = q->w + 2 * P;

    mode_combo(f, q->ns.sp, near, nmod, y, q->w + 3 * P, out, mod);
    memset(x, 0, (size_t)P * sizeof *x);
    for (long i = 0; i < nat; i++)
        x[atom[i]] = y[nmod + i];
    fl_q_left(q->m, x, tmp, sg > 0.0);
    for (long ph = 0; ph < P; ph++)
        out[ph] += sg * tmp[ph];
    if (mod != NULL) {
        fl_q_left_abs(q->m, x, tmp, sg > 0.0);
        for (long ph = 0; ph < P; ph++)
            mod[ph] += tmp[ph];
    }
}

/* out (P) = the other block's modes' flux at this block's end; mod as
 * mode_combo's */
static void
cross_flux(const sys2 *q, int near, const double *yo, long n, double *out, double *mod)
{
    const fl_fast *f = q->ns.f;
    double *c = q->w + 2 * f->P;

    for (long i = 0; i < n; i++)
        c[i] = near ? yo[i] * exp(q->gfar - f->zf[i] * q->S)
                    : yo[i] * exp(-(f->zn[i] - f->zn[0]) * q->S);
    mode_combo(f, q->ns.sp, !near, n, c, q->w + 3 * f->P, out, mod);
}

/* r := r - (y's equations), both blocks; returns the componentwise
 * backward error, the largest residual of an equation over the moduli of
 * its terms (t1, t2, m1, m2: P doubles each) */
static double
residual2(const sys2 *q, const double *yn, const double *yf, double *rn, double *rf,
          double *t1, double *t2, double *m1, double *m2)
{
    const fl_fast *f = q->ns.f;
    long P = f->P;
    double sum = 0.0, sabs = 0.0, be = 0.0;

    for (int blk = 0; blk < 2; blk++) {
        double *r = blk ? rf : rn;
        long jd = blk ? f->jf : f->jd;

        memset(m1, 0, (size_t)P * sizeof *m1);
        own_flux(q, !blk, blk ? yf : yn, t1, m1);
        cross_flux(q, !blk, blk ? yn : yf, blk ? f->nn : f->nf, t2, m2);
        for (long ph = 0, e = 0; ph < P; ph++)
            if (ph != jd) {
                double md = m1[ph] + m2[ph] + fabs(r[e]);

                r[e] -= t1[ph] + t2[ph];
                if (r[e] != 0.0)
                    be = md > 0.0 ? fmax(be, fabs(r[e]) / md) : INFINITY;
                e++;
            }
    }
    for (long i = 0; i < f->na_n; i++) {
        sum += yn[f->nn + i];
        sabs += fabs(yn[f->nn + i]);
    }
    sabs += fabs(rn[P - 1]);
    rn[P - 1] -= sum;
    if (rn[P - 1] != 0.0)
        be = sabs > 0.0 ? fmax(be, fabs(rn[P - 1]) / sabs) : INFINITY;
    return be;
}

/* y := y L_f^-1, the far block's row solve (wk: P doubles) */
static void
far_T(const fl_fast *f, double *y, double *wk)
{
    if (f->schur)
        fl_far_solve_T(&f->Fs, y, wk);
    else
        fl_fact_solve_T(&f->Ff, 1, y, (int)(f->P - 1));
}

/* (yn, yf) solve the system for (rn, rf), the couplings below e^-LAMBDA
 * dropped: g = rf L_f^-1; near y_n = (rn - e^gfar sum_j g_j e^{-|z_j| S}
 * phi_j D) M^-1; y_f = g - (sum_i y_n,i e^{...} phi_i D) L_f^-1 */
static void
solve2(const sys2 *q, const double *rn, const double *rf, double *yn, double *yf,
       double *t1)
{
    const fl_fast *f = q->ns.f;
    long P = f->P, Pm = P - 1;

    memcpy(yf, rf, (size_t)Pm * sizeof *yf);
    far_T(f, yf, q->w);
    memcpy(yn, rn, (size_t)P * sizeof *yn);
    if (q->ns.cf > 0) {
        cross_flux(q, 1, yf, q->ns.cf, t1, NULL);
        for (long ph = 0, e = 0; ph < P; ph++)
            if (ph != f->jd)
                yn[e++] -= t1[ph];
    }
    near_solve(&q->ns, yn, q->w, q->w + 8 * P);
    if (Pm > 0 && q->cr > 0) {
        cross_flux(q, 0, yn, q->cr, t1, NULL);
        for (long ph = 0, e = 0; ph < P; ph++)
            if (ph != f->jf)
                t1[e++] = t1[ph];
        far_T(f, t1, q->w);
        for (long u = 0; u < Pm; u++)
            yf[u] -= t1[u];
    }
}

/* Iterative refinement (fixed precision) of the whole system: the
 * unknowns span many orders of magnitude (atoms of phases with pi ~ 1e-15
 * beside O(1) ones), and a plain solve leaves the small ones accurate only
 * relative to the large; the residual, formed from every mode, brings each
 * equation to rounding of its own terms.  At most two steps: on 240
 * random workloads one step left a residual of 1.5e-8, two 2e-15, and
 * further steps only move components that are rounding noise; none where
 * the solution's componentwise backward error is already within P eps
 * (every equation within the rounding of a sum of its P terms), which the
 * near block's projection (fluid_near.c) mostly gives at once. */
#define REFINE_STEPS 2

int
fl_solve_fast(const bba_fluid *m, double S, fl_sol *s, char *err)
{
    const fl_spec *sp = m->greedy;
    fl_fast *f;
    long P = m->P, Pm = P - 1, cn = 0, cf = 0, cr = 0;
    double *yn = NULL, *yf = NULL, *b = NULL, *r = NULL, *w = NULL, gfar;
    near_sys ns = { NULL, sp, 0, 0, NULL, NULL, NULL };
    int rc = BB_OK, info = 0;

    pthread_mutex_lock((pthread_mutex_t *)&m->lock);
    if (m->fast == NULL) {
        rc = fast_build(m, &((bba_fluid *)m)->fast, err);
        if (rc != BB_OK) {
            pthread_mutex_unlock((pthread_mutex_t *)&m->lock);
            return rc;
        }
    }
    f = m->fast;
    /* coupled sets (prefixes: |z| ascending) */
    if (f->nf > 0)
        while (cn < f->nn && (f->zn[cn] + f->zf[0]) * S < LAMBDA)
            cn++;
    if (f->nn > 0)
        while (cf < f->nf && (f->zf[cf] + f->zn[0]) * S < LAMBDA)
            cf++;
    if (f->nn > 0)
        while (cr < f->nn && (f->zn[cr] - f->zn[0]) * S < LAMBDA)
            cr++;
    if (cf == 0)
        cn = 0;
    if (cn == 0)
        cf = 0;
    rc = fast_extend(m, f, cf);
    pthread_mutex_unlock((pthread_mutex_t *)&m->lock);
    if (rc != BB_OK)
        return bb_seterr(err, rc, "out of memory for a fluid evaluation");

    ns.f = f;
    ns.cn = cn;
    ns.cf = cf;
    yn = calloc((size_t)P, sizeof *yn);
    yf = calloc((size_t)P, sizeof *yf);
    b = calloc((size_t)P, sizeof *b);
    r = malloc((size_t)P * sizeof *r);
    w = malloc((size_t)15 * (size_t)P * sizeof *w);
    ns.rho = malloc((size_t)(cn * cf + 1) * sizeof *ns.rho);
    ns.K = malloc((size_t)(cf * cf + 1) * sizeof *ns.K);
    ns.piv = malloc((size_t)(cf + 1) * sizeof *ns.piv);
    if (yn == NULL || yf == NULL || b == NULL || r == NULL || w == NULL || ns.rho == NULL ||
        ns.K == NULL || ns.piv == NULL)
        goto nomem;
    if (cf > 0) {
        int ncf = (int)cf;

        /* rho_ij = e^-(|z_i| + |z_j|) S (phi_i D) L_f^-1 e_j  (cn x cf) */
        for (long i = 0; i < cn; i++)
            for (long j = 0; j < cf; j++)
                ns.rho[i * cf + j] = exp(-(f->zn[i] + f->zf[j]) * S) *
                                     f->C[(size_t)i + (size_t)j * (size_t)f->nn];
        /* K = I - Wa rho, Wa[j][i] = W_j[i]; column-major K[j + j2 cf] for
         * the solves K^T s = t */
        for (long j = 0; j < cf; j++)
            for (long j2 = 0; j2 < cf; j2++) {
                double acc = j == j2 ? 1.0 : 0.0;
                const double *Wj = f->W + (size_t)j * (size_t)P;

                for (long i = 0; i < cn; i++)
                    acc -= Wj[i] * ns.rho[i * cf + j2];
                ns.K[j + j2 * cf] = acc;
            }
        dgetrf_(&ncf, &ncf, ns.K, &ncf, ns.piv, &info);
        if (info != 0) {
            rc = bb_seterr(err, BB_ESINGULAR, "fluid model: the coupling of %ld modes "
                           "at size %g is singular", cf, S);
            goto out;
        }
    }
    /* the near atoms sum to 1; then refinement */
    {
        sys2 q = { m, ns, S, f->nn > 0 ? -f->zn[0] * S : 0.0, cr, w };
        double *rn = b, *rf = r, *dn = w + 4 * P, *df = w + 5 * P, *t1 = w + 6 * P;
        double *t2 = w + 7 * P;

        gfar = q.gfar;
        memset(rn, 0, (size_t)P * sizeof *rn);
        memset(rf, 0, (size_t)P * sizeof *rf);
        rn[P - 1] = 1.0;
        solve2(&q, rn, rf, yn, yf, t1);
        for (int it = 0; it < REFINE_STEPS; it++) {
            memset(rn, 0, (size_t)P * sizeof *rn);
            memset(rf, 0, (size_t)P * sizeof *rf);
            rn[P - 1] = 1.0;
            if (residual2(&q, yn, yf, rn, rf, t1, t2, w + 13 * P, w + 14 * P) <=
                (double)P * DBL_EPSILON)
                break;
            solve2(&q, rn, rf, dn, df, t1);
            for (long u = 0; u < P; u++)
                yn[u] += dn[u];
            for (long u = 0; u < Pm; u++)
                yf[u] += df[u];
        }
    }
    /* into the common layout: group 0 = atoms at 0 then z < 0 modes in
     * index order; group 1 = z > 0 modes then atoms at S */
    memset(s, 0, sizeof *s);
    s->R = 1;
    s->sp[0] = sp;
    s->x[0] = 0.0;
    s->x[1] = S;
    s->g[f->refl ? 1 : 0] = 0.0;
    s->g[f->refl ? 0 : 1] = gfar;
    rc = fl_sol_alloc(m, s, err);
    if (rc != BB_OK)
        goto out;
    {
        double *y0 = s->y[0], *y1 = s->y[1];
        long n0 = fl_atoms(m, 0, NULL), kp = sp->m - sp->mneg;
        const double *ylo = f->refl ? yf : yn, *yhi = f->refl ? yn : yf;
        long nlo = f->refl ? f->nf : f->nn, nhi = f->refl ? f->nn : f->nf;

        /* low side (0): its modes are z < 0, stored by |z| ascending =
         * descending index; its atoms follow the modes */
        for (long i = 0; i < n0; i++)
            y0[i] = ylo[nlo + i];
        for (long i = 0; i < sp->mneg; i++)
            y0[n0 + (sp->mneg - 1 - i)] = ylo[i];
        /* high side (S): modes z > 0 in index order = |z| ascending */
        for (long i = 0; i < kp; i++)
            y1[i] = yhi[i];
        for (long i = 0; i < s->ny[1] - kp; i++)
            y1[kp + i] = yhi[nhi + i];
    }
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for a fluid evaluation");
out:
    free(yn);
    free(yf);
    free(b);
    free(r);
    free(w);
    free(ns.rho);
    free(ns.K);
    free(ns.piv);
    return rc;
}
