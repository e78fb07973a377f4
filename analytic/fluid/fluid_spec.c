/* fluid_spec.c: the modes phi Q = z phi D of one region of the fluid
 * model (fluid.h), separable or dense.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Separable (greedy, B_BB not binding): D = sum_c D_c - (B - r0) I over a
 * Kronecker sum Q = sum_c Q_c.  If phi_c (Q_c - z D_c) = nu_c phi_c for
 * every class then phi = (x)_c phi_c satisfies phi (Q - z D) =
 * (sum_c nu_c(z) + z (B - r0)) phi, so each root of that scalar equation
 * is an eigenvalue.  A class of N sources has the eigenvalues
 * k nu+(z) + (N - k) nu-(z), k = 0..N, of the 2x2 single-source matrix
 * (Anick, Mitra and Sondhi 1982; Stern and Elwalid 1991), so a multi-index
 * k picks one per class.  Counting sign changes on each half line gives
 * one negative root per k whose phase k is up and one positive root per k
 * whose complementary phase N - k is down, P_n - 1 in all apart from
 * k = N, whose F has the root 0 (the mode pi) and one more on the side of
 * the mean drift, found from F(z)/z; as many roots as there are modes, so
 * each bracket holds exactly one.  Each is found to full precision by
 * Newton's method inside the bracket; each class vector by a twisted
 * factorisation of the symmetric tridiagonal Pi_c^(1/2) (Q_c - z D_c)
 * Pi_c^(-1/2) (class_vector), every component to its own relative
 * accuracy where the polynomial form (u+)^k (u-)^(N-k) cancels, and each
 * mode checked componentwise.  P roots, P C (N + 1) work each.
 *
 * Dense: zero-drift phases censored (Q~ = Q_nn - Q_n0 Q_00^-1 Q_0n, their
 * density phi_0 = -phi_n Q_n0 Q_00^-1), C = |D|^-1/2 Pi^1/2 Q~ Pi^-1/2
 * |D|^-1/2 symmetric negative semidefinite with kernel |D|^1/2 pi^1/2.
 * With -C = G G^T (dsyevd, the kernel dropped), J C w = z w (J = sign D)
 * has the non-zero eigenvalues of the symmetric H = -G^T J G (dsyevd
 * again) and w = J G y: real, computed by symmetric solvers only, and
 * exact at zero mean drift where the pencil is defective at z = 0. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"
#include "lapackf.h"
#include "parfor.h"

/* A mode whose residual |phi (Q - z D)| exceeds this, relative to
 * |phi| (|Q| + |z| |D|), means the spectrum was not computed. */
#define MODE_RESID_MAX 1e-8
/* modes a thread takes at least (each O(P)) */
#define VEC_GRAIN 64

void
fl_q_row(const bba_fluid *m, long f, double *row, int top)
{
    long rem = f;
    double diag = 0.0, sh = top ? m->share_top[f] : m->share_in[f];

    memset(row, 0, (size_t)m->P * sizeof *row);
    for (int c = 0; c < m->C; c++) {
        long mc = rem % (m->N[c] + 1);
        double up = fl_birth(m, c, mc), dn = sh * fl_death(m, c, mc);

        rem /= m->N[c] + 1;
        if (mc < m->N[c])
            row[f + m->stride[c]] = up;
        if (mc > 0)
            row[f - m->stride[c]] = dn;
        diag -= up + dn;
    }
    row[f] = diag;
}

double
fl_q_out(const bba_fluid *m, long f)
{
    double out = 0.0;

    for (int c = 0; c < m->C; c++) {
        long mc = f % (m->N[c] + 1);

        f /= m->N[c] + 1;
        out += fl_birth(m, c, mc) + fl_death(m, c, mc);
    }
    return out;
}

void
fl_q_left(const bba_fluid *m, const double *x, double *y, int top)
{
    int mc[FL_CLASSES_MAX] = { 0 }; /* the phase's digits, advanced with f */

    memset(y, 0, (size_t)m->P * sizeof *y);
    for (long f = 0; f < m->P; f++) {
        double diag = 0.0, xf = x[f], sh = top ? m->share_top[f] : m->share_in[f];

        for (int c = 0; c < m->C; c++) {
            double up = fl_birth(m, c, mc[c]);
            double dn = sh * fl_death(m, c, mc[c]);

            if (mc[c] < m->N[c])
                y[f + m->stride[c]] += xf * up;
            if (mc[c] > 0)
                y[f - m->stride[c]] += xf * dn;
            diag -= up + dn;
        }
        y[f] += xf * diag;
        for (int c = 0; c < m->C && ++mc[c] > m->N[c]; c++)
            mc[c] = 0;
    }
}

void
fl_spec_free(fl_spec *s)
{
    if (s == NULL)
        return;
    free(s->d);
    free(s->z);
    free(s->phi);
    free(s->mass);
    free(s->zi);
    free(s->kind);
    free(s->home);
    free(s);
}

