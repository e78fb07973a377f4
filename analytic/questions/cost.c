/* cost.c: the cost of an analytic question before it is solved (cost.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "bb_error.h"
#include "cost.h"
#include "effbw.h"
#include "onoff.h"

/* The damped power steps that relax the ON/OFF chain's slowest phase mode
 * to the residual target tol (cost.h). */
static double
slowest_class(const bba_onoff *o)
{
    double worst = 1;

    for (size_t c = 0; c < o->n_classes; c++) {
        double t = o->L[c] * (1.0 - o->p[c]);

        if (t > worst)
            worst = t;
    }
    return worst;
}

/* The level walk's relaxation in time units at buffer size S quanta
 * (cost.h): 1 / (mu^2 / (2 sigma^2) + pi^2 sigma^2 / S^2), mu = B - E the
 * drift, sigma^2 the load's asymptotic variance per unit (a class of
 * mean ON run L and Pr(ON) p adds N b^2 p (1 - p) (2 L (1 - p) - 1), a
 * memoryless application b^2 p (1 - p)). */
static double
walk_units(const bba_onoff *o, double S)
{
    double var = 0, mu = (double)o->B - o->mean_load, rate = 0;

    for (size_t c = 0; c < o->n_classes; c++) {
        double p = o->p[c], b = (double)o->b[c], f = 2.0 * o->L[c] * (1.0 - p) - 1.0;

        var += (double)o->N[c] * b * b * p * (1.0 - p) * (f > 1 ? f : 1);
    }
    for (size_t i = 0; i < o->n0; i++)
        var += (double)o->b0[i] * (double)o->b0[i] * o->p0[i] * (1.0 - o->p0[i]);
    if (!(var > 0))
        return 0;
    if (mu > 0)
        rate += mu * mu / (2.0 * var);
    if (S > 0)
        rate += M_PI * M_PI * var / (S * S);
    /* no rate: S = 0 with no negative drift, one level and no walk to
     * relax (it was INFINITY: a sweep from 0 of an overloaded workload
     * was refused at "inf operations" where idle answers each size) */
    return rate > 0 ? 1.0 / rate : 0;
}

/* pol with its threshold in quanta at a buffer of S quanta, for the
 * chain's step count: a fraction of S, quanta as they are, bytes (no
 * quantum here) at S / 2, as the threshold search costs its solves. */
static bb_drain
quanta_policy(const bb_drain *pol, long S)
{
    double t;

    if (pol == NULL || pol->kind != BB_DRAIN_LAZY)
        return bb_drain_greedy(1.0);
    t = pol->unit == BB_DRAIN_QUANTA ? pol->threshold
        : pol->unit == BB_DRAIN_FRACTION ? pol->threshold * (double)S : 0.5 * (double)S;
    return bb_drain_lazy(BB_DRAIN_QUANTA, floor(t), pol->eps);
}

/* log E[e^(t (X - B))] of the load law d, as a log-sum-exp. */
static double
excess_lmgf(const bba_model *m, const double *d, double t)
{
    double mx = -INFINITY, s = 0;

    for (long k = 0; k <= m->M; k++)
        if (d[k] > 0 && t * (double)(k - m->B) > mx)
            mx = t * (double)(k - m->B);
    for (long k = 0; k <= m->M; k++)
        if (d[k] > 0)
            s += d[k] * exp(t * (double)(k - m->B) - mx);
    return mx + log(s);
}

/* theta*, per quantum, of the Bernoulli chain: the positive root of
 * log sum_k dist[k] e^(theta (k - B)) = 0 (Chernoff; Cramer-Lundberg),
 * by bisection on the log-sum-exp.  0 when there is none (E >= B) and
 * INFINITY when no load exceeds B. */
static double
decay_bernoulli(const bba_model *m)
{
    const double *d = m->dist0 ? m->dist0 : m->dist;
    double lo = 0, hi = 1;
    long top = -1;

    for (long k = m->M; k > m->B; k--)
        if (d[k] > 0) {
            top = k;
            break;
        }
    if (top < 0)
        return INFINITY;
    if (!(m->mom.mean < (double)m->B))
        return 0;
    while (!(excess_lmgf(m, d, hi) > 0 || hi > 1e6)) {   /* bracket the root */
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 100 && hi - lo > 1e-13 * hi; it++) {
        double t = 0.5 * (lo + hi);

        if (excess_lmgf(m, d, t) > 0)
            hi = t;
        else
            lo = t;
    }
    return 0.5 * (lo + hi);
}

