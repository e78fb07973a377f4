/* wl_int.h: internals of a workload (ops.c, exec.c only).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_WORKLOAD_WL_INT_H
#define BBSIZE_SIM_WORKLOAD_WL_INT_H

#include <stddef.h>

#include "workload/ops.h"

typedef struct {
    bbs_op *ops;
    int n;
    size_t cap;
} bbs_wl_strm;

typedef struct {
    int n;
    int *members;        /* communicator index -> job rank */
    int *index;          /* job rank -> communicator index, or -1 */
} bbs_wl_comm;

typedef struct {
    char *name;
    int nranks;
    double start_s;
    int allreduce_algo;  /* BBS_ALGO_* (coll.h), or -1: the run's */
    bbs_wl_strm *streams;
    bbs_wl_comm *comms;
    int ncomms;
    size_t ccap;
} bbs_wl_job;

struct bbs_wl {
    bbs_wl_job *jobs;
    int njobs;
    size_t jcap;
    uint64_t nops, max_ops;   /* operations held; bound (0: none) */
};


#endif