/* ---- separable roots ---------------------------------------------------- */

/* Eigenvalues nu+ >= nu- of the single-source matrix [[-lam, lam],
 * [mu, -mu - z b]] and their derivatives in z, without cancellation:
 * nu+ nu- = lam z b, nu+ + nu- = -(lam + mu + z b). */
static void
nu_pm(double lam, double mu, double b, double z, double *np, double *nm,
      double *dnp, double *dnm)
{
    double s = lam + mu + z * b, t = lam - mu - z * b;
    double sq = sqrt(t * t + 4.0 * lam * mu);

    if (s >= 0.0) {
        *nm = -(s + sq) / 2.0;
        *np = lam * z * b / *nm;
    } else {
        *np = (-s + sq) / 2.0;
        *nm = lam * z * b / *np;
    }
    *dnp = -b * (*np + lam) / sq;
    *dnm = b * (*nm + lam) / sq;
}

typedef struct {
    const bba_fluid *m;
    const long *k;     /* C: the multi-index */
    int g;             /* 1: F(z)/z for k = N */
    double Bp;         /* B - r0 */
} root_ctx;

static void
root_eval(const root_ctx *rc, double z, double *f, double *df)
{
    const bba_fluid *m = rc->m;
    double F = rc->g ? rc->Bp : z * rc->Bp, dF = rc->g ? 0.0 : rc->Bp;

    for (int c = 0; c < m->C; c++) {
        double np, nm, dnp, dnm, kc = (double)rc->k[c], Nc = (double)m->N[c];

        nu_pm(m->lam[c], m->mu[c], m->b[c], z, &np, &nm, &dnp, &dnm);
        if (rc->g) {
            F += Nc * m->lam[c] * m->b[c] / nm;
            dF -= Nc * m->lam[c] * m->b[c] * dnm / (nm * nm);
        } else {
            F += kc * np + (Nc - kc) * nm;
            dF += kc * dnp + (Nc - kc) * dnm;
        }
    }
    *f = F;
    *df = dF;
}

/* The root of rc's function between 0 and the far side (dir = -1: z < 0,
 * +1: z > 0) starting from the scale z0 > 0; f0 = value at 0 (non-zero).
 * Expands the bracket by doubling, then Newton safeguarded by bisection
 * (Numerical Recipes' rtsafe).  Returns NAN when no sign change is found
 * within the double range. */
static double
root_find(const root_ctx *rc, int dir, double z0, double f0)
{
    double a = 0.0, b = dir * z0, fb, df, lo, hi, x, dx, dxold, f;
    int i;

    for (i = 0; i < 2100; i++) {
        root_eval(rc, b, &fb, &df);
        if ((fb > 0.0) != (f0 > 0.0) || fb == 0.0)
            break;
        a = b;
        b *= 2.0;
        if (!isfinite(b))
            return NAN;
    }
    if (i == 2100)
        return NAN;
    if (fb == 0.0)
        return b;
    /* f(a) has the sign of f0, f(b) the other one */
    if (f0 < 0.0) {
        lo = a;
        hi = b;
    } else {
        lo = b;
        hi = a;
    }
    x = 0.5 * (a + b);
    dxold = fabs(b - a);
    dx = dxold;
    root_eval(rc, x, &f, &df);
    for (i = 0; i < 400; i++) {
        if ((((x - hi) * df - f) * ((x - lo) * df - f) > 0.0) ||
            fabs(2.0 * f) > fabs(dxold * df)) {
            dxold = dx;
            dx = 0.5 * (hi - lo);
            x = lo + dx;
        } else {
            dxold = dx;
            dx = f / df;
            x -= dx;
        }
        if (fabs(dx) <= 2.0 * DBL_EPSILON * fabs(x) || lo == hi)
            break;
        root_eval(rc, x, &f, &df);
        if (f == 0.0)
            break;
        if (f < 0.0)
            lo = x;
        else
            hi = x;
    }
    return x;
}

/* Class c's left vector of Q_c - z D_c for eigenvalue index kc, into v
 * (N_c + 1), scaled to max_i |v_i| = 1, every component to its own
 * relative accuracy.  The symmetrised tridiagonal T = Pi^1/2 (Q_c -
 * z D_c) Pi^-1/2 (diagonal a_i, off-diagonal e_i) less nu I is factored
 * from both ends, D+_i = a_i - nu - e_(i-1)^2 / D+_(i-1) and D-_i =
 * a_i - nu - e_i^2 / D-_(i+1); the twist r minimises |gamma_r| = |D+_r +
 * D-_r - a_r + nu|, and the eigenvector w has w_r = 1, w_i = -(e_i /
 * D+_i) w_(i+1) below r and w_i = -(e_(i-1) / D-_i) w_(i-1) above it
 * (Parlett and Dhillon 1997; LAPACK's dlar1v).  Each component is a
 * product of ratios, accumulated as a logarithm with lp_i = log pi_i, so
 * components far below the double range relative to the largest (a
 * class of hundreds of sources: pi_N ~ p^N) keep their exponent and
 * underflow only after scaling, where they are negligible; inverse
 * iteration (dstein) gives them only to rounding of the largest, the
 * tails of a large class then being noise that the boundary system
 * cannot undo.  wk holds 5 (N_c + 1) doubles, sg (N_c + 1) chars. */
