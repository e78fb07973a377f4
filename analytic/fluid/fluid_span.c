/* fluid_span.c: the fluid model's precision rule (fluid_span.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_span.h"

double
bba_fluid_span(const bba_app *apps, size_t n, double time_unit_s, double *lo_s, double *hi_s)
{
    *lo_s = time_unit_s;
    *hi_s = 0;
    for (size_t i = 0; i < n; i++) {
        double b = apps[i].burst_s;

        if (b > 0 && b < *lo_s)
            *lo_s = b;
        if (b > *hi_s)
            *hi_s = b;
    }
    return *lo_s > 0 && *hi_s / *lo_s > BBA_FLUID_SPAN_MAX ? *hi_s / *lo_s : 0;
}

int
bba_fluid_precision(const bba_app *apps, size_t n, double time_unit_s, int st, char *err,
                    size_t errlen)
{
    double lo, hi, span = bba_fluid_span(apps, n, time_unit_s, &lo, &hi);
    size_t o = strlen(err);

    if (span == 0 || !(st == BB_ESINGULAR || st == BB_ENOCONV || st == BB_EDATA))
        return st;
    /* not an internal failure: an input beyond the model's precision */
    if (o < errlen)
        snprintf(err + o, errlen - o, "; the workload's time scales span %.3g (bursts of up "
                 "to %g s against %g s), beyond the %.0e the fluid model resolves in double "
                 "precision: shorten the longest bursts (a burst far longer than the buffer "
                 "takes to fill acts as one that never ends) or give the shortest ones a "
                 "longer time unit", span, hi, lo, BBA_FLUID_SPAN_MAX);
    return BB_EDATA;
}
