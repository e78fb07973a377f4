/* fftwh_kern.c: the FFT Wiener-Hopf solver's kernels (fftwh_int.h): for
 * each region's law of moves, the Cramer root and the tilt, the
 * Wiener-Hopf factorisation of the tilted symbol by the cepstral method,
 * the renewal sequences of its ladder-height laws, and the per-model
 * cache that lets size and threshold searches factor once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * References: Feller vol. II ch. XII (ladder heights, Wiener-Hopf);
 * Fusai, Germano and Marazzina 2016 (the cepstral FFT factorisation). */
#include "config.h"

#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "bb_error.h"
#include "dist.h"
#include "fftwh_int.h"

/* ---- the kernels and their tilts ----------------------------------------- */

/* psi(theta) = log sum_k c_k e^{theta (k - B)}; *d1 = psi'(theta). */
static double
log_mgf(const double *c, long M, long B, double th, double *d1)
{
    double mx = -INFINITY, s0 = 0, s1 = 0;

    for (long k = 0; k <= M; k++)
        if (c[k] > 0 && th * (double)(k - B) > mx)
            mx = th * (double)(k - B);
    for (long k = 0; k <= M; k++)
        if (c[k] > 0) {
            double w = c[k] * exp(th * (double)(k - B) - mx);

            s0 += w;
            s1 += w * (double)(k - B);
        }
    if (d1)
        *d1 = s1 / s0;
    return mx + log(s0);
}

/* The nonzero root of psi (Cramer's root: E e^{theta (X - B)} = 1), or 0
 * when the drift is zero to rounding or there is no root (no jump of the
 * needed sign).  Newton on the convex psi inside a doubling bracket,
 * bisection as a guard, at most 100 steps. */
static double
cramer_root(const double *c, long M, long B)
{
    double mu, lo = 0, hi, sgn;
    int up = 0, down = 0;

    log_mgf(c, M, B, 0.0, &mu);
    for (long k = 0; k <= M; k++)
        if (c[k] > 0) {
            if (k > B)
                up = 1;
            if (k < B)
                down = 1;
        }
    if (fabs(mu) < 1e-14 * (double)(B + 1))
        return 0.0;
    if ((mu < 0 && !up) || (mu > 0 && !down))
        return 0.0;
    sgn = mu < 0 ? 1.0 : -1.0;
    hi = 1.0 / (double)(M + 1);
    while (log_mgf(c, M, B, sgn * hi, NULL) <= 0 && hi < 1e6)
        hi *= 2;
    /* Newton from the right end of the bracket (psi is convex, so the
     * iterates decrease monotonically to the root), bisection as a guard */
    {
        double t = hi;

        for (int i = 0; i < 100; i++) {
            double d1, v = log_mgf(c, M, B, sgn * t, &d1), nt;

            if (v > 0)
                hi = t;
            else
                lo = t;
            d1 *= sgn;
            nt = d1 > 0 ? t - v / d1 : 0.5 * (lo + hi);
            if (!(nt > lo && nt < hi))
                nt = 0.5 * (lo + hi);
            if (fabs(nt - t) <= 1e-15 * t || hi - lo <= 1e-15 * hi)
                return sgn * nt;
            t = nt;
        }
        return sgn * t;
    }
}

struct bba_fftwh_cache {
    pthread_mutex_t lock;
    long M, B;             /* the model the entries belong to */
    int n;
    bba_fftwh_kern *e[8];
};

void
bba_fftwh_kern_free(bba_fftwh_kern *k)
{
    if (k == NULL)
        return;
    free(k->cu);
    free(k->ct);
    free(k->ap);
    free(k->am);
    free(k->up);
    free(k->um);
    free(k);
}

bba_fftwh_cache *
bba_fftwh_cache_new(void)
{
    bba_fftwh_cache *c = calloc(1, sizeof *c);

    if (c != NULL && pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        c = NULL;
    }
    return c;
}

