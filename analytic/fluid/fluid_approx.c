/* fluid_approx.c: the folded fluid model beyond exact reach
 * (fluid_approx.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_approx.h"
#include "fluid_bufferless.h"
#include "fluid_classes.h"

#define VARIANTS_MAX 8

/* FOLD_TAIL: counts as FOLD_ROUND; a capped group keeps its cumulant at
 * the bufferless tilt (fluid_approx.h, Interval) in place of its
 * variance */
enum { FOLD_ROUND = 0, FOLD_FLOOR = 1, FOLD_CEIL = 2, FOLD_TAIL = 3 };

/* A distinct source with a phase, its count and its effect. */
typedef struct {
    double b, p, L;
    long N;
    double eff;
} unit;

typedef struct {
    size_t k, g;        /* exact units, folded groups */
    long cap;           /* the most sources of a folded class */
    int kind;           /* FOLD_ROUND, FOLD_FLOOR, FOLD_CEIL */
    bba_fluid_class *c; /* the classes built */
    size_t n;
    bba_fluid *m;
} variant;

struct bba_fluid_approx {
    int exact;
    double theta;       /* theta* (NAN: none) */
    double tilt;        /* the bufferless tilt s* (1/(B/s); NAN: none) */
    size_t n_units;     /* distinct sources with a phase */
    long n_sources;     /* their count */
    double folded;      /* share of the effect (above) in the folded units */
    double folded_load; /* share of the mean rate in the folded units */
    long cap;           /* the primary's cap */
    double s0_lo, s0_hi; /* the workload's bufferless stall bounds
                            (fluid_bufferless.h) */
    double rho;         /* the prefactor's loss rho (header, Interval) */
    variant v[VARIANTS_MAX];
    int nv;
};

double
bba_fluid_lambda(double b, double p, double L, double theta)
{
    double a = p / ((1.0 - p) * L), m = 1.0 / L, x = theta * b - a - m;
    double s = sqrt(x * x + 4.0 * a * theta * b);

    /* x < 0: the difference x + s cancels; 4 a theta b / (s - x) does not */
    return x >= 0 ? 0.5 * (x + s) : 2.0 * a * theta * b / (s - x);
}

/* asymptotic variance rate of an ON/OFF source (bytes^2/s) */
static double
avar(double b, double p, double L)
{
    return 2.0 * b * b * p * (1.0 - p) * (1.0 - p) * L;
}

/* ln E e^(s X) of a source of rate b ON with probability p, and its
 * tilted mean d/ds (B/s), for s b >= 0 without overflow */
static double
cgf(double b, double p, double s)
{
    double x = s * b;

    return x + log(p + (1.0 - p) * exp(-x));
}

static double
tilted_mean(double b, double p, double s)
{
    return b / (1.0 + (1.0 - p) / p * exp(-s * b));
}

/* sum Lambda(theta) - theta B over the classes */
static double
excess(const bba_fluid_class *c, size_t n, double B, double theta)
{
    double s = -theta * B;

    for (size_t i = 0; i < n; i++) {
        if (c[i].count <= 0 || c[i].p <= 0.0 || c[i].rate_Bps <= 0.0)
            continue;
        if (c[i].p >= 1.0)
            s += theta * c[i].count * c[i].rate_Bps;
        else
            s += c[i].count * bba_fluid_lambda(c[i].rate_Bps, c[i].p, c[i].burst_s, theta);
    }
    return s;
}

int
bba_fluid_decay(const bba_fluid_class *c, size_t n, double B, double *theta, char *err)
{
    double E = 0.0, peak = 0.0, lo, hi, Lmin = INFINITY;
    int rc;

    *theta = NAN;
    if (!(B > 0.0 && isfinite(B)))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g B/s is not positive", B);
    for (size_t i = 0; i < n; i++) {
        if ((rc = bba_fluid_class_check(&c[i], i, err)) != BB_OK)
            return rc;
        if (c[i].count <= 0 || c[i].p <= 0.0 || c[i].rate_Bps <= 0.0)
            continue;
        E += c[i].count * c[i].p * c[i].rate_Bps;
        peak += c[i].count * c[i].rate_Bps;
        if (c[i].p < 1.0 && c[i].burst_s < Lmin)
            Lmin = c[i].burst_s;
    }
    if (E >= B)
        return bb_seterr(err, BB_EINFEASIBLE, "the mean rate %.6g B/s is at least the PFS "
                         "bandwidth %.6g B/s: no decay rate", E, B);
    if (peak <= B)
        return bb_seterr(err, BB_EDATA, "the peak rate %.6g B/s is at most the PFS "
                         "bandwidth %.6g B/s: the buffer never fills", peak, B);
    /* excess < 0 just above 0 (its slope there is E - B), convex, and
     * > 0 for large theta (slope -> peak - B): bracket, then bisect */
    hi = 1.0 / (B * Lmin);
    while (excess(c, n, B, hi) < 0.0)
        hi *= 2.0;
    lo = hi;
    while (lo > 0.0 && excess(c, n, B, lo) >= 0.0)
        lo *= 0.5;
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
        double mid = 0.5 * (lo + hi);

        if (excess(c, n, B, mid) < 0.0)
            lo = mid;
        else
            hi = mid;
    }
    *theta = 0.5 * (lo + hi);
    return BB_OK;
}

