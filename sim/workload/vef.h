/* vef.h: VEF traces, plain (MPI) and extended (EXT DCNW, CDCNW, FLOWS,
 * HOROVOD), as data; the reader with the exact grammar of man/bbsize-vef.5
 * is bbs_vef_parse (src/formats/vef_file.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bbs_vef_parse reads a whole trace from memory and validates it; every
 * error message is "FILE:LINE: ... 'TOKEN' ..." (BB_EDATA).  Keywords are
 * case-insensitive.  The result is plain data that the generators
 * (dcnw.h, horovod.h) and the executors turn into operations.
 *
 * Validation of a plain trace: header with 7 or 8 tokens (optional clock
 * in ps, default 1000); oSFlag TRUE or FALSE; communicator lines C0, C1...
 * in order with ranks in range, no repeats, C0 = all tasks; message ids
 * dense 0, 1, 2... in file order and their count = #Msgs; src != dst, both
 * in range, size >= 0; dependency kinds by name or code (0 INDEPENDENT,
 * 1 COLLECTIVE, 2 SEND, 3 RECEIVE [inferred codes]); a SEND dependency must
 * name a message sent by the same task, a RECEIVE dependency one received
 * by it, a COLLECTIVE dependency a collective the task takes part in;
 * collective ids dense G0, G1... in order of first line; all lines of one
 * collective agree on communicator and operation, each member of the
 * communicator appears exactly once, the root (REDUCE: the line with a
 * non-zero recv size; BROADCAST/GATHER/SCATTER: as for REDUCE, else the
 * communicator's first rank) is unique, ALLREDUCE lines have
 * send = recv, and the number of collectives on C0 / on other communicators
 * equals gGComm / lGComm. */
#ifndef BBSIZE_SIM_WORKLOAD_VEF_H
#define BBSIZE_SIM_WORKLOAD_VEF_H

#include <stddef.h>
#include <stdint.h>

#include "workload/vefdist.h"

enum bbs_vef_kind { BBS_VEF_MPI = 0, BBS_VEF_DCNW, BBS_VEF_CDCNW, BBS_VEF_FLOWS, BBS_VEF_HOROVOD };
enum bbs_vef_dep { BBS_VEF_DEP_INDEPENDENT = 0, BBS_VEF_DEP_COLLECTIVE = 1, BBS_VEF_DEP_SEND = 2,
                   BBS_VEF_DEP_RECEIVE = 3 };
enum bbs_vef_op { BBS_VEF_OP_BCAST = 0, BBS_VEF_OP_REDUCE, BBS_VEF_OP_ALLREDUCE, BBS_VEF_OP_GATHER,
                  BBS_VEF_OP_SCATTER, BBS_VEF_OP_ALLGATHER, BBS_VEF_OP_BARRIER, BBS_VEF_OP_ALLTOALL,
                  BBS_VEF_OP_NOPS };

typedef struct {
    int src, dst;
    uint64_t bytes;
    int dep;        /* enum bbs_vef_dep */
    int64_t dep_id; /* message id, or collective id for COLLECTIVE; -1 none */
    double time;    /* compute before sending, in clock ticks */
    long line;
} bbs_vef_msg;

typedef struct { /* one participant's line of a collective */
    int task;
    uint64_t send, recv;
    int dep;
    int64_t dep_id;
    double time;
    long line;
} bbs_vef_part;

typedef struct {
    int comm, op, root; /* root: task, or -1 for rootless operations */
    size_t nparts;
    bbs_vef_part *parts;
    long line;          /* first line */
} bbs_vef_coll;

typedef struct { /* FLOWS class */
    double min_kb, max_kb, perc;
    int has_dest;
    bbs_dest dest;
} bbs_vef_class;

typedef struct { /* HOROVOD layer parameters */
    double compute_ms, negotiation_ms, gatv_prob;
    uint64_t gatv_bytes, gatv_total_bytes, bcast_bytes, ared_kbytes;
} bbs_hvd_layer;

typedef struct {
    int kind;                /* enum bbs_vef_kind */
    int version;             /* the digit(s) after "VEF" */
    int ntasks;
    long nmsgs;              /* #Msgs: records, or the cap of generated messages/flows */
    int ncomm;
    long gcoll, lcoll;
    int osflag;              /* TRUE = 1 */
    double clock_ps;         /* default 1000 */
    /* MPI */
    int **comm;              /* comm[k]: ranks of communicator k */
    int *comm_size;
    bbs_vef_msg *msgs;       /* nmsgs of them, by id */
    size_t ncoll;
    bbs_vef_coll *colls;     /* by id */
    /* DCNW / CDCNW */
    char model[256];         /* DCNW model keyword, or CDCNW file name as written */
    bbs_dest dest;           /* DCNW destinations; FLOWS default */
    double load_gbps;        /* DCNW LOAD, default 1 */
    /* FLOWS */
    int nclasses;
    double flow_time;        /* generation window, in clock ticks */
    bbs_vef_class *classes;
    /* HOROVOD */
    long batches;
    int layers;
    bbs_hvd_layer *layer;    /* layers entries, DEFAULT then overrides */
} bbs_vef;

void bbs_vef_free(bbs_vef *v);

const char *bbs_vef_kind_name(int kind);   /* "MPI", "DCNW", ... */
const char *bbs_vef_op_name(int op);       /* "BROADCAST", ... */
const char *bbs_vef_dep_name(int dep);     /* "INDEPENDENT", ... */

/* Totals of a plain trace: point-to-point bytes, and for each collective
 * the payload bytes its participants declare (sum of send sizes). */
uint64_t bbs_vef_p2p_bytes(const bbs_vef *v);

#endif
