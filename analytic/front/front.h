/* front.h: the front door's private parts (answer.c and front_discrete.c
 * only): the state of a bba_front and the discrete models' half of it.
 * Not for other modules: they use answer.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_FRONT_H
#define BBSIZE_ANALYTIC_FRONT_H

#include "answer.h"
#include "effbw.h"
#include "fluid.h"
#include "fluid_approx.h"
#include "onoff.h"
#include "quanta.h"

struct bba_front {
    bba_question q;          /* a copy; q.apps borrowed */
    bba_model_kind kind;
    /* BERNOULLI and CHAIN: the quantised workload at the settled R */
    bba_platform pf;
    bba_quantized qz;
    bba_model model;
    long res;
    double res_change;
    int settle_evals;
    long settled_S;          /* the size for q's own question at res, quanta
                                (-1: not known): the guess of bba_front_size */
    /* CHAIN: the modulated chain (model.onoff points here); for the
     * approximation, the reduced model and one class fewer */
    bba_onoff onoff, onoff_check;
    bba_effbw_approx *approx;   /* the approximation's correction, or NULL */
    int chain_exact, has_check;
    int chain_no_bbbw;       /* B_BB binds: the chain cannot answer */
    size_t classes_total;
    double phases_total;
    /* applications that round to 0 quanta */
    size_t nvan, *van;
    double van_frac;
    /* FLUID: the continuous-time model (fluid.h), exact or folded
     * (fluid_approx.h); fluid is the model answered with, fa owns it */
    bba_fluid_approx *fa;
    const bba_fluid *fluid;
    double fluid_phases;     /* of the whole workload */
    double fluid_flops;      /* its build and one size search, estimated
                                (cost.h bba_cost_fluid) */
    double fluid_flops_bought;   /* the same at a finite buffer bandwidth
                                (a design that buys one) */
    size_t fluid_classes;    /* distinct (rate, p, ON period) with phases */
    size_t n_memoryless;     /* applications without a burst (time unit/(1 - p)) */
};

/* A search's progress told to the question's callback with the
 * resolution being settled (0: none) and the stage. */
typedef struct {
    const bba_question *q;
    long R;
    bba_stage stage;
} front_stage_meter;

/* Whether an application of q has a burst length (the Bernoulli model
 * then cannot answer for it). */
int front_has_bursts(const bba_question *q);

/* front_discrete_build: quantise at resolution R and build the model of
 * f->kind (the chain: exact when its phases fit, else the
 * effective-bandwidth approximation).  Returns BB_* with err. */
int front_discrete_build(bba_front *f, long R, char *err);
/* front_discrete_free: what front_discrete_build made; f reusable. */
void front_discrete_free(bba_front *f);
/* front_s_max: the largest size the discrete model may search, quanta. */
long front_s_max(const bba_front *f);
/* front_spec_of: a drain with its threshold a fraction (a search's; one
 * in bytes becomes 0). */
void front_spec_of(const bb_drain *d, bb_drain *ps);
/* front_stage_progress: a bba_progress_fn taking a front_stage_meter. */
void front_stage_progress(void *ctx, const bba_progress *p);

/* front_settle: double the resolution from BBA_RES_START until the
 * settled quantity moves by less than the settling tolerance (answer.h),
 * building the model at each; f->res, f->res_change, f->settle_evals. */
int front_settle(bba_front *f, char *err);
/* front_find_vanished: the applications that round to 0 quanta at f->qz
 * and the share of the expected load they carry (f->van, f->nvan,
 * f->van_frac). */
int front_find_vanished(bba_front *f, char *err);

#endif
