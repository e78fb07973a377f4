/* fluid_size.c: the questions asked of the fluid model (fluid.h): the
 * smallest buffer for a target idle fraction, the best lazy threshold.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The size search works on f(S) = ln idle(S) - ln target, which the
 * slowest mode makes nearly linear in S (idle ~ c e^{-|z| S}): it starts
 * one decay length 1/|z| in, steps along that slope until the root is
 * bracketed, then closes the bracket by Illinois steps (regula falsi that
 * halves a stale end's value), each kept a quarter tolerance inside the
 * bracket so that both ends converge.  Illinois usually closes a bracket
 * in a few steps but has no bound of its own; after as many steps as a
 * bisection of the bracket would take, the search bisects, so that the
 * solves it can still take follow from its state (bba_progress): the
 * steps up to s_max while it steps up, the Illinois steps left and the
 * bisection of the bracket once it has one; the evaluation cap only
 * while it steps down or has no s_max. */
#include "config.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_int.h"

#define SEARCH_EVALS_MAX 200
/* the most solves a search can take: the cap is checked before each */
#define SEARCH_SOLVES_MAX (SEARCH_EVALS_MAX + 1)
/* idle is computed to about 1e-12 relative (its residual bound) */
#define LIMIT_REL 1e-12

typedef struct {
    const bba_fluid *m;
    const bb_drain *ps;
    double target;
    int evals;
} sz_ctx;

/* The most halvings that bring a width w to t or below (one more for
 * rounding); 0 when it is there, the cap when it cannot be counted. */
static int
halvings_max(double w, double t)
{
    double x = w / t;

    if (!(w > t))
        return 0;
    if (!(t > 0) || !(x < 1e300))
        return SEARCH_SOLVES_MAX;
    return (int)ceil(log2(x)) + 1;
}

/* The most solves left to close a bracket [lo, hi] (lo > 0) to rel_tol
 * with `illinois` Illinois steps left: each ends with hi > lo, so the
 * width rel_tol lo ends it. */
static int
closing_max(double lo, double hi, double rel_tol, int illinois)
{
    return lo > 0 ? illinois + halvings_max(hi - lo, rel_tol * lo) : SEARCH_SOLVES_MAX;
}

static int
sz_eval(sz_ctx *c, double S, bba_fluid_result *r, double *f, char *err)
{
    bb_drain pol = bb_drain_greedy(1.0);
    int rc;

    if (c->ps != NULL && c->ps->kind == BB_DRAIN_LAZY)
        pol = bb_drain_lazy(BB_DRAIN_BYTES, fmin(fmax(c->ps->threshold, 0.0), 1.0) * S,
                            c->ps->eps);
    rc = bba_fluid_eval(c->m, S, &pol, r, err);
    c->evals++;
    if (rc == BB_OK)
        *f = r->log10_idle * M_LN10 - log(c->target);
    return rc;
}

