/* fluid_apps.c: the applications as fluid classes (fluid_apps.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bb_error.h"
#include "fluid_apps.h"
#include "fluid_classes.h"

/* "FILE:LINE" or "FILE: application I" when the lines are not known. */
static void
where(char *buf, size_t len, const char *source, const long *line, size_t i)
{
    if (line)
        snprintf(buf, len, "%s:%ld", source ? source : "workload", line[i]);
    else
        snprintf(buf, len, "%s: application %zu", source ? source : "workload", i + 1);
}

/* Application a's rate, ON period and OFF period are finite (where i is). */
static int
app_check(const bba_app *a, const bba_fluid_class *x, size_t i, double time_unit_s,
          const long *line, const char *source, char *err)
{
    char at[512];

    if (isfinite(a->bw_Bps) && !bba_fluid_class_has_phase(x))
        return BB_OK;
    where(at, sizeof at, source, line, i);
    if (!isfinite(a->bw_Bps))
        return bb_seterr(err, BB_EDATA, "%s: field 'bw': the rate at a time unit of %g s "
                         "is not finite", at, time_unit_s);
    if (!isfinite(x->burst_s))
        return bb_seterr(err, BB_EDATA, "%s: field 'burst': the mean ON period at a time "
                         "unit of %g s is not a finite duration", at, time_unit_s);
    if (!isfinite(x->burst_s * (1 - a->p) / a->p))
        return bb_seterr(err, BB_EDATA, "%s: field 'p': %g with a mean ON period of %g s "
                         "gives a mean OFF period L (1 - p)/p that is not finite", at, a->p,
                         x->burst_s);
    return BB_OK;
}

int
bba_fluid_apps(const bba_app *apps, size_t n, double time_unit_s, const long *line,
               const char *source, bba_fluid_class **out, size_t *nc, size_t *of, char *err)
{
    bba_fluid_class *c;
    size_t total, k = 0;
    int rc;

    *out = NULL;
    *nc = 0;
    if ((rc = bba_apps_total(apps, n, &total, err)) != BB_OK)
        return rc;
    if ((c = calloc(n ? n : 1, sizeof *c)) == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", n);
    for (size_t i = 0; i < n; i++) {
        const bba_app *a = &apps[i];
        bba_fluid_class x = { a->bw_Bps, a->p, bba_app_on_period(a, time_unit_s),
                              (int)bba_app_count(a) };
        size_t j;

        if ((rc = app_check(a, &x, i, time_unit_s, line, source, err)) != BB_OK) {
            free(c);
            return rc;
        }
        if ((j = bba_fluid_class_find(c, k, &x)) < k)
            c[j].count += x.count;
        else
            c[j = k++] = x;
        if (of)
            of[i] = j;
    }
    *out = c;
    *nc = k;
    return BB_OK;
}
