/* parfor.h: a loop of independent iterations split over the machine's
 * processors, for the O(P) per mode loops of the fluid model's spectrum
 * and far block (tens of milliseconds each at 2,048 phases).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_PARFOR_H
#define BBSIZE_ANALYTIC_PARFOR_H

/* The most threads a loop uses (each chunk's scratch is the caller's). */
#define BBA_PAR_MAX 8

/* bba_parfor: [0, n) cut into T contiguous chunks, T the smallest of
 * BBA_PAR_MAX, the processors online and n / grain (at least 1); chunk t
 * is fn(ctx, lo, hi, t), chunk 0 on the calling thread, the others on
 * threads of their own (a chunk whose thread cannot start runs on the
 * caller).  The result does not depend on T when the chunks write
 * disjoint data and the caller combines per-chunk results by an exact
 * operation (max, or in chunk order); bba_par_threads gives T before
 * the loop, to size per-chunk scratch.  Returns 0 or the first non-zero
 * return of a chunk, in chunk order. */
int bba_parfor(long n, long grain, int (*fn)(void *ctx, long lo, long hi, int t), void *ctx);

/* T for a loop of n iterations of at least grain each */
int bba_par_threads(long n, long grain);

#endif
