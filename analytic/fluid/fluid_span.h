/* fluid_span.h: the fluid model's precision rule: the span of a workload's
 * time scales that its spectral solve and boundary conditions resolve in
 * double precision, and the failure of a solve beyond it said as the
 * input's (fluid_span.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_FLUID_SPAN_H
#define BBSIZE_ANALYTIC_FLUID_SPAN_H

#include <stddef.h>

#include "workload.h"

/* The widest span of time scales (longest over shortest) the fluid model
 * resolves.  Measured: bursts of 3 and 1e13 time units leave a residual
 * of 1e-6, 1e17 a singular boundary block; 3 and 1e12 answer. */
#define BBA_FLUID_SPAN_MAX 1e12

/* bba_fluid_span: the span of the time scales of apps[0..n): its longest
 * burst (s) over the shortest of its bursts and time_unit_s (the time
 * unit memoryless applications enter with), in *lo_s and *hi_s; returns
 * hi / lo when it is beyond BBA_FLUID_SPAN_MAX, else 0.  Pure, O(n). */
double bba_fluid_span(const bba_app *apps, size_t n, double time_unit_s, double *lo_s,
                      double *hi_s);

/* bba_fluid_precision: st, a fluid solve's failure on apps[0..n) at
 * time_unit_s with message err (errlen bytes): when st is numerical
 * (BB_ESINGULAR, BB_ENOCONV) or BB_EDATA and the span is beyond
 * BBA_FLUID_SPAN_MAX, the input is beyond the model's precision: returns
 * BB_EDATA and appends to err the span and what to shorten; else returns
 * st, err unchanged.  O(n). */
int bba_fluid_precision(const bba_app *apps, size_t n, double time_unit_s, int st, char *err,
                        size_t errlen);

#endif
