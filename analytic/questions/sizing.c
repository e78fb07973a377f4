/* sizing.c: evaluation, size search and threshold search (sizing.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bbbw.h"
#include "quanta.h"
#include "effbw.h"
#include "endurance.h"
#include "fftwh.h"
#include "cost.h"
#include "onoff.h"
#include "sizing.h"

int
bba_model_init(bba_model *m, size_t n, const long *b, const double *p, long B,
               double mem_limit_bytes, char *err)
{
    int rc;

    memset(m, 0, sizeof *m);
    if (B <= 0)
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %ld quanta is not positive", B);
    rc = bba_dist_support(n, b, &m->M, err);
    if (rc != BB_OK)
        return rc;
    if (mem_limit_bytes > 0 && ((double)m->M + 1.0) * sizeof(double) > mem_limit_bytes)
        return bb_seterr(err, BB_ETOOBIG, "the load distribution has %ld entries "
                         "(%.3g GB), over the memory limit", m->M + 1,
                         ((double)m->M + 1.0) * sizeof(double) / 1e9);
    m->dist = malloc(((size_t)m->M + 1) * sizeof *m->dist);
    if (m->dist == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for a distribution of %ld loads", m->M + 1);
    m->n = n;
    m->b = b;
    m->p = p;
    m->B = B;
    bba_dist_compute(n, b, p, m->M, m->dist);
    bba_dist_moments(n, b, p, &m->mom);
    m->mean_eff = m->mom.mean;
    m->fft_cache = bba_fftwh_cache_new(); /* NULL: solves without reuse */
    return BB_OK;
}

void
bba_model_free(bba_model *m)
{
    if (m == NULL)
        return;
    free(m->dist);
    m->dist = NULL;
    free(m->dist0);
    m->dist0 = NULL;
    bba_fftwh_cache_free(m->fft_cache);
    m->fft_cache = NULL;
}

double
bba_model_load_ratio(const bba_model *m)
{
    return m->mom.mean / (double)m->B;
}

int
bba_model_set_bbbw(bba_model *m, long bb_bw, char *err)
{
    double *d, mean = 0;

    if (m->onoff)
        return bb_seterr(err, BB_EINVAL, "the ON/OFF chain does not model the burst "
                         "buffer's bandwidth");
    if (bb_bw <= 0 || m->dist0 != NULL || m->M <= m->B + bb_bw)
        return BB_OK;   /* nothing binds (or already set) */
    d = malloc(((size_t)m->M + 1) * sizeof *d);
    if (d == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for a distribution of %ld loads",
                         m->M + 1);
    m->throttle = bba_bbbw_throttle(m->dist, m->M, m->B, bb_bw, d);
    m->dist0 = m->dist;
    m->dist = d;
    m->bb_bw = bb_bw;
    for (long k = 0; k <= m->M; k++)
        mean += (double)k * d[k];
    m->mean_eff = mean;
    /* a new law: the FFT solver's cache belongs to the old one */
    bba_fftwh_cache_free(m->fft_cache);
    m->fft_cache = bba_fftwh_cache_new();
    return BB_OK;
}

double
bba_model_idle_limit(const bba_model *m, int *bandwidth_bound)
{
    int bw = 0;
    double lim;

    if (m->mean_eff >= (double)m->B)
        lim = 1.0 - (double)m->B / m->mom.mean;
    else {
        lim = m->throttle / (1.0 + m->throttle);
        bw = m->throttle > 0;
    }
    if (bandwidth_bound)
        *bandwidth_bound = bw;
    return lim;
}

/* Whether the FFT solver's preconditions hold without building the chain:
 * some load below B (so every state can drain; otherwise the chain path
 * names the state that cannot) and, lazy, EPS > 0 or THRESHOLD 0. */
static int
fft_applies(const bba_model *m, long S, const bb_drain *pol)
{
    int drains = 0;

    for (long k = 0; k < m->B && k <= m->M; k++)
        if (m->dist[k] > 0)
            drains = 1;
    if (!drains && S > 0)
        return 0;
    if (pol->kind == BB_DRAIN_LAZY && pol->threshold > 0 && !(pol->eps > 0))
        return 0;
    return 1;
}

