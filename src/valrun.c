/* valrun.c: the analytic side, the simulation and the verdicts of
 * `bbsize validate` (valrun.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "valrun.h"

typedef struct {
    const bb_ctx *ctx;
    const double *S;
    const bbs_plat_runs *run;
} eval_ctx;

/* One answer of the front door per size under its discrete
 * configuration's policy, as units of the thread pool (a front is
 * read-only), stored by index (the fluid model's: sim/replicate.c). */
static int
eval_unit(size_t k, void *result, const void *vctx, char *err)
{
    const eval_ctx *ec = vctx;
    const bbs_bb_config *c = &ec->run->cfg[k];
    double q = ec->ctx->q->quantum_bytes;
    bb_drain d = { .kind = c->pol.kind, .unit = BB_DRAIN_BYTES, .threshold = c->pol.threshold * q,
                   .eps = c->pol.eps };

    return bbs_valrow_predict(result, ec->ctx->front, ec->S[k], &d, err);
}

/* agreements and inconclusive rows, of both models */
static void
count_verdicts(bb_validation *V)
{
    for (size_t k = 0; k < V->n; k++) {
        V->n_agree += V->rows[k].ag.v.kind == BBS_AGREES;
        V->n_inconclusive += V->rows[k].ag.v.kind == BBS_INCONCLUSIVE;
    }
}

int
bb_validation_fluid(bb_validation *V, bb_fluid_report *rep, int rc, char *err)
{
    const bbs_fluidplat_runs *run = &V->frun;
    char hs[64], ws[64];

    (void)err;
    bb_sim_report_end(&rep->rep);
    V->fluid = 1;
    V->rows = V->frun.val;
    V->n = V->frun.nsizes;
    V->analytic_failed = V->frun.analytic_failed;
    if (rc != BB_OK)
        return rc;
    V->replications = (long)run->replications;
    V->horizon = run->horizon_s;
    V->wall_s = run->wall_s;
    bb_fmt_duration(hs, sizeof hs, run->horizon_s);
    bb_fmt_duration(ws, sizeof ws, run->warmup_s);
    snprintf(V->how, sizeof V->how, "%zu replications x %s after a warm-up of %s",
             run->replications, hs, ws);
    count_verdicts(V);
    return BB_OK;
}

/* The discrete simulation's default horizon (crosscheck.h
 * bbs_horizon_plan_make): long enough to resolve every prediction that
 * fits the automatic budget, so that a default run is conclusive where it
 * can be; V->run is prepared again at that horizon.  Nothing to do when
 * --horizon was given. */