int
bba_fluid_size_min(const bba_fluid *m, double target, const bb_drain *ps,
                   double rel_tol, double s_max, bba_progress_fn cb, void *ctx,
                   double *S_out, bba_fluid_result *at, int *evaluations, char *err)
{
    sz_ctx c = { m, ps, target, 0 };
    bba_fluid_result r, rhi;
    bba_search sm;
    double f, lo = 0.0, hi = -1.0, flo, fhi = 0.0, S, slope;
    /* a step up or down brackets the target within a width of 9 lo; the
     * Illinois steps before bisection */
    int closing = 2 * halvings_max(9 * (1 + 1e-9), rel_tol), illinois = 0;
    int rc, side = 0;

    assert(ps == NULL || BB_DRAIN_IN(ps, BB_DRAIN_FRACTION));
    *S_out = NAN;
    if (evaluations)
        *evaluations = 0;
    if (!(target > 0.0 && target < 1.0))
        return bb_seterr(err, BB_EINVAL, "target idle fraction %g is not in (0, 1)", target);
    if (!(rel_tol > 0.0 && rel_tol < 1.0))
        return bb_seterr(err, BB_EINVAL, "relative tolerance %g is not in (0, 1)", rel_tol);
    if (!(s_max >= 0.0))
        return bb_seterr(err, BB_EINVAL, "size bound %g B is negative", s_max);
    if (ps != NULL && ps->kind == BB_DRAIN_LAZY && !(ps->eps > 0.0 && ps->eps <= 1.0))
        return bb_seterr(err, BB_EINVAL, "lazy EPS %g is not in (0, 1]", ps->eps);
    bba_search_start(&sm, cb, ctx, SEARCH_SOLVES_MAX);
    rc = sz_eval(&c, 0.0, &r, &flo, err);
    if (rc != BB_OK)
        goto out;
    bba_search_tell(&sm, c.evals, SEARCH_SOLVES_MAX, 0);
    if (flo <= 0.0) {
        *S_out = 0.0;
        if (at)
            *at = r;
        goto out;
    }
    /* a limit within the evaluations' rounding of the target would need an
     * unbounded buffer */
    if (m->idle_limit >= target * (1.0 - LIMIT_REL)) {
        double bw;
        char e2[BB_ERRLEN];

        if (m->E >= m->B && m->Bbb == INFINITY) {
            rc = bb_seterr(err, BB_EINFEASIBLE, "E = %.6g B/s >= B = %.6g B/s: the idle "
                           "fraction tends to %.6g as the buffer grows", m->E, m->B,
                           m->idle_limit);
        } else if (bba_fluid_bbbw_min(m, target, &bw, e2) == BB_OK) {
            rc = bb_seterr(err, BB_EINFEASIBLE, "the burst-buffer bandwidth %.6g B/s "
                           "binds: the idle fraction tends to %.6g as the buffer grows; "
                           "a bandwidth of %.6g B/s would reach %g", m->Bbb,
                           m->idle_limit, bw, target);
        } else {
            rc = bb_seterr(err, BB_EINFEASIBLE, "the idle fraction tends to %.6g as the "
                           "buffer grows, above %g: %s", m->idle_limit, target, e2);
        }
        goto out;
    }
    /* the slowest decay of the greedy spectrum sets the scale */
    {
        const fl_spec *sp = m->greedy;

        slope = 0.0;
        if (sp != NULL) {
            if (sp->drift <= 0.0 && sp->mneg > 0)
                slope = fabs(sp->z[sp->mneg - 1]);
            else if (sp->mneg < sp->m)
                slope = fabs(sp->z[sp->mneg]);
        }
        if (!(slope > 0.0))
            slope = 1.0 / (m->B * 1.0);
    }
    S = 1.0 / slope;
    for (;;) {
        if (c.evals > SEARCH_EVALS_MAX) {
            rc = bb_seterr(err, BB_ENOCONV, "the fluid size search did not bracket the "
                           "target in %d evaluations", SEARCH_EVALS_MAX);
            goto out;
        }
        if (s_max > 0.0 && S > s_max)
            S = s_max;
        rc = sz_eval(&c, S, &r, &f, err);
        if (rc != BB_OK)
            goto out;
        if (f > 0.0) {
            lo = S;
            flo = f;
            if (hi > 0.0)
                break;
            if (s_max > 0.0 && S >= s_max) {
                bba_search_tell(&sm, c.evals, 0, 1);
                rc = bb_seterr(err, BB_ETOOBIG, "the idle fraction at the size bound "
                               "%.6g B is %.6g, above the target %g", s_max, r.idle, target);
                goto out;
            }
            /* along the slope, at least a tenth further, at most ten times */
            S = fmin(fmax(S + 1.5 * f / slope, 1.1 * S), 10.0 * S);
            /* up to s_max (or the divergence below) by tenths at least,
             * then close: a larger size costs no more (fluid.h) */
            bba_search_tell(&sm, c.evals,
                            (int)fmin(fmax(ceil(log(fmin(s_max > 0.0 ? s_max : INFINITY, 1e301) / S)
                                                / log(1.1)), 0) + 1 + closing,
                                      SEARCH_SOLVES_MAX), 1);
        } else {
            hi = S;
            fhi = f;
            rhi = r;
            if (lo > 0.0 || S * rel_tol < DBL_MIN)
                break;
            S = fmax(S + 1.5 * f / slope, 0.1 * S);
            /* down by no known factor: the cap */
            bba_search_tell(&sm, c.evals, SEARCH_SOLVES_MAX, 0);
        }
        if (!isfinite(S) || S > 1e300) {
            rc = bb_seterr(err, BB_ENOCONV, "the fluid size search diverged");
            goto out;
        }
    }
    /* Illinois between lo (idle above target; possibly 0) and hi, as many
     * steps as a bisection would take, then bisection; every size left is
     * inside a bracket of sizes solved, and costs no more than its lower
     * end did (fluid.h) */
    illinois = lo > 0.0 ? halvings_max(hi - lo, rel_tol * lo) : SEARCH_SOLVES_MAX;
    bba_search_tell(&sm, c.evals, closing_max(lo, hi, rel_tol, illinois), 1);
    while (hi - lo > rel_tol * hi) {
        double q = 0.25 * rel_tol * hi, x;

        if (c.evals > SEARCH_EVALS_MAX) {
            rc = bb_seterr(err, BB_ENOCONV, "the fluid size search did not close to %g "
                           "in %d evaluations", rel_tol, SEARCH_EVALS_MAX);
            goto out;
        }
        if (illinois > 0) {
            illinois--;
            x = hi - fhi * (hi - lo) / (fhi - flo);
            if (!(x > lo + q))
                x = lo + q;
            if (!(x < hi - q))
                x = hi - q;
        } else {
            x = 0.5 * (lo + hi);
        }
        rc = sz_eval(&c, x, &r, &f, err);
        if (rc != BB_OK)
            goto out;
        if (f > 0.0) {
            lo = x;
            flo = f;
            if (side == -1)
                fhi *= 0.5;
            side = -1;
        } else {
            hi = x;
            fhi = f;
            rhi = r;
            if (side == 1)
                flo *= 0.5;
            side = 1;
        }
        bba_search_tell(&sm, c.evals, closing_max(lo, hi, rel_tol, illinois), 1);
    }
    *S_out = hi;
    if (at)
        *at = rhi;
out:
    if (evaluations)
        *evaluations = c.evals;
    return rc;
}

