/* stats.c: Welford accumulators, time averages, histograms and Student-t
 * intervals (stats.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "bb_error.h"
#include "stats.h"

void
bbs_welford_init(bbs_welford *w)
{
    w->n = 0;
    w->mean = 0.0;
    w->m2 = 0.0;
    w->min = INFINITY;
    w->max = -INFINITY;
}

void
bbs_welford_add(bbs_welford *w, double x)
{
    double d = x - w->mean;

    w->n++;
    w->mean += d / (double)w->n;
    w->m2 += d * (x - w->mean);
    if (x < w->min)
        w->min = x;
    if (x > w->max)
        w->max = x;
}

void
bbs_welford_merge(bbs_welford *w, const bbs_welford *o)
{
    double n, d;

    if (o->n == 0)
        return;
    if (w->n == 0) {
        *w = *o;
        return;
    }
    n = (double)(w->n + o->n);
    d = o->mean - w->mean;
    w->mean += d * (double)o->n / n;
    w->m2 += o->m2 + d * d * (double)w->n * (double)o->n / n;
    w->n += o->n;
    if (o->min < w->min)
        w->min = o->min;
    if (o->max > w->max)
        w->max = o->max;
}

double
bbs_welford_var(const bbs_welford *w)
{
    return w->n < 2 ? 0.0 : w->m2 / (double)(w->n - 1);
}

double
bbs_welford_sd(const bbs_welford *w)
{
    return sqrt(bbs_welford_var(w));
}

void
bbs_timeavg_init(bbs_timeavg *a, double t0_s, double v0)
{
    a->t0 = t0_s;
    a->t_last = t0_s;
    a->v_last = v0;
    a->area = 0.0;
}

void
bbs_timeavg_set(bbs_timeavg *a, double t_s, double v)
{
    if (t_s > a->t_last) {
        a->area += a->v_last * (t_s - a->t_last);
        a->t_last = t_s;
    }
    a->v_last = v;
}

double
bbs_timeavg_mean(const bbs_timeavg *a, double t_end_s)
{
    double span = t_end_s - a->t0;
    double area = a->area;

    if (t_end_s > a->t_last)
        area += a->v_last * (t_end_s - a->t_last);
    return span > 0 ? area / span : 0.0;
}

int
bbs_hist_init(bbs_hist *h, size_t nbins, double lo, double hi, char *err)
{
    h->w = NULL;
    if (nbins < 1 || !(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return bb_seterr(err, BB_EINVAL, "histogram needs >= 1 bin over [lo, hi) with lo < hi "
                         "(got %zu bins over [%g, %g))", nbins, lo, hi);
    h->w = calloc(nbins, sizeof *h->w);
    if (h->w == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for a histogram of %zu bins", nbins);
    h->nbins = nbins;
    h->lo = lo;
    h->hi = hi;
    h->width = (hi - lo) / (double)nbins;
    h->under = h->over = h->total = 0.0;
    return BB_OK;
}

void
bbs_hist_free(bbs_hist *h)
{
    free(h->w);
    h->w = NULL;
    h->nbins = 0;
}

void
bbs_hist_add(bbs_hist *h, double x, double weight)
{
    h->total += weight;
    if (x < h->lo) {
        h->under += weight;
    } else if (x >= h->hi) {
        h->over += weight;
    } else {
        size_t b = (size_t)((x - h->lo) / h->width);

        if (b >= h->nbins)   /* rounding at the top edge */
            b = h->nbins - 1;
        h->w[b] += weight;
    }
}

int
bbs_hist_merge(bbs_hist *h, const bbs_hist *o, char *err)
{
    if (h->nbins != o->nbins || h->lo != o->lo || h->hi != o->hi)
        return bb_seterr(err, BB_EINVAL, "histograms with different bins cannot be merged");
    for (size_t b = 0; b < h->nbins; b++)
        h->w[b] += o->w[b];
    h->under += o->under;
    h->over += o->over;
    h->total += o->total;
    return BB_OK;
}

double
bbs_hist_quantile(const bbs_hist *h, double q)
{
    double target, acc;

    if (h->total <= 0)
        return NAN;
    target = q * h->total;
    acc = h->under;
    if (acc >= target && acc > 0)
        return h->lo;
    for (size_t b = 0; b < h->nbins; b++) {
        acc += h->w[b];
        if (acc >= target)
            return h->lo + (double)(b + 1) * h->width;
    }
    return h->hi;
}

/* The start every interval shares: checks level; records the mean, level
 * and n; with fewer than two replications the interval is [lo, hi] with an
 * infinite half width, and *done = 1. */
