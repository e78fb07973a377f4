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

/* The events of one size and replication per simulated unit (s), and
 * the run's budget per replication: BBS_VALIDATE_AUTO_EVENTS, or the run
 * bound when lower, over the sizes and replications, less the warm-up. */
static void
set_budget(bb_validation *V, double events, double horizon, double warmup, double max_events)
{
    double R = (double)V->replications, nR = (double)V->n * R, cap;

    cap = fmin(BBS_VALIDATE_AUTO_EVENTS, max_events > 0 ? max_events : BBS_VALIDATE_AUTO_EVENTS);
    V->budget_events = cap;
    V->warmup = warmup;
    V->events_per_unit = horizon + warmup > 0 ? events / (nR * (horizon + warmup)) : 0;
    V->budget_units = V->events_per_unit > 0 ? cap / (nR * V->events_per_unit) - warmup
                                             : INFINITY;
}

double
bb_validation_cpu_s(const bb_validation *V, double units)
{
    return V->events_per_unit * (units + V->warmup) * (double)V->n * (double)V->replications
           * (V->fluid ? BB_FLUID_S_PER_EVENT : BB_SIM_S_PER_EVENT);
}

/* The rule's length for every row after a run at tolerance tol
 * (crosscheck.h bbs_rerun_units), into V->need and V->disp, the rows
 * still inconclusive counted (V->unresolved); returns the longest need
 * beyond the run and within the budget (whole units), 0 when none. */
static double
needs(bb_validation *V, double tol)
{
    double H = 0;

    V->unresolved = 0;
    V->unresolved_units = 0;
    for (size_t k = 0; k < V->n; k++) {
        const bb_valrow *w = &V->rows[k];
        double D, need = bbs_rerun_units(w->analytic, &w->idle, w->ag.v.kind,
                                         (double)V->replications, V->horizon, tol, V->cluster,
                                         &D);

        V->need[k] = need;
        if (!(need > 0))
            continue;
        V->disp[k] = D;
        V->unresolved++;
        V->unresolved_units = fmax(V->unresolved_units, need);
        if (need > V->horizon && need <= V->budget_units)
            H = fmax(H, need);
    }
    return H > 0 ? ceil(H) : 0;
}

