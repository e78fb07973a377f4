/* design.h: what a procurement committee trades: the burst buffer's
 * capacity against its bandwidth (the frontier), and both against the
 * PFS bandwidth (the cheapest design), every point answered by the front
 * door (answer.h) exactly as `bbsize size` answers it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bandwidth a design gets (bbsize-design(1)).  With the buffer's
 * bandwidth B_BB the applications are throttled above B + B_BB (bbbw.h):
 * throttling alone idles them a fraction that falls as B_BB grows, and
 * the capacity must keep the rest of the idle budget.  So a design spends
 * a share s of the target on throttling: B_BB(s) is the smallest bandwidth
 * whose throttling idles at most s x target (bba_front_bbbw_min), and the
 * capacity is the size for the target at B_BB(s).  s = 1 needs an
 * unbounded capacity, s -> 0 an unbounded bandwidth; in between lies the
 * frontier.  A design takes:
 *   - the platform's B_BB when it has one (FIXED);
 *   - without a price per GB/s of buffer bandwidth, s = 1/2: half the idle
 *     budget to each (HALF), one rule for every PFS bandwidth;
 *   - with one, the cheapest of the shares BBA_DESIGN_SHARES (PRICED),
 *     then the best of that grid refined twice by halving the gap to each
 *     neighbour: the frontier is evaluated, not assumed convex.  The
 *     shares are compared at the resolution settled for the half share
 *     (each search from the last size: a few solves each); the cheapest is
 *     then answered as `size` answers it, resolution settled.
 * The cost of a design is price_tb S/1e12 + price_gbs B_BB/1e9 +
 * price_pfs_gbs B/1e9, a missing price counting 0.
 *
 * Each design builds its own front (the resolution settled on the
 * question's target, as `size` settles it), so one costs about one `size`;
 * designs share nothing and run in any order (src/cmd_design.c runs them
 * on the unit runner).  Ownership: the base question's applications are
 * borrowed. */
#ifndef BBSIZE_ANALYTIC_DESIGN_H
#define BBSIZE_ANALYTIC_DESIGN_H

#include <stddef.h>

#include "answer.h"
#include "bb_error.h"
#include "cost.h"
#include "endurance.h"

/* the throttling shares of the idle budget a priced design compares */
#define BBA_DESIGN_NSHARES 7
extern const double BBA_DESIGN_SHARES[BBA_DESIGN_NSHARES];

typedef enum {
    BBA_BW_FIXED = 0,   /* the platform's B_BB (0: unlimited) */
    BBA_BW_HALF,        /* half the idle budget to throttling */
    BBA_BW_PRICED       /* the cheapest share */
} bba_bw_rule;

typedef struct {
    double tb, gbs, pfs_gbs;   /* per TB of buffer, GB/s of buffer and of PFS
                                  bandwidth (any currency); 0 when unpriced */
} bba_prices;

/* bba_design_cost: the price of capacity S (bytes), buffer bandwidth
 * bb_bw (bytes/s; 0: unlimited: free when unpriced, else INFINITY) and PFS
 * bandwidth pfs (bytes/s). */
double bba_design_cost(const bba_prices *p, double S_bytes, double bb_bw_Bps,
                       double pfs_bw_Bps);

/* One design: what `bbsize size --pfs-bw PFS --bb-bw BB_BW` answers. */
typedef struct {
    double pfs_bw_Bps;
    double bb_bw_Bps;          /* 0: unlimited */
    double share;              /* the share of the target throttling takes
                                  (NAN for FIXED) */
    int status;                /* BB_OK, BB_EINFEASIBLE (no capacity meets the
                                  target: a.idle_limit and a.load_ratio say
                                  why, E >= B included), or an error */
    bba_answer a;              /* bba_front_size's answer, after endurance */
    double stall_bytes;        /* the size the idle target alone needs */
    int endurance_binds;
    double cost;               /* bba_design_cost of the design */
    int designs;               /* fronts built to choose it */
    char err[BB_ERRLEN];       /* status != BB_OK */
} bba_design;

/* What every design of a walk shares. */
typedef struct {
    const bba_question *base;  /* borrowed: apps, target, drain, settling */
    bba_bw_rule rule;
    bba_prices prices;
    int has_endurance;
    bba_endurance endurance;
} bba_design_spec;

