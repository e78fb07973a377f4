/* bbnode.c: one burst-buffer node and the PFS it drains to (bbnode.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bbnode.h"
#include "grow.h"

/* A request present at a node (the system's pool). */
typedef struct {
    bbs_bbnode_req rq;
    double issued, served;      /* bytes issued (threads: taken), served */
    double moved;               /* threads, reads: bytes moved to the client */
    double t_arrive;
    unsigned epoch;             /* the node's at admission */
    int hdd;
    int next_free;
} req;

/* The storage server in front of one device. */
typedef struct {
    bbs_dev *dev;
    bbs_devq *q;
    bbs_ring turn;              /* int: requests with pieces not yet issued, in turn */
    bbs_ring iss;               /* double: bytes of the issued pieces, in issue order */
    bbs_ring iss_req;           /* int: their requests */
    double log_off;             /* next address (log devices) */
} server;

typedef struct {
    int job;
    double bytes;               /* left (not yet drained) */
} wrec;

typedef struct {
    bbs_bbnode *n;
    unsigned epoch, cepoch;     /* the node's at the start: stale when it failed since */
    double bytes;
} chunk;

struct bbs_bbnode {
    bbs_bbsys *s;
    int idx;
    double capacity, used, stored, draining;
    int down;                   /* failed components */
    unsigned epoch;             /* + 1 at each loss of the node's contents */
    unsigned cepoch;            /* + 1 at each holding failure */
    server sv[2];               /* 0: buffer device, 1: HDD */
    int has_hdd;
    bbs_ring wait;              /* int: buffer writes waiting for room or repair */
    bbs_ring wait_h;            /* int: other requests waiting for repair */
    bbs_ring fifo;              /* wrec: stored writes, oldest first */
    uint64_t present;
    gsl_rng *rlazy;
    bbs_event_id lazy_ev;
};

struct bbs_bbsys {
    bbs_engine *e;
    bbs_bbsys_params p;
    bbs_bbsys_hooks h;
    int k_dev, k_pfs, k_lazy;
    bbs_bbnode **nodes;
    size_t nn, capn;
    req *pool;
    size_t npool, cappool;
    int free_head;
    bbs_ring pfs;               /* chunk; the head is in service when pfs_busy */
    int pfs_busy, quiesced;
    uint64_t nwait;             /* requests waiting anywhere */
    double t_wait0;
    bbs_bbsys_totals t;
};

void
bbs_bbsys_params_init(bbs_bbsys_params *p)
{
    memset(p, 0, sizeof *p);
    p->drain = (bb_drain){ .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES,
                           .eps = BB_DRAIN_EPS_DEFAULT };   /* the analytic model's EPS */
    p->lazy_check_s = 1;
    p->drain_chunk_bytes = 64.0 * 1048576;
    p->pieces_in_flight = 1;
    p->ssd_threshold_bytes = 65536; /* MFNetSim Section 3 */
    p->horizon_s = INFINITY;
}

static int on_pfs(bbs_engine *e, const bbs_event *ev, void *ctx);
static int on_lazy(bbs_engine *e, const bbs_event *ev, void *ctx);
static int on_piece(bbs_engine *e, bbs_devq *q, const bbs_io *io, uint64_t tag,
                    double t_submit, void *ctx);

