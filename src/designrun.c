/* designrun.c: the walk of `bbsize design` over PFS bandwidths
 * (designrun.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cost.h"
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

int
bb_design_walk_cost(const bba_design_spec *sp, const double *pfs, size_t n, bba_cost *tot,
                    char *err)
{
    /* designs a point: PRICED settles two (the half share and the
     * cheapest) and compares the shares and their refinement */
    const double per_point = sp->rule == BBA_BW_PRICED ? 2 + BBA_DESIGN_NSHARES + 4 : 1;
    const long R = sp->base->pf.resolution > 0 ? sp->base->pf.resolution : BBA_RES_START;
    bb_drain ps = bb_drain_greedy(sp->base->drain.eps);
    double levels = 1;

    /* settling's worst case, as bba_cost_settle costs it: a search at
     * each of R, 2R, ... up to BBA_RES_MAX, each twice the one before */
    for (long r = R; sp->base->pf.resolution == 0 && r < BBA_RES_MAX; r *= 2)
        levels = 2 * levels + 1;
    memset(tot, 0, sizeof *tot);
    for (size_t i = 0; i < n; i++) {
        bba_question q = *sp->base;
        bba_front *f;
        const bba_model *m;
        bba_cost c;
        int rc;

        q.pf.pfs_bw_Bps = pfs[i];
        q.pf.resolution = R;   /* quantising only: no solve */
        q.progress = NULL;
        q.so.announce = NULL;  /* the walk's total is the run's one estimate, not
                                  this front's build (the fluid model costs one) */
        rc = bba_front_new(&q, &f, err);
        if (rc == BB_ENOMEM || rc == BB_ETOOBIG)   /* beyond a bound: refused at once */
            return rc;
        if (rc != BB_OK)   /* the walk skips it, or refuses it by name */
            continue;
        m = bba_front_chain(f);
        if (m == NULL) {   /* the fluid model: its search as the front estimates it
                              (no resolution to settle) */
            tot->ops += per_point * bba_design_fluid_ops(f, sp->rule != BBA_BW_FIXED);
            tot->evaluations += (int)per_point;
        } else {
            bba_cost_search(m, q.target, &ps, &q.so, &c);
            tot->ops += per_point * levels * c.ops;
            tot->evaluations += (int)(per_point * levels) * c.evaluations;
            tot->S_quanta = fmax(tot->S_quanta, c.S_quanta);
            tot->states = fmax(tot->states, c.states);
        }
        bba_front_free(f);
    }
    return BB_OK;
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
