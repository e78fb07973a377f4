/* scnbuild.c: a scenario's streams and executor configuration
 * (scnbuild.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "bb_error.h"
#include "network/route.h"
#include "storage/failure.h"
#include "workload/models.h"
#include "workload/scnbuild.h"
#include "workload/tracegen.h"
#include "workload/tracejob.h"

int
bbs_scenario_build(const bbs_scenario *s, bbs_vef *const *vef, bbs_sizedist *const *sizes,
                   uint64_t unit, bbs_wl **out, char *err)
{
    bbs_wl *w;
    char sub[BB_ERRLEN];
    int rc = bbs_wl_new(&w, err);

    if (rc != BB_OK)
        return rc;
    for (int j = 0; j < s->njobs && rc == BB_OK; j++) {
        const bbs_scn_job *sj = &s->jobs[j];
        int job;

        if (sj->trace && sj->tj.kind == BBS_TJ_VEF)
            rc = bbs_tracegen_vef(w, sj->name, vef[j], sizes[j], sj->messages, s->seed, unit,
                                  &job, sub);
        else if (sj->trace)
            rc = bbs_tracejob_generate(&sj->tj, w, sj->name, sj->ranks, s->seed, unit, &job,
                                       sub);
        else if ((rc = bbs_wl_add_job(w, sj->name, sj->ranks, sj->start_s, &job, sub)) == BB_OK)
            rc = bbs_model_generate(&sj->model, w, job, sub);
        if (rc == BB_OK && sj->trace)
            rc = bbs_wl_set_job_start(w, job, sj->start_s, sub);
        if (rc == BB_OK)
            rc = bbs_wl_set_job_allreduce(w, job, sj->allreduce_algo, sub);
        if (rc != BB_OK)
            bb_seterr(err, rc, "%s: job '%s' (line %d): %s", s->source, sj->name, sj->line, sub);
    }
    if (rc != BB_OK) {
        bbs_wl_free(w);
        return rc;
    }
    *out = w;
    return BB_OK;
}

void
bbs_scenario_exec_config(const bbs_scenario *s, bbs_exec_config *c)
{
    bbs_exec_config_init(c);
    c->route.kind = s->routing;
    c->route.bias = s->bias;
    c->route.candidates = s->candidates;
    c->exact_limit = s->exact_limit;
    c->small_bytes = s->small_bytes;
    c->inject_fcfs = s->inject_fcfs;
    c->backpressure = s->backpressure;
    c->store_forward = s->store_forward;
    c->vc_priority = s->vc_priority;
    c->vc_scheme = s->vc_scheme;
    c->queue_per_flow = s->queue_per_flow;
    c->send_overhead_s = s->send_overhead_s;
    c->copy_s_per_byte = s->copy_s_per_byte;
    c->jitter_s = s->jitter_s;
    c->packet_bytes = s->packet_bytes;
    c->route_piece_bytes = s->route_piece_bytes;
    c->allreduce_algo = s->allreduce_algo;
    c->arch = s->arch;
    c->ssd_threshold_bytes = s->ssd_threshold_bytes;
    c->capacity_bytes = s->capacity_bytes;
    c->pfs_bw_Bps = s->pfs_bw_Bps;
    c->drain.kind = s->drain.kind;
    c->drain.threshold = s->drain.threshold;   /* EPS: the configuration's */
    c->drain_chunk_bytes = s->chunk_bytes;
    c->piece_bytes = s->piece_bytes;
    c->pieces_in_flight = s->pieces_in_flight;
    c->piece_threads = s->piece_threads;
    c->seed = s->seed;
    c->horizon_s = s->horizon_s;
    c->fail = s->fail;
}

/* One term of an estimate: add it, and keep it as the largest so far. */
static void
cost_term(bbs_scenario_cost *c, double *top, double v, const char *change, const char *fmt,
          ...) __attribute__((format(printf, 5, 6)));

static void
cost_term(bbs_scenario_cost *c, double *top, double v, const char *change, const char *fmt, ...)
{
    va_list ap;

    if (!(v > 0))
        return;
    c->events += v;
    if (!(v > *top))
        return;
    *top = v;
    va_start(ap, fmt);
    vsnprintf(c->what, sizeof c->what, fmt, ap);
    va_end(ap);
    snprintf(c->change, sizeof c->change, "%s", change);
}

/* A model job's iterations, its operations per rank and iteration (at
 * least), and its bytes written to or read from the buffers. */
static double
model_iterations(const bbs_model *m, double *ops_per_rank_iter)
{
    *ops_per_rank_iter = 1;
    if (m->kind == BBS_MODEL_NEKBONE) {
        double orders = m->p_step > 0 ? floor((double)(m->p_end - m->p_begin) / m->p_step) + 1
                                      : 1;

        *ops_per_rank_iter = 2;
        return (orders > 1 ? orders : 1) * (double)m->cg_iterations;
    }
    return (double)m->iterations;
}