static int
class_vector(const bba_fluid *m, int c, double z, long kc, const double *lp, double *v,
             double *wk, signed char *sg)
{
    int n = m->N[c] + 1, r = 0;
    double *a = wk, *e = wk + n, *dp = wk + 2 * n, *dm = wk + 3 * n, *lw = wk + 4 * n;
    double np, nm, dnp, dnm, lam = m->lam[c], mu = m->mu[c], nu, scale = 0.0, best, top;

    nu_pm(lam, mu, m->b[c], z, &np, &nm, &dnp, &dnm);
    nu = (double)kc * np + (double)(n - 1 - kc) * nm;
    for (int i = 0; i < n; i++) {
        a[i] = -(double)(n - 1 - i) * lam - (double)i * mu - z * (double)i * m->b[c] - nu;
        e[i] = i + 1 < n ? sqrt((double)(n - 1 - i) * lam * (double)(i + 1) * mu) : 0.0;
        scale = fmax(scale, fabs(a[i]) + 2.0 * e[i]);
    }
    /* a zero pivot is moved off zero by rounding of the matrix's size */
#define PIV(x) ((x) != 0.0 ? (x) : DBL_EPSILON * scale)
    dp[0] = PIV(a[0]);
    for (int i = 1; i < n; i++)
        dp[i] = PIV(a[i] - e[i - 1] * (e[i - 1] / dp[i - 1]));
    dm[n - 1] = PIV(a[n - 1]);
    for (int i = n - 2; i >= 0; i--)
        dm[i] = PIV(a[i] - e[i] * (e[i] / dm[i + 1]));
#undef PIV
    best = INFINITY;
    for (int i = 0; i < n; i++) {
        double g = fabs(dp[i] + dm[i] - a[i]);

        if (!isfinite(dp[i]) || !isfinite(dm[i]))
            return -1;
        if (g < best) {
            best = g;
            r = i;
        }
    }
    lw[r] = 0.0;
    sg[r] = 1;
    for (int i = r - 1; i >= 0; i--) {
        double t = -e[i] / dp[i];

        lw[i] = lw[i + 1] + log(fabs(t));
        sg[i] = (signed char)(t < 0.0 ? -sg[i + 1] : sg[i + 1]);
    }
    for (int i = r + 1; i < n; i++) {
        double t = -e[i - 1] / dm[i];

        lw[i] = lw[i - 1] + log(fabs(t));
        sg[i] = (signed char)(t < 0.0 ? -sg[i - 1] : sg[i - 1]);
    }
    /* v = w Pi^1/2, scaled to its largest component */
    top = -INFINITY;
    for (int i = 0; i < n; i++) {
        lw[i] += 0.5 * lp[i];
        if (!isfinite(lw[i]))
            return -1;
        top = fmax(top, lw[i]);
    }
    for (int i = 0; i < n; i++)
        v[i] = sg[i] * exp(lw[i] - top);
    return 0;
}

/* ---- the two constructions ----------------------------------------------- */

typedef struct {
    double z;
    long idx;   /* the multi-index, as a phase index */
    long home;  /* the phase the root is counted for (fl_spec.home) */
} root_rec;

static int
cmp_root(const void *a, const void *b)
{
    double x = ((const root_rec *)a)->z, y = ((const root_rec *)b)->z;

    return (x > y) - (x < y);
}

/* The vectors of modes [lo, hi) into s->phi, each the Kronecker product
 * of its class vectors (class 0 fastest), on chunk t's scratch. */
typedef struct {
    const bba_fluid *m;
    fl_spec *s;
    const root_rec *rt;
    double *const *lpi;
    int nmax;
    double *scr;      /* per chunk: cv (C nmax), wk (5 nmax) */
    signed char *sgs; /* per chunk: nmax */
    long bad[BBA_PAR_MAX];
    int badc[BBA_PAR_MAX];
} vec_job;

