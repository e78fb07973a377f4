/* tracegen.c: the trace-driven models as operation streams.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "workload/tracegen.h"

#define SIG_TAG (INT64_C(1) << 40)

static int
s_compute(void *ctx, int rank, double s)
{
    bbs_tracegen_ctx *c = ctx;
    return bbs_wl_compute(c->w, c->job, rank, s, c->err);
}

static int
s_coll(void *ctx, int rank, int kind, int root, double bytes)
{
    bbs_tracegen_ctx *c = ctx;
    return bbs_wl_coll(c->w, c->job, rank, (bbs_coll_kind)kind, 0, root < 0 ? 0 : root, bytes,
                       c->err);
}

static int
s_msg(void *ctx, double t, int src, int dst, double bytes, int64_t id)
{
    bbs_tracegen_ctx *c = ctx;
    bbs_op op;
    int rc;

    bbs_op_init(&op, BBS_OP_SEND);
    op.dep = BBS_DEP_NONE;
    op.delay_s = t;
    op.peer = dst;
    op.tag = id;
    op.bytes = bytes;
    if ((rc = bbs_wl_append(c->w, c->job, src, &op, NULL, c->err)))
        return rc;
    bbs_op_init(&op, BBS_OP_RECV);
    op.dep = BBS_DEP_NONE;
    op.peer = src;
    op.tag = id;
    return bbs_wl_append(c->w, c->job, dst, &op, NULL, c->err);
}

static int
s_io(void *ctx, int rank, double pause, int write, double bytes, uint64_t object)
{
    bbs_tracegen_ctx *c = ctx;
    int rc;

    if (pause > 0 && (rc = bbs_wl_compute(c->w, c->job, rank, pause, c->err)))
        return rc;
    return bbs_wl_io(c->w, c->job, rank, write, bytes, object, 0, c->err);
}

bbs_wl_sink
bbs_tracegen_sink(bbs_tracegen_ctx *ctx)
{
    bbs_wl_sink s = { s_compute, s_coll, s_msg, s_io, ctx };
    return s;
}

/* ---- plain VEF ---- */

typedef struct {
    long line;
    int type; /* 0 send, 1 recv, 2 collective part */
    long a;   /* message id or collective id */
    long b;   /* part index */
} vev;

static int
vev_cmp(const void *x, const void *y)
{
    const vev *p = x, *q = y;
    if (p->line != q->line)
        return p->line < q->line ? -1 : 1;
    if (p->type != q->type)
        return p->type - q->type;
    return p->b < q->b ? -1 : p->b > q->b;
}

typedef struct {
    const bbs_vef *v;
    int32_t *send_idx, *recv_idx, *part_idx; /* part_idx[base[c] + p] */
    size_t *base;
    int *comm_map;
} vctx;

/* The op index that a COLLECTIVE dependency of task on collective k names. */
static int32_t
coll_target(const vctx *x, long k, int task)
{
    const bbs_vef_coll *C = &x->v->colls[k];
    for (size_t p = 0; p < C->nparts; p++)
        if (C->parts[p].task == task)
            return x->part_idx[x->base[k] + p];
    return -1;
}

static void
set_dep(const vctx *x, bbs_op *op, int task, int dep, int64_t dep_id, double time)
{
    op->delay_s = time * x->v->clock_ps * 1e-12;
    op->dep_rank = task;
    switch (dep) {
    case BBS_VEF_DEP_SEND:
        op->dep = BBS_DEP_OP;
        op->dep_op = x->send_idx[dep_id];
        break;
    case BBS_VEF_DEP_RECEIVE:
        op->dep = BBS_DEP_OP;
        op->dep_op = x->recv_idx[dep_id];
        break;
    case BBS_VEF_DEP_COLLECTIVE:
        op->dep = BBS_DEP_OP;
        op->dep_op = coll_target(x, (long)dep_id, task);
        break;
    default:
        op->dep = BBS_DEP_NONE;
    }
}

