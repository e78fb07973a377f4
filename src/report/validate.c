/* validate.c: `bbsize report --validate` (report.h bb_report_validate):
 * `bbsize validate`'s computation at 0, S/2, S, 3S/2 and 2S, its length
 * the rule's (src/valrun.h), so that the verdict at the recommended size
 * S concludes where the budget allows.
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

void
bb_report_validate(bb_report *r)
{
    const bb_validation *V = &r->val;
    double sizes[5];
    size_t n, at;
    char msg[BB_ERRLEN];

    if (!r->o.validate)
        return;
    n = val_sizes(r, sizes, &at);
    r->val_at = at;
    bb_simopts_init(&r->val_opts);
    if (r->o.run != NULL) {
        const char *hz = r->o.run->horizon_arg;

        if (r->o.run->replications > 0)
            r->val_opts.replications = r->o.run->replications;
        if (r->o.run->seed_set)
            r->val_opts.seed = r->o.run->seed;
        r->val_opts.threads = r->o.run->threads;
        r->val_opts.horizon_arg = hz;
        r->val_opts.run.horizon_arg = hz;
        if (hz != NULL
            && bb_parse_duration(hz, &r->val_opts.run.horizon, msg, sizeof msg) != BB_OK)
            bb_die(BB_EXIT_SOFTWARE, "--validate: horizon %s: %s", hz, msg);
    }
    /* validate's computation, its length the rule's without --horizon */
    r->val_rc = bb_validation_run(&r->val, r->ctx, &r->val_opts, sizes, n, VAL_TOL, r->val_msg);
    if (r->val_rc != BB_OK && !V->analytic_failed)   /* a run refused or failed */
        bb_die_lib(r->val_rc, r->val_msg);
    if (r->val_rc != BB_OK) {
        bb_warn("--validate: %s", r->val_msg);
        return;
    }
    r->val_kind = V->rows[at].ag.v.kind;
    r->val_hint[0] = '\0';
    if (!V->auto_horizon || !(V->need[at] > 0))
        return;
    /* still inconclusive at S: the options that would run the rule's length */
    {
        double H = V->fluid ? V->need[at] : ceil(V->need[at]);
        double secs = bb_validation_cpu_s(V, H);
        double ev = secs / (V->fluid ? BB_FLUID_S_PER_EVENT : BB_SIM_S_PER_EVENT);
        int k = snprintf(r->val_hint, sizeof r->val_hint, "--horizon %.0f%s", ceil(H),
                         V->fluid ? "s" : "");

        if (ev > bb_run_limits.max_events && k > 0 && (size_t)k < sizeof r->val_hint)
            snprintf(r->val_hint + k, sizeof r->val_hint - (size_t)k, " --max-events %.0f",
                     ceil(ev * 1.5));
        bb_warn("--validate: the verdict at the recommended size is inconclusive; a conclusive "
                "one needs about %.6g %s a replication (about %.2g s of CPU): run `bbsize "
                "report --validate %s` to have it", H, V->fluid ? "s" : "time units", secs,
                r->val_hint);
    }
}