int
bbs_bbsys_new(bbs_bbsys **out, bbs_engine *e, const bbs_bbsys_params *p,
              const bbs_bbsys_hooks *h, char *err)
{
#define NEED(cond, ...) do { if (!(cond)) return bb_seterr(err, BB_EINVAL, __VA_ARGS__); } while (0)
    bbs_bbsys *s;
    int rc;

    *out = NULL;
    NEED(p->pfs_bw_Bps >= 0 && isfinite(p->pfs_bw_Bps), "PFS bandwidth %g B/s is not >= 0",
         p->pfs_bw_Bps);
    NEED((unsigned)p->drain.kind <= BB_DRAIN_LAZY, "unknown drain policy %d", (int)p->drain.kind);
    NEED(p->drain.threshold >= 0, "lazy threshold %g B is not >= 0",
         p->drain.threshold);
    NEED(p->drain.eps >= 0 && p->drain.eps <= 1, "lazy EPS %g is not in [0, 1]", p->drain.eps);
    NEED(p->drain.kind != BB_DRAIN_LAZY || (p->lazy_check_s > 0 && isfinite(p->lazy_check_s)),
         "lazy check interval %g s is not > 0", p->lazy_check_s);
    NEED(p->drain_chunk_bytes > 0, "drain chunk %g B is not > 0", p->drain_chunk_bytes);
    NEED(p->piece_bytes >= 0, "piece %g B is not >= 0", p->piece_bytes);
    NEED(p->pieces_in_flight >= 1 && p->pieces_in_flight <= BBS_BBNODE_MAX_INFLIGHT,
         "pieces in flight %d is not in 1 to %d", p->pieces_in_flight, BBS_BBNODE_MAX_INFLIGHT);
    NEED(p->piece_threads >= 0 && p->piece_threads <= BBS_BBNODE_MAX_INFLIGHT,
         "piece threads %d is not in 0 to %d", p->piece_threads, BBS_BBNODE_MAX_INFLIGHT);
    NEED(p->ssd_threshold_bytes > 0, "SSD/HDD threshold %g B is not a positive size",
         p->ssd_threshold_bytes);
    NEED(h && h->done, "no completion callback");
#undef NEED
    if (!(s = calloc(1, sizeof *s)))
        return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
    s->e = e;
    s->p = *p;
    s->h = *h;
    s->free_head = -1;
    s->t.min_used_bytes = INFINITY;
    bbs_ring_init(&s->pfs, sizeof(chunk));
    if ((rc = bbs_devq_register_kind(e, &s->k_dev)) != BB_OK
        || (rc = bbs_engine_register(e, on_pfs, s, &s->k_pfs)) != BB_OK
        || (rc = bbs_engine_register(e, on_lazy, s, &s->k_lazy)) != BB_OK) {
        free(s);
        return bb_seterr(err, rc, "cannot register the buffer nodes' events");
    }
    *out = s;
    return BB_OK;
}

static void
server_free(server *S)
{
    bbs_devq_free(S->q);
    bbs_dev_free(S->dev);
    bbs_ring_free(&S->turn);
    bbs_ring_free(&S->iss);
    bbs_ring_free(&S->iss_req);
}

void
bbs_bbsys_free(bbs_bbsys *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nn; i++) {
        bbs_bbnode *n = s->nodes[i];
        server_free(&n->sv[0]);
        server_free(&n->sv[1]);
        bbs_ring_free(&n->wait);
        bbs_ring_free(&n->wait_h);
        bbs_ring_free(&n->fifo);
        free(n);
    }
    free(s->nodes);
    free(s->pool);
    bbs_ring_free(&s->pfs);
    free(s);
}

