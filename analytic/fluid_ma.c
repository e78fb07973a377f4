/* fluid_ma.c: the atoms of one large birth-death class in a greedy
 * buffer by the matrix-analytic route (fluid_int.h: fl_ma_atoms).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Why: the modal solution (fluid_spec.c, fluid_solve.c) writes the
 * density as sum_k a_k phi_k e^{z_k x}; for hundreds of phases above B
 * the decaying modes' coefficients alternate and cancel (fluid_class.c
 * says by how much), and from about 375 identical sources the atoms at S
 * lose their digits.  Here no mode is formed.  With f = p |D| (phases -
 * below B, + above, T = |D|^-1 Q), every solution of (p D)' = p Q is
 *   f(x) = a e^{K x} [I, Psi] + b e^{U (S - x)} [Xi, I],
 *   K = T++ + Psi T-+,  U = T-- + Xi T+-,
 * Psi (+ to -) and Xi (- to +) the minimal non-negative solutions of
 *   T+- + T++ Psi + Psi T-- + Psi T-+ Psi = 0,
 *   T-+ + T-- Xi + Xi T++ + Xi T+- Xi = 0
 * (first-passage probabilities), found together by the
 * structure-preserving doubling algorithm (Guo, Lin and Xu 2006), with
 * the Woodbury form so that its only product of order n+ is F F.  The
 * conditions p(0+) D = l Q and p(S-) D = -u Q^S, with G0 = (-Q--)^-1 Q-+
 * and GS = (-Q^S++)^-1 Q^S+-, become
 *   a (I - Psi G0) + b e^{U S} (Xi - G0) = 0,
 *   a e^{K S} (Psi - GS) + b (I - Xi GS) = 0,
 * of rank P - 1, solved with the total of the atoms set to 1 by least
 * squares (dgels, QR); then l = (a Psi + b e^{U S}) (-Q--)^-1 and u =
 * (a e^{K S} + b Xi) (-Q^S++)^-1.  Every matrix is non-negative or an
 * M-matrix and every step normwise backward stable: the atoms are right
 * to about P eps of the largest (a mode-free answer where the modal one
 * cancels), but an idle fraction below P eps is noise, which the caller
 * refuses (*err_abs).  Cost: the doubling about 2 n+^3 + 6 n+^2 n- flops
 * a step (quadratic convergence; linear at zero mean drift, declined),
 * e^{K S} 2 n+^3 (6 + log2 |K S|), the solve 4/3 P^3; 3 P^2 doubles.
 * A numpy prototype of the same equations matched the discretised
 * content (tests/t_fluid_class) to 1e-7 at 375 sources and 1e-5 at 400. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_int.h"
#include "lapackf.h"

/* column-major r x c */
typedef struct {
    int r, c;
    double *v;
} mat;

#define AT(M, i, j) ((M).v[(size_t)(i) + (size_t)(j) * (size_t)(M).r])

static int
mat_new(mat *M, int r, int c)
{
    M->r = r;
    M->c = c;
    M->v = calloc((size_t)(r > 0 ? r : 1) * (size_t)(c > 0 ? c : 1), sizeof *M->v);
    return M->v == NULL ? -1 : 0;
}

/* C = alpha op(A) op(B) + beta C */
static void
mm(char ta, char tb, double alpha, const mat *A, const mat *B, double beta, mat *C)
{
    int k = ta == 'N' ? A->c : A->r;

    if (C->r == 0 || C->c == 0)
        return;
    if (k == 0) {
        for (size_t i = 0; i < (size_t)C->r * (size_t)C->c; i++)
            C->v[i] *= beta;
        return;
    }
    dgemm_(&ta, &tb, &C->r, &C->c, &k, &alpha, A->v, &A->r, B->v, &B->r, &beta, C->v, &C->r,
           1, 1);
}

