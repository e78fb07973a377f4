/* exec.c: the executor of operation streams (exec.h): set-up, the
 * handler table, the op state machine and the run.  The other parts are
 * listed in exec_int.h.
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

static int issue(bbs_exec_state *x, int gr, int idx);

void
bbs_exec_config_init(bbs_exec_config *c)
{
    memset(c, 0, sizeof *c);
    c->route.kind = BBS_NET_ROUTE_MIN;
    c->route.candidates = 2;
    c->exact_limit = -1;
    c->inject_fcfs = 1;
    c->packet_bytes = 4096;
    c->route_piece_bytes = 262144;
    c->allreduce_algo = BBS_ALGO_AUTO;
    c->arch = BBS_ARCH_COMPUTE_GLOBAL;
    bbs_bbsys_params_init(&c->node); /* EPS 0.01 (validate's chain), no horizon */
    c->piece_bytes = 1e6;            /* MFNetSim's storage server (thread_buf_sz) */
    c->pieces_in_flight = 4;
    c->piece_threads = 4;            /* its req_threads */
    c->fail.temp_C = c->fail.tref_C = 25;
    c->fail.ea_eV = 0.38;
    c->fail.drive_shape = 1;
}

/* An op whose dependency is satisfied: issued after its delay; at once
 * (no event) when the delay is 0, up to a bounded call depth. */
static int
ready(bbs_exec_state *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    if (r->ops[idx].delay_s == 0 && x->depth < 64) {
        x->depth++;
        int rc = issue(x, gr, idx);
        x->depth--;
        return rc;
    }
    return exec_sched(x, bbs_engine_now(x->e) + r->ops[idx].delay_s, EV_ISSUE, gr, idx, NULL);
}

static int
release(bbs_exec_state *x, int gr, int idx)
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

/* span: one more (delta > 0) or one fewer op in progress of a count cnt
 * whose time with at least one is *acc, the last opening at *t0. */
static void
span(int *cnt, double *t0, double *acc, int delta, double now)
{
    if (delta > 0 && (*cnt)++ == 0)
        *t0 = now;
    else if (delta < 0 && --(*cnt) == 0)
        *acc += now - *t0;
}

/* Communication (I/O) time: the union of the intervals during which the
 * rank has at least one communication (I/O) op between issue and
 * completion; and the same per kind of communication (exec.h). */
static void
activity(rank_st *r, const bbs_op *op, int delta, double now)
{
    int k = op->kind == BBS_OP_COLL ? 1 + op->coll : BBS_EXEC_P2P;

    if (blk_kind(op->kind) == BLK_IO) {
        span(&r->act_io, &r->t_io0, &r->io_s, delta, now);
        return;
    }
    span(&r->act_comm, &r->t_comm0, &r->comm_s, delta, now);
    span(&r->act_kind[k], &r->t_kind0[k], &r->kind_s[k], delta, now);
}

int
exec_op_complete(bbs_exec_state *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    double now = bbs_engine_now(x->e);
    int rc;
    r->os[idx].done = 1;
    r->ndone++;
    if (++x->ops_done == x->progress_next) {
        x->progress_next += x->c->progress_ops > 0 ? x->c->progress_ops : 4096;
        x->c->progress(x->c->progress_ctx, x->ops_done, x->ops_total);
    }
    if (op->kind == BBS_OP_COMPUTE)
        r->compute_s += op->delay_s;
    else if (op->kind != BBS_OP_WAIT && op->kind != BBS_OP_WAITALL)
        activity(r, op, -1, now);
    if (r->ndone == r->n) {
        r->end_s = now;
        /* the last rank: look for quiescence once this event's kicks are done */
        if (--x->ranks_left == 0 && (x->fail_on || x->lazy_on)
            && (rc = exec_sched(x, now, EV_QUIESCE, 0, 0, NULL)) != BB_OK)
            return rc;
        if (now > x->jb[r->job].end_s)
            x->jb[r->job].end_s = now;
    }
    /* dependents */
    if (x->dep_off) {
        int g = r->base + idx;
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
            if ((rc = exec_op_complete(x, gr, w)) != BB_OK)
                return rc;
        }
        if (r->waitall_op >= 0 && r->nb_out == 0) {
            int w = r->waitall_op;
            r->waitall_op = -1;
            if ((rc = exec_op_complete(x, gr, w)) != BB_OK)
                return rc;
        }
        return BB_OK;
    }
    return release(x, gr, idx);
}

