/* exec_io.c: the executor's I/O (exec_int.h): READ and WRITE requests to
 * the shared burst-buffer nodes (storage/bbnode.h), the nodes' set-up, and
 * their failures and quiescence.
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

/* A request reaches its buffer node (after the network, if any). */
int
exec_dev_arrive(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    bbs_bbnode_req rq = { (uint64_t)mi, m->job, m->kind == M_IOW, m->bytes, m->object,
                          m->offset, m->t_issue };

    return bbs_bbnode_submit(x->bb[m->bbnode].bn, &rq);
}

int
exec_io_start(bbs_exec_state *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    if (x->nbb == 0 || r->bbnode < 0)
        return bbs_engine_fail(x->e, BB_EINVAL,
                               "job %s rank %d does I/O but there is no burst-buffer node",
                               x->w->jobs[r->job].name, r->rank);
    int mi = exec_msg_new(x);
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
        job_st *J = &x->jb[r->job];
        J->bytes_written += op->bytes;
        if (J->wact++ == 0)
            J->wt0 = m->t_issue;
    } else
        x->jb[r->job].bytes_read += op->bytes;
    int bn = x->bb[r->bbnode].node;
    /* with the server's threads the request (a control message, not
     * modelled) reaches the node at once and its pieces cross the network */
    if (m->kind == M_IOR || bn == r->node || x->c->piece_threads > 0)
        return exec_dev_arrive(x, mi);
    return exec_inject(x, mi, r->node, bn);
}

static int
fail_schedule(bbs_exec_state *x, int b, int k)
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
quiesce(bbs_exec_state *x)
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

int
exec_h_fail(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_exec_state *x = ctx;
    int b = (int)ev->entity, k = (int)ev->arg, rc;
    bbnode_st *B = &x->bb[b];
    bbs_component_fail(&B->comp[k], bbs_engine_now(e), B->frng);
    x->nfail[k]++;
    if ((rc = bbs_bbnode_fail(B->bn, 1)) != BB_OK)
        return rc;
    return fail_schedule(x, b, k);
}

int
exec_h_repair(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_exec_state *x = ctx;
    int b = (int)ev->entity, k = (int)ev->arg, rc;
    bbnode_st *B = &x->bb[b];
    if ((rc = bbs_component_repair(&B->comp[k], bbs_engine_now(e), &x->ts, B->frng, x->err)))
        return rc;
    if ((rc = fail_schedule(x, b, k)) != BB_OK || (rc = bbs_bbnode_repair(B->bn)) != BB_OK)
        return rc;
    quiesce(x);
    return BB_OK;
}

int
exec_h_quiesce(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    quiesce(ctx);
    return BB_OK;
}

/* A write of job j completed: close its write burst when it was the last
 * one in progress. */
static int
write_end(bbs_exec_state *x, int j)
{
    job_st *J = &x->jb[j];
    if (--J->wact == 0) {
        double d = bbs_engine_now(x->e) - J->wt0;
        J->write_s += d;
        if (exec_dvec_push(&J->bursts, d))
            return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (write bursts)");
    }
    return BB_OK;
}

/* The buffer node's hooks (bbnode.h): a request is complete (a write
 * stored, on the PFS or lost; a read served: its data goes back). */
static int
io_done(void *ctx, bbs_bbnode *bn, const bbs_bbnode_req *rq, int hdd, int lost)
{
    bbs_exec_state *x = ctx;
    int mi = (int)rq->tag, rc;
    msg *m = &x->m[mi];

    (void)lost;
    if (m->kind == M_IOW) {
        int gr = m->src_gr, op = m->send_op;
        if ((rc = write_end(x, m->job)) != BB_OK)
            return rc;
        if (hdd)
            x->jb[m->job].pfs += m->bytes;
        exec_msg_free(x, mi);
        return exec_op_complete(x, gr, op);
    }
    rank_st *r = &x->rk[m->src_gr];
    int bn_node = x->bb[bbs_bbnode_index(bn)].node;
    if (x->c->piece_threads > 0) {  /* the pieces are at the client */
        int gr = m->src_gr, op = m->send_op;
        exec_msg_free(x, mi);
        return exec_op_complete(x, gr, op);
    }
    if (bn_node == r->node)
        return exec_sched(x, bbs_engine_now(x->e), EV_ARRIVE, 0, mi, NULL);
    return exec_inject(x, mi, bn_node, r->node);
}

