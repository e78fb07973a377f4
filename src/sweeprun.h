/* sweeprun.h: a what-if grid (analytic/questions/sweep.h points) run on the
 * simulator's unit runner (sim/replicate.h): on threads, or spread over
 * MPI ranks in an MPI build, with results in grid order and the same bytes
 * whatever ran them.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_SWEEPRUN_H
#define BBSIZE_SRC_SWEEPRUN_H

#include <stddef.h>

#include "sweep.h"

/* Called after each point with the number done (may be NULL). */
typedef void (*bb_sweep_progress_fn)(void *ctx, size_t done, size_t total);

/* bb_sweep_run: evaluate pts[0..n-1] into out[0..n-1] on nthreads threads
 * (>= 1).  Every point is evaluated even when some fail; returns BB_OK, or
 * the status of the lowest-index failing point with "point I: message"
 * (I 1-based) in err; BB_EINVAL for nthreads < 1. */
int bb_sweep_run(const bba_sweep_point *pts, size_t n, int nthreads, bb_sweep_progress_fn cb, void *cb_ctx,
                 bba_sweep_out *out, char *err);

#endif
