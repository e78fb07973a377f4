/* answer.c: the front door (answer.h): model choice, the continuous-time
 * model, and the answers in the user's units (the discrete models and the
 * resolution's settling: front_discrete.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "front.h"
#include "bb_error.h"
#include "bbbw.h"
#include "cost.h"
#include "effbw.h"
#include "fluid.h"
#include "fluid_approx.h"
#include "fluid_apps.h"
#include "onoff.h"
#include "quanta.h"


const char *
bba_model_kind_name(bba_model_kind k)
{
    switch (k) {
    case BBA_MODEL_AUTO: return "auto";
    case BBA_MODEL_BERNOULLI: return "Bernoulli";
    case BBA_MODEL_CHAIN: return "chain";
    case BBA_MODEL_FLUID: return "fluid";
    }
    return "unknown";
}

void
bba_question_init(bba_question *q)
{
    memset(q, 0, sizeof *q);
    q->model = BBA_MODEL_AUTO;
    bba_solver_defaults(&q->so);
    q->so.tol = 1e-12;
    q->target = 1e-3;
    q->drain.eps = 0.01;
}

/* ---- the continuous-time model ------------------------------------------- */

/* The flops of the model of classes c under o and one size search,
 * costed before anything is built (cost.h): the exact model, or the
 * folded ones (the primary and its variants, fluid_approx.h), each of
 * BBA_FLUID_APPROX_PHASES at most, the flops going as P^3; *phases the
 * workload's own. */
static double
fluid_flops(const bba_fluid_class *c, size_t nc, const bba_fluid_opts *o, double *phases)
{
    double flops = 0;

    bba_fluid_estimate(c, nc, o, phases, NULL, &flops);
    if (*phases > BBA_FLUID_EXACT_PHASES) {
        /* each folded model costs as one of BBA_FLUID_APPROX_PHASES phases
         * with the workload's peak (which decides a dense spectrum); the
         * workload's own estimate may overflow */
        double peak = 0, Pa;
        bba_fluid_class one = { 0, 0.5, 1.0, BBA_FLUID_APPROX_PHASES - 1 };

        for (size_t i = 0; i < nc; i++)
            peak += c[i].count * c[i].rate_Bps;
        one.rate_Bps = peak / one.count;
        bba_fluid_estimate(&one, 1, o, &Pa, NULL, &flops);
        flops *= BBA_FLUID_APPROX_MODELS;
    }
    return flops;
}

/* The applications as fluid sources (fluid_apps.h), counted: the classes
 * that switch and the memoryless copies among them. */