/* X := A^-1 X (trans 'N') or A^-T X ('T'); A copied; -1 if singular */
static int
lsolve(char trans, const mat *A, mat *X)
{
    int n = A->r, info = 0, *piv = malloc((size_t)(n > 0 ? n : 1) * sizeof *piv);
    double *f = malloc((size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1) * sizeof *f);

    if (piv == NULL || f == NULL || n == 0) {
        free(piv);
        free(f);
        return n == 0 ? 0 : -1;
    }
    memcpy(f, A->v, (size_t)n * (size_t)n * sizeof *f);
    dgetrf_(&n, &n, f, &n, piv, &info);
    if (info == 0 && X->c > 0)
        dgetrs_(&trans, &n, &X->c, f, &n, piv, X->v, &n, &info, 1);
    free(piv);
    free(f);
    return info == 0 ? 0 : -1;
}

static double
norm1(const mat *A)
{
    double best = 0.0;

    for (int j = 0; j < A->c; j++) {
        double s = 0.0;

        for (int i = 0; i < A->r; i++)
            s += fabs(AT(*A, i, j));
        best = fmax(best, s);
    }
    return best;
}

/* E = e^{A t} by scaling and squaring of an 18-term Taylor sum (|A t| /
 * 2^s <= 1/2: truncation below 1e-22); E pre-allocated n x n; -1 for
 * |A t| beyond 2^900 or no memory */
static int
expm(const mat *A, double t, mat *E)
{
    int n = A->r, s = 0;
    double nrm = norm1(A) * t;
    mat X = { 0 }, T = { 0 }, W = { 0 };

    if (!(nrm < 0x1p900) || mat_new(&X, n, n) || mat_new(&T, n, n) || mat_new(&W, n, n)) {
        free(X.v);
        free(T.v);
        free(W.v);
        return -1;
    }
    if (nrm > 0.5)
        s = (int)ceil(log2(nrm / 0.5));
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        X.v[i] = A->v[i] * t / ldexp(1.0, s);
    memset(E->v, 0, (size_t)n * (size_t)n * sizeof *E->v);
    memset(T.v, 0, (size_t)n * (size_t)n * sizeof *T.v);
    for (int i = 0; i < n; i++)
        AT(*E, i, i) = AT(T, i, i) = 1.0;
    for (int k = 1; k <= 18; k++) {
        mm('N', 'N', 1.0 / k, &T, &X, 0.0, &W);
        memcpy(T.v, W.v, (size_t)n * (size_t)n * sizeof *T.v);
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            E->v[i] += T.v[i];
    }
    for (int k = 0; k < s; k++) {
        mm('N', 'N', 1.0, E, E, 0.0, &W);
        memcpy(E->v, W.v, (size_t)n * (size_t)n * sizeof *E->v);
    }
    free(X.v);
    free(T.v);
    free(W.v);
    return 0;
}

/* Psi (n+ x n-) and Xi (n- x n+) by doubling; 0, or -1 (no convergence
 * in 64 steps, a singular step, memory) */
