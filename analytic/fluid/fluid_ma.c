/* fluid_ma.c: the atoms of one large birth-death class in a greedy
 * buffer by the matrix-analytic route (fluid_int.h: fl_ma_atoms).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Why: the modal solution (fluid_spec.c, fluid_solve.c) writes the
 * density as sum_k a_k phi_k e^{z_k x}; for hundreds of phases above B
 * the decaying modes' coefficients alternate and cancel (fluid_class.c
 * says by how much), and the atoms at S lose digits long before the
 * residual shows it.  Here no mode is formed.  With f = p |D| (phases -
 * below B, n- of them, + above, n+; T = |D|^-1 Q), every solution of
 * (p D)' = p Q is
 *   f(x) = a e^{K x} [I, Psi] + b e^{U (S - x)} [Xi, I],
 *   K = T++ + Psi T-+,  U = T-- + Xi T+-,
 * Psi (+ to -) and Xi (- to +) the minimal non-negative solutions of
 *   T+- + T++ Psi + Psi T-- + Psi T-+ Psi = 0,
 *   T-+ + T-- Xi + Xi T++ + Xi T+- Xi = 0
 * (first-passage probabilities).  One class makes every block small in
 * the sense that matters: T++ and T-- are tridiagonal and T+-, T-+ have
 * one entry each (the cut k0 - 1 | k0 at B), so K and U are tridiagonal
 * plus one column, and the boundary conditions p(0+) D = l Q and p(S-) D
 * = -u Q^S say that f+(0) = alpha e_k0 and f-(S) = beta e_(k0-1): with a
 * = alpha e0 - b e^{US} Xi the unknowns are alpha, b and beta, n- + 2 of
 * them, and e^{KS} is needed only on the n- + 1 rows e0 and Xi.
 *
 * - Psi and Xi^T by Newton's method on the Riccati equation from 0
 *   (monotone for these M-matrix equations: Guo and Laub 2000), each
 *   step a Sylvester equation solved by the complex Schur form of its
 *   n- x n- side (Bartels-Stewart), its n+ side by tridiagonal solves
 *   with one rank-one (Sherman-Morrison) term: O(n+ n-^2 + n-^3) a step.
 * - Rows times e^{MS} (M = K or U, Metzler) by uniformisation:
 *   e^{MS} = e^{-cS} sum_j (cS)^j / j! (I + M/c)^j, c = max |M_ii|, a
 *   sum of non-negative terms (no cancellation), O(r n (cS + 10 sqrt(cS)))
 *   for r rows; where cS makes that dearer than scaling and squaring the
 *   dense M (a rate within a hair of B) the dense exponential is used.
 * - The n- + 2 homogeneous boundary equations (rank n- + 1, each scaled
 *   by its largest coefficient) by their null vector (QR with column
 *   pivoting), scaled so that the atoms sum to 1; then l = f-(0)
 *   (-Q--)^-1 and u = f+(S) (-Q^S++)^-1 by tridiagonal solves whose
 *   pivots are sums of positive terms (tri_gth).
 * Cost for n+ >= n- (fl_ma_atoms declines otherwise): O(n+ n-^2) per
 * Newton step (5 to 40 steps, once per model), O(n+ n- cS) per size for
 * the exponential (or O(n+^3 log cS) dense), O(n-^3) for the rest:
 * `bbsize size` on 500 copies of p = 0.05 (n+ 467, n- 34, six sizes)
 * takes 0.2 s of CPU, the whole process.  A binding B_BB changes only the
 * interior generator (Q', still birth-death).  3 n+ n- + O(n+ + n-^2)
 * doubles. */
#include "config.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_int.h"
#include "lapackf.h"

typedef double _Complex cplx;

/* tridiagonal n x n: lo[i] = M(i, i - 1), di[i] = M(i, i), up[i] = M(i, i + 1) */
typedef struct {
    int n;
    double *lo, *di, *up;
} tri;

/* a tridiagonal matrix plus vc in column jc (Metzler: K and U) */
typedef struct {
    tri t;
    int jc;
    const double *vc;
} tmat;

#define NEWTON_MAX 200
/* flops beyond which an exponential declines (the modes answer): a
 * minute; the dense route costs O(n^3 log cS), so only orders beyond
 * 2,000 phases above B reach it */
#define WORK_MAX 1e12

static int
tri_new(tri *t, int n)
{
    t->n = n;
    t->lo = calloc((size_t)3 * (size_t)(n > 0 ? n : 1), sizeof *t->lo);
    t->di = t->lo + n;
    t->up = t->lo + 2 * n;
    return t->lo == NULL ? -1 : 0;
}

static void
tri_transpose(const tri *a, tri *t)
{
    for (int i = 0; i < a->n; i++) {
        t->di[i] = a->di[i];
        t->lo[i] = i > 0 ? a->up[i - 1] : 0.0;
        t->up[i] = i + 1 < a->n ? a->lo[i + 1] : 0.0;
    }
}

/* (t + sg I) x = r in place, without pivoting: every system here is
 * diagonally dominant by rows or by columns (M-matrices shifted by sg,
 * Re sg <= 0).  w: n complex.  -1 on a zero or non-finite pivot. */
