/* steady.c: MSER truncation and batch-means intervals (steady.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "steady.h"

size_t
bbs_mser(const double *x, size_t n)
{
    /* Sums over x[d..n-1] grow as d goes down from n/2 to 0, so each
     * MSER(d) costs O(1); they are taken about the last value, to keep
     * the cancellation in s2 - s^2 / m small. */
    double shift, s = 0, s2 = 0, best = INFINITY;
    size_t best_d = 0;

    if (n < 2)
        return 0;
    shift = x[n - 1];
    for (size_t i = n - 1; i > n / 2; i--) {
        s += x[i] - shift;
        s2 += (x[i] - shift) * (x[i] - shift);
    }
    for (size_t d = n / 2 + 1; d-- > 0;) {
        double m = (double)(n - d), ss, v;

        s += x[d] - shift;
        s2 += (x[d] - shift) * (x[d] - shift);
        ss = s2 - s * s / m;
        v = (ss > 0 ? ss : 0) / (m * m);
        if (v <= best) { /* going down: the smallest d wins ties */
            best = v;
            best_d = d;
        }
    }
    return best_d;
}

int
bbs_batch_means(const double *x, size_t m, size_t k, double *mean, double *half)
{
    size_t g, skip;
    double s = 0, s2 = 0, mu;

    *half = INFINITY;
    if (k < 2 || m < k) {
        for (size_t i = 0; i < m; i++)
            s += x[i];
        *mean = m > 0 ? s / (double)m : NAN;
        return -1;
    }
    g = m / k;
    skip = m - g * k;
    for (size_t j = 0; j < k; j++) {
        double b = 0;

        for (size_t i = 0; i < g; i++)
            b += x[skip + j * g + i];
        b /= (double)g;
        s += b;
        s2 += b * b;
    }
    mu = s / (double)k;
    *mean = mu;
    {
        double var = (s2 - s * mu) / (double)(k - 1);

        if (var < 0)
            var = 0;
        *half = gsl_cdf_tdist_Pinv(0.975, (double)(k - 1)) * sqrt(var / (double)k);
    }
    return 0;
}
