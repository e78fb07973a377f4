/* front_discrete.c: the front door's discrete models (front.h): the
 * quantised workload at a resolution, the Bernoulli model or the
 * modulated chain, and the settling of the resolution.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bbbw.h"
#include "cost.h"
#include "front.h"

int
front_has_bursts(const bba_question *q)
{
    for (size_t i = 0; i < q->n; i++)
        if (q->apps[i].burst_s > 0)
            return 1;
    return 0;
}


void
front_discrete_free(bba_front *f)
{
    bba_effbw_approx_free(f->approx);
    f->approx = NULL;
    bba_onoff_free(&f->onoff);
    bba_onoff_free(&f->onoff_check);
    bba_model_free(&f->model);
    bba_quantized_free(&f->qz);
    memset(&f->onoff, 0, sizeof f->onoff);
    memset(&f->onoff_check, 0, sizeof f->onoff_check);
    memset(&f->model, 0, sizeof f->model);
    f->has_check = 0;
}

/* The modulated chain at f->qz: exact when its phases fit, else the
 * effective-bandwidth approximation on the burst classes of largest effect
 * with the many-sources correction (effbw.h), one class fewer kept to show
 * the approximation's own sensitivity. */
static int
attach_chain(bba_front *f, char *err)
{
    bba_onoff full;
    double th_full;
    size_t k;
    int rc;

    rc = bba_onoff_init(&full, f->qz.n, f->qz.b, f->qz.p, f->qz.burst_tu, f->qz.B, 0, -1, err);
    if (rc != BB_OK)
        return rc;
    f->classes_total = full.n_classes;
    f->phases_total = 1;
    for (size_t c = 0; c < full.n_classes; c++)
        f->phases_total *= full.N[c] + 1;
    if (f->phases_total <= BBA_CHAIN_EXACT_PHASES) {
        bba_onoff_free(&full);
        rc = bba_onoff_init(&f->onoff, f->qz.n, f->qz.b, f->qz.p, f->qz.burst_tu, f->qz.B, 0,
                            0, err);
        if (rc != BB_OK)
            return rc;
        f->model.onoff = &f->onoff;
        f->chain_exact = 1;
        return BB_OK;
    }
    rc = bba_effbw_decay(&full, &th_full, err);
    bba_onoff_free(&full);
    if (rc != BB_OK)
        return rc;
    for (k = 1;; k++) {
        bba_onoff r;

        /* over the phase bound: refused before its kernels are built */
        rc = bba_effbw_reduce(f->qz.n, f->qz.b, f->qz.p, f->qz.burst_tu, f->qz.B, th_full, k,
                              BBA_CHAIN_APPROX_PHASES, &r, err);
        if (rc == BB_ETOOBIG)
            break;
        if (rc != BB_OK)
            return rc;
        if (k > f->classes_total) {
            bba_onoff_free(&r);
            break;
        }
        bba_onoff_free(&f->onoff_check);
        f->onoff_check = f->onoff;
        f->onoff = r;
    }
    if (k == 1) {
        rc = bba_effbw_reduce(f->qz.n, f->qz.b, f->qz.p, f->qz.burst_tu, f->qz.B, th_full, 0,
                              0, &f->onoff, err);
        if (rc != BB_OK)
            return rc;
    }
    f->model.onoff = &f->onoff;
    rc = bba_effbw_approx_new(&f->onoff, f->qz.n, f->qz.b, f->qz.p, f->qz.burst_tu,
                              BBA_EFFBW_MANY_SOURCES, &f->approx, err);
    if (rc != BB_OK)
        return rc;
    f->model.approx = f->approx;
    f->chain_exact = 0;
    return BB_OK;
}

