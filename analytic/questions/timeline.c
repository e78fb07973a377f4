/* timeline.c: I/O phases, burst and period of one job (timeline.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fftconv.h"
#include "timeline.h"

void
bb_tl_opts_default(bb_tl_opts *o)
{
    o->gap_s = -1;
    o->resolution_s = 1e-4;
    o->min_acf = 0.5;
    o->min_gap_ratio = 10;
    o->bins_per_cycle = 32;
    o->max_bins = 65536;
}

static int
cmp_start(const void *a, const void *b)
{
    double x = ((const bb_tl_iv *)a)->start_s, y = ((const bb_tl_iv *)b)->start_s;

    return (x > y) - (x < y);
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static int
check_opts(const bb_tl_opts *o, double run_s, char *err)
{
    if (!(o->resolution_s > 0) || !isfinite(o->resolution_s))
        return bb_seterr(err, BB_EINVAL, "timeline: resolution %g s is not positive",
                         o->resolution_s);
    if (!(o->min_gap_ratio >= 1) || !isfinite(o->min_gap_ratio))
        return bb_seterr(err, BB_EINVAL, "timeline: min_gap_ratio %g is not >= 1",
                         o->min_gap_ratio);
    if (!(o->min_acf >= -1 && o->min_acf <= 1))
        return bb_seterr(err, BB_EINVAL, "timeline: min_acf %g is outside [-1, 1]", o->min_acf);
    if (o->bins_per_cycle < 2 || o->max_bins < 64)
        return bb_seterr(err, BB_EINVAL, "timeline: bins_per_cycle %ld < 2 or max_bins %ld < 64",
                         o->bins_per_cycle, o->max_bins);
    if (!(run_s > 0) || !isfinite(run_s))
        return bb_seterr(err, BB_EINVAL, "timeline: run time %g s is not positive", run_s);
    if (isnan(o->gap_s) || isinf(o->gap_s))
        return bb_seterr(err, BB_EINVAL, "timeline: gap tolerance %g s is not finite", o->gap_s);
    return BB_OK;
}

/* The derived gap tolerance: the geometric middle of the widest ratio
 * between consecutive sorted gaps g (m of them, all > 0, sorted here),
 * res standing below the smallest (gaps below res open no band), when
 * that ratio is at least min_ratio; else res (no gap merges). */
static double
derive_gap(double *g, size_t m, double res, double min_ratio)
{
    double best = 0, lo = res, hi = res, prev = res;

    qsort(g, m, sizeof *g, cmp_double);
    for (size_t i = 0; i < m; i++) {
        if (g[i] < prev)
            continue;
        if (g[i] / prev > best) {
            best = g[i] / prev;
            lo = prev;
            hi = g[i];
        }
        prev = g[i];
    }
    return best >= min_ratio ? sqrt(lo * hi) : res;
}

/* Phases from the union's blocks b[0..nb) (sorted, disjoint, not
 * touching) at the resolution of o: fills the phase and gap fields of st;
 * gaps is work space of nb + 1 doubles. */
