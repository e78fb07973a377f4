/* ops.h: per-rank operation streams of simulated applications (the
 * contract every workload model emits) and the entry point that runs them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A workload (bbs_wl) is a set of jobs; a job has n ranks and
 * communicators (communicator 0 is the world of the job); each rank has a
 * stream of operations appended with bbs_wl_append (or the helpers below).
 * Units: seconds and bytes everywhere.
 *
 * Every operation goes through three instants:
 *   ready    its dependency is satisfied (see dep below);
 *   issued   ready + delay_s (a compute delay: the op's own `time`);
 *   complete its action is done:
 *     COMPUTE  nothing to do: complete at issue (so a compute op of d
 *              seconds is {kind COMPUTE, delay_s d});
 *     SEND     the message's last byte left the fabric (eager protocol:
 *              the flow starts at issue whether or not the receive is
 *              posted; no rendezvous);
 *     RECV     the matching message has arrived (transfer end + the path's
 *              router and link delays) and the receive was issued;
 *     COLL     this rank's part of the collective algorithm is done;
 *     READ     the burst-buffer device served it and the data crossed the
 *              network back to the rank;
 *     WRITE    the data crossed the network to the rank's burst-buffer node
 *              and the node's device wrote it;
 *     WAIT     the referenced non-blocking op is complete (one WAIT per
 *              rank may be pending at a time);
 *     WAITALL  every non-blocking op the rank has issued is complete.
 * The op is "released" -- the instant from which the next op of the stream
 * in program order may become ready -- at completion, or at issue when
 * nonblocking is set (SEND, RECV, COLL, READ, WRITE may be non-blocking:
 * MPI_Isend, MPI_Irecv, MPI_Iallreduce, MPI_File_iwrite ...).
 *
 * Dependencies (dep):
 *   BBS_DEP_PREV  (default) ready when the previous op of the same rank is
 *                 released (at the job's start for the first op): program
 *                 order, what the MPI models (MILC, Nekbone ...) use;
 *   BBS_DEP_NONE  ready at the job's start;
 *   BBS_DEP_OP    ready when op dep_op of rank dep_rank (same job) is
 *                 complete.
 * The four dependency kinds of a VEF trace map as follows (one op per
 * record and task, every op with an explicit dep, so that program order
 * plays no role):
 *   INDEPENDENT  -> BBS_DEP_NONE, delay_s = time;
 *   SEND m       -> BBS_DEP_OP on the SEND op of message m (complete when
 *                   its last byte left, MPI_Send's return), delay_s = time;
 *   RECEIVE m    -> BBS_DEP_OP on the RECV op of message m (complete when
 *                   it arrived), delay_s = time;
 *   COLLECTIVE G<k> -> BBS_DEP_OP on this task's COLL op of collective k.
 * Use the VEF message id as the tag of both the SEND and the RECV: then
 * matching is exact whatever the order in which ops become ready.
 *
 * Point-to-point matching: a RECV from rank peer with tag t matches the
 * oldest unmatched SEND from peer to this rank with tag t (MPI's
 * non-overtaking rule on (source, tag, communicator)); a message that
 * arrives before its receive is issued waits (unexpected-message queue).
 * A receive size is never needed: the sender's bytes are what moves.
 *
 * Collectives: the k-th COLL op of every member of a communicator is one
 * collective instance; every member must give the same coll kind and root
 * (else bbs_exec_run fails with BB_EDATA naming the job, communicator,
 * instance and ranks).  bytes is this rank's contribution:
 *   BARRIER    dissemination, ceil(log2 p) rounds of 0-byte messages;
 *   BCAST      binomial tree from root, bytes (the root's) per edge;
 *   REDUCE     binomial tree to root, bytes per edge;
 *   ALLREDUCE  recursive doubling (bytes per round, MPICH's fold of the
 *              p - 2^floor(log2 p) extra ranks before and after) when
 *              bytes < BBS_ALLREDUCE_RING_MIN or p is small; else ring
 *              (reduce-scatter then allgather, 2(p-1) steps of bytes/p);
 *              BBS_ALGO_* (coll.h: also Rabenseifner's recursive halving
 *              and doubling) in bbs_exec_config or per job
 *              (bbs_wl_set_job_allreduce) forces one;
 *   GATHER, GATHERV  linear: every non-root sends its bytes to root (the
 *              root's own bytes do not move; GATHERV: sizes may differ);
 *   ALLTOALL   pairwise exchange, p-1 steps, bytes to each other rank.
 * A collective's messages are matched on their own tag space, never with
 * user point-to-point messages.
 *
 * I/O: READ and WRITE of bytes go to the rank's burst-buffer node (the
 * architecture of bbs_exec_config; see exec.h).  object/offset are passed
 * to the device models (sequential detection, HDD geometry).
 *
 * Sizes: streams up to ~10^6 ops per job in total; appending is amortised
 * O(1); a bbs_op is 72 bytes. */