static int
emit_part(bbs_wl *w, int job, const vctx *x, long c, long p, char *err)
{
    const bbs_vef *v = x->v;
    const bbs_vef_coll *C = &v->colls[c];
    const bbs_vef_part *P = &C->parts[p];
    int comm = x->comm_map[C->comm], first = v->comm[C->comm][0], root = C->root >= 0 ? C->root : first;
    int nm = v->comm_size[C->comm], rc, idx = -1;
    bbs_op op;
    double bytes = (double)P->send;

    bbs_op_init(&op, BBS_OP_COLL);
    set_dep(x, &op, P->task, P->dep, P->dep_id, P->time);
    op.comm = comm;
    op.root = root;
    switch (C->op) {
    case BBS_VEF_OP_BCAST:
        for (size_t q = 0; q < C->nparts; q++)
            if (C->parts[q].task == root)
                bytes = (double)C->parts[q].send;
        op.coll = BBS_COLL_BCAST;
        break;
    case BBS_VEF_OP_REDUCE:
        for (size_t q = 0; q < C->nparts; q++)
            if (C->parts[q].task == root && C->parts[q].recv)
                bytes = (double)C->parts[q].recv;
        op.coll = BBS_COLL_REDUCE;
        break;
    case BBS_VEF_OP_ALLREDUCE: op.coll = BBS_COLL_ALLREDUCE; break;
    case BBS_VEF_OP_GATHER: op.coll = BBS_COLL_GATHERV; break;
    case BBS_VEF_OP_BARRIER: op.coll = BBS_COLL_BARRIER; bytes = 0; break;
    case BBS_VEF_OP_ALLTOALL:
        op.coll = BBS_COLL_ALLTOALL;
        if (P->recv == 1)
            bytes = (double)P->send / nm;
        break;
    case BBS_VEF_OP_ALLGATHER: {
        double sum = 0;
        for (size_t q = 0; q < C->nparts; q++)
            sum += (double)C->parts[q].send;
        op.coll = BBS_COLL_GATHERV;
        op.root = first;
        op.bytes = bytes;
        if ((rc = bbs_wl_append(w, job, P->task, &op, &idx, err)))
            return rc;
        bbs_op_init(&op, BBS_OP_COLL);
        op.coll = BBS_COLL_BCAST;
        op.comm = comm;
        op.root = first;
        op.dep = BBS_DEP_OP;
        op.dep_rank = P->task;
        op.dep_op = idx;
        bytes = sum;
        break;
    }
    default: { /* SCATTER: the root sends each member its recv bytes, in turn */
        int64_t tag = v->nmsgs + c;
        if (P->task == root) {
            int any = 0;
            for (size_t q = 0; q < C->nparts; q++) {
                if (C->parts[q].task == root)
                    continue;
                bbs_op_init(&op, BBS_OP_SEND);
                if (!any)
                    set_dep(x, &op, P->task, P->dep, P->dep_id, P->time);
                else {
                    op.dep = BBS_DEP_OP;
                    op.dep_rank = P->task;
                    op.dep_op = idx;
                }
                op.peer = C->parts[q].task;
                op.tag = tag;
                op.bytes = (double)C->parts[q].recv;
                if ((rc = bbs_wl_append(w, job, P->task, &op, &idx, err)))
                    return rc;
                any = 1;
            }
            if (!any) {
                bbs_op_init(&op, BBS_OP_COMPUTE);
                set_dep(x, &op, P->task, P->dep, P->dep_id, P->time);
                if ((rc = bbs_wl_append(w, job, P->task, &op, &idx, err)))
                    return rc;
            }
        } else {
            bbs_op_init(&op, BBS_OP_RECV);
            set_dep(x, &op, P->task, P->dep, P->dep_id, P->time);
            op.peer = root;
            op.tag = tag;
            if ((rc = bbs_wl_append(w, job, P->task, &op, &idx, err)))
                return rc;
        }
        x->part_idx[x->base[c] + p] = idx;
        return BB_OK;
    }
    }
    op.bytes = bytes;
    if ((rc = bbs_wl_append(w, job, P->task, &op, &idx, err)))
        return rc;
    x->part_idx[x->base[c] + p] = idx;
    return BB_OK;
}