/* Quantise at resolution R and build the model of f->kind. */
int
front_discrete_build(bba_front *f, long R, char *err)
{
    int rc;

    front_discrete_free(f);
    f->pf = f->q.pf;
    f->pf.resolution = R;
    if (f->kind == BBA_MODEL_BERNOULLI && front_has_bursts(&f->q)) {
        /* the paper's model has no bursts: quantise without them (a burst
         * shorter than a time unit is no error of this model) */
        bba_app *a = malloc(f->q.n * sizeof *a);

        if (a == NULL)
            return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", f->q.n);
        for (size_t i = 0; i < f->q.n; i++) {
            a[i] = f->q.apps[i];
            a[i].burst_s = 0;
        }
        rc = bba_quantize(a, f->q.n, &f->pf, &f->qz, err);
        free(a);
    } else {
        rc = bba_quantize(f->q.apps, f->q.n, &f->pf, &f->qz, err);
    }
    if (rc != BB_OK)
        return rc;
    if (f->kind == BBA_MODEL_CHAIN && !f->qz.has_burst)
        /* every burst is the memoryless 1/(1 - p): the paper's chain */
        f->kind = BBA_MODEL_BERNOULLI;
    if (f->kind == BBA_MODEL_BERNOULLI)
        /* the paper's model: every application memoryless */
        f->qz.has_burst = 0;
    {
        double M = 0;   /* the largest load: DIST's length (cost.h) */

        for (size_t i = 0; i < f->qz.n; i++)
            M += (double)f->qz.b[i];
        long Ml = M < (double)LONG_MAX ? (long)M : LONG_MAX;

        rc = bba_cost_dist(f->qz.n, Ml, f->q.so.dist_rows && Ml < LONG_MAX ? Ml + 1 : 0,
                           &f->q.so, err);
        if (rc != BB_OK)
            return rc;
    }
    rc = bba_model_init(&f->model, f->qz.n, f->qz.b, f->qz.p, f->qz.B, f->q.so.mem_limit_bytes,
                        err);
    if (rc != BB_OK)
        return rc;
    if (f->kind == BBA_MODEL_CHAIN && f->qz.has_burst) {
        /* The ON/OFF chain has no burst-buffer bandwidth: its questions
         * are refused (chain_no_bbbw), its quantisation still serves the
         * simulator, which has. */
        f->chain_no_bbbw = f->qz.bb_bw > 0 && f->model.M > f->qz.B + f->qz.bb_bw;
        return f->chain_no_bbbw ? BB_OK : attach_chain(f, err);
    }
    return bba_model_set_bbbw(&f->model, f->qz.bb_bw, err);
}

long
front_s_max(const bba_front *f)
{
    return bba_model_s_max(&f->model, &f->q.so);
}

void
front_spec_of(const bb_drain *d, bb_drain *ps)
{
    *ps = (bb_drain){ .kind = d->kind, .unit = BB_DRAIN_FRACTION, .eps = d->eps,
                      .threshold = d->kind == BB_DRAIN_LAZY && d->unit == BB_DRAIN_FRACTION
                                   ? d->threshold : 0 };
}

void
front_stage_progress(void *ctx, const bba_progress *p)
{
    const front_stage_meter *sm = ctx;
    bba_progress p2 = *p;

    p2.resolution = sm->R;
    p2.resolution_max = sm->R > 0 ? BBA_RES_MAX : 0;
    p2.stage = sm->stage;
    sm->q->progress(sm->q->progress_ctx, &p2);
}

/* The quantity the resolution settles on: the size for the target (*S_out
 * in quanta; the search starts from hint), or where no size meets it the
 * idle fraction at q.settle_bytes (*S_out -1); *have = 0 when neither can
 * be had. */
static int
settle_value(bba_front *f, long hint, double *v, long *S_out, int *have, char *err)
{
    bb_drain ps;
    bba_size_result r;
    front_stage_meter sm = { &f->q, f->pf.resolution, BBA_STAGE_ANSWER };
    int rc;

    *have = 0;
    *S_out = -1;
    front_spec_of(&f->q.drain, &ps);
    rc = bba_size_min_from(&f->model, f->q.target, &ps, &f->q.so, front_s_max(f), hint,
                           f->q.progress ? front_stage_progress : NULL, &sm, &r, err);
    f->settle_evals += r.evaluations;
    if (rc == BB_OK) {
        *v = (double)r.best.S * f->qz.quantum_bytes;
        *S_out = r.best.S;
        *have = 1;
        return BB_OK;
    }
    if (rc != BB_EINFEASIBLE && rc != BB_ETOOBIG)
        return rc;
    if (f->q.settle_bytes > 0) {
        long S = bba_size_quanta(f->q.settle_bytes, f->qz.quantum_bytes);
        bb_drain pol;
        bba_eval_result e;

        bba_drain_quanta(&f->q.drain, S, f->qz.quantum_bytes, &pol);
        if (pol.threshold > S)
            pol.threshold = S;
        rc = bba_eval(&f->model, S, &pol, &f->q.so, &e, NULL, err);
        f->settle_evals++;
        if (rc != BB_OK)
            return rc;
        *v = e.meas.idle;
        *have = 1;
    }
    return BB_OK;
}