int
bbs_bbnode_new(bbs_bbsys *s, int idx, double capacity_bytes, const bbs_dev_params *bb,
               const bbs_dev_params *hdd, gsl_rng *rng_dev, gsl_rng *rng_hdd,
               gsl_rng *rng_lazy, bbs_bbnode **out, char *err)
{
    bbs_bbnode *n;
    int rc;

    *out = NULL;
    if (!(capacity_bytes > 0))  /* INFINITY: a buffer that never fills */
        return bb_seterr(err, BB_EINVAL, "buffer capacity %g B is not > 0", capacity_bytes);
    if (s->p.drain.kind == BB_DRAIN_LAZY && !rng_lazy)
        return bb_seterr(err, BB_EINVAL, "a lazy node needs a stream for its checks");
    if (bbs_grow((void **)&s->nodes, sizeof *s->nodes, &s->capn, s->nn + 1)
        || !(n = calloc(1, sizeof *n)))
        return bb_seterr(err, BB_ENOMEM, "out of memory (buffer nodes)");
    s->nodes[s->nn++] = n;   /* owned by s from here */
    n->s = s;
    n->idx = idx;
    n->capacity = capacity_bytes;
    n->rlazy = rng_lazy;
    bbs_ring_init(&n->wait, sizeof(int));
    bbs_ring_init(&n->wait_h, sizeof(int));
    bbs_ring_init(&n->fifo, sizeof(wrec));
    for (int k = 0; k < 2; k++) {
        bbs_ring_init(&n->sv[k].turn, sizeof(int));
        bbs_ring_init(&n->sv[k].iss, sizeof(double));
        bbs_ring_init(&n->sv[k].iss_req, sizeof(int));
    }
    if ((rc = bbs_dev_new(&n->sv[0].dev, bb, err)) != BB_OK
        || (rc = bbs_devq_new(&n->sv[0].q, s->e, s->k_dev, 2 * (uint64_t)idx, n->sv[0].dev,
                              rng_dev, on_piece, n, err)) != BB_OK)
        return rc;
    if (hdd) {
        n->has_hdd = 1;
        if ((rc = bbs_dev_new(&n->sv[1].dev, hdd, err)) != BB_OK
            || (rc = bbs_devq_new(&n->sv[1].q, s->e, s->k_dev, 2 * (uint64_t)idx + 1,
                                  n->sv[1].dev, rng_hdd, on_piece, n, err)) != BB_OK)
            return rc;
    }
    if (s->p.drain.kind == BB_DRAIN_LAZY && s->p.lazy_check_s < s->p.horizon_s && !s->quiesced
        && (rc = bbs_engine_schedule(s->e, bbs_engine_now(s->e) + s->p.lazy_check_s, s->k_lazy,
                                     0, (uint64_t)idx, 0, n, &n->lazy_ev)) != BB_OK)
        return bb_seterr(err, rc, "cannot schedule a lazy check");
    *out = n;
    return BB_OK;
}

/* ---- accounting ------------------------------------------------------------ */

static void
note(bbs_bbnode *n)
{
    bbs_bbsys_totals *t = &n->s->t;
    double f = n->used / n->capacity;

    if (f > t->max_used_fraction)
        t->max_used_fraction = f;
    if (n->used < t->min_used_bytes)
        t->min_used_bytes = n->used;
}

static void
wait_push_count(bbs_bbsys *s)
{
    if (s->nwait++ == 0)
        s->t_wait0 = bbs_engine_now(s->e);
}

static void
wait_pop_count(bbs_bbsys *s, const req *r)
{
    double now = bbs_engine_now(s->e);

    s->t.stall_s += now - r->t_arrive;
    if (--s->nwait == 0)
        s->t.stall_busy_s += now - s->t_wait0;
}

static int
fail_nomem(bbs_bbsys *s)
{
    return bbs_engine_fail(s->e, BB_ENOMEM, "out of memory in the buffer nodes");
}

/* ---- the storage server: pieces in turn, or by threads --------------------- */

/* submit: a piece of request id, at place in the request, to its device. */
static int
submit(bbs_bbnode *n, int id, double piece, double place)
{
    bbs_bbsys *s = n->s;
    req *r = &s->pool[id];
    server *S = &n->sv[r->hdd];
    const bbs_dev_params *dp = bbs_dev_get_params(S->dev);
    char msg[BB_ERRLEN];
    bbs_io io;
    int rc;

    io.op = r->rq.write ? BBS_IO_WRITE : BBS_IO_READ;
    io.object = r->rq.object;
    io.size_bytes = piece < 1 ? 1 : (uint64_t)piece;
    if (!bbs_dev_addressed(dp)) {   /* offsets in an object */
        io.offset_bytes = r->rq.offset + (uint64_t)place;
    } else { /* a log: consecutive addresses */
        if (S->log_off + (double)io.size_bytes > dp->capacity_bytes)
            S->log_off = 0;
        io.offset_bytes = (uint64_t)S->log_off;
        S->log_off += (double)io.size_bytes;
    }
    if (bbs_ring_push(&S->iss, &piece) || bbs_ring_push(&S->iss_req, &id))
        return fail_nomem(s);
    if ((rc = bbs_devq_submit(S->q, &io, (uint64_t)id, msg)) != BB_OK)
        return bbs_engine_fail(s->e, rc, "buffer node %d%s: %s", n->idx, r->hdd ? " HDD" : "",
                               msg);
    return BB_OK;
}

