/* fluid_bufferless.h: bounds on the fluid model's stall fraction at
 * S = 0 (fluid.h) of any number of ON/OFF sources, by convolution of the
 * classes' rate laws: the check that keeps the folded model
 * (fluid_approx.h) honest where folding loses the tail of the aggregate
 * rate.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under the sources' stationary product law pi (class i: Binomial(N_i,
 * p_i) sources ON, each writing b_i B/s; constant sources p = 1 always
 * on), the bufferless stall is
 *     s0 = sum_f pi_f (r_f - B)^+ / r_f.
 * The aggregate rate's law is the convolution of the classes' on a grid
 * of BBA_BUFFERLESS_BINS bins of [0, t max(B, constant rate)], t = 2 and
 * then widened by BBA_BUFFERLESS_WIDEN (up to BBA_BUFFERLESS_TOP) while
 * the mass above the grid exceeds BBA_BUFFERLESS_ABOVE times *lo and the
 * peak lies beyond it (a heavy-tailed mix puts much of its stall above
 * 2B, where *hi counts it as 1 and *lo as 1/2), each
 * class's rates k b_i rounded to the nearest bin; with m roundings (the
 * classes and the constant part) every state's rate is within m h / 2
 * of its bin's, so evaluating (r - B)^+ / r that much below gives
 * *lo <= s0 and that much above *hi >= s0 ((r - B)^+ / r grows with r).
 * The mass above the grid counts as the stall at its top end for *lo and
 * as 1 for *hi, and binomial terms below 1e-20
 * are dropped (their mass counts as 1 in *hi); the terms are normalised
 * to sum 1.
 * With waiting writers (docs/physics: an ON writer's phase advances at
 * c_f <= 1 while stalled) the model's stall at S = 0 is at least s0:
 * coupling the two chains on the same clocks (a stalled ON -> OFF event
 * accepted with probability c_f) keeps every source ON in the model that
 * is ON under pi, and (r - B)^+ / r grows with the set of ON sources.  So
 * *lo bounds the model's stall at S = 0 from below for any B_BB and
 * policy (an empty buffer of size 0 absorbs nothing); *hi bounds s0, not
 * the model (its stalled phases last longer, by about r / B - 1).
 * Cost: O(BINS x sum over classes of the binomial terms kept) a grid, at
 * most three grids (10,000 sources in 50 classes of 200: about 0.1 s,
 * one grid), memory O(BINS).
 * Thread safety: reentrant. */
#ifndef BBSIZE_ANALYTIC_FLUID_BUFFERLESS_H
#define BBSIZE_ANALYTIC_FLUID_BUFFERLESS_H

#include <stddef.h>

#include "fluid.h"

#define BBA_BUFFERLESS_BINS 65536
#define BBA_BUFFERLESS_WIDEN 4
#define BBA_BUFFERLESS_TOP 32       /* the widest grid: [0, 32 B) */
#define BBA_BUFFERLESS_ABOVE 0.01   /* mass above the grid, of *lo */

/* bba_fluid_bufferless: *lo <= s0 <= *hi (above) for classes c[0..n-1]
 * (fluid.h: rate, p, burst, count; burst unused) drained at B_Bps; both
 * 0 when the peak rate is at most B.  Errors: BB_EINVAL (B <= 0, a class
 * with p outside [0, 1], a negative or non-finite rate, a negative
 * count), BB_ENOMEM. */
int bba_fluid_bufferless(const bba_fluid_class *c, size_t n, double B_Bps, double *lo,
                         double *hi, char *err);

#endif
