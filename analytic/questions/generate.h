/* generate.h: the random workload generator of Aupy et al. 2017
 * (Section 4.3, used again in Sections 5.3, 6.3 and 7.3).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * p_i ~ U(0, p_max), b_i ~ U(0, 1), then the b_i are scaled so that
 * sum p_i b_i = alpha * B.  Periods d_i ~ U(d_min, 2 d_min) when d_min > 0
 * (Section 6.3).  Draws come from GSL's mt19937 seeded with seed, in the
 * order p_1, b_1, d_1, p_2, ...; 2 or 3 uniforms per application. */
#ifndef BBSIZE_ANALYTIC_GENERATE_H
#define BBSIZE_ANALYTIC_GENERATE_H

#include <stddef.h>

#include "workload.h"

/* bba_generate_paper: fill apps[0..n-1] (names "app1".."appN") for a PFS of
 * pfs_bw_Bps bytes/s.  d_min_s = 0 leaves period_s = 0.
 * Errors: BB_EINVAL (n = 0, p_max outside (0, 1], alpha <= 0, pfs_bw <= 0). */
int bba_generate_paper(size_t n, double p_max, double alpha, double pfs_bw_Bps,
                       double d_min_s, unsigned long seed, bba_app *apps, char *err);

#endif