static int
plan_horizon(bb_validation *V, bbs_plat_question *qn, const bb_simopts *o, double tol,
             char *err)
{
    size_t n = V->n;
    double *x, per_unit, budget, cap, R = (double)o->replications;
    long W = V->run.warmup_units;
    int rc;

    if (o->horizon_arg != NULL || n == 0)
        return BB_OK;
    x = malloc(n * sizeof *x);
    if (x == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory (%zu rows)", n);
    for (size_t k = 0; k < n; k++)
        x[k] = fmin(fmax(V->rows[k].analytic, 0.0), 1.0);
    /* events per simulated unit, from the prepared run's estimate */
    per_unit = V->run.events / ((double)n * R * (double)(V->run.horizon_units + W));
    cap = fmin(BBS_VALIDATE_AUTO_EVENTS, qn->run.max_events > 0 ? qn->run.max_events
                                                                  : BBS_VALIDATE_AUTO_EVENTS);
    budget = cap / ((double)n * R * per_unit) - (double)W;
    V->events_per_unit = per_unit;
    V->budget_units = budget;
    V->auto_horizon = 1;
    if (!(budget >= (double)V->run.horizon_units))
        budget = (double)V->run.horizon_units;   /* the old default: the bound decides */
    rc = bbs_horizon_plan_make(x, n, V->cluster, o->confidence, tol, R,
                               (double)V->run.horizon_units, budget, &V->plan, err);
    free(x);
    if (rc != BB_OK || V->plan.horizon_units <= (double)V->run.horizon_units)
        return rc;
    bbs_plat_free(&V->run);
    qn->horizon = (bbs_span){ V->plan.horizon_units, 0 };
    return bbs_plat_prepare(&V->run, qn, err);
}

/* The discrete simulation at V->run's horizon, into the rows. */
static int
simulate_discrete(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o,
                  bbs_plat_question *qn, bb_sim_report *rep, char *err)
{
    char tus[64];
    int rc = bbs_plat_execute(&V->run, qn, err);

    bb_sim_report_end(rep);
    if (rc != BB_OK)
        return rc;
    for (size_t k = 0; k < V->n; k++) {
        const bbs_bb_summary *s = &V->run.sum[k];
        double perq = ctx->q->quantum_bytes / ctx->pf.time_unit_s;

        /* The interval is made for a fraction (bbs_ci_fraction): no idle
         * unit at all in N simulated units gives the Clopper-Pearson [0,
         * about 3.7/N at 95%], widened for the stalls' runs when the row
         * is judged: a 1e-6 prediction cannot be resolved by 15,000 units,
         * and the verdict says so rather than agreeing. */
        V->rows[k].idle = (bbs_ci){ s->idle_mean, s->idle_lo, s->idle_hi,
                                    0.5 * (s->idle_hi - s->idle_lo), s->level,
                                    (uint64_t)s->replications };
        V->rows[k].quiet_mean = s->quiet_mean;
        V->rows[k].bb_in_Bps = (bbs_ci){ s->bb_in_mean * perq, s->bb_in_lo * perq,
                                         s->bb_in_hi * perq,
                                         0.5 * (s->bb_in_hi - s->bb_in_lo) * perq,
                                         s->level, (uint64_t)s->replications };
    }
    V->replications = o->replications;
    V->horizon = (double)V->run.horizon_units;
    V->wall_s += V->run.wall_s;
    bb_fmt_duration(tus, sizeof tus, ctx->pf.time_unit_s);
    snprintf(V->how, sizeof V->how, "%ld replications x %ld time units of %s",
             o->replications, V->run.horizon_units, tus);
    return BB_OK;
}

/* Every row's verdict (crosscheck.h), the stalls' runs counted. */
static int
judge(bb_validation *V, double tol, char *err)
{
    V->n_agree = V->n_inconclusive = 0;
    for (size_t k = 0; k < V->n; k++) {
        int rc = bbs_agreement_judge_clustered(V->rows[k].analytic, &V->rows[k].idle,
                                               (double)V->replications, V->horizon,
                                               V->cluster, tol, &V->rows[k].ag, err);

        if (rc != BB_OK)
            return rc;
    }
    count_verdicts(V);
    return BB_OK;
}

int
bb_validation_run(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o, const double *S,
                  size_t n, double tol, char *err)
{
    eval_ctx ec;
    bbs_plat_question qn;
    bb_sim_report rep;
    int rc;

    memset(V, 0, sizeof *V);
    if (bba_front_kind(ctx->front) == BBA_MODEL_FLUID) {
        bbs_fluidplat_question fq;
        bb_fluid_report frep;

        bb_fluid_question(&fq, &frep, o, &ctx->opt->out, n > 1 ? "validate" : "simulate");
        fq.in = BB_FLUID_INPUTS(ctx, S, n);
        frep.ctx = ctx;
        frep.run = &V->frun;
        rc = bbs_fluidplat_validate(&V->frun, &fq, ctx->front, tol, err);
        return bb_validation_fluid(V, &frep, rc, err);
    }
    V->rows = calloc(n, sizeof *V->rows);
    if (V->rows == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory (%zu rows)", n);
    V->n = n;
    memset(&ec, 0, sizeof ec);
    ec.ctx = ctx;
    ec.S = S;
    /* the simulator's entry, as simulate's: one configuration per size */
    bb_sim_question(&qn, &rep, o, &ctx->opt->out, n > 1 ? "validate" : "simulate");
    qn.q = ctx->q;
    qn.apps = ctx->wl.apps;
    qn.source = ctx->wl.source;
    qn.time_unit_s = ctx->pf.time_unit_s;
    qn.S_bytes = S;
    qn.nsizes = n;
    if ((rc = bbs_plat_prepare(&V->run, &qn, err)) != BB_OK)
        return rc;
    ec.run = &V->run;
    /* how the simulated stalls cluster (crosscheck.h): the onoff mode
     * keeps the bursts, the others draw afresh every unit */
    V->cluster = bbs_stall_cluster(ctx->q->n, ctx->q->b, ctx->q->p,
                                   o->mode == BBS_BB_ONOFF ? ctx->q->burst_tu : NULL, ctx->q->B);
    /* The analytic side first: it refuses what it cannot solve before the
     * simulation starts, and sizes the default horizon. */
    rc = bbs_replicate_run(n, sizeof *V->rows, V->rows, eval_unit, &ec, o->threads, NULL, NULL,
                           err);
    if (rc != BB_OK) {
        V->analytic_failed = 1;
        return rc;
    }
    if ((rc = plan_horizon(V, &qn, o, tol, err)) != BB_OK
        || (rc = simulate_discrete(V, ctx, o, &qn, &rep, err)) != BB_OK
        || (rc = judge(V, tol, err)) != BB_OK)
        return rc;
    /* One extension when the plan's clustering was too optimistic: a
     * row it meant to resolve is inside a wider interval; the
     * replications' spread says how much longer (within the budget). */
    double more = 0;

    for (size_t k = 0; V->auto_horizon && k < n; k++)
        if (V->rows[k].ag.v.kind == BBS_INCONCLUSIVE && V->plan.resolved > 0
            && V->rows[k].analytic >= V->plan.resolved && V->rows[k].ag.v.more_units > more)
            more = V->rows[k].ag.v.more_units;
    if (more > 0 && V->horizon < V->budget_units) {
        double H = fmin(ceil(1.2 * (V->horizon + more)), floor(V->budget_units));

        bbs_plat_free(&V->run);
        qn.horizon = (bbs_span){ H, 0 };
        V->plan.horizon_units = H;
        V->extended = 1;
        if ((rc = bbs_plat_prepare(&V->run, &qn, err)) != BB_OK
            || (rc = simulate_discrete(V, ctx, o, &qn, &rep, err)) != BB_OK
            || (rc = judge(V, tol, err)) != BB_OK)
            return rc;
    }
    return BB_OK;
}

void
bb_validation_free(bb_validation *V)
{
    if (!V->fluid) {
        free(V->rows);
        bbs_plat_free(&V->run);
    } else {
        bbs_fluidplat_free(&V->frun);   /* and its rows */
    }
    memset(V, 0, sizeof *V);
}
