/* fluidpath.c: the fluid buffer's content along a given rate path,
 * integrated piece by piece (fluidpath.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>

#include "bb_error.h"
#include "fluidpath.h"

int
bbs_fluid_platform_check(const bbs_fluid_platform *pf, char *err)
{
    assert(BB_DRAIN_IN(&pf->drain, BB_DRAIN_BYTES));
    if (!(pf->pfs_bw_Bps > 0) || !isfinite(pf->pfs_bw_Bps))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g B/s is not positive and finite",
                         pf->pfs_bw_Bps);
    if (!(pf->bb_bw_Bps > 0))
        return bb_seterr(err, BB_EINVAL, "burst-buffer bandwidth %g B/s is not positive "
                         "(INFINITY: unlimited)", pf->bb_bw_Bps);
    if (!(pf->size_bytes >= 0) || !isfinite(pf->size_bytes))
        return bb_seterr(err, BB_EINVAL, "buffer size %g bytes is not finite and >= 0",
                         pf->size_bytes);
    if (pf->drain.kind == BB_DRAIN_LAZY
        && !(pf->drain.threshold >= 0 && pf->drain.threshold <= pf->size_bytes))
        return bb_seterr(err, BB_EINVAL, "threshold %g bytes is outside [0, %g]",
                         pf->drain.threshold, pf->size_bytes);
    if (pf->drain.kind == BB_DRAIN_LAZY && !(pf->drain.eps > 0 && pf->drain.eps <= 1))
        return bb_seterr(err, BB_EINVAL, "EPS %g is outside (0, 1] (the fluid buffer below "
                         "the threshold drains at EPS (B - r))", pf->drain.eps);
    return BB_OK;
}

void
bbs_fluid_path_init(bbs_fluid_path *p, const bbs_fluid_platform *pf, double t0_s,
                    double x0_bytes, double rate_Bps)
{
    p->pf = *pf;
    p->t_s = t0_s;
    p->x_bytes = x0_bytes;
    p->rate_Bps = rate_Bps;
    p->v_s = 0;
    p->pieces = 0;
}

void
bbs_fluid_path_set_rate(bbs_fluid_path *p, double rate_Bps)
{
    p->rate_Bps = rate_Bps;
}

/* The content's slope at content x and rate r, and the boundary it moves
 * towards (S, T or 0); 0 when it stays. */
static double
slope_at(const bbs_fluid_platform *f, double r, double x, double *target)
{
    double B = f->pfs_bw_Bps;

    if (r > B) {
        if (x >= f->size_bytes)
            return 0;
        *target = f->size_bytes;
        return fmin(r - B, f->bb_bw_Bps);
    }
    if (r < B) {
        if (x <= 0)
            return 0;
        if (f->drain.kind == BB_DRAIN_LAZY && x > f->drain.threshold) {
            *target = f->drain.threshold;
            return r - B;
        }
        *target = 0;
        return f->drain.kind == BB_DRAIN_LAZY ? f->drain.eps * (r - B) : r - B;
    }
    return 0;
}

static double
slope(const bbs_fluid_path *p, double *target)
{
    return slope_at(&p->pf, p->rate_Bps, p->x_bytes, target);
}

/* The writers' share on a piece of rate r, at S (r > B and no drift) or
 * below it. */
static double
piece_share(const bbs_fluid_platform *f, double r, int at_s)
{
    double B = f->pfs_bw_Bps;

    if (!(r > B))
        return 1;
    return at_s ? B / r : fmin(r, B + f->bb_bw_Bps) / r;
}

double
bbs_fluid_path_share(const bbs_fluid_path *p)
{
    double target = 0;

    return piece_share(&p->pf, p->rate_Bps, slope(p, &target) == 0);
}

double
bbs_fluid_path_time_at(const bbs_fluid_path *p, double dv_s)
{
    const bbs_fluid_platform *f = &p->pf;
    double t = p->t_s, x = p->x_bytes, r = p->rate_Bps, c = 1;

    if (!(dv_s > 0))
        return t;
    /* as bbs_fluid_path_advance: at most four pieces, each but the last
     * ending on a boundary */
    for (int k = 0; k < 4; k++) {
        double target = 0, v = slope_at(f, r, x, &target), tb;

        c = piece_share(f, r, v == 0);
        if (v == 0)
            break;
        tb = (target - x) / v;
        if (tb * c >= dv_s)
            break;
        t += tb;
        dv_s -= tb * c;
        x = target;
    }
    return t + dv_s / c;
}

/* Add one linear piece: content x0 -> x1 at slope v over dt seconds. */
static void
integrate(const bbs_fluid_path *p, bbs_fluid_tally *t, double x0, double x1, double v,
          double dt)
{
    const bbs_fluid_platform *f = &p->pf;
    double r = p->rate_Bps, B = f->pfs_bw_Bps, S = f->size_bytes;
    double stall = 0, quiet, into = 0, drained = 0, written, to_pfs;
    int at0 = 0, atS = 0;

    if (v == 0) {
        /* An atom: at S for r > B (S = 0 included), at 0 for r < B; with
         * r = B wherever X is (0 first: with S = 0 the mass counts once). */
        if (r > B)
            atS = 1;
        else if (r < B || x0 <= 0)
            at0 = 1;
        else if (x0 >= S)
            atS = 1;
    }
    if (r > B) {
        stall = atS ? (r - B) / r : fmax(r - B - f->bb_bw_Bps, 0) / r;
        quiet = 1 - stall;
        into = atS ? 0 : v;
        written = atS ? B : fmin(r, B + f->bb_bw_Bps);
        to_pfs = B;
    } else if (r == B || at0) {
        quiet = 1;
        written = r;
        to_pfs = r;
    } else {
        drained = -v;
        quiet = f->drain.kind == BB_DRAIN_LAZY && x0 <= f->drain.threshold ? 1 - f->drain.eps : 0;
        written = r;
        to_pfs = r + drained;
    }
    if (t == NULL)
        return;
    t->time_s += dt;
    t->stall_s += stall * dt;
    t->quiet_s += quiet * dt;
    t->empty_s += at0 ? dt : 0;
    t->full_s += atS ? dt : 0;
    t->content_Bs += (atS ? S : at0 ? 0 : 0.5 * (x0 + x1)) * dt;
    t->written_bytes += written * dt;
    t->to_pfs_bytes += to_pfs * dt;
    t->into_bb_bytes += into * dt;
    t->drained_bytes += drained * dt;
}

void
bbs_fluid_path_advance(bbs_fluid_path *p, double t_s, bbs_fluid_tally *tally)
{
    /* Each piece but the last ends on a boundary that changes the slope
     * (T then 0 going down, S going up), so four pieces always suffice. */
    for (int k = 0; k < 4 && p->t_s < t_s; k++) {
        double target = 0, v = slope(p, &target), dt = t_s - p->t_s;
        double x0 = p->x_bytes, x1 = x0;
        int snap = 0;

        if (v != 0) {
            double tb = (target - x0) / v;   /* >= 0: target lies ahead */

            if (tb <= dt) {
                dt = tb;
                snap = 1;
            }
            x1 = snap ? target : x0 + v * dt;
            /* rounding must not carry X past the boundary it heads for */
            if ((v > 0 && x1 > target) || (v < 0 && x1 < target))
                x1 = target;
        }
        integrate(p, tally, x0, x1, v, dt);
        p->v_s += piece_share(&p->pf, p->rate_Bps, v == 0) * dt;
        p->x_bytes = x1;
        p->t_s = snap && p->t_s + dt < t_s ? p->t_s + dt : t_s;
        p->pieces++;
    }
    assert(!(p->t_s < t_s));
}
