/* chain.h: the burst-buffer load Markov chains of Aupy et al. 2017, greedy
 * draining (Algorithm 2, Section 5.1) and lazy draining (Algorithm 4,
 * Section 7.2), built as a sparse transition matrix.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything is in quanta.  States 0..S are "normal" (buffer load j);
 * states S+1..S+M-B are "overflow" states (M = sum b_i, B = PFS bandwidth
 * per time unit): the largest reachable load is S + M - B, so there are
 * n_states = S + max(M - B, 0) + 1 states.
 *
 * Transitions, derived from the algorithms themselves (the printed matrices
 * have errata, listed in README.md):
 *   normal j, instant load k:  j -> max(j + k - B, 0)   (greedy, and lazy
 *                              when j >= THRESHOLD);
 *   lazy, j < THRESHOLD:       k > B: j -> j + k - B; k <= B: j stays with
 *                              probability 1 - EPS, else j -> max(j+k-B, 0);
 *   overflow j > S:            j -> max(j - B, 0) with probability 1 (every
 *                              application stalls one time unit).
 * With THRESHOLD = 0 the lazy chain is the greedy chain.
 *
 * Storage: P in compressed sparse rows (row j = transitions out of j,
 * column indices increasing).  A normal row has at most M + 2 entries and
 * an overflow row one, so nnz <= (S + 1)(M + 2) + (M - B).  Building is
 * O(nnz) time.  Indices are int so that UMFPACK's di interface takes them
 * as they are; bba_chain_estimate says when that or the memory budget
 * would be exceeded. */
#ifndef BBSIZE_ANALYTIC_CHAIN_H
#define BBSIZE_ANALYTIC_CHAIN_H

#include <stddef.h>

#include "drain.h"

/* The draining policy is drain.h's; the chains take its threshold in
 * quanta (BB_DRAIN_QUANTA), 0 <= THRESHOLD <= S, and EPS 0 or in
 * [BBA_EPS_MIN, 1]: the probability of draining below the threshold. */

typedef struct {
    long S;            /* buffer size, quanta */
    long B;            /* PFS bandwidth, quanta per time unit */
    long M;            /* sum of application bandwidths, quanta */
    long n_states;     /* S + max(M - B, 0) + 1 */
    long nnz;          /* stored transitions */
    bb_drain pol;
    int *rowptr;       /* n_states + 1 */
    int *col;          /* nnz, increasing within a row */
    double *val;       /* nnz, transition probabilities */
} bba_chain;

/* bba_chain_estimate: states, an upper bound on the nonzeros, and the bytes
 * bba_chain_build would allocate for a chain with these dimensions (all in
 * quanta).  O(1), cannot fail; outputs may be NULL. */
void bba_chain_estimate(long S, long B, long M, long *n_states,
                        long *nnz_max, double *bytes);

/* bba_chain_build: build P for buffer size S (quanta), PFS bandwidth B
 * (quanta per time unit, > 0) and DIST over 0..M (dist[k] = Pr(load = k)).
 * mem_limit_bytes bounds the allocation (0: no bound).  On success *out owns
 * the chain (free with bba_chain_free).
 * Errors: BB_EINVAL (S < 0, B <= 0, threshold outside [0, S], eps outside
 * [0, 1]); BB_ETOOBIG (the chain needs more than mem_limit_bytes or more
 * than INT_MAX states or nonzeros: the message gives states and bytes);
 * BB_ENOMEM.  Zero probabilities are not stored. */
int bba_chain_build(const double *dist, long M, long B, long S,
                    const bb_drain *pol, double mem_limit_bytes,
                    bba_chain **out, char *err);

/* bba_chain_free: release a chain; NULL is a no-op. */
void bba_chain_free(bba_chain *c);

/* bba_chain_check_reachable: whether state 0 can be reached from every
 * state (then the chain has a unique stationary distribution, Theorems 2
 * and 4, even with some p_i = 1).  O(nnz) time, O(n_states) memory.
 * Errors: BB_EDATA naming the lowest state that cannot reach 0 and the
 * reason; BB_ENOMEM. */
int bba_chain_check_reachable(const bba_chain *c, char *err);

/* bba_chain_row_sum: sum of row j of P (1 up to rounding).  O(row). */
double bba_chain_row_sum(const bba_chain *c, long j);

#endif