static int
tri_solve(const tri *t, cplx sg, cplx *r, cplx *w)
{
    int n = t->n;
    cplx piv = t->di[0] + sg, ip;

    for (int i = 0; i < n; i++) {
        double a2;

        if (i > 0)
            piv = t->di[i] + sg - t->lo[i] * w[i - 1];
        a2 = creal(piv) * creal(piv) + cimag(piv) * cimag(piv);
        if (!(a2 > 0.0) || !isfinite(a2))
            return -1;
        ip = conj(piv) / a2; /* 1 / piv without a complex division */
        w[i] = t->up[i] * ip;
        r[i] = (i > 0 ? r[i] - t->lo[i] * r[i - 1] : r[i]) * ip;
    }
    for (int i = n - 2; i >= 0; i--)
        r[i] -= w[i] * r[i + 1];
    return 0;
}

/* The pivots of the LU factors (no pivoting) of an M-matrix t = -G, G a
 * birth-death sub-generator whose row i leaves the block at rate x[i]:
 * piv_i = |up_i| + s_i, s_i = x_i + |lo_i| s_(i-1) / piv_(i-1), sums of
 * positive terms (Grassmann, Taksar and Heyman), so nearly singular blocks
 * (an exit that is rarely reached) keep their digits where the plain
 * recurrence d_i - lo_i up_(i-1) / piv_(i-1) cancels.  They are the
 * pivots of t^T's factors too. */
static void
tri_gth(const tri *t, const double *x, double *piv)
{
    double sprev = 0.0;

    for (int i = 0; i < t->n; i++) {
        double si = x[i] + (i > 0 ? fabs(t->lo[i]) * sprev / piv[i - 1] : 0.0);

        piv[i] = fabs(t->up[i]) + si;
        sprev = si;
    }
}

/* r := t^-1 r (trans 0) or t^-T r (trans 1) with the pivots of tri_gth */
static void
tri_solve_piv(const tri *t, const double *piv, int trans, double *r)
{
    int n = t->n;

    if (!trans) {
        for (int i = 1; i < n; i++)
            r[i] -= t->lo[i] / piv[i - 1] * r[i - 1];
        for (int i = n - 1; i >= 0; i--)
            r[i] = (r[i] - (i + 1 < n ? t->up[i] * r[i + 1] : 0.0)) / piv[i];
    } else {
        for (int i = 0; i < n; i++)
            r[i] = (r[i] - (i > 0 ? t->up[i - 1] * r[i - 1] : 0.0)) / piv[i];
        for (int i = n - 2; i >= 0; i--)
            r[i] -= t->lo[i + 1] / piv[i] * r[i + 1];
    }
}

/* ---- Riccati: C + A X + X B + X D X = 0 ------------------------------- */

/* A (nb x nb) and B (ns x ns) tridiagonal, C = c e_0 e_(ns-1)^T, D = d
 * e_(ns-1) e_0^T; X (nb x ns, column-major) the minimal non-negative
 * solution by Newton's method from 0: with u = d X[:, ns-1] and the row
 * d X[0, :] added to B's last row, A_j Y + Y B_j = -C + X D X, solved by
 * B_j = Z R Z^H.  *res the relative residual of the equation.  0, or -1
 * (no convergence, a singular step, memory). */
