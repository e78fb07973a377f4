/* measures.h: what the stationary distribution says about the platform
 * (Theorems 3 and 5 of Aupy et al. 2017).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * All functions take the chain and its stationary distribution pi and run
 * in O(nnz) or O(n_states) time without allocating. */
#ifndef BBSIZE_ANALYTIC_MEASURES_H
#define BBSIZE_ANALYTIC_MEASURES_H

#include "chain.h"

typedef struct {
    double idle;          /* fraction of time units stalled (overflow and,
                             with B_BB, throttle stalls): sum_{k > S} pi(k)
                             (Theorems 3, 5).  In the chain of chain.h
                             every application stalls together; in the
                             ON/OFF chain (onoff.h) the writers wait and
                             the computing applications compute on.  Equal
                             to stalled */
    double quiet;         /* fraction of time units in which the buffer is
                             not drained: sum_{k <= S} pi(k) sum_{l >= k} P(k,l)
                             (Theorem 5; defined for both policies) */
    double mean_load;     /* mean buffer occupancy over normal states,
                             sum_{k<=S} k pi(k) / sum_{k<=S} pi(k), quanta */
    double p_empty;       /* pi(0) */
    double p_full;        /* probability the occupancy is S or beyond
                             (normal state S plus overflow states) */
    double log10_idle;    /* log10(idle), finite below the double range
                             (FFT solver); -inf when idle is exactly 0;
                             NAN when it underflowed in a chain solver
                             (banded GTH, UMFPACK, Gauss-Seidel, the ON/OFF
                             chain), whose order is then unknown */
    double stalled;       /* fraction of time units in which every
                             application is stalled (overflow and, with
                             B_BB, throttle stalls): the overflow states'
                             mass in the uncensored chain */
    double bb_in;         /* mean quanta written into the buffer per time
                             unit, every unit counted (endurance.h); set by
                             bba_eval, not by bba_measures_compute */
} bba_measures;

/* bba_measures_compute: fill *m from chain c and stationary pi. */
void bba_measures_compute(const bba_chain *c, const double *pi, bba_measures *m);

/* bba_occupancy_quantile: smallest load x (quanta, 0..S) such that
 * Pr(occupancy <= x | not overflowing) >= q, q in [0, 1]. */
long bba_occupancy_quantile(const bba_chain *c, const double *pi, double q);

#endif
