/* exec_match.c: the executor's messages (exec_int.h): the pool,
 * point-to-point matching on (job, tag space, source, destination, tag)
 * in a hash of FIFO queues, and the steps of a running collective (its
 * schedule comes from coll.h).
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
#include "workload/exec_int.h"
#include "workload/wl_int.h"
#include "grow.h"

static int coll_step_start(bbs_exec_state *x, coll_run *cr);

int
exec_msg_new(bbs_exec_state *x)
{
    int i;
    if (x->mfree >= 0) {
        i = x->mfree;
        x->mfree = x->m[i].next;
    } else {
        if (x->nm == INT32_MAX || bbs_grow((void **)&x->m, sizeof *x->m, &x->capm, (size_t)x->nm + 1))
            return -1;
        i = x->nm++;
    }
    memset(&x->m[i], 0, sizeof x->m[i]);
    x->m[i].send_op = x->m[i].recv_op = -1;
    x->m[i].next = x->m[i].inj_next = -1;
    return i;
}

void
exec_msg_free(bbs_exec_state *x, int i)
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
mnode_get(bbs_exec_state *x, const mkey *k, int create)
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
        if (x->nmn == INT32_MAX
            || bbs_grow((void **)&x->mn, sizeof *x->mn, &x->capmn, (size_t)x->nmn + 1))
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
mnode_release_if_empty(bbs_exec_state *x, int j)
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
q_push(bbs_exec_state *x, int *head, int *tail, int i)
{
    x->m[i].next = -1;
    if (*tail >= 0)
        x->m[*tail].next = i;
    else
        *head = i;
    *tail = i;
}

static int
q_pop(bbs_exec_state *x, int *head, int *tail)
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

/* Deliver a matched, arrived message to its receiver. */
int
exec_deliver(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    int gr = m->dst_gr, op = m->recv_op;
    coll_run *cr = m->recv_coll;
    m->recv_op = -1;
    m->recv_coll = NULL;
    m->matched = 2;               /* delivered */
    if (m->sent)
        exec_msg_free(x, mi);
    if (cr) {
        if (--cr->pending == 0)
            return coll_step_start(x, cr);
        return BB_OK;
    }
    return exec_op_complete(x, gr, op);
}

int
exec_local_send_done(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    int gr = m->src_gr, op = m->send_op;
    coll_run *cr = m->send_coll;
    m->sent = 1;
    m->send_op = -1;
    m->send_coll = NULL;
    if (m->matched == 2)
        exec_msg_free(x, mi);
    if (cr) {
        if (--cr->pending == 0)
            return coll_step_start(x, cr);
        return BB_OK;
    }
    return op >= 0 ? exec_op_complete(x, gr, op) : BB_OK;
}

/* Start a message from job rank src to dst (space 0: user tag). */
int
exec_msg_send(bbs_exec_state *x, int job, int src, int dst, int space, int64_t tag, double bytes, int op,
         coll_run *cr)
{
    int mi = exec_msg_new(x);
    if (mi < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (messages)");
    msg *m = &x->m[mi];
    int off = x->jb[job].off;
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
    x->jb[job].bytes_sent += bytes;
    x->jb[job].msgs++;
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
        exec_msg_free(x, ri);
        mnode_release_if_empty(x, j);
    } else {
        q_push(x, &x->mn[j].sq_head, &x->mn[j].sq_tail, mi);
    }
    double d = x->c->send_overhead_s + x->c->copy_s_per_byte * bytes;
    if (x->rng_jitter) {
        /* one draw per rank and instant: the sends a rank issues at once
         * keep their program order (as CODES' replay issues them) */
        rank_st *R = &x->rk[m->src_gr];
        if (R->jit_t != m->t_issue) {
            R->jit_t = m->t_issue;
            R->jit_s = x->c->jitter_s * gsl_rng_uniform(x->rng_jitter);
        }
        d += R->jit_s;
    }
    if (d > 0)
        return exec_sched(x, bbs_engine_now(x->e) + d, EV_POST, 0, mi, NULL);
    return exec_msg_post(x, mi);
}

int
exec_msg_post(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    int sn = x->rk[m->src_gr].node, dn = x->rk[m->dst_gr].node;
    if (sn == dn) {
        int rc = exec_sched(x, bbs_engine_now(x->e), EV_LOCALSEND, 0, mi, NULL);
        if (rc == BB_OK)
            rc = exec_sched(x, bbs_engine_now(x->e), EV_ARRIVE, 0, mi, NULL);
        return rc;
    }
    return exec_inject(x, mi, sn, dn);
}

int
exec_msg_recv(bbs_exec_state *x, int job, int me, int src, int space, int64_t tag, int op, coll_run *cr)
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
            return exec_deliver(x, si);
        return BB_OK;
    }
    int ri = exec_msg_new(x);
    if (ri < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (receives)");
    x->m[ri].recv_op = op;
    x->m[ri].recv_coll = cr;
    q_push(x, &x->mn[j].rq_head, &x->mn[j].rq_tail, ri);
    return BB_OK;
}

/* A collective's rank part is done (or the run is over): unlink it from
 * x->colls and free it. */
static void
coll_free(bbs_exec_state *x, coll_run *cr)
{
    if (cr->prev)
        cr->prev->next = cr->next;
    else
        x->colls = cr->next;
    if (cr->next)
        cr->next->prev = cr->prev;
    free(cr->act);
    free(cr);
}

void
exec_coll_free_all(bbs_exec_state *x)
{
    while (x->colls)
        coll_free(x, x->colls);
}

static int
coll_step_start(bbs_exec_state *x, coll_run *cr)
{
    for (;;) {
        if (cr->pos >= cr->nact) {
            int gr = cr->gr, op = cr->op;
            coll_free(x, cr);
            return exec_op_complete(x, gr, op);
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
                rc = exec_msg_send(x, cr->job, myr, peer, cr->comm + 1, tag, a->bytes, -1, cr);
            else
                rc = exec_msg_recv(x, cr->job, myr, peer, cr->comm + 1, tag, -1, cr);
            if (rc != BB_OK)
                return rc;
        }
        if (--cr->pending > 0)
            return BB_OK;
        /* every action completed synchronously (only possible with none) */
    }
}

int
exec_coll_start(bbs_exec_state *x, int gr, int idx)
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
    cr->inst = r->os[idx].inst;
    int algo = bbs_wl_job_allreduce(x->w, r->job);
    int rc = bbs_coll_schedule(op->coll, algo >= 0 ? algo : x->c->allreduce_algo, cm->n,
                               cm->index[r->rank], cm->index[op->root], op->bytes, &cr->act,
                               &cr->nact);
    if (rc != BB_OK) {
        free(cr);
        return bbs_engine_fail(x->e, rc, rc == BB_ENOMEM ? "out of memory (collective)"
                                                         : "collective: bad arguments");
    }
    cr->next = x->colls;
    if (x->colls)
        x->colls->prev = cr;
    x->colls = cr;
    return coll_step_start(x, cr);
}
