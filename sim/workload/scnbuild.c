/* scnbuild.c: a scenario's streams and executor configuration
 * (scnbuild.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
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
    c->drain = s->drain;
    c->lazy_threshold_bytes = s->lazy_threshold_bytes;
    c->drain_chunk_bytes = s->chunk_bytes;
    c->piece_bytes = s->piece_bytes;
    c->pieces_in_flight = s->pieces_in_flight;
    c->piece_threads = s->piece_threads;
    c->seed = s->seed;
    c->horizon_s = s->horizon_s;
    c->fail = s->fail;
}