/* next_piece: the size of request r's next piece. */
static double
next_piece(const bbs_bbsys *s, const req *r)
{
    double left = r->rq.bytes - r->issued;
    return s->p.piece_bytes > 0 && left > s->p.piece_bytes ? s->p.piece_bytes : left;
}

/* issue: top up the device's issued pieces from the requests, in turn. */
static int
issue(bbs_bbnode *n, int hdd)
{
    bbs_bbsys *s = n->s;
    server *S = &n->sv[hdd];
    int rc;

    while (S->iss.n < (size_t)s->p.pieces_in_flight && S->turn.n > 0) {
        int id = *(int *)bbs_ring_front(&S->turn);
        req *r = &s->pool[id];
        double piece = next_piece(s, r), place = r->issued;

        bbs_ring_pop(&S->turn);
        r->issued += piece;
        if (r->issued < r->rq.bytes && bbs_ring_push(&S->turn, &id))
            return fail_nomem(s);
        if ((rc = submit(n, id, piece, place)) != BB_OK)
            return rc;
    }
    return BB_OK;
}

/* take (threads): a thread of request id takes the request's next piece:
 * a write's is moved first, a read's goes to the device. */
static int
take(bbs_bbnode *n, int id)
{
    bbs_bbsys *s = n->s;
    req *r = &s->pool[id];
    bbs_bbnode_piece pc = { id, next_piece(s, r), (uint64_t)r->issued };

    r->issued += pc.bytes;
    if (r->rq.write && s->h.move)
        return s->h.move(s->h.ctx, n, &r->rq, &pc);
    return submit(n, id, pc.bytes, (double)pc.place);
}

/* start: admitted request id goes to its server. */
static int
start(bbs_bbnode *n, int id)
{
    req *r = &n->s->pool[id];

    r->epoch = n->epoch;
    n->present++;
    if (n->s->p.piece_threads > 0) {
        int rc = BB_OK;
        for (int k = 0; k < n->s->p.piece_threads && rc == BB_OK
                        && n->s->pool[id].issued < n->s->pool[id].rq.bytes; k++)
            rc = take(n, id);
        return rc;
    }
    if (bbs_ring_push(&n->sv[r->hdd].turn, &id))
        return fail_nomem(n->s);
    /* pieces are chosen when the device is idle or completes a piece:
     * a request arriving at a busy device waits for its turn */
    return n->sv[r->hdd].iss.n == 0 ? issue(n, r->hdd) : BB_OK;
}

static int
serving(const bbs_bbnode *n)
{
    return n->down == 0;
}

/* admit: the waiting requests that can go now, in order. */
static int
admit(bbs_bbnode *n)
{
    bbs_bbsys *s = n->s;
    int rc;

    while (serving(n) && n->wait_h.n > 0) {
        int id = *(int *)bbs_ring_front(&n->wait_h);
        bbs_ring_pop(&n->wait_h);
        wait_pop_count(s, &s->pool[id]);
        if ((rc = start(n, id)) != BB_OK)
            return rc;
    }
    while (serving(n) && n->wait.n > 0) {
        int id = *(int *)bbs_ring_front(&n->wait);
        req *r = &s->pool[id];
        if (n->used + r->rq.bytes > n->capacity)
            break;
        bbs_ring_pop(&n->wait);
        n->used += r->rq.bytes;
        note(n);
        wait_pop_count(s, r);
        if ((rc = start(n, id)) != BB_OK)
            return rc;
    }
    return BB_OK;
}

