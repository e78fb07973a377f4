/* fluidplat.c: a workload's applications as the fluid simulation's
 * sources, and the content's mixing time against the run (fluidplat.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_apps.h"
#include "fluid_classes.h"
#include "fluidplat.h"

int
bbs_fluid_sources_make(bbs_fluid_sources *s, const bba_app *apps, size_t napps,
                       const long *line, const char *source, double time_unit_s, char *err)
{
    bba_fluid_class *c;
    size_t n = 0, k = 0, nc, *of;
    int rc;

    memset(s, 0, sizeof *s);
    if ((of = malloc((napps ? napps : 1) * sizeof *of)) == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", napps);
    rc = bba_fluid_apps(apps, napps, time_unit_s, line, source, &c, &nc, of, err);
    if (rc != BB_OK) {
        free(of);
        return rc;
    }
    for (size_t i = 0; i < napps; i++)
        n += (size_t)bba_app_count(&apps[i]);
    s->n = n;
    s->rate_Bps = malloc((n ? n : 1) * sizeof *s->rate_Bps);
    s->p = malloc((n ? n : 1) * sizeof *s->p);
    s->on_s = malloc((n ? n : 1) * sizeof *s->on_s);
    if (!s->rate_Bps || !s->p || !s->on_s) {
        free(c);
        free(of);
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", n);
    }
    /* in file order, each row expanded by its count: the sources' random
     * streams follow the file, not the merged classes */
    for (size_t i = 0; i < napps; i++) {
        const bba_fluid_class *x = &c[of[i]];
        size_t copies = (size_t)bba_app_count(&apps[i]);

        for (size_t e = k + copies; k < e; k++) {
            s->rate_Bps[k] = x->rate_Bps;
            s->p[k] = x->p;
            s->on_s[k] = x->burst_s;
        }
        if (bba_fluid_class_has_phase(x)) {
            s->phased += copies;
            s->memoryless += !(apps[i].burst_s > 0) ? copies : 0;
        }
    }
    free(c);
    free(of);
    return BB_OK;
}

void
bbs_fluid_sources_free(bbs_fluid_sources *s)
{
    free(s->rate_Bps);
    free(s->p);
    free(s->on_s);
    memset(s, 0, sizeof *s);
}

/* The stationary mean content of the diffusion, bytes (fluidplat.h). */
static double
stationary_mean(double mu, double s2, double S)
{
    double x;

    if (!(s2 > 0))
        return mu > 0 ? S : 0;
    x = 2 * mu * S / s2;
    if (fabs(x) < 1e-6)
        return S * (0.5 + x / 12);
    return S * (-1 / expm1(-x) - 1 / x);
}

/* The mean over [W, W + H] of an offset that is whole until T0, then
 * decays as exp(-(t - T0) / R) (fluidplat.h). */
static double
start_weight(double T0, double R, double W, double H)
{
    double whole, from;

    if (!(H > 0))
        return 0;
    whole = fmax(0, fmin(W + H, T0) - W);
    from = fmax(W, T0);
    if (R > 0 && W + H > from)
        whole += R * exp(-(from - T0) / R) * -expm1(-(W + H - from) / R);
    return fmin(1, whole / H);
}

void
bbs_fluid_mixing(const bbs_fluid_config *c, bbs_fluid_mix *m)
{
    const bbs_fluid_platform *f = &c->pf;
    double S = f->size_bytes, H = c->horizon_s, W = c->warmup_s;

    memset(m, 0, sizeof *m);
    m->drift_Bps = bbs_fluid_mean_rate(c) - f->pfs_bw_Bps;
    for (size_t i = 0; i < c->n; i++) {
        double p = c->p[i], b = c->rate_Bps[i], L = c->on_s[i], up, down;

        if (!(p > 0 && p < 1 && b > 0))
            continue;
        up = p / (L * (1 - p));
        down = 1 / L;
        m->var_B2ps += 2 * b * b * up * down / ((up + down) * (up + down) * (up + down));
    }
    if (m->var_B2ps > 0 && S > 0)
        m->relax_s = 1 / (m->drift_Bps * m->drift_Bps / (2 * m->var_B2ps)
                          + M_PI * M_PI * m->var_B2ps / (2 * S * S));
    m->transit_s = bbs_fluid_fill_time(c);
    m->mix_s = m->relax_s + m->transit_s;
    m->mean_bytes = stationary_mean(m->drift_Bps, m->var_B2ps, S);
    m->weight = start_weight(m->transit_s, m->relax_s, W, H);
    m->bias_bytes = m->weight * m->mean_bytes;
}

int
bbs_fluid_mix_message(const bbs_fluid_mix *m, const bbs_fluid_config *c,
                      const bbs_fluid_summary *s, char *buf, size_t len)
{
    /* the start holds the content low: is the stationary mean above the
       interval's upper end? */
    double hw = s->occupancy_bytes.hi - s->occupancy_bytes.mean;

    if (len > 0)
        buf[0] = '\0';
    if (!(hw >= 0) || s->replications < 2)
        hw = 0;
    if (!(m->bias_bytes > hw && m->bias_bytes > BBS_FLUID_MIX_SHARE * m->mean_bytes))
        return 0;
    snprintf(buf, len, "the buffer's content takes about %.3g s to forget its empty start "
             "(drift %.3g B/s, variance %.3g B^2/s: relaxation %.3g s, filling %.3g s), "
             "against a warm-up of %.3g s and a horizon of %.3g s: the mean occupancy is "
             "likely about %.3g bytes below its stationary %.3g bytes, more than its "
             "interval reaches above it (%.3g bytes), and the other measures off with it; ask "
             "for a longer horizon (several times %.3g s)", m->mix_s, m->drift_Bps,
             m->var_B2ps, m->relax_s, m->transit_s, c->warmup_s, c->horizon_s, m->bias_bytes,
             m->mean_bytes, hw, m->mix_s);
    return 1;
}