void
bba_fftwh_cache_free(bba_fftwh_cache *c)
{
    if (c == NULL)
        return;
    for (int i = 0; i < c->n; i++)
        bba_fftwh_kern_free(c->e[i]);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* ---- Wiener-Hopf factorisation by the cepstral method -------------------- */

/* One Wiener-Hopf factor from the cepstrum f (f[d] = N kappa_d rho^d,
 * indices mod N): out[0] = 1 and out[m], m = 1..len, the coefficient of
 * z^(side m) in exp(sum_{0 < d < N/2} kappa_(side d) z^(side d)), side = 1
 * for A+, -1 for A-.  Coefficients with the wrong sign for a ladder law
 * (out[m] = -g(m) <= 0) or at the noise floor are dropped. */
static void
wh_side(const fftw_complex *f, fftw_complex *g, long N, int side, double rho,
        fftw_plan pb, fftw_plan pf, double *out, long len)
{
    double floor_;

    memset(g, 0, (size_t)N * sizeof *g);
    for (long d = 1; d < N / 2; d++) {
        long i = side > 0 ? d : N - d;

        g[i] = f[i] / (double)N;
    }
    fftw_execute_dft(pb, g, g);
    for (long i = 0; i < N; i++)
        g[i] = cexp(g[i]);
    fftw_execute_dft(pf, g, g);
    out[0] = 1.0;
    floor_ = 1e-15 * cabs(g[0]);
    for (long m = 1; m <= len && m < N / 2; m++) {
        double v = creal(g[side > 0 ? m : N - m]) / (double)N;

        out[m] = (v < 0 && fabs(v) * N > floor_) ? v * pow(rho, -(double)side * (double)m) : 0.0;
    }
}

/* Factor 1 - sum_d ct(d) z^d = K A+(z) A-(z) (A+ in z^0..z^U, A- in
 * z^0..z^-B, both with constant term 1) on the circle |z| = rho between
 * the symbol's two real roots e^{thstar - theta} and e^{-theta}, into
 * k->K, k->ap, k->am.  When the roots nearly coincide
 * (drift ~ 0) the symbol is damped by delta before the logarithm, so the
 * factorisation is approximate: it is a preconditioner, GMRES corrects. */
static int
wh_factor(bba_fftwh_kern *r, long M, long B, char *err)
{
    long U = M - B > 0 ? M - B : 0;
    double gap = fabs(r->thstar), rho, delta = 0, var = 0, mean = 0;
    long N = 64;
    fftw_complex *f = NULL, *g = NULL;
    fftw_plan pb = NULL, pf = NULL;
    double *ap = NULL, *am = NULL;
    int rc = BB_OK;

    /* The cepstrum decays like e^{-gap |d| / 2}: N >= 80 / gap leaves
     * aliasing near 1e-9 in the factors (measured: at 40 / gap, 1e-4, the
     * factors' high coefficients are noise and GMRES needs 2.5x the
     * steps or fails).  Beyond 2^22 points (R ~ 10^4 near E = B), damp. */
    while (N < 2 * (M + 1))
        N *= 2;
    if (gap > 0)
        while (N < 80.0 / gap && N < (1L << 22))
            N *= 2;
    rho = exp(0.5 * r->thstar - r->theta);
    if (!(gap > 0) || N * gap < 80.0) {
        /* damp: separate the roots by about 80/N on the unit circle */
        for (long k = 0; k <= M; k++) {
            mean += r->ct[k] * (double)(k - B);
            var += r->ct[k] * (double)(k - B) * (double)(k - B);
        }
        var -= mean * mean;
        delta = 0.5 * (var > 0 ? var : 1.0) * (80.0 / (double)N) * (80.0 / (double)N);
        rho = exp(-r->theta + (gap > 0 ? 0.5 * r->thstar : 0.0));
    }
    f = fftw_malloc((size_t)N * sizeof *f);
    g = fftw_malloc((size_t)N * sizeof *g);
    ap = calloc((size_t)U + 1, sizeof *ap);
    am = calloc((size_t)B + 1, sizeof *am);
    if (!f || !g || !ap || !am) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the Wiener-Hopf factors");
        goto out;
    }
    bba_fft_plan_lock();
    pb = fftw_plan_dft_1d((int)N, f, f, FFTW_BACKWARD, FFTW_ESTIMATE);
    pf = fftw_plan_dft_1d((int)N, f, f, FFTW_FORWARD, FFTW_ESTIMATE);
    bba_fft_plan_unlock();
    if (!pb || !pf) {
        rc = bb_seterr(err, BB_ENOMEM, "FFTW could not plan a transform of %ld points", N);
        goto out;
    }
    /* f(w_n) = 1 + delta - sum_d ct(d) rho^d e^{i d w_n}, w_n = 2 pi n / N */
    memset(f, 0, (size_t)N * sizeof *f);
    for (long k = 0; k <= M; k++) {
        long d = k - B;

        /* in logs: with E > B, rho > 1 and rho^U overflows where ct
         * underflows */
        if (r->ct[k] > 0)
            f[((d % N) + N) % N] -= exp(log(r->ct[k]) + (double)d * log(rho));
    }
    f[0] += 1.0 + delta;
    fftw_execute_dft(pb, f, f);
    /* log with the phase unwrapped from w = 0, where f is real positive */
    {
        double ang = 0, prev = carg(f[0]);

        for (long i = 0; i < N; i++) {
            double a = carg(f[i]), step = a - prev;

            if (cabs(f[i]) == 0) {
                rc = bb_seterr(err, BB_ENOCONV, "the kernel's symbol vanishes on the "
                               "factorisation circle");
                goto out;
            }
            step -= 2 * M_PI * nearbyint(step / (2 * M_PI));
            ang += step;
            prev = a;
            f[i] = log(cabs(f[i])) + I * ang;
        }
    }
    fftw_execute_dft(pf, f, f); /* cepstrum: f[d] = N kappa_d rho^d */
    r->K = exp(creal(f[0]) / (double)N);
    /* A+ = exp(C+), C+ = sum_{0 < d < N/2} kappa_d z^d; A- likewise */
    wh_side(f, g, N, 1, rho, pb, pf, ap, U);
    wh_side(f, g, N, -1, rho, pb, pf, am, B);
    r->ap = ap;
    r->am = am;
    ap = am = NULL;
out:
    bba_fft_plan_lock();
    if (pb)
        fftw_destroy_plan(pb);
    if (pf)
        fftw_destroy_plan(pf);
    bba_fft_plan_unlock();
    fftw_free(f);
    fftw_free(g);
    free(ap);
    free(am);
    return rc;
}

