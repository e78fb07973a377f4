/* engine.h: the discrete-event engine every simulator model runs on: a
 * simulated clock in seconds, an event queue with deterministic
 * tie-breaking, and handlers registered by models.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Design (after ROSS's tw_lptype): the engine owns the clock and the queue
 * and knows nothing of any model; a model registers one handler per event
 * kind, keeps its own state behind the handler's ctx pointer and schedules
 * events that carry (kind, entity, arg, ptr).  Events are ordered by the key
 * (time_s, prio, seq): seq is a global insertion counter, so events with
 * equal time and priority run in the order they were scheduled, never by
 * address.  prio (default 0, smaller first) lets a model order, e.g., "end
 * of transfer" before "start of transfer" at the same instant.
 *
 * Storage: an indexed binary heap over a pool of event slots.  schedule,
 * cancel and reschedule are O(log n), next-event O(log n); slots are
 * recycled, so memory is O(largest number of pending events).  Event ids
 * carry a generation count, so cancelling an event that already ran (or was
 * cancelled) is detected and harmless.  Expected sizes: 10 to 10^6 pending
 * events (one per application in the burst-buffer model; one per flow or
 * request in the network and storage models, which reschedule completions
 * whenever rates change: hence cancel/reschedule).
 *
 * One engine is one sequential simulation (one replication or unit); it is
 * not thread-safe, and parallelism is across engines (replicate.h). */
#ifndef BBSIZE_SIM_ENGINE_H
#define BBSIZE_SIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct bbs_engine bbs_engine;

/* An event id: 0 is never a valid id ("no event"). */
typedef uint64_t bbs_event_id;

/* What a handler receives.  The struct is the engine's; copy what you need
 * before returning. */
typedef struct {
    double time_s;       /* when it happens (= bbs_engine_now) */
    int kind;            /* handler index from bbs_engine_register */
    int prio;            /* tie-break class, smaller first */
    uint64_t entity;     /* model-defined: which application, flow, device */
    int64_t arg;         /* model-defined integer payload */
    void *ptr;           /* model-defined pointer payload (not owned) */
    bbs_event_id id;     /* this event's id */
} bbs_event;

/* A handler: return BB_OK to go on, any other status to stop the run
 * (bbs_engine_run then returns that status; write the reason with
 * bbs_engine_fail or into the err buffer given to bbs_engine_new). */
typedef int (*bbs_handler_fn)(bbs_engine *e, const bbs_event *ev, void *ctx);

/* bbs_engine_new: an empty engine at time 0 with room for about
 * expected_events pending events (0: a small default; it grows).
 * err (BB_ERRLEN bytes, may be NULL) is kept and receives the messages of
 * later failures, including those of handlers via bbs_engine_fail.
 * Errors: BB_ENOMEM. */
int bbs_engine_new(bbs_engine **out, size_t expected_events, char *err);

/* bbs_engine_free: release the engine and its pending events; NULL is a
 * no-op.  Event ptr payloads are not freed. */
void bbs_engine_free(bbs_engine *e);

/* bbs_engine_register: add a handler; *kind_out receives its kind (0, 1,
 * ... in registration order).  At most BBS_MAX_KINDS kinds.
 * Errors: BB_EINVAL (fn NULL or too many kinds). */
#define BBS_MAX_KINDS 64
int bbs_engine_register(bbs_engine *e, bbs_handler_fn fn, void *ctx, int *kind_out);

/* bbs_engine_schedule: add an event at absolute time time_s (>= now, finite)
 * of a registered kind.  *id_out (may be NULL) receives its id.
 * Errors: BB_EINVAL (time in the past, NaN, unknown kind); BB_ENOMEM. */
int bbs_engine_schedule(bbs_engine *e, double time_s, int kind, int prio,
                        uint64_t entity, int64_t arg, void *ptr,
                        bbs_event_id *id_out);

/* bbs_engine_cancel: remove a pending event.  Returns 1 if it was pending,
 * 0 if it had already run or been cancelled (or id is 0).  O(log n). */
int bbs_engine_cancel(bbs_engine *e, bbs_event_id id);

/* bbs_engine_reschedule: move a pending event to new_time_s (>= now); it
 * takes a fresh sequence number, as if cancelled and scheduled again, but
 * keeps its id.  Errors: BB_EINVAL (not pending, bad time).  O(log n). */
int bbs_engine_reschedule(bbs_engine *e, bbs_event_id id, double new_time_s);

/* bbs_engine_run: execute events in (time, prio, seq) order while the next
 * one is at or before until_s (INFINITY: until the queue is empty), then set
 * the clock to until_s if finite and larger (so time averages can be closed
 * at the horizon).  Returns BB_OK, or the first non-OK status of a handler
 * (the run stops at once, the clock at that event).  A run can be resumed
 * with a later until_s. */
int bbs_engine_run(bbs_engine *e, double until_s);

/* bbs_engine_stop: from a handler, end bbs_engine_run after this event with
 * BB_OK (e.g. a model that reached its own end condition). */
void bbs_engine_stop(bbs_engine *e);

/* bbs_engine_fail: from a handler, record a message in the engine's err
 * buffer; returns code, so a handler can `return bbs_engine_fail(e, ...)`. */
int bbs_engine_fail(bbs_engine *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Accessors, O(1). */
double bbs_engine_now(const bbs_engine *e);          /* clock, s */
uint64_t bbs_engine_events(const bbs_engine *e);     /* events executed */
size_t bbs_engine_pending(const bbs_engine *e);      /* events queued */
/* bbs_engine_next_time: time of the next pending event (INFINITY if none). */
double bbs_engine_next_time(const bbs_engine *e);
/* bbs_engine_event_time: time of pending event id (NAN if not pending). */
double bbs_engine_event_time(const bbs_engine *e, bbs_event_id id);

/* Bounds.  Every run is bounded: an engine refuses to execute more than
 * max_events events or to hold more than max_pending pending events, and
 * returns BB_ETOOBIG saying how far it got and how large the run would
 * have been.  This is the backstop behind the estimates the commands make
 * before a run starts (a run whose clock stops advancing, e.g. periods of
 * 1e-300 s, ends here too).
 *
 * bbs_engine_set_default_limits: the bounds every later bbs_engine_new
 * starts with (0: none).  Process-wide: call it before any engine exists
 * (from main, after reading --max-events / --max-memory), never while
 * engines run on other threads. */
void bbs_engine_set_default_limits(uint64_t max_events, size_t max_pending);
/* bbs_engine_set_limits: the bounds of one engine (0: none). */
void bbs_engine_set_limits(bbs_engine *e, uint64_t max_events, size_t max_pending);
/* bbs_engine_event_bytes: the memory one pending event takes, bytes. */
size_t bbs_engine_event_bytes(void);

#endif
