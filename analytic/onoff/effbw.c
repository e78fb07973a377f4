/* effbw.c: effective bandwidths, the decay rate theta*, the reduced model
 * and the corrections of its answers (effbw.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "effbw.h"

double
bba_effbw_lambda_onoff(double b, double p, double L, double theta)
{
    double a, c, e, tr, det, disc;

    if (p <= 0)
        return 0;
    if (p >= 1)
        return theta * b;
    if (!(L > 0))
        L = 1.0 / (1.0 - p);
    a = 1.0 / L;
    c = a * p / (1.0 - p);
    if (c > 1)
        c = 1;
    /* Perron root of [[1-c, c e], [a, (1-a) e]], e = e^(theta b): the
     * larger root of z^2 - tr z + det, computed in log space by factoring
     * e out when theta b is large. */
    if (theta * b > 30) {
        /* divide the matrix by e: [[(1-c)/e, c], [a/e, 1-a]] */
        double ie = exp(-theta * b);

        tr = (1 - c) * ie + (1 - a);
        det = (1 - a - c) * ie;
        disc = tr * tr - 4 * det;
        return theta * b + log(0.5 * (tr + sqrt(disc > 0 ? disc : 0)));
    }
    e = exp(theta * b);
    tr = (1 - c) + (1 - a) * e;
    det = (1 - a - c) * e;
    disc = tr * tr - 4 * det;
    return log(0.5 * (tr + sqrt(disc > 0 ? disc : 0)));
}

/* log sum_k D0[k] e^(theta k), shifted by the largest exponent. */
static double
lambda_d0(const bba_onoff *m, double theta)
{
    double mx = -INFINITY, s = 0;

    for (long k = 0; k <= m->M0; k++)
        if (m->D0[k] > 0 && theta * (double)k + log(m->D0[k]) > mx)
            mx = theta * (double)k + log(m->D0[k]);
    for (long k = 0; k <= m->M0; k++)
        if (m->D0[k] > 0)
            s += exp(theta * (double)k + log(m->D0[k]) - mx);
    return mx + log(s);
}

/* f(theta) = sum Lambda - theta B: 0 at 0, convex, f'(0) = E - B. */
static double
excess(const bba_onoff *m, double theta)
{
    double s = lambda_d0(m, theta);

    for (size_t c = 0; c < m->n_classes; c++)
        s += (double)m->N[c] * bba_effbw_lambda_onoff((double)m->b[c], m->p[c], m->L[c], theta);
    return s - theta * (double)m->B;
}

int
bba_effbw_decay(const bba_onoff *m, double *theta, char *err)
{
    double lo = 0, hi;

    *theta = 0;
    if (m->mean_load >= (double)m->B)
        return bb_seterr(err, BB_EINFEASIBLE, "the mean load %g quanta is not below B = %ld: "
                         "no buffer suffices", m->mean_load, m->B);
    if (m->M <= m->B)
        return bb_seterr(err, BB_EDATA, "the largest load %ld quanta never exceeds B = %ld: "
                         "the buffer never overflows", m->M, m->B);
    /* Bracket: f < 0 just above 0, f > 0 for large theta (f ~ theta (M - B)). */
    hi = 1.0 / (double)m->B;
    while (excess(m, hi) <= 0) {
        lo = hi;
        hi *= 2;
        if (hi > 1e6)
            return bb_seterr(err, BB_EDATA, "no decay rate below %g per quantum", hi);
    }
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = 0.5 * (lo + hi);

        if (excess(m, mid) <= 0)
            lo = mid;
        else
            hi = mid;
    }
    *theta = 0.5 * (lo + hi);
    return BB_OK;
}

typedef struct {
    double effect;
    size_t cls;
} ranked;

static int
by_effect(const void *x, const void *y)
{
    const ranked *a = x, *b = y;

    return a->effect < b->effect ? 1 : a->effect > b->effect ? -1
           : a->cls > b->cls ? 1 : a->cls < b->cls ? -1 : 0;
}

