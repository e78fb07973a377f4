/* designrun.c: the walk of `bbsize design` over PFS bandwidths
 * (designrun.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "designrun.h"
#include "grid.h"
#include "replicate.h"

void
bb_design_spec_init(bba_design_spec *sp, const bba_question *base, const bb_prices *p,
                    const bb_endopts *e)
{
    memset(sp, 0, sizeof *sp);
    sp->base = base;
    if (p != NULL)
        sp->prices = (bba_prices){ p->tb, p->gbs, p->pfs_gbs };
    sp->rule = base->pf.bb_bw_Bps > 0 ? BBA_BW_FIXED
             : p != NULL && p->has_gbs ? BBA_BW_PRICED : BBA_BW_HALF;
    if (e != NULL && e->set) {
        sp->has_endurance = 1;
        sp->endurance = (bba_endurance){ e->dwpd, e->rated_years, e->lifetime_years, e->waf };
    }
}

typedef struct {
    const bba_design_spec *sp;
    const double *pfs;
} walk;

/* A unit never fails: a design's status is part of its result. */
static int
design_unit(size_t unit, void *result, const void *ctx, char *err)
{
    const walk *w = ctx;

    (void)err;
    bba_design_choose(w->sp, w->pfs[unit], result);
    return BB_OK;
}

int
bb_design_walk(const bba_design_spec *sp, const double *pfs, size_t n, int threads,
               bb_meter *meter, bba_design *d, char *err)
{
    walk w = { sp, pfs };

    return bbs_replicate_run(n, sizeof *d, d, design_unit, &w,
                             threads > 0 ? threads : bb_grid_threads(),
                             meter != NULL ? bb_meter_progress : NULL, meter, err);
}
