/* sweep.h: evaluate many independent (model, buffer size, policy) points
 * of a what-if grid on several threads, results in grid order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each point is one bba_eval (one chain build and one stationary solve);
 * points share nothing but their read-only models, so threads take the
 * next unevaluated index from a counter and write out[i] only.  The
 * numbers of a point do not depend on which thread computed it or on how
 * many ran: a sweep gives the same bytes with 1 or N threads.  Typical
 * grids: 10..10^4 points of 10^2..10^5 states each. */
#ifndef BBSIZE_ANALYTIC_SWEEP_H
#define BBSIZE_ANALYTIC_SWEEP_H

#include <stddef.h>

#include "sizing.h"

typedef struct {
    const bba_model *model;   /* borrowed, read-only while the sweep runs */
    long S;                   /* buffer size, quanta */
    bba_policy pol;           /* concrete policy for S */
} bba_sweep_point;

typedef struct {
    int status;               /* BB_OK, or the error bba_eval returned */
    bba_eval_result r;        /* valid when status == BB_OK */
} bba_sweep_out;

/* Called under a lock after each point (done = points finished so far);
 * may be NULL. */
typedef void (*bba_sweep_progress_fn)(void *ctx, size_t done, size_t total);

/* bba_sweep_eval: evaluate pts[0..n-1] on nthreads threads (>= 1; capped
 * at n) with solver options so; out[i] receives point i.  Memory: each
 * running thread holds one chain and its factors (so->mem_limit_bytes
 * applies to each).  Returns BB_OK when every point succeeded, else the
 * status of the lowest-index failing point with its message (prefixed by
 * "point I: ") in err, every other point still evaluated; BB_ENOMEM or
 * BB_EINVAL (nthreads < 1) before any work; threads that cannot be
 * started are replaced by the calling thread. */
int bba_sweep_eval(const bba_sweep_point *pts, size_t n, const bba_solver_opts *so,
                   int nthreads, bba_sweep_progress_fn cb, void *cb_ctx,
                   bba_sweep_out *out, char *err);

#endif