static int
vec_chunk(void *ctx, long lo, long hi, int t)
{
    vec_job *J = ctx;
    const bba_fluid *m = J->m;
    long P = m->P;
    size_t per = (size_t)(m->C + 5) * (size_t)J->nmax;
    double *cv = J->scr + (size_t)t * per, *wk = cv + (size_t)m->C * (size_t)J->nmax;
    signed char *sg = J->sgs + (size_t)t * (size_t)J->nmax;

    for (long j = lo; j < hi; j++) {
        double *v = J->s->phi + (size_t)j * (size_t)P, z = J->rt[j].z;
        long len = 1, rem = J->rt[j].idx;

        J->s->z[j] = z;
        J->s->home[j] = J->rt[j].home;
        for (int c = 0; c < m->C; c++) {
            long kc = rem % (m->N[c] + 1);

            rem /= m->N[c] + 1;
            if (class_vector(m, c, z, kc, J->lpi[c], cv + (size_t)c * (size_t)J->nmax, wk,
                             sg) != 0) {
                J->bad[t] = j;
                J->badc[t] = c;
                return 1;
            }
        }
        v[0] = 1.0;
        for (int c = 0; c < m->C; c++) {
            int n = m->N[c] + 1;
            const double *vc = cv + (size_t)c * (size_t)J->nmax;

            for (long i = len - 1; i >= 0; i--)
                for (int a = n - 1; a >= 0; a--)
                    v[i + (long)a * len] = v[i] * vc[a];
            len *= n;
        }
    }
    return 0;
}

/* The roots (first pass), sorted, then their vectors into s->phi. */
static int
spec_separable(const bba_fluid *m, fl_spec *s, char *err)
{
    long P = m->P, nm = 0, *k = NULL;
    long kN = P - 1; /* the multi-index N (all ON) has the largest index */
    int nmax = 0, rc = BB_OK;
    double **lpi = NULL, Bp = m->B - m->r0, g0;
    root_rec *rt = NULL;
    root_ctx ctx = { m, NULL, 0, Bp };

    for (int c = 0; c < m->C; c++)
        if (m->N[c] + 1 > nmax)
            nmax = m->N[c] + 1;
    k = calloc((size_t)m->C, sizeof *k);
    lpi = calloc((size_t)m->C, sizeof *lpi);
    rt = malloc((size_t)(s->m + 1) * sizeof *rt);
    if (k == NULL || lpi == NULL || rt == NULL)
        goto nomem;
    for (int c = 0; c < m->C; c++) {
        double p = m->lam[c] / (m->lam[c] + m->mu[c]);

        lpi[c] = malloc((size_t)(m->N[c] + 1) * sizeof **lpi);
        if (lpi[c] == NULL)
            goto nomem;
        for (int i = 0; i <= m->N[c]; i++)
            lpi[c][i] = fl_log_binom(m->N[c], i, p);
    }
    ctx.k = k;
    /* G(0) = B' - E': its sign decides the side of k = N's second root */
    {
        double f, df;

        ctx.g = 1;
        root_eval(&ctx, 0.0, &f, &df);
        g0 = f;
        ctx.g = 0;
    }
    s->drift = -g0;
    for (long idx = 0; idx < P; idx++) {
        long rem = idx;
        double sumk = 0.0, sumnk = 0.0, up = 0.0, dn = 0.0;

        for (int c = 0; c < m->C; c++) {
            k[c] = rem % (m->N[c] + 1);
            rem /= m->N[c] + 1;
            sumk += (double)k[c] * m->b[c];
            sumnk += (double)(m->N[c] - k[c]) * m->b[c];
            up += (double)k[c] * m->mu[c] + (double)(m->N[c] - k[c]) * m->lam[c];
            dn += (double)k[c] * m->lam[c] + (double)(m->N[c] - k[c]) * m->mu[c];
        }
        for (int side = -1; side <= 1; side += 2) {
            double z, f0, df;

            if (idx == kN) {
                if (side < 0 ? g0 < 0.0 : g0 >= 0.0)
                    continue;
                if (g0 == 0.0) {
                    z = 0.0;
                } else {
                    ctx.g = 1;
                    z = root_find(&ctx, side, up / fabs(m->rate[idx] - m->B) + 1.0 / m->B, g0);
                    ctx.g = 0;
                }
            } else {
                if (side < 0 ? m->cls[idx] != FL_UP : m->cls[kN - idx] != FL_DOWN)
                    continue;
                root_eval(&ctx, 0.0, &f0, &df);
                z = side < 0 ? root_find(&ctx, -1, 2.0 * up / (sumk - Bp), f0)
                             : root_find(&ctx, 1, 2.0 * dn / (Bp - sumnk), f0);
            }
            if (!isfinite(z)) {
                rc = bb_seterr(err, BB_ENOCONV, "fluid model: no root found for "
                               "spectral index %ld (side %+d)", idx, side);
                goto out;
            }
            if (nm >= s->m) {
                rc = bb_seterr(err, BB_ENOCONV, "fluid model: more roots than the "
                               "%ld modes expected", s->m);
                goto out;
            }
            rt[nm].z = z;
            rt[nm].idx = idx;
            rt[nm].home = side < 0 ? idx : kN - idx;
            nm++;
        }
    }
    if (nm != s->m) {
        rc = bb_seterr(err, BB_ENOCONV, "fluid model: %ld roots for %ld modes", nm, s->m);
        goto out;
    }
    qsort(rt, (size_t)nm, sizeof *rt, cmp_root);
    {
        int T = bba_par_threads(nm, VEC_GRAIN);
        vec_job J = { m, s, rt, lpi, nmax, NULL, NULL, { 0 }, { 0 } };

        J.scr = malloc((size_t)T * (size_t)(m->C + 5) * (size_t)nmax * sizeof *J.scr);
        J.sgs = malloc((size_t)T * (size_t)nmax);
        if (J.scr == NULL || J.sgs == NULL) {
            free(J.scr);
            free(J.sgs);
            goto nomem;
        }
        for (int t = 0; t < T; t++)
            J.bad[t] = -1;
        if (bba_parfor(nm, VEC_GRAIN, vec_chunk, &J) != 0)
            for (int t = 0; t < T; t++)
                if (J.bad[t] >= 0) {
                    rc = bb_seterr(err, BB_ENOCONV, "fluid model: the twisted "
                                   "factorisation failed for class %d at root %g",
                                   J.badc[t], rt[J.bad[t]].z);
                    break;
                }
        free(J.scr);
        free(J.sgs);
    }
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the separable spectrum");
out:
    if (lpi != NULL)
        for (int c = 0; c < m->C; c++)
            free(lpi[c]);
    free(lpi);
    free(k);
    free(rt);
    return rc;
}

