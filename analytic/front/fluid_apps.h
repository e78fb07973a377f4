/* fluid_apps.h: a workload's applications as the fluid model's classes,
 * the one conversion that the analytic fluid model (answer.c) and the
 * fluid simulation (sim/fluidplat.c) both read.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Application i is the class of its rate (bytes/s), p, mean ON period
 * bba_app_on_period (its burst; a memoryless one of time unit u enters
 * with u / (1 - p)) and its count; equal classes are merged, counts
 * summed, in the order they first appear (fluid_classes.h), so a row of
 * count N and the row written out N times make the same classes.
 * O(n k) for n applications and k classes. */
#ifndef BBSIZE_ANALYTIC_FLUID_APPS_H
#define BBSIZE_ANALYTIC_FLUID_APPS_H

#include <stddef.h>

#include "fluid.h"
#include "workload.h"

/* bba_fluid_apps: the n applications at a time unit of time_unit_s (> 0)
 * as *nc classes in *out (owned: free()); of (n entries, or NULL) gets the
 * class of each application.  source and line (n file lines, or NULL)
 * name the file in messages ("FILE:LINE", or "FILE: application I";
 * "workload" when source is NULL).
 * Errors: BB_ENOMEM; the counts' errors (bba_apps_total); BB_EDATA
 * naming where and the field of an application with phases (0 < p < 1,
 * rate > 0) whose rate, mean ON period or mean OFF period L (1 - p) / p
 * is not finite, or any whose rate is not (a value that overflows once in
 * bytes/s or seconds, which no file's own check can see).  *out is NULL
 * and *nc 0 on error. */
int bba_fluid_apps(const bba_app *apps, size_t n, double time_unit_s, const long *line,
                   const char *source, bba_fluid_class **out, size_t *nc, size_t *of,
                   char *err);

#endif
