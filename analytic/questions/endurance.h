/* endurance.h: what the burst buffer's drives endure: the mean rate at which
 * data is written into the buffer, from the stationary distribution of the
 * discrete chains, and the capacity a drive rating needs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The volume into the buffer (bbsize(1), ENDURANCE).  In a normal time unit
 * that starts at load j (quanta) with instant load k, the PFS takes B and
 * the buffer the excess up to its free space: min((k - B)+, S - j); what
 * does not fit is held on the compute nodes (an overflow) and goes to the
 * PFS during the stall units, never into the buffer; stall units write
 * nothing.  So the mean per time unit is, exactly,
 *     W = sum_{j <= S} pi(j) E[min((K - B)+, S - j)]
 *       = sum_{j <= S} pi(j) sum_{x = 0}^{S - j - 1} Pr(K > B + x),
 * pi over all the chain's states (overflow ones write nothing).  This is
 * not (1 - idle) E[(K - B)+], which counts the held data as written into
 * the buffer.  With the buffer's bandwidth (bbbw.h) K is the throttled law
 * the chain runs on, and the throttle stalls dilute W like every other
 * measure (bba_bbbw_apply).  The simulator (sim/bb.h) counts the same
 * volume (to_bb).  In steady state W is also the mean volume drained from
 * the buffer to the PFS (a test checks the balance).
 *
 * Endurance.  Drives rated for D drive writes per day over R years (the
 * data sheet's warranty), written W bytes a day by the applications with a
 * write amplification A relative to the rating, must last L years:
 *     W A L <= D C R,   so   C >= W A L / (D R)   (bytes).
 * Drive writes per day at capacity C: W / C (host writes, as NERSC
 * measured Cori's burst buffer).  W grows with C (a larger buffer holds
 * back less), so the endurance size is the least fixed point of
 * C = W(C) A L / (D R) above the stall size (answer.h bba_front_endure).
 *
 * Everything here is O(S + M) (chain) or O((S + 1) P + M0) (ON/OFF chain)
 * and allocates one array of M + 1 (M0 + P) doubles. */
#ifndef BBSIZE_ANALYTIC_ENDURANCE_H
#define BBSIZE_ANALYTIC_ENDURANCE_H

#include "onoff.h"

/* bba_bbin_chain: W in quanta per step of the chain of chain.h (load law
 * dist over 0..M, PFS bandwidth B > 0, size S >= 0), pi its stationary
 * distribution over the S + max(M - B, 0) + 1 states, normal ones first.
 * Returns NAN when out of memory. */
double bba_bbin_chain(const double *dist, long M, long B, long S, const double *pi);

/* bba_bbin_onoff: W in quanta per time unit for the ON/OFF-modulated chain
 * (onoff.h) at size S: x its stationary distribution over the normal
 * states ((S + 1) x P, level-major, summing to 1, as bba_onoff_eval
 * returns it), stalled its stalled fraction (bba_measures.stalled: the
 * normal units are 1 - stalled of the time; not its idle fraction, which
 * counts the writers' lost time).  In phase f with bursty load kf the buffer takes
 * min((kf + K0 - B)+, S - j), K0 the memoryless applications' load.
 * Returns NAN when out of memory. */
double bba_bbin_onoff(const bba_onoff *m, long S, const double *x, double stalled);

/* What the drives are rated for and must last (bbsize(1), --dwpd). */
typedef struct {
    double dwpd;            /* rated drive writes per day, > 0 */
    double rated_years;     /* years the rating holds for, > 0 (data sheets: 5) */
    double lifetime_years;  /* years the buffer must last, > 0 */
    double waf;             /* write amplification relative to the rating, >= 1 */
} bba_endurance;

/* bba_endurance_check: BB_EINVAL naming the field out of its range. */
int bba_endurance_check(const bba_endurance *e, char *err);

/* bba_endurance_bytes: the smallest capacity (bytes) whose drives last
 * e->lifetime_years when written write_Bps bytes/s on average:
 * write_Bps 86400 waf lifetime / (dwpd rated).  0 when nothing is
 * written; NAN when write_Bps is NAN. */
double bba_endurance_bytes(const bba_endurance *e, double write_Bps);

/* bba_drive_writes_per_day: write_Bps 86400 / S_bytes (host writes); NAN
 * when S_bytes is 0 or write_Bps is NAN. */
double bba_drive_writes_per_day(double write_Bps, double S_bytes);

#endif