static void
consider(bba_fluid_threshold_result *out, double T, const bba_fluid_result *r, double target)
{
    if (r->idle > target)
        return;
    if (!out->feasible || r->quiet > out->best.quiet) {
        out->feasible = 1;
        out->best = *r;
        out->threshold_bytes = T;
    }
}

int
bba_fluid_threshold_best(const bba_fluid *m, double S, double target, double eps, int grid,
                         double rel_tol, bba_progress_fn cb, void *ctx,
                         bba_fluid_threshold_result *out, char *err)
{
    bb_drain pol = bb_drain_lazy(BB_DRAIN_BYTES, 0.0, eps);
    bba_fluid_result r, prev;
    bba_search sm;
    double last_ok = -1.0, after = -1.0;
    int rc, edge;

    memset(out, 0, sizeof *out);
    if (!(target > 0.0 && target < 1.0))
        return bb_seterr(err, BB_EINVAL, "target idle fraction %g is not in (0, 1)", target);
    if (grid < 1)
        return bb_seterr(err, BB_EINVAL, "threshold grid %d is not positive", grid);
    if (!(rel_tol > 0.0 && rel_tol < 1.0))
        return bb_seterr(err, BB_EINVAL, "relative tolerance %g is not in (0, 1)", rel_tol);
    if (!(eps > 0.0 && eps <= 1.0))
        return bb_seterr(err, BB_EINVAL, "lazy EPS %g is not in (0, 1]", eps);
    if (!(S >= 0.0 && isfinite(S)))
        return bb_seterr(err, BB_EINVAL, "buffer size %g B is not a finite non-negative "
                         "number", S);
    out->monotone_idle = 1;
    /* the grid, then the bisection of one grid step (rounded up); every
     * threshold after the first (0: no lazy region) costs what the
     * second did at most: one size, one lazy system (fluid.h) */
    edge = halvings_max(S / grid * (1 + 1e-9), rel_tol * S);
    bba_search_start(&sm, cb, ctx, grid + 1 + edge);
    for (int g = 0; g <= grid; g++) {
        pol.threshold = g == grid ? S : S * g / grid;
        rc = bba_fluid_eval(m, S, &pol, &r, err);
        if (rc != BB_OK)
            return rc;
        out->evaluations++;
        bba_search_tell(&sm, out->evaluations, grid - g + edge, g > 0);
        if (g == 0)
            out->greedy = r;
        else if (r.idle < prev.idle)
            out->monotone_idle = 0;
        consider(out, pol.threshold, &r, target);
        if (r.idle <= target)
            last_ok = pol.threshold;
        else if (last_ok >= 0.0 && after < 0.0)
            after = pol.threshold;
        prev = r;
    }
    /* the feasibility edge after the last feasible grid point */
    if (last_ok >= 0.0 && after > last_ok) {
        double lo = last_ok, hi = after;

        while (hi - lo > rel_tol * S) {
            pol.threshold = 0.5 * (lo + hi);
            rc = bba_fluid_eval(m, S, &pol, &r, err);
            if (rc != BB_OK)
                return rc;
            out->evaluations++;
            consider(out, pol.threshold, &r, target);
            if (r.idle <= target)
                lo = pol.threshold;
            else
                hi = pol.threshold;
            bba_search_tell(&sm, out->evaluations, halvings_max(hi - lo, rel_tol * S), 1);
        }
    }
    return BB_OK;
}