static int
sda(const mat *Tpp, const mat *Tpm, const mat *Tmp, const mat *Tmm, mat *Psi, mat *Xi)
{
    int np = Tpp->r, nm = Tmm->r, rc = -1;
    double g = 0.0;
    mat Ag = { 0 }, Dg = { 0 }, W = { 0 }, V = { 0 }, E = { 0 }, F = { 0 }, t1 = { 0 };
    mat t2 = { 0 }, IGH = { 0 }, FH = { 0 }, GF = { 0 }, RE = { 0 }, RGF = { 0 }, F2 = { 0 };

    if (mat_new(&Ag, np, np) || mat_new(&Dg, nm, nm) || mat_new(&W, np, np) ||
        mat_new(&V, nm, nm) || mat_new(&E, nm, nm) || mat_new(&F, np, np) ||
        mat_new(&t1, nm, np) || mat_new(&t2, np, nm) || mat_new(&IGH, nm, nm) ||
        mat_new(&FH, np, nm) || mat_new(&GF, nm, np) || mat_new(&RE, nm, nm) ||
        mat_new(&RGF, nm, np) || mat_new(&F2, np, np))
        goto out;
    for (int i = 0; i < np; i++)
        g = fmax(g, -AT(*Tpp, i, i));
    for (int i = 0; i < nm; i++)
        g = fmax(g, -AT(*Tmm, i, i));
    /* A = -T++, B = T+-, C = T-+, D = -T--; Ag = A + g, Dg = D + g */
    for (size_t i = 0; i < (size_t)np * (size_t)np; i++)
        Ag.v[i] = -Tpp->v[i];
    for (size_t i = 0; i < (size_t)nm * (size_t)nm; i++)
        Dg.v[i] = -Tmm->v[i];
    for (int i = 0; i < np; i++)
        AT(Ag, i, i) += g;
    for (int i = 0; i < nm; i++)
        AT(Dg, i, i) += g;
    /* W = Ag - B Dg^-1 C, V = Dg - C Ag^-1 B */
    memcpy(t1.v, Tmp->v, (size_t)nm * (size_t)np * sizeof *t1.v);
    if (lsolve('N', &Dg, &t1))
        goto out;
    memcpy(W.v, Ag.v, (size_t)np * (size_t)np * sizeof *W.v);
    mm('N', 'N', -1.0, Tpm, &t1, 1.0, &W);
    memcpy(t2.v, Tpm->v, (size_t)np * (size_t)nm * sizeof *t2.v);
    if (lsolve('N', &Ag, &t2))
        goto out;
    memcpy(V.v, Dg.v, (size_t)nm * (size_t)nm * sizeof *V.v);
    mm('N', 'N', -1.0, Tmp, &t2, 1.0, &V);
    /* E = I - 2g V^-1, F = I - 2g W^-1: from V^-1 and W^-1 */
    memset(E.v, 0, (size_t)nm * (size_t)nm * sizeof *E.v);
    for (int i = 0; i < nm; i++)
        AT(E, i, i) = 1.0;
    if (lsolve('N', &V, &E))
        goto out;
    for (size_t i = 0; i < (size_t)nm * (size_t)nm; i++)
        E.v[i] *= -2.0 * g;
    for (int i = 0; i < nm; i++)
        AT(E, i, i) += 1.0;
    memset(F.v, 0, (size_t)np * (size_t)np * sizeof *F.v);
    for (int i = 0; i < np; i++)
        AT(F, i, i) = 1.0;
    if (lsolve('N', &W, &F))
        goto out; /* F = W^-1 for now */
    /* G = 2g Dg^-1 C W^-1 = 2g t1 W^-1; H = 2g W^-1 B Dg^-1 */
    mm('N', 'N', 2.0 * g, &t1, &F, 0.0, Xi);
    {
        mat DgI;

        if (mat_new(&DgI, nm, nm))
            goto out;
        for (int i = 0; i < nm; i++)
            AT(DgI, i, i) = 1.0;
        if (lsolve('N', &Dg, &DgI)) {
            free(DgI.v);
            goto out;
        }
        mm('N', 'N', 1.0, Tpm, &DgI, 0.0, &t2);
        mm('N', 'N', 2.0 * g, &F, &t2, 0.0, Psi);
        free(DgI.v);
    }
    for (size_t i = 0; i < (size_t)np * (size_t)np; i++)
        F.v[i] *= -2.0 * g;
    for (int i = 0; i < np; i++)
        AT(F, i, i) += 1.0;
    for (int it = 0; it < 64; it++) {
        double dh = 0.0, hmax = 0.0, dg = 0.0, gmax = 0.0;

        /* IGH = I - G H; R = IGH^-1 */
        mm('N', 'N', -1.0, Xi, Psi, 0.0, &IGH);
        for (int i = 0; i < nm; i++)
            AT(IGH, i, i) += 1.0;
        mm('N', 'N', 1.0, &F, Psi, 0.0, &FH);
        mm('N', 'N', 1.0, Xi, &F, 0.0, &GF);
        memcpy(RE.v, E.v, (size_t)nm * (size_t)nm * sizeof *RE.v);
        memcpy(RGF.v, GF.v, (size_t)nm * (size_t)np * sizeof *RGF.v);
        if (lsolve('N', &IGH, &RE) || lsolve('N', &IGH, &RGF))
            goto out;
        /* H += FH R E, G += E R GF, F = F F + FH R GF, E = E R E */
        memcpy(t2.v, Psi->v, (size_t)np * (size_t)nm * sizeof *t2.v);
        mm('N', 'N', 1.0, &FH, &RE, 1.0, Psi);
        memcpy(t1.v, Xi->v, (size_t)nm * (size_t)np * sizeof *t1.v);
        mm('N', 'N', 1.0, &E, &RGF, 1.0, Xi);
        mm('N', 'N', 1.0, &F, &F, 0.0, &F2);
        mm('N', 'N', 1.0, &FH, &RGF, 1.0, &F2);
        memcpy(F.v, F2.v, (size_t)np * (size_t)np * sizeof *F.v);
        mm('N', 'N', 1.0, &E, &RE, 0.0, &IGH);
        memcpy(E.v, IGH.v, (size_t)nm * (size_t)nm * sizeof *E.v);
        for (size_t i = 0; i < (size_t)np * (size_t)nm; i++) {
            dh = fmax(dh, fabs(Psi->v[i] - t2.v[i]));
            hmax = fmax(hmax, fabs(Psi->v[i]));
            dg = fmax(dg, fabs(Xi->v[i] - t1.v[i]));
            gmax = fmax(gmax, fabs(Xi->v[i]));
        }
        if (!isfinite(hmax) || !isfinite(gmax))
            goto out;
        if (dh <= 4 * DBL_EPSILON * hmax && dg <= 4 * DBL_EPSILON * gmax) {
            rc = 0;
            break;
        }
    }
out:
    free(Ag.v);
    free(Dg.v);
    free(W.v);
    free(V.v);
    free(E.v);
    free(F.v);
    free(t1.v);
    free(t2.v);
    free(IGH.v);
    free(FH.v);
    free(GF.v);
    free(RE.v);
    free(RGF.v);
    free(F2.v);
    return rc;
}