static int
eval_fft(const bba_model *m, long S, const bb_drain *pol,
         const bba_solver_opts *so, bba_eval_result *out, double **pi_out, char *err)
{
    long U = m->M > m->B ? m->M - m->B : 0;
    double *pi = NULL;
    int rc;

    /* always: the volume into the buffer comes from it (endurance.h);
     * unless the solve itself will not fit, which bba_fftwh_eval refuses
     * with the sizes (BB_ETOOBIG) */
    if (so->mem_limit_bytes <= 0
        || bba_fftwh_bytes(m->M, m->B, S, so) + ((double)S + (double)U + 1) * sizeof *pi
               <= so->mem_limit_bytes) {
        pi = malloc(((size_t)S + (size_t)U + 1) * sizeof *pi);
        if (pi == NULL)
            return bb_seterr(err, BB_ENOMEM, "out of memory for %ld states", S + U + 1);
    }
    /* the product-form tilt holds for DIST only, not the throttled law */
    rc = bba_fftwh_eval(m->dist, m->M, m->B, S, m->dist0 ? 0 : m->n, m->dist0 ? NULL : m->b,
                        m->dist0 ? NULL : m->p, pol, so, m->fft_cache, &out->meas,
                        &out->solve, pi, err);
    if (rc != BB_OK) {
        free(pi);
        return rc;
    }
    out->S = S;
    out->threshold = pol->kind == BB_DRAIN_LAZY ? pol->threshold : 0;
    out->n_states = S + U + 1;
    out->nnz = 0;
    out->meas.bb_in = pi ? bba_bbin_chain(m->dist, m->M, m->B, S, pi) : NAN;
    out->meas.stalled = out->meas.idle; /* fresh draws: idle = stalled units */
    if (pi_out)
        *pi_out = pi;
    else
        free(pi);
    return BB_OK;
}