/* The threads' move hook: a piece crosses the network as a message of
 * its own (a write's from the client's node, a read's to it). */
static int
io_move(void *ctx, bbs_bbnode *bn, const bbs_bbnode_req *rq, const bbs_bbnode_piece *pc)
{
    bbs_exec_state *x = ctx;
    const msg *io = &x->m[(int)rq->tag];
    int client = x->rk[io->src_gr].node, node = x->bb[bbs_bbnode_index(bn)].node;
    int mi = exec_msg_new(x);

    if (mi < 0)
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (I/O pieces)");
    io = &x->m[(int)rq->tag];   /* the pool may have moved */
    msg *m = &x->m[mi];
    m->kind = M_PIECE;
    m->job = io->job;
    m->src = io->src;
    m->src_gr = io->src_gr;
    m->bbnode = io->bbnode;
    m->bytes = pc->bytes;
    m->t_issue = bbs_engine_now(x->e);
    m->pc = *pc;
    if (client == node)
        return exec_sched(x, bbs_engine_now(x->e), EV_ARRIVE, 0, mi, NULL);
    return rq->write ? exec_inject(x, mi, client, node) : exec_inject(x, mi, node, client);
}

int
exec_piece_arrive(bbs_exec_state *x, int mi)
{
    bbs_bbnode_piece pc = x->m[mi].pc;
    bbs_bbnode *bn = x->bb[x->m[mi].bbnode].bn;

    exec_msg_free(x, mi);
    return bbs_bbnode_piece_moved(bn, &pc);
}

static void
io_drained(void *ctx, bbs_bbnode *bn, int job, double bytes)
{
    bbs_exec_state *x = ctx;
    (void)bn;
    x->jb[job].pfs += bytes;
}

static void
io_lost(void *ctx, bbs_bbnode *bn, int job, double bytes, int files)
{
    bbs_exec_state *x = ctx;
    (void)bn;
    x->jb[job].lost += bytes;
    x->jb[job].files_lost += (uint64_t)files;
}

static void
io_after(void *ctx)
{
    quiesce(ctx);
}

int
exec_h_devin(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    return exec_dev_arrive(ctx, (int)ev->arg);
}

int
exec_setup_storage(bbs_exec_state *x, char *err)
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
    int local = c->arch == BBS_ARCH_NODE_LOCAL;
    for (int n = 0; n < t->nodes; n++)
        x->nbb += local || (t->node_kind[n] & BBS_NET_NODE_BB);
    if (x->nbb == 0)
        return bb_seterr(err, BB_EINVAL,
                         "the workload does I/O but the topology has no burst-buffer "
                         "node (set bb_per_group > 0)");
    x->bb = calloc((size_t)x->nbb, sizeof *x->bb);
    if (!x->bb)
        return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
    for (int n = 0, b = 0; n < t->nodes; n++)
        if (local || (t->node_kind[n] & BBS_NET_NODE_BB))
            x->bb[b++].node = n;
    if (local)
        for (int n = 0; n < t->nodes; n++)
            x->nd[n].bb = n;
    else
        for (int i = 0; i < t->ncompute; i++)
            x->nd[t->compute_nodes[i]].bb = (int)((long)i * x->nbb / t->ncompute);
    for (int gr = 0; gr < x->nranks; gr++)
        x->rk[gr].bbnode = x->nd[x->rk[gr].node].bb;
    int *used = calloc((size_t)x->nbb, sizeof *used);
    if (!used)
        return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
    for (int gr = 0; gr < x->nranks; gr++)
        used[x->rk[gr].bbnode] = 1;
    bbs_bbsys_hooks h = { io_done, io_drained, io_lost, io_after, x, io_move };
    bbs_bbsys_params sp = c->node;
    if (sp.pieces_in_flight <= 0)
        sp.pieces_in_flight = 1;
    int rc = bbs_bbsys_new(&x->sys, x->e, &sp, &h, err);
    x->lazy_on = c->drain.kind == BB_DRAIN_LAZY;
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
int
exec_fail_setup(bbs_exec_state *x, char *err)
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