static int
ci_start(const bbs_welford *w, double level, double lo, double hi, bbs_ci *out, int *done,
         char *err)
{
    *done = 0;
    if (!(level > 0.0 && level < 1.0))
        return bb_seterr(err, BB_EINVAL, "confidence level %g is outside (0, 1)", level);
    out->mean = w->mean;
    out->level = level;
    out->n = w->n;
    if (w->n < 2) {
        out->lo = lo;
        out->hi = hi;
        out->half = INFINITY;
        *done = 1;
    }
    return BB_OK;
}

/* Student's t quantile of the two-sided level, n - 1 degrees of freedom
 * (n >= 2). */
static double
t_quantile(const bbs_welford *w, double level)
{
    return gsl_cdf_tdist_Pinv(0.5 + 0.5 * level, (double)(w->n - 1));
}

int
bbs_ci_t(const bbs_welford *w, double level, bbs_ci *out, char *err)
{
    int done, rc = ci_start(w, level, -INFINITY, INFINITY, out, &done, err);

    if (rc != BB_OK || done)
        return rc;
    out->half = t_quantile(w, level) * bbs_welford_sd(w) / sqrt((double)w->n);
    out->lo = w->mean - out->half;
    out->hi = w->mean + out->half;
    return BB_OK;
}

int
bbs_ci_fraction(const bbs_welford *w, double units_per_rep, double level, bbs_ci *out,
                char *err)
{
    double m = w->mean, sd, h, c;
    int done, rc = ci_start(w, level, 0, 1, out, &done, err);

    if (rc != BB_OK || done)
        return rc;
    sd = bbs_welford_sd(w);
    if (m <= 0 || m >= 1) {
        /* Clopper-Pearson for 0 events in N units: (1 - hi)^N = (1 - level) / 2. */
        double N = (double)w->n * (units_per_rep > 1 ? units_per_rep : 1);
        double u = -expm1(log(0.5 * (1.0 - level)) / N);

        out->lo = m <= 0 ? 0 : 1 - u;
        out->hi = m <= 0 ? u : 1;
        out->mean = m <= 0 ? 0 : 1;
        out->half = u;
        return BB_OK;
    }
    h = t_quantile(w, level) * sd / (sqrt((double)w->n) * m * (1.0 - m));
    c = log(m / (1.0 - m));
    /* the round trip through the logit may move m by an ulp: keep
     * lo <= m <= hi exact (replications all equal give [m, m]) */
    out->lo = fmin(m, 1.0 / (1.0 + exp(-(c - h))));
    out->hi = fmax(m, 1.0 / (1.0 + exp(-(c + h))));
    out->half = 0.5 * (out->hi - out->lo);
    return BB_OK;
}

int
bbs_ci_positive(const bbs_welford *w, double level, bbs_ci *out, char *err)
{
    double m = w->mean, h;
    int done, rc = ci_start(w, level, 0, INFINITY, out, &done, err);

    if (rc != BB_OK || done)
        return rc;
    if (!(m > 0)) {
        out->lo = out->hi = out->half = 0;
        out->mean = 0;
        return BB_OK;
    }
    h = t_quantile(w, level) * bbs_welford_sd(w) / (sqrt((double)w->n) * m);
    out->lo = fmin(m, m * exp(-h));
    out->hi = fmax(m, m * exp(h));
    out->half = 0.5 * (out->hi - out->lo);
    return BB_OK;
}

void
bbs_verdict_fraction(double x, const bbs_ci *ci, double n, double units_per_rep, double tol,
                     bbs_verdict *v)
{
    double rel, f;

    v->kind = BBS_DISAGREES;
    v->below_resolution = ci->mean == 0 && ci->lo == 0 && x > 0;
    v->more_replications = v->more_units = 0;
    if (x == 0) {
        /* an exact 0 agrees only with a simulation that saw nothing */
        v->rel_halfwidth = INFINITY;
        v->kind = ci->mean == 0 ? BBS_AGREES : BBS_DISAGREES;
        v->below_resolution = 0;
        return;
    }
    rel = fmax(ci->hi - x, x - ci->lo) / x;
    v->rel_halfwidth = rel;
    if (!(x >= ci->lo && x <= ci->hi))
        return;
    if (rel <= tol && !v->below_resolution) {
        v->kind = BBS_AGREES;
        return;
    }
    v->kind = BBS_INCONCLUSIVE;
    if (v->below_resolution) {
        /* about (z / tol)^2 events are needed to see x to within tol */
        double z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * ci->level);
        double units = z * z / (tol * tol) / x;

        f = units / (n * units_per_rep);
    } else {
        f = (rel / tol) * (rel / tol);
    }
    if (f < 1)
        f = 1;
    v->more_replications = ceil(n * (f - 1));
    v->more_units = ceil(units_per_rep * (f - 1));
}

int
bbs_ci_contains(const bbs_ci *c, double x)
{
    return c->lo <= x && x <= c->hi;
}
