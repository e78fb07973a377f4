/* dist.c: Algorithm 1 (DIST), moments, tails and Chernoff bounds.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "bb_error.h"
#include "dist.h"

int
bba_dist_support(size_t n, const long *b_quanta, long *m_out, char *err)
{
    long m = 0;

    for (size_t i = 0; i < n; i++) {
        if (b_quanta[i] < 0)
            return bb_seterr(err, BB_EINVAL,
                             "application %zu: negative bandwidth %ld quanta",
                             i + 1, b_quanta[i]);
        if (b_quanta[i] > LONG_MAX - m)
            return bb_seterr(err, BB_EINVAL,
                             "total bandwidth overflows (%zu applications)", n);
        m += b_quanta[i];
    }
    *m_out = m;
    return BB_OK;
}

void
bba_dist_compute(size_t n, const long *b_quanta, const double *p, long m,
                 double *dist)
{
    long top = 0; /* highest load reachable with the applications so far */

    memset(dist, 0, (size_t)(m + 1) * sizeof *dist);
    dist[0] = 1.0;
    for (size_t i = 0; i < n; i++) {
        long b = b_quanta[i];
        double pi = p[i], qi = 1.0 - p[i];

        if (b == 0 || pi == 0.0)
            continue;
        top += b;
        /* Downwards, so DIST(k - b) is still the old value (Algorithm 1,
         * lines 4-5, in place). */
        for (long k = top; k >= b; k--)
            dist[k] = qi * dist[k] + pi * dist[k - b];
        for (long k = b - 1; k >= 0; k--)
            dist[k] = qi * dist[k];
    }
}

void
bba_dist_moments(size_t n, const long *b_quanta, const double *p,
                 bba_moments *out)
{
    double mean = 0, var = 0, nu = 0, bmax = 0;

    for (size_t i = 0; i < n; i++) {
        double b = (double)b_quanta[i];

        mean += p[i] * b;
        var += p[i] * (1.0 - p[i]) * b * b;
        nu += p[i] * b * b;
        if (b > bmax)
            bmax = b;
    }
    out->mean = mean;
    out->variance = var;
    out->nu = nu;
    out->bmax = bmax;
}

double
bba_dist_tail(const double *dist, long m, double x)
{
    double s = 0;

    if (x < 0)
        return 1.0;
    for (long k = m; k >= 0 && (double)k > x; k--)
        s += dist[k];
    return s > 1.0 ? 1.0 : s;
}

double
bba_chernoff_cdf_upper(const bba_moments *m, double x)
{
    double lambda;

    if (x >= m->mean)
        return 1.0;
    if (m->nu <= 0)
        return 0.0; /* X is the constant E > x */
    lambda = m->mean - x;
    return exp(-lambda * lambda / (2.0 * m->nu));
}

double
bba_chernoff_cdf_lower(const bba_moments *m, double x)
{
    double lambda;

    if (x < m->mean)
        return 0.0;
    if (m->nu <= 0)
        return 1.0;
    lambda = x - m->mean;
    return 1.0 - exp(-lambda * lambda / (2.0 * (m->nu + m->bmax * lambda / 3.0)));
}
