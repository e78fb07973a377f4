/* engine.c: clock, indexed binary heap of events, handler dispatch
 * (engine.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "engine.h"

/* A slot holds one event; heap[] holds slot indices ordered by key.  A
 * slot's heap position is pos (SIZE_MAX when free).  An id is
 * (generation << 32) | (slot + 1), so 0 is never an id and a recycled slot
 * does not answer to an old id. */
typedef struct {
    double time_s;
    uint64_t seq;
    int prio;
    int kind;
    uint64_t entity;
    int64_t arg;
    void *ptr;
    uint32_t gen;
    size_t pos;         /* index in heap, or SIZE_MAX when free */
    size_t next_free;
} slot;

typedef struct {
    bbs_handler_fn fn;
    void *ctx;
} handler;

struct bbs_engine {
    double now_s;
    uint64_t seq;
    uint64_t executed;
    slot *slots;
    size_t n_slots, cap_slots;
    size_t free_head;   /* SIZE_MAX: none */
    size_t *heap;
    size_t n_heap;
    handler handlers[BBS_MAX_KINDS];
    int n_kinds;
    int stop;
    char *err;
    uint64_t max_events;   /* 0: no bound */
    size_t max_pending;    /* 0: no bound */
};

static uint64_t default_max_events;
static size_t default_max_pending;

void
bbs_engine_set_default_limits(uint64_t max_events, size_t max_pending)
{
    default_max_events = max_events;
    default_max_pending = max_pending;
}

size_t
bbs_engine_event_bytes(void)
{
    return sizeof(slot) + sizeof(size_t);   /* a slot and its heap index */
}

void
bbs_engine_set_limits(bbs_engine *e, uint64_t max_events, size_t max_pending)
{
    e->max_events = max_events;
    e->max_pending = max_pending;
}

#define NONE ((size_t)-1)

static int
before(const slot *a, const slot *b)
{
    if (a->time_s != b->time_s)
        return a->time_s < b->time_s;
    if (a->prio != b->prio)
        return a->prio < b->prio;
    return a->seq < b->seq;
}

static void
heap_place(bbs_engine *e, size_t i, size_t s)
{
    e->heap[i] = s;
    e->slots[s].pos = i;
}

static void
sift_up(bbs_engine *e, size_t i)
{
    size_t s = e->heap[i];

    while (i > 0) {
        size_t parent = (i - 1) / 2;

        if (!before(&e->slots[s], &e->slots[e->heap[parent]]))
            break;
        heap_place(e, i, e->heap[parent]);
        i = parent;
    }
    heap_place(e, i, s);
}

static void
sift_down(bbs_engine *e, size_t i)
{
    size_t s = e->heap[i], n = e->n_heap;

    for (;;) {
        size_t c = 2 * i + 1;

        if (c >= n)
            break;
        if (c + 1 < n && before(&e->slots[e->heap[c + 1]], &e->slots[e->heap[c]]))
            c++;
        if (!before(&e->slots[e->heap[c]], &e->slots[s]))
            break;
        heap_place(e, i, e->heap[c]);
        i = c;
    }
    heap_place(e, i, s);
}

/* Remove heap entry i and free its slot. */
static void
heap_remove(bbs_engine *e, size_t i)
{
    size_t s = e->heap[i];
    size_t last = e->heap[--e->n_heap];

    if (i < e->n_heap) {
        heap_place(e, i, last);
        if (i > 0 && before(&e->slots[last], &e->slots[e->heap[(i - 1) / 2]]))
            sift_up(e, i);
        else
            sift_down(e, i);
    }
    e->slots[s].pos = NONE;
    e->slots[s].gen++;
    e->slots[s].next_free = e->free_head;
    e->free_head = s;
}