int
fl_ma_atoms(const bba_fluid *m, double S, double *l, double *u, double *res, char *err)
{
    long P = m->P, k0 = 0;
    int np, nm, n, rc = BB_OK;
    double *Q = NULL, *QS = NULL, *d = m->greedy != NULL ? m->greedy->d : NULL;
    mat Tpp = { 0 }, Tpm = { 0 }, Tmp = { 0 }, Tmm = { 0 }, Psi = { 0 }, Xi = { 0 };
    mat K = { 0 }, U = { 0 }, EK = { 0 }, EU = { 0 }, Qmm = { 0 }, QSpp = { 0 };
    mat G0 = { 0 }, GS = { 0 }, A2 = { 0 }, t1 = { 0 }, t2 = { 0 }, y = { 0 };

    *res = INFINITY;
    if (m->C != 1 || m->stride[0] != 1 || P != m->N[0] + 1 || m->binds || d == NULL ||
        m->n_zero > 0)
        return bb_seterr(err, BB_EINVAL, "fluid model: the matrix-analytic route takes one "
                         "class, greedy, without zero-drift phases or a binding B_BB");
    while (k0 < P && m->cls[k0] == FL_DOWN)
        k0++;
    for (long f = k0; f < P; f++)
        if (m->cls[f] != FL_UP)
            return bb_seterr(err, BB_EINVAL, "fluid model: phases not split by B");
    nm = (int)k0;
    np = (int)(P - k0);
    n = (int)P;
    if (nm == 0 || np == 0)
        return bb_seterr(err, BB_EINVAL, "fluid model: no phase on one side of B");
    Q = calloc((size_t)P * (size_t)P, sizeof *Q);
    QS = calloc((size_t)P * (size_t)P, sizeof *QS);
    if (Q == NULL || QS == NULL || mat_new(&Tpp, np, np) || mat_new(&Tpm, np, nm) ||
        mat_new(&Tmp, nm, np) || mat_new(&Tmm, nm, nm) || mat_new(&Psi, np, nm) ||
        mat_new(&Xi, nm, np) || mat_new(&K, np, np) || mat_new(&U, nm, nm) ||
        mat_new(&EK, np, np) || mat_new(&EU, nm, nm) || mat_new(&Qmm, nm, nm) ||
        mat_new(&QSpp, np, np) || mat_new(&G0, nm, np) || mat_new(&GS, np, nm) ||
        mat_new(&A2, n + 1, n) || mat_new(&t1, n + 1, 1) || mat_new(&t2, np, nm) ||
        mat_new(&y, n, 1))
        goto nomem;
    /* dense rows of Q and Q^S (row-major P x P) */
    for (long f = 0; f < P; f++) {
        fl_q_row(m, f, Q + (size_t)f * (size_t)P, 0);
        fl_q_row(m, f, QS + (size_t)f * (size_t)P, 1);
    }
#define QQ(a, f, g) (a)[(size_t)(f) * (size_t)P + (size_t)(g)]
    for (int i = 0; i < np; i++) {
        for (int j = 0; j < np; j++) {
            AT(Tpp, i, j) = QQ(Q, k0 + i, k0 + j) / fabs(d[k0 + i]);
            AT(QSpp, i, j) = -QQ(QS, k0 + i, k0 + j);
        }
        for (int j = 0; j < nm; j++) {
            AT(Tpm, i, j) = QQ(Q, k0 + i, j) / fabs(d[k0 + i]);
            AT(GS, i, j) = QQ(QS, k0 + i, j);
        }
    }
    for (int i = 0; i < nm; i++) {
        for (int j = 0; j < nm; j++) {
            AT(Tmm, i, j) = QQ(Q, i, j) / fabs(d[i]);
            AT(Qmm, i, j) = -QQ(Q, i, j);
        }
        for (int j = 0; j < np; j++) {
            AT(Tmp, i, j) = QQ(Q, i, k0 + j) / fabs(d[i]);
            AT(G0, i, j) = QQ(Q, i, k0 + j);
        }
    }
#undef QQ
    if (sda(&Tpp, &Tpm, &Tmp, &Tmm, &Psi, &Xi) != 0) {
        rc = bb_seterr(err, BB_ENOCONV, "fluid model (%ld phases in 1 class): the doubling "
                       "for the first-passage matrices did not converge", P);
        goto out;
    }
    /* K = T++ + Psi T-+, U = T-- + Xi T+-; their exponentials at S */
    memcpy(K.v, Tpp.v, (size_t)np * (size_t)np * sizeof *K.v);
    mm('N', 'N', 1.0, &Psi, &Tmp, 1.0, &K);
    memcpy(U.v, Tmm.v, (size_t)nm * (size_t)nm * sizeof *U.v);
    mm('N', 'N', 1.0, &Xi, &Tpm, 1.0, &U);
    if (expm(&K, S, &EK) || expm(&U, S, &EU) || lsolve('N', &Qmm, &G0) ||
        lsolve('N', &QSpp, &GS))
        goto nomem;
    /* A2 = [M | nv]^T, (P + 1) x P: row e = equation, column = unknown
     * (a then b).  M's columns: (A) n+ then (B) n-. */
    {
        mat M = { 0 }, im = { 0 }, iS = { 0 }, nv = { 0 }, tmp = { 0 };

        if (mat_new(&M, n, n) || mat_new(&im, nm, 1) || mat_new(&iS, np, 1) ||
            mat_new(&nv, n, 1) || mat_new(&tmp, nm, np)) {
            free(M.v);
            free(im.v);
            free(iS.v);
            free(nv.v);
            free(tmp.v);
            goto nomem;
        }
        /* (a, A): I - Psi G0 */
        {
            mat pg = { 0 };

            if (mat_new(&pg, np, np) == 0) {
                mm('N', 'N', 1.0, &Psi, &G0, 0.0, &pg);
                for (int i = 0; i < np; i++)
                    for (int j = 0; j < np; j++)
                        AT(M, i, j) = (i == j) - AT(pg, i, j);
            }
            free(pg.v);
        }
        /* (b, A): EU (Xi - G0) */
        for (size_t i = 0; i < (size_t)nm * (size_t)np; i++)
            tmp.v[i] = Xi.v[i] - G0.v[i];
        {
            mat eb = { 0 };

            if (mat_new(&eb, nm, np) == 0) {
                mm('N', 'N', 1.0, &EU, &tmp, 0.0, &eb);
                for (int i = 0; i < nm; i++)
                    for (int j = 0; j < np; j++)
                        AT(M, np + i, j) = AT(eb, i, j);
            }
            free(eb.v);
        }
        /* (a, B): EK (Psi - GS) */
        for (size_t i = 0; i < (size_t)np * (size_t)nm; i++)
            t2.v[i] = Psi.v[i] - GS.v[i];
        {
            mat ea = { 0 }, xg = { 0 };

            if (mat_new(&ea, np, nm) == 0 && mat_new(&xg, nm, nm) == 0) {
                mm('N', 'N', 1.0, &EK, &t2, 0.0, &ea);
                mm('N', 'N', 1.0, &Xi, &GS, 0.0, &xg);
                for (int i = 0; i < np; i++)
                    for (int j = 0; j < nm; j++)
                        AT(M, i, np + j) = AT(ea, i, j);
                for (int i = 0; i < nm; i++)
                    for (int j = 0; j < nm; j++)
                        AT(M, np + i, np + j) = (i == j) - AT(xg, i, j);
            }
            free(ea.v);
            free(xg.v);
        }
        /* nv = [Psi im + EK iS; EU im + Xi iS], im = (-Q--)^-1 1, iS likewise */
        for (int i = 0; i < nm; i++)
            im.v[i] = 1.0;
        for (int i = 0; i < np; i++)
            iS.v[i] = 1.0;
        if (lsolve('N', &Qmm, &im) == 0 && lsolve('N', &QSpp, &iS) == 0) {
            mat top = { np, 1, nv.v }, bot = { nm, 1, nv.v + np };

            mm('N', 'N', 1.0, &Psi, &im, 0.0, &top);
            mm('N', 'N', 1.0, &EK, &iS, 1.0, &top);
            mm('N', 'N', 1.0, &EU, &im, 0.0, &bot);
            mm('N', 'N', 1.0, &Xi, &iS, 1.0, &bot);
        }
        /* A2 (e, x) = M (x, e) for e < P, nv (x) for e = P */
        for (int x = 0; x < n; x++) {
            for (int e = 0; e < n; e++)
                AT(A2, e, x) = AT(M, x, e);
            AT(A2, n, x) = nv.v[x];
        }
        {
            int rows = n + 1, one = 1, lwork = -1, info = 0;
            double wq = 0.0, *work, *A2c = malloc((size_t)(n + 1) * (size_t)n * sizeof *A2c);

            t1.v[n] = 1.0;
            if (A2c == NULL)
                info = -1;
            else
                memcpy(A2c, A2.v, (size_t)(n + 1) * (size_t)n * sizeof *A2c);
            if (info == 0)
                dgels_("N", &rows, &n, &one, A2c, &rows, t1.v, &rows, &wq, &lwork, &info, 1);
            lwork = (int)wq + 1;
            work = info == 0 ? malloc((size_t)lwork * sizeof *work) : NULL;
            if (work != NULL)
                dgels_("N", &rows, &n, &one, A2c, &rows, t1.v, &rows, work, &lwork, &info, 1);
            free(work);
            free(A2c);
            if (work == NULL || info != 0) {
                free(M.v);
                free(im.v);
                free(iS.v);
                free(nv.v);
                free(tmp.v);
                rc = bb_seterr(err, BB_ESINGULAR, "fluid model (%ld phases in 1 class): the "
                               "matrix-analytic boundary system is rank-deficient", P);
                goto out;
            }
        }
        /* residual of A2 x = e: the largest equation's error over the
         * largest equation's terms (normwise: the solve is) */
        {
            double r = 0.0, big = 1.0;

            for (int e = 0; e <= n; e++) {
                double acc = e == n ? -1.0 : 0.0, mag = e == n ? 1.0 : 0.0;

                for (int x = 0; x < n; x++) {
                    acc += t1.v[x] * AT(A2, e, x);
                    mag += fabs(t1.v[x] * AT(A2, e, x));
                }
                r = fmax(r, fabs(acc));
                big = fmax(big, mag);
            }
            *res = r / big;
        }
        free(M.v);
        free(im.v);
        free(iS.v);
        free(nv.v);
        free(tmp.v);
    }
    /* l = (a Psi + b EU) (-Q--)^-1, u = (a EK + b Xi) (-Q^S++)^-1:
     * transposed, (-Q--)^T l^T = Psi^T a^T + EU^T b^T */
    {
        mat a = { np, 1, t1.v }, b = { nm, 1, t1.v + np };
        mat lv = { nm, 1, y.v }, uv = { np, 1, y.v + nm };

        mm('T', 'N', 1.0, &Psi, &a, 0.0, &lv);
        mm('T', 'N', 1.0, &EU, &b, 1.0, &lv);
        mm('T', 'N', 1.0, &EK, &a, 0.0, &uv);
        mm('T', 'N', 1.0, &Xi, &b, 1.0, &uv);
        if (lsolve('T', &Qmm, &lv) || lsolve('T', &QSpp, &uv))
            goto nomem;
        for (long f = 0; f < P; f++) {
            l[f] = f < k0 ? y.v[f] : 0.0;
            u[f] = f >= k0 ? y.v[f] : 0.0;
        }
    }
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the matrix-analytic route (%ld "
                   "phases)", P);
out:
    free(Q);
    free(QS);
    free(Tpp.v);
    free(Tpm.v);
    free(Tmp.v);
    free(Tmm.v);
    free(Psi.v);
    free(Xi.v);
    free(K.v);
    free(U.v);
    free(EK.v);
    free(EU.v);
    free(Qmm.v);
    free(QSpp.v);
    free(G0.v);
    free(GS.v);
    free(A2.v);
    free(t1.v);
    free(t2.v);
    free(y.v);
    return rc;
}

int
fl_ma_groups(const bba_fluid *m, double S, double *const *l, double *const *u,
             double *const *mi, double *const *xi, double *res)
{
    long P = m->P;
    double *w = malloc((size_t)4 * (size_t)P * sizeof *w), mres, rel;
    char err[BB_ERRLEN];
    int rc = -1;

    if (w == NULL)
        return -1;
    if (fl_ma_atoms(m, S, w, w + P, &mres, err) == BB_OK &&
        fl_class_moments(m, m->greedy->d, S, w, w + P, w + 2 * P, w + 3 * P, &rel) == 0) {
        for (int b = 0; b < 2; b++)
            for (long f = 0; f < P; f++) {
                l[b][f] = b == 0 ? w[f] : 0.0;
                u[b][f] = b == 0 ? w[P + f] : 0.0;
                mi[b][f] = b == 0 ? w[2 * P + f] : 0.0;
                xi[b][f] = b == 0 ? w[3 * P + f] : 0.0;
            }
        *res = fmax(mres, rel);
        rc = 0;
    }
    free(w);
    return rc;
}
