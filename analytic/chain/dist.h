/* dist.h: the instantaneous load distribution DIST (Algorithm 1 of Aupy,
 * Beaumont, Eyraud-Dubois 2017, Section 4.2), its moments and tails, and the
 * Chernoff-type bounds of Theorem 1 / Section 4.3.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loads are integers in quanta (see workload.h).  X = sum_i b_i X_i with
 * X_i ~ Bernoulli(p_i) independent; DIST(k) = Pr(X = k) for k = 0..M,
 * M = sum_i b_i (M + 1 entries: the paper's "size sum b_i" misses load 0).
 * Typical sizes: n <= 100 applications, M <= a few 10^4 quanta; the whole
 * computation is O(n M) time and O(M) memory. */
#ifndef BBSIZE_ANALYTIC_DIST_H
#define BBSIZE_ANALYTIC_DIST_H

#include <stddef.h>

/* bba_dist_support: M = sum_i b_quanta[i] into *m_out.
 * Errors: BB_EINVAL if a b is negative or the sum overflows a long. */
int bba_dist_support(size_t n, const long *b_quanta, long *m_out, char *err);

/* bba_dist_compute: Algorithm 1.  dist must hold M + 1 doubles (M from
 * bba_dist_support); on return dist[k] = Pr(X = k).  p[i] in [0, 1].
 * Each application is folded in with the update
 * DIST(k) <- (1 - p_i) DIST(k) + p_i DIST(k - b_i), run downwards in k so
 * that one array suffices.  O(n M) time, no allocation.  Cannot fail. */
void bba_dist_compute(size_t n, const long *b_quanta, const double *p,
                      long m, double *dist);

/* Moments of X in quanta: mean = sum p_i b_i, variance = sum p_i (1-p_i) b_i^2,
 * nu = sum p_i b_i^2 (Theorem 1), bmax = max b_i.  O(n). */
typedef struct {
    double mean;
    double variance;
    double nu;
    double bmax;
} bba_moments;
void bba_dist_moments(size_t n, const long *b_quanta, const double *p,
                      bba_moments *out);

/* bba_dist_tail: Pr(X > x) from DIST (x in quanta, any real; summed from
 * the top for accuracy in the tail).  O(M). */
double bba_dist_tail(const double *dist, long m, double x);

/* Bounds on the CDF F(x) = Pr(X <= x), Section 4.3 as corrected:
 *   f_u(x) = exp(-(E - x)^2 / (2 nu))            for x <  E, else 1;
 *   f_l(x) = 1 - exp(-(x - E)^2 / (2 (nu + bmax (x - E) / 3)))  for x >= E,
 *            else 0.
 * (The paper prints f_l as the upper-tail bound itself and "f_u = 0" in its
 * second bullet; Theorem 1 gives the forms above.)  Then
 * f_l(x) <= F(x) <= f_u(x) for every x.  nu = 0 (a constant load) is
 * handled as the step function at E.  O(1). */
double bba_chernoff_cdf_upper(const bba_moments *m, double x);
double bba_chernoff_cdf_lower(const bba_moments *m, double x);

#endif
