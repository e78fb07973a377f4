/* fluidsim.h: the continuous-time (fluid) burst buffer simulated event by
 * event: ON/OFF sources with exponential periods write into a buffer whose
 * content is integrated exactly between phase changes (fluidpath.h).  The
 * independent check of the analytic fluid solver: it shares no code with
 * it and follows the model of docs/fluid-sim.md to the letter.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources.  Application i writes b_i bytes/s while ON and unthrottled.
 * With 0 < p_i < 1 and b_i > 0 it alternates ON periods and OFF periods,
 * OFF exponential with mean L_i (1 - p_i) / p_i seconds; an ON period is
 * a volume, exponential with mean b_i L_i bytes, drawn as L_i seconds of
 * unthrottled writing.  The writers wait: every ON writer writes the same
 * share c of its rate (fluidpath.h: B / r at a full buffer with r > B,
 * (B + B_BB) / r below it where r > B + B_BB, 1 otherwise), so its ON
 * period lasts until the virtual clock V = integral of c dt has advanced
 * by the drawn duration; OFF periods run in real time.  Unthrottled,
 * Pr(ON) = p_i; it starts ON with probability p_i (the unthrottled law).
 * p_i = 1 is a constant rate b_i (throttled like the others), p_i = 0 or
 * b_i = 0 writes nothing: neither has events.  The total rate r is summed
 * over the ON sources' distinct rates in a fixed order (r = sum_c m_c b_c
 * + the constant part), so a phase always gives the same r to the last
 * bit.
 *
 * Draws: application i draws from stream (seed, replication, APP i)
 * (rng.h): one uniform for its first phase, then one uniform per period,
 * -mean log(1 - u).  So a source's draws depend on its own stream only
 * (its path, through c, on the others), and replications are independent
 * and identical on any thread count.
 *
 * Events: one per phase change (the engine, engine.h): an OFF end is
 * scheduled at its real time, the ON ends are keys in virtual time (a
 * heap) with one engine event at the real time V reaches the smallest;
 * the content's hits of 0, T and S are found analytically and are not
 * events.  The content starts empty at time 0; measures are time averages
 * over [warmup, warmup + horizon].
 *
 * idle is the stall fraction, the integral over the measured window of
 * the stall rate 1 - c (fluidpath.h) over its length: the paper's stalled
 * units in continuous time; the throughput X (bytes written per second)
 * is kept too (docs/fluid-sim.md).
 *
 * Cost per replication: at most (warmup + horizon) sum_i 2 p_i / L_i
 * events expected (bbs_fluid_estimate), each O(log n + C) for C distinct
 * rates; memory O(n).  About 0.2 us per event on one core
 * (bench/fluidsim.sh). */
#ifndef BBSIZE_SIM_FLUIDSIM_H
#define BBSIZE_SIM_FLUIDSIM_H

#include <stddef.h>
#include <stdint.h>

#include "fluidpath.h"
#include "stats.h"

typedef struct {
    /* sources (borrowed arrays, n entries) */
    size_t n;
    const double *rate_Bps;   /* b_i, bytes/s while ON, >= 0, finite */
    const double *p;          /* Pr(ON), [0, 1] */
    const double *on_s;       /* mean ON period L_i, s, > 0 and finite, with
                                 a finite mean OFF period, where 0 < p_i < 1
                                 and b_i > 0; ignored elsewhere */
    bbs_fluid_platform pf;
    /* simulation */
    double horizon_s;         /* measured time per replication, > 0 */
    double warmup_s;          /* simulated before measuring, >= 0 */
    uint64_t seed;
} bbs_fluid_config;

/* One replication.  Fractions and means are over the measured time;
 * volumes over the whole run (warm-up included). */
typedef struct {
    double idle;              /* stall fraction: the time average of 1 - c */
    double throughput_Bps;    /* X: bytes written per second */
    double quiet;             /* time the buffer is not drained / time */
    double p_empty, p_full;   /* time at X = 0, at X = S / time */
    double mean_occupancy_bytes;
    double bb_in_Bps;         /* mean rate into the buffer */
    double bb_out_Bps;        /* mean rate drained from it (equal to
                                 bb_in_Bps in steady state) */
    double written_bytes, to_pfs_bytes, into_bb_bytes, drained_bytes;
    double left_bytes;        /* content at the end */
    double offered_bytes;     /* asked for: the drawn volumes of the ON
                                 periods begun, plus the constant sources'
                                 b_i V */
    double held_bytes;        /* asked for and not yet written at the end:
                                 the ON sources' b_i (key - V) */
    double conservation_error_bytes; /* max of |written - to PFS - left|,
                                        |into - drained - left| and
                                        |offered - written - held| */
    uint64_t events;          /* phase changes, whole run */
    uint64_t measured_events; /* phase changes in the measured time */
    uint64_t pieces;          /* linear pieces integrated, whole run */
} bbs_fluid_result;