int
bba_eval(const bba_model *m, long S, const bb_drain *pol,
         const bba_solver_opts *so, bba_eval_result *out, double **pi_out,
         char *err)
{
    bba_chain *c = NULL;
    double *pi = NULL;
    bba_solver_opts fb;
    int rc, fell_back = 0;

    assert(BB_DRAIN_IN(pol, BB_DRAIN_QUANTA));
    memset(out, 0, sizeof *out);
    if (pi_out)
        *pi_out = NULL;
    if (pol->kind == BB_DRAIN_LAZY && pol->eps > 0 && pol->eps < BBA_EPS_MIN)
        return bb_seterr(err, BB_EINVAL, "EPS %g is below %g, where the solvers lose the states "
                         "below the threshold (each holds for 1/EPS time units)",
                         pol->eps, BBA_EPS_MIN);
    if (so->max_ops > 0) {
        bba_cost cost;

        bba_cost_eval(m, S, so, pol, &cost);
        /* a chain whose one vector is over the memory limit is left to the
         * memory estimate below, which names the memory */
        if (!(so->mem_limit_bytes > 0 && cost.states * sizeof(double) > so->mem_limit_bytes)
            && (rc = bba_cost_admit(m, &cost, so, "the solve", err)) != BB_OK)
            return rc;
    }
    if (m->onoff) {
        bba_onoff_opts oo;
        double *x = NULL;

        bba_onoff_defaults(&oo);
        oo.tol = so->tol;
        oo.mem_limit_bytes = so->mem_limit_bytes;
        rc = bba_onoff_eval(m->onoff, S, pol, &oo, out, &x, err);
        if (rc == BB_OK)
            out->meas.bb_in = bba_bbin_onoff(m->onoff, S, x, out->meas.stalled);
        if (pi_out)
            *pi_out = x;
        else
            free(x);
        if (rc == BB_OK && m->approx)
            rc = bba_effbw_approx_apply(m->approx, S, pol, &out->meas, err);
        if (rc == BB_OK)
            /* 0 is exact when no load exceeds B; else the idle fraction
             * underflowed and its order is not known here (NAN) */
            out->meas.log10_idle = out->meas.idle > 0 ? log10(out->meas.idle)
                                   : m->onoff->M <= m->onoff->B ? -INFINITY : NAN;
        return rc;
    }
    if (so->kind == BBA_SOLVER_FFT && !fft_applies(m, S, pol)) {
        /* the chain path reports the state that cannot drain */
        fb = *so;
        fb.kind = BBA_SOLVER_BANDED;
        so = &fb;
    } else if (so->kind == BBA_SOLVER_FFT) {
        rc = eval_fft(m, S, pol, so, out, pi_out, err);
        if (rc == BB_OK)
            bba_bbbw_apply(m->throttle, &out->meas);
        if (rc != BB_ENOCONV || so->no_fallback)
            return rc;
        /* Fall back to banded GTH when it fits; otherwise
         * refuse with the FFT solver's reason. */
        {
            double chain_bytes, band_bytes;
            long U = m->M > m->B ? m->M - m->B : 0;

            bba_chain_estimate(S, m->B, m->M, NULL, NULL, &chain_bytes);
            band_bytes = ((double)S + 1.0) * (double)(m->B + U + 1) * sizeof(double);
            if (so->mem_limit_bytes > 0 && chain_bytes + band_bytes > so->mem_limit_bytes) {
                /* a refusal the user can act on (exit 2), not an
                 * internal failure: say what would fit */
                char why[BB_ERRLEN];

                snprintf(why, sizeof why, "%s", err ? err : "the FFT solver did not converge");
                return bb_seterr(err, BB_ETOOBIG, "%s; the banded GTH fallback would need "
                                 "%.3g GB for %ld states (limit %.3g GB): raise the memory "
                                 "bound, or lower the resolution or the buffer size", why,
                                 (chain_bytes + band_bytes) / 1e9, S + U + 1,
                                 so->mem_limit_bytes / 1e9);
            }
            fb = *so;
            fb.kind = BBA_SOLVER_BANDED;
            so = &fb;
            fell_back = 1;
        }
    }
    rc = bba_chain_build(m->dist, m->M, m->B, S, pol, so->mem_limit_bytes, &c, err);
    if (rc != BB_OK)
        return rc;
    rc = bba_chain_check_reachable(c, err);
    if (rc != BB_OK)
        goto out;
    pi = malloc((size_t)c->n_states * sizeof *pi);
    if (pi == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %ld states", c->n_states);
        goto out;
    }
    rc = bba_stationary_solve(c, so, pi, &out->solve, err);
    if (rc != BB_OK)
        goto out;
    out->S = S;
    out->threshold = c->pol.kind == BB_DRAIN_LAZY ? c->pol.threshold : 0;
    out->n_states = c->n_states;
    out->nnz = c->nnz;
    out->solve.fallback = fell_back;
    bba_measures_compute(c, pi, &out->meas);
    out->meas.bb_in = bba_bbin_chain(m->dist, m->M, m->B, S, pi);
    bba_bbbw_apply(m->throttle, &out->meas);
    if (pi_out) {
        *pi_out = pi;
        pi = NULL;
    }
out:
    free(pi);
    bba_chain_free(c);
    return rc;
}

/* ---- the most solves a search can take (bba_progress) -------------------- */

void
bba_search_start(bba_search *sm, bba_progress_fn cb, void *ctx, int left)
{
    memset(sm, 0, sizeof *sm);
    sm->cb = cb;
    sm->ctx = ctx;
    sm->p.solves_max = left;
    if (cb)
        cb(ctx, &sm->p);
}

void
bba_search_tell(bba_search *sm, int solves, int left, int sizes_seen)
{
    sm->p.solves = solves;
    if (solves + left < sm->p.solves_max)
        sm->p.solves_max = solves + left;
    sm->p.sizes_seen = sizes_seen;
    if (sm->cb)
        sm->cb(sm->ctx, &sm->p);
}

/* A search here counts its solves in *count. */
typedef struct {
    bba_search s;
    int *count;
} search_meter;

static void
meter_start(search_meter *sm, bba_progress_fn cb, void *ctx, int *count, int left)
{
    sm->count = count;
    bba_search_start(&sm->s, cb, ctx, left);
}

/* After a solve: at most `left` more. */
static void
meter_tell(search_meter *sm, int left, int sizes_seen)
{
    bba_search_tell(&sm->s, *sm->count, left, sizes_seen);
}

/* ceil(log2(w)), w >= 1 */
static int
ceil_log2(long w)
{
    int k = 0;

    while (k < 62 && (1L << k) < w)
        k++;
    return k;
}

