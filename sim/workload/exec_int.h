/* exec_int.h: the executor's internal contract, shared by its files
 * (not installed, not for other modules):
 *   exec.c        set-up, the handler table, the op state machine, the run;
 *   exec_match.c  messages: the pool, point-to-point matching, a
 *                 collective's steps (its schedule is coll.h's);
 *   exec_net.c    the network interface: injection, flows, queueing delay;
 *   exec_io.c     I/O: requests to the shared buffer nodes (bbnode.h),
 *                 their failures;
 *   exec_stats.c  result statistics.
 * The state of one run is a bbs_exec_state, owned by bbs_exec_run.
 * Functions return BB_OK or a status after bbs_engine_fail (in handlers)
 * or bb_seterr (set-up).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_WORKLOAD_EXEC_INT_H
#define BBSIZE_SIM_WORKLOAD_EXEC_INT_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "engine.h"
#include "network/fabric.h"
#include "storage/bbnode.h"
#include "storage/failure.h"
#include "workload/exec.h"

typedef struct bbs_exec_state bbs_exec_state;

enum { EV_ISSUE = 0, EV_ARRIVE, EV_LOCALSEND, EV_DEVIN, EV_FAIL, EV_REPAIR, EV_QUIESCE,
       EV_POST, EV_STARVED, EV_NKINDS };
enum { M_P2P = 0, M_IOW, M_IOR, M_PIECE };
enum { BLK_NONE = 0, BLK_COMM, BLK_IO };

typedef struct coll_run coll_run;

/* A message, an I/O transfer, or a posted receive (pool entry). */
typedef struct {
    int kind;
    int job, src, dst;          /* job ranks (P2P); I/O: src = rank */
    int src_gr, dst_gr;
    double bytes, t_issue;
    int send_op;                /* op to complete at local send end, or -1 */
    coll_run *send_coll;
    int recv_op;                /* matched receive op, or -1 */
    coll_run *recv_coll;
    int matched, arrived, sent;
    int next;                   /* queue link */
    int bbnode;                 /* I/O */
    uint64_t object, offset;
    /* a transfer over the network: its nodes, its place in the source
     * node's injection queue (inj_next), whether it holds the injection
     * (injecting), and the queueing delay its first packet met */
    int src_node, dst_node;
    int inj_next, injecting;
    double qdelay;
    double xfer_left;           /* bytes not yet sent in pieces (adaptive) */
    /* a small message held by strict channel priority: the links (and its
     * channels there) whose lower channels held it, and what its arrival
     * takes once they let it go (EV_STARVED) */
    int nstarve;
    int starve_link[BBS_NET_MAX_PATH];
    unsigned char starve_vc[BBS_NET_MAX_PATH];
    double after_s;
    bbs_bbnode_piece pc;        /* M_PIECE: the node's piece it moves */
} msg;

/* One rank's part of a running collective: its schedule (coll.h). */
typedef bbs_coll_act cact;

struct coll_run {
    int gr, op, job, comm, inst;
    cact *act;
    int nact, pos;              /* actions; first of the current step */
    int pending;                /* actions of the current step not done */
    coll_run *prev, *next;      /* bbs_exec_state.colls: those in progress */
};

typedef struct {
    int job, space, src, dst;
    int64_t tag;
} mkey;

typedef struct {
    mkey k;
    int sq_head, sq_tail;       /* unmatched sends */
    int rq_head, rq_tail;       /* unmatched posted receives */
    int next;
} mnode;

/* One op's state while the run goes (rank_st.os[op]). */
typedef struct {
    int inst;                   /* COLL: instance number on its communicator */
    unsigned char done;
} op_st;

typedef struct {
    int job, rank, node, bbnode;
    const bbs_op *ops;
    int n, ndone;
    int base;                   /* index of its op 0 among every rank's ops */
    op_st *os;                  /* n entries: its part of bbs_exec_state.os */
    int nb_out;                 /* non-blocking ops issued, not complete */
    int wait_op, waitall_op;    /* pending WAIT / WAITALL op, or -1 */
    double comm_s, io_s, compute_s, end_s;
    double lat_sum_s;           /* latencies of the messages it sent */
    int64_t lat_n;              /* and their number */
    int act_comm, act_io;       /* ops in progress */
    double t_comm0, t_io0;      /* since when */
    int act_kind[BBS_EXEC_NKINDS];       /* the same by kind (exec.h) */
    double jit_t, jit_s;        /* jitter_s: the instant of its last send and
                                   the jitter drawn then (-1: none yet) */
    double t_kind0[BBS_EXEC_NKINDS], kind_s[BBS_EXEC_NKINDS];
    int last_issued;
} rank_st;

/* A buffer node in use: the shared model (storage/bbnode.h) and its
 * failures: 0 electronics (Arrhenius), 1 drive (Weibull), both losing. */
typedef struct {
    int node;                   /* its topology node */
    bbs_bbnode *bn;
    gsl_rng *rng, *rlazy;       /* device times, lazy checks */
    bbs_component comp[2];
    bbs_event_id ev[2];         /* pending failure or repair of each */
    gsl_rng *frng;
} bbnode_st;

typedef struct {
    double *v;
    int n;
    size_t cap;                 /* grow.h */
} dvec;

