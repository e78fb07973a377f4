/* tracegen.h: the trace-driven models as operation streams (ops.h): one
 * job per trace or model, appended to a workload.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mappings (documented in bbsize-trace(1) and bbsize-vef(5)):
 *  - plain VEF: one op per record and task, each with an explicit
 *    dependency (INDEPENDENT -> BBS_DEP_NONE; SEND m / RECEIVE m -> the
 *    SEND / RECV op of message m; COLLECTIVE G<k> -> the task's op of
 *    collective k), delay = time x clock_ps; every message is a SEND on its
 *    source and a RECV posted at the start on its destination, both with
 *    tag = message id.  Communicators C1... become job communicators.
 *    Collective sizes: BROADCAST the root's send, REDUCE the root's recv
 *    (else send), ALLREDUCE send, GATHER each task's send, ALLTOALL send
 *    per destination (send / p when recv = 1, as Taz), BARRIER 0;
 *    ALLGATHER = GATHERV to the first rank then BCAST of the sum;
 *    SCATTER = non-blocking sends of recv bytes from the root, one receive
 *    per member (tags above the message ids).
 *  - DCNW / CDCNW / FLOWS: every message is a SEND issued at its arrival
 *    time (BBS_DEP_NONE, delay = t) and a RECV posted at the start.
 *  - HOROVOD, file loads: program order (compute, world collectives; a
 *    pause then one WRITE or READ per file).
 *  - Graph500, per process and level l: post a non-blocking receive for
 *    every message it will get (tag l); for each of its own messages,
 *    compute t_q x queries (generation) and send it non-blocking; then, in
 *    round-robin order over the sources, wait for each incoming message
 *    and compute t_q x its queries (the half-duplex consumer: a process
 *    never generates and consumes at once); then send an end-of-level
 *    signal of signal_bytes to every other process and receive theirs,
 *    wait for all, and join an 8-byte allreduce (ours: recursive doubling;
 *    FOGSim: linear). */
#ifndef BBSIZE_SIM_WORKLOAD_TRACEGEN_H
#define BBSIZE_SIM_WORKLOAD_TRACEGEN_H

#include "workload/dcnw.h"
#include "workload/fileload.h"
#include "workload/g500.h"
#include "workload/horovod.h"
#include "workload/ops.h"
#include "workload/vef.h"
#include "workload/wlsink.h"

/* bbs_tracegen_sink: a sink that appends to job of w (see above). */
typedef struct {
    bbs_wl *w;
    int job;
    char *err;
} bbs_tracegen_ctx;
bbs_wl_sink bbs_tracegen_sink(bbs_tracegen_ctx *ctx);

/* Each adds one job named name to w (*job_out receives it) and fills it.
 * Errors: those of ops.h (BB_EINVAL, BB_ENOMEM), the model's. */
int bbs_tracegen_vef(bbs_wl *w, const char *name, const bbs_vef *v, const bbs_sizedist *d,
                     long max_msgs, uint64_t seed, uint64_t unit, int *job_out, char *err);
int bbs_tracegen_g500(bbs_wl *w, const char *name, const bbs_g500_plan *pl, int *job_out,
                      char *err);
int bbs_tracegen_fileload(bbs_wl *w, const char *name, const bbs_fileload *f, uint64_t seed,
                          uint64_t unit, int *job_out, char *err);

#endif
