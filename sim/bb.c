/* bb.c: the burst-buffer platform model on the event engine (bb.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two event kinds: TICK ends tick u (arg = u) and applies the platform's
 * transition for it (prio 1, so that phase changes at the same instant are
 * accounted first); PHASE toggles application `entity` between compute
 * and I/O (periodic mode only, prio 0).  A tick is one time unit, except
 * in onoff mode the last tick of an overflow stall, which lasts what the
 * held excess needs, H/B units (bb.h).  The clock counts ticks in B-ths
 * of a unit, an integer, so that durations add exactly. */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "bb.h"
#include "bbstep.h"
#include "bb_error.h"
#include "engine.h"
#include "rng.h"
#include "stats.h"

typedef struct {
    const bbs_bb_config *c;
    bbs_engine *e;
    int k_tick, k_phase;
    gsl_rng **rng;           /* per application */
    gsl_rng *plat;           /* platform draws: lazy EPS */
    double tu;               /* seconds per time unit */
    long long clock_q;       /* start of the current tick, B-ths of a unit */
    long long dur_q;         /* its duration, B-ths of a unit */
    /* platform state, quanta */
    double L, H;
    long thr_left;           /* throttle stall units left (bbbw.h) */
    int stall_drain;         /* the spare of a stall unit may drain the buffer */
    /* periodic applications */
    double *d_tu;            /* periods, time units */
    int *in_io;
    double *last_s;          /* last change of I/O accounting, s */
    double *io_s;            /* I/O time in the current unit, s */
    bbs_event_id *pending;   /* each application's next phase change */
    /* measures: ticks (measured, stalls), normal units (normal, empty),
     * and durations in B-ths of a unit (the _q ones) */
    long measured, stalls, normal, empty;
    long long measured_q, stalls_q, quiet_q, full_q;
    double written_measured; /* load of the measured normal units */
    double occ_sum;
    bbs_hist occ;
    double written, to_pfs_direct, to_bb, bb_to_pfs, held_to_pfs;
    double to_bb_measured;    /* into the buffer in measured units */
} bbsim;

int
bbs_bb_check(const bbs_bb_config *c, char *err)
{
    assert(BB_DRAIN_IN(&c->pol, BB_DRAIN_QUANTA));
    if (c->n == 0)
        return bb_seterr(err, BB_EINVAL, "the workload has no application");
    if (c->B <= 0)
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %ld quanta is not positive", c->B);
    if (c->S < 0)
        return bb_seterr(err, BB_EINVAL, "buffer size %ld quanta is negative", c->S);
    if (c->bb_bw < 0)
        return bb_seterr(err, BB_EINVAL, "burst-buffer bandwidth %ld quanta is negative", c->bb_bw);
    for (size_t i = 0; i < c->n; i++) {
        if (c->b[i] < 0)
            return bb_seterr(err, BB_EINVAL, "application %zu: bandwidth %ld quanta is negative",
                             i + 1, c->b[i]);
        if (!(c->p[i] >= 0.0 && c->p[i] <= 1.0))
            return bb_seterr(err, BB_EINVAL, "application %zu: p = %g is not in [0, 1]",
                             i + 1, c->p[i]);
    }
    if (c->horizon_units <= 0)
        return bb_seterr(err, BB_EINVAL, "horizon %ld time units is not positive", c->horizon_units);
    if (c->warmup_units < 0)
        return bb_seterr(err, BB_EINVAL, "warm-up %ld time units is negative", c->warmup_units);
    if (!(c->time_unit_s > 0) || !isfinite(c->time_unit_s))
        return bb_seterr(err, BB_EINVAL, "time unit %g s is not positive", c->time_unit_s);
    if (c->pol.kind == BB_DRAIN_LAZY && (c->pol.threshold < 0 || c->pol.threshold > c->S))
        return bb_seterr(err, BB_EINVAL, "threshold %ld quanta is outside [0, %ld]",
                         (long)c->pol.threshold, c->S);
    if (c->pol.kind == BB_DRAIN_LAZY && !(c->pol.eps >= 0.0 && c->pol.eps <= 1.0))
        return bb_seterr(err, BB_EINVAL, "EPS %g is outside [0, 1]", c->pol.eps);
    if (c->mode == BBS_BB_PERIODIC) {
        if (!(c->noise >= 0.0 && c->noise < 1.0))
            return bb_seterr(err, BB_EINVAL, "noise u = %g is outside [0, 1)", c->noise);
        if (c->period_tu) {
            for (size_t i = 0; i < c->n; i++)
                if (!(c->period_tu[i] > 0) || !isfinite(c->period_tu[i]))
                    return bb_seterr(err, BB_EINVAL,
                                     "application %zu: period %g time units is not positive",
                                     i + 1, c->period_tu[i]);
        } else if (!(c->d_min_tu > 0) || !isfinite(c->d_min_tu)) {
            return bb_seterr(err, BB_EINVAL,
                             "periodic mode needs a period for every application or d_min > 0");
        }
    } else if (c->mode == BBS_BB_ONOFF) {
        for (size_t i = 0; c->burst_tu && i < c->n; i++) {
            double pi = c->p[i], L = c->burst_tu[i], lo;

            if (pi <= 0 || pi >= 1 || L == 0)
                continue;
            lo = pi / (1 - pi) > 1 ? pi / (1 - pi) : 1;
            if (!(L >= lo * (1 - 1e-12)) || !isfinite(L)) {
                char bl[40], blo[40];

                bb_fmt_apart(L, lo, bl, blo, sizeof bl);
                return bb_seterr(err, BB_EINVAL, "application %zu: burst %s time units is "
                                 "below max(1, p/(1-p)) = %s", i + 1, bl, blo);
            }
        }
    } else if (c->mode != BBS_BB_BERNOULLI) {
        return bb_seterr(err, BB_EINVAL, "unknown workload mode %d", (int)c->mode);
    }
    return BB_OK;
}