#ifndef BBSIZE_SIM_WORKLOAD_OPS_H
#define BBSIZE_SIM_WORKLOAD_OPS_H

#include <stdint.h>

typedef enum {
    BBS_OP_COMPUTE = 0,
    BBS_OP_SEND,
    BBS_OP_RECV,
    BBS_OP_COLL,
    BBS_OP_READ,
    BBS_OP_WRITE,
    BBS_OP_WAIT,       /* ref = index of the non-blocking op in this stream */
    BBS_OP_WAITALL
} bbs_op_kind;

typedef enum {
    BBS_COLL_BARRIER = 0,
    BBS_COLL_BCAST,
    BBS_COLL_REDUCE,
    BBS_COLL_ALLREDUCE,
    BBS_COLL_GATHER,
    BBS_COLL_GATHERV,
    BBS_COLL_ALLTOALL,
    BBS_COLL_NKINDS
} bbs_coll_kind;

typedef enum { BBS_DEP_PREV = 0, BBS_DEP_NONE, BBS_DEP_OP } bbs_dep_kind;

/* Allreduce contributions at or above this use the ring algorithm. */
#define BBS_ALLREDUCE_RING_MIN 65536.0

typedef struct {
    double bytes;         /* SEND, COLL (contribution), READ, WRITE; >= 0 */
    double delay_s;       /* compute before issue (COMPUTE: its duration); >= 0 */
    int64_t tag;          /* SEND/RECV match tag (>= 0) */
    uint64_t object;      /* READ/WRITE: object id for the device models */
    uint64_t offset;      /* READ/WRITE: byte offset in the object */
    int32_t peer;         /* SEND: destination rank; RECV: source rank (job-local) */
    int32_t root;         /* COLL: root rank, a member of comm (rooted kinds) */
    int32_t comm;         /* COLL: communicator id (0 = world) */
    int32_t ref;          /* WAIT: op index in this rank's stream */
    int32_t dep_rank;     /* BBS_DEP_OP: rank of the op depended upon */
    int32_t dep_op;       /* BBS_DEP_OP: its index in that rank's stream */
    uint8_t kind;         /* bbs_op_kind */
    uint8_t coll;         /* bbs_coll_kind */
    uint8_t dep;          /* bbs_dep_kind */
    uint8_t nonblocking;  /* 1: released at issue (completion seen by WAIT) */
} bbs_op;

/* A workload under construction or ready to run. */
typedef struct bbs_wl bbs_wl;

/* bbs_op_init: a zeroed op of kind (BBS_DEP_PREV, blocking, comm 0). */
void bbs_op_init(bbs_op *op, bbs_op_kind kind);

const char *bbs_coll_name(bbs_coll_kind k);
/* bbs_coll_parse: "barrier", "bcast", "reduce", "allreduce", "gather",
 * "gatherv", "alltoall" (case-insensitive).  BB_EINVAL listing them. */
int bbs_coll_parse(const char *name, int *kind, char *err);

/* ---- building ---------------------------------------------------------- */

/* bbs_wl_set_default_max_ops: every later bbs_wl_new refuses (BB_ETOOBIG,
 * from bbs_wl_append) to hold more than n operations in all (0: no bound),
 * so that a generator asked for 10^9 files or messages stops with a
 * message instead of exhausting memory.  Process-wide: call it before
 * building workloads (from main, after reading --max-memory). */
void bbs_wl_set_default_max_ops(uint64_t n);