static int
nare(const tri *A, const tri *B, double c, double d, double *X, double *res)
{
    int nb = A->n, ns = B->n, rc = -1, lw = -1, info = 0, sdim = 0;
    size_t nn = (size_t)ns * (size_t)ns, bs = (size_t)nb * (size_t)ns;
    cplx *Bj = malloc(nn * sizeof *Bj), *Z = malloc(nn * sizeof *Z);
    cplx *ev = malloc((size_t)ns * sizeof *ev), *W = malloc(bs * sizeof *W);
    cplx *wk = malloc((size_t)3 * (size_t)nb * sizeof *wk), *xz = malloc((size_t)ns * sizeof *xz);
    cplx *work = NULL, wq = 0.0;
    double *rw = malloc((size_t)ns * sizeof *rw), *u = malloc((size_t)nb * sizeof *u);
    double dprev = INFINITY;

    memset(X, 0, bs * sizeof *X);
    if (Bj == NULL || Z == NULL || ev == NULL || W == NULL || wk == NULL || xz == NULL ||
        rw == NULL || u == NULL)
        goto out;
    zgees_("V", "N", NULL, &ns, Bj, &ns, &sdim, ev, Z, &ns, &wq, &lw, rw, NULL, &info, 1, 1);
    lw = (int)creal(wq) + 1;
    work = malloc((size_t)lw * sizeof *work);
    if (work == NULL || info != 0)
        goto out;
    for (int it = 0; it < NEWTON_MAX; it++) {
        double dx = 0.0, xm = 0.0;
        cplx *y = wk + nb, *x = wk + 2 * nb;

        memset(Bj, 0, nn * sizeof *Bj);
        for (int i = 0; i < ns; i++) {
            Bj[i + (size_t)i * ns] = B->di[i];
            if (i > 0)
                Bj[i + (size_t)(i - 1) * ns] = B->lo[i];
            if (i + 1 < ns)
                Bj[i + (size_t)(i + 1) * ns] = B->up[i];
        }
        for (int i = 0; i < ns; i++)
            Bj[(ns - 1) + (size_t)i * ns] += d * X[(size_t)i * nb];
        for (int i = 0; i < nb; i++)
            u[i] = d * X[i + (size_t)(ns - 1) * nb];
        zgees_("V", "N", NULL, &ns, Bj, &ns, &sdim, ev, Z, &ns, work, &lw, rw, NULL, &info, 1,
               1);
        if (info != 0)
            goto out;
        /* right-hand side (-C + u X[0, :]) Z: xz = X[0, :] Z */
        for (int k = 0; k < ns; k++) {
            cplx s = 0.0;

            for (int l = 0; l < ns; l++)
                s += X[(size_t)l * nb] * Z[l + (size_t)k * ns];
            xz[k] = s;
        }
        for (int k = 0; k < ns; k++) {
            cplx *wcol = W + (size_t)k * nb, sg = Bj[k + (size_t)k * ns], den;

            for (int i = 0; i < nb; i++)
                wcol[i] = u[i] * xz[k];
            wcol[0] -= c * Z[(ns - 1) + (size_t)k * ns];
            for (int l = 0; l < k; l++) {
                cplx r = Bj[l + (size_t)k * ns];

                if (r != 0.0)
                    for (int i = 0; i < nb; i++)
                        wcol[i] -= W[i + (size_t)l * nb] * r;
            }
            /* (A + sg + u e0^T) w = rhs by Sherman-Morrison */
            for (int i = 0; i < nb; i++)
                y[i] = u[i];
            if (tri_solve(A, sg, wcol, x) || tri_solve(A, sg, y, x))
                goto out;
            den = 1.0 + y[0];
            if (den == 0.0)
                goto out;
            {
                cplx f = wcol[0] / den;

                for (int i = 0; i < nb; i++)
                    wcol[i] -= y[i] * f;
            }
        }
        /* X = Re(W Z^H) */
        for (int k = 0; k < ns; k++)
            for (int i = 0; i < nb; i++) {
                cplx s = 0.0;
                double v, *xo = &X[i + (size_t)k * nb];

                for (int l = 0; l < ns; l++)
                    s += W[i + (size_t)l * nb] * conj(Z[k + (size_t)l * ns]);
                v = creal(s);
                dx = fmax(dx, fabs(v - *xo));
                xm = fmax(xm, fabs(v));
                *xo = v;
            }
        if (!isfinite(dx))
            goto out;
        /* converged: a change at rounding, or one that no longer halves
         * once below 1e-8 (rounding noise of the solves) */
        if (dx <= 16 * DBL_EPSILON * xm || (dx > 0.5 * dprev && dx <= 1e-8 * xm)) {
            rc = 0;
            break;
        }
        dprev = dx;
    }
    if (rc == 0) {
        /* residual C + A X + X B + X D X, relative to its terms */
        double r = 0.0, big = 0.0;

        for (int k = 0; k < ns; k++)
            for (int i = 0; i < nb; i++) {
                double x0 = X[i + (size_t)k * nb], s, m;

                s = A->di[i] * x0 + B->di[k] * x0 + d * X[i + (size_t)(ns - 1) * nb] *
                    X[(size_t)k * nb];
                m = fabs(A->di[i] * x0) + fabs(B->di[k] * x0) +
                    fabs(d * X[i + (size_t)(ns - 1) * nb] * X[(size_t)k * nb]);
                if (i > 0) {
                    s += A->lo[i] * X[i - 1 + (size_t)k * nb];
                    m += fabs(A->lo[i] * X[i - 1 + (size_t)k * nb]);
                }
                if (i + 1 < nb) {
                    s += A->up[i] * X[i + 1 + (size_t)k * nb];
                    m += fabs(A->up[i] * X[i + 1 + (size_t)k * nb]);
                }
                if (k > 0) {
                    s += X[i + (size_t)(k - 1) * nb] * B->up[k - 1];
                    m += fabs(X[i + (size_t)(k - 1) * nb] * B->up[k - 1]);
                }
                if (k + 1 < ns) {
                    s += X[i + (size_t)(k + 1) * nb] * B->lo[k + 1];
                    m += fabs(X[i + (size_t)(k + 1) * nb] * B->lo[k + 1]);
                }
                if (i == 0 && k == ns - 1) {
                    s += c;
                    m += fabs(c);
                }
                r = fmax(r, fabs(s));
                big = fmax(big, m);
            }
        *res = big > 0.0 ? r / big : 0.0;
    }
out:
    free(Bj);
    free(Z);
    free(ev);
    free(W);
    free(wk);
    free(xz);
    free(work);
    free(rw);
    free(u);
    return rc;
}

/* ---- rows times e^{M S} -------------------------------------------------- */

/* E = e^{A t} (A dense n x n, column-major) by scaling and squaring of
 * an 18-term Taylor sum (|A t| / 2^s <= 1/2: truncation below 1e-22);
 * -1 for |A t| beyond 2^900 or no memory */
static int
expm(int n, const double *A, double t, double *E)
{
    size_t nn = (size_t)n * (size_t)n;
    double nrm = 0.0, one = 1.0, zero = 0.0;
    double *X = malloc(nn * sizeof *X), *T = malloc(nn * sizeof *T), *W = malloc(nn * sizeof *W);
    int s = 0, rc = -1;

    for (int j = 0; j < n; j++) {
        double cs = 0.0;

        for (int i = 0; i < n; i++)
            cs += fabs(A[i + (size_t)j * n]);
        nrm = fmax(nrm, cs * t);
    }
    if (X == NULL || T == NULL || W == NULL || !(nrm < 0x1p900))
        goto out;
    if (nrm > 0.5)
        s = (int)ceil(log2(nrm / 0.5));
    for (size_t i = 0; i < nn; i++)
        X[i] = A[i] * t / ldexp(1.0, s);
    memset(E, 0, nn * sizeof *E);
    memset(T, 0, nn * sizeof *T);
    for (int i = 0; i < n; i++)
        E[i + (size_t)i * n] = T[i + (size_t)i * n] = 1.0;
    for (int k = 1; k <= 18; k++) {
        double f = 1.0 / k;

        dgemm_("N", "N", &n, &n, &n, &f, T, &n, X, &n, &zero, W, &n, 1, 1);
        memcpy(T, W, nn * sizeof *T);
        for (size_t i = 0; i < nn; i++)
            E[i] += T[i];
    }
    for (int k = 0; k < s; k++) {
        dgemm_("N", "N", &n, &n, &n, &one, E, &n, E, &n, &zero, W, &n, 1, 1);
        memcpy(E, W, nn * sizeof *E);
    }
    rc = 0;
out:
    free(X);
    free(T);
    free(W);
    return rc;
}

