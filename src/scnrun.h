/* scnrun.h: load a scenario file into a runnable workload and executor
 * configuration (shared by `bbsize simulate SCENARIO.ini`, `compare` and
 * `validate --scenario`; src/scnrun.c, so that no command reaches into
 * another's file).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bb_scn_load reads and checks everything the scenario names (topology,
 * placement, devices, jobs) and dies with the documented status on any
 * error (it is src/ code); bb_scn_free releases it. */
#ifndef BBSIZE_SRC_SCNRUN_H
#define BBSIZE_SRC_SCNRUN_H

#include "network/bbsnet.h"
#include "workload/exec.h"
#include "workload/scenario.h"
#include "workload/vef.h"
#include "workload/vefdist.h"

typedef struct {
    bbs_scenario s;
    bbs_net_params par;
    bbs_net_topo *topo;
    bbs_net_placement pl;
    bbs_wl *w;                  /* generated for unit 0 */
    bbs_vef **vef;              /* per job: its parsed trace (vef jobs), else NULL */
    bbs_sizedist **sizes;       /* per job: its size table (DCNW, CDCNW), else NULL */
    int random_wl;              /* trace jobs: the streams depend on the unit */
    bbs_exec_config cfg;
    double est_events;          /* events of one run, estimated (scnrun.c) */
    bbs_exec_result res;
    double wall_s;
} bb_scn_run;

/* bb_scn_load: load file; with have_seed, seed replaces its [run] seed. */
void bb_scn_load(bb_scn_run *R, const char *file, int have_seed, unsigned long long seed);
void bb_scn_free(bb_scn_run *R);

/* bb_scn_build: the scenario's workload with the generators' draws of
 * stream unit `unit`: bbs_scenario_build (sim/workload/scnbuild.h) on R's
 * scenario, traces and size tables; thread safe (reads R only). */
int bb_scn_build(const bb_scn_run *R, uint64_t unit, bbs_wl **out, char *err);

/* bb_trace_load_sizes (also for `bbsize trace`): the size table of a DCNW model
 * (data/vef) or of a CDCNW trace (its file, beside the trace, or
 * override); dies on error. */
bbs_sizedist *bb_trace_load_sizes(const bbs_vef *v, const char *trace, const char *override);

#endif