double
bba_cost_decay(const bba_model *m)
{
    double theta;
    char err[BB_ERRLEN];

    if (m->onoff == NULL)
        return decay_bernoulli(m);
    return bba_effbw_decay(m->onoff, &theta, err) == BB_OK ? theta : 0;
}

void
bba_cost_eval(const bba_model *m, long S, const bba_solver_opts *so, const bb_drain *pol,
              bba_cost *c)
{
    bba_cost_eval_decay(m, S, so, pol, so->kind == BBA_SOLVER_FFT && m->onoff == NULL
                                           ? bba_cost_decay(m) : 0, c);
}

void
bba_cost_eval_decay(const bba_model *m, long S, const bba_solver_opts *so, const bb_drain *pol,
                    double theta, bba_cost *c)
{
    int lazy = pol != NULL && pol->kind == BB_DRAIN_LAZY && pol->threshold > 0;
    double N = (double)S + (double)m->M + 1.0;
    double w = (double)(m->B > m->M - m->B ? m->B : m->M - m->B) + 1.0;
    double gth = ((double)S + 1.0) * w * w;   /* banded GTH (cost.h) */

    c->S_quanta = (double)S;
    c->states = N;
    c->evaluations = 1;
    c->power_steps = 0;
    c->burst_units = 0;
    c->walk_units = 0;
    if (m->onoff != NULL) {
        const bba_onoff *o = m->onoff;
        bb_drain pq = quanta_policy(pol, S);
        double steps;

        c->states = ((double)S + 1.0) * (double)o->n_phases;
        c->burst_units = slowest_class(o);
        c->walk_units = walk_units(o, (double)S);
        /* the slower of the phase mode and the level walk, whose steps
         * are damped (BBA_COST_SMOOTH_DAMP) */
        steps = fmax(c->burst_units, c->walk_units / BBA_COST_SMOOTH_DAMP);
        if (!(c->walk_units / BBA_COST_SMOOTH_DAMP > c->burst_units))
            c->walk_units = 0;   /* the phases decide: the message names them */
        c->power_steps = log(1.0 / (so->tol > 0 && so->tol < 1 ? so->tol : 1e-13)) * steps;
        c->ops = c->power_steps * ((double)S + 1.0)
                 * (bba_onoff_step_ops(o, S, &pq, NULL) + (double)o->M + 1.0);
        return;
    }
    switch (so->kind) {
    case BBA_SOLVER_FFT:
        /* two regions under a lazy threshold (cost.h) */
        c->ops = (lazy ? 2.0 * BBA_COST_FFT_LAZY_STEPS : BBA_COST_FFT_STEPS) * 5.0 * N
                 * log2(N + 1.0);
        if (!so->no_fallback && !(theta * (double)S < BBA_COST_UNDERFLOW))
            /* GMRES stalls where the idle fraction underflows, and banded
             * GTH answers */
            c->ops += gth;
        break;
    case BBA_SOLVER_BANDED:
        c->ops = gth;
        break;
    default:
        c->ops = N * w;
        break;
    }
}

void
bba_cost_search(const bba_model *m, double target, const bb_drain *ps,
                const bba_solver_opts *so, bba_cost *c)
{
    double theta, S, span, evals;

    theta = bba_cost_decay(m);
    if (!(theta > 0) || !isfinite(theta) || !(target > 0 && target < 1)) {
        bba_cost_eval(m, 0, so, ps, c);
        return;
    }
    S = log(1.0 / target) / theta;
    if (ps->kind == BB_DRAIN_LAZY && ps->threshold < 1)
        S /= 1.0 - ps->threshold;
    else if (ps->kind == BB_DRAIN_LAZY)
        S *= 4;   /* the search stops when doubling no longer helps */
    span = (double)(m->B > m->M - m->B ? m->B : m->M - m->B);
    evals = 6 + (S > span ? 2.0 * log2(S / span) : 0);
    bba_cost_eval_decay(m, S < 9e18 ? (long)S : (long)9e18, so, ps, theta, c);
    c->S_quanta = S;
    c->evaluations = (int)evals;
    c->ops *= evals;
}