static int
issue(bbs_exec_state *x, int gr, int idx)
{
    rank_st *r = &x->rk[gr];
    const bbs_op *op = &r->ops[idx];
    int rc = BB_OK;
    r->last_issued = idx;
    if (op->kind != BBS_OP_COMPUTE && op->kind != BBS_OP_WAIT && op->kind != BBS_OP_WAITALL)
        activity(r, op, +1, bbs_engine_now(x->e));
    if (op->nonblocking) {
        r->nb_out++;
    }
    switch (op->kind) {
    case BBS_OP_COMPUTE:
        return exec_op_complete(x, gr, idx);
    case BBS_OP_SEND:
        rc = exec_msg_send(x, r->job, r->rank, op->peer, 0, op->tag, op->bytes, idx, NULL);
        break;
    case BBS_OP_RECV:
        rc = exec_msg_recv(x, r->job, r->rank, op->peer, 0, op->tag, idx, NULL);
        break;
    case BBS_OP_COLL:
        rc = exec_coll_start(x, gr, idx);
        break;
    case BBS_OP_READ:
    case BBS_OP_WRITE:
        rc = exec_io_start(x, gr, idx);
        break;
    case BBS_OP_WAIT:
        if (r->os[op->ref].done)
            return exec_op_complete(x, gr, idx);
        if (r->wait_op >= 0)
            return bbs_engine_fail(x->e, BB_EDATA,
                                   "job %s rank %d op %d: a second WAIT while op %d waits",
                                   x->w->jobs[r->job].name, r->rank, idx, r->wait_op);
        r->wait_op = idx;
        return BB_OK;
    case BBS_OP_WAITALL:
        if (r->nb_out == 0)
            return exec_op_complete(x, gr, idx);
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

static int
h_issue(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    return issue(ctx, (int)ev->entity, (int)ev->arg);
}

static int
h_arrive(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_exec_state *x = ctx;
    int mi = (int)ev->arg;
    msg *m = &x->m[mi];
    (void)e;
    if (m->kind == M_IOR) {
        int gr = m->src_gr, op = m->send_op;
        exec_msg_free(x, mi);
        return exec_op_complete(x, gr, op);
    }
    if (m->kind == M_IOW)
        return exec_dev_arrive(x, mi);
    if (m->kind == M_PIECE)
        return exec_piece_arrive(x, mi);
    m->arrived = 1;
    /* latency: send to arrival at the receiver's node, whether or not a
     * receive is posted (MFNetSim's client: arrival minus the send's start) */
    double lat = bbs_engine_now(x->e) - m->t_issue;
    if (exec_dvec_push(&x->jb[m->job].lat, lat))
        return bbs_engine_fail(x->e, BB_ENOMEM, "out of memory (latencies)");
    x->rk[m->src_gr].lat_sum_s += lat;
    x->rk[m->src_gr].lat_n++;
    if (m->matched == 1)
        return exec_deliver(x, mi);
    return BB_OK;
}

static int
h_post(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    (void)e;
    return exec_msg_post(ctx, (int)ev->arg);
}

static int
h_localsend(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    int rc = exec_injected(ctx, (int)ev->arg);

    (void)e;
    return rc != BB_OK ? rc : exec_local_send_done(ctx, (int)ev->arg);
}

/* Instances and agreement of collectives; dependents CSR. */
static int
prepare(bbs_exec_state *x, char *err)
{
    const bbs_wl *w = x->w;
    int ndep = 0;
    long total = (long)x->ops_total;
    for (int j = 0; j < w->njobs; j++) {
        const bbs_wl_job *jb = &w->jobs[j];
        for (int c = 0; c < jb->ncomms; c++) {
            const bbs_wl_comm *cm = &jb->comms[c];
            /* members' COLL ops on c, in stream order, must agree */
            int ref_rank = cm->members[0], ref_cnt = 0;
            for (int i = 0; i < cm->n; i++) {
                rank_st *r = &x->rk[x->jb[j].off + cm->members[i]];
                rank_st *r0 = &x->rk[x->jb[j].off + ref_rank];
                int k = 0, k0 = 0;
                for (int o = 0; o < r->n; o++) {
                    if (r->ops[o].kind != BBS_OP_COLL || r->ops[o].comm != c)
                        continue;
                    r->os[o].inst = k;
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
                int tg = x->jb[r->job].off + op->dep_rank;
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
                x->dep_off[x->rk[x->jb[r->job].off + r->ops[o].dep_rank].base
                           + r->ops[o].dep_op + 2]++;
    }
    for (long g = 0; g < total; g++)
        x->dep_off[g + 2] += x->dep_off[g + 1];
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *r = &x->rk[gr];
        for (int o = 0; o < r->n; o++)
            if (r->ops[o].dep == BBS_DEP_OP) {
                int g = x->rk[x->jb[r->job].off + r->ops[o].dep_rank].base + r->ops[o].dep_op;
                x->dep_val[x->dep_off[g + 1]++] = ((int64_t)gr << 32) | (uint32_t)o;
            }
    }
    return BB_OK;
}

static void
x_free(bbs_exec_state *x)
{
    if (x->bb)
        for (int b = 0; b < x->nbb; b++) {
            if (x->bb[b].rng)
                gsl_rng_free(x->bb[b].rng);
            if (x->bb[b].rlazy)
                gsl_rng_free(x->bb[b].rlazy);
            if (x->bb[b].frng)
                gsl_rng_free(x->bb[b].frng);
        }
    exec_coll_free_all(x);
    if (x->jb)
        for (int j = 0; j < x->w->njobs; j++) {
            free(x->jb[j].lat.v);
            free(x->jb[j].bursts.v);
        }
    bbs_net_fabric_free(x->fab);
    bbs_bbsys_free(x->sys);
    bbs_engine_free(x->e);
    if (x->rng_route)
        gsl_rng_free(x->rng_route);
    if (x->rng_jitter)
        gsl_rng_free(x->rng_jitter);
    free(x->jb);
    free(x->rk);
    free(x->os);
    free(x->nd);
    free(x->dep_off);
    free(x->dep_val);
    free(x->m);
    free(x->mn);
    free(x->bucket);
    free(x->bb);
}

int
bbs_exec_run(const bbs_wl *w, const bbs_exec_config *c, bbs_exec_result *res, char *err)
{
    bbs_exec_state xx, *x = &xx;
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
        || c->piece_threads < 0 || c->piece_threads > BBS_BBNODE_MAX_INFLIGHT
        || !(c->piece_bytes >= 0)
        || !(c->packet_bytes >= 0) || !(c->route_piece_bytes >= 0))
        return bb_seterr(err, BB_EINVAL, "pieces in flight %d (1 to %d), piece threads %d (0 to %d), "
                         "piece %g B and packet %g B (>= 0) out of range", c->pieces_in_flight,
                         BBS_BBNODE_MAX_INFLIGHT, c->piece_threads, BBS_BBNODE_MAX_INFLIGHT,
                         c->piece_bytes, c->packet_bytes);
    if (!(c->jitter_s >= 0 && c->jitter_s < 1))
        return bb_seterr(err, BB_EINVAL, "send jitter %g s: need 0 <= jitter < 1 s", c->jitter_s);
    if (!(c->send_overhead_s >= 0 && c->send_overhead_s < 1e6)
        || !(c->copy_s_per_byte >= 0 && c->copy_s_per_byte < 1))
        return bb_seterr(err, BB_EINVAL, "send overhead %g s and copy time %g s/B are not >= 0 "
                         "and finite", c->send_overhead_s, c->copy_s_per_byte);
    if (nj == 0)
        return bb_seterr(err, BB_EINVAL, "the workload has no job");
    if (c->place->njobs != nj)
        return bb_seterr(err, BB_EINVAL, "placement of %d jobs for a workload of %d jobs",
                         c->place->njobs, nj);
    for (int j = 0; j < nj; j++) {
        int placed = c->place->job_off[j + 1] - c->place->job_off[j];
        if (placed != w->jobs[j].nranks)
            return bb_seterr(err, BB_EINVAL, "job '%s' has %d ranks but %d are placed",
                             w->jobs[j].name, w->jobs[j].nranks, placed);
        x->nranks += w->jobs[j].nranks;
    }
    x->ops_total = (int64_t)bbs_wl_nops(w);
    if (x->ops_total > (1L << 30))
        return bb_seterr(err, BB_EINVAL, "workload of more than 2^30 ops");
    x->jb = calloc((size_t)nj, sizeof *x->jb);
    x->rk = calloc((size_t)x->nranks, sizeof *x->rk);
    x->os = calloc((size_t)x->ops_total + 1, sizeof *x->os);
    x->nd = malloc((size_t)c->topo->nodes * sizeof *x->nd);
    /* no progress call: ops_done never reaches -1 */
    x->progress_next = c->progress ? (c->progress_ops > 0 ? c->progress_ops : 4096) : -1;
    res->jobs = calloc((size_t)nj, sizeof *res->jobs);
    res->njobs = nj;
    if (!x->jb || !x->rk || !x->os || !x->nd || !res->jobs) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto out;
    }
    for (int n = 0; n < c->topo->nodes; n++)
        x->nd[n] = (node_st){ .inj_head = -1, .inj_tail = -1, .bb = -1 };
    for (int j = 0, off = 0, base = 0; j < nj; j++) {
        x->jb[j].off = off;
        x->jb[j].start_s = w->jobs[j].start_s;
        x->jb[j].end_s = w->jobs[j].start_s;
        for (int r = 0; r < w->jobs[j].nranks; r++) {
            rank_st *R = &x->rk[off++];
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
            R->jit_t = -1;
            R->base = base;
            R->os = x->os + base;
            base += s->n;
        }
    }
    if ((rc = prepare(x, err)) != BB_OK)
        goto out;
    x->rng_route = bbs_rng_stream_new(NULL, c->seed, c->unit,
                                      BBS_ENTITY(BBS_ECLASS_NETWORK, 1));
    if (c->jitter_s > 0)
        x->rng_jitter = bbs_rng_stream_new(NULL, c->seed, c->unit,
                                           BBS_ENTITY(BBS_ECLASS_NETWORK, 2));
    if (!x->rng_route || (c->jitter_s > 0 && !x->rng_jitter)) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = bbs_engine_new(&x->e, 4096, err)) != BB_OK)
        goto out;
    {
        bbs_handler_fn fns[EV_NKINDS] = { h_issue, h_arrive, h_localsend, exec_h_devin, exec_h_fail,
                                          exec_h_repair, exec_h_quiesce, h_post,
                                          exec_h_starved };
        for (int k = 0; k < EV_NKINDS; k++)
            if ((rc = bbs_engine_register(x->e, fns[k], x, &x->kinds[k])) != BB_OK) {
                bb_seterr(err, rc, "cannot register handlers");
                goto out;
            }
    }
    if ((rc = exec_setup_storage(x, err)) != BB_OK)
        goto out;
    if ((rc = bbs_net_fabric_new(&x->fab, c->topo, x->e, exec_on_flow_done, x, err)) != BB_OK)
        goto out;
    bbs_net_fabric_set_exact_limit(x->fab, c->exact_limit);
    bbs_net_fabric_set_vc_priority(x->fab, c->vc_priority, c->vc_scheme);
    if ((rc = exec_fail_setup(x, err)) != BB_OK)
        goto out;
    for (int gr = 0; gr < x->nranks; gr++) {
        rank_st *R = &x->rk[gr];
        double t0 = w->jobs[R->job].start_s;
        /* the first op and every op without dependency start with the job;
         * the program-order chain and the BBS_DEP_OP ops follow at run time */
        for (int o = 0; o < R->n; o++) {
            int dk = R->ops[o].dep;
            if ((o == 0 && dk == BBS_DEP_PREV) || dk == BBS_DEP_NONE)
                if ((rc = exec_sched(x, t0 + R->ops[o].delay_s, EV_ISSUE, gr, o, NULL)) != BB_OK)
                    goto out;
        }
    }
    rc = bbs_engine_run(x->e, c->horizon_s);
    if (rc != BB_OK)
        goto out;
    if (c->progress)
        c->progress(c->progress_ctx, x->ops_done, x->ops_total);
    double now = bbs_engine_now(x->e);
    int horizon_hit = bbs_engine_pending(x->e) > 0;
    for (int gr = 0; gr < x->nranks && !horizon_hit; gr++) {
        rank_st *R = &x->rk[gr];
        if (R->ndone < R->n) {
            int o = 0;
            while (o < R->n && R->os[o].done)
                o++;
            const bbs_op *op = &R->ops[o];
            char what[128];
            if (op->kind == BBS_OP_RECV)
                snprintf(what, sizeof what, "a receive from rank %d, tag %lld", op->peer,
                         (long long)op->tag);
            else if (op->kind == BBS_OP_COLL)
                snprintf(what, sizeof what, "%s #%d on communicator %d",
                         bbs_coll_name(op->coll), R->os[o].inst, op->comm);
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
    rc = exec_collect(x, res, now, err);
out:
    x_free(x);
    if (rc != BB_OK)
        bbs_exec_result_free(res);
    return rc;
}