/* Row-major C (M x N) = alpha op(A) op(B) + beta C through column-major
 * dgemm (a row-major array is the transpose in column-major). */
static void
gemm_rm(char ta, char tb, int M, int N, int K, double alpha, const double *A, int lda,
        const double *B, int ldb, double beta, double *C, int ldc)
{
    dgemm_(&tb, &ta, &N, &M, &K, &alpha, B, &ldb, A, &lda, &beta, C, &ldc, 1, 1);
}

static int
syevd(int n, double *a, double *w, char *err)
{
    int info = 0, lwork = -1, liwork = -1, iwq = 0;
    double wq = 0.0, *work = NULL;
    int *iwork = NULL;

    dsyevd_("V", "U", &n, a, &n, w, &wq, &lwork, &iwq, &liwork, &info, 1, 1);
    lwork = (int)wq + 1;
    liwork = iwq + 1;
    work = malloc((size_t)lwork * sizeof *work);
    iwork = malloc((size_t)liwork * sizeof *iwork);
    if (work == NULL || iwork == NULL) {
        free(work);
        free(iwork);
        return bb_seterr(err, BB_ENOMEM, "out of memory for an eigendecomposition of order %d", n);
    }
    dsyevd_("V", "U", &n, a, &n, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    free(work);
    free(iwork);
    if (info != 0)
        return bb_seterr(err, BB_ENOCONV, "fluid model: dsyevd failed (info %d) on "
                         "order %d", info, n);
    return BB_OK;
}

/* The zero-drift phases censored out of Q': in[Pn] the phases with
 * d != 0, i0[P0] the others, Qt (Pn x Pn, row-major) = Q'_nn - Q'_n0
 * Q'_00^-1 Q'_0n, X0 (Pn x P0) = -Q'_n0 Q'_00^-1 (phi_0 = phi_n X0); the
 * caller frees all four */
static int
fl_censor(const bba_fluid *m, const double *d, long **in_out, long *Pn_out, long **i0_out,
          long *P0_out, double **Qt_out, double **X0_out, char *err)
{
    long P = m->P, Pn = 0, P0 = 0, *in = NULL, *i0 = NULL;
    double *row = NULL, *Qt = NULL, *X0 = NULL, *Q00 = NULL, *Q0n = NULL;
    int *piv = NULL, rc = BB_OK, info = 0;

    in = malloc((size_t)P * sizeof *in);
    i0 = malloc((size_t)P * sizeof *i0);
    row = malloc((size_t)P * sizeof *row);
    if (in == NULL || i0 == NULL || row == NULL)
        goto nomem;
    for (long f = 0; f < P; f++) {
        if (d[f] != 0.0)
            in[Pn++] = f;
        else
            i0[P0++] = f;
    }
    Qt = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *Qt, 0);
    X0 = malloc((size_t)(Pn * P0 + 1) * sizeof *X0);
    if (Qt == NULL || X0 == NULL)
        goto nomem;
    if (P0 > 0) {
        Q00 = malloc((size_t)P0 * (size_t)P0 * sizeof *Q00);
        Q0n = malloc((size_t)P0 * (size_t)Pn * sizeof *Q0n);
        piv = malloc((size_t)P0 * sizeof *piv);
        if (Q00 == NULL || Q0n == NULL || piv == NULL)
            goto nomem;
        for (long a = 0; a < P0; a++) {
            fl_q_row(m, i0[a], row, 0);
            for (long b = 0; b < P0; b++)
                Q00[a * P0 + b] = row[i0[b]];
            for (long b = 0; b < Pn; b++)
                Q0n[a * Pn + b] = row[in[b]];
        }
    }
    for (long a = 0; a < Pn; a++) {
        fl_q_row(m, in[a], row, 0);
        for (long b = 0; b < Pn; b++)
            Qt[a * Pn + b] = row[in[b]];
        for (long b = 0; b < P0; b++)
            X0[a * P0 + b] = -row[i0[b]];
    }
    if (P0 > 0) {
        /* X0 Q00 = -Q_n0: column-major, Q00^T X0^T = -Q_n0^T; the row-major
         * arrays are those transposes already */
        int n0 = (int)P0, nr = (int)Pn;

        dgetrf_(&n0, &n0, Q00, &n0, piv, &info);
        if (info != 0) {
            rc = bb_seterr(err, BB_ESINGULAR, "fluid model: the zero-drift phases "
                           "form a closed class (their generator is singular)");
            goto out;
        }
        dgetrs_("N", &n0, &nr, Q00, &n0, piv, X0, &n0, &info, 1);
        gemm_rm('N', 'N', nr, nr, n0, 1.0, X0, n0, Q0n, nr, 1.0, Qt, nr);
    }
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the spectrum of %ld phases", P);
out:
    free(row);
    free(Q00);
    free(Q0n);
    free(piv);
    if (rc != BB_OK) {
        free(in);
        free(i0);
        free(Qt);
        free(X0);
        in = i0 = NULL;
        Qt = X0 = NULL;
    }
    *in_out = in;
    *i0_out = i0;
    *Qt_out = Qt;
    *X0_out = X0;
    *Pn_out = Pn;
    *P0_out = P0;
    return rc;
}

