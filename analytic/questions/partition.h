/* partition.h: static partitions of the burst buffer against the shared
 * one: each group of applications gets its own capacity and a share of
 * the PFS bandwidth (and of the buffer's bandwidth), each partition meets
 * the target on its own, and the shares minimise the total capacity.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The problem (bbsize-partition(1)).  Groups g = 1..G, the PFS bandwidth
 * B split in K steps: group g gets k_g steps, sum k_g = K, that is
 * B_g = k_g B / K (and B_BB,g = k_g B_BB / K).  S_g(k) is the smallest
 * capacity meeting the target for group g alone at k steps, rounded up to
 * the allocation granularity; it is non-increasing in k (more bandwidth
 * drains faster: tested, not proved), infinite below the first k whose
 * B_g exceeds the group's expected load (or whose throttling alone misses
 * the target).  A group that writes nothing (expected load 0: every
 * application p = 0 or no bandwidth) gets k_g = 0 and S_g = 0: no share,
 * no capacity, idle 0.  Minimise sum_g S_g(k_g).
 *
 * The algorithm: dynamic programming over the groups,
 *     F_g(c) = min_{k} F_{g-1}(c - k) + S_g(k),   F_0 = 0,
 * the answer F_G(K).  The objective is separable and the one constraint
 * a sum, so the principle of optimality holds and the DP is exact on the
 * grid of shares whatever the shape of S_g: it needs no convexity (the
 * marginal-gain greedy would).  Monotonicity is used three times: the
 * whole of B is always handed out (a step more never hurts, so
 * sum k_g = K loses nothing); S_g is computed for every k from the most a
 * group can get down, each size search starting from the last size (a
 * few solves each: answer.h bba_front_size_from); and the table stops
 * where no optimum can be.  The bound: U = sum_g S_g(f_g) at the shares
 * f_g proportional to the groups' loads above their least shares (a
 * feasible partition, so OPT <= U) and L_g = S_g(k_hi,g), the least
 * group g can need (monotone); a share k with S_g(k) > U - sum_{h != g}
 * L_h is in no partition of total <= U, nor is any smaller share, so
 * each size search is bounded by that cap (answer.h
 * bba_front_size_within) and the first that exceeds it ends the table.
 * This cuts the expensive searches near the least shares, where sizes
 * grow without bound, and changes no answer.  Cost: G K size searches at
 * most (each at most the cap), O(G K^2) for the DP.
 *
 * Model: every group is answered by the model that answers the shared
 * buffer (a group without bursts of a workload with bursts is not
 * switched to the Bernoulli chain), so that the totals compare like with
 * like.  Quantisation: every group is quantised at the shared buffer's quantum
 * (its resolution R, settled as `size` settles it; a group at k steps gets
 * resolution k R / K, so its B_g is k R / K quanta): the totals compare
 * like with like, and with one group the partition is the shared buffer,
 * to the byte.  K must divide R; otherwise gcd(R, K) steps are used.
 *
 * Ownership: the question's applications are borrowed; a result owns its
 * arrays (bba_partition_free). */
#ifndef BBSIZE_ANALYTIC_PARTITION_H
#define BBSIZE_ANALYTIC_PARTITION_H

#include <stddef.h>

#include "answer.h"
#include "bb_error.h"

/* The evaluations a group's size search from the last size costs
 * (partition.c admit_tables; measured on data/workloads/groups.csv at the
 * defaults: 302 searches, 3.8 evaluations each). */
#define BBA_PART_SEARCH_EVALS 4.0
/* The least a fluid group's size search costs, multiply-adds: its fixed
 * work, 27 us measured, at BBA_COST_OPS_PER_S (cost.h). */
#define BBA_PART_FLUID_SEARCH_OPS 1e5

typedef struct {
    const bba_question *base;    /* all applications, the platform, target, drain */
    const size_t *group;         /* base->n entries: each application's group
                                    index in [0, ngroups) */
    size_t ngroups;
    int steps;                   /* K, >= ngroups (default 100: 1% of B) */
    double granularity_bytes;    /* allocations rounded up to multiples of
                                    this (0: none) */
} bba_partition_spec;

typedef struct {
    size_t ngroups;
    int steps;                   /* the K used (gcd(R, K) when K does not divide R) */
    long resolution;             /* the shared quantisation R (0: none, FLUID) */
    bba_model_kind model;        /* the shared buffer's model, every group's too */
    int feasible;                /* 0: the groups' least shares exceed K */
    int *k;                      /* ngroups: steps of each group */
    int *k_lo, *k_hi;            /* ngroups: the range tabulated; after the
                                    tables k_lo is the least share meeting
                                    the target */
    double **table;              /* ngroups x (k_hi - k_lo + 1): S_g(k),
                                    rounded; INFINITY where none */
    bba_answer **answers;        /* the same, the front door's answers */
    long *searches;              /* ngroups: size searches made */
    int *k_fair;                 /* ngroups: the shares of the bound U */
    double *lower, *cap;         /* ngroups: L_g and the cap of g's searches
                                    (INFINITY: none) */
    double bound;                /* U (INFINITY when the loads' shares fail) */
    double *pfs_bw_Bps, *bb_bw_Bps;
    double *bytes;               /* ngroups: the allocation (granularity applied) */
    bba_answer *a;               /* ngroups: the answer at k */
    double total_bytes;          /* sum of the allocations */
    bba_answer shared;           /* the shared buffer: bba_front_size on base */
    int shared_status;           /* BB_OK or BB_EINFEASIBLE */
    double shared_bytes;         /* its size, rounded up to the granularity */
    double est_ops;              /* the run's multiply-adds as estimated before
                                    the tables (cost.h; announced through
                                    base->so.announce) */
} bba_partition;

/* The solve in stages, so that the per-group ones can run the groups in
 * parallel (distinct g touch distinct memory):
 * bba_partition_begin: check the spec, answer the shared buffer (which
 *   settles R), choose K and each group's range of steps (from the least
 *   whose B_g exceeds its expected load to K less the others' least) and
 *   the shares of the bound f_g;
 * bba_partition_bound (per group): S_g at k_hi and at f_g;
 * bba_partition_caps: U and each group's cap;
 * bba_partition_group (per group): group g's table, from k_hi down (each
 *   size search from the last size, bounded by the cap) to the first
 *   share where no capacity meets the target, or above the cap, or whose
 *   size would not fit in memory (that share and every smaller one are
 *   then unavailable);
 * bba_partition_finish: the DP, the shares, the allocations and total.
 * bba_partition_solve runs them all on the calling thread.
 * Errors: BB_EINVAL (steps < ngroups, a group index out of range, a group
 * with no application: the message names it), the fronts' errors other
 * than BB_EINFEASIBLE and BB_ETOOBIG.  An infeasible partition is a
 * result (feasible 0), as is an infeasible shared buffer (shared_status).
 * Free with bba_partition_free (safe after any stage failed). */
int bba_partition_begin(const bba_partition_spec *sp, bba_partition *out, char *err);
int bba_partition_bound(const bba_partition_spec *sp, bba_partition *out, size_t g,
                        char *err);
void bba_partition_caps(bba_partition *out);
int bba_partition_group(const bba_partition_spec *sp, bba_partition *out, size_t g,
                        char *err);
int bba_partition_finish(const bba_partition_spec *sp, bba_partition *out, char *err);
int bba_partition_solve(const bba_partition_spec *sp, bba_partition *out, char *err);
void bba_partition_free(bba_partition *p);

/* bba_partition_round: bytes rounded up to a multiple of granularity (0:
 * unchanged). */
double bba_partition_round(double bytes, double granularity_bytes);

#endif