/* One job's state: its ranks, times and counters, summed into its
 * bbs_exec_job_result at the end. */
typedef struct {
    int off;                    /* global index of its rank 0 */
    double start_s, end_s;
    double bytes_sent, bytes_written, bytes_read;
    uint64_t msgs;
    double hops;                /* router hops summed over network messages */
    uint64_t hopn;              /* network messages (flows and small ones) */
    dvec lat;                   /* message latencies */
    /* writes in progress, since when, their union, the bursts */
    int wact;
    double wt0, write_s;
    dvec bursts;
    /* stored bytes: reached the PFS, lost; writes lost */
    double pfs, lost;
    uint64_t files_lost;
} job_st;

/* One topology node: its injection queue (inject_fcfs: messages waiting
 * to exec_inject, and whether one is injecting) and, for a compute node,
 * its buffer node (-1: none). */
typedef struct {
    int inj_head, inj_tail;
    unsigned char inj_busy;
    int bb;
} node_st;

struct bbs_exec_state {
    const bbs_wl *w;
    const bbs_exec_config *c;
    bbs_engine *e;
    bbs_net_fabric *fab;
    gsl_rng *rng_route;
    gsl_rng *rng_jitter;         /* jitter_s > 0: one uniform per message sent */
    int kinds[EV_NKINDS];
    int nranks;
    rank_st *rk;
    op_st *os;                  /* every rank's ops, rank after rank */
    int *dep_off;               /* CSR: op (global) -> dependents (gr << 32 | op) */
    int64_t *dep_val;
    msg *m;
    int nm, mfree;
    size_t capm;
    mnode *mn;
    int nmn, mnfree;
    size_t capmn;
    int *bucket;
    int nbucket, nkeys;
    int nbb;
    bbnode_st *bb;
    coll_run *colls;            /* collectives in progress (a horizon leaves some) */
    node_st *nd;                /* per topology node */
    bbs_bbsys *sys;             /* the buffer nodes and the PFS */
    job_st *jb;                 /* per job */
    int fail_on, lazy_on, ranks_left, quiesced;
    uint64_t nfail[2];
    bbs_temp_series ts;
    int depth;                  /* nested direct issues (ready) */
    double small_link_bytes[BBS_EXEC_NLINKKINDS];
    int64_t ops_total;          /* every rank's ops */
    int64_t ops_done;           /* completed (exec_op_complete) */
    int64_t progress_next;      /* ops_done at the next progress call */
    char *err;
};


/* Schedule an event of one of the executor's kinds (EV_*). */
static inline int
exec_sched(bbs_exec_state *x, double t, int kind, uint64_t ent, int64_t arg, void *ptr)
{
    return bbs_engine_schedule(x->e, t, x->kinds[kind], 0, ent, arg, ptr, NULL);
}

/* exec.c: the op state machine */
int exec_op_complete(bbs_exec_state *x, int gr, int idx);

/* exec_match.c: the message pool (an index, -1 when out of memory; every
 * field zero but the links), matching and collectives */
int exec_msg_new(bbs_exec_state *x);
void exec_msg_free(bbs_exec_state *x, int i);
int exec_msg_send(bbs_exec_state *x, int job, int src, int dst, int space, int64_t tag,
                  double bytes, int op, coll_run *cr);
int exec_msg_recv(bbs_exec_state *x, int job, int me, int src, int space, int64_t tag, int op,
                  coll_run *cr);
int exec_deliver(bbs_exec_state *x, int mi);
int exec_local_send_done(bbs_exec_state *x, int mi);
int exec_coll_start(bbs_exec_state *x, int gr, int idx);
/* exec_coll_free_all: free the collectives still in progress. */
void exec_coll_free_all(bbs_exec_state *x);

/* exec_net.c: the network interface of a node */
int exec_inject(bbs_exec_state *x, int mi, int src, int dst);
int exec_injected(bbs_exec_state *x, int mi);
int exec_on_flow_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx);

/* exec_io.c: I/O and buffer-node failures */
int exec_io_start(bbs_exec_state *x, int gr, int idx);
int exec_dev_arrive(bbs_exec_state *x, int mi);
/* exec_msg_post: P2P message mi reaches its node's interface now. */
int exec_msg_post(bbs_exec_state *x, int mi);
/* exec_piece_arrive: M_PIECE message mi has crossed the network. */
int exec_piece_arrive(bbs_exec_state *x, int mi);
int exec_setup_storage(bbs_exec_state *x, char *err);
int exec_fail_setup(bbs_exec_state *x, char *err);
int exec_h_fail(bbs_engine *e, const bbs_event *ev, void *ctx);
int exec_h_repair(bbs_engine *e, const bbs_event *ev, void *ctx);
int exec_h_quiesce(bbs_engine *e, const bbs_event *ev, void *ctx);
int exec_h_devin(bbs_engine *e, const bbs_event *ev, void *ctx);
/* exec_net.c: a small message held by strict channel priority looks again */
int exec_h_starved(bbs_engine *e, const bbs_event *ev, void *ctx);

/* exec_stats.c: growable samples and the results */
int exec_dvec_push(dvec *d, double v);
int exec_collect(bbs_exec_state *x, bbs_exec_result *res, double now, char *err);

#endif