static int
spec_dense(const bba_fluid *m, fl_spec *s, char *err)
{
    long P = m->P, Pn = 0, P0 = 0, *in = NULL, *i0 = NULL;
    double *Qt = NULL, *X0 = NULL;
    double *mu = NULL, *Gt = NULL, *JG = NULL, *H = NULL, *Mr = NULL, *kv = NULL;
    int rc = BB_OK;

    /* the modes are weighted by pi^1/2: a phase whose stationary
     * probability is not a normal double (a large class's far end) has no
     * representable weight, and the dense spectrum cannot be formed */
    for (long f = 0; f < P; f++)
        if (!(m->pi[f] >= DBL_MIN))
            return bb_seterr(err, BB_ENOCONV, "fluid model (%ld phases%s): phase %ld has a "
                             "stationary probability of %.3g, below what the dense spectrum "
                             "weighs", P, s->eps < 1.0 ? ", below the lazy threshold" : "", f,
                             m->pi[f]);
    rc = fl_censor(m, s->d, &in, &Pn, &i0, &P0, &Qt, &X0, err);
    if (rc != BB_OK)
        return rc;
    /* -C = -|D|^-1/2 Pi^1/2 Q~ Pi^-1/2 |D|^-1/2, symmetrised */
    for (long a = 0; a < Pn; a++)
        for (long b = a; b < Pn; b++) {
            double x = Qt[a * Pn + b] * sqrt(m->pi[in[a]] / m->pi[in[b]]);
            double y = Qt[b * Pn + a] * sqrt(m->pi[in[b]] / m->pi[in[a]]);
            double v = -0.5 * (x + y) / sqrt(fabs(s->d[in[a]] * s->d[in[b]]));

            Qt[a * Pn + b] = v;
            Qt[b * Pn + a] = v;
        }
    mu = malloc((size_t)Pn * sizeof *mu);
    kv = malloc((size_t)Pn * sizeof *kv);
    if (mu == NULL || kv == NULL)
        goto nomem;
    rc = syevd((int)Pn, Qt, mu, err);
    if (rc != BB_OK)
        goto out;
    /* the kernel |D|^1/2 pi^1/2 (normalised): drop the eigenvector closest */
    {
        double nk = 0.0, best = -1.0;
        long jk = 0;

        for (long a = 0; a < Pn; a++) {
            kv[a] = sqrt(fabs(s->d[in[a]]) * m->pi[in[a]]);
            nk += kv[a] * kv[a];
        }
        nk = sqrt(nk);
        for (long j = 0; j < Pn; j++) {
            double dot = 0.0;

            for (long a = 0; a < Pn; a++)
                dot += Qt[j * Pn + a] * kv[a];
            if (fabs(dot) / nk > best) {
                best = fabs(dot) / nk;
                jk = j;
            }
        }
        Gt = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *Gt, 0);
        JG = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *JG, 0);
        if (Gt == NULL || JG == NULL)
            goto nomem;
        for (long j = 0, r = 0; j < Pn; j++) {
            double sm;

            if (j == jk)
                continue;
            sm = sqrt(fmax(mu[j], 0.0));
            for (long a = 0; a < Pn; a++) {
                Gt[r * Pn + a] = sm * Qt[j * Pn + a];
                JG[r * Pn + a] = s->d[in[a]] > 0.0 ? Gt[r * Pn + a] : -Gt[r * Pn + a];
            }
            r++;
        }
    }
    {
        int n1 = (int)Pn - 1, nn = (int)Pn;

        free(Qt);
        Qt = NULL;
        H = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *H, 0);
        if (H == NULL)
            goto nomem;
        /* H = -Gt JG^T  ((Pn-1) x (Pn-1)) */
        gemm_rm('N', 'T', n1, n1, nn, -1.0, Gt, nn, JG, nn, 0.0, H, n1);
        for (long a = 0; a < n1; a++)
            for (long b = a + 1; b < n1; b++) {
                double v = 0.5 * (H[a * n1 + b] + H[b * n1 + a]);

                H[a * n1 + b] = v;
                H[b * n1 + a] = v;
            }
        free(JG);
        JG = NULL;
        if (n1 > 0) {
            rc = syevd(n1, H, s->z, err);
            if (rc != BB_OK)
                goto out;
        }
        /* modes: rows of Y Gt, then phi_f = sign(d) |d|^-1/2 pi^1/2 (G y)_f */
        Mr = bba_big_alloc((size_t)Pn * (size_t)Pn * sizeof *Mr, 0);
        if (Mr == NULL)
            goto nomem;
        if (n1 > 0)
            gemm_rm('N', 'N', n1, nn, n1, 1.0, H, n1, Gt, nn, 0.0, Mr, nn);
        for (long j = 0; j < n1; j++) {
            double *v = s->phi + (size_t)j * (size_t)P;

            memset(v, 0, (size_t)P * sizeof *v);
            for (long a = 0; a < Pn; a++) {
                double d = s->d[in[a]];

                v[in[a]] = (d > 0.0 ? 1.0 : -1.0) * sqrt(m->pi[in[a]] / fabs(d)) * Mr[j * Pn + a];
            }
            for (long b = 0; b < P0; b++) {
                double acc = 0.0;

                for (long a = 0; a < Pn; a++)
                    acc += v[in[a]] * X0[a * P0 + b];
                v[i0[b]] = acc;
            }
        }
    }
    s->drift = 0.0;
    for (long f = 0; f < P; f++)
        s->drift += m->pi[f] * s->d[f];
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for the dense spectrum of %ld phases", P);
out:
    free(in);
    free(i0);
    free(Qt);
    free(X0);
    free(mu);
    free(kv);
    free(Gt);
    free(JG);
    free(H);
    free(Mr);
    return rc;
}

