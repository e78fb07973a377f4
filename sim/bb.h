/* bb.h: the burst-buffer platform of Aupy et al. 2017 on the event
 * engine: a PFS of bandwidth B, a shared buffer of size S (optionally of
 * bandwidth B_BB), greedy (Algorithm 2) or lazy (Algorithm 4) draining,
 * overflow stalls, driven by Bernoulli or quasi-periodic (Algorithm 3)
 * applications.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything is in the analytic side's integer model (analytic/chain/workload.h):
 * bandwidths in quanta per time unit (B = resolution R), sizes in quanta,
 * time in time units (the engine clock runs in seconds = units * time unit).
 *
 * The platform works time unit by time unit, exactly as the chain
 * (analytic/chain/chain.h): the state is the buffer load L plus H, data the
 * applications could not place (held on the compute nodes); the chain's
 * state is j = L + H.  In a normal unit (H = 0) the applications write k
 * quanta: min(k, B) goes to the PFS; with k <= B the buffer drains
 * min(L, B - k) (greedy; lazy below THRESHOLD only with probability EPS);
 * with k > B the excess goes to the buffer up to its free space S - L (and
 * up to B_BB when given) and the rest is held: H > 0.  A unit that starts
 * with H > 0 is a stall (idle): every application stops while the PFS takes
 * B, held data first, then buffer data (Algorithm 2, lines 11-14).  So a
 * stall happens exactly when the load would exceed S (the erratum
 * to Algorithm 3's ">= S", which made S = 0 meaningless), and with B_BB
 * unset the load j follows the chain's transitions exactly.
 *
 * Workloads:
 *   BERNOULLI: in each normal unit application i writes b_i with
 *     probability p_i (one uniform from stream (seed, unit, APP i) per
 *     normal unit): the chain itself.
 *   PERIODIC: Algorithm 3.  Application i alternates an I/O burst of
 *     p_i d_i x time units at b_i (the erratum: line 10's p_i d_i x, not
 *     Section 6.2's (1 - p_i) d_i x) and a compute burst of (1 - p_i) d_i x,
 *     x ~ U(1 - u, 1 + u) drawn per burst (one uniform); it starts with an
 *     I/O burst at a random time U(0, d_i).  d_i is the given period, or
 *     U(d_min, 2 d_min) drawn per replication (stream (seed, unit, SETUP i)).
 *     A unit's load k is sum_i b_i * (time app i spent in I/O during the
 *     unit), fractional; during a stall every application's clock stops
 *     (its pending phase change moves one unit later).
 *   ONOFF: the modulated model of analytic/onoff/onoff.h, exactly.  Application
 *     i is ON or OFF; its first phase is ON with probability p_i (one
 *     uniform from stream (seed, unit, APP i)), then one uniform per
 *     application per unit, stalled or not.  The writers wait: after a
 *     unit followed by a stall (overflow or B_BB throttle) an ON
 *     application stays ON and an OFF one turns ON with probability
 *     p_i/((1 - p_i) L_i); after a unit followed by a normal one, ON -> OFF
 *     with probability 1/L_i and OFF -> ON with p_i/((1 - p_i) L_i).  So a
 *     normal unit followed by t stalls moves the phases by H^t K.  A normal
 *     unit's load is the sum of the ON applications' b_i.  An overflow
 *     stall lasts what the PFS needs to write the held excess, H/B units,
 *     a real number (as the chain, onoff.h): whole stall ticks while
 *     H >= B, then one tick of H/B units that writes the rest and drains
 *     nothing from the buffer (it stays full); through a tick of d units
 *     an OFF application turns ON with 1 - (1 - c_i)^d (one uniform per
 *     application per tick, whole or not), so a stall of tau units moves
 *     the phases by H^tau K.  B_BB throttle stalls stay whole units (the
 *     chain has no B_BB).  With L_i = 1/(1 - p_i) and loads and size
 *     whole multiples of B it is the Bernoulli chain in law (not draw for
 *     draw: Bernoulli draws only in normal units).
 *
 * Measures (per replication, over the horizon of T units, every fraction
 * per unit of time: in onoff mode a stall's last tick counts its H/B):
 *   idle: stalled units / T, the stall fraction (Theorem 3; the idle of
 *     every model, analytic/chain/measures.h); Bernoulli and periodic: every
 *     application stops in a stall; onoff: the ON ones wait and the OFF
 *     ones compute on;
 *   throughput: load of the measured normal units / T;
 *   quiet: normal units whose end load L + H is >= the start load / T
 *     (Theorem 5's "not drained", as analytic/chain/measures.h);
 *   occupancy: start-of-unit load over normal units (mean, distribution,
 *     Pr(L = 0)); p_full: units starting at L + H >= S;
 *   volumes: written, to the PFS (direct, from the buffer, from held data),
 *     into the buffer, left in the buffer and held at the end; conservation
 *     written = to PFS + left in buffer + held is checked every run; the
 *     volume into the buffer per measured unit (bb_in, the drives'
 *     endurance: the chain's, analytic/questions/endurance.h).
 *
 * Cost: T + (number of bursts) events per replication (onoff: plus one
 * fractional tick per overflow), O(n) work per unit. */