/* The most solves shrinking a bracket of width w = hi - lo to adjacent
 * sizes takes, `slow` its count of slow steps (the shrinking below).
 * Every step narrows the bracket by at least one size; from any state the
 * width falls to at most ceil(w / 2) within 4 steps (two slow secant
 * steps, one probe next to an end, one bisection), within 3, 2, 1 from
 * slow = 1, 2, >= 3: so min(w - 1, first + 4 (ceil(log2 w) - 1)). */
static int
shrink_left(long w, int slow)
{
    static const int first[4] = { 4, 3, 2, 1 };
    long n;

    if (w <= 1)
        return 0;
    n = first[slow < 3 ? slow : 3] + 4L * (ceil_log2(w) - 1);
    return (int)(n < w - 1 ? n : w - 1);
}

/* The most solves left to a search that steps from x (solved) towards
 * limit by step, 2 step, 4 step, ... (clipped at limit, nothing beyond):
 * a probe may bracket the answer with the point before it, leaving that
 * step's width to shrink. */
static int
stepping_left(long x, long step, long limit)
{
    int best = 0, j = 0;

    if (step < 1)
        step = 1;
    while (x != limit) {
        long d = x < limit ? limit - x : x - limit, nx;

        if (step > d)
            step = d;
        nx = x < limit ? x + step : x - step;
        j++;
        if (j + shrink_left(step, 0) > best)
            best = j + shrink_left(step, 0);
        x = nx;
        step = step <= LONG_MAX / 2 ? 2 * step : LONG_MAX;
    }
    return best;
}

static int
imax(int a, int b)
{
    return a > b ? a : b;
}

/* One evaluation of a search, counted. */
static int
eval_at(const bba_model *m, long S, const bb_drain *ps,
        const bba_solver_opts *so, int *count, bba_eval_result *r, char *err)
{
    bb_drain pol;
    int rc;

    bba_drain_quanta(ps, S, 1, &pol);
    rc = bba_eval(m, S, &pol, so, r, NULL, err);
    if (rc != BB_OK)
        return rc;
    (*count)++;
    return BB_OK;
}

/* The buffer's mean rise per time unit below a lazy threshold (Algorithm
 * 4): a load k > B adds k - B; a load k <= B drains B - k only with
 * probability EPS.  Quanta per time unit, on the chain's load law. */
static double
lazy_drift(const bba_model *m, double eps)
{
    double up = 0, down = 0;

    for (long k = 0; k <= m->M; k++) {
        if (k > m->B)
            up += (double)(k - m->B) * m->dist[k];
        else
            down += (double)(m->B - k) * m->dist[k];
    }
    return up - eps * down;
}

/* Whether a lazy search keeps every size below its threshold (a fraction
 * of 1 or more: THRESHOLD = S) while the buffer rises there on average:
 * then the buffer climbs to the top at every size, and the idle fraction
 * tends to a positive limit as S grows instead of to 0. */
static int
lazy_top_rises(const bba_model *m, const bb_drain *ps)
{
    return ps->kind == BB_DRAIN_LAZY && ps->threshold >= 1.0 && lazy_drift(m, ps->eps) > 0;
}

int
bba_size_min(const bba_model *m, double target, const bb_drain *ps,
             const bba_solver_opts *so, long s_max, bba_progress_fn cb,
             void *ctx, bba_size_result *out, char *err)
{
    return bba_size_min_from(m, target, ps, so, s_max, -1, cb, ctx, out, err);
}

/* From a guess: a bracket [lo, hi] around hint by steps doubling from
 * max(1, hint / 256), so that a guess within a few quanta costs about
 * three solves.  Returns BB_OK with *found = 1 when S = 0 already meets
 * the target (then *rlo is that point), else the bracket with
 * idle(lo) > target >= idle(hi). */
