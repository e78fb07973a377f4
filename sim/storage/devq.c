/* devq.c: a device's FIFO queue on the event engine (devq.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "devq.h"
#include "grow.h"

typedef struct {
    bbs_io io;
    uint64_t tag;
    double t_submit;
} pending;

struct bbs_devq {
    bbs_engine *e;
    int kind;
    uint64_t id;
    bbs_dev *dev;
    gsl_rng *rng;
    bbs_devq_done_fn fn;
    void *ctx;
    bbs_ring ring;                 /* pending: the head is in service when in_service */
    int in_service;
    double busy_since;
    bbs_devq_stats st;   /* t_s = time of the last change */
};

static int on_done(bbs_engine *e, const bbs_event *ev, void *ctx);

int
bbs_devq_register_kind(bbs_engine *e, int *kind)
{
    return bbs_engine_register(e, on_done, NULL, kind);
}

int
bbs_devq_new(bbs_devq **out, bbs_engine *e, int kind, uint64_t id, bbs_dev *dev,
             gsl_rng *rng, bbs_devq_done_fn fn, void *ctx, char *err)
{
    bbs_devq *q = calloc(1, sizeof *q);

    *out = NULL;
    if (!q)
        return bb_seterr(err, BB_ENOMEM, "out of memory allocating a device queue");
    bbs_ring_init(&q->ring, sizeof(pending));
    q->e = e;
    q->kind = kind;
    q->id = id;
    q->dev = dev;
    q->rng = rng;
    q->fn = fn;
    q->ctx = ctx;
    q->st.t_s = bbs_engine_now(e);
    *out = q;
    return BB_OK;
}

void
bbs_devq_free(bbs_devq *q)
{
    if (!q)
        return;
    bbs_ring_free(&q->ring);
    free(q);
}

/* Close the time integrals at now. */
static void
advance(bbs_devq *q, double now)
{
    q->st.queue_area_s += (double)q->st.in_system * (now - q->st.t_s);
    q->st.t_s = now;
}

static int
start_next(bbs_devq *q, char *err)
{
    double now = bbs_engine_now(q->e), done;
    pending *p;
    int rc;

    if (q->in_service || q->ring.n == 0)
        return BB_OK;
    p = bbs_ring_front(&q->ring);
    if ((rc = bbs_dev_serve(q->dev, now, &p->io, q->rng, &done, err)) != BB_OK)
        return rc;
    if ((rc = bbs_engine_schedule(q->e, done, q->kind, 0, q->id, 0, q, NULL)) != BB_OK)
        return bb_seterr(err, rc, "cannot schedule a device completion at %.9g s", done);
    q->in_service = 1;
    q->busy_since = now;
    return BB_OK;
}

int
bbs_devq_submit(bbs_devq *q, const bbs_io *io, uint64_t tag, char *err)
{
    double now = bbs_engine_now(q->e);

    pending p = { *io, tag, now };

    if (bbs_ring_push(&q->ring, &p))
        return bb_seterr(err, BB_ENOMEM, "out of memory growing a device queue");
    advance(q, now);
    q->st.in_system++;
    return start_next(q, err);
}

static int
on_done(bbs_engine *e, const bbs_event *ev, void *unused)
{
    bbs_devq *q = ev->ptr;
    pending p = *(pending *)bbs_ring_front(&q->ring);
    double now = bbs_engine_now(e);
    char msg[BB_ERRLEN];
    int rc;

    (void)unused;
    bbs_ring_pop(&q->ring);
    q->in_service = 0;
    advance(q, now);
    q->st.in_system--;
    q->st.busy_s += now - q->busy_since;
    if (p.io.op == BBS_IO_READ) {
        q->st.r_ios++;
        q->st.r_bytes += (double)p.io.size_bytes;
        q->st.r_await_s += now - p.t_submit;
    } else {
        q->st.w_ios++;
        q->st.w_bytes += (double)p.io.size_bytes;
        q->st.w_await_s += now - p.t_submit;
    }
    if ((rc = q->fn(e, q, &p.io, p.tag, p.t_submit, q->ctx)) != BB_OK)
        return rc;
    if ((rc = start_next(q, msg)) != BB_OK)
        return bbs_engine_fail(e, rc, "device %llu: %s", (unsigned long long)q->id, msg);
    return BB_OK;
}

void
bbs_devq_get_stats(const bbs_devq *q, bbs_devq_stats *s)
{
    double now = bbs_engine_now(q->e);

    *s = q->st;
    s->queue_area_s += (double)s->in_system * (now - s->t_s);
    if (q->in_service)
        s->busy_s += now - q->busy_since;
    s->t_s = now;
}
