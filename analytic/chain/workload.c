/* workload.c: quantisation of a workload (workload.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "workload.h"

/* Largest bandwidth in quanta accepted: keeps M = sum b_i well inside a
 * long and the chain inside int indices for any sane n. */
#define BBA_MAX_QUANTA 100000000L

/* The mean ON run of app i in time units (onoff.h).  A two-state chain
 * with Pr(ON) = p and mean ON run L has ON->OFF probability a = 1/L and
 * OFF->ON probability c = a p/(1 - p); both must be probabilities, so
 * L >= 1 and L >= p/(1 - p).  L = 1/(1 - p) is the paper's memoryless
 * model (a = 1 - p, c = p).  p = 0 and p = 1 have one phase only: the
 * burst is ignored. */
static int
burst_check(const bba_app *a, size_t i, double tu_s, double *L, int *has, char *err)
{
    double p = a->p, lo, Lv;

    if (p >= 1.0 || p <= 0.0) {
        *L = p >= 1.0 ? 0.0 : 1.0;
        return BB_OK;
    }
    if (!(a->burst_s > 0)) {
        *L = 1.0 / (1.0 - p);
        return BB_OK;
    }
    Lv = a->burst_s / tu_s;
    lo = p / (1.0 - p) > 1.0 ? p / (1.0 - p) : 1.0;
    if (!isfinite(Lv) || Lv < lo * (1.0 - 1e-12)) {
        char bl[40], blo[40];

        bb_fmt_apart(Lv, lo, bl, blo, sizeof bl);
        return bb_seterr(err, BB_EINVAL,
                         "application %zu (%s): burst %.10g s is %s time units, shorter "
                         "than max(1, p/(1-p)) = %s time units: %s",
                         i + 1, a->name, a->burst_s, bl, blo,
                         Lv < 1.0 ? "an I/O phase lasts at least one time unit"
                                  : "with this p the gaps between bursts, of mean "
                                    "burst (1-p)/p, would be shorter than one time unit");
    }
    *L = Lv;
    if (fabs(Lv * (1.0 - p) - 1.0) > 1e-12)
        *has = 1;
    return BB_OK;
}

void
bba_quantized_free(bba_quantized *q)
{
    if (q == NULL)
        return;
    free(q->row);
    free(q->b);
    free(q->p);
    free(q->burst_tu);
    q->row = NULL;
    q->b = NULL;
    q->p = NULL;
    q->burst_tu = NULL;
}

double
bba_app_on_period(const bba_app *a, double time_unit_s)
{
    if (!(a->p > 0 && a->p < 1 && a->bw_Bps > 0))
        return 0;
    return a->burst_s > 0 ? a->burst_s : time_unit_s / (1.0 - a->p);
}

long
bba_app_count(const bba_app *a)
{
    return a->count > 0 ? a->count : 1;
}

int
bba_apps_total(const bba_app *apps, size_t n, size_t *total, char *err)
{
    size_t t = 0;

    *total = 0;
    for (size_t i = 0; i < n; i++) {
        if (apps[i].count < 0 || apps[i].count > BBA_COUNT_MAX)
            return bb_seterr(err, BB_EINVAL, "application %zu (%s): count %ld is not in "
                             "[1, %ld]", i + 1, apps[i].name, apps[i].count, BBA_COUNT_MAX);
        t += (size_t)bba_app_count(&apps[i]);
        if (t > (size_t)BBA_COUNT_MAX)
            return bb_seterr(err, BB_EINVAL, "application %zu (%s): the workload stands for "
                             "more than %ld applications in all", i + 1, apps[i].name,
                             BBA_COUNT_MAX);
    }
    *total = t;
    return BB_OK;
}

