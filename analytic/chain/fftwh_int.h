/* fftwh_int.h: what the FFT Wiener-Hopf solver's two files share (private
 * to fftwh.c and fftwh_kern.c): a region's kernel, its tilt, Wiener-Hopf
 * factors and renewal sequences, and the per-model cache of them.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_FFTWH_INT_H
#define BBSIZE_ANALYTIC_FFTWH_INT_H

#include <stddef.h>

#include "fftconv.h"
#include "fftwh.h"

/* What depends on the kernel alone, not on S or the threshold: the tilt,
 * the tilted law, the Wiener-Hopf factors and the renewal sequences (grown
 * on demand; a prefix serves any shorter region).  Cached per model. */
typedef struct {
    int lazy_region;       /* 1: Algorithm 4's kernel below the threshold */
    double eps;            /* its EPS */
    double thstar;         /* Cramer root of the kernel */
    double theta;          /* tilt slope used */
    double K;              /* Wiener-Hopf constant */
    double *cu;            /* untilted kernel, M + 1 (index k = d + B) */
    double *ct;            /* tilted kernel */
    double *ap, *am;       /* A+ (U + 1), A- (B + 1) */
    double *up, *um;       /* 1/A+, 1/A-: Lu terms */
    long Lu;
} bba_fftwh_kern;

/* bba_fftwh_kern_get: the kernel data of region kind lazy_region (EPS
 * eps) for the load law dist over 0..M and PFS bandwidth B, with the
 * Bernoulli factors (napp, b, p) of dist (b NULL: dist is not a product),
 * from the cache when there, else built (and inserted when the cache has
 * room).  *owned = 1 when the caller must free *out
 * (bba_fftwh_kern_free), 0 when the cache owns it.  Errors: BB_ENOMEM,
 * BB_ENOCONV (the symbol vanishes on the factorisation circle). */
int bba_fftwh_kern_get(bba_fftwh_cache *cache, int lazy_region, double eps, const double *dist,
                       long M, long B, size_t napp, const long *b, const double *p,
                       bba_fftwh_kern **out, int *owned, char *err);

/* bba_fftwh_kern_free: NULL is a no-op. */
void bba_fftwh_kern_free(bba_fftwh_kern *k);

/* bba_fftwh_kern_renewal: the renewal sequences u+ = 1/A+, u- = 1/A- of
 * k to n terms (grown in k when shorter, under cache's lock when k is the
 * cache's, cache NULL when k is the caller's), transformed at pe into
 * upspec and umspec.  Errors: BB_ENOMEM. */
int bba_fftwh_kern_renewal(bba_fftwh_kern *k, bba_fftwh_cache *cache, long n, long M, long B,
                           bba_fft *pe, double *upspec, double *umspec, char *err);

#endif
