/* sweep.h: one point of a what-if grid: a (front, buffer size, policy)
 * triple and its answer, with its status kept so that a grid can go on
 * past a point that fails.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each point is one bba_front_idle (answer.h), so a grid says exactly what
 * `bbsize idle` says at each of its points.  Points share nothing but
 * their read-only fronts, so a grid is a set of independent units:
 * src/sweeprun.c runs them on the simulator's unit runner (threads, or MPI
 * ranks), results in grid order. */
#ifndef BBSIZE_ANALYTIC_SWEEP_H
#define BBSIZE_ANALYTIC_SWEEP_H

#include <stddef.h>

#include "answer.h"
#include "bb_error.h"
#include "cost.h"

typedef struct {
    const bba_front *front;   /* borrowed, read-only while the sweep runs */
    double S_bytes;           /* buffer size */
    bb_drain drain;          /* policy (a threshold in bytes or a fraction) */
} bba_sweep_point;

typedef struct {
    int status;               /* BB_OK, or the error bba_front_idle returned */
    bba_answer a;             /* valid when status == BB_OK */
    char err[BB_ERRLEN];      /* the message when status != BB_OK */
} bba_sweep_out;

/* bba_sweep_eval_point: evaluate p into *out (status, answer or message).
 * Cannot fail otherwise; thread-safe for distinct outs. */
void bba_sweep_eval_point(const bba_sweep_point *p, bba_sweep_out *out);

/* bba_sweep_cost: the cost (cost.h) of evaluating pts[0..n) under solver
 * options so, into *tot: the sum of each chain point's bba_cost_eval at
 * its size in quanta, and the largest size, states and steps over them;
 * a point of the fluid model adds nothing (its phases were costed when
 * its front was built).  BB_OK, or a size's error (bba_front_quanta:
 * beyond the quanta a chain counts).  O(n) and one decay rate per run of
 * points on one front. */
int bba_sweep_cost(const bba_sweep_point *pts, size_t n, const bba_solver_opts *so,
                   bba_cost *tot, char *err);

#endif