static int
bracket_from(const bba_model *m, double target, const bb_drain *ps,
             const bba_solver_opts *so, long s_max, long hint, search_meter *sm,
             long *lo, long *hi, bba_eval_result *rlo, bba_eval_result *rhi,
             int *found, char *err)
{
    bba_eval_result r;
    long step = hint / 256 > 1 ? hint / 256 : 1, x;
    int rc;

    *found = 0;
    if (hint > s_max)
        hint = s_max;
    rc = eval_at(m, hint, ps, so, sm->count, &r, err);
    if (rc != BB_OK)
        return rc;
    if (r.meas.idle <= target) {
        *hi = hint;
        *rhi = r;
        meter_tell(sm, stepping_left(hint, step, 0), 1);
        for (;;) {   /* down until it misses the target */
            x = *hi - step < 0 ? 0 : *hi - step;
            if (x == *hi) {   /* hint 0 meets it */
                *found = 1;
                *rlo = *rhi;
                return BB_OK;
            }
            rc = eval_at(m, x, ps, so, sm->count, &r, err);
            if (rc != BB_OK)
                return rc;
            if (r.meas.idle > target) {
                *lo = x;
                *rlo = r;
                meter_tell(sm, shrink_left(*hi - x, 0), 1);
                return BB_OK;
            }
            *hi = x;
            *rhi = r;
            if (x == 0) {
                *found = 1;
                *rlo = r;
                meter_tell(sm, 0, 1);
                return BB_OK;
            }
            step *= 2;
            meter_tell(sm, stepping_left(x, step, 0), 1);
        }
    }
    *lo = hint;
    *rlo = r;
    meter_tell(sm, stepping_left(hint, step, s_max), 0);
    for (;;) {   /* up until it meets the target */
        x = *lo + step > s_max ? s_max : *lo + step;
        if (x <= *lo)
            return bb_seterr(err, BB_ETOOBIG,
                             "even the largest buffer that fits in memory (%ld quanta) "
                             "leaves an idle fraction of %.3g > %g", *lo, rlo->meas.idle,
                             target);
        rc = eval_at(m, x, ps, so, sm->count, &r, err);
        if (rc != BB_OK)
            return rc;
        if (r.meas.idle <= target) {
            *hi = x;
            *rhi = r;
            meter_tell(sm, shrink_left(x - *lo, 0), 1);
            return BB_OK;
        }
        *lo = x;
        *rlo = r;
        step *= 2;
        meter_tell(sm, stepping_left(x, step, s_max), 0);
    }
}

