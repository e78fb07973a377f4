/* fluidpath.h: the content of the continuous-time (fluid) burst buffer
 * along a given path of the applications' total write rate, integrated
 * exactly: the deterministic half of the fluid simulator (fluidsim.h draws
 * the path).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model is docs/fluid-sim.md's: bytes, seconds, bytes/s.
 * While the total rate r is constant the content X moves linearly:
 *   r > B:  dX/dt = min(r - B, B_BB) while X < S; at X = S it stays (the
 *           applications are throttled to B);
 *   r < B:  dX/dt = r - B while X > 0, except lazily below the threshold
 *           (X <= T): EPS (r - B); at X = 0 it stays;
 *   r = B:  X constant.
 * So between two rate changes X has at most three linear pieces (down to
 * T, down to 0, at 0; or up to S, at S): bbs_fluid_path_advance finds the
 * instants X reaches T, 0 or S, snaps X onto them exactly, and adds every
 * measure's integral over each piece (the rates below are constant on a
 * piece, the content linear, so each integral is exact up to rounding).
 *
 * The writers wait (docs/fluid-sim.md): every ON writer writes the same
 * share c of its rate,
 *   c = B / r at S with r > B; min(1, (B + B_BB) / r) below S with r > B;
 *   c = 1 when r <= B,
 * so its I/O phase (a volume) advances at c: the path keeps the virtual
 * clock V = integral of c dt, and bbs_fluid_path_time_at says when V will
 * reach a given value at the current rate.  c changes only when the rate
 * changes or the content reaches S; the hits of 0 and T leave it at 1.
 *
 * Rates on a piece (the measures of docs/fluid-sim.md; "at S" includes
 * S = 0 for r > B, "at 0" every other piece with X = 0 and no drift):
 *   stall  1 - c: (r - B)/r at S, max(r - B - B_BB, 0)/r below S
 *   quiet  at 0: 1; r >= B: 1 - stall; r < B: 1 - EPS lazily below T,
 *          else 0
 *   into the buffer  r > B below S: min(r - B, B_BB); else 0
 *   drained          r < B, X > 0: the content's fall rate; else 0
 *   written          r (1 - stall): B at S, min(r, B + B_BB) below it
 *   to the PFS       min(r, B) + drained (B whenever r >= B)
 * so written = to PFS + into - drained on every piece, and over a run
 * written = to PFS + (X_end - X_start): the conservation check of fluidsim.c
 * compares two sums made from different rates.
 *
 * Cost: O(1) per call (at most four pieces); no allocation. */
#ifndef BBSIZE_SIM_FLUIDPATH_H
#define BBSIZE_SIM_FLUIDPATH_H

#include <stdint.h>

#include "drain.h"

/* The platform. */
typedef struct {
    double pfs_bw_Bps;       /* B, bytes/s, > 0, finite */
    double bb_bw_Bps;        /* B_BB, bytes/s, > 0; INFINITY: unlimited */
    double size_bytes;       /* S, bytes, >= 0, finite */
    bb_drain drain;          /* the threshold T in bytes (BB_DRAIN_BYTES), in
                                [0, S], and EPS in (0, 1] when lazy */
} bbs_fluid_platform;

/* Integrals over the time observed (seconds, byte-seconds, bytes). */
typedef struct {
    double time_s;           /* time integrated */
    double stall_s;          /* integral of the stall rate 1 - c */
    double quiet_s;          /* integral of the quiet rate */
    double empty_s;          /* time at X = 0 (the atoms at 0) */
    double full_s;           /* time at X = S (the atoms at S) */
    double content_Bs;       /* integral of X, byte-seconds */
    double written_bytes;    /* written by the applications */
    double to_pfs_bytes;     /* taken by the PFS, direct and drained */
    double into_bb_bytes;    /* taken by the buffer */
    double drained_bytes;    /* drained from the buffer to the PFS */
} bbs_fluid_tally;

/* The state: time, content and current rate. */
typedef struct {
    bbs_fluid_platform pf;
    double t_s;              /* now, s */
    double x_bytes;          /* X(now), in [0, S] */
    double rate_Bps;         /* r from now on, bytes/s, >= 0 */
    double v_s;              /* the virtual clock V(now), s (0 at init) */
    uint64_t pieces;         /* linear pieces integrated so far */
} bbs_fluid_path;

/* bbs_fluid_platform_check: B positive and finite, B_BB positive (INFINITY
 * allowed), S >= 0 and finite, lazy: T in [0, S], EPS in (0, 1].
 * Errors: BB_EINVAL naming the field. */
int bbs_fluid_platform_check(const bbs_fluid_platform *pf, char *err);

/* bbs_fluid_path_init: start at time t0_s with content x0_bytes (in
 * [0, S]) and rate rate_Bps (>= 0, finite); the platform is copied and must
 * have passed bbs_fluid_platform_check. */
void bbs_fluid_path_init(bbs_fluid_path *p, const bbs_fluid_platform *pf, double t0_s,
                         double x0_bytes, double rate_Bps);

/* bbs_fluid_path_advance: move the path to time t_s (>= p->t_s; an
 * earlier time does nothing) at the current rate, adding the integrals
 * of [p->t_s, t_s] to *tally (NULL: not observed).  O(1). */
void bbs_fluid_path_advance(bbs_fluid_path *p, double t_s, bbs_fluid_tally *tally);

/* bbs_fluid_path_set_rate: the rate changes now (>= 0, finite). */
void bbs_fluid_path_set_rate(bbs_fluid_path *p, double rate_Bps);

/* bbs_fluid_path_share: the writers' share c now (in (0, 1]). */
double bbs_fluid_path_share(const bbs_fluid_path *p);

/* bbs_fluid_path_time_at: the time at which the virtual clock reaches
 * p->v_s + dv_s (dv_s >= 0) if the rate stays as it is: across the
 * content's hit of S, where c drops from min(1, (B + B_BB)/r) to B/r.
 * Never before p->t_s; finite (c >= B / r > 0).  O(1); the path is not
 * moved. */
double bbs_fluid_path_time_at(const bbs_fluid_path *p, double dv_s);

#endif