static void
phases_from_blocks(const bb_tl_iv *b, size_t nb, const bb_tl_opts *o, double *gaps,
                   bb_tl_stats *st)
{
    double tol, ps = 0, pe = 0, sum_off = 0, sum_st = 0, sum_st2 = 0, prev_start = 0;
    size_t np = 0;

    st->gap_derived = o->gap_s < 0;
    if (nb == 0) {
        st->gap_s = o->gap_s < 0 ? 0 : o->gap_s;
        st->burst_cv = st->off_mean_s = st->start_mean_s = st->start_cv = NAN;
        return;
    }
    if (o->gap_s >= 0)
        tol = o->gap_s;
    else {
        /* the gaps between blocks, and the idle time before the first and
         * after the last (OFF times too: with them a job whose gaps are
         * all short against its idle time is one phase) */
        size_t m = 0;

        for (size_t i = 1; i < nb; i++)
            gaps[m++] = b[i].start_s - b[i - 1].end_s;
        if (b[0].start_s > 0)
            gaps[m++] = b[0].start_s;
        if (st->horizon_s > b[nb - 1].end_s)
            gaps[m++] = st->horizon_s - b[nb - 1].end_s;
        tol = derive_gap(gaps, m, o->resolution_s, o->min_gap_ratio);
    }
    st->gap_s = tol;
    st->first_s = b[0].start_s;
    st->last_s = b[nb - 1].end_s;
    for (size_t i = 0; i <= nb; i++) {
        if (i > 0 && i < nb && b[i].start_s - b[i - 1].end_s <= tol)
            pe = b[i].end_s;     /* the phase goes on */
        else {
            if (i > 0) {         /* close the phase [ps, pe) */
                double len = pe - ps;

                st->phase_s += len;
                st->phase_sumsq += len * len;
                np++;
            }
            if (i < nb) {
                if (i > 0) {
                    double d = b[i].start_s - prev_start;

                    sum_off += b[i].start_s - pe;
                    sum_st += d;
                    sum_st2 += d * d;
                }
                ps = prev_start = b[i].start_s;
                pe = b[i].end_s;
            }
        }
    }
    st->phases = np;
    st->burst_s = st->phase_s / (double)np;
    if (np >= 2 && st->burst_s > 0) {
        double var = (st->phase_sumsq - st->phase_s * st->burst_s) / (double)(np - 1);

        st->burst_cv = sqrt(var > 0 ? var : 0) / st->burst_s;
    } else
        st->burst_cv = NAN;
    st->off_mean_s = np >= 2 ? sum_off / (double)(np - 1) : NAN;
    st->start_mean_s = np >= 2 ? sum_st / (double)(np - 1) : NAN;
    if (np >= 3 && st->start_mean_s > 0) {
        double k = (double)(np - 1);
        double var = (sum_st2 - sum_st * sum_st / k) / (k - 1);

        st->start_cv = sqrt(var > 0 ? var : 0) / st->start_mean_s;
    } else
        st->start_cv = NAN;
}

enum bb_status
bb_tl_period(const double *x, size_t n, double bin_s, double min_acf, double *period_s,
             double *acf, char *err)
{
    double *xc = NULL, *rev = NULL, *out = NULL, mean = 0, c0, best = -2;
    bba_fftconv *conv = NULL;
    size_t half = n / 2, t0 = 0, tb = 0;
    int rc = BB_OK;

    *period_s = *acf = NAN;
    if (n < 8)
        return BB_OK;
    xc = malloc(n * sizeof *xc);
    rev = malloc(n * sizeof *rev);
    out = malloc((2 * n - 1) * sizeof *out);
    if (xc == NULL || rev == NULL || out == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "timeline: out of memory for a signal of %zu bins", n);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) {
        xc[i] = x[i] - mean;
        rev[n - 1 - i] = xc[i];
    }
    /* out[n - 1 - t] = sum_i xc[i] xc[i + t]: the autocovariance at lag t
     * times n (fftconv.h: out = x * k with k the reversed signal). */
    conv = bba_fftconv_new(rev, (long)n, (long)n);
    if (conv == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "timeline: out of memory for the FFT of %zu bins", n);
        goto out;
    }
    bba_fftconv_apply(conv, xc, (long)n, out);
    /* acf[t] = (c[t-1] + 2 c[t] + c[t+1]) / 4, c the autocovariance (c[-1]
     * = c[1]): the autocovariance of the signal after a moving average
     * over two bins, so that a pulse narrower than a bin, which lands on
     * either side of a bin edge from one period to the next, still
     * matches itself at the period. */
    for (size_t t = 0; t + 1 < n && t <= half + 1; t++) {
        double cm = out[n - 1 - (t > 0 ? t - 1 : 1)], c = out[n - 1 - t], cp = out[n - 2 - t];

        xc[t] = 0.25 * (cm + 2 * c + cp);
    }
    c0 = xc[0];
    if (!(c0 > 0) || half + 2 >= n)
        goto out;   /* a constant signal: no period */
#define R(t) (xc[t] / c0)
    for (size_t t = 1; t <= half; t++)
        if (R(t) <= 0) {
            t0 = t;
            break;
        }
    if (t0 == 0)
        goto out;   /* never decorrelates within half the horizon */
    /* The first local maximum that passes min_acf (unbiased): at the
     * multiples of a period the peaks are about as high, and which one is
     * highest is down to binning noise; without one, the highest peak. */
    for (size_t t = t0 + 1; t + 1 <= half; t++)
        if (R(t) >= R(t - 1) && R(t) >= R(t + 1)) {
            if (R(t) * (double)n / (double)(n - t) >= min_acf) {
                tb = t;
                break;
            }
            if (R(t) > best) {
                best = R(t);
                tb = t;
            }
        }
    if (tb == 0 || !(R(tb) > 0))
        goto out;
    {
        double ym = R(tb - 1), y0 = R(tb), yp = R(tb + 1), den = ym - 2 * y0 + yp;
        double d = den < 0 ? 0.5 * (ym - yp) / den : 0;

        if (d > 0.5 || d < -0.5)
            d = 0;
        *period_s = ((double)tb + d) * bin_s;
        *acf = y0 * (double)n / (double)(n - tb);
    }