#ifndef BBSIZE_SIM_BB_H
#define BBSIZE_SIM_BB_H

#include <stddef.h>
#include <stdint.h>

#include "chain.h"

typedef enum { BBS_BB_BERNOULLI = 0, BBS_BB_PERIODIC = 1, BBS_BB_ONOFF = 2 } bbs_bb_mode;

/* Occupancy distribution bins reported per replication. */
#define BBS_BB_OCC_BINS 20

typedef struct {
    /* workload (borrowed arrays, n entries) */
    size_t n;
    const long *b;            /* bandwidths, quanta per time unit, >= 0 */
    const double *p;          /* probabilities, [0, 1] */
    const double *period_tu;  /* periodic: d_i in time units (> 0), or NULL
                                 to draw U(d_min, 2 d_min) */
    const double *burst_tu;   /* onoff: mean ON run L_i in time units, >=
                                 max(1, p_i/(1 - p_i)) (0: 1/(1 - p_i));
                                 NULL: all memoryless */
    /* platform */
    long B;                   /* PFS bandwidth, quanta per time unit, > 0 */
    long bb_bw;               /* B_BB, quanta per time unit; 0: unlimited */
    long S;                   /* buffer size, quanta, >= 0 */
    bb_drain pol;             /* greedy or lazy, threshold in quanta
                                 (BB_DRAIN_QUANTA), EPS (drain.h) */
    /* simulation */
    bbs_bb_mode mode;
    long horizon_units;       /* T, time units, > 0 */
    long warmup_units;        /* units simulated before measuring, >= 0 */
    double time_unit_s;       /* seconds per time unit, > 0 (engine clock) */
    double noise;             /* u in [0, 1) (periodic) */
    double d_min_tu;          /* periodic without periods: d_min > 0 */
    uint64_t seed;
} bbs_bb_config;

typedef struct {
    double idle;              /* stall fraction (see above) */
    double stall_fraction;    /* the same: fraction of measured units stalled */
    double throughput;        /* load written per measured unit, quanta */
    double quiet;             /* fraction of measured units not drained */
    double mean_occupancy;    /* quanta, over normal units */
    double p_empty;           /* fraction of normal units starting empty */
    double p_full;            /* fraction of units starting at L + H >= S */
    double occ_hist[BBS_BB_OCC_BINS]; /* fraction of normal units with start
                                 load in bin k of [0, S + 1) */
    /* volumes over the whole run (warm-up included), quanta */
    double written, to_pfs_direct, to_bb, bb_to_pfs, held_to_pfs;
    double left_in_bb, held;
    double conservation_error; /* |written - PFS - left - held| */
    double bb_in;             /* quanta written into the buffer per measured
                                 unit (the chain's bb_in, endurance.h) */
    uint64_t events;           /* engine events executed */
    long stalls;               /* stall ticks measured */
    long measured;             /* ticks measured (units; in onoff mode a
                                  stall's last tick may be a fraction of
                                  one, and idle is the time's share) */
} bbs_bb_result;

