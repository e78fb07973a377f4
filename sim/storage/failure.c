/* failure.c: SANgo-style component failures (failure.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "bb_error.h"
#include "failure.h"

static const char *health_names[] = { "OK", "MISSED", "BAD", "LOST" };

const char *
bbs_health_name(bbs_health h)
{
    return (unsigned)h < 4 ? health_names[h] : "?";
}

double
bbs_arrhenius_factor(double ea_eV, double tref_C, double temp_C)
{
    return exp(ea_eV / BBS_BOLTZMANN_EV_PER_K
               * (1.0 / (tref_C + 273.15) - 1.0 / (temp_C + 273.15)));
}

int
bbs_temp_series_check(const bbs_temp_series *ts, char *err)
{
    if (!ts || ts->n == 0)
        return bb_seterr(err, BB_EINVAL, "the temperature series is empty");
    for (size_t i = 0; i < ts->n; i++) {
        if (!isfinite(ts->time_s[i]))
            return bb_seterr(err, BB_EINVAL, "temperature series point %zu: time is not "
                             "finite", i + 1);
        if (i > 0 && !(ts->time_s[i] > ts->time_s[i - 1]))
            return bb_seterr(err, BB_EINVAL, "temperature series point %zu: time %g s is "
                             "not after %g s", i + 1, ts->time_s[i], ts->time_s[i - 1]);
        if (!isfinite(ts->temp_C[i]) || ts->temp_C[i] <= -273.15)
            return bb_seterr(err, BB_EINVAL, "temperature series point %zu: %g C is not "
                             "above absolute zero", i + 1, ts->temp_C[i]);
    }
    return BB_OK;
}

static int
arr_check(const bbs_arrhenius *a, char *err)
{
    if (!(a->rate_per_s >= 0) || !isfinite(a->rate_per_s))
        return bb_seterr(err, BB_EINVAL, "Arrhenius rate constant %g /s is not >= 0",
                         a->rate_per_s);
    if (!(a->ea_eV >= 0) || !isfinite(a->ea_eV))
        return bb_seterr(err, BB_EINVAL, "activation energy %g eV is not >= 0", a->ea_eV);
    if (!isfinite(a->tref_C) || a->tref_C <= -273.15)
        return bb_seterr(err, BB_EINVAL, "reference temperature %g C is not above absolute "
                         "zero", a->tref_C);
    return BB_OK;
}

/* Segment i of the series covers [lo(i), hi(i)) with temperature temp_C[i]:
 * lo(0) = -inf, hi(n - 1) = +inf. */
static double
seg_lo(const bbs_temp_series *ts, size_t i)
{
    return i == 0 ? -INFINITY : ts->time_s[i];
}

static double
seg_hi(const bbs_temp_series *ts, size_t i)
{
    return i + 1 >= ts->n ? INFINITY : ts->time_s[i + 1];
}

static size_t
seg_of(const bbs_temp_series *ts, double t)
{
    size_t i = 0;
    while (i + 1 < ts->n && ts->time_s[i + 1] <= t)
        i++;
    return i;
}

double
bbs_arrhenius_hazard(const bbs_arrhenius *a, const bbs_temp_series *ts, double t0, double t1)
{
    double h = 0;

    if (t1 <= t0)
        return 0;
    for (size_t i = seg_of(ts, t0); i < ts->n; i++) {
        double lo = fmax(seg_lo(ts, i), t0), hi = fmin(seg_hi(ts, i), t1);
        if (hi > lo)
            h += a->rate_per_s * bbs_arrhenius_factor(a->ea_eV, a->tref_C, ts->temp_C[i])
                 * (hi - lo);
        if (seg_hi(ts, i) >= t1)
            break;
    }
    return h;
}

/* E = -ln U with U in (0, 1]: one uniform. */
static double
exp1(gsl_rng *r)
{
    return -log(1.0 - gsl_rng_uniform(r));
}

