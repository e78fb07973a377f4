/* fluidplat.h: what the fluid simulation (fluidsim.h) needs from a workload:
 * its applications as continuous-time ON/OFF sources, and how long the
 * buffer's content takes to forget its empty start (its mixing time)
 * against the run, so that a run too short to mix is named rather than
 * printed as a tight interval.  The entry that runs a workload at a list
 * of sizes is in replicate.h (bbs_fluidplat_prepare/execute), beside the
 * one dispatch over threads and MPI ranks.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes: one source per application written out (a row's count expanded);
 * everything here is O(n) in the sources. */
#ifndef BBSIZE_SIM_FLUIDPLAT_H
#define BBSIZE_SIM_FLUIDPLAT_H

#include <stddef.h>

#include "fluidsim.h"
#include "workload.h"

/* The sources (owned): a row of count N is N sources, as the row written
 * out N times, in order. */
typedef struct {
    size_t n;
    double *rate_Bps;        /* b_i, bytes/s */
    double *p;               /* Pr(ON) */
    double *on_s;            /* mean ON period L_i, s (bba_app_on_period) */
    size_t phased;           /* sources with phases (0 < p < 1, b > 0) */
    size_t memoryless;       /* ... of them without a burst: they enter with
                                L = time unit / (1 - p) */
} bbs_fluid_sources;

/* bbs_fluid_sources_make: the napps applications (bytes/s and seconds)
 * as sources at a time unit of time_unit_s (> 0; it resolves the
 * memoryless applications' ON period).  source and line (napps file lines,
 * or NULL) name the file in messages.  Errors: BB_ENOMEM; BB_EDATA naming
 * the file, line and field of an application whose rate, mean ON period or
 * mean OFF period L (1 - p) / p is not finite (what the file's own checks
 * cannot see: a value that overflows once in bytes/s or seconds).  s is
 * freed by bbs_fluid_sources_free whatever the result.  O(n). */
int bbs_fluid_sources_make(bbs_fluid_sources *s, const bba_app *apps, size_t napps,
                           const long *line, const char *source, double time_unit_s,
                           char *err);
void bbs_fluid_sources_free(bbs_fluid_sources *s);

/* How long the content takes to forget its empty start, in the diffusion
 * limit of the content between its walls 0 and S (an estimate, not a
 * bound):
 *   drift mu = E - B (bytes/s), variance rate s2 = sum_i 2 b_i^2 a_i c_i /
 *   (a_i + c_i)^3 with a_i = p_i / (L_i (1 - p_i)) the OFF -> ON rate and
 *   c_i = 1 / L_i the ON -> OFF rate (the asymptotic variance of an ON/OFF
 *   source's input, bytes^2/s);
 *   relax = 1 / (mu^2 / (2 s2) + pi^2 s2 / (2 S^2)), the inverse spectral
 *   gap of reflected Brownian motion on [0, S] (Linetsky 2005); 0 when
 *   s2 = 0 or S = 0 (no random motion, or no room);
 *   transit = bbs_fluid_fill_time (fluidsim.h): the time to fill from empty at
 *   the mean excess, or to fill the lazy threshold;
 *   mix = relax + transit;
 *   the stationary mean content m of that diffusion, S (1 / (1 - e^-x) -
 *   1 / x) with x = 2 mu S / s2 (S / 2 without drift; S or 0 when s2 = 0,
 *   as mu is positive or not).
 * The empty start is m below the stationary mean; an offset that is whole
 * until transit and then decays as exp(-(t - transit) / relax) weighs
 *   weight = its mean over the measured window [W, W + H], in [0, 1],
 * so the mean occupancy a run measures is about bias = weight m too low
 * (the start is the emptiest content there is).  The run has not mixed
 * when that bias exceeds both what its occupancy interval reaches above
 * its mean (the stationary value then lies above the interval; 0 with one
 * replication) and BBS_FLUID_MIX_SHARE of m.  Throttling at B + B_BB is
 * not in the estimate. */
typedef struct {
    double drift_Bps, var_B2ps;
    double relax_s, transit_s, mix_s;
    double mean_bytes;       /* m */
    double weight;           /* in [0, 1] */
    double bias_bytes;       /* weight m */
} bbs_fluid_mix;

#define BBS_FLUID_MIX_SHARE 0.01

/* bbs_fluid_mixing: m for configuration c (its sources, platform, horizon
 * and warm-up).  O(n). */
void bbs_fluid_mixing(const bbs_fluid_config *c, bbs_fluid_mix *m);

/* bbs_fluid_mix_message: 1 when the run summarised by s (its occupancy
 * interval) has not mixed by m, with a one-line message in buf (the
 * mixing time, the likely bias against the interval, "a longer horizon");
 * else 0 and buf "". */
int bbs_fluid_mix_message(const bbs_fluid_mix *m, const bbs_fluid_config *c,
                          const bbs_fluid_summary *s, char *buf, size_t len);

#endif