/* bbs_fluid_check: validate a configuration.  Errors: BB_EINVAL naming
 * the field (a rate negative or not finite, p outside [0, 1], a mean ON
 * period not positive and finite or a mean OFF period L (1 - p) / p not
 * finite (p too small), those of bbs_fluid_platform_check, horizon not
 * positive and finite, warm-up negative or not finite). */
int bbs_fluid_check(const bbs_fluid_config *c, char *err);

/* bbs_fluid_event_rate: expected phase changes per second in steady
 * state without throttling, sum_i 2 p_i / L_i over the sources with
 * phases (0 when none).  An upper bound with throttling: with the same
 * draws each ON period lasts at least as long in real time (c <= 1) and
 * each OFF period as long, so every source's k-th phase change comes no
 * earlier and a run has at most as many. */
double bbs_fluid_event_rate(const bbs_fluid_config *c);

/* bbs_fluid_mean_rate: E = sum_i p_i b_i, bytes/s. */
double bbs_fluid_mean_rate(const bbs_fluid_config *c);

/* The default horizon and warm-up (docs/fluid-sim.md):
 *   cycle = the longest mean ON/OFF cycle, max_i L_i / p_i (1 s when no
 *           source has phases);
 *   H = BBS_FLUID_CYCLES cycles;
 *   W = bbs_fluid_default_warmup(c, H);
 * then both scaled down together so that a replication expects at most
 * BBS_FLUID_DEFAULT_EVENTS phase changes.  Reads c's sources and platform,
 * not its horizon and warm-up.  O(n). */
#define BBS_FLUID_CYCLES 1e4
#define BBS_FLUID_DEFAULT_EVENTS 1e6
void bbs_fluid_default_times(const bbs_fluid_config *c, double *horizon_s, double *warmup_s);

/* bbs_fluid_fill_time: the content's own time scale from its empty start,
 * s: S / (E - B) when E > B (the time to fill at the mean excess),
 * T / (EPS (B - E)) when lazy with E < B (to drain the threshold at the
 * lazy rate), else 0.  O(n). */
double bbs_fluid_fill_time(const bbs_fluid_config *c);

/* bbs_fluid_default_warmup: the warm-up for a horizon H (s): max(H / 10,
 * min(bbs_fluid_fill_time, H)).  O(n). */
double bbs_fluid_default_warmup(const bbs_fluid_config *c, double horizon_s);

/* bbs_fluid_estimate: the size of one replication before it runs:
 * *events expected at most (the sources' first events plus (W + H) times
 * the unthrottled event rate, a bound path by path: see
 * bbs_fluid_event_rate; the count is random, the engine's bounds stop a
 * run that goes far beyond) and *bytes of memory (streams, pending
 * events, heap and per source state).  O(n). */
void bbs_fluid_estimate(const bbs_fluid_config *c, double *events, double *bytes);

/* bbs_fluid_run: simulate replication `unit` (streams (seed, unit, APP i))
 * into *r.  Deterministic in (config, unit).  Errors: those of
 * bbs_fluid_check; BB_ENOMEM; BB_ETOOBIG from the engine's bounds;
 * BB_EDATA when conservation fails beyond 1e-9 of the volume (a bug,
 * reported rather than hidden; the three balances of conservation_error). */
int bbs_fluid_run(const bbs_fluid_config *c, uint64_t unit, bbs_fluid_result *r, char *err);

/* bbs_fluid_run_unit: bbs_fluid_run as a bbs_unit_fn (replicate.h): ctx
 * is a const bbs_fluid_config *, result a bbs_fluid_result *. */
int bbs_fluid_run_unit(size_t unit, void *result, const void *ctx, char *err);

/* Summary of R replications, combined in index order (independent of the
 * threads that ran them).  Intervals from stats.h: logit-scale Student-t
 * for the fractions (Clopper-Pearson when every replication saw 0 or 1,
 * counting each measured phase change as a trial), log-scale Student-t
 * for the occupancy and the write rate.  Infinite or [0, 1] for R < 2. */
typedef struct {
    double level;
    size_t replications;
    bbs_ci idle, quiet, p_empty, p_full, occupancy_bytes, bb_in_Bps, throughput_Bps;
    double bb_out_Bps;                 /* mean over replications */
    /* volumes, summed over replications, bytes */
    double written, to_pfs, into_bb, drained, left, offered, held;
    double max_conservation_error;     /* bytes */
    uint64_t events;
} bbs_fluid_summary;

/* bbs_fluid_summarize: combine r[0..n-1].  Errors: BB_EINVAL (n = 0,
 * level outside (0, 1)). */
int bbs_fluid_summarize(const bbs_fluid_result *r, size_t n, double level,
                        bbs_fluid_summary *s, char *err);

#endif
