/* scnbuild.h: a loaded scenario (scenario.h) made runnable: the operation
 * streams of its jobs and the executor configuration it implies.  Pure:
 * the caller (src/scnrun.c) reads the files the scenario names (traces,
 * size tables, devices, topology, placement) and hands them in.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_WORKLOAD_SCNBUILD_H
#define BBSIZE_SIM_WORKLOAD_SCNBUILD_H

#include <stdint.h>

#include "workload/exec.h"
#include "workload/scenario.h"
#include "workload/vef.h"
#include "workload/vefdist.h"

/* bbs_scenario_build: the streams of every job of s with the generators'
 * draws of stream unit `unit` (rng.h; the MFNetSim models draw nothing):
 * vef jobs from vef[j] (and sizes[j] for DCNW and CDCNW traces), the other
 * trace models from their parameters, the MFNetSim models by
 * bbs_model_generate; each job's start and allreduce algorithm set.
 * Thread safe (reads its arguments only).  Errors: the generators', with
 * "source: job 'name' (line N): " in front; *out is then untouched.
 * *out is freed by the caller with bbs_wl_free. */
int bbs_scenario_build(const bbs_scenario *s, bbs_vef *const *vef, bbs_sizedist *const *sizes,
                       uint64_t unit, bbs_wl **out, char *err);

/* What a scenario's run will cost, from its keys alone (nothing built). */
typedef struct {
    double ops;        /* operations the model jobs generate: at least one per
                          rank and iteration (MILC, Checkpoint, Cosmoflow), two
                          per rank and CG iteration (Nekbone); trace jobs are
                          bounded by their own generators and not counted */
    double bytes;      /* memory those operations hold (ops x sizeof(bbs_op)) */
    double events;     /* engine events: one per operation, per piece of a
                          buffer request (piece), per routed piece of a
                          transfer (route_piece, adaptive routing), per drain
                          chunk (chunk), and two per failure and repair of a
                          buffer node over the shortest run the jobs allow
                          (their start plus the longer of iterations x
                          compute and their I/O at the links' bandwidth) */
    char what[160];    /* the largest term, in words */
    char change[96];   /* the keys that shrink it */
} bbs_scenario_cost;

/* bbs_scenario_estimate: the cost of running s once, before anything is
 * built: lower bounds from its keys (the jobs' iterations, sizes and
 * times, piece, route_piece, chunk, the failure laws over the run), so
 * that a run refused on it is certainly over the bound.  nbb: buffer
 * nodes of the topology (failures); inject_Bps: the most a compute node's
 * terminal link carries each way (bytes/s; 0: unknown), so that a job of
 * a shared buffer (not node-local) lasts at least its buffer bytes over
 * its ranks' links, the run length the failure laws' expected counts
 * are taken over (with the compute: start + max(iterations x compute,
 * I/O time)); horizon: s->horizon_s caps the run.  O(jobs). */
void bbs_scenario_estimate(const bbs_scenario *s, int nbb, double inject_Bps,
                           bbs_scenario_cost *c);

/* bbs_scenario_exec_config: c initialised (bbs_exec_config_init) and set
 * from s: routing, message and packet sizes, the burst-buffer
 * architecture, capacity, draining, PFS bandwidth, seed, horizon and
 * failures.  The topology, placement and devices are the caller's
 * (c->topo, c->place, c->bb_dev, c->hdd_dev). */
void bbs_scenario_exec_config(const bbs_scenario *s, bbs_exec_config *c);

#endif
