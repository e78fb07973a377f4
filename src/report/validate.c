/* validate.c: `bbsize report --validate` (report.h bb_report_validate):
 * `bbsize validate`'s computation at 0, S/2, S, 3S/2 and 2S, its length
 * sized so that the verdict at the recommended size S concludes.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* --validate's relative tolerance (bbsize validate's default) */
#define VAL_TOL 0.5

/* The sizes: 0, S/2, S, 3S/2, 2S, in whole quanta for the discrete
 * models (those that round alike once); S among them, at *at. */
static size_t
val_sizes(const bb_report *r, double *sizes, size_t *at)
{
    double S = r->S_lazy;
    size_t n = 0;

    *at = 0;
    if (!(S > 0)) {
        sizes[n++] = 0;
        return n;
    }
    for (long k = 0; k <= 4; k++) {
        double v = (double)k * S / 2;

        if (r->ctx->q) {
            long Sq = bba_size_quanta(S, r->ctx->q->quantum_bytes);

            v = (double)((k * Sq + 1) / 2) * r->ctx->q->quantum_bytes;
        }
        if (n > 0 && sizes[n - 1] == v)
            continue;
        if (k == 2)
            *at = n;
        sizes[n++] = v;
    }
    return n;
}

/* One run at horizon hz (NULL: the simulator's own default for the fluid
 * model); exits when the simulation fails or is refused. */
static void
val_run(bb_report *r, const double *sizes, size_t n, const char *hz)
{
    char msg[BB_ERRLEN];

    bb_validation_free(&r->val);
    r->val_opts.horizon_arg = hz;
    r->val_opts.run.horizon_arg = hz;
    if (hz != NULL && bb_parse_duration(hz, &r->val_opts.run.horizon, msg, sizeof msg) != BB_OK)
        bb_die(BB_EXIT_SOFTWARE, "--validate: horizon %s: %s", hz, msg);
    r->val_rc = bb_validation_run(&r->val, r->ctx, &r->val_opts, sizes, n, VAL_TOL, r->val_msg);
    if (r->val_rc != BB_OK && !r->val.analytic_failed)   /* a run refused or failed */
        bb_die_lib(r->val_rc, r->val_msg);
}

/* The horizon text for units per replication: whole time units for the
 * discrete models, seconds for the fluid one. */
static void
fmt_horizon(const bb_report *r, char *buf, size_t len, double units)
{
    if (r->val.fluid)
        snprintf(buf, len, "%.6gs", units);
    else
        snprintf(buf, len, "%.0f", ceil(units));
}

void
bb_report_validate(bb_report *r)
{
    double sizes[5], x, R, need, D, events, secs, nt;
    size_t n, at;
    int given;
    char err[BB_ERRLEN], dur[64];
    bba_answer a;

    if (!r->o.validate)
        return;
    n = val_sizes(r, sizes, &at);
    r->val_at = at;
    bb_simopts_init(&r->val_opts);
    if (r->o.run != NULL) {
        if (r->o.run->replications > 0)
            r->val_opts.replications = r->o.run->replications;
        if (r->o.run->seed_set)
            r->val_opts.seed = r->o.run->seed;
        r->val_opts.threads = r->o.run->threads;
    }
    given = r->o.run != NULL && r->o.run->horizon_arg != NULL;
    R = (double)r->val_opts.replications;
    /* the prediction at S, and the rule's length for independent units
     * (the continuous-time model has no unit: its simulator's default) */
    x = NAN;
    if (bba_front_idle(r->ctx->front, sizes[at], &r->o.drain, &a, err) == BB_OK)
        x = a.idle;
    if (given) {
        snprintf(r->val_hz, sizeof r->val_hz, "%s", r->o.run->horizon_arg);
        val_run(r, sizes, n, r->val_hz);
    } else if (r->ctx->q && R >= 2 && bbs_units_for_verdict(x, VAL_TOL, r->val_opts.confidence,
                                                            R, 1, &need, err) == BB_OK) {
        fmt_horizon(r, r->val_hz, sizeof r->val_hz, fmax(need / R, BB_REPORT_HORIZON_MIN));
        val_run(r, sizes, n, r->val_hz);
        r->val_rule = 1;
    } else {
        val_run(r, sizes, n, r->ctx->q ? BB_REPORT_HORIZON : NULL);
    }
    if (r->val_rc != BB_OK) {
        bb_warn("--validate: %s", r->val_msg);
        return;
    }
    r->val_kind = r->val.rows[at].ag.v.kind;
    if (given || r->val_kind != BBS_INCONCLUSIVE || R < 2)
        return;
    /* inconclusive: the same rule at the dispersion the run measured (idle
     * units come in runs); below resolution, the units the verdict asks */
    D = bbs_fraction_dispersion(&r->val.rows[at].idle, R, r->val.horizon);
    if (isfinite(D) && D > 0
        && bbs_units_for_verdict(x, VAL_TOL, r->val_opts.confidence, R, D, &need, err) == BB_OK)
        need /= R;
    else
        need = r->val.horizon + r->val.rows[at].ag.v.more_units;
    if (!(need > r->val.horizon))
        return;
    r->val_first = r->val.horizon;
    r->val_rule = 1;
    r->val_disp = D;
    events = (r->val.fluid ? r->val.frun.events : r->val.run.events) * need / r->val.horizon;
    nt = r->val_opts.threads > 0 ? r->val_opts.threads : (double)bbs_replicate_threads();
    secs = events * BB_SIM_S_PER_EVENT / fmin(nt, R * (double)n);
    if (!r->val.fluid)
        need = ceil(need);
    r->val_need = need;
    r->val_need_s = secs;
    snprintf(dur, sizeof dur, "%.2g s", secs);
    if (events > bb_run_limits.max_events) {
        fmt_horizon(r, r->val_hz, sizeof r->val_hz, need);
        bb_warn("--validate: the verdict at the recommended size is inconclusive; a conclusive "
                "one needs about --horizon %s (%.3g events, about %s of CPU), beyond "
                "--max-events %.3g: run `bbsize report --validate --horizon %s --max-events "
                "%.0f` to have it", r->val_hz, events, dur, bb_run_limits.max_events,
                r->val_hz, ceil(events * 1.5));
        r->val_refused = 1;
        return;
    }
    fmt_horizon(r, r->val_hz, sizeof r->val_hz, need);
    val_run(r, sizes, n, r->val_hz);
    r->val_rerun = 1;
    if (r->val_rc != BB_OK)
        bb_warn("--validate: %s", r->val_msg);
    else
        r->val_kind = r->val.rows[at].ag.v.kind;
}