int
bba_size_min_from(const bba_model *m, double target, const bb_drain *ps,
                  const bba_solver_opts *so, long s_max, long hint, bba_progress_fn cb,
                  void *ctx, bba_size_result *out, char *err)
{
    bba_eval_result rlo, rhi, r;
    long lo = 0, hi = 0, hi0;
    int rc, after0;
    search_meter sm;

    assert(BB_DRAIN_IN(ps, BB_DRAIN_FRACTION));
    memset(out, 0, sizeof *out);
    if (!(target > 0.0 && target < 1.0))
        return bb_seterr(err, BB_EINVAL, "target idle fraction %g is not in (0, 1)", target);
    if (s_max < 0)
        s_max = 0;
    out->idle_limit = bba_model_idle_limit(m, &out->bandwidth_bound);
    if (m->mean_eff >= (double)m->B || out->idle_limit >= target) {
        out->feasible = 0;
        if (out->bandwidth_bound)
            return bb_seterr(err, BB_EINFEASIBLE,
                             "the burst buffer's bandwidth (%ld quanta per time unit) "
                             "stalls the applications %.4g of the time whatever its size, "
                             "more than the target %g", m->bb_bw, out->idle_limit, target);
        return bb_seterr(err, BB_EINFEASIBLE,
                         "the expected load is %.4g times the PFS bandwidth: no buffer "
                         "size suffices; as the size grows the idle fraction tends to "
                         "1 - B/E = %.4g", m->mom.mean / (double)m->B, out->idle_limit);
    }
    if (so->max_ops > 0) {
        bba_cost c;

        bba_cost_search(m, target, ps, so, &c);
        if ((rc = bba_cost_admit(m, &c, so, "the size search", err)) != BB_OK)
            return rc;
    }
    /* the first bracket of a search with no guess: [0, hi0], doubled;
     * after S = 0, at most after0 solves */
    hi0 = m->B > m->M - m->B ? m->B : m->M - m->B;
    if (hi0 < 1)
        hi0 = 1;
    if (hi0 > s_max)
        hi0 = s_max;
    after0 = hi0 > 0 ? 1 + imax(shrink_left(hi0, 0), stepping_left(hi0, hi0, s_max)) : 0;
    if (hint > 0) {
        long h = hint < s_max ? hint : s_max, step = h / 256 > 1 ? h / 256 : 1;
        int found;

        meter_start(&sm, cb, ctx, &out->evaluations,
                    1 + imax(stepping_left(h, step, 0), stepping_left(h, step, s_max)));
        rc = bracket_from(m, target, ps, so, s_max, hint, &sm, &lo, &hi, &rlo, &rhi, &found,
                          err);
        if (rc != BB_OK)
            return rc;
        if (found) {
            out->feasible = 1;
            out->best = rlo;
            return BB_OK;
        }
        goto shrink;
    }
    meter_start(&sm, cb, ctx, &out->evaluations, 1 + after0);
    rc = eval_at(m, 0, ps, so, &out->evaluations, &rlo, err);
    if (rc != BB_OK)
        return rc;
    if (rlo.meas.idle <= target) {
        meter_tell(&sm, 0, 1);
        out->feasible = 1;
        out->best = rlo;
        return BB_OK;
    }
    meter_tell(&sm, after0, 0);
    /* Bracket: double until the target is met. */
    lo = 0;
    hi = hi0;
    for (;;) {
        if (hi > s_max)
            hi = s_max;
        if (hi <= lo)
            return bb_seterr(err, BB_ETOOBIG,
                             "even the largest buffer that fits in memory (%ld quanta) "
                             "leaves an idle fraction of %.3g > %g", lo, rlo.meas.idle, target);
        rc = eval_at(m, hi, ps, so, &out->evaluations, &rhi, err);
        if (rc != BB_OK)
            return rc;
        if (rhi.meas.idle <= target) {
            meter_tell(&sm, shrink_left(hi - lo, 0), 1);
            break;
        }
        if (lazy_top_rises(m, ps) && rhi.meas.idle >= rlo.meas.idle * (1 - BBA_LAZY_FLAT)) {
            /* doubling S no longer lowers the idle fraction: its limit */
            out->feasible = 0;
            out->idle_limit = rhi.meas.idle;
            out->lazy_bound = 1;
            return bb_seterr(err, BB_EINFEASIBLE,
                             "with the lazy threshold at the whole buffer and EPS %g the "
                             "buffer rises by %.3g quanta per time unit on average and sits "
                             "full: the idle fraction stays at %.4g > %g whatever the size",
                             ps->eps, lazy_drift(m, ps->eps), rhi.meas.idle, target);
        }
        lo = hi;
        rlo = rhi;
        meter_tell(&sm, stepping_left(lo, lo, s_max), 0);
        hi *= 2;
    }
shrink:
    /* Shrink [lo, hi] (idle(lo) > target >= idle(hi)) to adjacent sizes by
     * the secant method on log(idle), which is close to linear in S, through
     * the two most recent points; bisect when the secant leaves the bracket
     * or fails to halve it twice in a row (unless it points next to an end
     * of the bracket, which one probe settles, once: then the search
     * takes at most shrink_left's solves). */
    {
        double x1 = (double)lo, y1 = log(rlo.meas.idle);
        double x2 = (double)hi, y2 = rhi.meas.idle > 0 ? log(rhi.meas.idle) : -INFINITY;
        int slow = 0;

        while (hi - lo > 1) {
            long x, width = hi - lo;
            double est = NAN;

            if (isfinite(y1) && isfinite(y2) && y1 != y2)
                est = x2 + (log(target) - y2) * (x2 - x1) / (y2 - y1);
            /* After two slow secant steps, bisect unless the secant says the
             * answer is next to an end of the bracket. */
            if (slow >= 2 && !(slow == 2 && (est >= (double)hi - 2 || est <= (double)lo + 2)))
                est = NAN;
            if (isfinite(est) && est > (double)lo && est < (double)hi + 1)
                x = (long)ceil(est - 1e-9);
            else
                x = lo + width / 2;
            if (x <= lo)
                x = lo + 1;
            if (x >= hi)
                x = hi - 1;
            rc = eval_at(m, x, ps, so, &out->evaluations, &r, err);
            if (rc != BB_OK)
                return rc;
            if (r.meas.idle <= target) {
                hi = x;
                rhi = r;
            } else {
                lo = x;
                rlo = r;
            }
            x1 = x2;
            y1 = y2;
            x2 = (double)x;
            y2 = r.meas.idle > 0 ? log(r.meas.idle) : -INFINITY;
            slow = (hi - lo) * 2 > width ? slow + 1 : 0;
            meter_tell(&sm, shrink_left(hi - lo, slow), 1);
        }
    }
    out->feasible = 1;
    out->best = rhi;
    return BB_OK;
}