/* bbs_wl_new: an empty workload.  BB_ENOMEM. */
int bbs_wl_new(bbs_wl **out, char *err);
void bbs_wl_free(bbs_wl *w);                  /* NULL is a no-op */

/* bbs_wl_add_job: a job of nranks (> 0) ranks with empty streams and its
 * world communicator (id 0); name (copied, for reports) may be NULL.
 * start_s (>= 0) is when its ranks begin.  *job_out = 0, 1, ...
 * BB_EINVAL, BB_ENOMEM. */
int bbs_wl_add_job(bbs_wl *w, const char *name, int nranks, double start_s, int *job_out,
                   char *err);

/* bbs_wl_add_comm: a communicator of job made of n distinct job ranks
 * (member i of the communicator is ranks[i]; roots are given as job
 * ranks).  *comm_out = 1, 2, ...  BB_EINVAL (rank out of range or
 * repeated), BB_ENOMEM. */
int bbs_wl_add_comm(bbs_wl *w, int job, const int *ranks, int n, int *comm_out, char *err);

/* bbs_wl_append: append a copy of op to the stream of (job, rank);
 * *index_out (may be NULL) receives its index in that stream.  Checks the
 * fields of its kind (peer and root in range, bytes and delay >= 0 and
 * finite, comm known and containing the rank and root, dep_op earlier in
 * its stream when dep_rank is this rank).  BB_EINVAL naming the field,
 * BB_ENOMEM. */
int bbs_wl_append(bbs_wl *w, int job, int rank, const bbs_op *op, int *index_out, char *err);

/* Helpers for the common program-order ops (BBS_DEP_PREV). */
int bbs_wl_compute(bbs_wl *w, int job, int rank, double seconds, char *err);
int bbs_wl_send(bbs_wl *w, int job, int rank, int peer, double bytes, int64_t tag,
                int nonblocking, int *index_out, char *err);
int bbs_wl_recv(bbs_wl *w, int job, int rank, int peer, int64_t tag, int nonblocking,
                int *index_out, char *err);
int bbs_wl_waitall(bbs_wl *w, int job, int rank, char *err);
int bbs_wl_coll(bbs_wl *w, int job, int rank, bbs_coll_kind kind, int comm, int root,
                double bytes, char *err);
int bbs_wl_io(bbs_wl *w, int job, int rank, int write, double bytes, uint64_t object,
              uint64_t offset, char *err);

/* ---- reading ----------------------------------------------------------- */

int bbs_wl_njobs(const bbs_wl *w);
int bbs_wl_nranks(const bbs_wl *w, int job);
const char *bbs_wl_job_name(const bbs_wl *w, int job);
double bbs_wl_job_start(const bbs_wl *w, int job);
/* bbs_wl_set_job_start: change when job's ranks begin (>= 0, finite).
 * BB_EINVAL. */
int bbs_wl_set_job_start(bbs_wl *w, int job, double start_s, char *err);
/* bbs_wl_set_job_allreduce: the allreduce algorithm of job's collectives
 * (BBS_ALGO_* of coll.h), or -1 (the default): the run's
 * (bbs_exec_config.allreduce_algo).  BB_EINVAL. */
int bbs_wl_set_job_allreduce(bbs_wl *w, int job, int algo, char *err);
int bbs_wl_job_allreduce(const bbs_wl *w, int job);
/* bbs_wl_nops: the ops of every stream of w (O(ranks)). */
uint64_t bbs_wl_nops(const bbs_wl *w);
/* bbs_wl_stream: the ops of (job, rank) and their number. */
const bbs_op *bbs_wl_stream(const bbs_wl *w, int job, int rank, int *n);

/* Closed-form volumes of a workload as built (for tests and reports):
 * bytes of SEND ops, bytes of WRITE and READ ops, and ops by kind. */
typedef struct {
    double p2p_bytes, write_bytes, read_bytes, compute_s;
    uint64_t ops[BBS_OP_WAITALL + 1];
    uint64_t colls[BBS_COLL_NKINDS];
    double coll_bytes[BBS_COLL_NKINDS];   /* sum of contributions */
} bbs_wl_totals;
void bbs_wl_job_totals(const bbs_wl *w, int job, bbs_wl_totals *t);

/* The executor entry point, bbs_exec_run, and its configuration and
 * results are in exec.h. */

#endif
