/* bbbw.h: the burst buffer's own bandwidth B_BB in the discrete chains, as
 * a transform of the load law.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rule (bbsize(1), BURST-BUFFER BANDWIDTH; the simulator, sim/bb.h,
 * follows it too): in a normal time unit with load k > B + B_BB the
 * applications cannot write faster than B + B_BB, so writing k takes
 *     c(k) = (k - B - B_BB) / (B + B_BB)
 * more units, in which every application is stalled (idle).  The chain
 * counts whole units: c(k) is rounded at random to t = floor(c) or
 * ceil(c), the latter with probability c - floor(c), so that the expected
 * stall is exactly c(k); over the 1 + t units the PFS takes B per unit and
 * the buffer the rest, k - B (1 + t) (negative: the PFS drains the buffer
 * with what is left of its last unit, under the draining policy).  So a
 * throttled unit is a normal unit of load k' = k - t B followed by t stall
 * units, and a full buffer adds its overflow stalls on top of those.  As
 * the time unit shrinks this tends to the fluid rule (fluid.h): stalled a
 * fraction (r - B - B_BB)/r of the time while the buffer is below full.
 *
 * So the chain with B_BB is the chain of chain.h on the throttled law
 *     D'(k') = sum_k D(k) Pr(k - t(k) B = k'),
 * and every stationary measure is that chain's, with the expected throttle
 * stall per normal unit, cbar = sum_k D(k) c(k), added to the time:
 *     idle = (idle' + cbar n) / (1 + cbar n),   n = 1 - idle' (normal units),
 * quiet, p_empty, p_full and the volume into the buffer per unit divided
 * by 1 + cbar n (a throttle stall is none of them and writes nothing into
 * the buffer beyond what its normal unit counts), the mean occupancy (over
 * normal units) unchanged.
 * As S grows the idle fraction falls to max(cbar / (1 + cbar), 1 - B/E):
 * the buffer's bandwidth alone keeps it at cbar / (1 + cbar).
 *
 * Loads, bandwidths and B in quanta (workload.h).  Everything is O(M). */
#ifndef BBSIZE_ANALYTIC_BBBW_H
#define BBSIZE_ANALYTIC_BBBW_H

#include "measures.h"

/* bba_bbbw_throttle: write the throttled law of dist (M + 1 entries) into
 * out (M + 1 entries; may not alias dist) for B (> 0) and bb_bw (> 0)
 * quanta per unit, and return cbar, the expected throttle stall per normal
 * unit.  Cannot fail. */
double bba_bbbw_throttle(const double *dist, long M, long B, long bb_bw, double *out);

/* bba_bbbw_stall: cbar of dist at bb_bw (0: unlimited, cbar 0). */
double bba_bbbw_stall(const double *dist, long M, long B, long bb_bw);

/* bba_bbbw_apply: turn the measures of the chain on the throttled law into
 * the platform's (the formulas above).  Cannot fail. */
void bba_bbbw_apply(double cbar, bba_measures *m);

/* bba_bbbw_min: the smallest bb_bw (quanta, >= 1) for which the bandwidth
 * bound cbar / (1 + cbar) of dist is at most target (in (0, 1)): cbar is
 * non-increasing in bb_bw, so a bisection over 1..M finds it.  Returns
 * 0 when no bandwidth is needed (no load exceeds B + 1). */
long bba_bbbw_min(const double *dist, long M, long B, double target);

#endif