/* Keep r as the best point if it is feasible and quieter. */
static void
consider(bba_threshold_result *out, const bba_eval_result *r, double target)
{
    if (r->meas.idle > target)
        return;
    if (!out->feasible || r->meas.quiet > out->best.meas.quiet
        || (r->meas.quiet == out->best.meas.quiet && r->meas.idle < out->best.meas.idle)) {
        out->best = *r;
        out->feasible = 1;
    }
}

int
bba_threshold_best(const bba_model *m, long S, double target, double eps,
                   int grid, const bba_solver_opts *so, bba_progress_fn cb,
                   void *ctx, bba_threshold_result *out, char *err)
{
    bba_eval_result r, *pts = NULL;
    long *th = NULL, lo, hi;
    int rc = BB_OK, npts = 0, last_ok = -1;
    bb_drain pol = bb_drain_lazy(BB_DRAIN_QUANTA, 0, eps);
    search_meter sm;
    /* the bisection after the grid: grid points differ by at most this */
    int edge = ceil_log2(S / grid + 1);

    memset(out, 0, sizeof *out);
    if (!(target > 0.0 && target < 1.0))
        return bb_seterr(err, BB_EINVAL, "target idle fraction %g is not in (0, 1)", target);
    if (grid < 1)
        return bb_seterr(err, BB_EINVAL, "threshold grid %d is not positive", grid);
    if (so->max_ops > 0) {
        bba_cost c;

        /* the grid, then a bisection of at most log2(S) more, each
         * with a threshold inside the buffer (two regions) */
        bb_drain mid = bb_drain_lazy(BB_DRAIN_QUANTA, (double)(S / 2), eps);

        bba_cost_eval(m, S, so, &mid, &c);
        c.evaluations = grid + 2 + (S > 1 ? (int)log2((double)S) : 0);
        c.ops *= c.evaluations;
        if ((rc = bba_cost_admit(m, &c, so, "the threshold search", err)) != BB_OK)
            return rc;
    }
    pts = malloc(((size_t)grid + 1) * sizeof *pts);
    th = malloc(((size_t)grid + 1) * sizeof *th);
    if (pts == NULL || th == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the threshold grid");
        goto out;
    }
    out->monotone_idle = 1;
    meter_start(&sm, cb, ctx, &out->evaluations, grid + 1 + edge);
    for (int g = 0; g <= grid; g++) {
        long t = (long)((double)S * g / grid);

        if (npts > 0 && t == th[npts - 1])
            continue;
        pol.threshold = t;
        rc = bba_eval(m, S, &pol, so, &pts[npts], NULL, err);
        if (rc != BB_OK)
            goto out;
        th[npts] = t;
        out->evaluations++;
        meter_tell(&sm, grid - g + edge, 1);
        if (npts == 0)
            out->greedy = pts[0];
        else if (pts[npts].meas.idle < pts[npts - 1].meas.idle)
            out->monotone_idle = 0;
        consider(out, &pts[npts], target);
        if (pts[npts].meas.idle <= target)
            last_ok = npts;
        npts++;
    }
    /* Refine the edge of feasibility after the last feasible grid point. */
    if (last_ok >= 0 && last_ok + 1 < npts) {
        lo = th[last_ok];
        hi = th[last_ok + 1];
        while (hi - lo > 1) {
            long x = lo + (hi - lo) / 2;

            pol.threshold = x;
            rc = bba_eval(m, S, &pol, so, &r, NULL, err);
            if (rc != BB_OK)
                goto out;
            out->evaluations++;
            consider(out, &r, target);
            if (r.meas.idle <= target)
                lo = x;
            else
                hi = x;
            meter_tell(&sm, ceil_log2(hi - lo), 1);
        }
    }
out:
    free(pts);
    free(th);
    return rc;
}
