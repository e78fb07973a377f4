/* valrun.c: the analytic side, the simulation and the verdicts of
 * `bbsize validate` (valrun.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "valrun.h"

typedef struct {
    const bb_ctx *ctx;
    const bb_simrun *run;
} eval_ctx;

/* One answer of the front door per size, as units of the thread pool (a
 * front is read-only), stored by index. */
static int
eval_unit(size_t k, void *result, const void *vctx, char *err)
{
    const eval_ctx *ec = vctx;
    const bbs_bb_config *c = &ec->run->cfg[k];
    double q = ec->ctx->q->quantum_bytes;
    bb_valrow *r = result;
    bba_drain d = { c->pol.lazy, 1, (double)c->pol.threshold * q, c->pol.eps };
    bba_answer a;
    int rc = bba_front_idle(ec->ctx->front, (double)c->S * q, &d, &a, err);

    if (rc != BB_OK)
        return rc;
    r->S = c->S;
    r->analytic = a.idle;
    r->quiet_analytic = a.quiet;
    r->bb_in_analytic = a.bb_write_Bps * ec->ctx->pf.time_unit_s / q;
    return BB_OK;
}

int
bb_validation_run(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o, const long *S,
                  size_t n, double tol, char *err)
{
    eval_ctx ec;
    int rc;

    memset(V, 0, sizeof *V);
    bb_sim_prepare(&V->run, ctx, o, S, n);
    V->rows = calloc(n, sizeof *V->rows);
    if (V->rows == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory (%zu rows)", n);
    V->n = n;
    /* The analytic side first: it refuses what it cannot solve before the
     * simulation starts. */
    ec.ctx = ctx;
    ec.run = &V->run;
    rc = bbs_replicate_run(n, sizeof *V->rows, V->rows, eval_unit, &ec, o->threads, NULL, NULL,
                           err);
    if (rc != BB_OK)
        return rc;
    bb_sim_execute(&V->run, ctx, o);
    for (size_t k = 0; k < n; k++) {
        const bbs_bb_summary *s = &V->run.sum[k];
        /* The interval is made for a fraction (bbs_ci_fraction): no idle
         * unit at all in N simulated units gives the Clopper-Pearson [0,
         * about 3.7/N at 95%]: a 1e-6 prediction cannot be resolved by
         * 15,000 units, and the verdict says so rather than agreeing. */
        bbs_ci ci = { s->idle_mean, s->idle_lo, s->idle_hi, 0.5 * (s->idle_hi - s->idle_lo),
                      s->level, (uint64_t)s->replications };

        rc = bbs_agreement_judge(V->rows[k].analytic, &ci, (double)o->replications,
                                 (double)V->run.horizon_units, tol, &V->rows[k].ag, err);
        if (rc != BB_OK)
            return rc;
        V->n_agree += V->rows[k].ag.v.kind == BBS_AGREES;
        V->n_inconclusive += V->rows[k].ag.v.kind == BBS_INCONCLUSIVE;
    }
    return BB_OK;
}

void
bb_validation_free(bb_validation *V)
{
    free(V->rows);
    bb_simrun_free(&V->run);
    memset(V, 0, sizeof *V);
}