static int
need_arrays(bb_validation *V, char *err)
{
    V->need = calloc(V->n ? V->n : 1, sizeof *V->need);
    V->disp = malloc((V->n ? V->n : 1) * sizeof *V->disp);
    if (V->need == NULL || V->disp == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory (%zu rows)", V->n);
    for (size_t k = 0; k < V->n; k++)
        V->disp[k] = NAN;
    return BB_OK;
}

/* agreements and inconclusive rows, of both models */
static void
count_verdicts(bb_validation *V)
{
    V->n_agree = V->n_inconclusive = 0;
    for (size_t k = 0; k < V->n; k++) {
        V->n_agree += V->rows[k].ag.v.kind == BBS_AGREES;
        V->n_inconclusive += V->rows[k].ag.v.kind == BBS_INCONCLUSIVE;
    }
}

/* V from the fluid entry's runs (status rc). */
static int
fluid_fill(bb_validation *V, int rc)
{
    const bbs_fluidplat_runs *run = &V->frun;
    char hs[64], ws[64];

    V->fluid = 1;
    V->cluster = 1;   /* the fluid judge's: seconds counted as independent */
    V->rows = V->frun.val;
    V->n = V->frun.nsizes;
    V->analytic_failed = V->frun.analytic_failed;
    if (rc != BB_OK)
        return rc;
    V->replications = (long)run->replications;
    V->horizon = run->horizon_s;
    V->wall_s += run->wall_s;
    bb_fmt_duration(hs, sizeof hs, run->horizon_s);
    bb_fmt_duration(ws, sizeof ws, run->warmup_s);
    snprintf(V->how, sizeof V->how, "%zu replications x %s after a warm-up of %s",
             run->replications, hs, ws);
    count_verdicts(V);
    return BB_OK;
}

int
bb_validation_fluid(bb_validation *V, const bbs_fluidplat_question *fq, bb_fluid_report *rep,
                    const bba_front *front, double tol, int rc, char *err)
{
    bbs_fluidplat_question again;
    double H;

    bb_sim_report_end(&rep->rep);
    if ((rc = fluid_fill(V, rc)) != BB_OK || fq->horizon_given)
        return rc;
    /* the simulator's own length was the first run: the rule at the
     * dispersions it measured, once */
    V->auto_horizon = 1;
    set_budget(V, V->frun.events, V->frun.horizon_s, V->frun.warmup_s, fq->run.max_events);
    if ((rc = need_arrays(V, err)) != BB_OK || (H = needs(V, tol)) == 0)
        return rc;
    again = *fq;
    again.horizon_given = 1;
    again.horizon_s = H;
    V->first_horizon = V->horizon;
    V->extended = 1;
    bbs_fluidplat_free(&V->frun);
    rc = bbs_fluidplat_validate(&V->frun, &again, front, tol, err);
    bb_sim_report_end(&rep->rep);
    if ((rc = fluid_fill(V, rc)) == BB_OK)
        needs(V, tol);
    return rc;
}

/* The discrete simulation's first horizon (crosscheck.h
 * bbs_horizon_plan_make): long enough to resolve every prediction that
 * fits the automatic budget, so that a default run is conclusive where it
 * can be; V->run is prepared again at that horizon.  Nothing to do when
 * --horizon was given. */
static int
plan_horizon(bb_validation *V, bbs_plat_question *qn, const bb_simopts *o, double tol,
             char *err)
{
    size_t n = V->n;
    double *x, budget, R = (double)o->replications;
    int rc;

    if (o->horizon_arg != NULL || n == 0)
        return BB_OK;
    x = malloc(n * sizeof *x);
    if (x == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory (%zu rows)", n);
    for (size_t k = 0; k < n; k++)
        x[k] = fmin(fmax(V->rows[k].analytic, 0.0), 1.0);
    V->replications = o->replications;
    /* events per simulated unit, from the prepared run's estimate */
    set_budget(V, V->run.events, (double)V->run.horizon_units, (double)V->run.warmup_units,
               qn->run.max_events);
    V->auto_horizon = 1;
    budget = V->budget_units;
    if (!(budget >= (double)V->run.horizon_units))
        budget = (double)V->run.horizon_units;   /* the least: the bound decides */
    rc = bbs_horizon_plan_make(x, n, V->cluster, o->confidence, tol, R,
                               (double)V->run.horizon_units, budget, &V->plan, err);
    free(x);
    if (rc == BB_OK)
        rc = need_arrays(V, err);
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

/* One discrete run at V->run's horizon: simulated, then judged. */
static int
run_discrete(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o, bbs_plat_question *qn,
             bb_sim_report *rep, double tol, char *err)
{
    int rc = simulate_discrete(V, ctx, o, qn, rep, err);

    return rc != BB_OK ? rc : judge(V, tol, err);
}

int
bb_validation_run(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o, const double *S,
                  size_t n, double tol, char *err)
{
    eval_ctx ec;
    bbs_plat_question qn;
    bb_sim_report rep;
    double H;
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
        return bb_validation_fluid(V, &fq, &frep, ctx->front, tol, rc, err);
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
        || (rc = run_discrete(V, ctx, o, &qn, &rep, tol, err)) != BB_OK
        || !V->auto_horizon || (H = needs(V, tol)) == 0)
        return rc;
    /* the one re-run: the rule at the dispersions measured, in budget */
    bbs_plat_free(&V->run);
    qn.horizon = (bbs_span){ H, 0 };
    V->first_horizon = V->horizon;
    V->extended = 1;
    if ((rc = bbs_plat_prepare(&V->run, &qn, err)) != BB_OK
        || (rc = run_discrete(V, ctx, o, &qn, &rep, tol, err)) != BB_OK)
        return rc;
    needs(V, tol);
    return BB_OK;
}

void
bb_validation_free(bb_validation *V)
{
    free(V->need);
    free(V->disp);
    if (!V->fluid) {
        free(V->rows);
        bbs_plat_free(&V->run);
    } else {
        bbs_fluidplat_free(&V->frun);   /* and its rows */
    }
    memset(V, 0, sizeof *V);
}
