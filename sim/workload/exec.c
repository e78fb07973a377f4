/* exec.c: the executor of operation streams on the engine, the fabric and
 * the burst-buffer devices (exec.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "engine.h"
#include "network/fabric.h"
#include "rng.h"
#include "storage/bbnode.h"
#include "storage/device.h"
#include "workload/exec.h"
#include "workload/wl_int.h"

enum { EV_ISSUE = 0, EV_ARRIVE, EV_LOCALSEND, EV_DEVIN, EV_FAIL, EV_REPAIR, EV_QUIESCE,
       EV_NKINDS };
enum { M_P2P = 0, M_IOW, M_IOR };
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
    double t_xfer0;             /* when its first flow started */
} msg;

/* One rank's part of a running collective: its schedule (coll.h). */
typedef bbs_coll_act cact;

struct coll_run {
    int gr, op, job, comm, inst;
    cact *act;
    int nact, pos;              /* actions; first of the current step */
    int pending;                /* actions of the current step not done */
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

typedef struct {
    int job, rank, node, bbnode;
    const bbs_op *ops;
    int n, ndone;
    unsigned char *done;
    double *t_issue;
    int *inst;                  /* COLL: instance number on its communicator */
    int nb_out;                 /* non-blocking ops issued, not complete */
    int wait_op, waitall_op;    /* pending WAIT / WAITALL op, or -1 */
    double comm_s, io_s, compute_s, end_s;
    int act_comm, act_io;       /* ops in progress */
    double t_comm0, t_io0;      /* since when */
    int last_issued;
} rank_st;

/* A buffer node in use: the shared model (storage/bbnode.h) and its
 * failures: 0 electronics (Arrhenius), 1 drive (Weibull), both losing. */
typedef struct {
    bbs_bbnode *bn;
    gsl_rng *rng, *rlazy;       /* device times, lazy checks */
    bbs_component comp[2];
    bbs_event_id ev[2];         /* pending failure or repair of each */
    gsl_rng *frng;
} bbnode_st;

typedef struct {
    double *v;
    int n, cap;
} dvec;

typedef struct {
    const bbs_wl *w;
    const bbs_exec_config *c;
    bbs_engine *e;
    bbs_net_fabric *fab;
    gsl_rng *rng_route;
    int kinds[EV_NKINDS];
    int nranks;
    int *job_off;
    rank_st *rk;
    int *dep_off, *dep_list;    /* CSR: op (global) -> dependents (gr << 32 | op) */
    int64_t *dep_val;
    int *op_base;
    msg *m;
    int nm, capm, mfree;
    mnode *mn;
    int nmn, capmn, mnfree;
    int *bucket;
    int nbucket, nkeys;
    int nbb;
    int *bb_nodes;              /* topology node of each buffer node */
    bbnode_st *bb;
    int *node_bb;               /* topology node -> buffer node (compute nodes) */
    bbs_bbsys *sys;             /* the buffer nodes and the PFS */
    dvec *lat;                  /* per job */
    double *job_start, *job_end, *job_bytes, *job_w, *job_r;
    uint64_t *job_msgs;
    double *job_hops;           /* router hops summed over network messages */
    uint64_t *job_hopn;         /* network messages (flows and small ones) */
    /* per job: writes in progress, since when, their union, the bursts */
    int *job_wact;
    double *job_wt0, *job_write_s;
    dvec *bursts;
    /* stored bytes per job: reached the PFS, lost; writes lost */
    double *job_pfs, *job_lost;
    uint64_t *job_files_lost;
    int fail_on, lazy_on, ranks_left, quiesced;
    uint64_t nfail[2];
    bbs_temp_series ts;
    int depth;                  /* nested direct issues (ready) */
    double small_link_bytes[BBS_EXEC_NLINKKINDS];
    /* per topology node (inject_fcfs): messages waiting to inject, and
     * whether one is injecting */
    int *inj_head, *inj_tail;
    unsigned char *inj_busy;
    char *err;
} X;

static int op_complete(X *x, int gr, int idx);
static int coll_step_start(X *x, coll_run *cr);

/* ---- small helpers ------------------------------------------------------ */

static int
dvec_push(dvec *d, double v)
{
    if (bbs_wl_grow((void **)&d->v, sizeof *d->v, &d->cap, d->n + 1))
        return BB_ENOMEM;
    d->v[d->n++] = v;
    return BB_OK;
}

static int
msg_new(X *x)
{
    int i;
    if (x->mfree >= 0) {
        i = x->mfree;
        x->mfree = x->m[i].next;
    } else {
        if (bbs_wl_grow((void **)&x->m, sizeof *x->m, &x->capm, x->nm + 1))
            return -1;
        i = x->nm++;
    }
    memset(&x->m[i], 0, sizeof x->m[i]);
    x->m[i].send_op = x->m[i].recv_op = -1;
    x->m[i].next = x->m[i].inj_next = -1;
    return i;
}

static void
msg_free(X *x, int i)
{
    x->m[i].next = x->mfree;
    x->mfree = i;
}

static uint64_t
mkey_hash(const mkey *k)
{
    uint64_t h = bbs_rng_mix((uint64_t)k->job * 1000003u ^ (uint64_t)k->space);
    h = bbs_rng_mix(h ^ ((uint64_t)(uint32_t)k->src << 32 | (uint32_t)k->dst));
    return bbs_rng_mix(h ^ (uint64_t)k->tag);
}

static int
mkey_eq(const mkey *a, const mkey *b)
{
    return a->job == b->job && a->space == b->space && a->src == b->src && a->dst == b->dst
           && a->tag == b->tag;
}

/* The match node of key k (created when create), or -1. */
static int
mnode_get(X *x, const mkey *k, int create)
{
    if (x->nbucket == 0 || (create && x->nkeys + 1 > 2 * x->nbucket)) {
        int nb = x->nbucket ? 2 * x->nbucket : 1024;
        int *b = malloc((size_t)nb * sizeof *b);
        if (!b)
            return -2;
        for (int i = 0; i < nb; i++)
            b[i] = -1;
        for (int i = 0; i < x->nbucket; i++)
            for (int j = x->bucket[i]; j >= 0;) {
                int nx = x->mn[j].next;
                size_t h = mkey_hash(&x->mn[j].k) & (size_t)(nb - 1);
                x->mn[j].next = b[h];
                b[h] = j;
                j = nx;
            }
        free(x->bucket);
        x->bucket = b;
        x->nbucket = nb;
    }
    size_t h = mkey_hash(k) & (size_t)(x->nbucket - 1);
    for (int j = x->bucket[h]; j >= 0; j = x->mn[j].next)
        if (mkey_eq(&x->mn[j].k, k))
            return j;
    if (!create)
        return -1;
    int j;
    if (x->mnfree >= 0) {
        j = x->mnfree;
        x->mnfree = x->mn[j].next;
    } else {
        if (bbs_wl_grow((void **)&x->mn, sizeof *x->mn, &x->capmn, x->nmn + 1))
            return -2;
        j = x->nmn++;
    }
    x->mn[j].k = *k;
    x->mn[j].sq_head = x->mn[j].sq_tail = x->mn[j].rq_head = x->mn[j].rq_tail = -1;
    x->mn[j].next = x->bucket[h];
    x->bucket[h] = j;
    x->nkeys++;
    return j;
}

static void
mnode_release_if_empty(X *x, int j)
{
    mnode *n = &x->mn[j];
    if (n->sq_head >= 0 || n->rq_head >= 0)
        return;
    size_t h = mkey_hash(&n->k) & (size_t)(x->nbucket - 1);
    int *pp = &x->bucket[h];
    while (*pp != j)
        pp = &x->mn[*pp].next;
    *pp = n->next;
    n->next = x->mnfree;
    x->mnfree = j;
    x->nkeys--;
}

static void
q_push(X *x, int *head, int *tail, int i)
{
    x->m[i].next = -1;
    if (*tail >= 0)
        x->m[*tail].next = i;
    else
        *head = i;
    *tail = i;
}

static int
q_pop(X *x, int *head, int *tail)
{
    int i = *head;
    if (i >= 0) {
        *head = x->m[i].next;
        if (*head < 0)
            *tail = -1;
        x->m[i].next = -1;
    }
    return i;
}

static int
sched(X *x, double t, int kind, uint64_t ent, int64_t arg, void *ptr)
{
    return bbs_engine_schedule(x->e, t, x->kinds[kind], 0, ent, arg, ptr, NULL);
}

/* ---- injection: the network interface of a node ------------------------ */

/* queue_delay: what the first packet of a transfer waits on its path's
 * loaded links, from the utilisation the fabric tracks: at each link the
 * mean wait of an M/D/1 queue, rho / (2 (1 - rho)) packet times at
 * utilisation rho, but at most one packet time per flow on the link (the
 * router serves its flows' packets in turn).  0 without a packet size. */
static double
queue_delay(const X *x, const int *path, int len)
{
    const bbs_net_topo *t = x->c->topo;
    const int *nf = bbs_net_fabric_link_flows(x->fab);
    double pkt = x->c->packet_bytes, d = 0;

    if (!(pkt > 0))
        return 0;
    for (int i = 0; i < len; i++) {
        bbs_net_link_stat st;
        double cap = t->link_cap_Bps[path[i]], rho, w;

        bbs_net_fabric_link_stat(x->fab, path[i], &st);
        rho = st.rate_Bps / cap;
        w = rho < 1 ? rho / (2 * (1 - rho)) : INFINITY;
        if (w > nf[path[i]])
            w = nf[path[i]];
        d += w * pkt / cap;
    }
    return d;
}

/* send_piece: the next flow of message mi: all of it, or under adaptive
 * routing with route_piece_bytes, its next piece, routed on the loads of
 * now (CODES routes every packet adaptively; a piece is the flow model's
 * packet).  The first piece's path gives the queueing delay. */
static int
send_piece(X *x, int mi)
{
    msg *m = &x->m[mi];
    const bbs_net_topo *t = x->c->topo;
    int path[BBS_NET_MAX_PATH], minimal, len;
    double piece = m->xfer_left, rp = x->c->route_piece_bytes;

    if (x->c->route.kind == BBS_NET_ROUTE_ADAPTIVE && rp > 0 && piece > rp)
        piece = rp;
    len = bbs_net_route(t, &x->c->route, m->src_node, m->dst_node, x->rng_route,
                        bbs_net_fabric_link_flows(x->fab), path, &minimal);
    if (m->xfer_left == m->bytes)
        m->qdelay = queue_delay(x, path, len);
    m->xfer_left -= piece;
    return bbs_net_fabric_start(x->fab, m->src_node, m->dst_node, piece, path, len, minimal, mi,
                                NULL, x->err);
}

/* transmit: message mi leaves m->src_node now.  A P2P message of at most
 * small_bytes is routed but is not a flow: it is sent at the path's
 * slowest link and arrives after the path's delays and queueing; anything
 * else goes as flows on routed paths (send_piece), whose arrival adds the
 * queueing its first packet meets. */
static int
transmit(X *x, int mi)
{
    msg *m = &x->m[mi];
    const bbs_net_topo *t = x->c->topo;

    if (m->kind == M_P2P && m->bytes <= x->c->small_bytes) {
        int path[BBS_NET_MAX_PATH], len, rc;
        double cap = INFINITY, t_sent;

        len = bbs_net_route(t, &x->c->route, m->src_node, m->dst_node, x->rng_route,
                            bbs_net_fabric_link_flows(x->fab), path, NULL);
        m->qdelay = queue_delay(x, path, len);
        for (int i = 0; i < len; i++) {
            cap = fmin(cap, t->link_cap_Bps[path[i]]);
            x->small_link_bytes[t->link_kind[path[i]]] += m->bytes;
        }
        x->job_hops[m->job] += bbs_net_path_router_hops(t, path, len);
        x->job_hopn[m->job]++;
        t_sent = bbs_engine_now(x->e) + m->bytes / cap;
        rc = sched(x, t_sent, EV_LOCALSEND, 0, mi, NULL);
        if (rc == BB_OK)
            rc = sched(x, t_sent + bbs_net_path_delay_s(t, path, len) + m->qdelay, EV_ARRIVE, 0,
                       mi, NULL);
        return rc;
    }
    m->xfer_left = m->bytes;
    m->t_xfer0 = bbs_engine_now(x->e);
    return send_piece(x, mi);
}

/* inject: message mi from node src to node dst (src != dst) through src's
 * network interface: at once, or (inject_fcfs) after the messages the node
 * sent before it, one at a time, as CODES' fcfs scheduler sends a node's
 * messages, one message's packets after the other's. */
static int
inject(X *x, int mi, int src, int dst)
{
    msg *m = &x->m[mi];

    m->src_node = src;
    m->dst_node = dst;
    if (!x->c->inject_fcfs)
        return transmit(x, mi);
    if (x->inj_busy[src]) {
        m->inj_next = -1;
        if (x->inj_tail[src] >= 0)
            x->m[x->inj_tail[src]].inj_next = mi;
        else
            x->inj_head[src] = mi;
        x->inj_tail[src] = mi;
        return BB_OK;
    }
    x->inj_busy[src] = 1;
    m->injecting = 1;
    return transmit(x, mi);
}

/* injected: message mi's last byte has left its node: the next waiting
 * message of the node goes. */
static int
injected(X *x, int mi)
{
    msg *m = &x->m[mi];
    int src = m->src_node, nx;

    if (!m->injecting)
        return BB_OK;
    m->injecting = 0;
    nx = x->inj_head[src];
    if (nx < 0) {
        x->inj_busy[src] = 0;
        return BB_OK;
    }
    x->inj_head[src] = x->m[nx].inj_next;
    if (x->inj_head[src] < 0)
        x->inj_tail[src] = -1;
    x->m[nx].inj_next = -1;
    x->m[nx].injecting = 1;
    return transmit(x, nx);
}

/* ---- point-to-point ------------------------------------------------------ */

/* Deliver a matched, arrived message to its receiver. */
static int
deliver(X *x, int mi)
{
    msg *m = &x->m[mi];
    int gr = m->dst_gr, op = m->recv_op;
    coll_run *cr = m->recv_coll;
    double lat = bbs_engine_now(x->e) - m->t_issue;
    int job = m->job;
    m->recv_op = -1;
    m->recv_coll = NULL;
    m->matched = 2;               /* delivered */
    if (dvec_push(&x->lat[job], lat))
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (latencies)");
    if (m->sent)
        msg_free(x, mi);
    if (cr) {
        if (--cr->pending == 0)
            return coll_step_start(x, cr);
        return BB_OK;
    }
    return op_complete(x, gr, op);
}

static int
local_send_done(X *x, int mi)
{
    msg *m = &x->m[mi];
    int gr = m->src_gr, op = m->send_op;
    coll_run *cr = m->send_coll;
    m->sent = 1;
    m->send_op = -1;
    m->send_coll = NULL;
    if (m->matched == 2)
        msg_free(x, mi);
    if (cr) {
        if (--cr->pending == 0)
            return coll_step_start(x, cr);
        return BB_OK;
    }
    return op >= 0 ? op_complete(x, gr, op) : BB_OK;
}

/* Start a message from job rank src to dst (space 0: user tag). */
static int
msg_send(X *x, int job, int src, int dst, int space, int64_t tag, double bytes, int op,
         coll_run *cr)
{
    int mi = msg_new(x);
    if (mi < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (messages)");
    msg *m = &x->m[mi];
    int off = x->job_off[job];
    m->kind = M_P2P;
    m->job = job;
    m->src = src;
    m->dst = dst;
    m->src_gr = off + src;
    m->dst_gr = off + dst;
    m->bytes = bytes;
    m->t_issue = bbs_engine_now(x->e);
    m->send_op = op;
    m->send_coll = cr;
    x->job_bytes[job] += bytes;
    x->job_msgs[job]++;
    /* match with a posted receive */
    mkey k = { job, space, src, dst, tag };
    int j = mnode_get(x, &k, 1);
    if (j < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (matching)");
    int ri = q_pop(x, &x->mn[j].rq_head, &x->mn[j].rq_tail);
    if (ri >= 0) {
        m = &x->m[mi];
        m->matched = 1;
        m->recv_op = x->m[ri].recv_op;
        m->recv_coll = x->m[ri].recv_coll;
        msg_free(x, ri);
        mnode_release_if_empty(x, j);
    } else {
        q_push(x, &x->mn[j].sq_head, &x->mn[j].sq_tail, mi);
    }
    m = &x->m[mi];
    int sn = x->rk[m->src_gr].node, dn = x->rk[m->dst_gr].node;
    if (sn == dn) {
        int rc = sched(x, bbs_engine_now(x->e), EV_LOCALSEND, 0, mi, NULL);
        if (rc == BB_OK)
            rc = sched(x, bbs_engine_now(x->e), EV_ARRIVE, 0, mi, NULL);
        return rc;
    }
    return inject(x, mi, sn, dn);
}

static int
msg_recv(X *x, int job, int me, int src, int space, int64_t tag, int op, coll_run *cr)
{
    mkey k = { job, space, src, me, tag };
    int j = mnode_get(x, &k, 1);
    if (j < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (matching)");
    int si = q_pop(x, &x->mn[j].sq_head, &x->mn[j].sq_tail);
    if (si >= 0) {
        mnode_release_if_empty(x, j);
        msg *m = &x->m[si];
        m->matched = 1;
        m->recv_op = op;
        m->recv_coll = cr;
        if (m->arrived)
            return deliver(x, si);
        return BB_OK;
    }
    int ri = msg_new(x);
    if (ri < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (receives)");
    x->m[ri].recv_op = op;
    x->m[ri].recv_coll = cr;
    q_push(x, &x->mn[j].rq_head, &x->mn[j].rq_tail, ri);
    return BB_OK;
}

/* ---- collectives --------------------------------------------------------- */

static int
coll_step_start(X *x, coll_run *cr)
{
    for (;;) {
        if (cr->pos >= cr->nact) {
            int gr = cr->gr, op = cr->op;
            free(cr->act);
            free(cr);
            return op_complete(x, gr, op);
        }
        const bbs_wl_comm *cm = &x->w->jobs[cr->job].comms[cr->comm];
        int step = cr->act[cr->pos].step, end = cr->pos;
        while (end < cr->nact && cr->act[end].step == step)
            end++;
        cr->pending = end - cr->pos + 1;   /* +1: held until every action is posted */
        int first = cr->pos;
        cr->pos = end;
        int myr = x->rk[cr->gr].rank;
        for (int i = first; i < end; i++) {
            cact *a = &cr->act[i];
            int64_t tag = ((int64_t)cr->inst << 24) | (a->round & 0xFFFFFF);
            int peer = cm->members[a->peer], rc;
            if (a->send)
                rc = msg_send(x, cr->job, myr, peer, cr->comm + 1, tag, a->bytes, -1, cr);
            else
                rc = msg_recv(x, cr->job, myr, peer, cr->comm + 1, tag, -1, cr);
            if (rc != BB_OK)
                return rc;
        }
        if (--cr->pending > 0)
            return BB_OK;
        /* every action completed synchronously (only possible with none) */
    }
}

static int
coll_start(X *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    const bbs_wl_comm *cm = &x->w->jobs[r->job].comms[op->comm];
    coll_run *cr = calloc(1, sizeof *cr);
    if (!cr)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (collective)");
    cr->gr = gr;
    cr->op = idx;
    cr->job = r->job;
    cr->comm = op->comm;
    cr->inst = r->inst[idx];
    int algo = bbs_wl_job_allreduce(x->w, r->job);
    int rc = bbs_coll_schedule(op->coll, algo >= 0 ? algo : x->c->allreduce_algo, cm->n,
                               cm->index[r->rank], cm->index[op->root], op->bytes, &cr->act,
                               &cr->nact);
    if (rc != BB_OK) {
        free(cr);
        return bbs_engine_fail(x->e, rc, rc == BB_ENOMEM ? "out of memory (collective)"
                                                         : "collective: bad arguments");
    }
    return coll_step_start(x, cr);
}

/* ---- storage ------------------------------------------------------------- */

/* A request reaches its buffer node (after the network, if any). */
static int
dev_arrive(X *x, int mi)
{
    msg *m = &x->m[mi];
    bbs_bbnode_req rq = { (uint64_t)mi, m->job, m->kind == M_IOW, m->bytes, m->object,
                          m->offset, m->t_issue };

    return bbs_bbnode_submit(x->bb[m->bbnode].bn, &rq);
}

static int
io_start(X *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    if (x->nbb == 0 || r->bbnode < 0)
        return bbs_engine_fail(x->e, BB_EINVAL,
                               "job %s rank %d does I/O but there is no burst-buffer node",
                               x->w->jobs[r->job].name, r->rank);
    int mi = msg_new(x);
    if (mi < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (I/O)");
    msg *m = &x->m[mi];
    m->kind = op->kind == BBS_OP_WRITE ? M_IOW : M_IOR;
    m->job = r->job;
    m->src = r->rank;
    m->src_gr = gr;
    m->bytes = op->bytes;
    m->t_issue = bbs_engine_now(x->e);
    m->send_op = idx;
    m->bbnode = r->bbnode;
    m->object = op->object;
    m->offset = op->offset;
    if (m->kind == M_IOW) {
        x->job_w[r->job] += op->bytes;
        if (x->job_wact[r->job]++ == 0)
            x->job_wt0[r->job] = m->t_issue;
    } else
        x->job_r[r->job] += op->bytes;
    int bn = x->bb_nodes[r->bbnode];
    if (m->kind == M_IOR || bn == r->node)
        return dev_arrive(x, mi);
    return inject(x, mi, r->node, bn);
}

/* ---- the op state machine ------------------------------------------------ */

static int issue(X *x, int gr, int idx);

/* An op whose dependency is satisfied: issued after its delay; at once
 * (no event) when the delay is 0, up to a bounded call depth. */
static int
ready(X *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    if (r->ops[idx].delay_s == 0 && x->depth < 64) {
        x->depth++;
        int rc = issue(x, gr, idx);
        x->depth--;
        return rc;
    }
    return sched(x, bbs_engine_now(x->e) + r->ops[idx].delay_s, EV_ISSUE, gr, idx, NULL);
}

static int
release(X *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    if (idx + 1 < r->n && r->ops[idx + 1].dep == BBS_DEP_PREV)
        return ready(x, gr, idx + 1);
    return BB_OK;
}

static int
blk_kind(int kind)
{
    return kind == BBS_OP_READ || kind == BBS_OP_WRITE ? BLK_IO : BLK_COMM;
}

/* Communication (I/O) time: the union of the intervals during which the
 * rank has at least one communication (I/O) op between issue and
 * completion. */
static void
activity(rank_st *r, int k, int delta, double now)
{
    int *cnt = k == BLK_IO ? &r->act_io : &r->act_comm;
    double *t0 = k == BLK_IO ? &r->t_io0 : &r->t_comm0;
    if (delta > 0 && (*cnt)++ == 0)
        *t0 = now;
    else if (delta < 0 && --(*cnt) == 0)
        *(k == BLK_IO ? &r->io_s : &r->comm_s) += now - *t0;
}

static int
op_complete(X *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    double now = bbs_engine_now(x->e);
    int rc;
    r->done[idx] = 1;
    r->ndone++;
    if (op->kind == BBS_OP_COMPUTE)
        r->compute_s += op->delay_s;
    else if (op->kind != BBS_OP_WAIT && op->kind != BBS_OP_WAITALL)
        activity(r, blk_kind(op->kind), -1, now);
    if (r->ndone == r->n) {
        r->end_s = now;
        /* the last rank: look for quiescence once this event's kicks are done */
        if (--x->ranks_left == 0 && (x->fail_on || x->lazy_on)
            && (rc = sched(x, now, EV_QUIESCE, 0, 0, NULL)) != BB_OK)
            return rc;
        if (now > x->job_end[r->job])
            x->job_end[r->job] = now;
    }
    /* dependents */
    if (x->dep_off) {
        int g = x->op_base[gr] + idx;
        for (int k = x->dep_off[g]; k < x->dep_off[g + 1]; k++) {
            int64_t v = x->dep_val[k];
            if ((rc = ready(x, (int)(v >> 32), (int)(v & 0xFFFFFFFF))) != BB_OK)
                return rc;
        }
    }
    if (op->nonblocking) {
        r->nb_out--;
        if (r->wait_op >= 0 && r->ops[r->wait_op].ref == idx) {
            int w = r->wait_op;
            r->wait_op = -1;
            if ((rc = op_complete(x, gr, w)) != BB_OK)
                return rc;
        }
        if (r->waitall_op >= 0 && r->nb_out == 0) {
            int w = r->waitall_op;
            r->waitall_op = -1;
            if ((rc = op_complete(x, gr, w)) != BB_OK)
                return rc;
        }
        return BB_OK;
    }
    return release(x, gr, idx);
}

static int
issue(X *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    int rc = BB_OK;
    r->t_issue[idx] = bbs_engine_now(x->e);
    r->last_issued = idx;
    if (op->kind != BBS_OP_COMPUTE && op->kind != BBS_OP_WAIT && op->kind != BBS_OP_WAITALL)
        activity(r, blk_kind(op->kind), +1, r->t_issue[idx]);
    if (op->nonblocking) {
        r->nb_out++;
    }
    switch (op->kind) {
    case BBS_OP_COMPUTE:
        return op_complete(x, gr, idx);
    case BBS_OP_SEND:
        rc = msg_send(x, r->job, r->rank, op->peer, 0, op->tag, op->bytes, idx, NULL);
        break;
    case BBS_OP_RECV:
        rc = msg_recv(x, r->job, r->rank, op->peer, 0, op->tag, idx, NULL);
        break;
    case BBS_OP_COLL:
        rc = coll_start(x, gr, idx);
        break;
    case BBS_OP_READ:
    case BBS_OP_WRITE:
        rc = io_start(x, gr, idx);
        break;
    case BBS_OP_WAIT:
        if (r->done[op->ref])
            return op_complete(x, gr, idx);
        if (r->wait_op >= 0)
            return bbs_engine_fail(x->e, BB_EDATA,
                                   "job %s rank %d op %d: a second WAIT while op %d waits",
                                   x->w->jobs[r->job].name, r->rank, idx, r->wait_op);
        r->wait_op = idx;
        return BB_OK;
    case BBS_OP_WAITALL:
        if (r->nb_out == 0)
            return op_complete(x, gr, idx);
        if (r->waitall_op >= 0)
            return bbs_engine_fail(x->e, BB_EDATA,
                                   "job %s rank %d op %d: a second WAITALL while op %d waits",
                                   x->w->jobs[r->job].name, r->rank, idx, r->waitall_op);
        r->waitall_op = idx;
        return BB_OK;
    default:
        break;
    }
    if (rc == BB_OK && op->nonblocking)
        rc = release(x, gr, idx);
    return rc;
}

/* ---- event handlers ------------------------------------------------------ */

static int
h_issue(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    return issue(ctx, (int)ev->entity, (int)ev->arg);
}

static int
h_arrive(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    X *x = ctx;
    int mi = (int)ev->arg;
    msg *m = &x->m[mi];
    (void)e;
    if (m->kind == M_IOR) {
        int gr = m->src_gr, op = m->send_op;
        msg_free(x, mi);
        return op_complete(x, gr, op);
    }
    if (m->kind == M_IOW)
        return dev_arrive(x, mi);
    m->arrived = 1;
    if (m->matched == 1)
        return deliver(x, mi);
    return BB_OK;
}

static int
h_localsend(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    int rc = injected(ctx, (int)ev->arg);

    (void)e;
    return rc != BB_OK ? rc : local_send_done(ctx, (int)ev->arg);
}

/* ---- stored data: attribution and failures ----------------------------- */

static int
fail_schedule(X *x, int b, int k)
{
    bbs_component *c = &x->bb[b].comp[k];
    double t = c->health == BBS_HEALTH_OK ? c->next_fail_s : c->repair_done_s;
    x->bb[b].ev[k] = 0;
    if (!isfinite(t) || x->quiesced)
        return BB_OK;
    return bbs_engine_schedule(x->e, t, x->kinds[c->health == BBS_HEALTH_OK ? EV_FAIL : EV_REPAIR],
                               0, (uint64_t)b, k, NULL, &x->bb[b].ev[k]);
}

/* Failures and lazy checks stop once nothing can change any more: every
 * rank has ended and no drain is queued (else they would run the clock
 * forever). */
static void
quiesce(X *x)
{
    if (!(x->fail_on || x->lazy_on) || x->quiesced || x->ranks_left > 0 || !x->sys
        || !bbs_bbsys_pfs_idle(x->sys))
        return;
    x->quiesced = 1;
    bbs_bbsys_quiesce(x->sys);
    for (int b = 0; b < x->nbb; b++)
        for (int k = 0; k < 2; k++)
            if (x->bb[b].ev[k]) {
                bbs_engine_cancel(x->e, x->bb[b].ev[k]);
                x->bb[b].ev[k] = 0;
            }
}

static int
h_fail(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    X *x = ctx;
    int b = (int)ev->entity, k = (int)ev->arg, rc;
    bbnode_st *B = &x->bb[b];
    bbs_component_fail(&B->comp[k], bbs_engine_now(e), B->frng);
    x->nfail[k]++;
    if ((rc = bbs_bbnode_fail(B->bn, 1)) != BB_OK)
        return rc;
    return fail_schedule(x, b, k);
}

static int
h_repair(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    X *x = ctx;
    int b = (int)ev->entity, k = (int)ev->arg, rc;
    bbnode_st *B = &x->bb[b];
    if ((rc = bbs_component_repair(&B->comp[k], bbs_engine_now(e), &x->ts, B->frng, x->err)))
        return rc;
    if ((rc = fail_schedule(x, b, k)) != BB_OK || (rc = bbs_bbnode_repair(B->bn)) != BB_OK)
        return rc;
    quiesce(x);
    return BB_OK;
}

static int
h_quiesce(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    quiesce(ctx);
    return BB_OK;
}

/* A write of job j completed: close its write burst when it was the last
 * one in progress. */
static int
write_end(X *x, int j)
{
    if (--x->job_wact[j] == 0) {
        double d = bbs_engine_now(x->e) - x->job_wt0[j];
        x->job_write_s[j] += d;
        if (dvec_push(&x->bursts[j], d))
            return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (write bursts)");
    }
    return BB_OK;
}

/* The buffer node's hooks (bbnode.h): a request is complete (a write
 * stored, on the PFS or lost; a read served: its data goes back). */
static int
io_done(void *ctx, bbs_bbnode *bn, const bbs_bbnode_req *rq, int hdd, int lost)
{
    X *x = ctx;
    int mi = (int)rq->tag, rc;
    msg *m = &x->m[mi];

    (void)lost;
    if (m->kind == M_IOW) {
        int gr = m->src_gr, op = m->send_op;
        if ((rc = write_end(x, m->job)) != BB_OK)
            return rc;
        if (hdd)
            x->job_pfs[m->job] += m->bytes;
        msg_free(x, mi);
        return op_complete(x, gr, op);
    }
    rank_st *r = &x->rk[m->src_gr];
    int bn_node = x->bb_nodes[bbs_bbnode_index(bn)];
    if (bn_node == r->node)
        return sched(x, bbs_engine_now(x->e), EV_ARRIVE, 0, mi, NULL);
    return inject(x, mi, bn_node, r->node);
}

static void
io_drained(void *ctx, bbs_bbnode *bn, int job, double bytes)
{
    X *x = ctx;
    (void)bn;
    x->job_pfs[job] += bytes;
}

static void
io_lost(void *ctx, bbs_bbnode *bn, int job, double bytes, int files)
{
    X *x = ctx;
    (void)bn;
    x->job_lost[job] += bytes;
    x->job_files_lost[job] += (uint64_t)files;
}

static void
io_after(void *ctx)
{
    quiesce(ctx);
}

static int
h_devin(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    return dev_arrive(ctx, (int)ev->arg);
}

static int
on_flow_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    X *x = ctx;
    int mi = (int)info->tag, rc;
    msg *m = &x->m[mi];
    double t_arr = bbs_engine_now(e) + info->delay_s + m->qdelay;
    if (m->xfer_left > 0)
        return send_piece(x, mi);
    x->job_hops[m->job] += info->router_hops;
    x->job_hopn[m->job]++;
    if ((rc = injected(x, mi)) != BB_OK)
        return rc;
    if (m->kind == M_P2P) {
        if ((rc = sched(x, t_arr, EV_ARRIVE, 0, mi, NULL)) != BB_OK)
            return rc;
        return local_send_done(x, mi);
    }
    /* I/O transfers count as messages in the latency sample (as MFNetSim) */
    if (dvec_push(&x->lat[m->job], t_arr - m->t_xfer0))
        return bbs_engine_fail(e, BB_ENOMEM, "out of memory (latencies)");
    if (m->kind == M_IOW)
        return sched(x, t_arr, EV_DEVIN, 0, mi, NULL);
    return sched(x, t_arr, EV_ARRIVE, 0, mi, NULL);
}

/* ---- set-up and results ------------------------------------------------- */

void
bbs_exec_config_init(bbs_exec_config *c)
{
    memset(c, 0, sizeof *c);
    c->route.kind = BBS_NET_ROUTE_MIN;
    c->route.candidates = 2;
    c->exact_limit = -1;
    c->inject_fcfs = 1;
    c->packet_bytes = 4096;
    c->piece_bytes = 1048576;
    c->pieces_in_flight = 4;
    c->route_piece_bytes = 262144;
    c->allreduce_algo = BBS_ALGO_AUTO;
    c->arch = BBS_ARCH_COMPUTE_GLOBAL;
    c->ssd_threshold_bytes = 65536;
    c->drain = BBS_DRAIN_GREEDY;
    c->drain_chunk_bytes = 64.0 * 1048576;
    c->lazy_eps = 0.01;              /* the analytic model's EPS (validate's chain) */
    c->lazy_check_s = 1;
    c->horizon_s = INFINITY;
    c->fail.temp_C = c->fail.tref_C = 25;
    c->fail.ea_eV = 0.38;
    c->fail.drive_shape = 1;
}

void
bbs_exec_result_free(bbs_exec_result *r)
{
    if (r) {
        if (r->jobs)
            for (int j = 0; j < r->njobs; j++)
                free(r->jobs[j].bursts_s);
        free(r->jobs);
        r->jobs = NULL;
    }
}

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double
pct(const double *v, int n, double q)
{
    if (n == 0)
        return 0;
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static void
add_in_buffer(void *ctx, int job, double bytes)
{
    bbs_exec_result *res = ctx;
    res->jobs[job].bytes_in_buffer += bytes;
}

/* Instances and agreement of collectives; dependents CSR. */
static int
prepare(X *x, char *err)
{
    const bbs_wl *w = x->w;
    int ndep = 0;
    long total = 0;
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *r = &x->rk[gr];
        x->op_base[gr] = (int)total;
        total += r->n;
        if (total > (1L << 30))
            return bb_seterr(err, BB_EINVAL, "workload of more than 2^30 ops");
    }
    x->op_base[x->nranks] = (int)total;
    for (int j = 0; j < w->njobs; j++) {
        const bbs_wl_job *jb = &w->jobs[j];
        for (int c = 0; c < jb->ncomms; c++) {
            const bbs_wl_comm *cm = &jb->comms[c];
            /* members' COLL ops on c, in stream order, must agree */
            int ref_rank = cm->members[0], ref_cnt = 0;
            for (int i = 0; i < cm->n; i++) {
                rank_st *r = &x->rk[x->job_off[j] + cm->members[i]];
                rank_st *r0 = &x->rk[x->job_off[j] + ref_rank];
                int k = 0, k0 = 0;
                for (int o = 0; o < r->n; o++) {
                    if (r->ops[o].kind != BBS_OP_COLL || r->ops[o].comm != c)
                        continue;
                    r->inst[o] = k;
                    if (i > 0) {
                        while (k0 < r0->n && (r0->ops[k0].kind != BBS_OP_COLL
                                              || r0->ops[k0].comm != c))
                            k0++;
                        if (k0 >= r0->n)
                            return bb_seterr(err, BB_EDATA,
                                             "job '%s' communicator %d: rank %d calls "
                                             "collective #%d (%s) but rank %d makes only %d",
                                             jb->name, c, r->rank, k,
                                             bbs_coll_name(r->ops[o].coll), ref_rank, ref_cnt);
                        const bbs_op *a = &r->ops[o], *b = &r0->ops[k0];
                        if (a->coll != b->coll || a->root != b->root
                            || (a->coll != BBS_COLL_GATHERV && a->coll != BBS_COLL_BARRIER
                                && a->bytes != b->bytes && a->coll != BBS_COLL_GATHER
                                && a->coll != BBS_COLL_REDUCE && a->coll != BBS_COLL_BCAST))
                            return bb_seterr(err, BB_EDATA,
                                             "job '%s' communicator %d collective #%d: rank %d "
                                             "says %s root %d %.0f B, rank %d says %s root %d "
                                             "%.0f B", jb->name, c, k, r->rank,
                                             bbs_coll_name(a->coll), a->root, a->bytes,
                                             ref_rank, bbs_coll_name(b->coll), b->root,
                                             b->bytes);
                        k0++;
                    }
                    k++;
                }
                if (i == 0)
                    ref_cnt = k;
                else if (k != ref_cnt)
                    return bb_seterr(err, BB_EDATA,
                                     "job '%s' communicator %d: rank %d makes %d collectives, "
                                     "rank %d makes %d", jb->name, c, r->rank, k, ref_rank,
                                     ref_cnt);
            }
        }
    }
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *r = &x->rk[gr];
        for (int o = 0; o < r->n; o++)
            if (r->ops[o].dep == BBS_DEP_OP) {
                const bbs_op *op = &r->ops[o];
                int tg = x->job_off[r->job] + op->dep_rank;
                if (op->dep_op >= x->rk[tg].n)
                    return bb_seterr(err, BB_EINVAL,
                                     "job '%s' rank %d op %d: depends on op %d of rank %d, "
                                     "which has %d ops", x->w->jobs[r->job].name, r->rank, o,
                                     op->dep_op, op->dep_rank, x->rk[tg].n);
                ndep++;
            }
    }
    if (ndep == 0)
        return BB_OK;
    x->dep_off = calloc((size_t)total + 2, sizeof *x->dep_off);
    x->dep_val = malloc((size_t)ndep * sizeof *x->dep_val);
    if (!x->dep_off || !x->dep_val)
        return bb_seterr(err, BB_ENOMEM, "out of memory (dependencies)");
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *r = &x->rk[gr];
        for (int o = 0; o < r->n; o++)
            if (r->ops[o].dep == BBS_DEP_OP)
                x->dep_off[x->op_base[x->job_off[r->job] + r->ops[o].dep_rank]
                           + r->ops[o].dep_op + 2]++;
    }
    for (long g = 0; g < total; g++)
        x->dep_off[g + 2] += x->dep_off[g + 1];
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *r = &x->rk[gr];
        for (int o = 0; o < r->n; o++)
            if (r->ops[o].dep == BBS_DEP_OP) {
                int g = x->op_base[x->job_off[r->job] + r->ops[o].dep_rank] + r->ops[o].dep_op;
                x->dep_val[x->dep_off[g + 1]++] = ((int64_t)gr << 32) | (uint32_t)o;
            }
    }
    return BB_OK;
}

static int
setup_storage(X *x, char *err)
{
    const bbs_net_topo *t = x->c->topo;
    const bbs_exec_config *c = x->c;
    int any_io = 0;
    for (int gr = 0; gr < x->nranks && !any_io; gr++)
        for (int o = 0; o < x->rk[gr].n; o++)
            if (x->rk[gr].ops[o].kind == BBS_OP_READ || x->rk[gr].ops[o].kind == BBS_OP_WRITE) {
                any_io = 1;
                break;
            }
    for (int gr = 0; gr < x->nranks; gr++)
        x->rk[gr].bbnode = -1;
    if (!any_io)
        return BB_OK;
    if (c->arch == BBS_ARCH_NODE_LOCAL) {
        x->nbb = t->nodes;
        x->bb_nodes = malloc((size_t)t->nodes * sizeof *x->bb_nodes);
        if (!x->bb_nodes)
            return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
        for (int n = 0; n < t->nodes; n++)
            x->bb_nodes[n] = n;
        for (int gr = 0; gr < x->nranks; gr++)
            x->rk[gr].bbnode = x->rk[gr].node;
    } else {
        x->bb_nodes = malloc((size_t)t->nodes * sizeof *x->bb_nodes);
        x->node_bb = malloc((size_t)t->nodes * sizeof *x->node_bb);
        if (!x->bb_nodes || !x->node_bb)
            return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
        for (int n = 0; n < t->nodes; n++)
            if (t->node_kind[n] == BBS_NET_NODE_BB)
                x->bb_nodes[x->nbb++] = n;
        if (x->nbb == 0)
            return bb_seterr(err, BB_EINVAL,
                             "the workload does I/O but the topology has no burst-buffer "
                             "node (set bb_per_group > 0)");
        for (int n = 0; n < t->nodes; n++)
            x->node_bb[n] = -1;
        for (int i = 0; i < t->ncompute; i++)
            x->node_bb[t->compute_nodes[i]] = (int)((long)i * x->nbb / t->ncompute);
        for (int gr = 0; gr < x->nranks; gr++)
            x->rk[gr].bbnode = x->node_bb[x->rk[gr].node];
    }
    x->bb = calloc((size_t)x->nbb, sizeof *x->bb);
    if (!x->bb)
        return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
    int *used = calloc((size_t)x->nbb, sizeof *used);
    if (!used)
        return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
    for (int gr = 0; gr < x->nranks; gr++)
        used[x->rk[gr].bbnode] = 1;
    bbs_bbsys_params sp;
    bbs_bbsys_hooks h = { io_done, io_drained, io_lost, io_after, x };
    bbs_bbsys_params_init(&sp);
    sp.pfs_bw_Bps = c->pfs_bw_Bps;
    sp.drain = c->drain;
    sp.lazy_threshold_bytes = c->lazy_threshold_bytes;
    sp.lazy_eps = c->lazy_eps;
    sp.lazy_check_s = c->lazy_check_s;
    sp.drain_chunk_bytes = c->drain_chunk_bytes;
    sp.piece_bytes = c->piece_bytes;
    sp.pieces_in_flight = c->pieces_in_flight > 0 ? c->pieces_in_flight : 1;
    sp.ssd_threshold_bytes = c->ssd_threshold_bytes;
    sp.drain_fn = c->drain_fn;
    sp.drain_ctx = c->drain_ctx;
    sp.horizon_s = c->horizon_s;
    int rc = bbs_bbsys_new(&x->sys, x->e, &sp, &h, err);
    x->lazy_on = c->drain == BBS_DRAIN_LAZY;
    for (int b = 0; b < x->nbb && rc == BB_OK; b++) {
        bbnode_st *B = &x->bb[b];
        if (!used[b])
            continue;
        B->rng = bbs_rng_stream_new(NULL, c->seed, c->unit,
                                    BBS_ENTITY(BBS_ECLASS_STORAGE, (uint64_t)b));
        B->rlazy = bbs_rng_stream_new(NULL, c->seed, c->unit,
                                      BBS_ENTITY(BBS_ECLASS_PLATFORM, (uint64_t)b));
        if (!B->rng || !B->rlazy) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory (streams)");
            break;
        }
        rc = bbs_bbnode_new(x->sys, b, c->capacity_bytes > 0 ? c->capacity_bytes
                                                             : c->bb_dev.capacity_bytes,
                            &c->bb_dev, c->arch == BBS_ARCH_STORAGE_SIDE ? &c->hdd_dev : NULL,
                            B->rng, B->rng, B->rlazy, &B->bn, err);
    }
    free(used);
    return rc;
}

/* Failures of the buffer nodes in use (c->fail): an electronics
 * component (Arrhenius at a constant temperature) and a drive (Weibull
 * from its age), each failure losing the node's stored data and taking it
 * down for a repair. */
static int
fail_setup(X *x, char *err)
{
    const bbs_exec_failures *f = &x->c->fail;
    int rc;
    for (int gr = 0; gr < x->nranks; gr++)
        x->ranks_left += x->rk[gr].n > 0;
    x->fail_on = x->nbb > 0 && (f->node_mttf_s > 0 || f->drive_scale_s > 0);
    if (!x->fail_on)
        return BB_OK;
    if (!(f->mttr_s > 0))
        return bb_seterr(err, BB_EINVAL, "failures need a repair time mttr > 0");
    x->ts.n = 1;
    x->ts.time_s = &f->zero_s;
    x->ts.temp_C = &f->temp_C;
    if ((rc = bbs_temp_series_check(&x->ts, err)) != BB_OK)
        return rc;
    x->quiesced = x->ranks_left == 0;
    for (int b = 0; b < x->nbb; b++) {
        bbnode_st *B = &x->bb[b];
        if (!B->bn)
            continue;
        B->frng = bbs_rng_stream_new(NULL, x->c->seed, x->c->unit,
                                     BBS_ENTITY(BBS_ECLASS_FAILURE, (uint64_t)b));
        if (!B->frng)
            return bb_seterr(err, BB_ENOMEM, "out of memory (streams)");
        for (int k = 0; k < 2; k++) {
            bbs_component *c = &B->comp[k];
            memset(c, 0, sizeof *c);
            c->cls = k ? BBS_COMP_DRIVE : BBS_COMP_NODE;
            c->repair.kind = f->repair_exponential ? BBS_REPAIR_EXPONENTIAL : BBS_REPAIR_FIXED;
            c->repair.mean_s = f->mttr_s;
            if (k == 0 && f->node_mttf_s > 0) {
                c->law = BBS_LAW_ARRHENIUS;
                c->arr.rate_per_s = 1.0 / f->node_mttf_s;
                c->arr.ea_eV = f->ea_eV;
                c->arr.tref_C = f->tref_C;
            } else if (k == 1 && f->drive_scale_s > 0) {
                c->law = BBS_LAW_WEIBULL;
                c->wei.shape = f->drive_shape;
                c->wei.scale_s = f->drive_scale_s;
                c->age0_s = f->drive_age_s;
            } else {
                c->law = BBS_LAW_NONE;
            }
            if ((rc = bbs_component_start(c, 0, &x->ts, B->frng, err)) != BB_OK
                || (rc = fail_schedule(x, b, k)) != BB_OK)
                return rc;
        }
    }
    return BB_OK;
}

static void
x_free(X *x)
{
    if (x->rk)
        for (int gr = 0; gr < x->nranks; gr++) {
            free(x->rk[gr].done);
            free(x->rk[gr].t_issue);
            free(x->rk[gr].inst);
        }
    if (x->bb)
        for (int b = 0; b < x->nbb; b++) {
            if (x->bb[b].rng)
                gsl_rng_free(x->bb[b].rng);
            if (x->bb[b].rlazy)
                gsl_rng_free(x->bb[b].rlazy);
            if (x->bb[b].frng)
                gsl_rng_free(x->bb[b].frng);
        }
    if (x->lat)
        for (int j = 0; j < x->w->njobs; j++)
            free(x->lat[j].v);
    if (x->bursts)
        for (int j = 0; j < x->w->njobs; j++)
            free(x->bursts[j].v);
    free(x->bursts);
    free(x->job_wact);
    free(x->job_wt0);
    free(x->job_write_s);
    free(x->job_pfs);
    free(x->job_lost);
    free(x->job_files_lost);
    bbs_net_fabric_free(x->fab);
    bbs_bbsys_free(x->sys);
    bbs_engine_free(x->e);
    if (x->rng_route)
        gsl_rng_free(x->rng_route);
    free(x->rk);
    free(x->job_off);
    free(x->op_base);
    free(x->dep_off);
    free(x->dep_val);
    free(x->m);
    free(x->mn);
    free(x->bucket);
    free(x->bb);
    free(x->bb_nodes);
    free(x->node_bb);
    free(x->lat);
    free(x->job_start);
    free(x->job_end);
    free(x->job_bytes);
    free(x->job_w);
    free(x->job_r);
    free(x->job_msgs);
    free(x->inj_head);
    free(x->inj_tail);
    free(x->inj_busy);
    free(x->job_hops);
    free(x->job_hopn);
}

int
bbs_exec_run(const bbs_wl *w, const bbs_exec_config *c, bbs_exec_result *res, char *err)
{
    X xx, *x = &xx;
    int rc = BB_OK, nj = w->njobs;
    memset(x, 0, sizeof *x);
    memset(res, 0, sizeof *res);
    x->w = w;
    x->c = c;
    x->err = err;
    x->mfree = x->mnfree = -1;
    if (!c->topo || !c->place)
        return bb_seterr(err, BB_EINVAL, "no topology or no placement");
    if (c->pieces_in_flight < 0 || c->pieces_in_flight > BBS_BBNODE_MAX_INFLIGHT
        || !(c->piece_bytes >= 0)
        || !(c->packet_bytes >= 0) || !(c->route_piece_bytes >= 0))
        return bb_seterr(err, BB_EINVAL, "pieces in flight %d (1 to %d), piece %g B and packet "
                         "%g B (>= 0) out of range", c->pieces_in_flight, BBS_BBNODE_MAX_INFLIGHT,
                         c->piece_bytes, c->packet_bytes);
    if (nj == 0)
        return bb_seterr(err, BB_EINVAL, "the workload has no job");
    if (c->place->njobs != nj)
        return bb_seterr(err, BB_EINVAL, "placement of %d jobs for a workload of %d jobs",
                         c->place->njobs, nj);
    x->job_off = malloc((size_t)(nj + 1) * sizeof *x->job_off);
    if (!x->job_off)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    x->job_off[0] = 0;
    for (int j = 0; j < nj; j++) {
        int placed = c->place->job_off[j + 1] - c->place->job_off[j];
        if (placed != w->jobs[j].nranks) {
            free(x->job_off);
            return bb_seterr(err, BB_EINVAL, "job '%s' has %d ranks but %d are placed",
                             w->jobs[j].name, w->jobs[j].nranks, placed);
        }
        x->job_off[j + 1] = x->job_off[j] + w->jobs[j].nranks;
    }
    x->nranks = x->job_off[nj];
    x->rk = calloc((size_t)x->nranks, sizeof *x->rk);
    x->op_base = malloc((size_t)(x->nranks + 1) * sizeof *x->op_base);
    x->lat = calloc((size_t)nj, sizeof *x->lat);
    x->job_start = calloc((size_t)nj, sizeof(double));
    x->job_end = calloc((size_t)nj, sizeof(double));
    x->job_bytes = calloc((size_t)nj, sizeof(double));
    x->job_w = calloc((size_t)nj, sizeof(double));
    x->job_r = calloc((size_t)nj, sizeof(double));
    x->job_msgs = calloc((size_t)nj, sizeof(uint64_t));
    x->job_hops = calloc((size_t)nj, sizeof(double));
    x->job_hopn = calloc((size_t)nj, sizeof(uint64_t));
    x->job_wact = calloc((size_t)nj, sizeof(int));
    x->job_wt0 = calloc((size_t)nj, sizeof(double));
    x->job_write_s = calloc((size_t)nj, sizeof(double));
    x->bursts = calloc((size_t)nj, sizeof *x->bursts);
    x->job_pfs = calloc((size_t)nj, sizeof(double));
    x->job_lost = calloc((size_t)nj, sizeof(double));
    x->job_files_lost = calloc((size_t)nj, sizeof(uint64_t));
    res->jobs = calloc((size_t)nj, sizeof *res->jobs);
    res->njobs = nj;
    if (!x->rk || !x->op_base || !x->lat || !x->job_start || !x->job_end || !x->job_bytes
        || !x->job_w || !x->job_r || !x->job_msgs || !x->job_hops || !x->job_hopn || !x->job_wact || !x->job_wt0
        || !x->job_write_s || !x->bursts || !x->job_pfs || !x->job_lost || !x->job_files_lost
        || !res->jobs) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto out;
    }
    for (int j = 0; j < nj; j++) {
        x->job_start[j] = w->jobs[j].start_s;
        x->job_end[j] = w->jobs[j].start_s;
        for (int r = 0; r < w->jobs[j].nranks; r++) {
            rank_st *R = &x->rk[x->job_off[j] + r];
            const bbs_wl_strm *s = &w->jobs[j].streams[r];
            int node = c->place->node[c->place->job_off[j] + r];
            if (node < 0 || node >= c->topo->nodes) {
                rc = bb_seterr(err, BB_EINVAL, "job '%s' rank %d has no placement (node %d)",
                               w->jobs[j].name, r, node);
                goto out;
            }
            R->job = j;
            R->rank = r;
            R->node = node;
            R->ops = s->ops;
            R->n = s->n;
            R->wait_op = R->waitall_op = -1;
            R->last_issued = -1;
            R->end_s = w->jobs[j].start_s;
            R->done = calloc((size_t)s->n + 1, 1);
            R->t_issue = calloc((size_t)s->n + 1, sizeof(double));
            R->inst = calloc((size_t)s->n + 1, sizeof(int));
            if (!R->done || !R->t_issue || !R->inst) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory (ranks)");
                goto out;
            }
        }
    }
    if ((rc = prepare(x, err)) != BB_OK)
        goto out;
    x->rng_route = bbs_rng_stream_new(NULL, c->seed, c->unit,
                                      BBS_ENTITY(BBS_ECLASS_NETWORK, 1));
    if (!x->rng_route) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = bbs_engine_new(&x->e, 4096, err)) != BB_OK)
        goto out;
    {
        bbs_handler_fn fns[EV_NKINDS] = { h_issue, h_arrive, h_localsend, h_devin, h_fail,
                                          h_repair, h_quiesce };
        for (int k = 0; k < EV_NKINDS; k++)
            if ((rc = bbs_engine_register(x->e, fns[k], x, &x->kinds[k])) != BB_OK) {
                bb_seterr(err, rc, "cannot register handlers");
                goto out;
            }
    }
    if ((rc = setup_storage(x, err)) != BB_OK)
        goto out;
    if ((rc = bbs_net_fabric_new(&x->fab, c->topo, x->e, on_flow_done, x, err)) != BB_OK)
        goto out;
    bbs_net_fabric_set_exact_limit(x->fab, c->exact_limit);
    x->inj_head = malloc((size_t)c->topo->nodes * sizeof *x->inj_head);
    x->inj_tail = malloc((size_t)c->topo->nodes * sizeof *x->inj_tail);
    x->inj_busy = calloc((size_t)c->topo->nodes, 1);
    if (!x->inj_head || !x->inj_tail || !x->inj_busy) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory (injection queues)");
        goto out;
    }
    for (int n = 0; n < c->topo->nodes; n++)
        x->inj_head[n] = x->inj_tail[n] = -1;
    if ((rc = fail_setup(x, err)) != BB_OK)
        goto out;
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *R = &x->rk[gr];
        double t0 = w->jobs[R->job].start_s;
        /* the first op and every op without dependency start with the job;
         * the program-order chain and the BBS_DEP_OP ops follow at run time */
        for (int o = 0; o < R->n; o++) {
            int dk = R->ops[o].dep;
            if ((o == 0 && dk == BBS_DEP_PREV) || dk == BBS_DEP_NONE)
                if ((rc = sched(x, t0 + R->ops[o].delay_s, EV_ISSUE, gr, o, NULL)) != BB_OK)
                    goto out;
        }
    }
    rc = bbs_engine_run(x->e, c->horizon_s);
    if (rc != BB_OK)
        goto out;
    double now = bbs_engine_now(x->e);
    int horizon_hit = bbs_engine_pending(x->e) > 0;
    for (int gr = 0; gr < x->nranks && !horizon_hit; gr++) {
        rank_st *R = &x->rk[gr];
        if (R->ndone < R->n) {
            int o = 0;
            while (o < R->n && R->done[o])
                o++;
            const bbs_op *op = &R->ops[o];
            char what[128];
            if (op->kind == BBS_OP_RECV)
                snprintf(what, sizeof what, "a receive from rank %d, tag %lld", op->peer,
                         (long long)op->tag);
            else if (op->kind == BBS_OP_COLL)
                snprintf(what, sizeof what, "%s #%d on communicator %d",
                         bbs_coll_name(op->coll), R->inst[o], op->comm);
            else if (op->kind == BBS_OP_WAIT || op->kind == BBS_OP_WAITALL)
                snprintf(what, sizeof what, "a wait");
            else
                snprintf(what, sizeof what, "an op of kind %d whose dependency never "
                         "completed", op->kind);
            rc = bb_seterr(err, BB_EDATA,
                           "deadlock: job '%s' rank %d never completes op %d (%s); the run "
                           "ended at t = %g s", w->jobs[R->job].name, R->rank, o, what, now);
            goto out;
        }
    }
    bbs_net_fabric_flush(x->fab, now);
    const bbs_net_topo *t = c->topo;
    for (int l = 0; l < t->nlinks; l++) {
        bbs_net_link_stat st;
        bbs_net_fabric_link_stat(x->fab, l, &st);
        bbs_exec_link_result *L = &res->links[t->link_kind[l]];
        L->nlinks++;
        L->small_bytes = x->small_link_bytes[t->link_kind[l]];
        L->bytes += st.bytes;
        L->saturated_s += st.saturated_s;
        if (st.saturated_s > L->saturated_max_s)
            L->saturated_max_s = st.saturated_s;
    }
    bbs_net_fabric_cost cost;
    bbs_net_fabric_cost_get(x->fab, &cost);
    res->flows = cost.flows_started;
    res->njobs = nj;
    res->end_s = now;
    res->events = bbs_engine_events(x->e);
    if (x->sys) {
        bbs_bbsys_totals tot;
        bbs_bbsys_get_totals(x->sys, &tot);
        res->stall_s = tot.stall_s;
        res->bytes_on_pfs = tot.bytes_on_pfs;
        /* a stall still open at the end counts up to it */
        res->stall_busy_s = tot.stall_busy_s;
    }
    for (int b = 0; b < x->nbb; b++)
        if (x->bb[b].bn) {
            bbs_bbnode_state st;
            bbs_bbnode_get_state(x->bb[b].bn, &st);
            res->nbb_used++;
            res->capacity_total_bytes += st.capacity;
            bbs_bbnode_each_stored(x->bb[b].bn, add_in_buffer, res);
        }
    res->node_failures = x->nfail[0];
    res->drive_failures = x->nfail[1];
    for (int j = 0; j < nj; j++) {
        bbs_exec_job_result *J = &res->jobs[j];
        int n = w->jobs[j].nranks, fin = 1;
        J->start_s = x->job_start[j];
        J->end_s = x->job_end[j];
        J->elapsed_s = J->end_s - J->start_s;
        for (int r = 0; r < n; r++) {
            rank_st *R = &x->rk[x->job_off[j] + r];
            J->comm_mean_s += R->comm_s / n;
            J->io_mean_s += R->io_s / n;
            J->compute_mean_s += R->compute_s / n;
            if (R->comm_s > J->comm_max_s)
                J->comm_max_s = R->comm_s;
            if (R->io_s > J->io_max_s)
                J->io_max_s = R->io_s;
            if (R->ndone < R->n)
                fin = 0;
        }
        J->finished = fin;
        J->bytes_sent = x->job_bytes[j];
        J->bytes_written = x->job_w[j];
        J->write_s = x->job_write_s[j];
        J->bytes_on_pfs = x->job_pfs[j];
        J->bytes_lost = x->job_lost[j];
        J->writes_lost = x->job_files_lost[j];
        if (x->job_wact[j] > 0) {
            double d = now - x->job_wt0[j];
            J->write_s += d;
            if (dvec_push(&x->bursts[j], d)) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory (write bursts)");
                goto out;
            }
        }
        J->nbursts = x->bursts[j].n;
        J->bursts_s = x->bursts[j].v;   /* ownership moves to the result */
        x->bursts[j].v = NULL;
        x->bursts[j].n = x->bursts[j].cap = 0;
        J->bytes_read = x->job_r[j];
        J->messages = x->job_msgs[j];
        J->hops_mean = x->job_hopn[j] ? x->job_hops[j] / (double)x->job_hopn[j] : 0;
        dvec *d = &x->lat[j];
        if (d->n > 0) {
            double s = 0;
            for (int i = 0; i < d->n; i++)
                s += d->v[i];
            qsort(d->v, (size_t)d->n, sizeof *d->v, cmp_d);
            J->lat_mean_s = s / d->n;
            J->lat_p50_s = pct(d->v, d->n, 0.5);
            J->lat_p90_s = pct(d->v, d->n, 0.9);
            J->lat_p99_s = pct(d->v, d->n, 0.99);
            J->lat_max_s = d->v[d->n - 1];
        }
    }
out:
    x_free(x);
    if (rc != BB_OK)
        bbs_exec_result_free(res);
    return rc;
}
