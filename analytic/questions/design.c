/* design.c: the frontier and the cheapest design through the front door
 * (design.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "design.h"
#include "front.h"

const double BBA_DESIGN_SHARES[BBA_DESIGN_NSHARES] = { 0.9, 0.75, 0.5, 0.25, 0.1, 0.03, 0.01 };

double
bba_design_cost(const bba_prices *p, double S_bytes, double bb_bw_Bps, double pfs_bw_Bps)
{
    double c = p->tb * S_bytes / 1e12 + p->pfs_gbs * pfs_bw_Bps / 1e9;

    if (bb_bw_Bps > 0)
        c += p->gbs * bb_bw_Bps / 1e9;
    else if (p->gbs > 0)
        c = INFINITY;   /* an unlimited bandwidth has no price */
    return c;
}

/* The design at (pfs, bb_bw): resolution R > 0 fixes the quantising (no
 * settling), hint_bytes > 0 starts the size search there. */
static int
design_eval(const bba_design_spec *sp, double pfs_bw_Bps, double bb_bw_Bps, double share,
            long R, double hint_bytes, bba_design *out)
{
    bba_question q = *sp->base;
    bba_front *f = NULL;
    bba_answer a;
    int rc;

    memset(out, 0, sizeof *out);
    out->pfs_bw_Bps = pfs_bw_Bps;
    out->bb_bw_Bps = bb_bw_Bps;
    out->share = share;
    out->stall_bytes = NAN;
    out->cost = NAN;
    out->designs = 1;
    q.pf.pfs_bw_Bps = pfs_bw_Bps;
    q.pf.bb_bw_Bps = bb_bw_Bps;
    if (R > 0)
        q.pf.resolution = R;
    q.progress = NULL;
    rc = bba_front_new(&q, &f, out->err);
    if (rc == BB_OK) {
        rc = bba_front_size_from(f, q.target, &q.drain, hint_bytes, &out->a, out->err);
        if (rc == BB_OK) {
            out->stall_bytes = out->a.S_bytes;
            if (sp->has_endurance) {
                a = out->a;
                rc = bba_front_endure(f, &a, &q.drain, &sp->endurance, &out->a,
                                      &out->endurance_binds, out->err);
            }
            if (rc == BB_OK && out->a.S_bytes == 0) {
                /* no buffer: the PFS alone meets the target, and a buffer
                 * of 0 B has no bandwidth to buy (the idle fraction at
                 * S = 0 does not depend on it): the PFS's price alone */
                out->bb_bw_Bps = 0;
                out->cost = sp->prices.pfs_gbs * pfs_bw_Bps / 1e9;
            } else if (rc == BB_OK) {
                out->cost = bba_design_cost(&sp->prices, out->a.S_bytes, bb_bw_Bps,
                                            pfs_bw_Bps);
            }
        }
    }
    bba_front_free(f);
    out->status = rc;
    return rc;
}

int
bba_design_at(const bba_design_spec *sp, double pfs_bw_Bps, double bb_bw_Bps, double share,
              bba_design *out)
{
    return design_eval(sp, pfs_bw_Bps, bb_bw_Bps, share, 0, 0, out);
}

int
bba_design_bandwidth(const bba_design_spec *sp, double pfs_bw_Bps, double share,
                     double *bb_bw_Bps, char *err)
{
    bba_question q = *sp->base;
    bba_front *f;
    int rc;

    *bb_bw_Bps = NAN;
    q.pf.pfs_bw_Bps = pfs_bw_Bps;
    q.pf.bb_bw_Bps = 0;
    q.pf.resolution = BBA_RES_MAX;   /* quantising only: no solve */
    q.progress = NULL;
    rc = bba_front_new(&q, &f, err);
    if (rc != BB_OK)
        return rc;
    rc = bba_front_bbbw_min(f, share * q.target, bb_bw_Bps);
    if (rc == BB_EINFEASIBLE)
        bb_seterr(err, rc, "the expected load is not below the PFS bandwidth");
    bba_front_free(f);
    if (rc == BB_OK && *bb_bw_Bps > 0) {
        /* up to a whole quantum of the coarsest resolution the design may
         * settle on (every finer one holds it exactly), so that rounding
         * never hands throttling more than its share */
        double step = pfs_bw_Bps / (double)(sp->base->pf.resolution > 0 ? sp->base->pf.resolution
                                                                         : BBA_RES_START);

        *bb_bw_Bps = ceil(*bb_bw_Bps / step * (1 - 1e-12)) * step;
    }
    return rc;
}

/* The design at share s (its status in out), at resolution R (0: settled)
 * from a guess of the size (0: none). */