int
bba_effbw_reduce(size_t n, const long *b, const double *p, const double *L,
                 long B, double theta, size_t k, long max_phases, bba_onoff *out,
                 char *err)
{
    bba_onoff full;
    ranked *r = NULL;
    double *L2 = NULL;
    int rc;

    memset(out, 0, sizeof *out);
    rc = bba_onoff_init(&full, n, b, p, L, B, 0, -1, err);
    if (rc != BB_OK)
        return rc;
    r = malloc((full.n_classes + 1) * sizeof *r);
    L2 = malloc((n + 1) * sizeof *L2);
    if (r == NULL || L2 == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu classes", full.n_classes);
        goto out;
    }
    for (size_t c = 0; c < full.n_classes; c++) {
        double bc = (double)full.b[c], pc = full.p[c];

        r[c].cls = c;
        r[c].effect = (double)full.N[c]
                      * (bba_effbw_lambda_onoff(bc, pc, full.L[c], theta)
                         - log(1 - pc + pc * exp(theta * bc)));
    }
    qsort(r, full.n_classes, sizeof *r, by_effect);
    /* Applications of a class beyond the k kept become memoryless. */
    for (size_t i = 0; i < n; i++) {
        size_t q;

        L2[i] = L[i];
        for (q = k; q < full.n_classes; q++) {
            size_t c = r[q].cls;

            if (full.b[c] == b[i] && full.p[c] == p[i]
                && (full.L[c] == L[i] || (L[i] <= 0 && full.L[c] == 1.0 / (1.0 - p[i]))))
                break;
        }
        if (q < full.n_classes)
            L2[i] = 0; /* memoryless */
    }
    rc = bba_onoff_init(out, n, b, p, L2, B, 0, max_phases, err);
out:
    free(r);
    free(L2);
    bba_onoff_free(&full);
    return rc;
}

/* ---- The corrections (effbw.h) ------------------------------------------ */

#define MS_GRID 160

struct bba_effbw_approx {
    bba_effbw_kind kind;
    const bba_onoff *r;  /* the reduced model, borrowed */
    bba_onoff full;      /* classes and D0 factors only */
    double theta;        /* the full model's theta*, the grid's centre */
    double decay;        /* DECAY: theta* - theta*_R per quantum */
};

