/* timeline.h: an application's I/O timeline, from timed transfers (Darshan
 * DXT) or from bytes per time bin (Darshan HEATMAP), and what the ON/OFF
 * model needs from it: the fraction of time in I/O phases, the bandwidth
 * within them, the mean phase length, their spread, and the period.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure computation: no I/O, no globals; called by `bbsize fit darshan`
 * once per job (thousands of jobs per run), by its tests and its bench.
 *
 * Method.  The transfers of all ranks and files are one set of intervals
 * [start, end) with the bytes each moved.  Their union is a sequence of
 * blocks (overlapping or touching intervals merge); a phase is a run of
 * blocks whose gaps are at most the gap tolerance.  The tolerance, unless
 * given, is derived from the gaps themselves: the gaps inside a phase
 * (between calls, microseconds to milliseconds) and between phases
 * (computation, seconds and more) are separated on a log scale by the
 * widest ratio between consecutive sorted gaps, the idle times before the
 * first and after the last transfer counted as gaps and the timestamp
 * resolution standing below the smallest; the tolerance is the geometric
 * middle of that ratio, if it spans at least min_gap_ratio (a decade by
 * default: calls and computations differ by orders of magnitude; gaps
 * spread evenly on a log scale, as the exponential OFF times of a Markov
 * source, show no such band, and nothing merges then).  A job whose gaps
 * are all short against its idle time is one phase; one whose gaps are
 * all far above the resolution keeps every block a phase.
 *
 * From the phases: p = (sum of phase lengths) / horizon, bw = bytes / (sum
 * of phase lengths), burst = mean phase length, so that p = phases x burst
 * / horizon: the two-state model with mean ON time burst spends the
 * fraction p of the time ON, at the rate bw, and moves every byte.
 *
 * Period: the bandwidth signal (bytes per bin over the horizon, each
 * block's bytes spread evenly over it) is autocorrelated by FFT (analytic
 * fftconv.h bba_fftconv), smoothed over two bins (so that a pulse narrower
 * than a bin matches itself whichever side of a bin edge it falls).  The
 * period is the lag of the first local maximum after the first zero
 * crossing whose unbiased autocorrelation reaches min_acf (at the
 * multiples of a period the peaks are about as high, so the first is the
 * fundamental), else of the highest local maximum; refined by a parabola
 * through the three points around it.  The job is periodic when the
 * unbiased autocorrelation there is at least min_acf and at least two
 * periods fit in the horizon.  FTIO (Tarraf, Bandet, Boito, Pallez, Wolf,
 * "Capturing Periodic I/O Using Frequency Techniques", IPDPS 2024) finds
 * the period from the DFT of the same signal, with a mean error below 11%
 * on their production runs; the autocorrelation is the inverse DFT of its
 * power spectrum, and its first peak picks the fundamental where the
 * largest DFT line can be a harmonic.
 *
 * Sizes: up to tens of millions of intervals (memory: the caller's array,
 * used in place, plus 8 bytes per interval); signals of at most max_bins
 * bins (default 65,536: about 3 MB of FFT work space).  Time O(n log n)
 * for the sort plus O(N log N) for the autocorrelation. */
#ifndef BBSIZE_ANALYTIC_TIMELINE_H
#define BBSIZE_ANALYTIC_TIMELINE_H

#include <stddef.h>

#include "bb_error.h"

/* One transfer: [start_s, end_s) in seconds from the job's start, and the
 * bytes it moved (0 allowed: a call that moved nothing still took time). */
typedef struct {
    double start_s, end_s;
    double bytes;
} bb_tl_iv;