/* The load written in the normal unit that ends at t_end, quanta.
 * Bernoulli: one uniform per application. */
static double
unit_load(bbsim *s, double t_end)
{
    const bbs_bb_config *c = s->c;
    double k = 0.0;

    if (c->mode == BBS_BB_ONOFF) {
        for (size_t i = 0; i < c->n; i++)
            if (s->in_io[i])
                k += (double)c->b[i];
        return k;
    }
    if (c->mode == BBS_BB_BERNOULLI) {
        for (size_t i = 0; i < c->n; i++)
            if (bbs_rng_bernoulli(s->rng[i], c->p[i]))
                k += (double)c->b[i];
        return k;
    }
    for (size_t i = 0; i < c->n; i++) {
        if (s->in_io[i])
            s->io_s[i] += t_end - s->last_s[i];
        s->last_s[i] = t_end;
        k += (double)c->b[i] * (s->io_s[i] / s->tu);
        s->io_s[i] = 0.0;
    }
    return k;
}

/* ON/OFF (onoff.h): after a tick followed by a stall tick of d units the
 * ON applications wait (stay ON) and each OFF one turns ON with
 * probability 1 - (1 - c_i)^d, c_i its OFF -> ON probability per unit (the
 * stall kernel H^d); after a tick followed by a normal unit every
 * application takes the normal step (K).  So a normal unit followed by a
 * stall of tau units moves the phases by H^tau K.  One uniform per
 * application per tick, whichever the step. */
static void
onoff_step(bbsim *s, int next_stalls, double d)
{
    const bbs_bb_config *c = s->c;

    for (size_t i = 0; i < c->n; i++) {
        double p = c->p[i], L = c->burst_tu ? c->burst_tu[i] : 0, a, cc;
        double x = gsl_rng_uniform(s->rng[i]);

        if (p <= 0 || p >= 1)
            continue; /* constant phase; the uniform is still drawn */
        if (L <= 0)
            L = 1.0 / (1.0 - p);
        a = 1.0 / L;
        cc = a * p / (1.0 - p);
        if (next_stalls && d < 1)
            cc = -expm1(d * log1p(-(cc < 1 ? cc : 1)));
        if (s->in_io[i])
            s->in_io[i] = next_stalls || x >= a;
        else
            s->in_io[i] = x < cc;
    }
}

/* The duration of the next tick in B-ths of a unit: a whole unit, but in
 * onoff mode an overflow stall's last tick, which writes the held excess
 * H < B (no throttle stall left), lasts H/B units. */