int
bbs_arrhenius_next(const bbs_arrhenius *a, const bbs_temp_series *ts, double t0,
                   gsl_rng *r, double *t_fail, char *err)
{
    int rc;
    double e;

    if ((rc = arr_check(a, err)) != BB_OK || (rc = bbs_temp_series_check(ts, err)) != BB_OK)
        return rc;
    e = exp1(r);
    *t_fail = INFINITY;
    if (a->rate_per_s == 0)
        return BB_OK;
    for (size_t i = seg_of(ts, t0); i < ts->n; i++) {
        double lo = fmax(seg_lo(ts, i), t0), hi = seg_hi(ts, i);
        double rate = a->rate_per_s * bbs_arrhenius_factor(a->ea_eV, a->tref_C, ts->temp_C[i]);
        if (rate * (hi - lo) >= e || isinf(hi)) {
            *t_fail = lo + e / rate;
            return BB_OK;
        }
        e -= rate * (hi - lo);
    }
    return BB_OK;
}

double
bbs_weibull_hazard_rate(const bbs_weibull *w, double age)
{
    return w->shape / w->scale_s * pow(age / w->scale_s, w->shape - 1);
}

double
bbs_weibull_cum_hazard(const bbs_weibull *w, double age)
{
    return pow(age / w->scale_s, w->shape);
}

int
bbs_weibull_next(const bbs_weibull *w, double age, gsl_rng *r, double *age_fail, char *err)
{
    if (!(w->shape > 0) || !isfinite(w->shape))
        return bb_seterr(err, BB_EINVAL, "Weibull shape %g is not > 0", w->shape);
    if (!(w->scale_s > 0) || !isfinite(w->scale_s))
        return bb_seterr(err, BB_EINVAL, "Weibull scale %g s is not > 0", w->scale_s);
    if (!(age >= 0) || !isfinite(age))
        return bb_seterr(err, BB_EINVAL, "age %g s is not >= 0", age);
    /* H(a) = (a / zeta)^beta; solve H(a) = H(age) + E */
    *age_fail = w->scale_s * pow(bbs_weibull_cum_hazard(w, age) + exp1(r), 1.0 / w->shape);
    return BB_OK;
}

double
bbs_repair_sample(const bbs_repair *rep, gsl_rng *r)
{
    if (rep->kind == BBS_REPAIR_EXPONENTIAL)
        return rep->mean_s * exp1(r);
    return rep->mean_s;
}

int
bbs_component_loses_data(bbs_comp_class cls)
{
    return cls == BBS_COMP_NODE || cls == BBS_COMP_DRIVE;
}

static int
draw_next(bbs_component *c, double now, const bbs_temp_series *ts, gsl_rng *r, char *err)
{
    int rc = BB_OK;

    c->next_fail_s = INFINITY;
    if (c->law == BBS_LAW_ARRHENIUS) {
        rc = bbs_arrhenius_next(&c->arr, ts, now, r, &c->next_fail_s, err);
    } else if (c->law == BBS_LAW_WEIBULL) {
        double age = now - c->installed_s + c->age0_s, af;
        rc = bbs_weibull_next(&c->wei, age, r, &af, err);
        if (rc == BB_OK)
            c->next_fail_s = now + (af - age);
    }
    return rc;
}

int
bbs_component_start(bbs_component *c, double now, const bbs_temp_series *ts, gsl_rng *r,
                    char *err)
{
    if (!(c->repair.mean_s > 0) || !isfinite(c->repair.mean_s))
        return bb_seterr(err, BB_EINVAL, "mean repair time %g s is not > 0", c->repair.mean_s);
    if (!(c->age0_s >= 0))
        return bb_seterr(err, BB_EINVAL, "initial age %g s is not >= 0", c->age0_s);
    c->health = BBS_HEALTH_OK;
    c->installed_s = now;
    c->repair_done_s = INFINITY;
    c->failures = 0;
    return draw_next(c, now, ts, r, err);
}

void
bbs_component_fail(bbs_component *c, double now, gsl_rng *r)
{
    c->health = bbs_component_loses_data(c->cls) ? BBS_HEALTH_LOST
                : c->cls == BBS_COMP_CONTROLLER ? BBS_HEALTH_BAD : BBS_HEALTH_MISSED;
    c->failures++;
    c->next_fail_s = INFINITY;
    c->repair_done_s = now + bbs_repair_sample(&c->repair, r);
}

int
bbs_component_repair(bbs_component *c, double now, const bbs_temp_series *ts, gsl_rng *r,
                     char *err)
{
    if (c->health == BBS_HEALTH_LOST) { /* replaced by a new unit */
        c->installed_s = now;
        c->age0_s = 0;
    }
    c->health = BBS_HEALTH_OK;
    c->repair_done_s = INFINITY;
    return draw_next(c, now, ts, r, err);
}
