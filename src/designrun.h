/* designrun.h: the walk of `bbsize design` over PFS bandwidths, shared by
 * `bbsize design` and `bbsize report` so that both choose the same
 * designs: the design spec from the platform and the prices (which
 * bandwidth rule applies), the walk's cost estimated before any solve,
 * and the designs (analytic/questions/design.h) run on the unit runner
 * (sim/replicate.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_DESIGNRUN_H
#define BBSIZE_SRC_DESIGNRUN_H

#include <stddef.h>

#include "cost.h"
#include "design.h"
#include "options.h"
#include "progress.h"

/* bb_design_spec_init: the spec of the designs of base (borrowed: its
 * applications, platform, target, drain and solver): the platform's
 * burst-buffer bandwidth when it has one (BBA_BW_FIXED), else the cheapest
 * share of the idle budget when a price per GB/s of buffer bandwidth is
 * given (BBA_BW_PRICED), else half of it (BBA_BW_HALF); the prices p (NULL:
 * none) and the endurance e (NULL or not set: none). */
void bb_design_spec_init(bba_design_spec *sp, const bba_question *base, const bb_prices *p,
                         const bb_endopts *e);

/* bb_design_walk_cost: the multiply-adds (analytic/questions/cost.h) of choosing the
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
int bb_design_walk_cost(const bba_design_spec *sp, const double *pfs, size_t n, bba_cost *tot,
                        char *err);

/* bb_design_walk: bba_design_choose at each of pfs[0..n-1] (bytes/s) into
 * d[0..n-1] on threads threads (0: all processors), with progress on meter
 * (NULL: none).  A design's own failure is in its status (BB_EINFEASIBLE
 * and errors alike); returns BB_OK, or the runner's error in err.  The
 * designs do not depend on the number of threads. */
int bb_design_walk(const bba_design_spec *sp, const double *pfs, size_t n, int threads,
                   bb_meter *meter, bba_design *d, char *err);

#endif