static long long
next_dur(const bbsim *s)
{
    if (s->c->mode == BBS_BB_ONOFF && s->H > 0 && s->thr_left == 0 && s->H < (double)s->c->B)
        return llround(s->H) > 0 ? llround(s->H) : 1;
    return s->c->B;
}

/* A normal unit of load above B (Algorithm 2, lines 10-15): the PFS takes
 * B, the buffer what fits of the excess ex (bbs_step_into), and the rest
 * is held on the compute nodes, with held more a throttle holds. */
static void
excess(bbsim *s, double B, double S, double held, double ex, int measured)
{
    double into = bbs_step_into(S, s->L, ex);

    s->to_pfs_direct += B;
    s->L += into;
    s->to_bb += into;
    if (measured)
        s->to_bb_measured += into;
    s->H += held + ex - into;
}

static int
on_tick(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbsim *s = ctx;
    const bbs_bb_config *c = s->c;
    long u = (long)ev->arg;
    long long Bq = c->B, dq = s->dur_q, end_q;
    int measured = s->clock_q >= (long long)c->warmup_units * Bq;
    double B = (double)c->B, S = (double)c->S;
    double j0 = s->L + s->H;
    double t_end = ev->time_s;
    int rc;

    /* A throttle stall (analytic/chain/bbbw.h) is none of full, empty, quiet. */
    int thr_stall = s->H > 0 && s->thr_left > 0;

    if (measured) {
        s->measured++;
        s->measured_q += dq;
        if (j0 >= S && !thr_stall)
            s->full_q += dq;
    }
    if (s->H > 0) {
        /* Stall (Algorithm 2, lines 12-14): the PFS takes B, held data
         * first, then buffer data with what is left (unless a lazy
         * throttle episode below the threshold keeps it, see below).  A
         * tick of dq < B (onoff: the held excess H < B) takes H alone. */
        double from_held = s->H < B ? s->H : B;
        double from_bb = !s->stall_drain || dq < Bq ? 0
                         : s->L < B - from_held ? s->L : B - from_held;

        if (thr_stall)
            s->thr_left--;
        s->H -= from_held;
        s->L -= from_bb;
        s->held_to_pfs += from_held;
        s->bb_to_pfs += from_bb;
        if (measured) {
            s->stalls++;
            s->stalls_q += dq;
        }
    } else {
        double k = unit_load(s, t_end);
        double eps_u = bbs_step_draw(&c->pol, s->plat);
        double bbw = (double)c->bb_bw;
        long t = 0;
        int quiet;

        s->written += k;
        if (measured)
            s->written_measured += k;
        s->thr_left = 0;
        s->stall_drain = 1;
        if (c->bb_bw > 0 && k > B + bbw) {
            /* Throttled (analytic/chain/bbbw.h): writing k takes
             * c = (k - B - B_BB)/(B + B_BB) more units, rounded at random
             * to t whole stall units (one uniform from the platform
             * stream); the PFS takes B per unit, held data in the stalls,
             * and the buffer the rest, k - B (1 + t). */
            double cc = (k - B - bbw) / (B + bbw), t0 = floor(cc);

            t = (long)t0 + (gsl_rng_uniform(s->plat) < cc - t0);
        }
        if (t > 0) {
            double held = k - B < B * (double)t ? k - B : B * (double)t;

            excess(s, B, S, held, k - B - held, measured);
            s->thr_left = t;
            /* k - tB < B: the last stall has room to drain the buffer,
             * which the draining policy decides, as for a normal unit of
             * that load (then ex = 0 and L = j0). */
            if (k - B * (double)t < B)
                s->stall_drain = bbs_step_drains(&c->pol, s->L, eps_u);
            /* quiet as the chain's normal unit of load k - tB */
            quiet = k - B * (double)t >= B || j0 <= 0 || !s->stall_drain;
        } else if (k <= B) {
            /* Algorithms 2 and 4, lines 1-8. */
            int drain = bbs_step_drains(&c->pol, s->L, eps_u);

            s->to_pfs_direct += k;
            if (drain) {
                double d = s->L < B - k ? s->L : B - k;

                s->L -= d;
                s->bb_to_pfs += d;
            }
            quiet = s->L + s->H >= j0;
        } else {
            /* Lines 10-15: the excess fills the buffer; what does not fit
             * stays on the compute nodes (k <= B + B_BB here). */
            excess(s, B, S, 0, k - B, measured);
            quiet = 1;
        }
        if (measured) {
            s->normal++;
            s->occ_sum += j0;
            if (j0 <= 0)
                s->empty++;
            bbs_hist_add(&s->occ, j0, 1.0);
            if (quiet)
                s->quiet_q += Bq;
        }
    }
    end_q = s->clock_q + dq;
    s->clock_q = end_q;
    s->dur_q = next_dur(s);
    if (c->mode == BBS_BB_ONOFF)
        onoff_step(s, s->H > 0, (double)s->dur_q / B);
    if (end_q + s->dur_q > (long long)(c->warmup_units + c->horizon_units) * Bq)
        return BB_OK;
    rc = bbs_engine_schedule(e, (double)(end_q + s->dur_q) / B * s->tu, s->k_tick, 1, 0, u + 1,
                             NULL, NULL);
    if (rc != BB_OK)
        return rc;
    if (c->mode == BBS_BB_PERIODIC && s->H > 0) {
        /* The next unit is a stall: every application's clock stops for one
         * unit, so its pending phase change moves one unit later and it
         * writes nothing until then. */
        for (size_t i = 0; i < c->n; i++) {
            s->last_s[i] = t_end + s->tu;
            if (s->pending[i]) {
                double t = bbs_engine_event_time(e, s->pending[i]);

                rc = bbs_engine_reschedule(e, s->pending[i], t + s->tu);
                if (rc != BB_OK)
                    return rc;
            }
        }
    }
    return BB_OK;
}

