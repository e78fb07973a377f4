/* steady.h: steady-state output analysis of one long run, as cycle-level
 * network simulators do it: where the warm-up ends (MSER), and how precise
 * the steady-state mean is (batch means).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is a series x_0 .. x_{n-1} of consecutive batch averages of an
 * output (for example the load a network accepted in each interval of
 * equal length).
 *
 * MSER (White 1997; White, Cobb and Spratt 2000): the truncation point d
 * that minimises the standard error of the mean of what is left,
 *   MSER(d) = sum_{i >= d} (x_i - mean_d)^2 / (n - d)^2,
 * over 0 <= d <= n/2.  A minimum at d* < n/2 says the series has settled
 * after d* batches; a minimum at n/2 (the edge) says it has not yet, and
 * more batches are needed.  O(n).
 *
 * Batch means (Law and Kelton, ch. 9): the m observations after the
 * truncation are grouped into k consecutive groups of equal size
 * (m / k, the remainder dropped at the start), whose means are nearly
 * independent when the groups are long; the interval is the Student-t
 * interval of the k group means.  Grouping into a fixed number of groups
 * makes each group longer as the run goes on, so the correlation between
 * them fades. */
#ifndef BBSIZE_SIM_STEADY_H
#define BBSIZE_SIM_STEADY_H

#include <stddef.h>

/* bbs_mser: the MSER truncation point of x[0..n-1]: the d in [0, n/2]
 * minimising MSER(d) (the smallest such d on ties).  0 for n < 2. */
size_t bbs_mser(const double *x, size_t n);

/* bbs_batch_means: mean and 95% half-width of x[0..m-1] from k >= 2 groups
 * (m >= k); the groups hold floor(m / k) observations each, the first
 * m mod k observations are dropped.  Returns 0, or -1 when m < k or k < 2
 * (then *mean is the plain mean, or NAN for m = 0, and *half is inf). */
int bbs_batch_means(const double *x, size_t m, size_t k, double *mean, double *half);

#endif