#undef R
out:
    bba_fftconv_free(conv);
    free(xc);
    free(rev);
    free(out);
    return rc;
}

/* The bandwidth signal of blocks b[0..nb) on N bins of width w from 0:
 * each block's bytes spread evenly over it (a block of length 0 puts its
 * bytes in the bin of its start).  Exact bin integrals in O(nb + N) by a
 * difference array of the rate over the bins a block covers fully. */
static void
block_signal(const bb_tl_iv *b, size_t nb, double w, size_t N, double *x, double *diff)
{
    memset(x, 0, N * sizeof *x);
    memset(diff, 0, (N + 1) * sizeof *diff);
    for (size_t i = 0; i < nb; i++) {
        double s = b[i].start_s / w, e = b[i].end_s / w, len = e - s;
        size_t is = (size_t)s, ie = (size_t)e;

        if (is >= N)
            is = N - 1;
        if (ie >= N)
            ie = N - 1;
        if (len <= 0 || is == ie) {
            x[is] += b[i].bytes;
            continue;
        }
        {
            double rate = b[i].bytes / len;   /* bytes per bin width */

            x[is] += rate * ((double)(is + 1) - s);
            x[ie] += rate * (e - (double)ie);
            diff[is + 1] += rate;
            diff[ie] -= rate;
        }
    }
    for (size_t k = 0; k < N; k++) {
        if (k > 0)
            diff[k] += diff[k - 1];
        x[k] += diff[k];
    }
}

static int
period_of_blocks(const bb_tl_iv *b, size_t nb, const bb_tl_opts *o, bb_tl_stats *st,
                 char *err)
{
    double want = (double)o->bins_per_cycle * (double)st->phases, w, res = o->resolution_s;
    size_t N;
    double *x, *diff;
    int rc;

    if (want < 64)
        want = 64;
    if (want > (double)o->max_bins)
        want = (double)o->max_bins;
    w = st->horizon_s / want;
    if (w < res) {   /* no finer than the timestamps */
        w = res;
        want = ceil(st->horizon_s / res);
        if (want > (double)o->max_bins)
            want = (double)o->max_bins;
        if (want < 8)
            return BB_OK;
        w = st->horizon_s / want;
    }
    N = (size_t)want;
    x = malloc(N * sizeof *x);
    diff = malloc((N + 1) * sizeof *diff);
    if (x == NULL || diff == NULL) {
        free(x);
        free(diff);
        return bb_seterr(err, BB_ENOMEM, "timeline: out of memory for a signal of %zu bins", N);
    }
    block_signal(b, nb, w, N, x, diff);
    free(diff);
    st->bin_s = w;
    st->bins = (long)N;
    rc = bb_tl_period(x, N, w, o->min_acf, &st->period_s, &st->period_acf, err);
    free(x);
    return rc;
}

static void
finish_period(const bb_tl_opts *o, bb_tl_stats *st)
{
    st->periodic = st->period_acf >= o->min_acf && st->period_s > 0
                   && 2 * st->period_s <= st->horizon_s;
}

static void
stats_init(bb_tl_stats *st, double horizon_s, size_t n)
{
    memset(st, 0, sizeof *st);
    st->horizon_s = horizon_s;
    st->transfers = n;
    st->period_s = st->period_acf = NAN;
}