static double
model_io_bytes(const bbs_model *m, int ranks)
{
    if (m->kind == BBS_MODEL_CHECKPOINT)
        return (double)m->iterations * m->total_bytes;
    if (m->kind == BBS_MODEL_COSMOFLOW)
        return (double)m->iterations * (double)ranks * m->read_bytes;
    return 0;
}

void
bbs_scenario_estimate(const bbs_scenario *s, int nbb, double inject_Bps, bbs_scenario_cost *c)
{
    double top = 0, io = 0, net = 0, T = 0;
    const bbs_exec_failures *f = &s->fail;

    c->ops = c->bytes = c->events = 0;
    c->what[0] = c->change[0] = '\0';
    for (int j = 0; j < s->njobs; j++) {
        const bbs_scn_job *sj = &s->jobs[j];
        double k, it, ops, t;

        if (sj->trace)
            continue;
        it = model_iterations(&sj->model, &k);
        ops = (double)sj->ranks * it * k;
        c->ops += ops;
        cost_term(c, &top, isfinite(s->horizon_s) ? 0 : ops, "the job's iterations or ranks",
                  "%.3g operations of job '%s' (%d ranks x %.6g iterations)", ops, sj->name,
                  sj->ranks, it);
        io += model_io_bytes(&sj->model, sj->ranks);
        net += model_io_bytes(&sj->model, sj->ranks) + bbs_model_p2p_bytes(&sj->model,
                                                                            sj->ranks);
        /* the job lasts at least its compute, and at least its I/O with
         * every rank at its terminal link's bandwidth (a shared buffer's
         * bytes all cross it, lost ones too); a node-local buffer's do not */
        t = it * sj->model.compute_s;
        if (inject_Bps > 0 && s->arch != BBS_ARCH_NODE_LOCAL && sj->ranks > 0)
            t = fmax(t, model_io_bytes(&sj->model, sj->ranks) / ((double)sj->ranks * inject_Bps));
        t += sj->start_s;
        if (t > T)
            T = t;
    }
    c->bytes = c->ops * (double)sizeof(bbs_op);
    if (isfinite(s->horizon_s)) {
        /* the run stops at the horizon: what it transfers is not bounded
         * below, its length is */
        io = net = 0;
        if (T > s->horizon_s)
            T = s->horizon_s;
    }
    if (s->piece_bytes > 0 && s->piece_threads > 0)
        cost_term(c, &top, io / s->piece_bytes, "[storage] piece",
                  "%.3g pieces of %.4g bytes ([storage] piece)", io / s->piece_bytes,
                  s->piece_bytes);
    if (s->chunk_bytes > 0 && s->pfs_bw_Bps > 0)
        cost_term(c, &top, io / s->chunk_bytes, "[storage] chunk",
                  "%.3g drain chunks of %.4g bytes ([storage] chunk)", io / s->chunk_bytes,
                  s->chunk_bytes);
    if (bbs_net_route_is_adaptive(s->routing) && s->route_piece_bytes > 0)
        cost_term(c, &top, net / s->route_piece_bytes, "[topology] route_piece",
                  "%.3g routed pieces of %.4g bytes ([topology] route_piece)",
                  net / s->route_piece_bytes, s->route_piece_bytes);
    if (nbb > 0 && f->node_mttf_s > 0 && T > 0) {
        bbs_arrhenius a = { 1.0 / f->node_mttf_s, f->ea_eV, f->tref_C };
        double t0 = 0, h, n;
        bbs_temp_series ts = { 1, &t0, &f->temp_C };

        h = bbs_arrhenius_hazard(&a, &ts, 0, T);
        n = 2.0 * nbb * h / (1.0 + h * f->mttr_s / T);
        cost_term(c, &top, n, "[failures] mttf or mttr",
                  "%.3g node failures and repairs over %.4g s ([failures] mttf)", n, T);
    }
    if (nbb > 0 && f->drive_scale_s > 0 && f->drive_shape > 0 && T > 0) {
        bbs_weibull w = { f->drive_shape, f->drive_scale_s };
        double h = bbs_weibull_cum_hazard(&w, f->drive_age_s + T)
                   - bbs_weibull_cum_hazard(&w, f->drive_age_s), n;

        n = 2.0 * nbb * h / (1.0 + h * f->mttr_s / T);
        cost_term(c, &top, n, "[failures] drive_scale or mttr",
                  "%.3g drive failures and repairs over %.4g s ([failures] drive_scale)", n, T);
    }
}
