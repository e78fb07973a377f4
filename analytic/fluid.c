/* fluid.c: the fluid model (fluid.h): classes and phases, the measures
 * from a boundary solution, evaluation, the limits as S grows.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_classes.h"
#include "fluid_int.h"
#include "lapackf.h"

/* Rates within this fraction of B are B: a phase of zero drift (sums of
 * decimal rates round). */
#define ZERO_DRIFT_REL 1e-12
/* A solution whose residual (fluid.h) exceeds this is refused. */
#define RESID_MAX 1e-6
/* LAPACK's 32-bit indices address P^2 entries */
#define PHASES_MAX 46340L

typedef bba_fluid_src cls_in;

/* The classes checked; constant sources into *r0; the distinct ones with
 * a phase into out (fluid_classes.h).  Returns how many, or -1 with err
 * set. */
static long
gather(const bba_fluid_class *c, size_t n, cls_in *out, double *r0, char *err)
{
    *r0 = 0.0;
    for (size_t i = 0; i < n; i++) {
        const bba_fluid_class *x = &c[i];

        if (bba_fluid_class_check(x, i, err) != BB_OK)
            return -1;
        if (x->count != 0 && x->p == 1.0 && x->rate_Bps != 0.0)
            *r0 += x->count * x->rate_Bps;
    }
    return (long)bba_fluid_srcs(c, n, out);
}

static double
phase_count(const cls_in *c, long nc)
{
    double P = 1.0;

    for (long i = 0; i < nc; i++)
        P *= (double)c[i].N + 1.0;
    return P;
}

/* bytes and flops of a model with P phases (separable or dense greedy
 * spectrum) and one size search, at worst (every far mode coupled) */
static void
cost(double P, int dense, double *bytes, double *flops)
{
    /* modes, the two factored blocks, W and Z */
    double b = 4.0 * P * P * 8.0, f = 4.0 / 3.0 * P * P * P + 2.0 * P * P * P;

    if (dense) {
        /* the general spectrum, then the whole boundary system per size
         * (2P unknowns, LU and its refinement copy) */
        b += (5.0 + 8.0) * P * P * 8.0;
        f += 20.0 * P * P * P;
    }
    if (bytes)
        *bytes = b;
    if (flops)
        *flops = f;
}

void
bba_fluid_estimate(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                   double *phases, double *bytes, double *flops)
{
    cls_in *ci = malloc((n + 1) * sizeof *ci);
    double r0, P = INFINITY, maxr, B = o ? o->pfs_bw_Bps : 0.0;
    long nc;
    int dense = 0;

    if (ci != NULL && (nc = gather(c, n, ci, &r0, NULL)) >= 0) {
        P = phase_count(ci, nc);
        maxr = r0;
        for (long i = 0; i < nc; i++)
            maxr += (double)ci[i].N * ci[i].b;
        dense = o != NULL && o->bb_bw_Bps > 0.0 && maxr - B > o->bb_bw_Bps;
    }
    free(ci);
    if (phases)
        *phases = P;
    cost(o != NULL && o->max_phases > 0 && P > (double)o->max_phases ? (double)o->max_phases
                                                                       : P,
         dense, bytes, flops);
}

long
bba_fluid_phases(const bba_fluid *m)
{
    return m->P;
}

double
bba_fluid_mean_rate(const bba_fluid *m)
{
    return m->E;
}

int
bba_fluid_separable(const bba_fluid *m)
{
    return m->greedy != NULL && m->greedy->separable;
}

double
bba_fluid_idle_limit(const bba_fluid *m)
{
    return m->idle_limit;
}

