/* workload.h: applications and platform in the user's units, and their
 * quantisation into the integer model of Aupy et al. 2017 (Section 4.2).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Units: bandwidths in bytes per second, time in seconds, sizes in bytes.
 * One quantum is q = B * time_unit / R bytes, with B the PFS bandwidth and
 * R the resolution (quanta per B per time unit; the paper's R = 100).  An
 * application's bandwidth b_i becomes round(b_i R / B) quanta per time
 * unit, an error of at most q/2 per application and time unit. */
#ifndef BBSIZE_ANALYTIC_WORKLOAD_H
#define BBSIZE_ANALYTIC_WORKLOAD_H

#include <stddef.h>

#define BBA_NAME_LEN 64

typedef struct {
    char name[BBA_NAME_LEN];
    double p;          /* probability of writing in a time unit, [0, 1] */
    double bw_Bps;     /* write bandwidth while writing, bytes/s, >= 0 */
    double period_s;   /* quasi-period d_i for the simulator, s (0: none) */
    double burst_s;    /* mean length of one I/O phase (ON run), s; 0 when
                          absent: 1/(1 - p) time units, the memoryless
                          model of the paper */
    long count;        /* identical independent applications this one
                          stands for, in [1, BBA_COUNT_MAX]; 0 is read as
                          1, so a zeroed bba_app is one application */
} bba_app;

/* The most applications one bba_app, and one workload, stands for
 * (bbsize-workload(5), column count). */
#define BBA_COUNT_MAX 1000000L

typedef struct {
    double pfs_bw_Bps;   /* B, bytes/s, > 0 */
    double bb_bw_Bps;    /* B_BB, bytes/s; 0 when not given */
    double time_unit_s;  /* the model's time unit, s, > 0 */
    long resolution;     /* R, quanta per B per time unit, >= 1 */
} bba_platform;

typedef struct {
    size_t n;             /* applications, counts expanded (the rows
                             written out): sum of the apps' counts */
    size_t *row;          /* n: the index in apps of each application
                             (NULL in a q made by hand: entry i is
                             application i) */
    long *b;              /* n bandwidths, quanta per time unit */
    double *p;            /* n probabilities */
    long B;               /* PFS bandwidth in quanta per time unit (= R) */
    long bb_bw;           /* burst-buffer bandwidth in quanta (0: none) */
    double quantum_bytes; /* q */
    double max_round_bytes;  /* largest |b_i q - bw_i time_unit| over i */
    double *burst_tu;     /* n mean ON runs L_i in time units; 1/(1 - p_i)
                             where absent (0 when p_i = 1: always ON) */
    int has_burst;        /* some application has a burst that is not the
                             memoryless 1/(1 - p_i): the ON/OFF model applies */
} bba_quantized;

/* bba_app_on_period: the mean ON period (s) of application a in the
 * continuous-time model: its burst, or for a memoryless application (no
 * burst) of probability p per time unit u, u / (1 - p), the mean ON run
 * of a fresh draw every unit; 0 when a has no phases (p = 0 or 1, or no
 * bandwidth).  Pure. */
double bba_app_on_period(const bba_app *a, double time_unit_s);

/* bba_app_count: a's count, 1 when 0 (workload.h bba_app).  Pure. */
long bba_app_count(const bba_app *a);

/* bba_apps_total: the applications apps[0..n) stand for, their counts
 * summed, in *total.  Errors: BB_EINVAL naming the application (1-based)
 * whose count is negative or above BBA_COUNT_MAX, or when the total is
 * above BBA_COUNT_MAX.  O(n). */
int bba_apps_total(const bba_app *apps, size_t n, size_t *total, char *err);

/* bba_quantize: check the platform and applications and quantise them.
 * An application of count N becomes N identical entries, in order (the
 * one place counts are expanded for the models that take applications
 * one by one: DIST, the chains, the discrete simulators); q->row maps
 * each entry back to its application.  Messages name the application as
 * given (1-based index into apps).
 * On success q owns its arrays (free with bba_quantized_free).
 * Errors: BB_EINVAL naming the application (1-based) or platform field
 * that is out of range (p outside [0,1] or NaN, negative or non-finite
 * bandwidth, B, time unit or resolution not positive, a bandwidth too
 * large for the resolution, a burst shorter than max(1, p/(1-p)) time
 * units, which no two-state ON/OFF chain with Pr(ON) = p can have);
 * the counts' errors (bba_apps_total); BB_ENOMEM.  O(n + q->n). */
int bba_quantize(const bba_app *apps, size_t n, const bba_platform *pf,
                 bba_quantized *q, char *err);

/* bba_quantized_free: release what bba_quantize allocated; safe on a
 * zeroed struct. */
void bba_quantized_free(bba_quantized *q);

#endif