/* Y (r rows of n, row i at Y + i n) := Y e^{M S}; *rel := max(*rel, a
 * bound on the relative rounding error, eps per term summed or squaring
 * taken); 0, or -1 (memory, or an exponent beyond the dense route's
 * range) */
static int
rows_exp(const tmat *M, double S, int r, double *Y, double *rel)
{
    int n = M->t.n, rc = -1;
    size_t rn = (size_t)r * (size_t)n;
    double c = 0.0, lam, jmax, unif, dense;

    for (int i = 0; i < n; i++)
        c = fmax(c, fabs(M->t.di[i] + (i == M->jc ? M->vc[i] : 0.0)));
    lam = c * S;
    if (!(lam > 0.0) || r == 0)
        return 0;
    jmax = ceil(lam + 10.0 * sqrt(lam) + 40.0);
    /* flops, the sparse sweep's counted ten times a matrix product's */
    unif = 80.0 * (double)rn * jmax;
    dense = 2.0 * (double)n * n * n * (19.0 + log2(1.0 + lam)) + 2.0 * (double)rn * n;
    if (fmin(unif, dense) > WORK_MAX)
        return -1;
    *rel = fmax(*rel, DBL_EPSILON * (unif <= dense ? jmax : n * (19.0 + log2(1.0 + lam))));
    if (unif <= dense) {
        /* v := v (I + M / c), with acc += w v in the same pass */
        double *V = malloc(2 * rn * sizeof *V), *acc = malloc(rn * sizeof *acc);
        double *pl = malloc((size_t)3 * (size_t)n * sizeof *pl), *pd, *pu, *T;
        double llam = log(lam), wsum = 0.0;

        if (V == NULL || acc == NULL || pl == NULL) {
            free(V);
            free(acc);
            free(pl);
            return -1;
        }
        pd = pl + n;
        pu = pd + n;
        for (int i = 0; i < n; i++) {
            pl[i] = M->t.lo[i] / c;
            pd[i] = 1.0 + M->t.di[i] / c;
            pu[i] = M->t.up[i] / c;
        }
        T = V + rn;
        memcpy(V, Y, rn * sizeof *V);
        memset(acc, 0, rn * sizeof *acc);
        for (long j = 0; j <= (long)jmax; j++) {
            double w = exp(-lam + (double)j * llam - lgamma((double)j + 1.0)), *sw;

            wsum += w;
            for (int q = 0; q < r; q++) {
                const double *v = V + (size_t)q * n;
                double *t = T + (size_t)q * n, *ac = acc + (size_t)q * n, sv = 0.0;

                for (int i = 0; i < n; i++) {
                    sv += v[i] * M->vc[i];
                    ac[i] += w * v[i];
                }
                t[0] = v[0] * pd[0] + (n > 1 ? v[1] * pl[1] : 0.0);
                for (int i = 1; i + 1 < n; i++)
                    t[i] = v[i - 1] * pu[i - 1] + v[i] * pd[i] + v[i + 1] * pl[i + 1];
                if (n > 1)
                    t[n - 1] = v[n - 2] * pu[n - 2] + v[n - 1] * pd[n - 1];
                t[M->jc] += sv / c;
                /* a subnormal is flushed to 0 (an absolute change below
                 * DBL_MIN): a far end decaying through them costs about
                 * a hundred cycles an entry a step (`size` on one class
                 * of 500 took 0.5 s with them, 0.25 s without) */
                for (int i = 0; i < n; i++)
                    t[i] = fabs(t[i]) < DBL_MIN ? 0.0 : t[i];
            }
            sw = V;
            V = T;
            T = sw;
        }
        /* the weights taken sum to 1 but for the rounding of their
         * exponents (about 1e-16 lam each), which dividing by the sum
         * takes out of their common factor */
        for (size_t i = 0; i < rn; i++)
            Y[i] = acc[i] / wsum;
        free(V < T ? V : T);
        free(acc);
        free(pl);
        return fabs(wsum - 1.0) <= 1e-9 ? 0 : -1;
    }
    {
        size_t nn = (size_t)n * (size_t)n;
        double *A = calloc(nn, sizeof *A), *E = malloc(nn * sizeof *E);
        double *Yt = malloc(rn * sizeof *Yt), one = 1.0, zero = 0.0;

        if (A != NULL && E != NULL && Yt != NULL) {
            for (int i = 0; i < n; i++) {
                A[i + (size_t)i * n] = M->t.di[i];
                if (i > 0)
                    A[i + (size_t)(i - 1) * n] = M->t.lo[i];
                if (i + 1 < n)
                    A[i + (size_t)(i + 1) * n] = M->t.up[i];
                A[i + (size_t)M->jc * n] += M->vc[i];
            }
            if (expm(n, A, S, E) == 0) {
                /* Y (r x n row-major = n x r column-major) := (E^T Y^T) */
                dgemm_("T", "N", &n, &r, &n, &one, E, &n, Y, &n, &zero, Yt, &n, 1, 1);
                memcpy(Y, Yt, rn * sizeof *Y);
                rc = 0;
            }
        }
        free(A);
        free(E);
        free(Yt);
    }
    return rc;
}

