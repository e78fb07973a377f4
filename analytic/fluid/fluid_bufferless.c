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

/* One rate law on the grid: d[0..NB-1] (bin j: rate j h; zero above
 * top), the mass above it, the support's last bin, a scratch t. */
typedef struct {
    double *d, *t;
    double above;
    size_t top;
} law;

/* d <- d convolved with the class: weights w[0..nk-1] (all > 0) at bins
 * ix[0..nk-1] (NB: beyond the grid).  In place from the top down: the
 * new bin j reads old bins j - ix[k] <= j only.  The mass moved from NB
 * on is added to the mass above, from the old law's suffix sums in t
 * (summed, not 1 - the rest: no cancellation).  O(nk x support). */
static void
convolve(law *x, const double *w, const size_t *ix, size_t nk)
{
    const size_t top = x->top;
    size_t nt = top;
    double above = 0, *d = x->d, *suf = x->t;

    suf[top] = d[top];
    for (size_t i = top; i-- > 0;)
        suf[i] = suf[i + 1] + d[i];
    for (size_t k = 0; k < nk; k++) {
        above += w[k] * x->above;
        if (ix[k] >= NB)
            above += w[k] * suf[0];
        else if (NB - ix[k] <= top)
            above += w[k] * suf[NB - ix[k]];
        if (ix[k] < NB && top + ix[k] > nt)
            nt = top + ix[k] < NB ? top + ix[k] : NB - 1;
    }
    for (size_t j = nt + 1; j-- > 0;) {
        double acc = 0;

        for (size_t k = 0; k < nk; k++)
            if (ix[k] <= j && j - ix[k] <= top)
                acc += w[k] * d[j - ix[k]];
        d[j] = acc;
    }
    x->top = nt;
    x->above = above;
}

/* The bounds on the grid [0, top) (the header's, for one top); *above
 * the mass above it. */
static int
bounds_on(const bba_fluid_class *c, size_t n, double B, double base, long Kmax, double top,
          double *lo, double *hi, double *mass_above, char *err)
{
    double h = top / NB, dropped = 0, shift, *w = NULL;
    size_t *ix = NULL, rounded = 1, nk;
    law x;
    int rc = BB_OK;

    *mass_above = 0;
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
        nk = 0;
        for (long k = 0; k <= N; k++) {   /* the kept terms, compacted */
            w[k] /= sum;
            if (w[k] < DROP) {
                dropped += w[k];
                continue;
            }
            w[nk] = w[k];
            ix[nk++] = ix[k];
        }
        rounded++;
        convolve(&x, w, ix, nk);
    }
    /* every rounding moved the rate by at most h / 2: the true rate of
     * bin j is within shift of j h */
    shift = rounded * 0.5 * h;
    {
        double sl = 0, sh = 0;

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
        *mass_above = x.above;
    }
out:
    free(w);
    free(ix);
    free(x.d);
    free(x.t);
    return rc;
}

int
bba_fluid_bufferless(const bba_fluid_class *c, size_t n, double B, double *lo, double *hi,
                     char *err)
{
    double base = 0, peak = 0;
    long Kmax = 0;
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
    /* the grid widened (header) until the mass above it is a small part
     * of the stall, or it holds the peak */
    for (double mult = 2;; mult *= BBA_BUFFERLESS_WIDEN) {
        double above, top = mult * fmax(B, base);

        rc = bounds_on(c, n, B, base, Kmax, top, lo, hi, &above, err);
        if (rc != BB_OK || above <= BBA_BUFFERLESS_ABOVE * *lo || base + peak < top
            || mult >= BBA_BUFFERLESS_TOP)
            return rc;
    }
}