/* bbs_bb_check: validate a configuration.  Errors: BB_EINVAL naming the
 * field (n = 0, B <= 0, S < 0, negative bandwidth, p outside [0, 1],
 * horizon not positive, warm-up negative, noise outside [0, 1), a period
 * not positive, periodic without periods and without d_min > 0, an onoff
 * burst below max(1, p/(1-p)), threshold
 * outside [0, S], EPS outside [0, 1], time unit not positive). */
int bbs_bb_check(const bbs_bb_config *c, char *err);

/* bbs_bb_estimate: the size of one replication before it runs: *events
 * (one tick per time unit, warm-up included, plus two phase changes per
 * period of each periodic application, at most (T + W)(1 + sum 2 / d_i)
 * with d_i >= d_min) and *bytes (per-application state and random streams,
 * pending events).  O(n).  Used to refuse runs too large to finish. */
void bbs_bb_estimate(const bbs_bb_config *c, double *events, double *bytes);

/* bbs_bb_run: simulate replication `unit` (its streams are
 * (seed, unit, entity)) and fill *r.  Deterministic in (config, unit).
 * Errors: those of bbs_bb_check; BB_ENOMEM; BB_EDATA if conservation fails
 * beyond 1e-9 relative (a bug, reported rather than hidden). */
int bbs_bb_run(const bbs_bb_config *c, uint64_t unit, bbs_bb_result *r, char *err);

/* A grid of configurations (buffer sizes, say) each replicated R times:
 * work unit w is replication w % R of cfg[w / R], on the random streams of
 * unit w % R, so that every configuration sees the same draws (common
 * random numbers). */
typedef struct {
    const bbs_bb_config *cfg;       /* the configurations (not owned) */
    size_t replications;            /* R >= 1 */
} bbs_bb_grid;

/* bbs_bb_grid_unit: work unit w of a grid in the shape of bbs_unit_fn
 * (replicate.h): ctx is a const bbs_bb_grid *, result a bbs_bb_result *.
 * Errors: those of bbs_bb_run. */
int bbs_bb_grid_unit(size_t w, void *result, const void *ctx, char *err);

/* Summary of R replications: Welford means; intervals made for each
 * quantity (stats.h): logit-scale t for the fractions (inside [0, 1]),
 * log-scale t for the occupancy (>= 0), Clopper-Pearson when no
 * replication saw a stall. */
typedef struct {
    double level;
    size_t replications;
    double idle_mean, idle_lo, idle_hi, idle_sd;
    double quiet_mean, quiet_lo, quiet_hi;
    double occ_mean, occ_lo, occ_hi;      /* quanta */
    double bb_in_mean, bb_in_lo, bb_in_hi; /* quanta per unit, into the buffer
                                             over the measured units */
    double p_empty_mean, p_full_mean;
    double stall_fraction_mean;           /* mean of stall_fraction */
    double occ_hist[BBS_BB_OCC_BINS];     /* mean over replications */
    double written, to_pfs, to_bb, left_in_bb, held; /* sums, quanta */
    double max_conservation_error;        /* quanta */
    uint64_t events;
} bbs_bb_summary;

/* bbs_bb_summarize: combine r[0..n-1] in index order (so the result does
 * not depend on which thread ran which replication).  Intervals are
 * infinite for n < 2.  Errors: BB_EINVAL (level outside (0, 1), n = 0). */
int bbs_bb_summarize(const bbs_bb_result *r, size_t n, double level,
                     bbs_bb_summary *s, char *err);

#endif