/* The ON period L at which N identical sources (b, p, L) have the sum of
 * Lambda lam_tot at theta (theta > 0), or the asymptotic variance var_tot
 * (theta NAN).  Bisection on log L; the caller has checked that the
 * target lies strictly between the limits theta p b and theta b. */
static double
solve_L(double b, double p, long N, double theta, double lam_tot, double var_tot)
{
    double lo, hi, t;

    if (isnan(theta))
        return var_tot / (N * avar(b, p, 1.0));
    t = lam_tot / N;
    lo = hi = 1.0;
    while (bba_fluid_lambda(b, p, lo, theta) > t)
        lo *= 0.5;
    while (bba_fluid_lambda(b, p, hi, theta) < t)
        hi *= 2.0;
    for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
        double mid = sqrt(lo * hi);

        if (!(mid > lo && mid < hi))
            mid = 0.5 * (lo + hi);
        if (bba_fluid_lambda(b, p, mid, theta) < t)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* The moments of a group: count, mean, peak, instantaneous variance, sum
 * of Lambda at theta, asymptotic variance. */
typedef struct {
    long N;
    double M, peak, V, lam, var;
} moments;

static void
group_moments(const unit *u, const size_t *idx, size_t k, double theta, moments *g)
{
    memset(g, 0, sizeof *g);
    for (size_t j = 0; j < k; j++) {
        const unit *x = &u[idx[j]];

        g->N += x->N;
        g->M += x->N * x->p * x->b;
        g->peak += x->N * x->b;
        g->V += x->N * x->b * x->b * x->p * (1.0 - x->p);
        if (!isnan(theta))
            g->lam += x->N * bba_fluid_lambda(x->b, x->p, x->L, theta);
        g->var += x->N * avar(x->b, x->p, x->L);
    }
}

/* The effective count of a group: N identical sources with its mean,
 * peak and variance have N = peak M (1 - M / peak) / V; rounded down
 * (kind FOLD_FLOOR) or up, within [1, count]. */
static long
group_count(const moments *g, int kind)
{
    double x = g->peak * g->M * (1.0 - g->M / g->peak) / g->V;
    long N = kind == FOLD_CEIL    ? (long)ceil(x - 1e-9)
             : kind == FOLD_FLOOR ? (long)floor(x + 1e-9)
                                  : (long)floor(x + 0.5);

    return N < 1 ? 1 : N > g->N ? g->N : N;
}

/* Fold units u[idx[0..k-1]] into one class (fluid_approx.h). */
/* The rate b of N sources of mean rate M / N in all whose cumulant at
 * the tilt s is lam (> s M, Jensen): N cgf(b, M / (N b), s) grows with
 * b from s M at b = M / N; bisection on log b.  0 when not found. */
static double
solve_b_tail(double M, long N, double s, double lam)
{
    double lo = M / N, hi = 2.0 * M / N;

    for (int it = 0; it < 200 && N * cgf(hi, M / (N * hi), s) < lam; it++)
        hi *= 2.0;
    if (!(N * cgf(hi, M / (N * hi), s) >= lam))
        return 0;
    for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
        double mid = sqrt(lo * hi);

        if (!(mid > lo && mid < hi))
            mid = 0.5 * (lo + hi);
        if (N * cgf(mid, M / (N * mid), s) < lam)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static void
fold(const unit *u, const size_t *idx, size_t k, double theta, double tilt, int kind, long cap,
     bba_fluid_class *out)
{
    moments g;
    double b, p;
    long N;
    int capped;

    if (k == 1 && u[idx[0]].N <= cap) {
        out->rate_Bps = u[idx[0]].b;
        out->p = u[idx[0]].p;
        out->burst_s = u[idx[0]].L;
        out->count = (int)u[idx[0]].N;
        return;
    }
    group_moments(u, idx, k, theta, &g);
    N = group_count(&g, kind);
    capped = N > cap;
    N = capped ? cap : N;
    /* mean and variance with N sources: b (1 - p) = V / M, b p = M / N */
    b = g.V / g.M + g.M / N;
    p = g.M / N / b;
    if (kind == FOLD_TAIL && capped && tilt > 0) {
        /* mean and cumulant at the tilt: the bufferless tail */
        double lam = 0, bt;

        for (size_t j = 0; j < k; j++)
            lam += u[idx[j]].N * cgf(u[idx[j]].b, u[idx[j]].p, tilt);
        bt = solve_b_tail(g.M, N, tilt, lam);
        if (bt > g.M / N) {
            b = bt;
            p = g.M / N / b;
        }
    }
    /* the group's Lambda must lie strictly between N theta p b and
     * N theta b (it does when b reaches the peak); else keep the peak,
     * or, capped (the peak of N sources would carry far more variance),
     * the mean, the variance and the asymptotic variance */
    if (!(p > 0 && p < 1) || (!isnan(theta) && !(g.lam < N * theta * b * (1 - 1e-9)))) {
        if (capped && p > 0 && p < 1) {
            theta = NAN;
        } else {
            b = g.peak / N;
            p = g.M / g.peak;
        }
    }
    out->rate_Bps = b;
    out->p = p;
    out->burst_s = solve_L(b, p, N, theta, g.lam, g.var);
    out->count = (int)N;
}

static int
by_eff(const void *x, const void *y)
{
    const unit *a = x, *b = y;

    return a->eff > b->eff ? -1 : a->eff < b->eff ? 1 : 0;
}

static int
by_rate(const void *x, const void *y)
{
    const unit *const *a = x, *const *b = y;

    return (*a)->b < (*b)->b ? -1 : (*a)->b > (*b)->b ? 1 : 0;
}

/* Phases of the partition (k exact units of u sorted by effect, the rest
 * in g groups of near-equal count); the groups' index ranges into order
 * (the rest sorted by rate) in first[0..g]. */
static double
partition(const unit *u, size_t nu, size_t k, size_t g, const unit *const *order,
          int kind, long cap, size_t *first, size_t *idx, double *loss)
{
    double P = 1.0, L = 0.0;
    size_t rest = nu - k;

    for (size_t i = 0; i < k; i++)
        P *= u[i].N + 1.0;
    for (size_t j = 0; j <= g; j++)
        first[j] = g ? j * rest / g : 0;
    for (size_t j = 0; j < g; j++) {
        size_t m = 0;
        moments gm;

        for (size_t i = first[j]; i < first[j + 1]; i++)
            idx[m++] = (size_t)(order[i] - u);
        if (m == 1) {   /* kept as it is unless capped */
            long N = u[idx[0]].N;

            P *= (N < cap ? N : cap) + 1.0;
            L += N > cap ? u[idx[0]].eff * log((double)N / cap) : 0.0;
            continue;
        }
        group_moments(u, idx, m, NAN, &gm);
        {
            long N = group_count(&gm, kind);
            double e = 0;

            for (size_t i = 0; i < m; i++)
                e += u[idx[i]].eff;
            P *= (N < cap ? N : cap) + 1.0;
            L += e * (1.0 + (N > cap ? log((double)N / cap) : 0.0));
        }
    }
    if (loss != NULL)
        *loss = L;
    return P;
}

static void
variant_free(variant *v)
{
    free(v->c);
    bba_fluid_free(v->m);
    memset(v, 0, sizeof *v);
}

/* A partition: k exact units, g groups, their counts at most cap. */
typedef struct {
    size_t k, g;
    long cap;
    double loss;   /* (fluid_approx.h, Partition) */
} split;

/* Build the variant (k, g, cap, kind) of units u (sorted by effect), with
 * the pass-through classes. */
static int
variant_new(const unit *u, size_t nu, split sp, int kind, double theta, double tilt,
            const bba_fluid_class *pass, size_t npass, const bba_fluid_opts *o, variant *v,
            char *err)
{
    const unit **order = malloc((nu + 1) * sizeof *order);
    size_t *first = malloc((sp.g + 2) * sizeof *first), *idx = malloc((nu + 1) * sizeof *idx);
    int rc = BB_OK;

    memset(v, 0, sizeof *v);
    v->c = malloc((sp.k + sp.g + npass + 1) * sizeof *v->c);
    if (order == NULL || first == NULL || idx == NULL || v->c == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu sources", nu);
        goto out;
    }
    v->k = sp.k;
    v->g = sp.g;
    v->cap = sp.cap;
    v->kind = kind;
    for (size_t i = sp.k; i < nu; i++)
        order[i - sp.k] = &u[i];
    qsort(order, nu - sp.k, sizeof *order, by_rate);
    partition(u, nu, sp.k, sp.g, order, kind, sp.cap, first, idx, NULL);
    for (size_t i = 0; i < sp.k; i++) {
        idx[0] = i;
        fold(u, idx, 1, theta, tilt, kind, LONG_MAX, &v->c[v->n++]);
    }
    for (size_t j = 0; j < sp.g; j++) {
        size_t m = 0;

        for (size_t i = first[j]; i < first[j + 1]; i++)
            idx[m++] = (size_t)(order[i] - u);
        if (m > 0)
            fold(u, idx, m, theta, tilt, kind, sp.cap, &v->c[v->n++]);
    }
    memcpy(v->c + v->n, pass, npass * sizeof *pass);
    v->n += npass;
    rc = bba_fluid_new(v->c, v->n, o, &v->m, err);
out:
    free(order);
    free(first);
    free(idx);
    if (rc != BB_OK)
        variant_free(v);
    return rc;
}

/* The largest cap in [BBA_FLUID_APPROX_CAP_MIN, BBA_FLUID_APPROX_CAP_MAX]
 * with which the partition (k, g) fits the budget, 0 when none does.
 * P is checked with the rounded-up counts, the larger; P grows with the
 * cap, so bisect. */
static long
cap_for(const unit *u, size_t nu, size_t k, size_t g, long budget, const unit **order,
        size_t *first, size_t *idx)
{
    long lo = BBA_FLUID_APPROX_CAP_MIN, hi;

    if (partition(u, nu, k, g, order, FOLD_CEIL, BBA_FLUID_APPROX_CAP_MAX, first, idx, NULL)
        <= budget)
        return BBA_FLUID_APPROX_CAP_MAX;
    if (partition(u, nu, k, g, order, FOLD_CEIL, lo, first, idx, NULL) > budget)
        return 0;
    hi = BBA_FLUID_APPROX_CAP_MAX;
    while (hi - lo > 1) {   /* P(lo) fits, P(hi) does not */
        long mid = lo + (hi - lo) / 2;

        if (partition(u, nu, k, g, order, FOLD_CEIL, mid, first, idx, NULL) <= budget)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The partition with k exact units within budget of least loss (then
 * the most groups g), its cap; g = (size_t)-1 when g = 1 does not fit.
 * g grows until the first that does not fit, even capped. */
static split
groups_for(const unit *u, size_t nu, size_t k, long budget, const unit **order, size_t *first,
           size_t *idx)
{
    split best = { k, (size_t)-1, 0, INFINITY };

    for (size_t i = k; i < nu; i++)
        order[i - k] = &u[i];
    qsort(order, nu - k, sizeof *order, by_rate);
    for (size_t g = 1; g <= nu - k; g++) {
        long cap = cap_for(u, nu, k, g, budget, order, first, idx);
        double L;

        if (cap == 0)
            break;
        partition(u, nu, k, g, order, FOLD_ROUND, cap, first, idx, &L);
        if (L <= best.loss * (1 + 1e-12)) {
            best.g = g;
            best.cap = cap;
            best.loss = L;
        }
    }
    return best;
}

/* The partition within budget of least loss, then the most classes
 * (k + g), then the most exact units; gk[k] receives groups_for for every
 * k.  0 when none fits. */
static int
choose(const unit *u, size_t nu, long budget, const unit **order, size_t *first, size_t *idx,
       split *gk, split *best)
{
    int any = 0;
    double exact = 1;

    for (size_t k = 0; k < nu; k++) {
        gk[k].g = (size_t)-1;
        if (exact * (BBA_FLUID_APPROX_CAP_MIN + 1.0) > budget)
            continue;   /* k exact units leave no room for a group */
        exact *= u[k].N + 1.0;
        gk[k] = groups_for(u, nu, k, budget, order, first, idx);
        if (gk[k].g == (size_t)-1)
            continue;
        if (!any || gk[k].loss < best->loss * (1 - 1e-12)
            || (gk[k].loss <= best->loss * (1 + 1e-12) && k + gk[k].g >= best->k + best->g)) {
            any = 1;
            *best = gk[k];
        }
    }
    return any;
}

/* Whether two lists of classes are the same, field by field (a class has
 * padding, which memcmp would read uninitialised). */
static int
same_classes(const bba_fluid_class *a, const bba_fluid_class *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].rate_Bps != b[i].rate_Bps || a[i].p != b[i].p || a[i].burst_s != b[i].burst_s
            || a[i].count != b[i].count)
            return 0;
    return 1;
}

/* Build the variant (k, g, kind) into a->v[a->nv] unless it has the same
 * classes as one built already (rounding often changes no count). */
static int
add_variant(bba_fluid_approx *a, const unit *u, size_t nu, split sp, int kind,
            const bba_fluid_class *pass, size_t npass, const bba_fluid_opts *o, char *err)
{
    variant *v = &a->v[a->nv];
    int rc;

    if (a->nv >= VARIANTS_MAX)
        return BB_OK;
    rc = variant_new(u, nu, sp, kind, a->theta, a->tilt, pass, npass, o, v, err);

    if (rc != BB_OK)
        return rc;
    for (int i = 0; i < a->nv; i++)
        if (a->v[i].n == v->n && same_classes(a->v[i].c, v->c, v->n)) {
            variant_free(v);
            return BB_OK;
        }
    a->nv++;
    return BB_OK;
}

/* The bufferless tilt: s > 0 where the sources' tilted mean rate
 * sum N_i tilted_mean(b_i, p_i, s), plus the constant rates, is B (the
 * Chernoff point of P(rate > B)); NAN unless mean < B < peak.
 * Bisection on log s, O(n x 300). */
static double
bufferless_tilt(const unit *u, size_t nu, const bba_fluid_class *pass, size_t npass, double B)
{
    double base = 0, mean = 0, peak = 0, bmax = 0, lo, hi;

    for (size_t i = 0; i < npass; i++)
        if (pass[i].count > 0 && pass[i].p >= 1.0)
            base += pass[i].count * pass[i].rate_Bps;
    for (size_t j = 0; j < nu; j++) {
        mean += u[j].N * u[j].p * u[j].b;
        peak += u[j].N * u[j].b;
        bmax = fmax(bmax, u[j].b);
    }
    if (!(base + mean < B && base + peak > B && bmax > 0))
        return NAN;
#define TILTED(s, t)                                                                          \
    do {                                                                                      \
        t = base;                                                                             \
        for (size_t j_ = 0; j_ < nu; j_++)                                                    \
            t += u[j_].N * tilted_mean(u[j_].b, u[j_].p, s);                                  \
    } while (0)
    lo = hi = 1.0 / bmax;
    for (int it = 0; it < 100; it++) {
        double t;

        TILTED(lo, t);
        if (t < B)
            break;
        lo *= 0.5;
    }
    for (int it = 0; it < 100; it++) {
        double t;

        TILTED(hi, t);
        if (t >= B)
            break;
        hi *= 2.0;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
        double mid = sqrt(lo * hi), t;

        if (!(mid > lo && mid < hi))
            mid = 0.5 * (lo + hi);
        TILTED(mid, t);
        if (t < B)
            lo = mid;
        else
            hi = mid;
    }
#undef TILTED
    return 0.5 * (lo + hi);
}

int
bba_fluid_approx_new(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                     long budget, bba_fluid_approx **out, char *err)
{
    bba_fluid_approx *a;
    bba_fluid_class *pass = NULL;
    unit *u = NULL;
    bba_fluid_src *src = NULL;
    const unit **order = NULL;
    size_t *first = NULL, *idx = NULL, nu = 0, npass = 0;
    split best = { 0, 0, LONG_MAX, 0 }, *gk = NULL;
    double P = 1.0;
    int rc = BB_OK, binds;

    *out = NULL;
    if (budget < 4)
        return bb_seterr(err, BB_EINVAL, "phase budget %ld is below 4", budget);
    for (size_t i = 0; i < n; i++)
        if ((rc = bba_fluid_class_check(&c[i], i, err)) != BB_OK)
            return rc;
    a = calloc(1, sizeof *a);
    u = malloc((n + 1) * sizeof *u);
    pass = malloc((n + 1) * sizeof *pass);
    order = malloc((n + 1) * sizeof *order);
    first = malloc((n + 2) * sizeof *first);
    gk = malloc((n + 1) * sizeof *gk);
    idx = malloc((n + 1) * sizeof *idx);
    src = malloc((n + 1) * sizeof *src);
    if (a == NULL || u == NULL || pass == NULL || order == NULL || first == NULL
        || gk == NULL || idx == NULL || src == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu classes", n);
        goto out;
    }
    a->theta = NAN;
    a->tilt = NAN;
    /* distinct sources with a phase; the others pass through */
    for (size_t i = 0; i < n; i++) {
        if (!bba_fluid_class_has_phase(&c[i])) {
            pass[npass++] = c[i];
            continue;
        }
        a->n_sources += c[i].count;
    }
    nu = bba_fluid_srcs(c, n, src);
    for (size_t j = 0; j < nu; j++)
        u[j] = (unit){ src[j].b, src[j].p, src[j].L, src[j].N, 0 };
    a->n_units = nu;
    for (size_t j = 0; j < nu; j++)
        P *= u[j].N + 1.0;
    if (P <= budget) {
        a->exact = 1;
        a->nv = 1;
        a->v[0].k = nu;
        a->v[0].c = malloc((n + 1) * sizeof *c);
        if (a->v[0].c == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu classes", n);
            goto out;
        }
        memcpy(a->v[0].c, c, n * sizeof *c);
        a->v[0].n = n;
        rc = bba_fluid_new(c, n, o, &a->v[0].m, err);
        goto out;
    }
    {
        char e2[BB_ERRLEN];

        if (bba_fluid_decay(c, n, o->pfs_bw_Bps, &a->theta, e2) != BB_OK)
            a->theta = NAN;
    }
    /* the unfolded workload's stall at S = 0, bounded by convolution */
    if ((rc = bba_fluid_bufferless(c, n, o->pfs_bw_Bps, &a->s0_lo, &a->s0_hi, err)) != BB_OK)
        goto out;
    for (size_t j = 0; j < nu; j++)
        u[j].eff = isnan(a->theta)
                       ? avar(u[j].b, u[j].p, u[j].L) * u[j].N
                       : u[j].N * (bba_fluid_lambda(u[j].b, u[j].p, u[j].L, a->theta)
                                   - a->theta * u[j].p * u[j].b);
    qsort(u, nu, sizeof *u, by_eff);
    if (!choose(u, nu, budget, order, first, idx, gk, &best)) {
        rc = bb_seterr(err, BB_ETOOBIG, "%ld sources with a phase do not fit in %ld "
                       "phases even folded into one class", a->n_sources, budget);
        goto out;
    }
    {
        double all = 0, f = 0, E = 0, Ef = 0;

        for (size_t j = 0; j < nu; j++) {
            all += u[j].eff;
            f += j >= best.k ? u[j].eff : 0;
            E += u[j].N * u[j].p * u[j].b;
            Ef += j >= best.k ? u[j].N * u[j].p * u[j].b : 0;
        }
        a->folded = all > 0 ? f / all : 0;
        a->folded_load = E > 0 ? Ef / E : 0;
        a->cap = best.cap;
    }
    for (int kind = FOLD_ROUND; kind <= FOLD_CEIL && rc == BB_OK; kind++)
        rc = add_variant(a, u, nu, best, kind, pass, npass, o, err);
    /* where a cap binds: the capped groups keeping their bufferless
     * tail (their cumulant at the tilt) in place of their variance */
    binds = 0;
    for (size_t j = a->v[0].k; rc == BB_OK && j < a->v[0].k + a->v[0].g; j++)
        binds |= a->v[0].c[j].count == best.cap;
    if (rc == BB_OK && binds) {
        a->tilt = bufferless_tilt(u, nu, pass, npass, o->pfs_bw_Bps);
        if (a->tilt > 0)
            rc = add_variant(a, u, nu, best, FOLD_TAIL, pass, npass, o, err);
    }
    /* the prefactor the folding loses (header, Interval): the midpoints
     * of the two bounds, each bound made the same way */
    a->rho = 1;
    if (rc == BB_OK) {
        double flo, fhi;

        rc = bba_fluid_bufferless(a->v[0].c, a->v[0].n, o->pfs_bw_Bps, &flo, &fhi, err);
        if (rc == BB_OK && flo > 0)
            a->rho = fmax(1.0, (a->s0_hi + a->s0_lo) / (flo + fhi));
    }
    /* one more exact unit, one fewer */
    if (rc == BB_OK && best.k + 1 < nu && gk[best.k + 1].g != (size_t)-1)
        rc = add_variant(a, u, nu, gk[best.k + 1], FOLD_ROUND, pass, npass, o, err);
    if (rc == BB_OK && best.k > 0 && gk[best.k - 1].g != (size_t)-1)
        rc = add_variant(a, u, nu, gk[best.k - 1], FOLD_ROUND, pass, npass, o, err);
    /* coarser: the primary's partition with half its cap (where a cap
     * binds: how much the coarsening moves the answer) */
    if (rc == BB_OK && binds && best.cap / 2 >= 1) {
        split h = best;

        h.cap = best.cap / 2;
        rc = add_variant(a, u, nu, h, FOLD_ROUND, pass, npass, o, err);
    }
    /* a coarser folding: the same rule within a quarter of the budget */
    if (rc == BB_OK) {
        split q;

        if (budget / 4 >= 2 && choose(u, nu, budget / 4, order, first, idx, gk, &q))
            rc = add_variant(a, u, nu, q, FOLD_ROUND, pass, npass, o, err);
    }
out:
    free(u);
    free(src);
    free(pass);
    free(order);
    free(first);
    free(gk);
    free(idx);
    if (rc != BB_OK) {
        bba_fluid_approx_free(a);
        return rc;
    }
    *out = a;
    return BB_OK;
}

void
bba_fluid_approx_free(bba_fluid_approx *a)
{
    if (a == NULL)
        return;
    for (int i = 0; i < VARIANTS_MAX; i++)
        variant_free(&a->v[i]);
    free(a);
}

const bba_fluid *
bba_fluid_approx_model(const bba_fluid_approx *a)
{
    return a->v[0].m;
}

int
bba_fluid_approx_exact(const bba_fluid_approx *a)
{
    return a->exact;
}

const bba_fluid_class *
bba_fluid_approx_classes(const bba_fluid_approx *a, size_t *n)
{
    *n = a->v[0].n;
    return a->v[0].c;
}

double
bba_fluid_approx_theta(const bba_fluid_approx *a)
{
    return a->theta;
}

int
bba_fluid_approx_hull(const bba_fluid_approx *a, double S, const bb_drain *pol,
                      double idle, double *lo, double *hi, char *err)
{
    *lo = *hi = idle;
    for (int i = 1; i < a->nv; i++) {
        bba_fluid_result r;
        int rc = bba_fluid_eval(a->v[i].m, S, pol, &r, err);

        if (rc != BB_OK)
            return rc;
        *lo = fmin(*lo, r.idle);
        *hi = fmax(*hi, r.idle);
    }
    return BB_OK;
}

int
bba_fluid_approx_spread(const bba_fluid_approx *a, double S, const bb_drain *pol,
                        double idle, double *ln_spread, char *err)
{
    double lo, hi;
    int rc = bba_fluid_approx_hull(a, S, pol, idle, &lo, &hi, err);

    *ln_spread = lo > 0 ? log(hi / lo) : hi > 0 ? INFINITY : 0.0;
    return rc;
}

double
bba_fluid_approx_folded(const bba_fluid_approx *a)
{
    return a->folded;
}

double
bba_fluid_approx_folded_load(const bba_fluid_approx *a)
{
    return a->folded_load;
}

int
bba_fluid_approx_trusted(const bba_fluid_approx *a)
{
    return a->exact || a->folded_load <= 0.5;
}

double
bba_fluid_approx_prefactor(const bba_fluid_approx *a)
{
    return a->exact ? 1.0 : a->rho;
}

void
bba_fluid_approx_stall0(const bba_fluid_approx *a, double *lo, double *hi)
{
    *lo = a->s0_lo;
    *hi = a->s0_hi;
}

/* The interval's factors at S (header): up = max(hi / idle, rho g), down =
 * max(idle / lo, g), g = exp(C w); +inf where a variant's idle is 0
 * and the primary's is not (down) or the reverse (up).  At S = 0, hi is
 * at least the workload's bufferless bound s0_hi g (header, Interval). */
static int
factors(const bba_fluid_approx *a, double S, const bb_drain *pol, double idle,
        double *up, double *down, char *err)
{
    double lo, hi, g = exp(BBA_FLUID_APPROX_C * fmax(a->folded, a->folded_load));
    int rc = bba_fluid_approx_hull(a, S, pol, idle, &lo, &hi, err);

    if (S == 0)
        hi = fmax(hi, fmin(1.0, a->s0_hi * g));
    *up = idle > 0 ? fmax(hi / idle, a->rho * g) : hi > 0 ? INFINITY : a->rho * g;
    *down = lo > 0 ? fmax(idle / lo, g) : idle > 0 ? INFINITY : g;
    /* at S = 0 the model's stall is at least s0_lo (header, Interval) */
    if (S == 0 && a->s0_lo > 0 && idle > 0)
        *down = fmin(*down, idle / fmin(a->s0_lo, idle));
    return rc;
}

int
bba_fluid_approx_interval(const bba_fluid_approx *a, double S, const bb_drain *pol,
                          double idle, double *lo, double *hi, char *err)
{
    double up, down;
    int rc;

    *lo = *hi = idle;
    if (a->exact)
        return BB_OK;
    if ((rc = factors(a, S, pol, idle, &up, &down, err)) != BB_OK)
        return rc;
    *lo = idle / down;
    *hi = fmin(idle * up, 1.0);
    if (isnan(*hi))   /* idle 0, up infinite: the variants' own */
        *hi = 1.0;
    return BB_OK;
}

/* The smallest size at which the primary's idle is at most x (0 when it
 * is at 0; +inf when none is; 0 when x >= 1). */
static int
size_at(const bba_fluid_approx *a, double x, const bb_drain *ps, bba_progress_fn cb,
        void *ctx, double *S, char *err)
{
    int rc;

    if (x >= 1) {
        *S = 0;
        return BB_OK;
    }
    if (!(x > 0)) {
        *S = INFINITY;
        return BB_OK;
    }
    rc = bba_fluid_size_min(a->v[0].m, x, ps, 1e-4, 0, cb, ctx, S, NULL, NULL, err);
    if (rc == BB_EINFEASIBLE) {
        *S = INFINITY;
        return BB_OK;
    }
    return rc;
}

int
bba_fluid_approx_size_interval(const bba_fluid_approx *a, double target,
                               const bb_drain *ps, double S, bba_progress_fn cb,
                               void *ctx, double *S_lo, double *S_hi, char *err)
{
    double up, down, used;
    int rc;

    *S_lo = *S_hi = S;
    if (a->exact)
        return BB_OK;
    /* the truth is below up times the primary's idle: it reaches the
     * target no later than where the primary reaches target / up; up is
     * taken again at that size (it may grow there) until it holds */
    for (int it = 0; it < 4; it++) {
        bb_drain pol = bb_drain_bytes(ps, *S_hi);
        bba_fluid_result r;

        if ((rc = bba_fluid_eval(a->v[0].m, *S_hi, &pol, &r, err)) != BB_OK
            || (rc = factors(a, *S_hi, &pol, r.idle, &up, &down, err)) != BB_OK)
            return rc;
        if (it == 0) {   /* the lower end from the factor at S */
            if ((rc = size_at(a, target * down, ps, cb, ctx, S_lo, err)) != BB_OK)
                return rc;
        } else if (up <= used * (1 + 1e-9)) {
            break;
        }
        used = up;
        if ((rc = size_at(a, target / up, ps, cb, ctx, S_hi, err)) != BB_OK)
            return rc;
        if (!isfinite(*S_hi))
            break;
    }
    if (*S_lo > S)
        *S_lo = S;
    if (*S_hi < S)
        *S_hi = S;
    return BB_OK;
}

void
bba_fluid_approx_describe(const bba_fluid_approx *a, char *buf, size_t len)
{
    const variant *v = &a->v[0];
    long folded = 0;

    if (a->exact) {
        snprintf(buf, len, "exact");
        return;
    }
    folded = a->n_sources;
    for (size_t i = 0; i < v->k; i++)
        folded -= v->c[i].count;
    snprintf(buf, len, "%zu of %zu classes exact, %ld source%s folded into %zu class%s "
             "keeping mean, variance and decay rate; %.0f%% of the burstiness", v->k,
             a->n_units, folded, folded == 1 ? "" : "s", v->g, v->g == 1 ? "" : "es",
             100 * a->folded);
}
