/* fftconv.h: linear convolution by FFT (FFTW 3 real transforms), the one
 * FFT engine of libbbanalytic: the FFT Wiener-Hopf solver (fftwh.h), the
 * ON/OFF chain's level convolution (onoff.h) and the timeline's
 * autocorrelation (analytic/questions/timeline.h) use it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An engine is a transform length N (2^a 3^b 5^c, bba_fft_size) with its
 * plans and buffers.  A kernel is transformed once into a spectrum, then
 * convolved with many vectors, each convolution one forward and one
 * inverse transform: O(N log N).  Round-off is absolute, about 1e-16
 * max|x| sum|k|: small entries of a convolution are not accurate
 * relative to themselves (fftwh.c tilts its vectors for that reason).
 * FFTW's planner is not thread-safe, executing a plan is: every plan of
 * the library is made under bba_fft_plan_lock, and one engine must not
 * be used from two threads at once (it owns its buffers); spectra are
 * read-only and can be shared. */
#ifndef BBSIZE_ANALYTIC_FFTCONV_H
#define BBSIZE_ANALYTIC_FFTCONV_H

/* bba_fft_size: the smallest 2^a 3^b 5^c >= max(n, 16).  O(log^2 n). */
long bba_fft_size(long n);

/* An engine of one transform length. */
typedef struct bba_fft bba_fft;

/* bba_fft_new: an engine of length N (>= 2, <= INT_MAX), planned with
 * FFTW_ESTIMATE; NULL when out of memory or FFTW cannot plan it. */
bba_fft *bba_fft_new(long N);

/* bba_fft_free: NULL is a no-op. */
void bba_fft_free(bba_fft *e);

/* bba_fft_len: N. */
long bba_fft_len(const bba_fft *e);

/* A spectrum: N/2 + 1 complex values, interleaved (re, im) doubles.
 * bba_fft_spec_new allocates one for e (NULL when out of memory);
 * bba_fft_spec_free accepts NULL. */
double *bba_fft_spec_new(const bba_fft *e);
void bba_fft_spec_free(double *spec);

/* bba_fft_spectrum: spec = DFT of a[0 .. na) padded with zeros to N
 * (na <= N). */
void bba_fft_spectrum(bba_fft *e, const double *a, long na, double *spec);

/* bba_fft_conv: out[i] = (x * k)[o0 + i] for i < nout, k given by its
 * spectrum kspec at e; x * k must fit in N (nx + nk - 1 <= N, else it
 * wraps around) and o0 + nout <= N.  out may not alias x. */
void bba_fft_conv(bba_fft *e, const double *x, long nx, const double *kspec, double *out,
                  long o0, long nout);

/* bba_fft_series_inverse: b[0 .. L) = the power series 1/a (a[0 .. na),
 * a[0] != 0) to L terms: the renewal recursion directly when
 * L min(na, L) <= 4e7, else Newton's iteration b <- b + b (1 - a b)
 * doubling the length each step, O(L log L) on engines of its own.
 * Errors: BB_ENOMEM. */
int bba_fft_series_inverse(const double *a, long na, double *b, long L);

/* bba_fft_plan_lock, bba_fft_plan_unlock: around every other FFTW plan
 * creation or destruction in the library (FFTW's planner state is global). */
void bba_fft_plan_lock(void);
void bba_fft_plan_unlock(void);

/* A convolution with a fixed kernel, all in one: out[0 .. nx + nk - 1) =
 * x * k for any nx <= nx_max (a longer x is cut to nx_max).
 * bba_fftconv_new returns NULL when out of memory (or nk, nx_max < 1).
 * O((nk + nx_max) log(nk + nx_max)) per application. */
typedef struct bba_fftconv bba_fftconv;
bba_fftconv *bba_fftconv_new(const double *k, long nk, long nx_max);
void bba_fftconv_apply(bba_fftconv *c, const double *x, long nx, double *out);
void bba_fftconv_free(bba_fftconv *c);

#endif