static int
tracegen_mpi(bbs_wl *w, int job, const bbs_vef *v, char *err)
{
    vctx x = { v, NULL, NULL, NULL, NULL, NULL };
    size_t nparts = 0, nev = 0, k = 0;
    vev *ev = NULL;
    int rc = BB_OK;

    for (size_t c = 0; c < v->ncoll; c++)
        nparts += v->colls[c].nparts;
    nev = 2 * (size_t)v->nmsgs + nparts;
    x.send_idx = malloc(((size_t)v->nmsgs + 1) * sizeof *x.send_idx);
    x.recv_idx = malloc(((size_t)v->nmsgs + 1) * sizeof *x.recv_idx);
    x.part_idx = malloc((nparts + 1) * sizeof *x.part_idx);
    x.base = malloc((v->ncoll + 1) * sizeof *x.base);
    x.comm_map = malloc((size_t)v->ncomm * sizeof *x.comm_map);
    ev = malloc((nev + 1) * sizeof *ev);
    if (!x.send_idx || !x.recv_idx || !x.part_idx || !x.base || !x.comm_map || !ev) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto done;
    }
    x.comm_map[0] = 0;
    for (int c = 1; c < v->ncomm; c++)
        if ((rc = bbs_wl_add_comm(w, job, v->comm[c], v->comm_size[c], &x.comm_map[c], err)))
            goto done;
    for (long m = 0; m < v->nmsgs; m++) {
        ev[k++] = (vev){ v->msgs[m].line, 0, m, 0 };
        ev[k++] = (vev){ v->msgs[m].line, 1, m, 0 };
    }
    nparts = 0;
    for (size_t c = 0; c < v->ncoll; c++) {
        x.base[c] = nparts;
        for (size_t p = 0; p < v->colls[c].nparts; p++)
            ev[k++] = (vev){ v->colls[c].parts[p].line, 2, (long)c, (long)p };
        nparts += v->colls[c].nparts;
    }
    qsort(ev, k, sizeof *ev, vev_cmp);
    for (size_t i = 0; i < k; i++) {
        bbs_op op;
        const bbs_vef_msg *m;
        int idx;

        if (ev[i].type == 2) {
            if ((rc = emit_part(w, job, &x, ev[i].a, ev[i].b, err)))
                goto done;
            continue;
        }
        m = &v->msgs[ev[i].a];
        if (ev[i].type == 0) {
            bbs_op_init(&op, BBS_OP_SEND);
            set_dep(&x, &op, m->src, m->dep, m->dep_id, m->time);
            op.peer = m->dst;
            op.bytes = (double)m->bytes;
            op.tag = ev[i].a;
            if ((rc = bbs_wl_append(w, job, m->src, &op, &idx, err)))
                goto done;
            x.send_idx[ev[i].a] = idx;
        } else {
            bbs_op_init(&op, BBS_OP_RECV);
            op.dep = BBS_DEP_NONE;
            op.peer = m->src;
            op.tag = ev[i].a;
            if ((rc = bbs_wl_append(w, job, m->dst, &op, &idx, err)))
                goto done;
            x.recv_idx[ev[i].a] = idx;
        }
    }
done:
    free(x.send_idx);
    free(x.recv_idx);
    free(x.part_idx);
    free(x.base);
    free(x.comm_map);
    free(ev);
    return rc;
}

/* A new job of n ranks named name, with a sink appending to it. */
static int
sink_job(bbs_wl *w, const char *name, int n, bbs_tracegen_ctx *ctx, bbs_wl_sink *s, int *job_out,
         char *err)
{
    int rc;

    if ((rc = bbs_wl_add_job(w, name, n, 0, &ctx->job, err)))
        return rc;
    if (job_out)
        *job_out = ctx->job;
    ctx->w = w;
    ctx->err = err;
    *s = bbs_tracegen_sink(ctx);
    return BB_OK;
}

int
bbs_tracegen_vef(bbs_wl *w, const char *name, const bbs_vef *v, const bbs_sizedist *d,
                 long max_msgs, uint64_t seed, uint64_t unit, int *job_out, char *err)
{
    bbs_tracegen_ctx ctx;
    bbs_wl_sink s;
    int rc;

    if ((rc = sink_job(w, name, v->ntasks, &ctx, &s, job_out, err)))
        return rc;
    switch (v->kind) {
    case BBS_VEF_MPI: return tracegen_mpi(w, ctx.job, v, err);
    case BBS_VEF_HOROVOD: return bbs_hvd_walk(v, v->ntasks, seed, unit, &s, NULL, err);
    default: return bbs_dcnw_walk(v, d, max_msgs, seed, unit, &s, NULL, err);
    }
}

