/* fitjob.c: one job's p, bw and burst, and a class's pooled values
 * (fitjob.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "fitjob.h"
#include "workload.h"

static void
est_init(bb_fit_est *e, double run_s)
{
    memset(e, 0, sizeof *e);
    e->run_s = run_s;
    e->burst_cv = e->period_s = e->period_acf = e->start_mean_s = e->start_cv = NAN;
}

/* The phase fields of e from tl, the phases' total time scaled to on_s. */
static void
take_phases(bb_fit_est *e, const bb_tl_stats *tl)
{
    double scale;

    e->busy_s = tl->busy_s;
    e->gap_s = tl->gap_s;
    e->gap_derived = tl->gap_derived;
    e->period_s = tl->period_s;
    e->period_acf = tl->period_acf;
    e->periodic = tl->periodic;
    e->start_mean_s = tl->start_mean_s;
    e->start_cv = tl->start_cv;
    if (tl->phases == 0 || !(e->on_s > 0) || !(tl->phase_s > 0))
        return;
    scale = e->on_s / tl->phase_s;
    e->phases = tl->phases;
    e->burst_s = e->on_s / (double)tl->phases;
    e->burst_cv = tl->burst_cv;
    e->phase_sumsq = tl->phase_sumsq * scale * scale;
}

void
bb_fit_from_timeline(const bb_tl_stats *tl, int source, double resolution_s, bb_fit_est *e)
{
    est_init(e, tl->horizon_s);
    e->source = source;
    e->resolution_s = resolution_s;
    e->bytes = tl->bytes;
    e->on_s = tl->phase_s;
    e->p = tl->phase_s / tl->horizon_s;
    e->bw_Bps = tl->phase_s > 0 ? tl->bytes / tl->phase_s : 0;
    take_phases(e, tl);
}

void
bb_fit_from_counters(const bb_fit_counters *k, const bb_tl_stats *heat, bb_fit_est *e)
{
    if (heat != NULL && !(k->records > 0 && k->io_time_s > 0)) {
        /* the heatmap alone */
        bb_fit_from_timeline(heat, BB_FIT_HEATMAP, k->heat_width_s, e);
        return;
    }
    est_init(e, k->run_s);
    e->source = heat != NULL ? BB_FIT_HEATMAP : BB_FIT_COUNTERS;
    e->p_from_counters = 1;
    e->p_clamped = k->io_time_s > k->run_s;
    e->p = k->run_s > 0 ? fmin(k->io_time_s / k->run_s, 1.0) : 0;   /* the reader's p */
    e->on_s = e->p * k->run_s;
    e->bytes = k->bytes;
    e->bw_Bps = e->on_s > 0 ? k->bytes / e->on_s : 0;
    if (heat != NULL) {
        e->resolution_s = k->heat_width_s;
        take_phases(e, heat);
    }
}

void
bb_spread_add(bb_spread *s, double x)
{
    if (s->n == 0 || x < s->min)
        s->min = x;
    if (s->n == 0 || x > s->max)
        s->max = x;
    s->n++;
    s->sum += x;
    s->sumsq += x * x;
}

double
bb_spread_mean(const bb_spread *s)
{
    return s->n ? s->sum / (double)s->n : NAN;
}

double
bb_spread_sd(const bb_spread *s)
{
    double m, v;

    if (s->n < 2)
        return NAN;
    m = s->sum / (double)s->n;
    v = (s->sumsq - s->sum * m) / (double)(s->n - 1);
    return sqrt(v > 0 ? v : 0);
}

void
bb_fit_class_init(bb_fit_class *c)
{
    memset(c, 0, sizeof *c);
}

void
bb_fit_class_add(bb_fit_class *c, const bb_fit_est *e, double start_epoch)
{
    c->jobs++;
    if (e->source >= 0 && e->source < BB_FIT_NSOURCES)
        c->by_source[e->source]++;
    c->run_s += e->run_s;
    c->on_s += e->on_s;
    c->bytes += e->bytes;
    bb_spread_add(&c->p, e->p);
    if (e->on_s > 0) {
        c->jobs_io++;
        bb_spread_add(&c->bw, e->bw_Bps);
    }
    if (e->phases > 0) {
        c->jobs_burst++;
        c->phases += (double)e->phases;
        c->phase_on_s += e->on_s;
        c->phase_sumsq += e->phase_sumsq;
        bb_spread_add(&c->burst, e->burst_s);
    }
    if (e->periodic) {
        c->jobs_periodic++;
        bb_spread_add(&c->period, e->period_s);
    }
    if (start_epoch >= 0) {
        double end = start_epoch + e->run_s;

        if (c->dated == 0 || start_epoch < c->first_start)
            c->first_start = start_epoch;
        if (c->dated == 0 || end > c->last_end)
            c->last_end = end;
        c->dated++;
        c->dated_run_s += e->run_s;
    }
}

void
bb_fit_class_row(const bb_fit_class *c, bb_fit_row *r)
{
    memset(r, 0, sizeof *r);
    r->burst_cv = r->concurrency = NAN;
    if (c->run_s > 0)
        r->p = c->on_s / c->run_s;
    if (r->p > 1)
        r->p = 1;
    if (c->on_s > 0)
        r->bw_Bps = c->bytes / c->on_s;
    if (c->phases > 0 && c->phase_on_s > 0) {
        double mean = c->phase_on_s / c->phases;

        r->has_burst = 1;
        r->burst_s = mean;
        if (c->phases >= 2) {
            double var = (c->phase_sumsq - c->phase_on_s * mean) / (c->phases - 1);

            r->burst_cv = sqrt(var > 0 ? var : 0) / mean;
        }
    }
    if (c->dated >= 2 && c->last_end > c->first_start)
        r->concurrency = c->dated_run_s / (c->last_end - c->first_start);
    r->count = 1;
    r->p_row = r->p;
    if (!isnan(r->concurrency)) {
        double load = r->p * r->concurrency;   /* instances ON on average */
        double n = floor(r->concurrency + 0.5);

        if (n < 1)
            n = 1;
        if (load > n)
            n = ceil(load);    /* p_row <= 1 */
        if (n > BBA_COUNT_MAX)
            n = BBA_COUNT_MAX;
        r->count = (long)n;
        r->p_row = load / n > 1 ? 1 : load / n;
    }
}