static int
fluid_build(bba_front *f, char *err)
{
    const bba_question *q = &f->q;
    bba_fluid_class *c;
    bba_fluid_opts o;
    double phases, flops = 0;
    size_t nc, *of = malloc((q->n ? q->n : 1) * sizeof *of);
    int rc;

    if (of == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", q->n);
    rc = bba_fluid_apps(q->apps, q->n, q->pf.time_unit_s, NULL, NULL, &c, &nc, of, err);
    if (rc != BB_OK) {
        free(of);
        return rc;
    }
    f->pf = q->pf;
    f->pf.resolution = 0;
    f->n_memoryless = 0;
    for (size_t i = 0; i < q->n; i++)
        if (c[of[i]].burst_s > 0 && !(q->apps[i].burst_s > 0))
            f->n_memoryless += (size_t)bba_app_count(&q->apps[i]);
    for (size_t j = 0; j < nc; j++)
        f->fluid_classes += c[j].burst_s > 0;
    free(of);
    o.pfs_bw_Bps = q->pf.pfs_bw_Bps;
    o.bb_bw_Bps = q->pf.bb_bw_Bps;
    o.mem_limit_bytes = q->so.mem_limit_bytes;
    o.max_phases = 0;
    flops = fluid_flops(c, nc, &o, &phases);
    f->fluid_phases = phases;
    f->fluid_flops = flops;
    /* a design that buys a buffer bandwidth builds at a finite one: the
     * general (dense) spectrum whenever the peak exceeds the PFS */
    o.bb_bw_Bps = DBL_MIN;
    f->fluid_flops_bought = fluid_flops(c, nc, &o, &phases);
    o.bb_bw_Bps = q->pf.bb_bw_Bps;
    phases = f->fluid_phases;
    rc = bba_cost_fluid(phases, flops, &q->so, err);
    if (rc != BB_OK) {
        free(c);
        return rc;
    }
    /* exact when it fits; beyond, folded into BBA_FLUID_APPROX_PHASES */
    rc = bba_fluid_approx_new(c, nc, &o,
                              phases <= BBA_FLUID_EXACT_PHASES ? BBA_FLUID_EXACT_PHASES
                                                               : BBA_FLUID_APPROX_PHASES,
                              &f->fa, err);
    free(c);
    if (rc == BB_OK)
        f->fluid = bba_fluid_approx_model(f->fa);
    return rc;
}

/* The measures at S under pol, and the interval of the idle fraction
 * (the folded model's; the idle fraction itself when exact). */
static int
fluid_answer(const bba_front *f, double S, const bb_drain *pol,
             const bba_fluid_result *r, bba_answer *a, char *err)
{
    int rc = bba_fluid_approx_interval(f->fa, S, pol, r->idle, &a->idle_low, &a->idle_high,
                                       err);

    if (rc != BB_OK)
        return rc;
    a->S_bytes = S;
    a->idle = r->idle;
    a->log10_idle = r->log10_idle;
    a->quiet = r->quiet;
    a->mean_occupancy_bytes = r->mean_occupancy_bytes;
    a->p_empty = r->p_empty;
    a->p_full = r->p_full;
    a->bb_write_Bps = r->bb_in_Bps;
    a->residual = r->residual;
    a->states = bba_fluid_phases(f->fluid);
    return BB_OK;
}

/* ---- the front ------------------------------------------------------------ */

int
bba_front_new(const bba_question *q, bba_front **out, char *err)
{
    bba_front *f;
    int rc;

    *out = NULL;
    if (q->n == 0)
        return bb_seterr(err, BB_EINVAL, "the workload has no application");
    f = calloc(1, sizeof *f);
    if (f == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    f->q = *q;
    f->settled_S = -1;
    f->kind = q->model;
    if (f->kind == BBA_MODEL_AUTO)
        f->kind = front_has_bursts(q) ? BBA_MODEL_FLUID : BBA_MODEL_BERNOULLI;
    if (f->kind == BBA_MODEL_CHAIN && !front_has_bursts(q))
        f->kind = BBA_MODEL_BERNOULLI;   /* the chain without bursts is the paper's */
    f->res_change = -1;
    if (f->kind == BBA_MODEL_FLUID) {
        rc = fluid_build(f, err);
        if (rc != BB_OK) {
            bba_front_free(f);
            return rc;
        }
        *out = f;
        return BB_OK;
    }
    if (q->pf.resolution > 0 || f->kind != BBA_MODEL_BERNOULLI) {
        f->res = q->pf.resolution > 0 ? q->pf.resolution : BBA_RES_START;
        rc = front_discrete_build(f, f->res, err);
    } else {
        rc = front_settle(f, err);
    }
    if (rc == BB_OK)
        rc = front_find_vanished(f, err);
    if (rc != BB_OK) {
        bba_front_free(f);
        return rc;
    }
    *out = f;
    return BB_OK;
}

void
bba_front_free(bba_front *f)
{
    if (f == NULL)
        return;
    bba_fluid_approx_free(f->fa);
    front_discrete_free(f);
    free(f->van);
    free(f);
}

static int
chain_refuses(const bba_front *f, char *err)
{
    if (f->kind == BBA_MODEL_CHAIN && f->chain_no_bbbw)
        return bb_seterr(err, BB_EINVAL, "the ON/OFF chain (model chain) does not model the "
                         "burst buffer's bandwidth, which binds here; the fluid model does");
    return BB_OK;
}

static void
answer_init(const bba_front *f, bba_answer *a)
{
    memset(a, 0, sizeof *a);
    a->drain.unit = BB_DRAIN_BYTES;
    a->model = f->kind;
    a->interval_trusted = 1;
    a->exact = f->kind != BBA_MODEL_CHAIN || f->chain_exact;
    a->phases = f->kind == BBA_MODEL_CHAIN ? f->phases_total : 0;
    a->phases_solved = f->kind == BBA_MODEL_CHAIN ? f->onoff.n_phases : 0;
    a->classes = f->kind == BBA_MODEL_CHAIN ? f->classes_total : 0;
    a->resolution = f->res;
    a->res_change = f->res_change;
    a->time_unit_s = f->pf.time_unit_s;
    a->quantum_bytes = f->qz.quantum_bytes;
    a->max_round_bytes = f->qz.max_round_bytes;
    if (f->kind == BBA_MODEL_FLUID) {
        a->exact = bba_fluid_approx_exact(f->fa);
        a->folded_load = bba_fluid_approx_folded_load(f->fa);
        a->interval_trusted = bba_fluid_approx_trusted(f->fa);
        a->phases = f->fluid_phases;
        a->phases_solved = bba_fluid_phases(f->fluid);
        a->classes = f->fluid_classes;
        a->load_ratio = bba_fluid_mean_rate(f->fluid) / f->pf.pfs_bw_Bps;
    } else {
        a->load_ratio = bba_model_load_ratio(&f->model);
    }
    a->S_quanta = -1;
    a->idle = a->idle_low = a->idle_high = NAN;
    a->log10_idle = NAN;
    a->quiet = a->mean_occupancy_bytes = a->p_empty = a->p_full = NAN;
    a->bb_write_Bps = NAN;
    a->idle_limit = NAN;
    a->bb_bw_min_Bps = NAN;
    a->S_double_unit_bytes = NAN;
    a->S_low_bytes = a->S_high_bytes = NAN;
    a->S_model_bytes = NAN;
    a->states = -1;
    a->evaluations = f->settle_evals;
}

static void
answer_eval(const bba_front *f, const bba_eval_result *e, bba_answer *a)
{
    double q = f->qz.quantum_bytes;

    a->S_quanta = e->S;
    a->S_bytes = (double)e->S * q;
    if (e->threshold > 0)
        a->drain.kind = BB_DRAIN_LAZY;
    a->drain.unit = BB_DRAIN_BYTES;
    a->drain.threshold = (double)e->threshold * q;
    a->idle = e->meas.idle;
    a->log10_idle = e->meas.log10_idle;
    /* an exact answer is its own interval; an approximation's is not
     * measured on the chain (the fluid model measures its own) */
    a->idle_low = a->idle_high = a->exact ? e->meas.idle : NAN;
    a->quiet = e->meas.quiet;
    a->mean_occupancy_bytes = e->meas.mean_load * q;
    a->p_empty = e->meas.p_empty;
    a->p_full = e->meas.p_full;
    a->bb_write_Bps = e->meas.bb_in * q / f->pf.time_unit_s;
    a->states = e->n_states;
    a->residual = e->solve.residual;
    a->iterations = e->solve.iterations;
    a->fallback = e->solve.fallback;
}

int
bba_front_quanta(const bba_front *f, double S_bytes, long *S, char *err)
{
    *S = bba_size_quanta(S_bytes, f->qz.quantum_bytes);
    if (*S >= LONG_MAX / 2)   /* the cap: its count is not the size's */
        return bb_seterr(err, BB_ETOOBIG, "a %.3g-byte buffer is %.3g quanta of %.3g bytes, "
                         "more states than any chain holds: use the fluid model or a smaller "
                         "buffer", S_bytes,
                         S_bytes / f->qz.quantum_bytes, f->qz.quantum_bytes);
    return BB_OK;
}

int
bba_front_idle(const bba_front *f, double S_bytes, const bb_drain *d, bba_answer *a,
               char *err)
{
    bb_drain pol;
    bba_eval_result e;
    long S;
    int rc;

    answer_init(f, a);
    a->evaluations = 0;
    if (!(S_bytes >= 0))
        return bb_seterr(err, BB_EINVAL, "buffer size %g bytes is negative", S_bytes);
    a->drain.kind = d->kind;
    a->drain.eps = d->eps;
    if (f->kind == BBA_MODEL_FLUID) {
        bb_drain fp = bb_drain_bytes(d, S_bytes);
        bba_fluid_result fr;

        if (fp.threshold > S_bytes)
            return bb_seterr(err, BB_EINVAL, "the lazy threshold (%.4g bytes) is above the "
                             "buffer size (%.4g bytes)", fp.threshold, S_bytes);
        rc = bba_fluid_eval(f->fluid, S_bytes, &fp, &fr, err);
        if (rc != BB_OK)
            return rc;
        a->evaluations = 1;
        a->drain.threshold = fp.threshold;
        return fluid_answer(f, S_bytes, &fp, &fr, a, err);
    }
    if ((rc = chain_refuses(f, err)) != BB_OK)
        return rc;
    if ((rc = bba_front_quanta(f, S_bytes, &S, err)) != BB_OK)
        return rc;
    bba_drain_quanta(d, S, f->qz.quantum_bytes, &pol);
    if (pol.threshold > S)
        return bb_seterr(err, BB_EINVAL, "the lazy threshold (%.4g bytes) is above the buffer "
                         "size (%.4g bytes)", d->threshold, S_bytes);
    a->drain.kind = d->kind;
    a->drain.eps = d->eps;
    rc = bba_eval(&f->model, S, &pol, &f->q.so, &e, NULL, err);
    if (rc != BB_OK)
        return rc;
    a->evaluations = 1;
    answer_eval(f, &e, a);
    return BB_OK;
}

static double size_at_double_unit(const bba_front *f, double target,
                                  const bb_drain *ps);

/* idle at S under ps (a lazy threshold a fraction of S), minus nothing:
 * one evaluation of the fluid model. */
static int
fluid_idle_at(const bba_front *f, const bb_drain *ps, double S, bba_fluid_result *fr,
              int *evals, char *err)
{
    bb_drain fp = bb_drain_bytes(ps, S);

    ++*evals;
    return bba_fluid_eval(f->fluid, S, &fp, fr, err);
}

/* When the fluid search gives up without a bracket (BB_ENOCONV: its steps
 * from the spectrum's scale did not reach the target), bracket from the
 * model's own limits: idle(0) is above the target (else the search would
 * have answered 0) and the limit as S grows below it (else BB_EINFEASIBLE),
 * so a size exists.  Doubling from one second of the PFS bandwidth
 * brackets it (idle non-increasing in S), bisection closes the bracket to
 * rel_tol: log2(S / B s) + log2(1 / rel_tol) evaluations. */
static int
fluid_bracket(const bba_front *f, double target, const bb_drain *ps, double s_max,
              double *S_out, bba_fluid_result *fr, int *evals, char *err)
{
    double lo = 0, hi = f->pf.pfs_bw_Bps;
    bba_fluid_result r;
    int rc;

    if (!(bba_fluid_idle_limit(f->fluid) < target))
        return bb_seterr(err, BB_EINFEASIBLE, "the idle fraction tends to %.6g as the buffer "
                         "grows, not below %g", bba_fluid_idle_limit(f->fluid), target);
    for (;;) {
        if (hi > s_max)
            hi = s_max;
        if ((rc = fluid_idle_at(f, ps, hi, &r, evals, err)) != BB_OK)
            return rc;
        if (r.idle <= target)
            break;
        if (hi >= s_max)
            return bb_seterr(err, BB_ETOOBIG, "the idle fraction at the size bound %.6g B is "
                             "%.6g, above the target %g", s_max, r.idle, target);
        if (hi > 1e300)
            return bb_seterr(err, BB_ENOCONV, "no size up to 1e300 B meets the target");
        lo = hi;
        hi *= 2;
    }
    *fr = r;
    while (hi - lo > BBA_FLUID_REL_TOL * hi) {
        double mid = lo > 0 ? sqrt(lo * hi) : hi / 2;
        bba_fluid_result m;

        if (mid <= lo || mid >= hi)
            mid = lo + (hi - lo) / 2;
        if ((rc = fluid_idle_at(f, ps, mid, &m, evals, err)) != BB_OK)
            return rc;
        if (m.idle <= target) {
            hi = mid;
            *fr = m;
        } else {
            lo = mid;
        }
        if (*evals > 10000)
            return bb_seterr(err, BB_ENOCONV, "the bracketed fluid size search did not close");
    }
    *S_out = hi;
    return BB_OK;
}

static int
fluid_size(const bba_front *f, double target, const bb_drain *ps, double s_max_bytes,
           bba_answer *a, char *err)
{
    bba_fluid_result fr;
    double S;
    int evals = 0, rc;

    rc = bba_fluid_size_min(f->fluid, target, ps, BBA_FLUID_REL_TOL, s_max_bytes,
                            f->q.progress, f->q.progress_ctx, &S, &fr, &evals, err);
    if (rc == BB_ENOCONV)   /* no bracket from its scale: from the limits */
        rc = fluid_bracket(f, target, ps, s_max_bytes, &S, &fr, &evals, err);
    a->evaluations += evals;
    if (rc == BB_EINFEASIBLE) {
        double lim = bba_fluid_idle_limit(f->fluid), bw;
        char e2[BB_ERRLEN];

        a->idle_limit = lim;
        /* the bandwidth binds when a larger B_BB would bring the limit
         * below the target */
        a->bandwidth_bound = f->pf.bb_bw_Bps > 0
                             && bba_fluid_bbbw_min(f->fluid, target, &bw, e2) == BB_OK;
        if (a->bandwidth_bound)
            a->bb_bw_min_Bps = bw;
        return rc;
    }
    if (rc != BB_OK)
        return rc;
    {
        bb_drain fp = bb_drain_bytes(ps, S);

        a->drain.threshold = fp.threshold;

        if ((rc = fluid_answer(f, S, &fp, &fr, a, err)) != BB_OK)
            return rc;
    }
    a->idle_limit = bba_fluid_idle_limit(f->fluid);
    if (!f->q.bbbw_unasked || f->pf.bb_bw_Bps > 0)
        bba_front_bbbw_min(f, target, &a->bb_bw_min_Bps);
    if (!bba_fluid_approx_exact(f->fa)) {
        front_stage_meter sm = { &f->q, 0, BBA_STAGE_INTERVAL };

        rc = bba_fluid_approx_size_interval(f->fa, target, ps, S,
                                            f->q.progress ? front_stage_progress : NULL, &sm,
                                            &a->S_low_bytes, &a->S_high_bytes, err);
        if (rc != BB_OK)
            return rc;
        /* never 0 B where the interval says a buffer may be needed, and
         * the safe end where the interval is not trusted (answer.h) */
        if ((!a->interval_trusted || S == 0) && isfinite(a->S_high_bytes)
            && a->S_high_bytes > S) {
            bb_drain fp;

            a->S_model_bytes = S;
            a->safe_end = 1;
            S = a->S_high_bytes;
            fp = bb_drain_bytes(ps, S);
            a->drain.threshold = fp.threshold;
            if ((rc = bba_fluid_eval(f->fluid, S, &fp, &fr, err)) != BB_OK
                || (rc = fluid_answer(f, S, &fp, &fr, a, err)) != BB_OK)
                return rc;
        }
    } else {
        a->S_low_bytes = a->S_high_bytes = S;
    }
    if (!f->q.time_unit_given && f->n_memoryless > 0)
        a->S_double_unit_bytes = size_at_double_unit(f, target, ps);
    return BB_OK;
}

/* The size at twice a time unit nobody chose (answer.h). */
static double
size_at_double_unit(const bba_front *f, double target, const bb_drain *ps)
{
    bb_drain d = *ps;
    bba_question q2 = f->q;
    bba_front *g;
    bba_answer a;
    char err[BB_ERRLEN];
    double S = NAN;
    front_stage_meter sm = { &f->q, 0, BBA_STAGE_DOUBLE_UNIT };

    q2.pf.time_unit_s *= 2;
    q2.pf.resolution = f->res;
    q2.progress = f->q.progress ? front_stage_progress : NULL;
    q2.progress_ctx = &sm;
    q2.time_unit_given = 1;
    if (bba_front_new(&q2, &g, err) != BB_OK)
        return NAN;
    if (bba_front_size(g, target, &d, &a, err) == BB_OK)
        S = a.S_bytes;
    bba_front_free(g);
    return S;
}

static int
size_search(const bba_front *f, double target, const bb_drain *d, long hint, double cap_bytes,
            bba_answer *a, char *err);

int
bba_front_size(const bba_front *f, double target, const bb_drain *d, bba_answer *a,
               char *err)
{
    /* the question the resolution was settled on: its size is the guess */
    return size_search(f, target, d,
                       target == f->q.target && bb_drain_same(d, &f->q.drain) ? f->settled_S : -1,
                       0, a, err);
}

int
bba_front_size_from(const bba_front *f, double target, const bb_drain *d, double hint_bytes,
                    bba_answer *a, char *err)
{
    return bba_front_size_within(f, target, d, hint_bytes, 0, a, err);
}

int
bba_front_size_within(const bba_front *f, double target, const bb_drain *d, double hint_bytes,
                      double cap_bytes, bba_answer *a, char *err)
{
    long hint = hint_bytes > 0 && f->kind != BBA_MODEL_FLUID
                    ? bba_size_quanta(hint_bytes, f->qz.quantum_bytes)
                    : -1;   /* the fluid search takes no guess */

    if (hint <= 0 && target == f->q.target && bb_drain_same(d, &f->q.drain))
        hint = f->settled_S;
    return size_search(f, target, d, hint, cap_bytes, a, err);
}

static int
size_search(const bba_front *f, double target, const bb_drain *d, long hint, double cap_bytes,
            bba_answer *a, char *err)
{
    long s_max;

    bb_drain ps;
    bba_size_result r;
    int rc;

    answer_init(f, a);
    a->drain.kind = d->kind;
    a->drain.eps = d->eps;
    if (d->kind == BB_DRAIN_LAZY && d->unit == BB_DRAIN_BYTES)
        return bb_seterr(err, BB_EINVAL, "a size search takes the lazy threshold as a "
                         "fraction of the size");
    front_spec_of(d, &ps);
    if (f->kind == BBA_MODEL_FLUID)
        return fluid_size(f, target, &ps, cap_bytes > 0 ? cap_bytes : DBL_MAX, a, err);
    if ((rc = chain_refuses(f, err)) != BB_OK)
        return rc;
    s_max = front_s_max(f);
    if (cap_bytes > 0 && bba_size_quanta(cap_bytes, f->qz.quantum_bytes) < s_max)
        s_max = bba_size_quanta(cap_bytes, f->qz.quantum_bytes);
    rc = bba_size_min_from(&f->model, target, &ps, &f->q.so, s_max, hint,
                           f->q.progress, f->q.progress_ctx, &r, err);
    a->evaluations += r.evaluations;
    if (rc == BB_EINFEASIBLE) {
        a->idle_limit = r.idle_limit;
        a->bandwidth_bound = r.bandwidth_bound;
        a->lazy_bound = r.lazy_bound;
        bba_front_bbbw_min(f, target, &a->bb_bw_min_Bps);
        return rc;
    }
    if (rc != BB_OK)
        return rc;
    answer_eval(f, &r.best, a);
    a->idle_limit = r.idle_limit;
    a->bandwidth_bound = r.bandwidth_bound;
    bba_front_bbbw_min(f, target, &a->bb_bw_min_Bps);
    if (!f->q.time_unit_given && f->kind == BBA_MODEL_BERNOULLI)
        a->S_double_unit_bytes = size_at_double_unit(f, target, &ps);
    return BB_OK;
}

int
bba_front_bbbw_min(const bba_front *f, double target, double *bb_bw_Bps)
{
    const double *d0 = f->model.dist0 ? f->model.dist0 : f->model.dist;

    *bb_bw_Bps = NAN;
    if (!(target > 0 && target < 1))
        return BB_EINVAL;
    if (f->kind == BBA_MODEL_FLUID) {
        char err[BB_ERRLEN];
        int rc = bba_fluid_bbbw_min(f->fluid, target, bb_bw_Bps, err);

        if (rc != BB_OK)
            *bb_bw_Bps = NAN;
        return rc;
    }
    if (f->model.mom.mean >= (double)f->model.B)
        return BB_EINFEASIBLE;
    /* the applications' own law, not the throttled one */
    *bb_bw_Bps = (double)bba_bbbw_min(d0, f->model.M, f->model.B, target)
                 * f->qz.quantum_bytes / f->pf.time_unit_s;
    return BB_OK;
}

int
bba_front_threshold(const bba_front *f, double S_bytes, double target, double eps, int grid,
                    bba_answer *best, bba_answer *greedy, int *feasible, int *monotone,
                    char *err)
{
    bba_threshold_result r;
    long S;
    int rc;

    answer_init(f, best);
    answer_init(f, greedy);
    if (!(S_bytes >= 0))
        return bb_seterr(err, BB_EINVAL, "buffer size %g bytes is negative", S_bytes);
    if (f->kind == BBA_MODEL_FLUID) {
        bba_fluid_threshold_result fr;

        rc = bba_fluid_threshold_best(f->fluid, S_bytes, target, eps, grid, BBA_FLUID_REL_TOL,
                                      f->q.progress, f->q.progress_ctx, &fr, err);
        if (rc != BB_OK)
            return rc;
        {
            bb_drain gp = bb_drain_greedy(1.0);
            bb_drain bp = bb_drain_lazy(BB_DRAIN_BYTES, fr.threshold_bytes, eps);

            if ((rc = fluid_answer(f, S_bytes, &gp, &fr.greedy, greedy, err)) != BB_OK
                || (fr.feasible
                    && (rc = fluid_answer(f, S_bytes, &bp, &fr.best, best, err)) != BB_OK))
                return rc;
        }
        greedy->drain.eps = eps;
        best->drain.kind = BB_DRAIN_LAZY;
        best->drain.eps = eps;
        if (fr.feasible)
            best->drain.threshold = fr.threshold_bytes;
        best->evaluations = greedy->evaluations = fr.evaluations;
        *feasible = fr.feasible;
        *monotone = fr.monotone_idle;
        return BB_OK;
    }
    if ((rc = chain_refuses(f, err)) != BB_OK)
        return rc;
    if ((rc = bba_front_quanta(f, S_bytes, &S, err)) != BB_OK)
        return rc;
    rc = bba_threshold_best(&f->model, S, target, eps, grid, &f->q.so, f->q.progress,
                            f->q.progress_ctx, &r, err);
    if (rc != BB_OK)
        return rc;
    best->drain.kind = BB_DRAIN_LAZY;
    best->drain.eps = eps;
    greedy->drain.eps = eps;
    answer_eval(f, &r.greedy, greedy);
    if (r.feasible)
        answer_eval(f, &r.best, best);
    best->drain.kind = BB_DRAIN_LAZY;
    best->evaluations = greedy->evaluations = r.evaluations;
    *feasible = r.feasible;
    *monotone = r.monotone_idle;
    return BB_OK;
}

/* ---- what the front settled on ------------------------------------------- */

bba_model_kind
bba_front_kind(const bba_front *f)
{
    return f->kind;
}

const bba_quantized *
bba_front_quantized(const bba_front *f)
{
    return f->kind == BBA_MODEL_FLUID ? NULL : &f->qz;
}

const bba_model *
bba_front_chain(const bba_front *f)
{
    return f->kind == BBA_MODEL_FLUID ? NULL : &f->model;
}

const bba_platform *
bba_front_platform(const bba_front *f)
{
    return &f->pf;
}

static void
fmt_unit(char *buf, size_t len, double s)
{
    if (s >= 3600 && fmod(s, 3600) == 0)
        snprintf(buf, len, "%g h", s / 3600);
    else if (s >= 60 && fmod(s, 60) == 0)
        snprintf(buf, len, "%g min", s / 60);
    else
        snprintf(buf, len, "%g s", s);
}

void
bba_front_describe(const bba_front *f, char *buf, size_t len)
{
    char tu[64];

    fmt_unit(tu, sizeof tu, f->pf.time_unit_s);
    if (f->kind == BBA_MODEL_FLUID) {
        long P = bba_fluid_phases(f->fluid);

        if (f->n_memoryless > 0)
            snprintf(buf, len, "model fluid (%zu class%s, %ld phase%s; %zu without a burst, "
                     "memoryless at a time unit of %s)", f->fluid_classes,
                     f->fluid_classes == 1 ? "" : "es", P, P == 1 ? "" : "s", f->n_memoryless,
                     tu);
        else
            snprintf(buf, len, "model fluid (%zu class%s, %ld phase%s)", f->fluid_classes,
                     f->fluid_classes == 1 ? "" : "es", P, P == 1 ? "" : "s");
        if (!bba_fluid_approx_exact(f->fa)) {
            char ad[256];

            bba_fluid_approx_describe(f->fa, ad, sizeof ad);
            snprintf(buf, len, "model fluid, approximate (%.3g phases: %s)%s%s",
                     f->fluid_phases, ad,
                     f->n_memoryless > 0 ? "; memoryless applications at a time unit of " : "",
                     f->n_memoryless > 0 ? tu : "");
        }
    } else if (f->kind == BBA_MODEL_BERNOULLI)
        snprintf(buf, len, "model Bernoulli, time unit %s", tu);
    else if (f->kind == BBA_MODEL_CHAIN && !f->chain_exact)
        snprintf(buf, len, "model chain approximate (%zu burst classes, %.3g phases: %zu kept "
                 "exact in %ld phases, %s for the rest), time unit %s", f->classes_total,
                 f->phases_total, f->onoff.n_classes, f->onoff.n_phases,
                 bba_effbw_approx_kind(f->approx) == BBA_EFFBW_MANY_SOURCES
                     ? "many-sources correction" : "effective-bandwidth decay", tu);
    else
        snprintf(buf, len, "model chain (%zu burst class%s, %ld phases), time unit %s",
                 f->onoff.n_classes, f->onoff.n_classes == 1 ? "" : "es", f->onoff.n_phases, tu);
}

size_t
bba_front_vanished(const bba_front *f, double *load_frac)
{
    if (load_frac)
        *load_frac = f->van_frac;
    return f->nvan;
}

size_t
bba_front_vanished_app(const bba_front *f, size_t i)
{
    return i < f->nvan ? f->van[i] : (size_t)-1;
}

double
bba_front_s_max_bytes(const bba_front *f)
{
    if (f->kind == BBA_MODEL_FLUID)
        return DBL_MAX;   /* the fluid solve does not grow with S */
    return (double)front_s_max(f) * f->qz.quantum_bytes;
}
