/* designrun.h: the walk of `bbsize design` over PFS bandwidths, shared by
 * `bbsize design` and `bbsize report` so that both choose the same
 * designs: the design spec from the platform and the prices (which
 * bandwidth rule applies) and the designs (analytic/questions/design.h,
 * whose bba_design_walk_cost estimates the walk before any solve) run on
 * the unit runner (sim/replicate.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_DESIGNRUN_H
#define BBSIZE_SRC_DESIGNRUN_H

#include <stddef.h>

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

/* bb_design_walk: bba_design_choose at each of pfs[0..n-1] (bytes/s) into
 * d[0..n-1] on threads threads (0: all processors), with progress on meter
 * (NULL: none).  A design's own failure is in its status (BB_EINFEASIBLE
 * and errors alike); returns BB_OK, or the runner's error in err.  The
 * designs do not depend on the number of threads. */
int bb_design_walk(const bba_design_spec *sp, const double *pfs, size_t n, int threads,
                   bb_meter *meter, bba_design *d, char *err);

#endif