int
bba_cost_check(const bba_model *m, const bba_cost *c, double max_ops, const char *what,
               char *err)
{
    if (!(max_ops > 0) || c->ops <= max_ops)
        return BB_OK;
    if (c->power_steps > 0 && c->walk_units > 0)
        return bb_seterr(err, BB_ETOOBIG,
                         "%s would take about %.2g operations (%d solve%s of the ON/OFF chain at "
                         "up to %.3g quanta, %.3g states, each %.3g power steps to relax the "
                         "buffer level's walk over %.3g time units, bursts of up to %.3g), more "
                         "than the bound of %.3g: use a coarser time unit (bursts of fewer "
                         "units), use the fluid model, or raise the operation bound", what,
                         c->ops, c->evaluations, c->evaluations == 1 ? "" : "s", c->S_quanta,
                         c->states, c->power_steps, c->walk_units, c->burst_units, max_ops);
    if (c->power_steps > 0)
        return bb_seterr(err, BB_ETOOBIG,
                         "%s would take about %.2g operations (%d solve%s of the ON/OFF chain at "
                         "up to %.3g quanta, %.3g states, each %.3g power steps to relax bursts "
                         "of up to %.3g time units), more than the bound of %.3g: use a coarser "
                         "time unit (bursts of fewer units), use the fluid model, or raise "
                         "the operation bound", what, c->ops, c->evaluations,
                         c->evaluations == 1 ? "" : "s", c->S_quanta, c->states,
                         c->power_steps, c->burst_units, max_ops);
    (void)m;
    return bb_seterr(err, BB_ETOOBIG,
                     "%s would take about %.2g operations (%d solve%s at up to %.3g quanta, "
                     "%.3g states), more than the bound of %.3g: lower the resolution, "
                     "raise the target idle fraction or lower the lazy threshold (a lazy "
                     "buffer sized over its greedy part only), or raise the operation bound", what, c->ops, c->evaluations,
                     c->evaluations == 1 ? "" : "s", c->S_quanta, c->states, max_ops);
}

int
bba_cost_settle(const bba_model *m, double target, const bb_drain *ps,
                const bba_solver_opts *so, long R, long R_max, char *err)
{
    bba_cost c;
    double levels = 1;
    char what[200];

    if (!(so->max_ops > 0))
        return BB_OK;
    bba_cost_search(m, target, ps, so, &c);
    for (long r = R; r < R_max; r *= 2)
        levels = 2 * levels + 1;
    c.ops *= levels;
    snprintf(what, sizeof what, "settling the resolution (a size search at R = %ld, %ld, ... "
             "up to %ld; a resolution given answers at that resolution alone)", R, 2 * R, R_max);
    return bba_cost_admit(m, &c, so, what, err);
}

int
bba_cost_admit(const bba_model *m, const bba_cost *c, const bba_solver_opts *so,
               const char *what, char *err)
{
    int rc = bba_cost_check(m, c, so->max_ops, what, err);

    if (rc == BB_OK && so->announce != NULL)
        so->announce(so->announce_ctx, c->ops);
    return rc;
}

int
bba_cost_fluid(double phases, double flops, const bba_solver_opts *so, char *err)
{
    if (so->max_ops > 0 && !(flops <= so->max_ops))
        return bb_seterr(err, BB_ETOOBIG,
                         "the fluid model would take about %.2g operations (%.3g phases: its "
                         "spectrum and a size search), more than the bound of %.3g: fewer "
                         "distinct bursty applications, or raise the operation bound",
                         flops, phases, so->max_ops);
    if (so->announce != NULL && isfinite(flops))
        so->announce(so->announce_ctx, flops);
    return BB_OK;
}

int
bba_cost_dist(size_t n, long M, long rows, const bba_solver_opts *so, char *err)
{
    double ops = (double)n * ((double)M + 1.0) + (double)rows * BBA_COST_DIST_ROW;

    if (so->max_ops > 0 && !(ops <= so->max_ops)) {
        if (rows > 0)
            return bb_seterr(err, BB_ETOOBIG,
                             "the load distribution's %ld rows would take about %.2g "
                             "operations, more than the bound of %.3g: lower the resolution "
                             "(fewer, coarser loads), or raise the operation bound", rows, ops,
                             so->max_ops);
        return bb_seterr(err, BB_ETOOBIG,
                         "the load distribution would take about %.2g operations (%zu "
                         "applications over %.3g loads), more than the bound of %.3g: lower "
                         "the resolution, or raise the operation bound", ops, n,
                         (double)M + 1.0, so->max_ops);
    }
    /* the model's own build is part of the solves announced after it */
    if (rows > 0 && so->announce != NULL)
        so->announce(so->announce_ctx, ops);
    return BB_OK;
}