static int
at_share(const bba_design_spec *sp, double pfs_bw_Bps, double s, long R, double hint_bytes,
         bba_design *out)
{
    double bw;
    int rc = bba_design_bandwidth(sp, pfs_bw_Bps, s, &bw, out->err);

    if (rc != BB_OK) {
        char why[BB_ERRLEN];

        snprintf(why, sizeof why, "%s", out->err);
        memset(out, 0, sizeof *out);
        snprintf(out->err, sizeof out->err, "%s", why);
        out->pfs_bw_Bps = pfs_bw_Bps;
        out->share = s;
        out->cost = NAN;
        out->stall_bytes = NAN;
        out->designs = 1;
        out->status = rc;
        if (rc == BB_EINFEASIBLE) {
            /* E >= B: why no design, as bba_front_size says it (the idle
             * fraction falls only to 1 - B/E as S grows), from the
             * applications' expected load without a solve */
            double E = 0;

            for (size_t i = 0; i < sp->base->n; i++)
                E += sp->base->apps[i].p * sp->base->apps[i].bw_Bps;
            out->a.load_ratio = E / pfs_bw_Bps;
            out->a.idle_limit = E > 0 ? fmax(0.0, 1 - pfs_bw_Bps / E) : 0;
            out->a.bb_bw_min_Bps = NAN;
            out->a.S_bytes = NAN;
            out->a.idle = NAN;
        }
        return rc;
    }
    /* bw 0: no load above B, nothing to throttle, no bandwidth to buy */
    return design_eval(sp, pfs_bw_Bps, bw, s, R, hint_bytes, out);
}

/* Whether a is a feasible design cheaper than b (or b is not feasible). */
static int
better(const bba_design *a, const bba_design *b)
{
    if (a->status != BB_OK)
        return 0;
    return b->status != BB_OK || a->cost < b->cost;
}

int
bba_design_choose(const bba_design_spec *sp, double pfs_bw_Bps, bba_design *out)
{
    bba_design half, cand[BBA_DESIGN_NSHARES], d;
    int best = -1, designs = 1;
    double lo, hi, best_share, hint;
    long R;

    if (sp->rule == BBA_BW_FIXED)
        return bba_design_at(sp, pfs_bw_Bps, sp->base->pf.bb_bw_Bps, NAN, out);
    at_share(sp, pfs_bw_Bps, 0.5, 0, 0, &half);
    if (sp->rule == BBA_BW_HALF || half.status != BB_OK) {
        /* HALF; or E >= B, or an error: every share would say the same */
        *out = half;
        return out->status;
    }
    /* PRICED: the shares compared at the resolution settled for the half
     * share, each search from the last size; the best answered as `size`
     * answers it (settled) */
    R = half.a.resolution;
    hint = half.a.S_bytes;
    for (int i = 0; i < BBA_DESIGN_NSHARES; i++) {
        at_share(sp, pfs_bw_Bps, BBA_DESIGN_SHARES[i], R, hint, &cand[i]);
        designs++;
        if (cand[i].status != BB_OK && cand[i].status != BB_EINFEASIBLE) {
            *out = cand[i];
            out->designs = designs;
            return out->status;
        }
        if (cand[i].status == BB_OK)
            hint = cand[i].a.S_bytes;
        if (best < 0 ? cand[i].status == BB_OK : better(&cand[i], &cand[best]))
            best = i;
    }
    if (best < 0) {
        *out = half;
        out->designs = designs;
        return out->status;
    }
    d = cand[best];
    best_share = d.share;
    /* refine: the midpoints towards both neighbours, twice; the bracket
     * shrinks around the best of the three */
    lo = best + 1 < BBA_DESIGN_NSHARES ? BBA_DESIGN_SHARES[best + 1] : best_share / 2;
    hi = best > 0 ? BBA_DESIGN_SHARES[best - 1] : best_share + (1 - best_share) / 2;
    for (int k = 0; k < 2; k++) {
        double c = best_share, mid[2] = { (lo + c) / 2, (c + hi) / 2 };
        int won = -1;

        for (int side = 0; side < 2; side++) {
            bba_design m;

            at_share(sp, pfs_bw_Bps, mid[side], R, d.a.S_bytes, &m);
            designs++;
            if (m.status != BB_OK && m.status != BB_EINFEASIBLE) {
                *out = m;
                out->designs = designs;
                return out->status;
            }
            if (better(&m, &d)) {
                d = m;
                best_share = m.share;
                won = side;
            }
        }
        if (won == 0) {
            hi = c;
        } else if (won == 1) {
            lo = c;
        } else {
            lo = mid[0];
            hi = mid[1];
        }
    }
    if (best_share == 0.5) {
        *out = half;
    } else {
        at_share(sp, pfs_bw_Bps, best_share, 0, d.a.S_bytes, out);
        designs++;
    }
    out->designs = designs;
    return out->status;
}

long
bba_design_cheapest(const bba_design *d, size_t n)
{
    long best = -1;

    /* an infinite (or overflowed, or undefined) cost is no cheapest */
    for (size_t i = 0; i < n; i++)
        if (d[i].status == BB_OK && isfinite(d[i].cost) && (best < 0 || d[i].cost < d[best].cost))
            best = (long)i;
    return best;
}

double
bba_design_fluid_ops(const bba_front *f, int bought)
{
    if (bba_front_kind(f) != BBA_MODEL_FLUID)
        return 0;
    return bought ? f->fluid_flops_bought : f->fluid_flops;
}

int
bba_design_walk_cost(const bba_design_spec *sp, const double *pfs, size_t n, bba_cost *tot,
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
