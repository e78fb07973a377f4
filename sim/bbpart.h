/* bbpart.h: the partitioned burst-buffer platform: G static partitions,
 * each with its own buffer, drained by one PFS that is either split in
 * static shares or shared work-conservingly.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything in the analytic side's integer model, as sim/bb.h: loads and
 * sizes in quanta, time in time units.  Partition g holds the
 * applications of group g (Bernoulli: application i writes b_i in a
 * normal unit of its partition with probability p_i, one uniform per
 * application per normal unit), its buffer S_g, its load L_g and held
 * data H_g, and its PFS share B_g.  Each unit every partition asks the
 * PFS for what it could send: a stalled partition (H_g > 0) its held data
 * and its buffer, H_g + L_g; a normal one its load and, when it drains
 * (greedy; lazy below the threshold with probability EPS, one uniform of
 * the partition's stream per normal unit), its buffer, k_g + L_g.  Then:
 *   STATIC: partition g gets B_g: each partition is the chain of chain.h
 *     on its own (sim/bb.h without a buffer bandwidth), which is what the
 *     analytic partition sizes;
 *   SHARED (work-conserving): partition g first gets min(demand, B_g);
 *     what is left of B is handed to the partitions that want more, in
 *     proportion to their shares, capped at their demand (water-filling,
 *     at most G rounds): no bandwidth idles while a partition needs it.
 * With its allowance A a normal partition sends min(k, A) directly, puts
 * the excess in its buffer up to S_g and holds the rest (a stall of its
 * own applications only); a stalled one sends held data first, then
 * buffer data.  A partition's idle fraction is its stalled units over the
 * measured units; bb_in the quanta into its buffer per measured unit.
 * The burst buffer's own bandwidth is not modelled here (unlimited).
 *
 * Cost: T units, one tick event each, O(n + G^2) work per unit. */
#ifndef BBSIZE_SIM_BBPART_H
#define BBSIZE_SIM_BBPART_H

#include <stddef.h>
#include <stdint.h>

#include "chain.h"

#define BBS_PART_MAX 64   /* partitions at most */

typedef enum { BBS_PART_STATIC = 0, BBS_PART_SHARED = 1 } bbs_part_pfs;

typedef struct {
    size_t n;                 /* applications */
    const long *b;            /* quanta per time unit, >= 0 */
    const double *p;          /* [0, 1] */
    const size_t *group;      /* partition of each application, < G */
    size_t G;
    const long *B;            /* G PFS shares, quanta per time unit, >= 0
                                 (0: a partition that writes nothing) */
    const long *S;            /* G buffer sizes, quanta, >= 0 */
    bb_drain pol;             /* draining; a lazy threshold a fraction of
                                 each S_g (BB_DRAIN_FRACTION): THRESHOLD_g
                                 = floor(fraction S_g) (bba_drain_quanta) */
    bbs_part_pfs pfs;
    long horizon_units, warmup_units;
    double time_unit_s;
    uint64_t seed;
} bbs_part_config;

typedef struct {
    double idle[BBS_PART_MAX];    /* stalled units / measured units */
    double bb_in[BBS_PART_MAX];   /* quanta into the buffer per measured unit */
    double pfs_busy;              /* PFS quanta used per unit / B */
    double written, to_pfs, left, conservation_error;
    long measured;
    uint64_t events;
} bbs_part_result;

/* bbs_part_check: BB_EINVAL naming the field out of range (no application
 * or partition, more than BBS_PART_MAX, a group index out of range, a
 * share not positive, a size negative, p outside [0, 1], horizon). */
int bbs_part_check(const bbs_part_config *c, char *err);

/* bbs_part_run: replication `unit` (streams (seed, unit, APP i) and
 * (seed, unit, PLATFORM g)); deterministic in (config, unit).  Errors:
 * bbs_part_check's, BB_ENOMEM, BB_EDATA when conservation fails. */
int bbs_part_run(const bbs_part_config *c, uint64_t unit, bbs_part_result *r, char *err);

/* bbs_part_run_unit: bbs_part_run as a bbs_unit_fn (replicate.h). */
int bbs_part_run_unit(size_t unit, void *result, const void *ctx, char *err);

#endif