/* ---- the boundary system -------------------------------------------------- */

/* C (m x m, column-major) = A^T B, A and B k x m column-major: plain
 * loops (orders of tens; a threaded BLAS would only spin up its pool) */
static void
atb(int k, int m, const double *A, const double *B, double *C)
{
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
            const double *a = A + (size_t)i * k, *b = B + (size_t)j * k;
            double acc = 0.0;

            for (int q = 0; q < k; q++)
                acc += a[q] * b[q];
            C[i + (size_t)j * m] = acc;
        }
}


/* What does not depend on S, built once per model (fl_ma_get). */
struct fl_ma {
    int rc;                  /* BB_OK, or the refusal (kept: never retried) */
    char err[BB_ERRLEN];
    long k0, ku, kz;         /* phases 0 .. k0 - 1 below B, ku .. P - 1 above;
                                kz = k0 = ku - 1 the one at B, or -1 */
    double cz0, czS;         /* its atoms: l_kz = cz0 l_(k0-1), u_kz = czS u_ku */
    int np, nm;
    tri Tpp, Tmm;            /* T++, T-- */
    tri nQm, nQS;            /* -Q-- and -Q^S++ */
    double *pm, *pS;         /* their pivots (tri_gth) */
    double *Psi, *XiT;       /* np x nm, column-major */
    double *vK, *vU;         /* K's column 0, U's column nm - 1 beyond T */
    double *XP;              /* Xi Psi, nm x nm */
    double *gS, *iS;         /* (-Q^S++)^-1 e0 q^S, (-Q^S++)^-1 1 (np) */
    double *g0, *im, *h, *hm, *psi0; /* nm each: (-Q--)^-1 e_last q,
                                (-Q--)^-1 1, (I - Xi Psi) g0, (I - Xi Psi) im,
                                Psi's row 0 */
    double *XgS, *XiS;       /* Xi gS, Xi iS (nm) */
    double res;              /* the Riccati equations' residual */
};

static void
ma_free(struct fl_ma *a)
{
    if (a == NULL)
        return;
    free(a->Tpp.lo);
    free(a->Tmm.lo);
    free(a->nQm.lo);
    free(a->nQS.lo);
    free(a->Psi);
    free(a->XiT);
    free(a->vK);
    free(a->XP);
    free(a->gS);
    free(a->g0);
    free(a->pm);
    free(a);
}

void
fl_ma_free(struct fl_ma *a)
{
    ma_free(a);
}