void
bba_fluid_free(bba_fluid *m)
{
    if (m == NULL)
        return;
    free(m->N);
    free(m->b);
    free(m->lam);
    free(m->mu);
    free(m->stride);
    free(m->rate);
    free(m->pi);
    free(m->share_top);
    free(m->lost);
    free(m->share_in);
    free(m->lost_in);
    free(m->pi_in);
    free(m->pi_top);
    free(m->cls);
    fl_spec_free(m->greedy);
    fl_fast_free(m->fast);
    for (int i = 0; i < m->n_lazy; i++)
        fl_spec_free(m->lazy[i]);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* ---- measures ------------------------------------------------------------ */

/* Per phase and per group (log scale g): atoms at 0 and S, interior mass,
 * its first moment, and the interior mass in a lazy region (EPS < 1). */
typedef struct {
    int ng;
    double g[3];
    double *l[3], *u[3], *mi[3], *xi[3], *m1[3];
} acc;

static void
acc_free(acc *a)
{
    for (int b = 0; b < 3; b++) {
        free(a->l[b]);
        a->l[b] = NULL;
    }
}

static int
acc_alloc(acc *a, int ng, long P)
{
    memset(a, 0, sizeof *a);
    a->ng = ng;
    for (int b = 0; b < ng; b++) {
        double *blk = calloc((size_t)5 * (size_t)P, sizeof *blk);

        if (blk == NULL) {
            acc_free(a);
            return -1;
        }
        a->l[b] = blk;
        a->u[b] = blk + P;
        a->mi[b] = blk + 2 * P;
        a->xi[b] = blk + 3 * P;
        a->m1[b] = blk + 4 * P;
    }
    return 0;
}

/* I0 = int_0^L e^{w t} dt, I1 = int_0^L t e^{w t} dt (w <= 0 normally) */
static void
expint(double w, double L, double *I0, double *I1)
{
    double a = w * L;

    if (fabs(a) < 0.5) {
        /* L^(k+1) sum_n a^n / (n! (n + 1 + k)), k = 0, 1 */
        double t = 1.0, s0 = 0.0, s1 = 0.0;

        for (int n = 0; n < 30; n++) {
            s0 += t / (n + 1);
            s1 += t / (n + 2);
            t *= a / (n + 1);
        }
        *I0 = L * s0;
        *I1 = L * L * s1;
    } else {
        double e = exp(a);

        *I0 = expm1(a) / w;
        *I1 = (e * (a - 1.0) + 1.0) / (w * w);
    }
}

/* Per region, the sums over its modes that the measures and the residual
 * need, as one product Phi^T W (P x NCOL, column-major) with W the modes'
 * weights; den[] the sum of |weight| of the two end densities (each mode's
 * flux is scaled to max_f |phi_f d_f| = 1, so that bounds every term). */
enum { C_MI_L, C_XI_L, C_MI_R, C_XI_R, C_END_L, C_END_R, NCOL };

static int
region_sums(const bba_fluid *m, const fl_sol *s, int r, double *out, double *den)
{
    const fl_spec *q = s->sp[r];
    double x0 = s->x[r], x1 = s->x[r + 1], len = x1 - x0;
    long P = m->P, startL = r == 0 ? fl_atoms(m, 0, NULL) : s->sp[r - 1]->m - s->sp[r - 1]->mneg;
    double *W = calloc((size_t)NCOL * (size_t)(q->m + 1), sizeof *W);

    if (W == NULL)
        return -1;
    den[0] = den[1] = 0.0;
    for (long k = 0; k < q->m; k++) {
        int left = k < q->mneg;
        double c = left ? s->y[r][startL + k] : s->y[r + 1][k - q->mneg];
        double I0, I1, gl = s->g[r], gr = s->g[r + 1];

        if (q->kind[k] == 1) {
            /* a pair: density c1 Re(phi e^{zt}) + c2 Im(phi e^{zt}) =
             * Re(gamma phi e^{zt}), gamma = c1 - i c2; a weight J on it
             * is Re(gamma J) on row p and -Im(gamma J) on row q */
            double c2 = left ? s->y[r][startL + k + 1] : s->y[r + 1][k + 1 - q->mneg];
            double complex gam = c - I * c2, J0, J1, eo, cols[NCOL];
            double zi = left ? q->zi[k] : -q->zi[k];

            fl_cexpint(left ? q->z[k] : -q->z[k], zi, len, &J0, &J1);
            eo = cexp((left ? q->z[k] : -q->z[k]) * len + I * zi * len
                      + (left ? gl - gr : gr - gl));
            for (int j = 0; j < NCOL; j++)
                cols[j] = 0.0;
            if (left) {
                cols[C_MI_L] = J0;
                cols[C_XI_L] = x0 * J0 + J1;
                cols[C_END_L] = 1.0;
                cols[C_END_R] = eo;
            } else {
                cols[C_MI_R] = J0;
                cols[C_XI_R] = x1 * J0 - J1;
                cols[C_END_L] = eo;
                cols[C_END_R] = 1.0;
            }
            for (int j = 0; j < NCOL; j++) {
                double complex v = gam * cols[j];

                W[k + j * q->m] = creal(v);
                W[k + 1 + j * q->m] = -cimag(v);
            }
            for (int e = 0; e < 2; e++) {
                int j = e ? C_END_R : C_END_L;

                den[e] += fabs(W[k + j * q->m]) + fabs(W[k + 1 + j * q->m]);
            }
            k++;
            continue;
        }
        if (c == 0.0)
            continue;
        expint(left ? q->z[k] : -q->z[k], len, &I0, &I1);
        if (left) {
            W[k + C_MI_L * q->m] = c * I0;
            W[k + C_XI_L * q->m] = c * (x0 * I0 + I1);
            W[k + C_END_L * q->m] = c;
            W[k + C_END_R * q->m] = c * exp(q->z[k] * len + gl - gr);
        } else {
            W[k + C_MI_R * q->m] = c * I0;
            W[k + C_XI_R * q->m] = c * (x1 * I0 - I1);
            W[k + C_END_L * q->m] = c * exp(-q->z[k] * len + gr - gl);
            W[k + C_END_R * q->m] = c;
        }
        den[0] += fabs(W[k + C_END_L * q->m]);
        den[1] += fabs(W[k + C_END_R * q->m]);
    }
    if (q->m > 0) {
        int nP = (int)P, nm = (int)q->m, nc = NCOL;
        double one = 1.0, zero = 0.0;

        /* row-major phi (m x P) is column-major phi^T (P x m) */
        dgemm_("N", "N", &nP, &nc, &nm, &one, q->phi, &nP, W, &nm, &zero, out, &nP, 1, 1);
    } else {
        memset(out, 0, (size_t)NCOL * (size_t)P * sizeof *out);
    }
    free(W);
    return 0;
}

/* Relative residual of the boundary conditions: at each boundary the
 * largest |sum| over phases, over the largest possible term. */
static double
sol_residual(const bba_fluid *m, const fl_sol *s, double *const *sums, double (*den)[2])
{
    long P = m->P, nS = fl_atoms(m, 1, NULL);
    double res = 0.0, *x = malloc((size_t)P * sizeof *x), *w = malloc((size_t)P * sizeof *w);
    long *ph = malloc((size_t)P * sizeof *ph);

    if (x == NULL || w == NULL || ph == NULL) {
        free(x);
        free(w);
        free(ph);
        return INFINITY;
    }
    for (int b = 0; b <= s->R; b++) {
        double num = 0.0, dd = 0.0, amax = 0.0;

        memset(x, 0, (size_t)P * sizeof *x);
        memset(w, 0, (size_t)P * sizeof *w);
        if (b == 0 || b == s->R) {
            long na = fl_atoms(m, b != 0, ph);
            const double *ya = b == 0 ? s->y[0] : s->y[s->R] + s->ny[s->R] - nS;

            for (long i = 0; i < na; i++)
                x[ph[i]] = ya[i];
            fl_q_left(m, x, w, b != 0);
            for (long f = 0; f < P; f++)
                amax = fmax(amax, fabs(x[f]) * fl_q_out(m, f));
        }
        if (b > 0)
            dd += den[b - 1][1];
        if (b < s->R)
            dd += den[b][0];
        for (long f = 0; f < P; f++) {
            double v = b == 0 ? -w[f] : b == s->R ? w[f] : 0.0;

            if (b > 0)
                v += sums[b - 1][C_END_R * P + f] * s->sp[b - 1]->d[f];
            if (b < s->R)
                v += (b == 0 ? 1.0 : -1.0) * sums[b][C_END_L * P + f] * s->sp[b]->d[f];
            num = fmax(num, fabs(v));
        }
        dd += amax;
        if (dd > 0.0)
            res = fmax(res, num / dd);
    }
    free(x);
    free(w);
    free(ph);
    return res;
}

/* The measures of FLUID-SPEC.md from per-phase, per-group quantities.
 * The idle fraction is the fraction of time the writers' I/O is stalled
 * (the paper's stalled units in continuous time): sum_f [P(X = S, f) lost_f +
 * P(X < S, f) lost_in_f] (fluid_int.h).  *phase_err checks the phase law:
 * the total mass m per phase satisfies m Q' + u (Q^S - Q') = 0 (integrate
 * the balance over [0, S]), relative to the largest |m_f| Q_f; *neg the
 * most negative mass. */
static void
measures_core(const bba_fluid *m, const acc *a, double S, double eps, bba_fluid_result *out,
              double *phase_err, double *flux_err, double *neg)
{
    long P = m->P;
    double Z = 0.0, gmax = -INFINITY, idle_s = 0.0, idle_hi = -INFINITY;
    double in = 0.0, drain = 0.0, scale = 0.0;
    double ig[3] = { 0.0, 0.0, 0.0 };
    double *mt = calloc((size_t)4 * (size_t)P, sizeof *mt), *ut = mt + P;
    double *v1 = mt + 2 * P, *v2 = mt + 3 * P;

    memset(out, 0, sizeof *out);
    *phase_err = 0.0;
    *neg = 0.0;
    if (mt == NULL) {
        *neg = INFINITY;
        return;
    }
    for (int b = 0; b < a->ng; b++)
        gmax = fmax(gmax, a->g[b]);
    /* total mass, on the scale of the largest group */
    for (int b = 0; b < a->ng; b++) {
        double zb = 0.0, sc = exp(a->g[b] - gmax);

        for (long f = 0; f < P; f++)
            zb += a->l[b][f] + a->u[b][f] + a->mi[b][f];
        Z += sc * zb;
    }
    for (long f = 0; f < P; f++) {
        double l = 0.0, u = 0.0, mi = 0.0, xi = 0.0, m1 = 0.0, r = m->rate[f];
        double e = r - m->B;

        for (int b = 0; b < a->ng; b++) {
            double sc = exp(a->g[b] - gmax) / Z;

            l += sc * a->l[b][f];
            u += sc * a->u[b][f];
            mi += sc * a->mi[b][f];
            /* a group below the double range weighs nothing; its first
             * moment about 0 (x1 I0 - I1 at x1 near 1e300) may not be finite */
            if (sc > 0.0)
                xi += sc * a->xi[b][f];
            m1 += sc * a->m1[b][f];
            if (m->cls[f] == FL_UP)
                ig[b] += (a->u[b][f] * m->lost[f] + a->mi[b][f] * m->lost_in[f]) / Z;
        }
        mt[f] = l + u + mi - u;
        ut[f] = u;
        scale = fmax(scale, fabs(l + u + mi) * fl_q_out(m, f));
        *neg = fmax(*neg, fmax(-fmin(fmin(l, u), mi), 0.0));
        out->p_empty += l;
        out->p_full += u;
        out->mean_occupancy_bytes += xi + S * u;
        out->quiet += l;
        if (m->cls[f] == FL_UP) {
            out->quiet += u * m->share_top[f] + mi * m->share_in[f];
            in += mi * fmin(e, m->Bbb);
        } else if (m->cls[f] == FL_ZERO) {
            out->quiet += u + mi;
        } else {
            out->quiet += (1.0 - eps) * m1;
            drain += -e * (mi - m1) - eps * e * m1;
        }
    }
    /* (m - u) Q' + u Q^S */
    fl_q_left(m, mt, v1, 0);
    fl_q_left(m, ut, v2, 1);
    for (long f = 0; f < P; f++)
        if (scale > 0.0)
            *phase_err = fmax(*phase_err, fabs(v1[f] + v2[f]) / scale);
    free(mt);
    /* idle = sum_b e^{g_b} ig[b] (each group's terms may have either sign;
     * their sum not), on the scale of the largest term so that an idle
     * fraction below the double range keeps its log10 */
    for (int b = 0; b < a->ng; b++)
        if (ig[b] != 0.0)
            idle_hi = fmax(idle_hi, log(fabs(ig[b])) + a->g[b] - gmax);
    for (int b = 0; b < a->ng; b++)
        if (ig[b] != 0.0)
            idle_s += copysign(exp(log(fabs(ig[b])) + a->g[b] - gmax - idle_hi), ig[b]);
    if (idle_hi > -INFINITY && idle_s > 0.0) {
        out->log10_idle = (idle_hi + log(idle_s)) / M_LN10;
        out->idle = exp(idle_hi) * idle_s;
    } else {
        out->log10_idle = -INFINITY;
        out->idle = 0.0;
        /* with a phase above B and S > 0 the atoms at S make it positive:
         * a sum that is not has lost it to cancellation */
        if (m->n_up > 0 && S > 0.0)
            *neg = INFINITY;
    }
    out->bb_in_Bps = in;
    *flux_err = (in > 0.0 || drain > 0.0) ? fabs(in - drain) / fmax(in, drain) : 0.0;
}

int
fl_measures(const bba_fluid *m, const fl_sol *s, double eps, bba_fluid_result *out,
            char *err)
{
    long P = m->P, n0 = fl_atoms(m, 0, NULL), nS = fl_atoms(m, 1, NULL);
    long *ph0 = malloc((size_t)P * sizeof *ph0), *phS = malloc((size_t)P * sizeof *phS);
    double *sums[2] = { NULL, NULL }, den[2][2], perr, ferr, neg;
    acc a;
    int rc = BB_OK, ok = ph0 != NULL && phS != NULL;

    for (int r = 0; r < s->R && ok; r++) {
        sums[r] = malloc((size_t)NCOL * (size_t)P * sizeof **sums);
        ok = sums[r] != NULL && region_sums(m, s, r, sums[r], den[r]) == 0;
    }
    if (!ok || acc_alloc(&a, s->R + 1, P) != 0) {
        free(ph0);
        free(phS);
        free(sums[0]);
        free(sums[1]);
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fluid measures");
    }
    fl_atoms(m, 0, ph0);
    fl_atoms(m, 1, phS);
    for (int b = 0; b <= s->R; b++)
        a.g[b] = s->g[b];
    for (long i = 0; i < n0; i++)
        a.l[0][ph0[i]] = s->y[0][i];
    for (long i = 0; i < nS; i++)
        a.u[s->R][phS[i]] = s->y[s->R][s->ny[s->R] - nS + i];
    for (int r = 0; r < s->R; r++) {
        const double *sm = sums[r];
        int lazy = s->sp[r]->eps < 1.0;

        for (long f = 0; f < P; f++) {
            a.mi[r][f] += sm[C_MI_L * P + f];
            a.xi[r][f] += sm[C_XI_L * P + f];
            a.mi[r + 1][f] += sm[C_MI_R * P + f];
            a.xi[r + 1][f] += sm[C_XI_R * P + f];
            if (lazy) {
                a.m1[r][f] += sm[C_MI_L * P + f];
                a.m1[r + 1][f] += sm[C_MI_R * P + f];
            }
        }
    }
    measures_core(m, &a, s->x[s->R], eps, out, &perr, &ferr, &neg);
    out->residual = fmax(sol_residual(m, s, sums, den), fmax(perr, fmax(ferr, neg)));
    /* a mean occupancy below 0 is rounding that the measures cannot
     * resolve (probabilities too small for the solution's accuracy) */
    if (out->mean_occupancy_bytes < 0.0)
        out->residual = INFINITY;
    /* one large class, greedy: where the modes cancel, the atoms by
     * first-passage matrices and the masses by flux balance (fluid_ma.c),
     * right to about P eps, which the idle fraction must dominate */
    if (!(out->residual <= RESID_MAX) && s->R == 1 && eps == 1.0 && m->C == 1) {
        bba_fluid_result alt;
        double res;

        if (fl_ma_groups(m, s->x[1], a.l, a.u, a.mi, a.xi, &res) == 0) {
            a.g[0] = a.g[1] = 0.0;
            measures_core(m, &a, s->x[1], eps, &alt, &perr, &ferr, &neg);
            alt.residual = fmax(fmax(res, (double)m->P * DBL_EPSILON / alt.idle),
                                fmax(perr, fmax(ferr, neg)));
            if (!(alt.mean_occupancy_bytes >= 0.0))
                alt.residual = INFINITY;
            if (alt.residual < out->residual)
                *out = alt;
        }
    }
    if (!(out->residual <= RESID_MAX))
        rc = bb_seterr(err, BB_ENOCONV, "fluid model (%ld phases in %d class%s, %s): the "
                       "solution at size %g B has a residual of %.3g (boundary conditions, "
                       "phase law, flux balance, sign or mean occupancy), above %g: not "
                       "solved to accuracy", m->P, m->C, m->C == 1 ? "" : "es",
                       eps < 1.0 ? "lazy draining" : "greedy draining", s->x[s->R],
                       out->residual, RESID_MAX);
    acc_free(&a);
    free(ph0);
    free(phS);
    free(sums[0]);
    free(sums[1]);
    return rc;
}

/* Everything at 0 or S by phase: S = 0 (up phases at S, the rest at 0,
 * with the law of Q^S), no up phase (all at 0, the law of Q) or no down
 * phase (all at S, the law of Q^S). */
void
fl_trivial(const bba_fluid *m, double S, bba_fluid_result *out)
{
    acc a;
    double perr, ferr, neg;

    if (acc_alloc(&a, 1, m->P) != 0) {
        memset(out, 0, sizeof *out);
        out->residual = INFINITY;
        return;
    }
    for (long f = 0; f < m->P; f++) {
        int top = S == 0.0 ? m->cls[f] == FL_UP : m->n_down == 0;

        (top ? a.u[0] : a.l[0])[f] = m->pi_top != NULL ? m->pi_top[f] : m->pi[f];
    }
    measures_core(m, &a, S, 1.0, out, &perr, &ferr, &neg);
    out->residual = fmax(perr, neg);
    acc_free(&a);
}

/* ---- the model ------------------------------------------------------------ */

/* The spectrum below a lazy threshold for eps: from the model's cache,
 * else built and cached; when the cache is full (more EPS values than it
 * holds) built for the caller alone (*own = 1: the caller frees it), as
 * spectra other threads may be using are never evicted. */
static int
lazy_spec(const bba_fluid *m, double eps, fl_spec **out, int *own, char *err)
{
    bba_fluid *mm = (bba_fluid *)m;
    int rc, cap = (int)(sizeof mm->lazy / sizeof mm->lazy[0]);

    *own = 0;
    pthread_mutex_lock(&mm->lock);
    for (int i = 0; i < mm->n_lazy; i++)
        if (mm->lazy[i]->eps == eps) {
            *out = mm->lazy[i];
            pthread_mutex_unlock(&mm->lock);
            return BB_OK;
        }
    rc = fl_spec_build(m, eps, 0, out, err);
    if (rc == BB_OK) {
        if (mm->n_lazy < cap)
            mm->lazy[mm->n_lazy++] = *out;
        else
            *own = 1;
    }
    pthread_mutex_unlock(&mm->lock);
    return rc;
}

int
bba_fluid_eval(const bba_fluid *m, double S, const bb_drain *pol,
               bba_fluid_result *out, char *err)
{
    fl_sol s;
    double eps = 1.0, T = 0.0;
    int rc;

    assert(pol == NULL || BB_DRAIN_IN(pol, BB_DRAIN_BYTES));
    memset(out, 0, sizeof *out);
    if (!(S >= 0.0 && isfinite(S)))
        return bb_seterr(err, BB_EINVAL, "buffer size %g B is not a finite non-negative "
                         "number", S);
    if (pol != NULL && pol->kind == BB_DRAIN_LAZY) {
        if (!(pol->eps > 0.0 && pol->eps <= 1.0))
            return bb_seterr(err, BB_EINVAL, "lazy EPS %g is not in (0, 1]", pol->eps);
        if (!(pol->threshold >= 0.0 && pol->threshold <= S))
            return bb_seterr(err, BB_EINVAL, "lazy threshold %g B is not in [0, S = %g B]",
                             pol->threshold, S);
        eps = pol->eps;
        T = pol->threshold;
    }
    if (S == 0.0 || m->greedy == NULL) {
        fl_trivial(m, S, out);
        return BB_OK;
    }
    if (eps < 1.0 && T > 0.0) {
        fl_spec *sl = NULL;
        const fl_spec *sp[2];
        double x[3] = { 0.0, T, S };
        int own;

        rc = lazy_spec(m, eps, &sl, &own, err);
        if (rc != BB_OK)
            return rc;
        sp[0] = sl;
        sp[1] = m->greedy;
        rc = fl_solve_dense(m, T >= S ? 1 : 2, sp, x, &s, err);
        if (rc == BB_OK) {
            rc = fl_measures(m, &s, eps, out, err);
            fl_sol_free(&s);
        }
        if (own)
            fl_spec_free(sl);
        return rc;
    }
    if (m->binds) {
        /* a general spectrum (complex pairs): the whole system */
        const fl_spec *sp[1] = { m->greedy };
        double x[2] = { 0.0, S };

        rc = fl_solve_dense(m, 1, sp, x, &s, err);
    } else {
        rc = fl_solve_fast(m, S, &s, err);
    }
    if (rc != BB_OK)
        return rc;
    rc = fl_measures(m, &s, 1.0, out, err);
    fl_sol_free(&s);
    return rc;
}

/* The idle limit when the buffer fills (positive mean drift): as S grows
 * the content stays near S and the lower boundary decouples, so the
 * limit is the stall fraction of the process reflected at S alone.  It is
 * the model at a size where every mode has decayed by e^-64 across the
 * buffer (the log scaling makes any size safe).  One greedy evaluation. */
static int
limit_full(const bba_fluid *m, double *lim, char *err)
{
    const fl_spec *g = m->greedy;
    double zmin = INFINITY;
    bba_fluid_result r;
    int rc;

    for (long k = 0; k < g->m; k++)
        if (g->z[k] != 0.0)
            zmin = fmin(zmin, fabs(g->z[k]));
    if (!isfinite(zmin) || zmin <= 0.0)
        return bb_seterr(err, BB_ENOCONV, "the fluid model's limit as the buffer grows "
                         "has no decaying mode");
    rc = bba_fluid_eval(m, fmin(64.0 / zmin, 1e300), NULL, &r, err);
    if (rc == BB_OK)
        *lim = r.idle;
    return rc;
}

int
bba_fluid_new(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
              bba_fluid **out, char *err)
{
    cls_in *ci = NULL;
    bba_fluid *m = NULL;
    double r0, Pd, bytes;
    long nc;
    int rc = BB_OK;

    *out = NULL;
    if (o == NULL || !(o->pfs_bw_Bps > 0.0 && isfinite(o->pfs_bw_Bps)))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g B/s is not a finite positive "
                         "number", o ? o->pfs_bw_Bps : 0.0);
    if (!(o->bb_bw_Bps >= 0.0 && isfinite(o->bb_bw_Bps)))
        return bb_seterr(err, BB_EINVAL, "burst-buffer bandwidth %g B/s is not a finite "
                         "non-negative number (0: unlimited)", o->bb_bw_Bps);
    if (o->max_phases < 0)
        return bb_seterr(err, BB_EINVAL, "phase bound %ld is negative", o->max_phases);
    ci = malloc((n + 1) * sizeof *ci);
    if (ci == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu classes", n);
    nc = gather(c, n, ci, &r0, err);
    if (nc < 0) {
        free(ci);
        return BB_EINVAL;
    }
    Pd = phase_count(ci, nc);
    bba_fluid_estimate(c, n, o, NULL, &bytes, NULL);
    if ((o->max_phases > 0 && Pd > (double)o->max_phases) || Pd > (double)PHASES_MAX) {
        free(ci);
        return bb_seterr(err, BB_ETOOBIG, "the fluid model has %.0f phases, above the "
                         "bound of %ld", Pd, o->max_phases > 0 && o->max_phases < PHASES_MAX
                         ? o->max_phases : PHASES_MAX);
    }
    if (o->mem_limit_bytes > 0.0 && bytes > o->mem_limit_bytes) {
        free(ci);
        return bb_seterr(err, BB_ETOOBIG, "the fluid model of %.0f phases needs about "
                         "%.3g GB, above the memory limit of %.3g GB", Pd, bytes / 1e9,
                         o->mem_limit_bytes / 1e9);
    }
    m = calloc(1, sizeof *m);
    if (m == NULL || pthread_mutex_init(&m->lock, NULL) != 0) {
        free(m);
        free(ci);
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fluid model");
    }
    m->P = (long)Pd;
    m->C = (int)nc;
    m->r0 = r0;
    m->B = o->pfs_bw_Bps;
    m->Bbb = o->bb_bw_Bps > 0.0 ? o->bb_bw_Bps : INFINITY;
    m->mem_limit = o->mem_limit_bytes;
    m->N = malloc((size_t)(nc + 1) * sizeof *m->N);
    m->b = malloc((size_t)(nc + 1) * sizeof *m->b);
    m->lam = malloc((size_t)(nc + 1) * sizeof *m->lam);
    m->mu = malloc((size_t)(nc + 1) * sizeof *m->mu);
    m->stride = malloc((size_t)(nc + 1) * sizeof *m->stride);
    m->rate = malloc((size_t)m->P * sizeof *m->rate);
    m->pi = malloc((size_t)m->P * sizeof *m->pi);
    m->cls = malloc((size_t)m->P * sizeof *m->cls);
    m->share_top = malloc((size_t)m->P * sizeof *m->share_top);
    m->lost = malloc((size_t)m->P * sizeof *m->lost);
    m->share_in = malloc((size_t)m->P * sizeof *m->share_in);
    m->lost_in = malloc((size_t)m->P * sizeof *m->lost_in);
    if (m->N == NULL || m->b == NULL || m->lam == NULL || m->mu == NULL ||
        m->stride == NULL || m->rate == NULL || m->pi == NULL || m->cls == NULL ||
        m->share_top == NULL || m->lost == NULL || m->share_in == NULL ||
        m->lost_in == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %ld phases", m->P);
        goto out;
    }
    {
        long st = 1;

        for (long i = 0; i < nc; i++) {
            m->N[i] = (int)ci[i].N;
            m->b[i] = ci[i].b;
            m->mu[i] = 1.0 / ci[i].L;
            m->lam[i] = ci[i].p / ((1.0 - ci[i].p) * ci[i].L);
            m->stride[i] = st;
            st *= ci[i].N + 1;
        }
    }
    m->E = r0;
    for (long i = 0; i < nc; i++)
        m->E += (double)ci[i].N * ci[i].p * ci[i].b;
    for (long f = 0; f < m->P; f++) {
        long rem = f;
        double r = r0, lp = 0.0;

        for (long i = 0; i < nc; i++) {
            long mc = rem % (ci[i].N + 1);
            int N = (int)ci[i].N;

            rem /= ci[i].N + 1;
            r += (double)mc * ci[i].b;
            lp += lgamma(N + 1.0) - lgamma(mc + 1.0) - lgamma(N - mc + 1.0) +
                  (double)mc * log(ci[i].p) + (double)(N - mc) * log1p(-ci[i].p);
        }
        m->rate[f] = r;
        m->pi[f] = exp(lp);
        m->share_top[f] = m->share_in[f] = 1.0;
        m->lost[f] = m->lost_in[f] = 0.0;
        if (fabs(r - m->B) <= ZERO_DRIFT_REL * m->B) {
            m->cls[f] = FL_ZERO;
            m->n_zero++;
        } else if (r > m->B) {
            m->cls[f] = FL_UP;
            m->n_up++;
            /* the writers wait: each writes B / r of its offer, so the
             * I/O of the phase is stalled (r - B)/r of its time at S */
            m->share_top[f] = m->B / r;
            m->lost[f] = (r - m->B) / r;
            if (r - m->B > m->Bbb) {
                /* below a full buffer they write B + B_BB */
                m->binds = 1;
                m->share_in[f] = (m->B + m->Bbb) / r;
                m->lost_in[f] = (r - m->B - m->Bbb) / r;
            }
        } else {
            m->cls[f] = FL_DOWN;
            m->n_down++;
        }
    }
    m->pi_in = malloc((size_t)m->P * sizeof *m->pi_in);
    if (m->pi_in == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %ld phases", m->P);
        goto out;
    }
    {
        double *work = NULL;

        if (m->binds)
            rc = fl_law(m, m->share_in, m->pi_in, &work, err);
        else
            memcpy(m->pi_in, m->pi, (size_t)m->P * sizeof *m->pi);
        if (rc == BB_OK && m->n_up > 0) {
            m->pi_top = malloc((size_t)m->P * sizeof *m->pi_top);
            rc = m->pi_top == NULL ? bb_seterr(err, BB_ENOMEM, "out of memory for %ld "
                                               "phases", m->P)
                                   : fl_law(m, m->share_top, m->pi_top, &work, err);
        }
        free(work);
        if (rc != BB_OK)
            goto out;
    }
    if (m->n_up > 0 && m->n_down > 0) {
        rc = fl_spec_build(m, 1.0, 1, &m->greedy, err);
        if (rc != BB_OK)
            goto out;
    }
    /* the limit as S grows: when the buffer fills (the mean drift under
     * the law of Q' is positive: E > B where B_BB binds nowhere) the PFS
     * drains B all the time and every byte is written (work
     * conservation), X -> B; otherwise the buffer is stable (or null
     * recurrent at zero drift) and the writers lose only where B_BB
     * binds: sum_f pi'_f lost_in_f */
    m->idle_limit = 0.0;
    if (m->n_up > 0 && m->n_down == 0) {
        for (long f = 0; f < m->P; f++)
            m->idle_limit += m->pi_top[f] * m->lost[f];
    } else if (m->n_up > 0 && m->greedy->drift > 0.0) {
        rc = limit_full(m, &m->idle_limit, err);
        if (rc != BB_OK)
            goto out;
    } else
        for (long f = 0; f < m->P; f++)
            m->idle_limit += m->pi_in[f] * m->lost_in[f];
out:
    free(ci);
    if (rc != BB_OK)
        bba_fluid_free(m);
    else
        *out = m;
    return rc;
}

/* The limit where B_BB = x binds and the buffer is stable: sum_f
 * pi'_f lost'_f with pi' the law of Q' at x (fluid_top.c); share and law
 * P doubles of scratch, *work the law's.  NAN when the law cannot be had. */
static double
bw_limit(const bba_fluid *m, double x, double *share, double *law, double **work)
{
    double h = 0.0;
    char err[BB_ERRLEN];

    for (long f = 0; f < m->P; f++) {
        double r = m->rate[f];

        share[f] = m->cls[f] == FL_UP && r - m->B > x ? (m->B + x) / r : 1.0;
    }
    if (fl_law(m, share, law, work, err) != BB_OK)
        return NAN;
    for (long f = 0; f < m->P; f++)
        if (share[f] < 1.0) /* lost_f scales with 1 - c: (r - B - x)/(r - B) of it */
            h += law[f] * m->lost[f] * (m->rate[f] - m->B - x) / (m->rate[f] - m->B);
    return h;
}

/* The smallest B_BB for a target under waiting writers, E <= B.  The
 * limit at bandwidth x is h(x) (bw_limit) while the buffer is stable.
 * h(0+) is the idle fraction of a buffer of size 0 (the content never
 * rises: every phase above B writes B), h is 0 beyond the largest excess
 * r_f - B, and non-increasing between: the target's crossing is
 * bracketed and closed by Illinois steps on g = ln(h / target), which a
 * tail of phases makes far straighter than h itself (about 8 laws where
 * h took 20); the end where h is 0 (g = -inf) is first halved until it
 * is finite. */
int
bba_fluid_bbbw_min(const bba_fluid *m, double target, double *bbbw, char *err)
{
    double h0 = 0.0, emax = 0.0, lo, hi, glo, ghi, *share, *law, *work = NULL;
    int side = 0;

    *bbbw = NAN;
    if (!(target > 0.0 && target < 1.0))
        return bb_seterr(err, BB_EINVAL, "target idle fraction %g is not in (0, 1)", target);
    for (long f = 0; f < m->P; f++)
        if (m->cls[f] == FL_UP) {
            h0 += m->pi_top[f] * m->lost[f];
            emax = fmax(emax, m->rate[f] - m->B);
        }
    if (h0 <= target) {
        *bbbw = 0.0;
        return BB_OK;
    }
    if (m->E > m->B)
        return bb_seterr(err, BB_EINFEASIBLE, "E = %.6g B/s > B = %.6g B/s: the buffer "
                         "fills as it grows; the smallest burst-buffer bandwidth for a "
                         "target is computed only when E < B", m->E, m->B);
    share = malloc((size_t)2 * (size_t)m->P * sizeof *share);
    if (share == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    law = share + m->P;
    lo = 0.0;
    glo = log(h0 / target);
    hi = emax;
    ghi = -INFINITY;
    for (int it = 0; it < 200 && hi - lo > 1e-13 * emax; it++) {
        double x = isfinite(ghi) ? lo + (hi - lo) * glo / (glo - ghi) : 0.5 * (lo + hi);
        double hx, gx;

        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        hx = bw_limit(m, x, share, law, &work);
        if (isnan(hx)) {
            free(share);
            free(work);
            return bb_seterr(err, BB_ENOMEM, "out of memory for a phase law");
        }
        gx = hx > 0.0 ? log(hx / target) : -INFINITY;
        if (gx <= 0.0) {
            hi = x;
            ghi = gx;
            if (side == -1 && isfinite(gx))
                glo *= 0.5;
            side = -1;
        } else {
            lo = x;
            glo = gx;
            if (side == 1 && isfinite(ghi))
                ghi *= 0.5;
            side = 1;
        }
    }
    free(share);
    free(work);
    *bbbw = hi; /* the feasible end */
    return BB_OK;
}
