/* sweep.h: one point of a what-if grid: a (model, buffer size, policy)
 * triple and its evaluation, with its status kept so that a grid can go on
 * past a point that fails.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each point is one bba_eval (one chain build and one stationary solve).
 * Points share nothing but their read-only models, so a grid is a set of
 * independent units: src/sweeprun.c runs them on the simulator's unit
 * runner (threads, or MPI ranks), results in grid order.  Typical grids:
 * 10..10^4 points of 10^2..10^5 states each. */
#ifndef BBSIZE_ANALYTIC_SWEEP_H
#define BBSIZE_ANALYTIC_SWEEP_H

#include <stddef.h>

#include "bb_error.h"
#include "sizing.h"

typedef struct {
    const bba_model *model;   /* borrowed, read-only while the sweep runs */
    long S;                   /* buffer size, quanta */
    bba_policy pol;           /* concrete policy for S */
} bba_sweep_point;

typedef struct {
    int status;               /* BB_OK, or the error bba_eval returned */
    bba_eval_result r;        /* valid when status == BB_OK */
    char err[BB_ERRLEN];      /* the message when status != BB_OK */
} bba_sweep_out;

/* bba_sweep_eval_point: evaluate p into *out (status, result or message).
 * Cannot fail otherwise; thread-safe for distinct outs.  Memory: one chain
 * and its solver workspace (so->mem_limit_bytes applies). */
void bba_sweep_eval_point(const bba_sweep_point *p, const bba_solver_opts *so,
                          bba_sweep_out *out);

#endif