int
bba_quantize(const bba_app *apps, size_t n, const bba_platform *pf,
             bba_quantized *q, char *err)
{
    size_t nq, k;
    int rc;

    memset(q, 0, sizeof *q);
    if (!(pf->pfs_bw_Bps > 0) || !isfinite(pf->pfs_bw_Bps))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g B/s is not positive", pf->pfs_bw_Bps);
    if (!(pf->time_unit_s > 0) || !isfinite(pf->time_unit_s))
        return bb_seterr(err, BB_EINVAL, "time unit %g s is not positive", pf->time_unit_s);
    if (pf->resolution < 1 || pf->resolution > BBA_MAX_QUANTA)
        return bb_seterr(err, BB_EINVAL, "resolution %ld is outside [1, %ld]",
                         pf->resolution, BBA_MAX_QUANTA);
    if (!(pf->bb_bw_Bps >= 0) || !isfinite(pf->bb_bw_Bps))
        return bb_seterr(err, BB_EINVAL, "burst-buffer bandwidth %g B/s is negative", pf->bb_bw_Bps);
    if (n == 0)
        return bb_seterr(err, BB_EINVAL, "the workload has no application");
    if ((rc = bba_apps_total(apps, n, &nq, err)) != BB_OK)
        return rc;

    q->n = nq;
    q->row = malloc(nq * sizeof *q->row);
    q->b = malloc(nq * sizeof *q->b);
    q->p = malloc(nq * sizeof *q->p);
    q->burst_tu = malloc(nq * sizeof *q->burst_tu);
    if (q->row == NULL || q->b == NULL || q->p == NULL || q->burst_tu == NULL) {
        bba_quantized_free(q);
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", nq);
    }
    q->B = pf->resolution;
    q->quantum_bytes = pf->pfs_bw_Bps * pf->time_unit_s / (double)pf->resolution;
    if (!isfinite(q->quantum_bytes) || q->quantum_bytes < DBL_MIN) {
        bba_quantized_free(q);
        return bb_seterr(err, BB_EINVAL, "the quantum (PFS bandwidth %g B/s times the time unit "
                         "%g s over resolution %ld) is %g bytes: %s", pf->pfs_bw_Bps,
                         pf->time_unit_s, pf->resolution, q->quantum_bytes,
                         isfinite(q->quantum_bytes) ? "too small to represent" : "it overflows");
    }
    {
        /* A burst buffer faster than LONG_MAX / 4 quanta per time unit
         * outruns any load a model can hold: clamp it there (llround of a
         * larger value is undefined, and made P(load > B + B_BB) = 1). */
        double bbq = pf->bb_bw_Bps / pf->pfs_bw_Bps * (double)pf->resolution;

        q->bb_bw = bbq >= (double)(LONG_MAX / 4) ? LONG_MAX / 4 : (long)llround(bbq);
        if (pf->bb_bw_Bps > 0 && q->bb_bw == 0) {
            /* 0 quanta is "no limit": the slowest buffer would answer as
             * the fastest */
            double rmin = ceil(pf->pfs_bw_Bps / pf->bb_bw_Bps);

            bba_quantized_free(q);
            return bb_seterr(err, BB_EINVAL, "the burst-buffer bandwidth %g B/s is %.3g of a "
                             "quantum per time unit at resolution %ld and would round to none, "
                             "that is to no limit: give a resolution of %.0f or more (one "
                             "quantum of it at least), or use the fluid model (no quanta)", pf->bb_bw_Bps,
                             bbq, pf->resolution, rmin);
        }
    }
    for (size_t i = 0, k0 = 0; i < n; i++) {
        double x, r, L = 0;
        long b;
        int has = 0;

        if (!(apps[i].p >= 0.0 && apps[i].p <= 1.0)) {
            bba_quantized_free(q);
            return bb_seterr(err, BB_EINVAL, "application %zu (%s): p = %g is not in [0, 1]",
                             i + 1, apps[i].name, apps[i].p);
        }
        if (!(apps[i].bw_Bps >= 0) || !isfinite(apps[i].bw_Bps)) {
            bba_quantized_free(q);
            return bb_seterr(err, BB_EINVAL, "application %zu (%s): bandwidth %g B/s is not "
                             "a non-negative number", i + 1, apps[i].name, apps[i].bw_Bps);
        }
        x = apps[i].bw_Bps / pf->pfs_bw_Bps * (double)pf->resolution;
        if (x > (double)BBA_MAX_QUANTA) {
            bba_quantized_free(q);
            char ratio[32];

            if (isfinite(x))
                snprintf(ratio, sizeof ratio, "%.3g times", x / (double)pf->resolution);
            else
                snprintf(ratio, sizeof ratio, "over %.3g times", DBL_MAX);
            return bb_seterr(err, BB_EINVAL, "application %zu (%s): bandwidth %g B/s is %s "
                             "the PFS bandwidth (%g B/s), more than %ld quanta at "
                             "resolution %ld: check the PFS bandwidth and the application's, "
                             "or lower the resolution", i + 1, apps[i].name, apps[i].bw_Bps,
                             ratio, pf->pfs_bw_Bps, BBA_MAX_QUANTA,
                             pf->resolution);
        }
        b = (long)llround(x);
        if (burst_check(&apps[i], i, pf->time_unit_s, &L, &has, err) != BB_OK) {
            bba_quantized_free(q);
            return BB_EINVAL;
        }
        q->has_burst |= has;
        /* the rows written out: count identical entries */
        for (k = k0; k < k0 + (size_t)bba_app_count(&apps[i]); k++) {
            q->row[k] = i;
            q->b[k] = b;
            q->p[k] = apps[i].p;
            q->burst_tu[k] = L;
        }
        k0 = k;
        r = fabs((double)b - x) * q->quantum_bytes;
        if (r > q->max_round_bytes)
            q->max_round_bytes = r;
    }
    return BB_OK;
}