/* Whether every application that writes rounds to 0 quanta at f->qz. */
static int
all_vanish(const bba_front *f)
{
    for (size_t k = 0; k < f->qz.n; k++) {
        const bba_app *a = &f->q.apps[f->qz.row[k]];

        if (a->p * a->bw_Bps > 0 && f->qz.b[k] > 0)
            return 0;
    }
    return 1;
}

/* Double R from BBA_RES_START until the settled quantity moves by less
 * than BBA_SETTLE (and something is left to size: a workload of tiny
 * bandwidths answers 0 at every R where they all round away); keep the
 * coarser of the last two (its change measured). */
int
front_settle(bba_front *f, char *err)
{
    long R = BBA_RES_START, S0, S1;
    double v0, v1;
    int have, rc;

    f->res_change = -1;
    rc = front_discrete_build(f, R, err);
    if (rc != BB_OK)
        return rc;
    {
        bb_drain ps;

        front_spec_of(&f->q.drain, &ps);   /* bounded before the first solve */
        rc = bba_cost_settle(&f->model, f->q.target, &ps, &f->q.so, R, BBA_RES_MAX, err);
        if (rc != BB_OK)
            return rc;
    }
    rc = settle_value(f, -1, &v0, &S0, &have, err);
    f->settled_S = S0;
    if (rc != BB_OK || !have)
        return rc;
    for (;;) {
        double change;

        /* the size in quanta about doubles with R: the guess */
        rc = front_discrete_build(f, 2 * R, err);
        if (rc == BB_OK)
            rc = settle_value(f, S0 > 0 ? 2 * S0 : -1, &v1, &S1, &have, err);
        if (rc != BB_OK || !have) {
            /* answer at R; the change could not be measured */
            f->res_change = -1;
            break;
        }
        change = v0 > 0 ? fabs(v1 / v0 - 1.0) : (v1 > 0 ? 1.0 : 0.0);
        f->res_change = change;
        if (2 * R >= BBA_RES_MAX)
            break;
        if (change < BBA_SETTLE) {
            rc = front_discrete_build(f, R, err);
            if (rc != BB_OK || !all_vanish(f))
                break;
            change = 1;   /* nothing left at R: go on */
        }
        R *= 2;
        v0 = v1;
        S0 = S1;
    }
    f->res = R;
    f->settled_S = S0;
    return front_discrete_build(f, R, err);
}

/* The applications that round to 0 quanta (their indices in the
 * question's apps, each once), and the share of the expected load they
 * carried.  An application's entries (its count, bba_quantize) round
 * alike. */
int
front_find_vanished(bba_front *f, char *err)
{
    double total = 0, lost = 0;
    size_t apps_lost = 0;

    free(f->van);
    f->van = NULL;
    f->nvan = 0;
    for (size_t k = 0; k < f->qz.n; k++) {
        size_t i = f->qz.row[k];
        double l = f->q.apps[i].p * f->q.apps[i].bw_Bps;

        total += l;
        if (f->qz.b[k] == 0 && l > 0) {
            lost += l;
            apps_lost++;
            if (f->nvan > 0 && f->van[f->nvan - 1] == i)
                continue;
            size_t *v = realloc(f->van, (f->nvan + 1) * sizeof *v);

            if (v == NULL)
                return bb_seterr(err, BB_ENOMEM, "out of memory");
            f->van = v;
            f->van[f->nvan++] = i;
        }
    }
    f->van_frac = total > 0 ? lost / total : 0;
    if (total > 0 && apps_lost == f->qz.n)
        return bb_seterr(err, BB_EDATA, "every application's bandwidth rounds to 0 quanta of "
                         "%.4g bytes at resolution %ld: nothing is left to size; raise the "
                         "resolution", f->qz.quantum_bytes, f->res);
    if (f->van_frac > 0.5)
        return bb_seterr(err, BB_EDATA, "%zu of %zu applications, %.3g%% of the expected load, "
                         "round to 0 quanta of %.4g bytes at resolution %ld: the answer would "
                         "size a different workload; raise the resolution", apps_lost, f->qz.n,
                         100 * f->van_frac, f->qz.quantum_bytes, f->res);
    return BB_OK;
}
