/* horovod.h: the HOROVOD model of the extended VEF traces (Horovod data-
 * parallel training: per layer, compute, a negotiation loop of Gather /
 * Gatherv / Bcast, then an Allreduce of the gradients).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For each batch and layer (parameters from the trace, bbs_hvd_layer):
 *   1. every rank computes Exp(COMPUTE_MS) ms [the distribution is ours:
 *      the paper says "average"];
 *   2. negotiation iteration: every rank takes part in a Gather of 4 B to
 *      the master (rank 0), then a Gatherv to it of GATV_BYTES (with
 *      probability GATV_PROB, while the rank has sent fewer than
 *      k = ceil(GATV_TOTAL_BYTES / GATV_BYTES) such messages in this layer)
 *      or of 25 B (the empty message);
 *   3. when every rank has sent its k full messages, the master
 *      broadcasts 4 B and BCAST_BYTES, and every rank joins an Allreduce
 *      of ARED_KBYTES x 1024 B; the layer ends;
 *   4. otherwise the master broadcasts 4 B and 25 B, every rank waits
 *      Exp(NEGOTIATION_LOOP_MS) ms and the loop goes back to 2.
 * Rank 0 is also a worker (Horovod's coordinator trains too); its own
 * Gather/Gatherv contributions do not cross the network.  GATV_BYTES is
 * the size of every full message [ours: the paper says "average"].
 *
 * Closed forms (tests/t_traces.c): per layer, each rank contributes
 * exactly k full Gatherv messages and I - k empty ones, where I is the
 * layer's number of iterations; with GATV_PROB = 1, I = k. */
#ifndef BBSIZE_SIM_WORKLOAD_HOROVOD_H
#define BBSIZE_SIM_WORKLOAD_HOROVOD_H

#include <stdint.h>

#include "workload/vef.h"
#include "workload/wlsink.h"

#define BBS_HVD_EMPTY_BYTES 25.0
#define BBS_HVD_SIZE_BYTES 4.0
/* A layer may loop at most this many times (else BB_EINVAL: the
 * negotiation would practically never end). */
#define BBS_HVD_MAX_ITER 1000000L

/* bbs_hvd_walk: emit the whole run of trace v (kind HOROVOD) on nranks
 * ranks (nranks <= 0: the trace's #Tasks) through sink, in program order
 * per rank.  *iterations (may be NULL) receives the total number of
 * negotiation iterations.  Random draws: one stream per (seed, unit, rank).
 * Errors: BB_EINVAL (fewer than 2 ranks, GATV_PROB = 0, a layer that
 * exceeds BBS_HVD_MAX_ITER iterations), the sink's status, BB_ENOMEM. */
int bbs_hvd_walk(const bbs_vef *v, int nranks, uint64_t seed, uint64_t unit,
                 const bbs_wl_sink *sink, uint64_t *iterations, char *err);

#endif
