/* fluid_bufferless.c: bounds on the stall fraction at S = 0 by
 * convolution (fluid_bufferless.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_bufferless.h"

#define NB BBA_BUFFERLESS_BINS
#define DROP 1e-20   /* of the class's normalised law */

/* One rate law on the grid: d[0..NB-1] (bin j: rate j h), the mass above
 * it, the support's last bin. */
typedef struct {
    double *d, *t; /* the law, a scratch of the same size */
    double above;
    size_t top;
} law;

/* d <- d convolved with the class (weights w[k] at bins ix[k], k <= K),
 * bins from NB on added to the mass above */
static void
convolve(law *x, const double *w, const size_t *ix, long K)
{
    double above = 0, tot = 0;
    size_t top = 0;

    memset(x->t, 0, NB * sizeof *x->t);
    for (size_t j = 0; j <= x->top; j++)
        tot += x->d[j];
    for (long k = 0; k <= K; k++) {
        size_t s = ix[k], m;
        double out = 0;

        if (w[k] == 0)
            continue;
        above += w[k] * x->above;
        if (s >= NB) {
            above += w[k] * tot;
            continue;
        }
        m = x->top + 1 < NB - s ? x->top + 1 : NB - s;
        for (size_t j = 0; j < m; j++)
            x->t[s + j] += w[k] * x->d[j];
        for (size_t j = m; j <= x->top; j++)   /* summed, not 1 - the rest: no cancellation */
            out += x->d[j];
        above += w[k] * out;
        if (s + m - 1 > top)
            top = s + m - 1;
    }
    memcpy(x->d, x->t, (top + 1) * sizeof *x->d);
    memset(x->d + top + 1, 0, (NB - top - 1) * sizeof *x->d);
    x->top = top;
    x->above = above;
}

int
bba_fluid_bufferless(const bba_fluid_class *c, size_t n, double B, double *lo, double *hi,
                     char *err)
{
    double base = 0, peak = 0, h, dropped = 0, shift, *w = NULL;
    size_t *ix = NULL, rounded = 1;
    long Kmax = 0;
    law x;
    int rc = BB_OK;

    *lo = *hi = 0;
    if (!(B > 0) || !isfinite(B))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g B/s is not positive", B);
    for (size_t i = 0; i < n; i++) {
        if (!(c[i].p >= 0 && c[i].p <= 1) || !(c[i].rate_Bps >= 0) || !isfinite(c[i].rate_Bps)
            || c[i].count < 0)
            return bb_seterr(err, BB_EINVAL, "class %zu: p %g, rate %g B/s or count %d out "
                             "of range", i + 1, c[i].p, c[i].rate_Bps, c[i].count);
        if (c[i].p >= 1)
            base += c[i].count * c[i].rate_Bps;
        else if (c[i].p > 0)
            peak += c[i].count * c[i].rate_Bps;
        if (c[i].count > Kmax)
            Kmax = c[i].count;
    }
    if (base + peak <= B)
        return BB_OK;
    h = 2 * fmax(B, base) / NB;
    memset(&x, 0, sizeof x);
    w = malloc((size_t)(Kmax + 1) * sizeof *w);
    ix = malloc((size_t)(Kmax + 1) * sizeof *ix);
    x.d = calloc(NB, sizeof *x.d);
    x.t = malloc(NB * sizeof *x.t);
    if (w == NULL || ix == NULL || x.d == NULL || x.t == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the bufferless stall");
        goto out;
    }
    {
        double b0 = nearbyint(base / h);

        if (b0 >= NB)
            x.above = 1;
        else
            x.d[(size_t)b0] = 1;
        x.top = b0 < NB ? (size_t)b0 : 0;
    }
    for (size_t i = 0; i < n; i++) {
        const double p = c[i].p, b = c[i].rate_Bps;
        const long N = c[i].count;
        double big = -INFINITY, sum = 0;

        if (!(p > 0 && p < 1 && b > 0 && N > 0))
            continue;
        for (long k = 0; k <= N; k++) {
            w[k] = lgamma(N + 1.0) - lgamma(k + 1.0) - lgamma(N - k + 1.0) + k * log(p)
                   + (N - k) * log1p(-p);
            big = fmax(big, w[k]);
        }
        /* the terms normalised to sum 1 (lgamma's rounding would leave
         * about 1e-13 a class unaccounted), the dropped ones counted */
        for (long k = 0; k <= N; k++) {
            double q = nearbyint(k * b / h);

            w[k] = exp(w[k] - big);
            sum += w[k];
            ix[k] = q >= NB ? NB : (size_t)q;
        }
        for (long k = 0; k <= N; k++) {
            w[k] /= sum;
            if (w[k] < DROP) {
                dropped += w[k];
                w[k] = 0;
            }
        }
        rounded++;
        convolve(&x, w, ix, N);
    }
    /* every rounding moved the rate by at most h / 2: the true rate of
     * bin j is within shift of j h */
    shift = rounded * 0.5 * h;
    {
        double sl = 0, sh = 0, top = NB * h;

        for (size_t j = 0; j <= x.top; j++) {
            double r = j * h;

            if (r - shift > B)
                sl += x.d[j] * (r - shift - B) / (r - shift);
            if (r + shift > B)
                sh += x.d[j] * (r + shift - B) / (r + shift);
        }
        *lo = sl + (top - shift > B ? x.above * (top - shift - B) / (top - shift) : 0);
        /* the mass above the grid and the dropped terms count as 1 */
        *hi = fmin(1.0, sh + x.above + dropped);
    }
out:
    free(w);
    free(ix);
    free(x.d);
    free(x.t);
    return rc;
}