int
bbs_bbnode_submit(bbs_bbnode *n, const bbs_bbnode_req *rq)
{
    bbs_bbsys *s = n->s;
    int id, hdd = n->has_hdd && rq->bytes >= s->p.ssd_threshold_bytes;
    req *r;

    if (!(rq->bytes > 0))
        return bbs_engine_fail(s->e, BB_EINVAL, "a request of %g B", rq->bytes);
    if (rq->write && !hdd && rq->bytes > n->capacity)
        return bbs_engine_fail(s->e, BB_EINVAL,
                               "a write of %.0f B exceeds the buffer capacity %.0f B",
                               rq->bytes, n->capacity);
    if (s->free_head >= 0) {
        id = s->free_head;
        s->free_head = s->pool[id].next_free;
    } else {
        if (s->npool >= (size_t)INT32_MAX
            || bbs_grow((void **)&s->pool, sizeof *s->pool, &s->cappool, s->npool + 1))
            return fail_nomem(s);
        id = (int)s->npool++;
    }
    r = &s->pool[id];
    memset(r, 0, sizeof *r);
    r->rq = *rq;
    r->hdd = hdd;
    r->t_arrive = bbs_engine_now(s->e);
    if (rq->write && !hdd) {
        if (!serving(n) || n->wait.n > 0 || n->used + rq->bytes > n->capacity) {
            wait_push_count(s);
            return bbs_ring_push(&n->wait, &id) ? fail_nomem(s) : BB_OK;
        }
        n->used += rq->bytes;
        note(n);
    } else if (!serving(n)) {
        wait_push_count(s);
        return bbs_ring_push(&n->wait_h, &id) ? fail_nomem(s) : BB_OK;
    }
    return start(n, id);
}

/* ---- draining ------------------------------------------------------------------ */

static int
chunk_stale(const chunk *ch)
{
    return ch->epoch != ch->n->epoch || ch->cepoch != ch->n->cepoch;
}

static int
pfs_start(bbs_bbsys *s)
{
    chunk *ch;

    if (s->pfs_busy)
        return BB_OK;
    while (s->pfs.n > 0 && chunk_stale(bbs_ring_front(&s->pfs)))
        bbs_ring_pop(&s->pfs); /* its node failed while it queued: not served */
    if (s->pfs.n == 0)
        return BB_OK;
    ch = bbs_ring_front(&s->pfs);
    s->pfs_busy = 1;
    return bbs_engine_schedule(s->e, bbs_engine_now(s->e) + ch->bytes / s->p.pfs_bw_Bps,
                               s->k_pfs, 0, (uint64_t)ch->n->idx, 0, NULL, NULL);
}

static int
drain_chunk(bbs_bbnode *n)
{
    chunk ch = { n, n->epoch, n->cepoch, fmin(n->stored, n->s->p.drain_chunk_bytes) };

    n->draining = ch.bytes;
    if (bbs_ring_push(&n->s->pfs, &ch))
        return fail_nomem(n->s);
    return pfs_start(n->s);
}

static int
maybe_drain(bbs_bbnode *n)
{
    const bbs_bbsys_params *p = &n->s->p;

    if (!(p->pfs_bw_Bps > 0) || !serving(n) || n->draining > 0 || n->stored <= 0)
        return BB_OK;
    if (p->drain.kind == BB_DRAIN_LAZY && n->stored < p->drain.threshold)
        return BB_OK; /* quiet below the threshold (EPS at the checks) */
    return drain_chunk(n);
}

/* Drained bytes leave the stored writes oldest first. */
static void
fifo_drain(bbs_bbnode *n, double b)
{
    bbs_bbsys *s = n->s;

    while (b > 0 && n->fifo.n > 0) {
        wrec *w = bbs_ring_front(&n->fifo);
        if (b >= w->bytes - 1e-9) {         /* the write leaves the buffer */
            if (s->h.drained)
                s->h.drained(s->h.ctx, n, w->job, w->bytes);
            b -= w->bytes;
            bbs_ring_pop(&n->fifo);
        } else {                            /* the oldest write, in part */
            if (s->h.drained)
                s->h.drained(s->h.ctx, n, w->job, b);
            w->bytes -= b;
            b = 0;
        }
    }
}

static void
after(bbs_bbsys *s)
{
    if (s->h.after)
        s->h.after(s->h.ctx);
}

static int
on_pfs_body(bbs_bbsys *s)
{
    chunk ch = *(chunk *)bbs_ring_front(&s->pfs);
    bbs_bbnode *n = ch.n;
    int rc;

    bbs_ring_pop(&s->pfs);
    s->pfs_busy = 0;
    /* stale: the node lost it (counted lost) or a holding failure
     * abandoned it (the bytes stay stored and are drained again) */
    if (!chunk_stale(&ch)) {
        n->stored -= ch.bytes;
        n->used -= ch.bytes;
        n->draining = 0;
        s->t.bytes_in_buffers -= ch.bytes;
        s->t.bytes_on_pfs += ch.bytes;
        s->t.chunks++;
        if (s->p.drain_fn)
            s->p.drain_fn(s->p.drain_ctx, bbs_engine_now(s->e), n->idx, ch.bytes);
        fifo_drain(n, ch.bytes);
        note(n);
        if ((rc = admit(n)) != BB_OK || (rc = maybe_drain(n)) != BB_OK)
            return rc;
    }
    return pfs_start(s);
}