/* Periodic: application `entity` ends its current burst now. */
static int
on_phase(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbsim *s = ctx;
    const bbs_bb_config *c = s->c;
    size_t i = (size_t)ev->entity;
    double t = ev->time_s, x, len_tu;

    if (s->in_io[i])
        s->io_s[i] += t - s->last_s[i];
    s->last_s[i] = t;
    s->in_io[i] = !s->in_io[i];
    /* Algorithm 3, lines 4-11 with the erratum: an I/O burst lasts
     * p d x, a compute burst (1 - p) d x; one uniform per burst. */
    x = bbs_rng_uniform_ab(s->rng[i], 1.0 - c->noise, 1.0 + c->noise);
    len_tu = (s->in_io[i] ? c->p[i] : 1.0 - c->p[i]) * s->d_tu[i] * x;
    return bbs_engine_schedule(e, t + len_tu * s->tu, s->k_phase, 0, i, 0, NULL, &s->pending[i]);
}

void
bbs_bb_estimate(const bbs_bb_config *c, double *events, double *bytes)
{
    double units = (double)c->horizon_units + (double)c->warmup_units, per = 1.0;

    if (c->mode == BBS_BB_PERIODIC)
        for (size_t i = 0; i < c->n; i++) {
            double d = c->period_tu ? c->period_tu[i] : c->d_min_tu;

            per += 2.0 / d;   /* d > 0 (bbs_bb_check); 1e-300 gives 2e300 */
        }
    *events = units * per;
    /* a GSL mt19937 stream is about 5 kB; six doubles of state and one
     * pending event per application */
    *bytes = (double)c->n * (5100.0 + 6.0 * sizeof(double) + (double)bbs_engine_event_bytes());
}

static void
bbsim_free(bbsim *s)
{
    if (s->rng)
        for (size_t i = 0; i < s->c->n; i++)
            gsl_rng_free(s->rng[i]);
    free(s->rng);
    gsl_rng_free(s->plat);
    free(s->d_tu);
    free(s->in_io);
    free(s->last_s);
    free(s->io_s);
    free(s->pending);
    bbs_hist_free(&s->occ);
    bbs_engine_free(s->e);
}

