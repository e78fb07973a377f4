/* fluid_approx.c: the folded fluid model beyond exact reach
 * (fluid_approx.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_approx.h"

#define VARIANTS_MAX 6

enum { FOLD_ROUND = 0, FOLD_FLOOR = 1, FOLD_CEIL = 2 };

/* A distinct source with a phase, its count and its effect. */
typedef struct {
    double b, p, L;
    long N;
    double eff;
} unit;

typedef struct {
    size_t k, g;        /* exact units, folded groups */
    int kind;           /* FOLD_ROUND, FOLD_FLOOR, FOLD_CEIL */
    bba_fluid_class *c; /* the classes built */
    size_t n;
    bba_fluid *m;
} variant;

struct bba_fluid_approx {
    int exact;
    double theta;       /* theta* (NAN: none) */
    size_t n_units;     /* distinct sources with a phase */
    long n_sources;     /* their count */
    double folded;      /* share of the effect (above) in the folded units */
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

static int
has_phase(const bba_fluid_class *x)
{
    return x->count > 0 && x->p > 0.0 && x->p < 1.0 && x->rate_Bps > 0.0;
}

static int
check_class(const bba_fluid_class *x, size_t i, char *err)
{
    if (!(x->rate_Bps >= 0.0 && isfinite(x->rate_Bps)))
        return bb_seterr(err, BB_EINVAL, "class %zu: rate %g B/s is not a finite non-negative "
                         "number", i + 1, x->rate_Bps);
    if (!(x->p >= 0.0 && x->p <= 1.0))
        return bb_seterr(err, BB_EINVAL, "class %zu: p = %g is not in [0, 1]", i + 1, x->p);
    if (x->count < 0)
        return bb_seterr(err, BB_EINVAL, "class %zu: count %d is negative", i + 1, x->count);
    if (has_phase(x) && !(x->burst_s > 0.0 && isfinite(x->burst_s)))
        return bb_seterr(err, BB_EINVAL, "class %zu: burst %g s is not a finite positive "
                         "duration", i + 1, x->burst_s);
    return BB_OK;
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
        if ((rc = check_class(&c[i], i, err)) != BB_OK)
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
static void
fold(const unit *u, const size_t *idx, size_t k, double theta, int kind, bba_fluid_class *out)
{
    moments g;
    double b, p;
    long N;

    if (k == 1) {
        out->rate_Bps = u[idx[0]].b;
        out->p = u[idx[0]].p;
        out->burst_s = u[idx[0]].L;
        out->count = (int)u[idx[0]].N;
        return;
    }
    group_moments(u, idx, k, theta, &g);
    N = group_count(&g, kind);
    /* mean and variance with N sources: b (1 - p) = V / M, b p = M / N */
    b = g.V / g.M + g.M / N;
    p = g.M / N / b;
    /* the group's Lambda must lie strictly between N theta p b and
     * N theta b (it does when b reaches the peak); else keep the peak */
    if (!(p > 0 && p < 1) || (!isnan(theta) && !(g.lam < N * theta * b * (1 - 1e-9)))) {
        b = g.peak / N;
        p = g.M / g.peak;
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
          int kind, size_t *first, size_t *idx)
{
    double P = 1.0;
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
        if (m == 1) {
            P *= u[idx[0]].N + 1.0;
            continue;
        }
        group_moments(u, idx, m, NAN, &gm);
        P *= group_count(&gm, kind) + 1.0;
    }
    return P;
}

static void
variant_free(variant *v)
{
    free(v->c);
    bba_fluid_free(v->m);
    memset(v, 0, sizeof *v);
}

/* Build the variant (k, g, kind) of units u (sorted by effect), with the
 * pass-through classes. */
static int
variant_new(const unit *u, size_t nu, size_t k, size_t g, int kind, double theta,
            const bba_fluid_class *pass, size_t npass, const bba_fluid_opts *o, variant *v,
            char *err)
{
    const unit **order = malloc((nu + 1) * sizeof *order);
    size_t *first = malloc((g + 2) * sizeof *first), *idx = malloc((nu + 1) * sizeof *idx);
    int rc = BB_OK;

    memset(v, 0, sizeof *v);
    v->c = malloc((k + g + npass + 1) * sizeof *v->c);
    if (order == NULL || first == NULL || idx == NULL || v->c == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu sources", nu);
        goto out;
    }
    v->k = k;
    v->g = g;
    v->kind = kind;
    for (size_t i = k; i < nu; i++)
        order[i - k] = &u[i];
    qsort(order, nu - k, sizeof *order, by_rate);
    partition(u, nu, k, g, order, kind, first, idx);
    for (size_t i = 0; i < k; i++) {
        idx[0] = i;
        fold(u, idx, 1, theta, kind, &v->c[v->n++]);
    }
    for (size_t j = 0; j < g; j++) {
        size_t m = 0;

        for (size_t i = first[j]; i < first[j + 1]; i++)
            idx[m++] = (size_t)(order[i] - u);
        if (m > 0)
            fold(u, idx, m, theta, kind, &v->c[v->n++]);
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

/* The number of groups g of the partitions with k exact units within
 * budget (the largest g before the first that exceeds it; (size_t)-1
 * when g = 1 does).  P is checked with the rounded-up counts, the larger. */
static size_t
groups_for(const unit *u, size_t nu, size_t k, long budget, const unit **order, size_t *first,
           size_t *idx)
{
    size_t best = (size_t)-1;

    for (size_t i = k; i < nu; i++)
        order[i - k] = &u[i];
    qsort(order, nu - k, sizeof *order, by_rate);
    for (size_t g = 1; g <= nu - k; g++) {
        if (partition(u, nu, k, g, order, FOLD_CEIL, first, idx) > budget)
            break;
        best = g;
    }
    return best;
}

/* The partition within budget with the most classes (k + g), then the
 * most exact units; gk[k] receives groups_for for every k.  0 when none
 * fits. */
static int
choose(const unit *u, size_t nu, long budget, const unit **order, size_t *first, size_t *idx,
       size_t *gk, size_t *kbest, size_t *gbest)
{
    size_t score = 0;
    int any = 0;

    for (size_t k = 0; k < nu; k++) {
        gk[k] = groups_for(u, nu, k, budget, order, first, idx);
        if (gk[k] != (size_t)-1 && (!any || k + gk[k] >= score)) {
            any = 1;
            score = k + gk[k];
            *kbest = k;
            *gbest = gk[k];
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
add_variant(bba_fluid_approx *a, const unit *u, size_t nu, size_t k, size_t g, int kind,
            const bba_fluid_class *pass, size_t npass, const bba_fluid_opts *o, char *err)
{
    variant *v = &a->v[a->nv];
    int rc = variant_new(u, nu, k, g, kind, a->theta, pass, npass, o, v, err);

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

int
bba_fluid_approx_new(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                     long budget, bba_fluid_approx **out, char *err)
{
    bba_fluid_approx *a;
    bba_fluid_class *pass = NULL;
    unit *u = NULL;
    const unit **order = NULL;
    size_t *first = NULL, *idx = NULL, nu = 0, npass = 0, kbest = 0, gbest = 0, *gk = NULL;
    double P = 1.0;
    int rc = BB_OK;

    *out = NULL;
    if (budget < 4)
        return bb_seterr(err, BB_EINVAL, "phase budget %ld is below 4", budget);
    for (size_t i = 0; i < n; i++)
        if ((rc = check_class(&c[i], i, err)) != BB_OK)
            return rc;
    a = calloc(1, sizeof *a);
    u = malloc((n + 1) * sizeof *u);
    pass = malloc((n + 1) * sizeof *pass);
    order = malloc((n + 1) * sizeof *order);
    first = malloc((n + 2) * sizeof *first);
    gk = malloc((n + 1) * sizeof *gk);
    idx = malloc((n + 1) * sizeof *idx);
    if (a == NULL || u == NULL || pass == NULL || order == NULL || first == NULL
        || gk == NULL || idx == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu classes", n);
        goto out;
    }
    a->theta = NAN;
    /* distinct sources with a phase; the others pass through */
    for (size_t i = 0; i < n; i++) {
        size_t j;

        if (!has_phase(&c[i])) {
            pass[npass++] = c[i];
            continue;
        }
        for (j = 0; j < nu; j++)
            if (u[j].b == c[i].rate_Bps && u[j].p == c[i].p && u[j].L == c[i].burst_s)
                break;
        if (j == nu) {
            u[nu].b = c[i].rate_Bps;
            u[nu].p = c[i].p;
            u[nu].L = c[i].burst_s;
            u[nu].N = 0;
            nu++;
        }
        u[j].N += c[i].count;
        a->n_sources += c[i].count;
    }
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
    for (size_t j = 0; j < nu; j++)
        u[j].eff = isnan(a->theta)
                       ? avar(u[j].b, u[j].p, u[j].L) * u[j].N
                       : u[j].N * (bba_fluid_lambda(u[j].b, u[j].p, u[j].L, a->theta)
                                   - a->theta * u[j].p * u[j].b);
    qsort(u, nu, sizeof *u, by_eff);
    if (!choose(u, nu, budget, order, first, idx, gk, &kbest, &gbest)) {
        rc = bb_seterr(err, BB_ETOOBIG, "%ld sources with a phase do not fit in %ld "
                       "phases even folded into one class", a->n_sources, budget);
        goto out;
    }
    {
        double all = 0, f = 0;

        for (size_t j = 0; j < nu; j++) {
            all += u[j].eff;
            f += j >= kbest ? u[j].eff : 0;
        }
        a->folded = all > 0 ? f / all : 0;
    }
    for (int kind = FOLD_ROUND; kind <= FOLD_CEIL && rc == BB_OK; kind++)
        rc = add_variant(a, u, nu, kbest, gbest, kind, pass, npass, o, err);
    /* one more exact unit, one fewer */
    if (rc == BB_OK && kbest + 1 < nu && gk[kbest + 1] != (size_t)-1)
        rc = add_variant(a, u, nu, kbest + 1, gk[kbest + 1], FOLD_ROUND, pass, npass, o, err);
    if (rc == BB_OK && kbest > 0 && gk[kbest - 1] != (size_t)-1)
        rc = add_variant(a, u, nu, kbest - 1, gk[kbest - 1], FOLD_ROUND, pass, npass, o, err);
    /* a coarser folding: the same rule within a quarter of the budget */
    if (rc == BB_OK) {
        size_t kc, gc;

        if (budget / 4 >= 2 && choose(u, nu, budget / 4, order, first, idx, gk, &kc, &gc))
            rc = add_variant(a, u, nu, kc, gc, FOLD_ROUND, pass, npass, o, err);
    }
out:
    free(u);
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
bba_fluid_approx_spread(const bba_fluid_approx *a, double S, const bba_fluid_policy *pol,
                        double idle, double *ln_spread, char *err)
{
    double lo = idle, hi = idle;

    *ln_spread = 0;
    for (int i = 1; i < a->nv; i++) {
        bba_fluid_result r;
        int rc = bba_fluid_eval(a->v[i].m, S, pol, &r, err);

        if (rc != BB_OK)
            return rc;
        lo = fmin(lo, r.idle);
        hi = fmax(hi, r.idle);
    }
    *ln_spread = lo > 0 ? log(hi / lo) : hi > 0 ? INFINITY : 0.0;
    return BB_OK;
}

double
bba_fluid_approx_folded(const bba_fluid_approx *a)
{
    return a->folded;
}

/* The interval's factor at S: exp(max(ln spread, C folded)) (header). */
static int
factor(const bba_fluid_approx *a, double S, const bba_fluid_policy *pol, double idle, double *f,
       char *err)
{
    double ls;
    int rc = bba_fluid_approx_spread(a, S, pol, idle, &ls, err);

    *f = exp(fmax(ls, BBA_FLUID_APPROX_C * a->folded));
    return rc;
}

int
bba_fluid_approx_interval(const bba_fluid_approx *a, double S, const bba_fluid_policy *pol,
                          double idle, double *lo, double *hi, char *err)
{
    double f;
    int rc;

    *lo = *hi = idle;
    if (a->exact)
        return BB_OK;
    if ((rc = factor(a, S, pol, idle, &f, err)) != BB_OK)
        return rc;
    *lo = idle / f;
    *hi = fmin(idle * f, 1.0);
    return BB_OK;
}

int
bba_fluid_approx_size_interval(const bba_fluid_approx *a, double target,
                               const bba_policy_spec *ps, double S, bba_progress_fn cb,
                               void *ctx, double *S_lo, double *S_hi, char *err)
{
    bba_fluid_policy pol = { ps->lazy, ps->lazy ? ps->threshold_frac * S : 0,
                             ps->lazy ? ps->eps : 1.0 };
    bba_fluid_result r;
    double f;
    int rc;

    *S_lo = *S_hi = S;
    if (a->exact)
        return BB_OK;
    if ((rc = bba_fluid_eval(a->v[0].m, S, &pol, &r, err)) != BB_OK
        || (rc = factor(a, S, &pol, r.idle, &f, err)) != BB_OK)
        return rc;
    /* the truth is below f times the primary's idle: it reaches the
     * target no later than where the primary reaches target / f */
    if (isinf(f)) {
        *S_lo = 0;
        *S_hi = INFINITY;
        return BB_OK;
    }
    rc = bba_fluid_size_min(a->v[0].m, target / f, ps, 1e-4, 0, cb, ctx, S_hi, NULL, NULL,
                            err);
    if (rc == BB_EINFEASIBLE)
        *S_hi = INFINITY;
    else if (rc != BB_OK)
        return rc;
    if (target * f < 1)
        rc = bba_fluid_size_min(a->v[0].m, target * f, ps, 1e-4, 0, cb, ctx, S_lo, NULL,
                                NULL, err);
    else
        *S_lo = 0;
    return rc == BB_EINFEASIBLE ? BB_OK : rc;
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