int
bba_fftwh_kern_renewal(bba_fftwh_kern *k, bba_fftwh_cache *cache, long n, long M, long B,
                       bba_fft *pe, double *upspec, double *umspec, char *err)
{
    long U = M - B > 0 ? M - B : 0;
    int rc = BB_OK;

    if (cache)
        pthread_mutex_lock(&cache->lock);
    if (k->Lu < n) {
        /* grow geometrically: a threshold search lengthens region 0 at
         * every step */
        long L = n > 2 * k->Lu ? n : 2 * k->Lu;
        double *up = malloc((size_t)L * sizeof *up), *um = malloc((size_t)L * sizeof *um);

        if (!up || !um || bba_fft_series_inverse(k->ap, U + 1, up, L) != BB_OK
            || bba_fft_series_inverse(k->am, B + 1, um, L) != BB_OK) {
            free(up);
            free(um);
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for the renewal sequences");
            goto out;
        }
        free(k->up);
        free(k->um);
        k->up = up;
        k->um = um;
        k->Lu = L;
    }
    bba_fft_spectrum(pe, k->up, n, upspec);
    bba_fft_spectrum(pe, k->um, n, umspec);
out:
    if (cache)
        pthread_mutex_unlock(&cache->lock);
    return rc;
}

int
bba_fftwh_kern_get(bba_fftwh_cache *cache, int lazy_region, double eps, const double *dist,
                   long M, long B, size_t napp, const long *b, const double *p,
                   bba_fftwh_kern **out, int *owned, char *err)
{
    bba_fftwh_kern *k = NULL;
    double pless = 0;
    int rc;

    *out = NULL;
    *owned = 1;
    if (cache) {
        pthread_mutex_lock(&cache->lock);
        if (cache->n > 0 && (cache->M != M || cache->B != B)) {
            /* a cache belongs to one model */
            pthread_mutex_unlock(&cache->lock);
            cache = NULL;
        } else {
            for (int i = 0; i < cache->n; i++)
                if (cache->e[i]->lazy_region == lazy_region
                    && (!lazy_region || cache->e[i]->eps == eps)) {
                    *out = cache->e[i];
                    *owned = 0;
                }
            pthread_mutex_unlock(&cache->lock);
            if (*out)
                return BB_OK;
        }
    }
    k = calloc(1, sizeof *k);
    if (k == NULL)
        goto nomem;
    k->lazy_region = lazy_region;
    k->eps = eps;
    k->cu = malloc((size_t)(M + 1) * sizeof *k->cu);
    k->ct = malloc((size_t)(M + 1) * sizeof *k->ct);
    if (!k->cu || !k->ct)
        goto nomem;
    for (long i = 0; i < B && i <= M; i++)
        pless += dist[i];
    memcpy(k->cu, dist, (size_t)(M + 1) * sizeof *dist);
    if (lazy_region) {
        /* Algorithm 4 below the threshold */
        for (long i = 0; i < B && i <= M; i++)
            k->cu[i] *= eps;
        if (B <= M)
            k->cu[B] += (1.0 - eps) * pless;
    }
    k->thstar = cramer_root(k->cu, M, B);
    /* With E > B the root is negative: the mass piles up under S and
     * decays downwards like e^{theta (S - l)}, so the mirrored tilt keeps
     * x O(1) there too; the fold is then computed apart (apply_fold). */
    k->theta = k->thstar;
    if (!lazy_region && k->theta > 0 && b != NULL) {
        /* tilted law as the convolution of tilted Bernoullis: nothing
         * under- or overflows however far the tail */
        double *pt = malloc((napp > 0 ? napp : 1) * sizeof *pt), lam = 0;

        if (pt == NULL)
            goto nomem;
        for (size_t i = 0; i < napp; i++) {
            double e = exp(-k->theta * (double)b[i]);

            pt[i] = p[i] > 0 ? p[i] / (p[i] + (1.0 - p[i]) * e) : 0.0;
            if (p[i] > 0)
                lam += k->theta * (double)b[i] + log(p[i] + (1.0 - p[i]) * e);
        }
        bba_dist_compute(napp, b, pt, M, k->ct);
        free(pt);
        lam = exp(lam - k->theta * (double)B);
        for (long i = 0; i <= M; i++)
            k->ct[i] *= lam;
    } else {
        for (long i = 0; i <= M; i++)
            k->ct[i] = k->cu[i] > 0 ? exp(log(k->cu[i]) + k->theta * (double)(i - B)) : 0.0;
    }
    rc = wh_factor(k, M, B, err);
    if (rc != BB_OK) {
        bba_fftwh_kern_free(k);
        return rc;
    }
    if (cache) {
        pthread_mutex_lock(&cache->lock);
        if (cache->n < (int)(sizeof cache->e / sizeof cache->e[0])) {
            cache->M = M;
            cache->B = B;
            cache->e[cache->n++] = k;
            *owned = 0;
        }
        pthread_mutex_unlock(&cache->lock);
    }
    *out = k;
    return BB_OK;
nomem:
    bba_fftwh_kern_free(k);
    return bb_seterr(err, BB_ENOMEM, "out of memory for the kernel (%ld loads)", M + 1);
}