int
fl_spec_build(const bba_fluid *m, double eps, int allow_separable, fl_spec **out,
              char *err)
{
    long P = m->P, n_n = m->n_up + m->n_down;
    double *qx = NULL, qmax = 0.0, dmax = 0.0;
    int rc = BB_OK, binds = 0;
    fl_spec *s = calloc(1, sizeof *s);

    *out = NULL;
    if (s == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for a spectrum");
    s->eps = eps;
    s->m = n_n - 1;
    s->d = malloc((size_t)P * sizeof *s->d);
    s->z = malloc((size_t)(s->m > 0 ? s->m : 1) * sizeof *s->z);
    s->mass = malloc((size_t)(s->m > 0 ? s->m : 1) * sizeof *s->mass);
    s->phi = bba_big_alloc((size_t)(s->m > 0 ? s->m : 1) * (size_t)P * sizeof *s->phi, 0);
    s->zi = calloc((size_t)(s->m > 0 ? s->m : 1), sizeof *s->zi);
    s->kind = calloc((size_t)(s->m > 0 ? s->m : 1), sizeof *s->kind);
    {
        long nc = 0;

        for (int c = 0; c < m->C; c++)
            nc += m->N[c] + 1;
        qx = malloc(((size_t)3 * (size_t)P + (size_t)3 * (size_t)nc) * sizeof *qx);
    }
    if (s->d == NULL || s->z == NULL || s->mass == NULL || s->phi == NULL || qx == NULL ||
        s->zi == NULL || s->kind == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the spectrum of %ld phases", P);
        goto out;
    }
    for (long f = 0; f < P; f++) {
        double e = m->rate[f] - m->B;

        if (m->cls[f] == FL_UP) {
            s->d[f] = fmin(e, m->Bbb);
            if (e > m->Bbb)
                binds = 1;
        } else if (m->cls[f] == FL_DOWN) {
            s->d[f] = eps * e;
        } else {
            s->d[f] = 0.0;
        }
        dmax = fmax(dmax, fabs(s->d[f]));
    }
    s->separable = allow_separable && eps == 1.0 && !binds;
    if (s->separable) {
        s->home = malloc((size_t)(s->m > 0 ? s->m : 1) * sizeof *s->home);
        rc = s->home == NULL ? bb_seterr(err, BB_ENOMEM, "out of memory for the spectrum "
                                         "of %ld phases", P)
                             : spec_separable(m, s, err);
    } else if (binds) {
        long *in = NULL, *i0 = NULL, Pn = 0, P0 = 0;
        double *Qt = NULL, *X0 = NULL;

        rc = fl_censor(m, s->d, &in, &Pn, &i0, &P0, &Qt, &X0, err);
        if (rc == BB_OK)
            rc = fl_spec_general(m, s, in, Pn, i0, P0, Qt, X0, err);
        free(in);
        free(i0);
        free(Qt);
        free(X0);
    } else {
        rc = spec_dense(m, s, err);
    }
    if (rc != BB_OK)
        goto out;
    /* z ascending: scale each mode to max_f |phi_f d_f| = 1, check it in
     * the symmetrised space (psi = phi Pi^-1/2), where the symmetric
     * solvers are backward stable: |(phi (Q - z D))_g| / sqrt(pi_g) over
     * max_f |phi_f| / sqrt(pi_f) (|A| + |z| |D|), A = Pi^1/2 Q Pi^-1/2. */
    for (int c = 0; c < m->C; c++)
        qmax += (double)m->src[c] * fmax(m->lam[c], m->mu[c]);
    s->mneg = m->n_up - 1 + (s->drift <= 0.0);
    if (binds) {
        long neg = 0;

        for (long k = 0; k < s->m; k++)
            neg += s->z[k] < 0.0;
        if (neg != s->mneg) {
            rc = bb_seterr(err, BB_ENOCONV, "fluid model: %ld modes decay and %ld were "
                           "expected (mean drift %g): the spectrum could not be "
                           "separated", neg, s->mneg, s->drift);
            goto out;
        }
    }
    if (s->separable && (rc = fl_sep_check(m, s, err)) != BB_OK)
        goto out;
    for (long k = 0; !s->separable && k < s->m; k++) {
        double *v = s->phi + (size_t)k * (size_t)P, sc = 0.0, psimax = 0.0, res = 0.0;
        int pair = s->kind[k] == 1;
        double *w = pair ? v + P : NULL, zr = s->z[k], zim = s->zi[k];

        for (long f = 0; f < P; f++) {
            double a = fabs(v[f] * s->d[f]);

            if (a > sc)
                sc = a;
            if (pair && fabs(w[f] * s->d[f]) > sc)
                sc = fabs(w[f] * s->d[f]);
        }
        if (!(sc > 0.0) || !isfinite(sc)) {
            rc = bb_seterr(err, BB_ENOCONV, "fluid model (%ld phases%s): mode %ld %s", P,
                           s->eps < 1.0 ? ", below the lazy threshold" : "", k,
                           isfinite(sc) ? "has no flux" : "is not finite: the eigensolver lost it");
            goto out;
        }
        if (!binds) {
            s->mass[k] = 0.0;
            for (long f = 0; f < P; f++) {
                v[f] /= sc;
                s->mass[k] += v[f];
                psimax = fmax(psimax, fabs(v[f]) / sqrt(m->pi[f]));
            }
            fl_q_left(m, v, qx, 0);
            for (long f = 0; f < P; f++)
                res = fmax(res, fabs(qx[f] - s->z[k] * v[f] * s->d[f]) / sqrt(m->pi[f]));
            res /= psimax * (2.0 * qmax + fabs(s->z[k]) * dmax);
            s->resid = fmax(s->resid, res);
            continue;
        }
        /* Q' is not reversible: the plain backward error, and a complex
         * pair p + i q as one: (p + i q)(Q' - z D) = 0 */
        s->mass[k] = 0.0;
        if (pair)
            s->mass[k + 1] = 0.0;
        for (long f = 0; f < P; f++) {
            v[f] /= sc;
            s->mass[k] += v[f];
            psimax = fmax(psimax, fabs(v[f]));
            if (pair) {
                w[f] /= sc;
                s->mass[k + 1] += w[f];
                psimax = fmax(psimax, fabs(w[f]));
            }
        }
        fl_q_left(m, v, qx, 0);
        if (pair)
            fl_q_left(m, w, qx + P, 0);
        for (long f = 0; f < P; f++) {
            double d = s->d[f];

            if (pair) {
                res = fmax(res, fabs(qx[f] - zr * v[f] * d + zim * w[f] * d));
                res = fmax(res, fabs(qx[P + f] - zr * w[f] * d - zim * v[f] * d));
            } else {
                res = fmax(res, fabs(qx[f] - zr * v[f] * d));
            }
        }
        res /= psimax * (2.0 * qmax + hypot(zr, zim) * dmax);
        s->resid = fmax(s->resid, res);
        if (pair)
            k++;
    }
    if (!(s->resid <= MODE_RESID_MAX)) {
        rc = bb_seterr(err, BB_ENOCONV, "fluid model: the %s spectrum has a mode "
                       "residual of %.3g (above %g)", s->separable ? "separable" : "dense",
                       s->resid, MODE_RESID_MAX);
        goto out;
    }
out:
    free(qx);
    if (rc != BB_OK)
        fl_spec_free(s);
    else
        *out = s;
    return rc;
}