static double
dot(int n, const double *x, const double *y)
{
    double s = 0.0;

    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* the blocks of one class (phase k = sources ON; k -> k + 1 at (N - k)
 * lam, k -> k - 1 at k mu, times share_top at S; T = Q / |d|), the
 * first-passage matrices and the S-independent vectors */
static int
ma_build(const bba_fluid *m, struct fl_ma *a)
{
    long P = m->P, k0 = 0, kz = -1, ku;
    const double *d = m->greedy->d;
    double N = (double)m->N[0], lam = m->lam[0], mu = m->mu[0], s, t, qS, az_up = 1.0;
    double az_dn = 1.0, cu;
    double rres = 0.0, xres = 0.0;
    int np, nm;
    tri TpT = { 0 }, TmT = { 0 }, Qm, QS;

    while (k0 < P && m->cls[k0] == FL_DOWN)
        k0++;
    /* a phase of zero drift (a rate exactly B) is censored: the chain
     * watched off it is birth-death, k0 - 1 <-> k0 + 1 at the rates times
     * the odds az of leaving kz up or down */
    if (k0 < P && m->cls[k0] == FL_ZERO)
        kz = k0;
    ku = k0 + (kz >= 0);
    for (long f = ku; f < P; f++)
        if (m->cls[f] != FL_UP)
            return bb_seterr(a->err, BB_EINVAL, "fluid model: phases not split by B");
    nm = (int)k0;
    np = (int)(P - ku);
    if (kz >= 0 && nm > 0 && np > 0) {
        double qz = (N - (double)kz) * lam + (double)kz * mu;

        az_up = (N - (double)kz) * lam / qz;
        az_dn = (double)kz * mu / qz;
        a->cz0 = (N - (double)(kz - 1)) * lam / qz;
        a->czS = m->share_top[ku] * (double)ku * mu / qz;
    }
    if (nm == 0 || np == 0)
        return bb_seterr(a->err, BB_EINVAL, "fluid model: no phase on one side of B");
    if (nm > np)
        return bb_seterr(a->err, BB_EINVAL, "fluid model: the matrix-analytic route takes "
                         "more phases above B than below (%d, %d)", np, nm);
    a->k0 = k0;
    a->ku = ku;
    a->kz = kz;
    a->np = np;
    a->nm = nm;
    a->Psi = malloc((size_t)np * (size_t)nm * sizeof *a->Psi);
    a->XiT = malloc((size_t)np * (size_t)nm * sizeof *a->XiT);
    a->vK = malloc((size_t)(np + nm) * sizeof *a->vK);
    a->XP = malloc((size_t)nm * (size_t)nm * sizeof *a->XP);
    a->gS = malloc((size_t)2 * (size_t)np * sizeof *a->gS);
    a->g0 = malloc((size_t)7 * (size_t)nm * sizeof *a->g0);
    a->pm = malloc((size_t)P * sizeof *a->pm);
    if (a->Psi == NULL || a->XiT == NULL || a->vK == NULL || a->XP == NULL ||
        a->gS == NULL || a->g0 == NULL || a->pm == NULL || tri_new(&a->Tpp, np) ||
        tri_new(&a->Tmm, nm) || tri_new(&a->nQm, nm) || tri_new(&a->nQS, np) ||
        tri_new(&TpT, np) || tri_new(&TmT, nm))
        goto nomem;
    a->pS = a->pm + nm;
    Qm = a->nQm;
    QS = a->nQS;
    a->vU = a->vK + np;
    a->iS = a->gS + np;
    a->im = a->g0 + nm;
    a->h = a->im + nm;
    a->hm = a->h + nm;
    a->psi0 = a->hm + nm;
    a->XgS = a->psi0 + nm;
    a->XiS = a->XgS + nm;
    for (long k = 0; k < P; k++) {
        double upr = (N - (double)k) * lam, dn = (double)k * mu, ad = fabs(d[k]);
        double dnS = m->share_top[k] * dn;

        if (k == kz)
            continue;
        dn *= m->share_in[k]; /* the interior's ON -> OFF where B_BB binds: Q' */
        if (k == k0 - 1)
            upr *= az_up;
        if (k == ku) {
            dn *= az_dn;
            dnS *= az_dn;
        }

        if (k < k0) {
            int i = (int)k;

            Qm.lo[i] = -dn;
            Qm.up[i] = i + 1 < nm ? -upr : 0.0;
            Qm.di[i] = upr + dn;
            a->Tmm.lo[i] = dn / ad;
            a->Tmm.up[i] = i + 1 < nm ? upr / ad : 0.0;
            a->Tmm.di[i] = -(upr + dn) / ad;
        } else {
            int i = (int)(k - ku);

            QS.lo[i] = i > 0 ? -dnS : 0.0;
            QS.up[i] = -upr;
            QS.di[i] = upr + dnS;
            a->Tpp.lo[i] = i > 0 ? dn / ad : 0.0;
            a->Tpp.up[i] = upr / ad;
            a->Tpp.di[i] = -(upr + dn) / ad;
        }
    }
    cu = (N - (double)(k0 - 1)) * lam * az_up;                  /* Q-+: k0 - 1 -> ku */
    s = m->share_in[ku] * (double)ku * mu * az_dn / fabs(d[ku]); /* T+-: ku -> k0 - 1 */
    t = cu / fabs(d[k0 - 1]);                                  /* T-+ */
    qS = m->share_top[ku] * (double)ku * mu * az_dn;            /* Q^S+- */
    tri_transpose(&a->Tpp, &TpT);
    tri_transpose(&a->Tmm, &TmT);
    {
        double *x = a->vK; /* the exits, before vK is set */

        memset(x, 0, (size_t)(np + nm) * sizeof *x);
        x[nm - 1] = cu;                            /* -Q--: k0 - 1 -> ku */
        tri_gth(&Qm, x, a->pm);
        x[nm - 1] = 0.0;
        x[0] = qS;                                 /* -Q^S++: ku -> k0 - 1 */
        tri_gth(&QS, x, a->pS);
    }
    if (nare(&a->Tpp, &a->Tmm, s, t, a->Psi, &rres) ||
        nare(&TpT, &TmT, t, s, a->XiT, &xres)) {
        bb_seterr(a->err, BB_ENOCONV, "fluid model (%ld phases in 1 class): Newton's method "
                  "for the first-passage matrices did not converge", P);
        goto out;
    }
    a->res = fmax(rres, xres);
    /* K = T++ + t Psi[:, last] e0^T, U = T-- + s Xi[:, 0] e_last^T */
    for (int i = 0; i < np; i++) {
        a->vK[i] = t * a->Psi[i + (size_t)(nm - 1) * np];
        a->gS[i] = i == 0 ? qS : 0.0;
        a->iS[i] = 1.0;
    }
    for (int i = 0; i < nm; i++) {
        a->vU[i] = s * a->XiT[(size_t)i * np];
        a->g0[i] = i == nm - 1 ? cu : 0.0;
        a->im[i] = 1.0;
    }
    tri_solve_piv(&Qm, a->pm, 0, a->g0);
    tri_solve_piv(&Qm, a->pm, 0, a->im);
    tri_solve_piv(&QS, a->pS, 0, a->gS);
    tri_solve_piv(&QS, a->pS, 0, a->iS);
    atb(np, nm, a->XiT, a->Psi, a->XP);
    for (int i = 0; i < nm; i++) {
        a->h[i] = a->g0[i];
        a->hm[i] = a->im[i];
        for (int j = 0; j < nm; j++) {
            a->h[i] -= a->XP[i + (size_t)j * nm] * a->g0[j];
            a->hm[i] -= a->XP[i + (size_t)j * nm] * a->im[j];
        }
        a->psi0[i] = a->Psi[(size_t)i * np];
        a->XgS[i] = dot(np, a->XiT + (size_t)i * np, a->gS);
        a->XiS[i] = dot(np, a->XiT + (size_t)i * np, a->iS);
    }
    a->rc = BB_OK;
    goto out;
nomem:
    bb_seterr(a->err, BB_ENOMEM, "out of memory for the matrix-analytic route (%ld phases)",
              P);
out:
    free(TpT.lo);
    free(TmT.lo);
    return a->rc;
}

/* the model's S-independent part, built on first use (and kept, a
 * refusal too: every size would meet it) */
static int
ma_get(const bba_fluid *m, const struct fl_ma **out, char *err)
{
    bba_fluid *mm = (bba_fluid *)m;
    int rc = BB_ENOMEM;

    pthread_mutex_lock(&mm->lock);
    if (mm->ma == NULL && (mm->ma = calloc(1, sizeof *mm->ma)) != NULL) {
        mm->ma->rc = BB_ENOMEM;
        ma_build(m, mm->ma);
    }
    if (mm->ma != NULL && (rc = mm->ma->rc) != BB_OK)
        bb_seterr(err, rc, "%s", mm->ma->err);
    else if (mm->ma == NULL)
        bb_seterr(err, rc, "out of memory for the matrix-analytic route");
    *out = mm->ma;
    pthread_mutex_unlock(&mm->lock);
    return rc;
}

int
fl_ma_atoms(const bba_fluid *m, double S, double *l, double *u, double *res, char *err)
{
    long P = m->P;
    const struct fl_ma *a;
    int np, nm, neq, nun, rc = BB_OK;
    double *Rk = NULL, *EU = NULL, *A = NULL, *RXP = NULL, *EUM = NULL, *wv = NULL;
    double erel = 0.0;

    *res = INFINITY;
    if (m->C != 1 || m->stride[0] != 1 || P != m->N[0] + 1 || m->greedy == NULL)
        return bb_seterr(err, BB_EINVAL, "fluid model: the matrix-analytic route takes one "
                         "class, greedy");
    if (!(S > 0.0))
        return bb_seterr(err, BB_EINVAL, "fluid model: the matrix-analytic route needs S > 0");
    rc = ma_get(m, &a, err);
    if (rc != BB_OK)
        return rc;
    np = a->np;
    nm = a->nm;
    neq = nm + 3;
    nun = nm + 2;
    Rk = malloc((size_t)(nm + 1) * (size_t)np * sizeof *Rk);
    EU = calloc((size_t)nm * (size_t)nm, sizeof *EU);
    A = calloc((size_t)neq * (size_t)(2 * nun + 1), sizeof *A);
    RXP = malloc((size_t)2 * (size_t)nm * (size_t)nm * sizeof *RXP);
    wv = malloc((size_t)(np + 6 * nm + 4) * sizeof *wv);
    if (Rk == NULL || EU == NULL || A == NULL || RXP == NULL || wv == NULL)
        goto nomem;
    EUM = RXP + (size_t)nm * (size_t)nm;
    /* rows e0 and Xi times e^{KS}; E_U = e^{US} by its rows */
    {
        tmat K = { a->Tpp, 0, a->vK }, U = { a->Tmm, nm - 1, a->vU };

        memset(Rk, 0, (size_t)np * sizeof *Rk);
        Rk[0] = 1.0;
        memcpy(Rk + np, a->XiT, (size_t)np * (size_t)nm * sizeof *Rk);
        for (int i = 0; i < nm; i++)
            EU[(size_t)i * nm + i] = 1.0;
        if (rows_exp(&K, S, nm + 1, Rk, &erel) || rows_exp(&U, S, nm, EU, &erel)) {
            rc = bb_seterr(err, BB_ETOOBIG, "fluid model (%ld phases in 1 class): the "
                           "exponentials at size %g B are beyond the matrix-analytic route's "
                           "work bound", P, S);
            goto out;
        }
    }
    {
        double r0gS = dot(np, Rk, a->gS), r0iS = dot(np, Rk, a->iS);
        double *x = A + (size_t)neq * (size_t)nun, *Ac = x + neq, *fp = wv, *fm = fp + np;
        double *bE = fm + nm, *r0P = bE + nm, *RgS = r0P + nm, *RiS = RgS + nm;
        int one_i = 1, lwork = -1, info = 0;
        double wq = 0.0, *work, rhs = 1.0;

        /* RXP (i, j) = (Xi_i e^{KS}) Psi_j; EUM = E_U RXP (EU row-major: E_U^T) */
        atb(np, nm, Rk + np, a->Psi, RXP);
        atb(nm, nm, EU, RXP, EUM);
        for (int i = 0; i < nm; i++) {
            r0P[i] = dot(np, Rk, a->Psi + (size_t)i * np);
            RgS[i] = dot(np, Rk + np + (size_t)i * np, a->gS);
            RiS[i] = dot(np, Rk + np + (size_t)i * np, a->iS);
        }
        /* unknowns (alpha, b_0 .. b_(nm-1), beta); equations: f+(0) = alpha
         * e0 with alpha = f-(0) g0; f-(S) = beta e_last; beta = f+(S) gS;
         * the atoms sum to 1 */
#define AE(e, q) A[(size_t)(e) + (size_t)(q) * (size_t)neq]
        AE(0, 0) = 1.0 - dot(nm, a->psi0, a->g0);
        for (int i = 0; i < nm; i++) {
            double eh = 0.0, ehm = 0.0, egs = 0.0, eis = 0.0;

            for (int j = 0; j < nm; j++) {
                double e = EU[(size_t)i * nm + j];

                eh += e * a->h[j];
                ehm += e * a->hm[j];
                egs += e * RgS[j];
                eis += e * RiS[j];
            }
            AE(0, 1 + i) = -eh;
            AE(nm + 1, 1 + i) = -a->XgS[i] + egs;
            AE(nm + 2, 1 + i) = ehm + a->XiS[i] - eis;
            for (int j = 0; j < nm; j++)
                AE(1 + j, 1 + i) = (i == j) - EUM[i + (size_t)j * nm];
            AE(1 + i, 0) = r0P[i];
        }
        AE(nm, nm + 1) = -1.0;
        AE(nm + 1, 0) = -r0gS;
        AE(nm + 1, nm + 1) = 1.0;
        AE(nm + 2, 0) = dot(nm, a->psi0, a->im) + r0iS;
        /* each equation scaled by its largest coefficient (their scales
         * differ by e^{|z| S}) */
        for (int e = 0; e < neq; e++) {
            double sc = 0.0;

            for (int q = 0; q < nun; q++)
                sc = fmax(sc, fabs(AE(e, q)));
            if (!(sc > 0.0) || !isfinite(sc))
                goto singular;
            for (int q = 0; q < nun; q++)
                AE(e, q) /= sc;
            if (e == neq - 1)
                rhs = 1.0 / sc;
        }
        /* the homogeneous equations (nun of them, rank nun - 1) by their
         * null vector, the last column of Q in H^T P = Q R (QR with column
         * pivoting, rank-revealing), scaled to the normalisation: a least
         * squares solve would trade the normalisation for the rounding of
         * the others */
        for (int e = 0; e < nun; e++)
            for (int q = 0; q < nun; q++)
                Ac[q + (size_t)e * nun] = AE(e, q);
        {
            int *jp = calloc((size_t)nun, sizeof *jp);
            double *tau = malloc((size_t)nun * sizeof *tau), nx = 0.0;

            if (jp == NULL || tau == NULL) {
                free(jp);
                free(tau);
                goto nomem;
            }
            dgeqp3_(&nun, &nun, Ac, &nun, jp, tau, &wq, &lwork, &info);
            lwork = (int)wq + nun + 64;
            work = info == 0 ? malloc((size_t)lwork * sizeof *work) : NULL;
            if (work != NULL) {
                dgeqp3_(&nun, &nun, Ac, &nun, jp, tau, work, &lwork, &info);
                memset(x, 0, (size_t)nun * sizeof *x);
                x[nun - 1] = 1.0;
                if (info == 0)
                    dormqr_("L", "N", &nun, &one_i, &nun, Ac, &nun, tau, x, &nun, work, &lwork,
                            &info, 1, 1);
            }
            free(work);
            free(jp);
            free(tau);
            if (work == NULL || info != 0)
                goto singular;
            for (int q = 0; q < nun; q++)
                nx += AE(neq - 1, q) * x[q];
            if (!(fabs(nx) > 0.0))
                goto singular;
            for (int q = 0; q < nun; q++)
                x[q] *= rhs / nx;
        }
        /* residual: the largest equation's error over the largest
         * equation's terms (normwise, as the solve is; the normalisation
         * to its own) */
        {
            double r = 0.0, big = 0.0, acc = -rhs, mag = rhs;

            for (int e = 0; e + 1 < neq; e++) {
                double ae = 0.0, me = 0.0;

                for (int q = 0; q < nun; q++) {
                    ae += AE(e, q) * x[q];
                    me += fabs(AE(e, q) * x[q]);
                }
                r = fmax(r, fabs(ae));
                big = fmax(big, me);
            }
            for (int q = 0; q < nun; q++) {
                acc += AE(neq - 1, q) * x[q];
                mag += fabs(AE(neq - 1, q) * x[q]);
            }
            *res = fmax(fmax(big > 0.0 ? r / big : 0.0, fabs(acc) / mag), fmax(a->res, erel));
        }
#undef AE
        /* f-(0) = alpha psi0 + (b E_U)(I - Xi Psi); l = f-(0) (-Q--)^-1 */
        for (int j = 0; j < nm; j++) {
            bE[j] = 0.0;
            for (int i = 0; i < nm; i++)
                bE[j] += x[1 + i] * EU[(size_t)i * nm + j];
        }
        for (int j = 0; j < nm; j++) {
            fm[j] = x[0] * a->psi0[j] + bE[j];
            for (int i = 0; i < nm; i++)
                fm[j] -= bE[i] * a->XP[i + (size_t)j * nm];
        }
        /* f+(S) = alpha r0 + b Xi - (b E_U) (Xi e^{KS}); u = f+(S) (-Q^S++)^-1 */
        for (int j = 0; j < np; j++)
            fp[j] = x[0] * Rk[j];
        for (int i = 0; i < nm; i++)
            for (int j = 0; j < np; j++)
                fp[j] += x[1 + i] * a->XiT[(size_t)i * np + j] -
                         bE[i] * Rk[np + (size_t)i * np + j];
        tri_solve_piv(&a->nQm, a->pm, 1, fm);
        tri_solve_piv(&a->nQS, a->pS, 1, fp);
        for (long f = 0; f < P; f++) {
            l[f] = f < a->k0 ? fm[f] : 0.0;
            u[f] = f >= a->ku ? fp[f - a->ku] : 0.0;
        }
        if (a->kz >= 0) {
            l[a->kz] = a->cz0 * fm[nm - 1];
            u[a->kz] = a->czS * fp[0];
        }
    }
    goto out;
singular:
    rc = bb_seterr(err, BB_ESINGULAR, "fluid model (%ld phases in 1 class): the "
                   "matrix-analytic boundary system is singular", P);
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the matrix-analytic route (%ld "
                   "phases)", P);
out:
    free(Rk);
    free(EU);
    free(A);
    free(RXP);
    free(wv);
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
        double tot = 0.0, occ = 0.0;

        /* the mean occupancy must lie in [0, S]: a check on e^{KS}, which
         * neither the boundary system nor the flux balance sees */
        for (long f = 0; f < P; f++) {
            tot += w[f] + w[P + f] + w[2 * P + f];
            occ += w[3 * P + f] + S * w[P + f];
        }
        if (!(occ >= 0.0 && occ <= S * tot * (1.0 + 1e-9)))
            rel = INFINITY;
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