int
bbs_bb_run(const bbs_bb_config *c, uint64_t unit, bbs_bb_result *r, char *err)
{
    bbsim s;
    size_t n = c->n;
    double total_pfs, resid, T;
    int rc;

    memset(r, 0, sizeof *r);
    memset(&s, 0, sizeof s);
    s.stall_drain = 1;
    s.dur_q = c->B;
    if ((rc = bbs_bb_check(c, err)) != BB_OK)
        return rc;
    s.c = c;
    s.tu = c->time_unit_s;
    rc = bbs_engine_new(&s.e, n + 2, err);
    if (rc != BB_OK)
        return rc;
    s.rng = calloc(n, sizeof *s.rng);
    s.d_tu = calloc(n, sizeof *s.d_tu);
    s.in_io = calloc(n, sizeof *s.in_io);
    s.last_s = calloc(n, sizeof *s.last_s);
    s.io_s = calloc(n, sizeof *s.io_s);
    s.pending = calloc(n, sizeof *s.pending);
    s.plat = bbs_rng_stream_new(NULL, c->seed, unit, BBS_ENTITY(BBS_ECLASS_PLATFORM, 0));
    if (!s.rng || !s.d_tu || !s.in_io || !s.last_s || !s.io_s || !s.pending || !s.plat) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", n);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (!(s.rng[i] = bbs_rng_stream_new(NULL, c->seed, unit, BBS_ENTITY(BBS_ECLASS_APP, i)))) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for random streams");
            goto out;
        }
    if ((rc = bbs_hist_init(&s.occ, BBS_BB_OCC_BINS, 0.0, (double)c->S + 1.0, err)) != BB_OK)
        goto out;
    if ((rc = bbs_engine_register(s.e, on_tick, &s, &s.k_tick)) != BB_OK
        || (rc = bbs_engine_register(s.e, on_phase, &s, &s.k_phase)) != BB_OK)
        goto out;
    rc = bbs_engine_schedule(s.e, s.tu, s.k_tick, 1, 0, 0, NULL, NULL);
    if (rc != BB_OK)
        goto out;
    if (c->mode == BBS_BB_ONOFF)
        for (size_t i = 0; i < n; i++)
            s.in_io[i] = gsl_rng_uniform(s.rng[i]) < c->p[i]; /* stationary start */
    if (c->mode == BBS_BB_PERIODIC) {
        for (size_t i = 0; i < n; i++) {
            double start_tu;

            if (c->period_tu) {
                s.d_tu[i] = c->period_tu[i];
            } else {
                gsl_rng *g = bbs_rng_stream_new(NULL, c->seed, unit, BBS_ENTITY(BBS_ECLASS_SETUP, i));

                if (g == NULL) {
                    rc = bb_seterr(err, BB_ENOMEM, "out of memory for random streams");
                    goto out;
                }
                s.d_tu[i] = bbs_rng_uniform_ab(g, c->d_min_tu, 2.0 * c->d_min_tu);
                gsl_rng_free(g);
            }
            /* A random start in [0, d_i): computing until then. */
            start_tu = bbs_rng_uniform_ab(s.rng[i], 0.0, s.d_tu[i]);
            rc = bbs_engine_schedule(s.e, start_tu * s.tu, s.k_phase, 0, i, 0, NULL, &s.pending[i]);
            if (rc != BB_OK)
                goto out;
        }
    }
    rc = bbs_engine_run(s.e, (double)(c->warmup_units + c->horizon_units) * s.tu);
    if (rc != BB_OK)
        goto out;

    /* idle: the stalled time (every model's idle, analytic/chain/measures.h);
     * every fraction per unit of time (whole units but in onoff mode,
     * where a stall's last tick may be a fraction: B-ths of a unit
     * counted exactly) */
    T = (double)s.measured_q / (double)c->B;
    r->stall_fraction = (double)s.stalls_q / (double)c->B / T;
    r->idle = r->stall_fraction;
    r->throughput = s.written_measured / T;
    r->quiet = (double)s.quiet_q / (double)c->B / T;
    r->p_full = (double)s.full_q / (double)c->B / T;
    if (s.normal > 0) {
        r->mean_occupancy = s.occ_sum / (double)s.normal;
        r->p_empty = (double)s.empty / (double)s.normal;
        for (size_t b = 0; b < BBS_BB_OCC_BINS; b++)
            r->occ_hist[b] = s.occ.w[b] / (double)s.normal;
    }
    r->written = s.written;
    r->to_pfs_direct = s.to_pfs_direct;
    r->to_bb = s.to_bb;
    r->bb_in = s.to_bb_measured / T;
    r->bb_to_pfs = s.bb_to_pfs;
    r->held_to_pfs = s.held_to_pfs;
    r->left_in_bb = s.L;
    r->held = s.H;
    r->events = bbs_engine_events(s.e);
    r->stalls = s.stalls;
    r->measured = s.measured;
    total_pfs = s.to_pfs_direct + s.bb_to_pfs + s.held_to_pfs;
    resid = fabs(s.written - total_pfs - s.L - s.H);
    r->conservation_error = resid;
    if (resid > 1e-9 * (s.written > 1.0 ? s.written : 1.0))
        rc = bb_seterr(err, BB_EDATA,
                       "conservation violated: written %.17g quanta, to PFS %.17g, in buffer "
                       "%.17g, held %.17g", s.written, total_pfs, s.L, s.H);