int
bbs_tracegen_fileload(bbs_wl *w, const char *name, const bbs_fileload *f, uint64_t seed,
                      uint64_t unit, int *job_out, char *err)
{
    bbs_tracegen_ctx ctx;
    bbs_wl_sink s;
    int rc;

    if ((rc = sink_job(w, name, f->ranks, &ctx, &s, job_out, err)))
        return rc;
    return bbs_fileload_walk(f, seed, unit, &s, NULL, err);
}

/* ---- Graph500 ---- */

typedef struct {
    int dst, kth, src;
    uint32_t q;
} inmsg;

static int
in_cmp(const void *x, const void *y)
{
    const inmsg *a = x, *b = y;
    if (a->dst != b->dst)
        return a->dst - b->dst;
    if (a->kth != b->kth)
        return a->kth - b->kth;
    return a->src - b->src;
}

int
bbs_tracegen_g500(bbs_wl *w, const char *name, const bbs_g500_plan *pl, int *job_out, char *err)
{
    const bbs_g500_params *p = &pl->p;
    int n = p->nodes, job, rc = BB_OK;
    int *cnt = malloc((size_t)n * sizeof *cnt);
    int32_t *ridx = NULL;
    inmsg *in = NULL;
    size_t incap = 0;

    if (!cnt)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    if ((rc = bbs_wl_add_job(w, name, n, 0, &job, err)))
        goto done;
    if (job_out)
        *job_out = job;
    for (int l = 0; l < pl->nlevels; l++) {
        const bbs_g500_level *L = &pl->levels[l];
        size_t k = 0, *first;

        if (L->nmsgs + 1 > incap) {
            incap = L->nmsgs + 1;
            free(in);
            free(ridx);
            in = malloc(incap * sizeof *in);
            ridx = malloc(incap * sizeof *ridx);
            if (!in || !ridx) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory");
                goto done;
            }
        }
        for (int s = 0; s < n; s++) {
            memset(cnt, 0, (size_t)n * sizeof *cnt);
            for (size_t m = L->first[s]; m < L->first[s + 1]; m++)
                in[k++] = (inmsg){ L->msgs[m].dst, cnt[L->msgs[m].dst]++, s, L->msgs[m].queries };
        }
        qsort(in, k, sizeof *in, in_cmp);
        first = calloc((size_t)n + 1, sizeof *first);
        if (!first) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t m = 0; m < k; m++)
            first[in[m].dst + 1]++;
        for (int i = 0; i < n; i++)
            first[i + 1] += first[i];
        for (int i = 0; i < n && !rc; i++) {
            bbs_op op;
            /* 1. post the receives */
            for (size_t m = first[i]; m < first[i + 1] && !rc; m++)
                rc = bbs_wl_recv(w, job, i, in[m].src, l, 1, &ridx[m], err);
            /* 2. generate and send */
            for (size_t m = L->first[i]; m < L->first[i + 1] && !rc; m++) {
                if (p->tq_s > 0)
                    rc = bbs_wl_compute(w, job, i, p->tq_s * L->msgs[m].queries, err);
                if (!rc)
                    rc = bbs_wl_send(w, job, i, L->msgs[m].dst, p->query_bytes * L->msgs[m].queries,
                                     l, 1, NULL, err);
            }
            /* 3. consume, half-duplex */
            for (size_t m = first[i]; m < first[i + 1] && !rc; m++) {
                bbs_op_init(&op, BBS_OP_WAIT);
                op.ref = ridx[m];
                rc = bbs_wl_append(w, job, i, &op, NULL, err);
                if (!rc && p->tq_s > 0)
                    rc = bbs_wl_compute(w, job, i, p->tq_s * in[m].q, err);
            }
            /* 4. end-of-level signals and the all-reduce */
            for (int j = 0; j < n && !rc; j++)
                if (j != i)
                    rc = bbs_wl_send(w, job, i, j, p->signal_bytes, SIG_TAG + l, 1, NULL, err);
            for (int j = 0; j < n && !rc; j++)
                if (j != i)
                    rc = bbs_wl_recv(w, job, i, j, SIG_TAG + l, 1, NULL, err);
            if (!rc)
                rc = bbs_wl_waitall(w, job, i, err);
            if (!rc)
                rc = bbs_wl_coll(w, job, i, BBS_COLL_ALLREDUCE, 0, 0, 8, err);
        }
        free(first);
        if (rc)
            goto done;
    }
done:
    free(cnt);
    free(in);
    free(ridx);
    return rc;
}
