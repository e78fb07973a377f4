/* bbbw.c: the burst buffer's bandwidth as a transform of the load law
 * (bbbw.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bbbw.h"

double
bba_bbbw_throttle(const double *dist, long M, long B, long bb_bw, double *out)
{
    long cap = B + bb_bw;
    double cbar = 0;

    memset(out, 0, ((size_t)M + 1) * sizeof *out);
    for (long k = 0; k <= M; k++) {
        long num = k - cap, t0;
        double frac;

        if (num <= 0 || dist[k] == 0) {
            out[k] += dist[k];
            continue;
        }
        /* c = num / cap exactly: t0 whole units, frac of one more */
        t0 = num / cap;
        frac = (double)(num % cap) / (double)cap;
        cbar += dist[k] * ((double)t0 + frac);
        /* k - (t0 + 1) B >= k - (1 + c) B = k B_BB / (B + B_BB) > 0 */
        out[k - t0 * B] += dist[k] * (1.0 - frac);
        if (frac > 0)
            out[k - (t0 + 1) * B] += dist[k] * frac;
    }
    return cbar;
}

double
bba_bbbw_stall(const double *dist, long M, long B, long bb_bw)
{
    double cbar = 0;

    if (bb_bw <= 0)
        return 0;
    for (long k = B + bb_bw + 1; k <= M; k++)
        cbar += dist[k] * (double)(k - B - bb_bw) / (double)(B + bb_bw);
    return cbar;
}

void
bba_bbbw_apply(double cbar, bba_measures *m)
{
    double n, tot;

    if (!(cbar > 0))
        return;
    n = 1.0 - m->idle;
    tot = 1.0 + cbar * n;
    m->idle = (m->idle + cbar * n) / tot;
    m->quiet /= tot;
    m->p_empty /= tot;
    m->p_full /= tot;
    m->bb_in /= tot;
    m->log10_idle = m->idle > 0 ? log10(m->idle) : m->log10_idle;
    m->stalled = m->idle; /* fresh draws: every stalled unit is idle */
}

long
bba_bbbw_min(const double *dist, long M, long B, double target)
{
    double lim = target / (1.0 - target);
    long lo = 0, hi = M;   /* stall(lo) > lim (or lo = 0: unlimited), stall(hi) = 0 */

    if (M <= B + 1)
        return 0;
    if (bba_bbbw_stall(dist, M, B, 1) <= lim)
        return 1;
    lo = 1;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;

        if (bba_bbbw_stall(dist, M, B, mid) <= lim)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}
