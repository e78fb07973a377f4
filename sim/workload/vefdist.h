/* vefdist.h: message-size and destination distributions of the extended
 * VEF data-centre models (DCNW, CDCNW, FLOWS): step-CDF tables in the HOMA
 * format, the memcached Pareto tail, Poisson arrivals at a load.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Size tables (HOMA simulator format, data/vef/homasim_*.txt): line 1 the
 * mean size, then one "size cdf" pair per line, sizes strictly increasing,
 * cdf non-decreasing in [0, 1] and ending at 1 (within 1e-6), except for a
 * table with a declared tail (memcached), which may stop below 1.  Sampling
 * draws u ~ U(0,1) and takes the first row with cdf >= u (binary search, no
 * interpolation: HOMA's MsgSizeDistributions.cc), times the table's unit
 * (bytes; 1470 B per packet for DCTCP).  The memcached (Facebook key-value)
 * tail beyond the last row (size 15 B, cdf 0.47) is the generalised Pareto
 * round(15 + (((1-0.47)/(1-u))^k - 1) sigma/k), k = 0.348238,
 * sigma = 214.476, capped at 2^30 B (HOMA's getFacebookSizeInterarrival).
 *
 * Each sample uses exactly one uniform.  Nothing here reads text: the
 * table's rows come from src/formats/sizedist_file.c (src/ finds data/vef/
 * by name). */
#ifndef BBSIZE_SIM_WORKLOAD_VEFDIST_H
#define BBSIZE_SIM_WORKLOAD_VEFDIST_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/* ---- size distributions ---- */

typedef struct bbs_sizedist bbs_sizedist;

enum bbs_sizedist_tail { BBS_TAIL_NONE = 0, BBS_TAIL_MEMCACHED = 1 };

/* One of the seven built-in DCNW models. */
typedef struct {
    const char *name;     /* canonical VEF keyword, e.g. "GOOGLE_ALL" */
    const char *aliases;  /* other accepted keywords, space-separated */
    const char *file;     /* table under data/vef/ */
    double unit_bytes;    /* bytes per table size unit (1470 for DCTCP) */
    int tail;             /* enum bbs_sizedist_tail */
    const char *what;     /* one-line description with its source */
} bbs_sizemodel;

/* bbs_sizemodel_find: the built-in model called name (case-insensitive,
 * canonical name or alias), or NULL. */
const bbs_sizemodel *bbs_sizemodel_find(const char *name);
/* bbs_sizemodel_all: the table of built-in models, *n receives its length. */
const bbs_sizemodel *bbs_sizemodel_all(size_t *n);
/* bbs_sizemodel_names: "DCTCP, FACEBOOK_KEY_VALUE, ..." (static string), for
 * "unknown model" messages. */
const char *bbs_sizemodel_names(void);

/* A table is built row by row (its text is read by bbs_sizedist_parse,
 * src/formats/sizedist_file.h).  bbs_sizedist_new: an empty table whose
 * sizes are in units of unit_bytes (> 0, else BB_EINVAL), with tail (enum
 * bbs_sizedist_tail) and the declared mean (in table units); BB_ENOMEM.
 * bbs_sizedist_add: the next row, size in table units and its cdf, in O(1)
 * amortised; BB_EDATA when the size is negative or does not increase, or
 * the cdf is outside [0, 1] or decreases (d unchanged); BB_ENOMEM.
 * bbs_sizedist_close: BB_EDATA when there is no row, or the CDF does not
 * end at 1 (within 1e-6) without a tail; then the last cdf is 1. */
int bbs_sizedist_new(bbs_sizedist **out, double unit_bytes, int tail, double declared_mean,
                     char *err);
int bbs_sizedist_add(bbs_sizedist *d, double size, double cdf, char *err);
int bbs_sizedist_close(bbs_sizedist *d, char *err);
void bbs_sizedist_free(bbs_sizedist *d);

/* bbs_sizedist_sample: one size in bytes (one uniform from r). */
double bbs_sizedist_sample(const bbs_sizedist *d, gsl_rng *r);

/* bbs_sizedist_declared_mean: line 1 of the file times the unit (bytes). */
double bbs_sizedist_declared_mean(const bbs_sizedist *d);
/* bbs_sizedist_mean / _var: exact mean and variance (bytes, bytes^2) of the
 * step distribution, computed from the rows (and, for the memcached tail, by
 * numerical integration of the capped Pareto).  Independent of the
 * sampler: tests compare sample means with these. */
double bbs_sizedist_mean(const bbs_sizedist *d);
double bbs_sizedist_var(const bbs_sizedist *d);
size_t bbs_sizedist_rows(const bbs_sizedist *d);
/* bbs_sizedist_row: row j's size (bytes) and cdf (either may be NULL). */
void bbs_sizedist_row(const bbs_sizedist *d, size_t j, double *size, double *cdf);
/* bbs_sizedist_quantile: the step-rule quantile (bytes) at u in (0, 1). */
double bbs_sizedist_quantile(const bbs_sizedist *d, double u);

/* ---- destination distributions ---- */

enum bbs_dest_kind { BBS_DEST_UNIFORM = 0, BBS_DEST_POISSON = 1, BBS_DEST_GAUSS = 2 };

/* A destination law over tasks 0..n-1.  Draws equal to the source or
 * outside [0, n) are redrawn.
 *   UNIFORM          uniform over the n-1 other tasks (one uniform)
 *   POISSON lambda   Poisson(lambda) task index; lambda defaults to n/2
 *   GAUSS mu sigma   round(Normal(mu, sigma)); defaults mu = n/2,
 *                    sigma = n/8 [inferred: VEF says only "around task 64"
 *                    for 128 tasks]
 * A parameter < 0 means "default". */
typedef struct {
    int kind;
    double a, b; /* lambda, or mu and sigma */
} bbs_dest;

/* bbs_dest_parse_name: kind of a keyword (UNIFORM/UN, POISSON/PO,
 * GAUSS/GAUSSIAN/GA; case-insensitive), or -1. */
int bbs_dest_parse_name(const char *word);
const char *bbs_dest_name(int kind);
const char *bbs_dest_names(void); /* "UNIFORM, POISSON, GAUSS" */

/* bbs_dest_check: fill defaults for n tasks and make sure every source has
 * a reachable destination with probability > 1e-9 per draw.
 * Errors: BB_EINVAL (n < 2, lambda <= 0, sigma <= 0, law concentrated on
 * the source or outside the tasks). */
int bbs_dest_check(bbs_dest *d, int n, char *err);
/* bbs_dest_draw: a destination != src in [0, n) (d checked). */
int bbs_dest_draw(const bbs_dest *d, int n, int src, gsl_rng *r);

/* bbs_exp_gap_s: Poisson arrivals of mean_bytes messages offering load_gbps
 * (10^9 bit/s): the mean gap is mean_bytes * 8 / (load_gbps * 1e9) s. */
double bbs_poisson_mean_gap_s(double mean_bytes, double load_gbps);

#endif
