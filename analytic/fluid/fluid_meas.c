/* fluid_meas.c: the fluid model's measures (fluid.h) from a boundary
 * solution (fl_sol): the atoms, masses and first moments per phase, the
 * stall fraction, the checks (boundary conditions, phase law, flux
 * balance, sign) and the residual that refuses an answer.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_int.h"
#include "lapackf.h"

/* A solution whose residual (fluid.h) exceeds this is refused. */
#define RESID_MAX 1e-6

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

/* One class, greedy, without modes (fluid_ma.c): *out when the residual
 * with its error bound P eps / idle is within max_res (1), else untouched. */
int
fl_class_eval(const bba_fluid *m, double S, bba_fluid_result *out, double max_res)
{
    acc a;
    bba_fluid_result r;
    double res, perr, ferr, neg, rel;
    int ok = acc_alloc(&a, 2, m->P) == 0 && fl_ma_groups(m, S, a.l, a.u, a.mi, a.xi, &res) == 0;

    if (ok) {
        measures_core(m, &a, S, 1.0, &r, &perr, &ferr, &neg);
        /* an idle of 0 leaves the relative bound infinite: not accepted */
        rel = r.idle > 0.0 ? (double)m->P * DBL_EPSILON / r.idle : HUGE_VAL;
        r.residual = fmax(fmax(res, rel), fmax(perr, fmax(ferr, neg)));
        if ((ok = r.mean_occupancy_bytes >= 0.0 && r.residual <= max_res))
            *out = r;
    }
    acc_free(&a);
    return ok;
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
    if (!(out->residual <= 1e-10) && s->R == 1 && eps == 1.0 && m->C == 1) /* smaller wins */
        fl_class_eval(m, s->x[1], out, out->residual);
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