static int
on_pfs(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_bbsys *s = ctx;
    int rc = on_pfs_body(s);

    (void)e;
    (void)ev;
    after(s);
    return rc;
}

static int
on_lazy(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_bbsys *s = ctx;
    bbs_bbnode *n = ev->ptr;
    double now = bbs_engine_now(e);
    int rc = BB_OK;

    n->lazy_ev = 0;
    /* one uniform per check, whatever the state (fixed draw counts) */
    int go = gsl_rng_uniform(n->rlazy) < s->p.drain.eps;
    if (go && s->p.pfs_bw_Bps > 0 && serving(n) && n->draining == 0 && n->stored > 0)
        rc = drain_chunk(n);
    if (rc == BB_OK && !s->quiesced && now + s->p.lazy_check_s < s->p.horizon_s)
        rc = bbs_engine_schedule(e, now + s->p.lazy_check_s, s->k_lazy, 0, ev->entity, 0, n,
                                 &n->lazy_ev);
    after(s);
    return rc;
}

void
bbs_bbsys_quiesce(bbs_bbsys *s)
{
    s->quiesced = 1;
    for (size_t i = 0; i < s->nn; i++)
        if (s->nodes[i]->lazy_ev) {
            bbs_engine_cancel(s->e, s->nodes[i]->lazy_ev);
            s->nodes[i]->lazy_ev = 0;
        }
}

int
bbs_bbsys_pfs_idle(const bbs_bbsys *s)
{
    return !s->pfs_busy && s->pfs.n == 0;
}

/* ---- device completions ------------------------------------------------------- */

/* complete: request id of n (server hdd) is complete. */
static int
complete(bbs_bbnode *n, int id, int hdd)
{
    bbs_bbsys *s = n->s;
    req *r = &s->pool[id];
    bbs_bbnode_req rq = r->rq;
    int rc, lost = 0;

    n->present--;
    if (rq.write && hdd) {
        s->t.bytes_on_pfs += rq.bytes;
    } else if (rq.write && r->epoch != n->epoch) {
        /* written on a node that lost its data meanwhile: lost with it */
        n->used -= rq.bytes;
        s->t.bytes_lost += rq.bytes;
        s->t.files_lost++;
        if (s->h.lost)
            s->h.lost(s->h.ctx, n, rq.job, rq.bytes, 1);
        note(n);
        lost = 1;
    } else if (rq.write) {
        wrec w = { rq.job, rq.bytes };
        n->stored += rq.bytes;
        s->t.bytes_in_buffers += rq.bytes;
        if (bbs_ring_push(&n->fifo, &w))
            return fail_nomem(s);
        if ((rc = maybe_drain(n)) != BB_OK)
            return rc;
    }
    r->next_free = s->free_head;
    s->free_head = id;
    if ((rc = s->h.done(s->h.ctx, n, &rq, hdd, lost)) != BB_OK)
        return rc;
    if (lost && (rc = admit(n)) != BB_OK)
        return rc;
    return BB_OK;
}

/* thread_on (threads): a thread of request id is done with its piece
 * (written, or read and moved): the request is complete, or the thread
 * takes the next piece. */
static int
thread_on(bbs_bbnode *n, int id)
{
    req *r = &n->s->pool[id];
    double done = r->rq.write ? r->served : r->moved;

    if (done >= r->rq.bytes)
        return complete(n, id, r->hdd);
    return r->issued < r->rq.bytes ? take(n, id) : BB_OK;
}

