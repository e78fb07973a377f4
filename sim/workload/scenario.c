/* scenario.c: a scenario's defaults and its release (scenario.h); its
 * sections and keys are read by src/formats/scenario_keys.c.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "network/place.h"
#include "network/route.h"
#include "workload/exec.h"
#include "workload/scenario.h"

const char *
bbs_scn_job_model_name(const bbs_scn_job *j)
{
    return j->trace ? bbs_tracejob_name(j->tj.kind) : bbs_model_name(j->model.kind);
}

void
bbs_scenario_free(bbs_scenario *s)
{
    if (s) {
        free(s->jobs);
        free(s->seen);
        s->jobs = NULL;
        s->seen = NULL;
        s->njobs = s->nseen = s->jobs_cap = s->seen_cap = 0;
    }
}

void
bbs_scenario_init(bbs_scenario *s, const char *source)
{
    memset(s, 0, sizeof *s);
    snprintf(s->source, sizeof s->source, "%s", source);
    strcpy(s->preset, "mfnetsim-1056");
    s->bb_per_group = -1;
    s->compute_per_group = -1;
    s->link_delay_s[0] = s->link_delay_s[1] = s->link_delay_s[2] = -1;
    s->routing = BBS_NET_ROUTE_MIN;
    s->candidates = 2;
    s->exact_limit = -1;
    s->inject_fcfs = 1;
    s->backpressure = 1;            /* credit flow control, as CODES */
    s->store_forward = 1;           /* dragonfly-dally's per-hop chunk time */
    s->vc_priority = 1;             /* dragonfly-dally's channel order */
    s->vc_scheme = BBS_NET_VC_GROUP; /* and its channels on kronos-union */
    s->router_per_packet = 1;       /* its ports: router_delay with every chunk */
    s->send_overhead_s = 3.51e-6;  /* MFNetSim's client: 10 + 2500 + 1000 ns */
    s->copy_s_per_byte = 0.55e-9;  /* its copy_per_byte_eager */
    s->packet_bytes = 4096;
    s->route_piece_bytes = 262144;
    s->arch = BBS_ARCH_COMPUTE_GLOBAL;
    strcpy(s->device, "mfnetsim-bb");
    strcpy(s->hdd, "seagate-st2000nx0253");
    s->ssd_threshold_bytes = 65536;
    s->chunk_bytes = 64.0 * 1048576;
    s->piece_bytes = 1e6;       /* MFNetSim's thread_buf_sz */
    s->pieces_in_flight = 4;
    s->piece_threads = 4;       /* its req_threads */
    s->placement = s->policy_kind = BBS_NET_PLACE_CONT;
    s->seed = 1;
    {
        bbs_exec_config d;
        bbs_exec_config_init(&d);
        s->fail = d.fail;
    }
    s->horizon_s = INFINITY;
    s->cur_job = -1;
}