/* bba_design_at: the design at PFS bandwidth pfs and buffer bandwidth
 * bb_bw (0: unlimited): one front, bba_front_size for the base question's
 * target and drain, then bba_front_endure when asked.  A design of 0 B
 * buys no bandwidth (out->bb_bw_Bps 0, none priced).  Fills *out (its
 * status too: BB_EINFEASIBLE is an answer, not a failure).  Returns
 * out->status.  Thread-safe for distinct outs. */
int bba_design_at(const bba_design_spec *sp, double pfs_bw_Bps, double bb_bw_Bps,
                  double share, bba_design *out);

/* bba_design_bandwidth: B_BB(share) at PFS bandwidth pfs (bytes/s), from
 * the applications' load law at the finest resolution (BBA_RES_MAX), then
 * rounded up to a whole quantum of the coarsest resolution a design may
 * settle on (pfs / BBA_RES_START per time unit, or the question's own
 * resolution), which every resolution it settles on holds exactly: so
 * throttling takes at most its share whatever the settling; 0 when no
 * load exceeds B.  BB_EINFEASIBLE when E >= B.  No solve. */
int bba_design_bandwidth(const bba_design_spec *sp, double pfs_bw_Bps, double share,
                         double *bb_bw_Bps, char *err);

/* bba_design_choose: the design at PFS bandwidth pfs under sp->rule
 * (above): 1 front (FIXED, HALF), or 2 settled and BBA_DESIGN_NSHARES + 4
 * at a fixed resolution (PRICED).  Returns out->status. */
int bba_design_choose(const bba_design_spec *sp, double pfs_bw_Bps, bba_design *out);

/* bba_design_fluid_ops: the multiply-adds of one size search on f when
 * the fluid model answers it (its build and one search, as the front
 * estimated them: cost.h bba_cost_fluid); with bought, those of a design
 * that buys a buffer bandwidth (HALF, PRICED: its front is built at a
 * finite one, the general spectrum, several times the unlimited one's on
 * a bursty workload); 0 for the discrete models, which cost.h costs from
 * their chains.  O(1).  A small accessor of the front door for the walks'
 * estimates (bba_design_walk_cost, the report). */
double bba_design_fluid_ops(const bba_front *f, int bought);

/* bba_design_walk_cost: the multiply-adds (cost.h) of choosing the
 * designs at pfs[0..n-1] (bytes/s), estimated without a solve as
 * bba_cost_settle costs one `bbsize size`: a size search on the model at
 * the question's resolution or, to be settled, at BBA_RES_START
 * (bba_cost_search), times the worst case of settling (a search at each
 * resolution up to BBA_RES_MAX, each twice the one before), for each
 * design a point chooses from (1; BBA_BW_PRICED 2 + BBA_DESIGN_NSHARES +
 * 4).  An estimate, not a bound: on data/workloads/groups.csv, the
 * report's 16 priced designs, 2.1e11 for 8.4 s of CPU (about 3e10 at the
 * 4e9 a second cost.h measures); on three applications whose designs
 * settle at R = 1600 (tests/cli_report_cost.sh's), 3 priced designs,
 * 9.2e10 for 38 s.  *tot
 * has the sums of operations and solves, the largest size and chain.  The
 * fluid model: each design its build and one search as the front
 * estimates them (design.h bba_design_fluid_ops), no settling.  O(n (apps + M x 100)).  BB_OK; BB_ETOOBIG
 * when a point's front is beyond a bound (--max-ops, --max-memory: the walk
 * is refused at once, not left out point by point) or BB_ENOMEM (err); a
 * point refused otherwise is not costed (the walk skips it or names it). */
int bba_design_walk_cost(const bba_design_spec *sp, const double *pfs, size_t n, bba_cost *tot,
                         char *err);

/* bba_design_cheapest: the index of the feasible design of least finite
 * cost among d[0..n-1] (the first on ties), or -1 when none is feasible
 * at a finite cost (an unlimited bandwidth priced, or a total beyond the
 * largest double, is no cheapest). */
long bba_design_cheapest(const bba_design *d, size_t n);

#endif
