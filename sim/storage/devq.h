/* devq.h: a storage device as a FIFO queueing server on the event engine
 * (sim/engine.h), with iostat-like counters.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Requests are submitted at the engine's current time; the queue serves
 * them one at a time in arrival order, asking the device model
 * (bbs_dev_serve) for each completion time and scheduling a completion
 * event there; at that event the owner's callback runs (it may submit more
 * requests) and the next request starts.  Pending requests live in a ring
 * that grows by doubling; memory O(longest queue); O(log events) per
 * request for the engine.
 *
 * One handler kind serves every queue of an engine (register it once with
 * bbs_devq_register_kind): the engine allows only BBS_MAX_KINDS kinds, and a
 * platform may have hundreds of devices.  Completion events carry the
 * queue in their ptr payload and its id in their entity. */
#ifndef BBSIZE_SIM_STORAGE_DEVQ_H
#define BBSIZE_SIM_STORAGE_DEVQ_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "device.h"
#include "engine.h"

typedef struct bbs_devq bbs_devq;

/* The owner's completion callback: request io (tag as submitted) was
 * submitted at t_submit_s and completes now (bbs_engine_now).  Return
 * BB_OK, or a status that stops the engine run. */
typedef int (*bbs_devq_done_fn)(bbs_engine *e, bbs_devq *q, const bbs_io *io, uint64_t tag,
                                double t_submit_s, void *ctx);

/* iostat-like counters, cumulative since creation (difference two
 * snapshots for an interval).  Time integrals run to the snapshot time. */
typedef struct {
    double t_s;                    /* snapshot time */
    uint64_t r_ios, w_ios;         /* completed requests */
    double r_bytes, w_bytes;       /* completed bytes */
    double r_await_s, w_await_s;   /* sum of (completion - submission) */
    double busy_s;                 /* time with a request in service */
    double queue_area_s;           /* integral of requests in the system */
    uint64_t in_system;            /* queued + in service at t_s */
} bbs_devq_stats;

/* bbs_devq_register_kind: register the completion handler on e; *kind
 * receives the kind to pass to bbs_devq_new.  Errors: BB_EINVAL (no kind
 * left). */
int bbs_devq_register_kind(bbs_engine *e, int *kind);

/* bbs_devq_new: a queue in front of dev (not owned) on engine e, drawing
 * from rng (not owned); fn(ctx) is called at each completion.
 * Errors: BB_ENOMEM. */
int bbs_devq_new(bbs_devq **out, bbs_engine *e, int kind, uint64_t id, bbs_dev *dev,
                 gsl_rng *rng, bbs_devq_done_fn fn, void *ctx, char *err);
void bbs_devq_free(bbs_devq *q);    /* NULL is a no-op */

/* bbs_devq_submit: enqueue io at the engine's current time.  Errors:
 * BB_ENOMEM; the device's BB_EINVAL (bad request) when it starts at once. */
int bbs_devq_submit(bbs_devq *q, const bbs_io *io, uint64_t tag, char *err);

/* bbs_devq_get_stats: the counters at the engine's current time. */
void bbs_devq_get_stats(const bbs_devq *q, bbs_devq_stats *s);

#endif
