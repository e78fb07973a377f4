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
#define DROP 1e-20

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
        double in = 0;

        if (w[k] == 0)
            continue;
        above += w[k] * x->above;
        if (s >= NB) {
            above += w[k] * tot;
            continue;
        }
        m = x->top + 1 < NB - s ? x->top + 1 : NB - s;
        for (size_t j = 0; j < m; j++) {
            x->t[s + j] += w[k] * x->d[j];
            in += x->d[j];
        }
        above += w[k] * (tot - in);
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
    double base = 0, peak = 0, h, dropped = 0, *w = NULL;
    size_t *ix = NULL;
    long Kmax = 0;
    law x[2];
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
    memset(x, 0, sizeof x);
    w = malloc((size_t)(Kmax + 1) * sizeof *w);
    ix = malloc((size_t)(Kmax + 1) * sizeof *ix);
    for (int r = 0; r < 2; r++) {
        x[r].d = calloc(NB, sizeof *x[r].d);
        x[r].t = malloc(NB * sizeof *x[r].t);
    }
    if (w == NULL || ix == NULL || x[0].d == NULL || x[0].t == NULL || x[1].d == NULL
        || x[1].t == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the bufferless stall");
        goto out;
    }
    for (int r = 0; r < 2; r++) {   /* r = 0 rates rounded down, 1 up */
        double b0 = r ? ceil(base / h) : floor(base / h);

        if (b0 >= NB)
            x[r].above = 1;
        else
            x[r].d[(size_t)b0] = 1;
        x[r].top = b0 < NB ? (size_t)b0 : 0;
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
        for (long k = 0; k <= N; k++) {
            w[k] = w[k] - big < log(DROP) ? 0 : exp(w[k]);
            sum += w[k];
        }
        dropped += fmax(0, 1 - sum);
        for (int r = 0; r < 2; r++) {
            for (long k = 0; k <= N; k++) {
                double q = r ? ceil(k * b / h) : floor(k * b / h);

                ix[k] = q >= NB ? NB : (size_t)q;
            }
            convolve(&x[r], w, ix, N);
        }
    }
    for (int r = 0; r < 2; r++) {
        double s = 0, tot = x[r].above;

        for (size_t j = 0; j <= x[r].top; j++) {
            double rate = j * h;

            tot += x[r].d[j];
            if (rate > B)
                s += x[r].d[j] * (rate - B) / rate;
        }
        if (r == 0) {
            *lo = s + x[0].above * (NB * h - B) / (NB * h);
        } else {
            /* the dropped terms and the rounding of the sums count as 1 */
            *hi = fmin(1.0, s + x[1].above + fmax(dropped, 1 - tot));
        }
    }
out:
    free(w);
    free(ix);
    for (int r = 0; r < 2; r++) {
        free(x[r].d);
        free(x[r].t);
    }
    return rc;
}