static int
grow(bbs_engine *e, size_t want)
{
    size_t cap = e->cap_slots ? e->cap_slots : 16;
    slot *ns;
    size_t *nh;

    while (cap < want)
        cap *= 2;
    if (cap == e->cap_slots)
        return BB_OK;
    ns = realloc(e->slots, cap * sizeof *ns);
    if (ns == NULL)
        return BB_ENOMEM;
    e->slots = ns;
    nh = realloc(e->heap, cap * sizeof *nh);
    if (nh == NULL)
        return BB_ENOMEM;
    e->heap = nh;
    e->cap_slots = cap;
    return BB_OK;
}

int
bbs_engine_new(bbs_engine **out, size_t expected_events, char *err)
{
    bbs_engine *e = calloc(1, sizeof *e);

    *out = NULL;
    if (e == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the event engine");
    e->free_head = NONE;
    e->err = err;
    e->max_events = default_max_events;
    e->max_pending = default_max_pending;
    if (grow(e, expected_events > 16 ? expected_events : 16) != BB_OK) {
        bbs_engine_free(e);
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu events", expected_events);
    }
    *out = e;
    return BB_OK;
}

void
bbs_engine_free(bbs_engine *e)
{
    if (e == NULL)
        return;
    free(e->slots);
    free(e->heap);
    free(e);
}

int
bbs_engine_register(bbs_engine *e, bbs_handler_fn fn, void *ctx, int *kind_out)
{
    if (fn == NULL)
        return bb_seterr(e->err, BB_EINVAL, "event handler is NULL");
    if (e->n_kinds >= BBS_MAX_KINDS)
        return bb_seterr(e->err, BB_EINVAL, "more than %d event kinds", BBS_MAX_KINDS);
    e->handlers[e->n_kinds].fn = fn;
    e->handlers[e->n_kinds].ctx = ctx;
    *kind_out = e->n_kinds++;
    return BB_OK;
}

static int
check_time(bbs_engine *e, double t)
{
    if (!isfinite(t) || t < e->now_s)
        return bb_seterr(e->err, BB_EINVAL,
                         "event time %.17g s is not finite or before the clock (%.17g s)",
                         t, e->now_s);
    return BB_OK;
}

int
bbs_engine_schedule(bbs_engine *e, double time_s, int kind, int prio,
                    uint64_t entity, int64_t arg, void *ptr, bbs_event_id *id_out)
{
    size_t s;
    slot *sl;
    int rc;

    if ((rc = check_time(e, time_s)) != BB_OK)
        return rc;
    if (kind < 0 || kind >= e->n_kinds)
        return bb_seterr(e->err, BB_EINVAL, "event kind %d is not registered", kind);
    if (e->free_head != NONE) {
        s = e->free_head;
        e->free_head = e->slots[s].next_free;
    } else {
        if (e->max_pending && e->n_slots >= e->max_pending)
            return bb_seterr(e->err, BB_ETOOBIG, "the simulation would hold more than %zu "
                             "pending events (%.3g bytes) at simulated time %.6g s: raise "
                             "the memory bound, or shrink the run", e->max_pending,
                             (double)e->max_pending * (double)bbs_engine_event_bytes(), e->now_s);
        if (e->n_slots == e->cap_slots && grow(e, e->n_slots + 1) != BB_OK)
            return bb_seterr(e->err, BB_ENOMEM, "out of memory for %zu pending events",
                             e->n_slots + 1);
        s = e->n_slots++;
        e->slots[s].gen = 1;
    }
    sl = &e->slots[s];
    sl->time_s = time_s;
    sl->seq = e->seq++;
    sl->prio = prio;
    sl->kind = kind;
    sl->entity = entity;
    sl->arg = arg;
    sl->ptr = ptr;
    e->heap[e->n_heap] = s;
    sl->pos = e->n_heap++;
    sift_up(e, sl->pos);
    if (id_out)
        *id_out = ((uint64_t)sl->gen << 32) | (uint64_t)(s + 1);
    return BB_OK;
}

/* The slot of a pending event id, or NONE. */
static size_t
lookup(const bbs_engine *e, bbs_event_id id)
{
    uint64_t s1 = id & 0xFFFFFFFFu;
    uint32_t gen = (uint32_t)(id >> 32);

    if (s1 == 0 || s1 > e->n_slots)
        return NONE;
    if (e->slots[s1 - 1].gen != gen || e->slots[s1 - 1].pos == NONE)
        return NONE;
    return (size_t)(s1 - 1);
}

int
bbs_engine_cancel(bbs_engine *e, bbs_event_id id)
{
    size_t s = lookup(e, id);

    if (s == NONE)
        return 0;
    heap_remove(e, e->slots[s].pos);
    return 1;
}

int
bbs_engine_reschedule(bbs_engine *e, bbs_event_id id, double new_time_s)
{
    size_t s = lookup(e, id);
    int rc;

    if (s == NONE)
        return bb_seterr(e->err, BB_EINVAL, "event %#llx is not pending",
                         (unsigned long long)id);
    if ((rc = check_time(e, new_time_s)) != BB_OK)
        return rc;
    e->slots[s].time_s = new_time_s;
    e->slots[s].seq = e->seq++;
    /* The key only grows in seq; time may move either way. */
    sift_up(e, e->slots[s].pos);
    sift_down(e, e->slots[s].pos);
    return BB_OK;
}

int
bbs_engine_run(bbs_engine *e, double until_s)
{
    e->stop = 0;
    while (e->n_heap > 0 && !e->stop) {
        size_t s = e->heap[0];
        slot *sl = &e->slots[s];
        bbs_event ev;
        int rc;

        if (sl->time_s > until_s)
            break;
        if (e->max_events && e->executed >= e->max_events) {
            double est = isfinite(until_s) && e->now_s > 0 ? (double)e->executed * until_s / e->now_s
                                                             : INFINITY;

            return bb_seterr(e->err, BB_ETOOBIG, "the simulation reached the bound of %llu "
                             "events at simulated time %.6g s of %.6g s (about %.3g events in "
                             "all%s): raise the event bound, or shorten the run",
                             (unsigned long long)e->max_events, e->now_s, until_s, est,
                             e->now_s == sl->time_s ? "; the clock is not advancing" : "");
        }
        ev.time_s = sl->time_s;
        ev.kind = sl->kind;
        ev.prio = sl->prio;
        ev.entity = sl->entity;
        ev.arg = sl->arg;
        ev.ptr = sl->ptr;
        ev.id = ((uint64_t)sl->gen << 32) | (uint64_t)(s + 1);
        heap_remove(e, 0);   /* before the handler, which may schedule */
        e->now_s = ev.time_s;
        e->executed++;
        rc = e->handlers[ev.kind].fn(e, &ev, e->handlers[ev.kind].ctx);
        if (rc != BB_OK)
            return rc;
    }
    if (!e->stop && isfinite(until_s) && until_s > e->now_s)
        e->now_s = until_s;
    return BB_OK;
}

void
bbs_engine_stop(bbs_engine *e)
{
    e->stop = 1;
}

int
bbs_engine_fail(bbs_engine *e, int code, const char *fmt, ...)
{
    va_list ap;

    if (e->err) {
        va_start(ap, fmt);
        vsnprintf(e->err, BB_ERRLEN, fmt, ap);
        va_end(ap);
    }
    return code;
}

double bbs_engine_now(const bbs_engine *e) { return e->now_s; }
uint64_t bbs_engine_events(const bbs_engine *e) { return e->executed; }
size_t bbs_engine_pending(const bbs_engine *e) { return e->n_heap; }

double
bbs_engine_next_time(const bbs_engine *e)
{
    return e->n_heap ? e->slots[e->heap[0]].time_s : INFINITY;
}

double
bbs_engine_event_time(const bbs_engine *e, bbs_event_id id)
{
    size_t s = lookup(e, id);

    return s == NONE ? NAN : e->slots[s].time_s;
}
