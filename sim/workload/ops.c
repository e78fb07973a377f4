/* ops.c: building and reading per-rank operation streams (ops.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "workload/coll.h"
#include "grow.h"
#include "workload/wl_int.h"

static const char *const coll_names[BBS_COLL_NKINDS] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "gatherv", "alltoall"
};

void
bbs_op_init(bbs_op *op, bbs_op_kind kind)
{
    memset(op, 0, sizeof *op);
    op->kind = (uint8_t)kind;
    op->dep = BBS_DEP_PREV;
    op->ref = -1;
    op->dep_rank = -1;
    op->dep_op = -1;
}

const char *
bbs_coll_name(bbs_coll_kind k)
{
    return (unsigned)k < BBS_COLL_NKINDS ? coll_names[k] : "?";
}

int
bbs_coll_parse(const char *name, int *kind, char *err)
{
    for (int k = 0; k < BBS_COLL_NKINDS; k++)
        if (strcasecmp(name, coll_names[k]) == 0) {
            *kind = k;
            return BB_OK;
        }
    return bb_seterr(err, BB_EINVAL,
                     "unknown collective '%s' (known: barrier, bcast, reduce, allreduce, "
                     "gather, gatherv, alltoall)", name);
}

static uint64_t default_max_ops;

void
bbs_wl_set_default_max_ops(uint64_t n)
{
    default_max_ops = n;
}

int
bbs_wl_new(bbs_wl **out, char *err)
{
    *out = calloc(1, sizeof **out);
    if (*out)
        (*out)->max_ops = default_max_ops;
    return *out ? BB_OK : bb_seterr(err, BB_ENOMEM, "out of memory (workload)");
}

void
bbs_wl_free(bbs_wl *w)
{
    if (!w)
        return;
    for (int j = 0; j < w->njobs; j++) {
        bbs_wl_job *jb = &w->jobs[j];
        for (int r = 0; r < jb->nranks; r++)
            free(jb->streams[r].ops);
        free(jb->streams);
        for (int c = 0; c < jb->ncomms; c++) {
            free(jb->comms[c].members);
            free(jb->comms[c].index);
        }
        free(jb->comms);
        free(jb->name);
    }
    free(w->jobs);
    free(w);
}

static int
add_comm(bbs_wl_job *jb, const int *ranks, int n, int *comm_out, char *err)
{
    if (bbs_grow((void **)&jb->comms, sizeof *jb->comms, &jb->ccap, (size_t)jb->ncomms + 1))
        return bb_seterr(err, BB_ENOMEM, "out of memory (communicators)");
    bbs_wl_comm *c = &jb->comms[jb->ncomms];
    memset(c, 0, sizeof *c);
    c->members = malloc((size_t)n * sizeof *c->members);
    c->index = malloc((size_t)jb->nranks * sizeof *c->index);
    if (!c->members || !c->index) {
        free(c->members);
        free(c->index);
        return bb_seterr(err, BB_ENOMEM, "out of memory (communicators)");
    }
    for (int r = 0; r < jb->nranks; r++)
        c->index[r] = -1;
    for (int i = 0; i < n; i++) {
        int r = ranks ? ranks[i] : i;
        if (r < 0 || r >= jb->nranks || c->index[r] >= 0) {
            free(c->members);
            free(c->index);
            return bb_seterr(err, BB_EINVAL,
                             "communicator member %d: rank %d %s (job of %d ranks)", i, r,
                             r < 0 || r >= jb->nranks ? "out of range" : "repeated",
                             jb->nranks);
        }
        c->members[i] = r;
        c->index[r] = i;
    }
    c->n = n;
    if (comm_out)
        *comm_out = jb->ncomms;
    jb->ncomms++;
    return BB_OK;
}

int
bbs_wl_add_job(bbs_wl *w, const char *name, int nranks, double start_s, int *job_out,
               char *err)
{
    if (nranks <= 0)
        return bb_seterr(err, BB_EINVAL, "job '%s': ranks must be > 0 (got %d)",
                         name ? name : "?", nranks);
    if (!(start_s >= 0) || !isfinite(start_s))
        return bb_seterr(err, BB_EINVAL, "job '%s': start must be >= 0 s", name ? name : "?");
    if (bbs_grow((void **)&w->jobs, sizeof *w->jobs, &w->jcap, (size_t)w->njobs + 1))
        return bb_seterr(err, BB_ENOMEM, "out of memory (jobs)");
    bbs_wl_job *jb = &w->jobs[w->njobs];
    memset(jb, 0, sizeof *jb);
    jb->nranks = nranks;
    jb->start_s = start_s;
    jb->allreduce_algo = -1;
    jb->name = strdup(name ? name : "job");
    jb->streams = calloc((size_t)nranks, sizeof *jb->streams);
    if (!jb->name || !jb->streams) {
        free(jb->name);
        free(jb->streams);
        return bb_seterr(err, BB_ENOMEM, "out of memory (job)");
    }
    int rc = add_comm(jb, NULL, nranks, NULL, err);
    if (rc) {
        free(jb->name);
        free(jb->streams);
        return rc;
    }
    if (job_out)
        *job_out = w->njobs;
    w->njobs++;
    return BB_OK;
}

int
bbs_wl_add_comm(bbs_wl *w, int job, const int *ranks, int n, int *comm_out, char *err)
{
    if (job < 0 || job >= w->njobs)
        return bb_seterr(err, BB_EINVAL, "no job %d", job);
    if (n <= 0)
        return bb_seterr(err, BB_EINVAL, "communicator of %d ranks", n);
    return add_comm(&w->jobs[job], ranks, n, comm_out, err);
}

int
bbs_wl_append(bbs_wl *w, int job, int rank, const bbs_op *op, int *index_out, char *err)
{
    if (job < 0 || job >= w->njobs)
        return bb_seterr(err, BB_EINVAL, "no job %d", job);
    bbs_wl_job *jb = &w->jobs[job];
    if (rank < 0 || rank >= jb->nranks)
        return bb_seterr(err, BB_EINVAL, "job '%s': rank %d out of range [0, %d)", jb->name,
                         rank, jb->nranks);
    bbs_wl_strm *s = &jb->streams[rank];
    const char *who = jb->name;
    if (op->kind > BBS_OP_WAITALL)
        return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: unknown kind %d", who, rank,
                         s->n, op->kind);
    if (!(op->delay_s >= 0) || !isfinite(op->delay_s))
        return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: delay must be >= 0 s", who,
                         rank, s->n);
    if (!(op->bytes >= 0) || !isfinite(op->bytes))
        return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: bytes must be >= 0", who,
                         rank, s->n);
    switch (op->kind) {
    case BBS_OP_SEND:
    case BBS_OP_RECV:
        if (op->peer < 0 || op->peer >= jb->nranks)
            return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: peer %d out of range", who,
                             rank, s->n, op->peer);
        if (op->tag < 0)
            return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: tag must be >= 0", who,
                             rank, s->n);
        break;
    case BBS_OP_COLL:
        if (op->coll >= BBS_COLL_NKINDS)
            return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: unknown collective %d",
                             who, rank, s->n, op->coll);
        if (op->comm < 0 || op->comm >= jb->ncomms)
            return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: no communicator %d", who,
                             rank, s->n, op->comm);
        if (jb->comms[op->comm].index[rank] < 0)
            return bb_seterr(err, BB_EINVAL,
                             "job '%s' rank %d op %d: rank not in communicator %d", who, rank,
                             s->n, op->comm);
        if (op->root < 0 || op->root >= jb->nranks || jb->comms[op->comm].index[op->root] < 0)
            return bb_seterr(err, BB_EINVAL,
                             "job '%s' rank %d op %d: root %d not in communicator %d", who,
                             rank, s->n, op->root, op->comm);
        break;
    case BBS_OP_WAIT:
        if (op->ref < 0 || op->ref >= s->n || !s->ops[op->ref].nonblocking)
            return bb_seterr(err, BB_EINVAL,
                             "job '%s' rank %d op %d: wait on %d, not an earlier "
                             "non-blocking op", who, rank, s->n, op->ref);
        break;
    default:
        break;
    }
    if (op->nonblocking && (op->kind == BBS_OP_COMPUTE || op->kind == BBS_OP_WAIT ||
                            op->kind == BBS_OP_WAITALL))
        return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: %s cannot be non-blocking",
                         who, rank, s->n, op->kind == BBS_OP_COMPUTE ? "compute" : "wait");
    if (op->dep > BBS_DEP_OP)
        return bb_seterr(err, BB_EINVAL, "job '%s' rank %d op %d: unknown dependency kind %d",
                         who, rank, s->n, op->dep);
    if (op->dep == BBS_DEP_OP) {
        if (op->dep_rank < 0 || op->dep_rank >= jb->nranks)
            return bb_seterr(err, BB_EINVAL,
                             "job '%s' rank %d op %d: dependency on rank %d out of range", who,
                             rank, s->n, op->dep_rank);
        int lim = op->dep_rank == rank ? s->n : jb->streams[op->dep_rank].n;
        if (op->dep_op < 0 || (op->dep_rank == rank && op->dep_op >= lim))
            return bb_seterr(err, BB_EINVAL,
                             "job '%s' rank %d op %d: dependency on op %d of rank %d, which "
                             "is not earlier in its stream", who, rank, s->n, op->dep_op,
                             op->dep_rank);
    }
    if (s->n >= (1 << 30))
        return bb_seterr(err, BB_EINVAL, "job '%s' rank %d: too many ops", who, rank);
    if (w->max_ops && w->nops >= w->max_ops)
        return bb_seterr(err, BB_ETOOBIG, "the workload would hold more than %llu operations "
                         "(%.3g bytes): generate fewer operations (fewer messages, fewer "
                         "files, fewer nodes or a smaller scale), or raise the memory bound", (unsigned long long)w->max_ops,
                         (double)w->max_ops * (double)sizeof *s->ops);
    if (bbs_grow((void **)&s->ops, sizeof *s->ops, &s->cap, (size_t)s->n + 1))
        return bb_seterr(err, BB_ENOMEM, "out of memory (ops)");
    s->ops[s->n] = *op;
    if (index_out)
        *index_out = s->n;
    s->n++;
    w->nops++;
    return BB_OK;
}

int
bbs_wl_compute(bbs_wl *w, int job, int rank, double seconds, char *err)
{
    bbs_op op;
    bbs_op_init(&op, BBS_OP_COMPUTE);
    op.delay_s = seconds;
    return bbs_wl_append(w, job, rank, &op, NULL, err);
}

int
bbs_wl_send(bbs_wl *w, int job, int rank, int peer, double bytes, int64_t tag, int nonblocking,
            int *index_out, char *err)
{
    bbs_op op;
    bbs_op_init(&op, BBS_OP_SEND);
    op.peer = peer;
    op.bytes = bytes;
    op.tag = tag;
    op.nonblocking = (uint8_t)(nonblocking != 0);
    return bbs_wl_append(w, job, rank, &op, index_out, err);
}

int
bbs_wl_recv(bbs_wl *w, int job, int rank, int peer, int64_t tag, int nonblocking,
            int *index_out, char *err)
{
    bbs_op op;
    bbs_op_init(&op, BBS_OP_RECV);
    op.peer = peer;
    op.tag = tag;
    op.nonblocking = (uint8_t)(nonblocking != 0);
    return bbs_wl_append(w, job, rank, &op, index_out, err);
}

int
bbs_wl_waitall(bbs_wl *w, int job, int rank, char *err)
{
    bbs_op op;
    bbs_op_init(&op, BBS_OP_WAITALL);
    return bbs_wl_append(w, job, rank, &op, NULL, err);
}

int
bbs_wl_coll(bbs_wl *w, int job, int rank, bbs_coll_kind kind, int comm, int root, double bytes,
            char *err)
{
    bbs_op op;
    bbs_op_init(&op, BBS_OP_COLL);
    op.coll = (uint8_t)kind;
    op.comm = comm;
    op.root = root;
    op.bytes = bytes;
    return bbs_wl_append(w, job, rank, &op, NULL, err);
}

int
bbs_wl_io(bbs_wl *w, int job, int rank, int write, double bytes, uint64_t object,
          uint64_t offset, char *err)
{
    bbs_op op;
    bbs_op_init(&op, write ? BBS_OP_WRITE : BBS_OP_READ);
    op.bytes = bytes;
    op.object = object;
    op.offset = offset;
    return bbs_wl_append(w, job, rank, &op, NULL, err);
}

int
bbs_wl_njobs(const bbs_wl *w)
{
    return w->njobs;
}

int
bbs_wl_nranks(const bbs_wl *w, int job)
{
    return job >= 0 && job < w->njobs ? w->jobs[job].nranks : 0;
}

const char *
bbs_wl_job_name(const bbs_wl *w, int job)
{
    return job >= 0 && job < w->njobs ? w->jobs[job].name : NULL;
}

double
bbs_wl_job_start(const bbs_wl *w, int job)
{
    return job >= 0 && job < w->njobs ? w->jobs[job].start_s : 0;
}

int
bbs_wl_set_job_start(bbs_wl *w, int job, double start_s, char *err)
{
    if (job < 0 || job >= w->njobs)
        return bb_seterr(err, BB_EINVAL, "no job %d", job);
    if (!(start_s >= 0) || !isfinite(start_s))
        return bb_seterr(err, BB_EINVAL, "start %g s is not a finite time >= 0", start_s);
    w->jobs[job].start_s = start_s;
    return BB_OK;
}

int
bbs_wl_set_job_allreduce(bbs_wl *w, int job, int algo, char *err)
{
    if (job < 0 || job >= w->njobs)
        return bb_seterr(err, BB_EINVAL, "no job %d", job);
    if (algo < -1 || algo >= BBS_ALGO_N)
        return bb_seterr(err, BB_EINVAL, "unknown allreduce algorithm %d", algo);
    w->jobs[job].allreduce_algo = algo;
    return BB_OK;
}

int
bbs_wl_job_allreduce(const bbs_wl *w, int job)
{
    return job >= 0 && job < w->njobs ? w->jobs[job].allreduce_algo : -1;
}

const bbs_op *
bbs_wl_stream(const bbs_wl *w, int job, int rank, int *n)
{
    if (job < 0 || job >= w->njobs || rank < 0 || rank >= w->jobs[job].nranks) {
        *n = 0;
        return NULL;
    }
    *n = w->jobs[job].streams[rank].n;
    return w->jobs[job].streams[rank].ops;
}

uint64_t
bbs_wl_nops(const bbs_wl *w)
{
    uint64_t n = 0;

    for (int j = 0; j < w->njobs; j++)
        for (int r = 0; r < w->jobs[j].nranks; r++)
            n += (uint64_t)w->jobs[j].streams[r].n;
    return n;
}

void
bbs_wl_job_totals(const bbs_wl *w, int job, bbs_wl_totals *t)
{
    memset(t, 0, sizeof *t);
    if (job < 0 || job >= w->njobs)
        return;
    const bbs_wl_job *jb = &w->jobs[job];
    for (int r = 0; r < jb->nranks; r++)
        for (int i = 0; i < jb->streams[r].n; i++) {
            const bbs_op *op = &jb->streams[r].ops[i];
            t->ops[op->kind]++;
            t->compute_s += op->delay_s;
            if (op->kind == BBS_OP_SEND)
                t->p2p_bytes += op->bytes;
            else if (op->kind == BBS_OP_WRITE)
                t->write_bytes += op->bytes;
            else if (op->kind == BBS_OP_READ)
                t->read_bytes += op->bytes;
            else if (op->kind == BBS_OP_COLL) {
                t->colls[op->coll]++;
                t->coll_bytes[op->coll] += op->bytes;
            }
        }
}