typedef struct {
    double gap_s;          /* gaps of at most this merge into one phase;
                              < 0: derive it from the data (the default) */
    double resolution_s;   /* the timestamps' resolution (DXT prints 1e-4 s;
                              a heatmap bin), > 0: the smallest gap the
                              derivation counts */
    double min_acf;        /* periodic when the autocorrelation at the
                              period is at least this (default 0.5) */
    double min_gap_ratio;  /* a derived tolerance needs a band of gaps at
                              least this wide (ratio, >= 1; default 10) */
    long bins_per_cycle;   /* signal bins per mean phase cycle (horizon /
                              phases), default 32 */
    long max_bins;         /* at most this many bins (default 65536) */
} bb_tl_opts;

/* bb_tl_opts_default: the defaults above (resolution 1e-4 s). */
void bb_tl_opts_default(bb_tl_opts *o);

typedef struct {
    double horizon_s;      /* the run time, or the last end if later */
    size_t transfers;      /* intervals given (non-zero bins of a heatmap) */
    double bytes;          /* bytes moved */
    double busy_s;         /* length of the union of the intervals */
    double gap_s;          /* the tolerance used */
    int gap_derived;       /* 1 when derived from the data */
    size_t phases;
    double phase_s;        /* sum of the phase lengths */
    double phase_sumsq;    /* sum of their squares, s^2 (for pooling) */
    double burst_s;        /* mean phase length (0 without phases) */
    double burst_cv;       /* standard deviation / mean of the phase
                              lengths; NAN with fewer than 2 phases or a
                              mean of 0 */
    double off_mean_s;     /* mean gap between phases (NAN: < 2 phases) */
    double start_mean_s;   /* mean time from one phase's start to the
                              next's (NAN: < 2 phases) */
    double start_cv;       /* its coefficient of variation (NAN: < 3) */
    double first_s, last_s;/* first start and last end (0 without I/O) */
    double period_s;       /* the autocorrelation's period (NAN when not
                              computed: fewer than 3 phases, no peak) */
    double period_acf;     /* unbiased autocorrelation there (NAN: none) */
    int periodic;          /* period_acf >= min_acf */
    double bin_s;          /* bin width of the signal (0: not built) */
    long bins;             /* its number of bins */
} bb_tl_stats;

/* bb_tl_analyze: the timeline of n transfers (iv may be NULL when n is 0)
 * over a job of run_s seconds (> 0).  iv is sorted and overwritten with
 * the union's blocks (the caller keeps ownership).  Returns BB_OK;
 * BB_EINVAL for a bad option (resolution <= 0, min_acf outside [-1, 1],
 * min_gap_ratio < 1, bins_per_cycle < 2, max_bins < 64, gap_s not finite)
 * or run_s not positive and finite;
 * BB_EDATA for a transfer with a negative or non-finite time or bytes, or
 * ending before it starts, or bytes summing past the largest double (the
 * message gives its index); BB_ENOMEM. */
enum bb_status bb_tl_analyze(bb_tl_iv *iv, size_t n, double run_s, const bb_tl_opts *o,
                             bb_tl_stats *st, char *err);

/* bb_tl_analyze_bins: the same from bytes[0..nbins) moved in consecutive
 * bins of bin_s seconds from the job's start (a Darshan heatmap summed
 * over ranks): a non-zero bin is busy for its whole width, so the phases,
 * p (an upper bound) and burst are at the bin's resolution, and the
 * resolution used is bin_s whatever o says.  The period comes from the
 * bins themselves.  Same status codes (BB_EDATA: a negative or non-finite
 * bin); bytes is not modified. */
enum bb_status bb_tl_analyze_bins(const double *bytes, size_t nbins, double bin_s, double run_s,
                                  const bb_tl_opts *o, bb_tl_stats *st, char *err);

/* bb_tl_period: the period of signal x[0..n) sampled every bin_s seconds,
 * as above (min_acf: the height that makes a peak the period): *period_s
 * and *acf (NAN when there is no peak: a constant signal, n < 8, no zero
 * crossing before lag n/2).  BB_ENOMEM only.  O(n log n) time, about 6n
 * doubles of work space. */
enum bb_status bb_tl_period(const double *x, size_t n, double bin_s, double min_acf, double *period_s,
                            double *acf, char *err);

#endif