int
bba_effbw_approx_new(const bba_onoff *r, size_t n, const long *b, const double *p,
                     const double *L, bba_effbw_kind kind, bba_effbw_approx **out, char *err)
{
    bba_effbw_approx *a;
    int rc;

    *out = NULL;
    if (kind != BBA_EFFBW_MANY_SOURCES && kind != BBA_EFFBW_DECAY)
        return bb_seterr(err, BB_EINVAL, "unknown correction %d", (int)kind);
    a = calloc(1, sizeof *a);
    if (a == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for a correction");
    a->kind = kind;
    a->r = r;
    rc = bba_onoff_init(&a->full, n, b, p, L, r->B, 0, -1, err);
    if (rc == BB_OK)
        rc = bba_effbw_decay(&a->full, &a->theta, err);
    if (rc != BB_OK) {
        bba_effbw_approx_free(a);
        return rc;
    }
    if (kind == BBA_EFFBW_DECAY) {
        double th_r;

        /* r never overflows on its own: no decay of its own to replace */
        if (bba_effbw_decay(r, &th_r, NULL) != BB_OK)
            th_r = a->theta;
        a->decay = a->theta - th_r;
    }
    *out = a;
    return BB_OK;
}

void
bba_effbw_approx_free(bba_effbw_approx *a)
{
    if (a == NULL)
        return;
    bba_onoff_free(&a->full);
    free(a);
}

bba_effbw_kind
bba_effbw_approx_kind(const bba_effbw_approx *a)
{
    return a->kind;
}

/* lam[g (nmax + 1) + t] = log E e^(th[g] A_t) of model m, t = 1..nmax. */
static void
ms_lmgf(const bba_onoff *m, const double *th, int nmax, double *lam)
{
    long w = nmax + 1;

    for (int g = 0; g < MS_GRID; g++) {
        double l0 = 0;

        for (size_t i = 0; i < m->n0; i++)
            l0 += log1p(m->p0[i] * expm1(th[g] * (double)m->b0[i]));
        for (int t = 0; t <= nmax; t++)
            lam[g * w + t] = t * l0;
    }
    for (size_t c = 0; c < m->n_classes; c++) {
        double pc = m->p[c], a = 1.0 / m->L[c], cc = a * pc / (1.0 - pc), N = m->N[c];

        if (cc > 1)
            cc = 1;
        for (int g = 0; g < MS_GRID; g++) {
            double e = exp(th[g] * (double)m->b[c]), v0 = 1.0 - pc, v1 = pc * e, acc = 0;

            /* v = pi D (T D)^(t-1), renormalised every step. */
            for (int t = 1; t <= nmax; t++) {
                double s = v0 + v1, n0, n1;

                lam[g * w + t] += N * (acc + log(s));
                acc += log(s);
                v0 /= s;
                v1 /= s;
                n0 = v0 * (1.0 - cc) + v1 * a;
                n1 = (v0 * cc + v1 * (1.0 - a)) * e;
                v0 = n0;
                v1 = n1;
            }
        }
    }
}

/* I(S) from the table; *arg the minimising n. */
static double
ms_rate(const double *lam, const double *th, int nmax, double S, double B, int *arg)
{
    double best = INFINITY;

    *arg = 1;
    for (int t = 1; t <= nmax; t++) {
        double mx = -INFINITY;

        for (int g = 0; g < MS_GRID; g++) {
            double v = th[g] * (S + t * B) - lam[g * (nmax + 1) + t];

            if (v > mx)
                mx = v;
        }
        if (mx < best) {
            best = mx;
            *arg = t;
        }
    }
    return best;
}

/* exp(I_r(S) - I_full(S)); *ir I_r(S) when ir is not NULL. */
static double
ms_factor(const bba_effbw_approx *a, long S, double *ir)
{
    double th[MS_GRID], If = 0, Ir = 0, *lf = NULL, *lr = NULL;
    int nmax = 64;

    for (int g = 0; g < MS_GRID; g++)
        th[g] = a->theta / 30.0 * pow(900.0, (double)g / (MS_GRID - 1));
    for (;;) {
        int af, ar;

        free(lf);
        free(lr);
        lf = malloc((size_t)MS_GRID * (size_t)(nmax + 1) * sizeof *lf);
        lr = malloc((size_t)MS_GRID * (size_t)(nmax + 1) * sizeof *lr);
        if (lf == NULL || lr == NULL) {
            free(lf);
            free(lr);
            return NAN;
        }
        ms_lmgf(&a->full, th, nmax, lf);
        ms_lmgf(a->r, th, nmax, lr);
        If = ms_rate(lf, th, nmax, (double)S, (double)a->r->B, &af);
        Ir = ms_rate(lr, th, nmax, (double)S, (double)a->r->B, &ar);
        if ((4 * af <= 3 * nmax && 4 * ar <= 3 * nmax) || nmax >= 1 << 16)
            break;
        nmax *= 2;
    }
    free(lf);
    free(lr);
    if (ir != NULL)
        *ir = Ir;
    return exp(Ir - If);
}

double
bba_effbw_approx_factor(const bba_effbw_approx *a, long S, const bb_drain *pol)
{
    if (a->kind == BBA_EFFBW_DECAY)
        return exp(-a->decay * (double)S);
    if (pol != NULL && pol->kind == BB_DRAIN_LAZY)
        S -= lround((1.0 - pol->eps) * (double)pol->threshold);
    return ms_factor(a, S, NULL);
}

int
bba_effbw_approx_apply(const bba_effbw_approx *a, long S, const bb_drain *pol,
                       bba_measures *me, char *err)
{
    double f, idle, ir = NAN;
    long Sx = S;

    if (a->kind == BBA_EFFBW_DECAY) {
        f = bba_effbw_approx_factor(a, S, pol);
    } else {
        if (pol != NULL && pol->kind == BB_DRAIN_LAZY)
            Sx -= lround((1.0 - pol->eps) * (double)pol->threshold);
        f = ms_factor(a, Sx, &ir);
    }
    if (isnan(f))
        return bb_seterr(err, BB_ENOMEM, "out of memory for the many-sources correction");
    idle = me->idle * f;
    /* The factor keeps r's prefactor idle_r e^(I_r), which the Chernoff
     * bound keeps below the horizons summed (at most 2^16): far above it,
     * idle_r is the solve's rounding, not r's tail, and the product is
     * noise times a huge factor (200 identical applications at 100 TB
     * gave idle 1).  A product above 1 is no idle fraction either. */
    if (me->idle > 0 && isfinite(ir) && log(me->idle) + ir > BBA_EFFBW_PREFACTOR_MAX)
        return bb_seterr(err, BB_ENOCONV, "the many-sources correction fails at %ld quanta: "
                         "the reduced model's idle fraction %.3g is its solve's rounding, "
                         "far above its large-deviation bound e^-%.4g; use the fluid model",
                         S, me->idle, ir);
    if (idle > 1)
        return bb_seterr(err, BB_ENOCONV, "the %s correction fails at %ld quanta: it makes "
                         "the idle fraction %.3g, above 1; use the fluid model",
                         a->kind == BBA_EFFBW_DECAY ? "decay-rate" : "many-sources", S, idle);
    /* a product below the double range keeps its logarithm */
    me->log10_idle = idle > 0 ? log10(idle)
                     : me->idle > 0 && f > 0 ? log10(me->idle) + log10(f) : -INFINITY;
    me->p_full += idle - me->idle;
    me->idle = idle;
    return BB_OK;
}
