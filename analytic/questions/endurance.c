/* endurance.c: the volume into the burst buffer and the capacity a drive
 * rating needs (endurance.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "bb_error.h"
#include "endurance.h"

/* cum[t] = sum_{u >= t} Pr(K > u) for t = 0..M (0 at M): then
 * sum_{x=0}^{c-1} Pr(K > t0 + x) = cum[t0] - cum[t0 + c], with the
 * arguments clamped to [0, M] (Pr(K > u) = 0 for u >= M) and Pr(K > u) = 1
 * for u < 0 counted apart. */
static double *
tail_cum(const double *law, long M)
{
    double *cum = malloc(((size_t)M + 2) * sizeof *cum), tail = 0;

    if (cum == NULL)
        return NULL;
    cum[M + 1] = 0;
    cum[M] = 0;
    /* tail(u) = Pr(K > u) = sum_{k > u} law[k], from the top */
    for (long u = M - 1; u >= 0; u--) {
        tail += law[u + 1];
        cum[u] = cum[u + 1] + (tail > 1 ? 1 : tail);
    }
    return cum;
}

/* sum_{x=0}^{c-1} Pr(K > t0 + x), c >= 0, any t0 (t0 + c < 0 included: a
 * phase's load above B by more than the free room, ones only). */
static double
tail_sum(const double *cum, long M, long t0, long c)
{
    double s = 0;
    long a, b;

    if (c <= 0)
        return 0;
    if (t0 < 0) {
        long ones = -t0 < c ? -t0 : c;   /* Pr(K > u) = 1 for u < 0 */

        s += (double)ones;
        t0 += ones;
        c -= ones;
        if (c == 0)             /* all of them below 0: t0 is still < 0 */
            return s;
    }
    a = t0 > M ? M : t0;
    b = t0 + c > M ? M : t0 + c;
    return s + cum[a] - cum[b];
}

double
bba_bbin_chain(const double *dist, long M, long B, long S, const double *pi)
{
    double *cum = tail_cum(dist, M), w = 0;

    if (cum == NULL)
        return NAN;
    for (long j = 0; j <= S; j++)
        if (pi[j] > 0)
            w += pi[j] * tail_sum(cum, M, B, S - j);
    free(cum);
    return w;
}

double
bba_bbin_onoff(const bba_onoff *m, long S, const double *x, double stalled)
{
    double *cum = tail_cum(m->D0, m->M0), w = 0;
    long P = m->n_phases;

    if (cum == NULL)
        return NAN;
    for (long j = 0; j <= S; j++)
        for (long f = 0; f < P; f++) {
            double xv = x[j * P + f];

            /* min((kf + K0 - B)+, S - j) = sum_x Pr(K0 > B - kf + x) */
            if (xv > 0)
                w += xv * tail_sum(cum, m->M0, m->B - m->phase_load[f], S - j);
        }
    free(cum);
    return w * (1.0 - stalled);
}

int
bba_endurance_check(const bba_endurance *e, char *err)
{
    if (!(e->dwpd > 0) || !isfinite(e->dwpd))
        return bb_seterr(err, BB_EINVAL, "drive writes per day %g is not positive", e->dwpd);
    if (!(e->rated_years > 0) || !isfinite(e->rated_years))
        return bb_seterr(err, BB_EINVAL, "the rating's period %g years is not positive",
                         e->rated_years);
    if (!(e->lifetime_years > 0) || !isfinite(e->lifetime_years))
        return bb_seterr(err, BB_EINVAL, "lifetime %g years is not positive", e->lifetime_years);
    if (!(e->waf >= 1) || !isfinite(e->waf))
        return bb_seterr(err, BB_EINVAL, "write amplification %g is below 1", e->waf);
    return BB_OK;
}

double
bba_endurance_bytes(const bba_endurance *e, double write_Bps)
{
    if (isnan(write_Bps))
        return NAN;
    if (!(write_Bps > 0))
        return 0;
    return write_Bps * 86400.0 * e->waf * e->lifetime_years / (e->dwpd * e->rated_years);
}

double
bba_drive_writes_per_day(double write_Bps, double S_bytes)
{
    if (isnan(write_Bps) || !(S_bytes > 0))
        return NAN;
    return write_Bps * 86400.0 / S_bytes;
}