static int
piece_body(bbs_bbnode *n, bbs_devq *q)
{
    bbs_bbsys *s = n->s;
    int hdd = q == n->sv[1].q, id, rc;
    server *S = &n->sv[hdd];
    double piece = *(double *)bbs_ring_front(&S->iss);
    req *r;

    id = *(int *)bbs_ring_front(&S->iss_req);
    r = &s->pool[id];
    r->served += piece;
    bbs_ring_pop(&S->iss);
    bbs_ring_pop(&S->iss_req);
    if (s->p.piece_threads > 0) {
        if (!r->rq.write && s->h.move) {
            bbs_bbnode_piece pc = { id, piece, 0 };
            return s->h.move(s->h.ctx, n, &r->rq, &pc);
        }
        if (!r->rq.write)
            r->moved += piece;
        return thread_on(n, id);
    }
    if (r->served < r->rq.bytes)
        return issue(n, hdd);
    if ((rc = complete(n, id, hdd)) != BB_OK)
        return rc;
    return issue(n, hdd);
}

int
bbs_bbnode_piece_moved(bbs_bbnode *n, const bbs_bbnode_piece *pc)
{
    req *r = &n->s->pool[pc->req];

    if (r->rq.write)
        return submit(n, pc->req, pc->bytes, (double)pc->place);
    r->moved += pc->bytes;
    return thread_on(n, pc->req);
}

static int
on_piece(bbs_engine *e, bbs_devq *q, const bbs_io *io, uint64_t tag, double t_submit,
         void *ctx)
{
    bbs_bbnode *n = ctx;
    int rc = piece_body(n, q);

    (void)e;
    (void)io;
    (void)tag;
    (void)t_submit;
    after(n->s);
    return rc;
}

/* ---- failures ---------------------------------------------------------------------- */

int
bbs_bbnode_fail(bbs_bbnode *n, int lose)
{
    bbs_bbsys *s = n->s;

    n->down++;
    if (lose) {
        s->t.bytes_lost += n->stored;
        s->t.files_lost += n->fifo.n;
        s->t.bytes_in_buffers -= n->stored;
        if (s->h.lost)
            for (size_t i = 0; i < n->fifo.n; i++) {
                wrec *w = bbs_ring_at(&n->fifo, i);
                s->h.lost(s->h.ctx, n, w->job, w->bytes, 1);
            }
        bbs_ring_clear(&n->fifo);
        n->used -= n->stored;
        n->stored = 0;
        n->draining = 0;
        n->epoch++;
    } else {
        n->cepoch++;    /* the chunk being drained is abandoned, not lost */
        n->draining = 0;
    }
    note(n);
    return BB_OK;
}

int
bbs_bbnode_repair(bbs_bbnode *n)
{
    int rc;

    if (n->down > 0)
        n->down--;
    if ((rc = admit(n)) != BB_OK)
        return rc;
    return maybe_drain(n);
}

/* ---- state ------------------------------------------------------------------------- */

void
bbs_bbnode_get_state(const bbs_bbnode *n, bbs_bbnode_state *st)
{
    st->used = n->used;
    st->stored = n->stored;
    st->capacity = n->capacity;
    st->serving = serving(n);
    st->waiting = n->wait.n + n->wait_h.n;
    st->present = n->present;
    st->files = n->fifo.n;
}

void
bbs_bbnode_each_stored(const bbs_bbnode *n, void (*fn)(void *ctx, int job, double bytes),
                       void *ctx)
{
    for (size_t i = 0; i < n->fifo.n; i++) {
        const wrec *w = bbs_ring_at(&n->fifo, i);
        fn(ctx, w->job, w->bytes);
    }
}

bbs_devq *
bbs_bbnode_devq(const bbs_bbnode *n, int hdd)
{
    return hdd ? (n->has_hdd ? n->sv[1].q : NULL) : n->sv[0].q;
}

int
bbs_bbnode_index(const bbs_bbnode *n)
{
    return n->idx;
}

void
bbs_bbsys_get_totals(const bbs_bbsys *s, bbs_bbsys_totals *t)
{
    *t = s->t;
    if (s->nwait > 0)
        t->stall_busy_s += bbs_engine_now(s->e) - s->t_wait0;
    if (!isfinite(t->min_used_bytes))
        t->min_used_bytes = 0;
}