out:
    bbsim_free(&s);
    return rc;
}

int
bbs_bb_grid_unit(size_t w, void *result, const void *ctx, char *err)
{
    const bbs_bb_grid *g = ctx;

    return bbs_bb_run(&g->cfg[w / g->replications], w % g->replications, result, err);
}

int
bbs_bb_summarize(const bbs_bb_result *r, size_t n, double level, bbs_bb_summary *s, char *err)
{
    bbs_welford wi, wq, wo, we, wf, wb;
    bbs_ci ci;
    int rc;
    double units = n > 0 ? (double)r[0].measured : 0;

    memset(s, 0, sizeof *s);
    if (n == 0)
        return bb_seterr(err, BB_EINVAL, "no replication to summarise");
    bbs_welford_init(&wi);
    bbs_welford_init(&wq);
    bbs_welford_init(&wo);
    bbs_welford_init(&we);
    bbs_welford_init(&wf);
    bbs_welford_init(&wb);
    for (size_t k = 0; k < n; k++) {
        bbs_welford_add(&wi, r[k].idle);
        bbs_welford_add(&wq, r[k].quiet);
        bbs_welford_add(&wo, r[k].mean_occupancy);
        bbs_welford_add(&we, r[k].p_empty);
        bbs_welford_add(&wf, r[k].p_full);
        bbs_welford_add(&wb, r[k].bb_in);
        s->stall_fraction_mean += r[k].stall_fraction / (double)n;
        for (size_t b = 0; b < BBS_BB_OCC_BINS; b++)
            s->occ_hist[b] += r[k].occ_hist[b] / (double)n;
        s->written += r[k].written;
        s->to_pfs += r[k].to_pfs_direct + r[k].bb_to_pfs + r[k].held_to_pfs;
        s->to_bb += r[k].to_bb;
        s->left_in_bb += r[k].left_in_bb;
        s->held += r[k].held;
        if (r[k].conservation_error > s->max_conservation_error)
            s->max_conservation_error = r[k].conservation_error;
        s->events += r[k].events;
    }
    s->level = level;
    s->replications = n;
    /* Fractions get an interval inside [0, 1], the occupancy one >= 0
     * (stats.h: logit- and log-scale Student-t, Clopper-Pearson when no
     * replication saw the event); never a clipped symmetric t. */
    if ((rc = bbs_ci_fraction(&wi, units, level, &ci, err)) != BB_OK)
        return rc;
    s->idle_mean = wi.mean;
    s->idle_lo = ci.lo;
    s->idle_hi = ci.hi;
    s->idle_sd = bbs_welford_sd(&wi);
    bbs_ci_fraction(&wq, units, level, &ci, NULL);
    s->quiet_mean = wq.mean;
    s->quiet_lo = ci.lo;
    s->quiet_hi = ci.hi;
    bbs_ci_positive(&wo, level, &ci, NULL);
    s->occ_mean = ci.mean;
    s->occ_lo = ci.lo;
    s->occ_hi = ci.hi;
    bbs_ci_positive(&wb, level, &ci, NULL);
    s->bb_in_mean = wb.mean;
    s->bb_in_lo = ci.lo;
    s->bb_in_hi = ci.hi;
    s->p_empty_mean = we.mean;
    s->p_full_mean = wf.mean;
    return BB_OK;
}