enum bb_status
bb_tl_analyze(bb_tl_iv *iv, size_t n, double run_s, const bb_tl_opts *o, bb_tl_stats *st,
              char *err)
{
    double horizon = run_s, bytes = 0, busy = 0, *gaps = NULL;
    size_t nb = 0;
    int rc;

    memset(st, 0, sizeof *st);
    if ((rc = check_opts(o, run_s, err)) != BB_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        const bb_tl_iv *v = &iv[i];

        if (!(v->start_s >= 0) || !isfinite(v->end_s) || !(v->end_s >= v->start_s))
            return bb_seterr(err, BB_EDATA, "timeline: transfer %zu: [%g, %g) s is not an "
                             "interval from 0 on", i + 1, v->start_s, v->end_s);
        if (!(v->bytes >= 0) || !isfinite(v->bytes))
            return bb_seterr(err, BB_EDATA, "timeline: transfer %zu: %g bytes", i + 1, v->bytes);
        bytes += v->bytes;
        if (v->end_s > horizon)
            horizon = v->end_s;
    }
    if (!isfinite(bytes))
        return bb_seterr(err, BB_EDATA, "timeline: the transfers' bytes sum past %g "
                         "(the largest double)", DBL_MAX);
    stats_init(st, horizon, n);
    st->bytes = bytes;
    if (n > 0) {
        qsort(iv, n, sizeof *iv, cmp_start);
        /* the union, in place: block nb - 1 grows while the next starts
         * at or before its end */
        nb = 1;
        for (size_t i = 1; i < n; i++) {
            bb_tl_iv *cur = &iv[nb - 1];

            if (iv[i].start_s <= cur->end_s) {
                if (iv[i].end_s > cur->end_s)
                    cur->end_s = iv[i].end_s;
                cur->bytes += iv[i].bytes;
            } else
                iv[nb++] = iv[i];
        }
        for (size_t i = 0; i < nb; i++)
            busy += iv[i].end_s - iv[i].start_s;
        gaps = malloc((nb + 1) * sizeof *gaps);
        if (gaps == NULL)
            return bb_seterr(err, BB_ENOMEM, "timeline: out of memory for %zu gaps", nb);
    }
    st->busy_s = busy;
    phases_from_blocks(iv, nb, o, gaps, st);
    free(gaps);
    if (st->phases >= 3 && (rc = period_of_blocks(iv, nb, o, st, err)) != BB_OK)
        return rc;
    finish_period(o, st);
    return BB_OK;
}

enum bb_status
bb_tl_analyze_bins(const double *bytes, size_t nbins, double bin_s, double run_s,
                   const bb_tl_opts *o, bb_tl_stats *st, char *err)
{
    bb_tl_opts ob = *o;
    bb_tl_iv *b = NULL;
    double *gaps = NULL, horizon = run_s, total = 0;
    size_t nb = 0, nz = 0;
    int rc;

    memset(st, 0, sizeof *st);
    ob.resolution_s = bin_s;
    if ((rc = check_opts(&ob, run_s, err)) != BB_OK)
        return rc;
    for (size_t i = 0; i < nbins; i++) {
        if (!(bytes[i] >= 0) || !isfinite(bytes[i]))
            return bb_seterr(err, BB_EDATA, "timeline: bin %zu: %g bytes", i, bytes[i]);
        total += bytes[i];
        nz += bytes[i] > 0;
    }
    if (!isfinite(total))
        return bb_seterr(err, BB_EDATA, "timeline: the bins' bytes sum past %g (the largest "
                         "double)", DBL_MAX);
    if ((double)nbins * bin_s > horizon)
        horizon = (double)nbins * bin_s;
    stats_init(st, horizon, nz);
    st->bytes = total;
    if (nz > 0) {
        b = malloc(nz * sizeof *b);
        gaps = malloc((nz + 1) * sizeof *gaps);
        if (b == NULL || gaps == NULL) {
            free(b);
            free(gaps);
            return bb_seterr(err, BB_ENOMEM, "timeline: out of memory for %zu bins", nz);
        }
        for (size_t i = 0; i < nbins; i++) {
            if (!(bytes[i] > 0))
                continue;
            if (nb > 0 && b[nb - 1].end_s == (double)i * bin_s) {
                b[nb - 1].end_s = (double)(i + 1) * bin_s;
                b[nb - 1].bytes += bytes[i];
            } else {
                b[nb].start_s = (double)i * bin_s;
                b[nb].end_s = (double)(i + 1) * bin_s;
                b[nb].bytes = bytes[i];
                nb++;
            }
            st->busy_s += bin_s;
        }
    }
    phases_from_blocks(b, nb, &ob, gaps, st);
    free(b);
    free(gaps);
    if (st->phases >= 3) {
        st->bin_s = bin_s;
        st->bins = (long)nbins;
        if ((rc = bb_tl_period(bytes, nbins, bin_s, o->min_acf, &st->period_s, &st->period_acf,
                                  err)) != BB_OK)
            return rc;
    }
    finish_period(&ob, st);
    return BB_OK;
}
