/* fftwh.c: FFT Wiener-Hopf-preconditioned GMRES for the censored burst-
 * buffer chain (fftwh.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Notation.  States l = 0..S; T the lazy threshold (0 for greedy); region 0
 * is [0, T), region 1 is [T, S].  Region r moves by d = k - B with the law
 * c_r(d): region 1 has c_1(d) = DIST(d + B); region 0 (Algorithm 4) has
 * c_0(d) = c_1(d) for d > 0, EPS c_1(d) for d < 0 and
 * c_1(0) + (1 - EPS) Pr(X < B) at d = 0.  The tilt is h(l) = theta_0 l
 * below T and theta_0 T + theta_1 (l - T) above; x_l = pi_l e^{h(l)}.  The
 * tilted product y = x P~, P~(j,l) = P(j,l) e^{h(l) - h(j)}, is assembled
 * from: one FFT convolution per region for destinations inside the
 * region's slope (tilted kernel c_r(d) e^{theta_r d}, a probability law
 * when theta_r is the Cramer root); the threshold crossings by a small
 * convolution (upwards, scaled so that every factor is <= 1) and a direct
 * O(B^2) sum (downwards); the clamp at 0 directly, O(B); the fold at S from
 * the convolution values beyond S times e^{h(L) - h(S + o)} <= 1.
 * References: Feller vol. II ch. XII (ladder heights, Wiener-Hopf);
 * Fusai, Germano and Marazzina 2016 (the cepstral FFT factorisation);
 * Chan and Ng 1996 (preconditioned Krylov methods for Toeplitz systems);
 * Saad and Schultz 1986 (GMRES).
 *
 * Why one file of this size: the tilt, the regions' convolutions, the fold
 * at S, the Wiener-Hopf factors and the GMRES loop share the tilted
 * indexing above and its overflow guards (every factor kept <= 1); split,
 * each part would need that invariant restated and checked again.  The
 * generic FFT convolution other modules use is the small bba_fftconv. */
#include "config.h"

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "bb_error.h"
#include "dist.h"
#include "fftwh.h"

/* FFTW's planner is not thread-safe (sweep points run on threads);
 * executing a plan on new arrays is. */
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- FFT convolution engines ------------------------------------------ */

typedef struct {
    long N;              /* transform length */
    double *rbuf;        /* N reals */
    fftw_complex *cbuf;  /* N/2 + 1 */
    fftw_plan fwd, bwd;
} engine;

static long
good_size(long n)
{
    long best = LONG_MAX;

    if (n < 16)
        n = 16;
    /* smallest 2^a 3^b 5^c >= n */
    for (long p5 = 1; p5 < 2 * n; p5 *= 5)
        for (long p3 = p5; p3 < 2 * n; p3 *= 3) {
            long v = p3;

            while (v < n)
                v *= 2;
            if (v < best)
                best = v;
        }
    return best;
}

static int
eng_init(engine *e, long N)
{
    memset(e, 0, sizeof *e);
    e->N = N;
    e->rbuf = fftw_malloc((size_t)N * sizeof *e->rbuf);
    e->cbuf = fftw_malloc((size_t)(N / 2 + 1) * sizeof *e->cbuf);
    if (e->rbuf == NULL || e->cbuf == NULL)
        return -1;
    pthread_mutex_lock(&plan_lock);
    e->fwd = fftw_plan_dft_r2c_1d((int)N, e->rbuf, e->cbuf, FFTW_ESTIMATE);
    e->bwd = fftw_plan_dft_c2r_1d((int)N, e->cbuf, e->rbuf, FFTW_ESTIMATE);
    pthread_mutex_unlock(&plan_lock);
    return e->fwd && e->bwd ? 0 : -1;
}

static void
eng_free(engine *e)
{
    pthread_mutex_lock(&plan_lock);
    if (e->fwd)
        fftw_destroy_plan(e->fwd);
    if (e->bwd)
        fftw_destroy_plan(e->bwd);
    pthread_mutex_unlock(&plan_lock);
    fftw_free(e->rbuf);
    fftw_free(e->cbuf);
    memset(e, 0, sizeof *e);
}

/* spec (N/2 + 1, fftw_malloc'd by the caller) = DFT of a[0..na) padded. */
static void
eng_spectrum(engine *e, const double *a, long na, fftw_complex *spec)
{
    memcpy(e->rbuf, a, (size_t)na * sizeof *a);
    memset(e->rbuf + na, 0, (size_t)(e->N - na) * sizeof *a);
    fftw_execute_dft_r2c(e->fwd, e->rbuf, spec);
}

/* out[i] = (x * k)[o0 + i] for i < nout, k given by its spectrum; the
 * linear convolution must fit in N (caller's sizing). */
static void
eng_conv(engine *e, const double *x, long nx, const fftw_complex *kspec,
         double *out, long o0, long nout)
{
    long h = e->N / 2 + 1;
    double s = 1.0 / (double)e->N;

    eng_spectrum(e, x, nx, e->cbuf);
    for (long i = 0; i < h; i++)
        e->cbuf[i] *= kspec[i];
    fftw_execute_dft_c2r(e->bwd, e->cbuf, e->rbuf);
    for (long i = 0; i < nout; i++)
        out[i] = e->rbuf[o0 + i] * s;
}

/* b[0..L) = 1/a as a power series (a[0] = 1), by Newton's iteration
 * b <- b + b (1 - a b), doubling the length each step: O(L log L), each
 * step on an engine of its own size. */
static int
series_inverse(const double *a, long na, double *b, long L)
{
    double *t = NULL, *buf = NULL;
    long len = 1;
    int rc = -1;

    b[0] = 1.0 / a[0];
    if ((double)L * (double)(na < L ? na : L) <= 4e7) {
        /* short: the renewal recursion directly (no FFTW plans, whose
         * first creation in a process costs more than this) */
        for (long i = 1; i < L; i++) {
            double acc = 0;

            for (long d = 1; d < na && d <= i; d++)
                acc -= a[d] * b[i - d];
            b[i] = acc / a[0];
        }
        return 0;
    }
    t = malloc((size_t)L * sizeof *t);
    buf = malloc((size_t)L * sizeof *buf);
    if (t == NULL || buf == NULL)
        goto out;
    while (len < L) {
        long n2 = 2 * len < L ? 2 * len : L, nb = na < n2 ? na : n2;
        engine e;
        fftw_complex *sp = NULL;
        int ok;

        ok = eng_init(&e, good_size(nb + len > n2 ? nb + len : n2)) == 0
             && (sp = fftw_malloc((size_t)(e.N / 2 + 1) * sizeof *sp)) != NULL;
        if (ok) {
            /* e = a b (first n2 terms), then b[len..n2) = b * (-e[len..n2)) */
            eng_spectrum(&e, b, len, sp);
            eng_conv(&e, a, nb, sp, buf, 0, n2);
            for (long i = len; i < n2; i++)
                t[i - len] = -buf[i];
            eng_conv(&e, t, n2 - len, sp, b + len, 0, n2 - len);
        }
        fftw_free(sp);
        eng_free(&e);
        if (!ok)
            goto out;
        len = n2;
    }
    rc = 0;
out:
    free(t);
    free(buf);
    return rc;
}

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
 * needed sign).  Bisection on the convex psi: 200 halvings. */
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
} kern_t;

struct bba_fftwh_cache {
    pthread_mutex_t lock;
    long M, B;             /* the model the entries belong to */
    int n;
    kern_t *e[8];
};

typedef struct {
    long lo, hi, n;        /* the region's states [lo, hi], n = hi - lo + 1 */
    kern_t *k;             /* the kernel's data (cached or owned) */
    int owned;             /* 1: k is this solve's own */
    fftw_complex *kspec;   /* ct at the big engine */
    engine pe;             /* preconditioner engine, N >= 2n */
    fftw_complex *upspec, *umspec; /* renewal sequences u+, u- */
} region;

static void
kern_free(kern_t *k)
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
        kern_free(c->e[i]);
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
wh_factor(kern_t *r, long M, long B, char *err)
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
    pthread_mutex_lock(&plan_lock);
    pb = fftw_plan_dft_1d((int)N, f, f, FFTW_BACKWARD, FFTW_ESTIMATE);
    pf = fftw_plan_dft_1d((int)N, f, f, FFTW_FORWARD, FFTW_ESTIMATE);
    pthread_mutex_unlock(&plan_lock);
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
    pthread_mutex_lock(&plan_lock);
    if (pb)
        fftw_destroy_plan(pb);
    if (pf)
        fftw_destroy_plan(pf);
    pthread_mutex_unlock(&plan_lock);
    fftw_free(f);
    fftw_free(g);
    free(ap);
    free(am);
    return rc;
}

/* The renewal sequences u+ = 1/A+, u- = 1/A- to n terms (grown in k when
 * shorter, under lock when k is shared), transformed at r's engine. */
static int
region_renewal(region *r, long M, long B, pthread_mutex_t *lock, char *err)
{
    kern_t *k = r->k;
    long U = M - B > 0 ? M - B : 0;
    int rc = BB_OK;

    r->upspec = fftw_malloc((size_t)(r->pe.N / 2 + 1) * sizeof *r->upspec);
    r->umspec = fftw_malloc((size_t)(r->pe.N / 2 + 1) * sizeof *r->umspec);
    if (!r->upspec || !r->umspec)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the renewal sequences");
    if (lock)
        pthread_mutex_lock(lock);
    if (k->Lu < r->n) {
        /* grow geometrically: a threshold search lengthens region 0 at
         * every step */
        long L = r->n > 2 * k->Lu ? r->n : 2 * k->Lu;
        double *up = malloc((size_t)L * sizeof *up), *um = malloc((size_t)L * sizeof *um);

        if (!up || !um || series_inverse(k->ap, U + 1, up, L) != 0
            || series_inverse(k->am, B + 1, um, L) != 0) {
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
    eng_spectrum(&r->pe, k->up, r->n, r->upspec);
    eng_spectrum(&r->pe, k->um, r->n, r->umspec);
out:
    if (lock)
        pthread_mutex_unlock(lock);
    return rc;
}

/* ---- the solver workspace ---------------------------------------------- */

typedef struct {
    long S, B, M, U, T;
    double eps;
    int nreg;            /* 1 (greedy or T = 0) or 2 */
    region reg[2];       /* reg[0]: [0, T) (lazy only); reg[1]: [T, S] */
    double th0, th1;     /* slopes of h */
    engine big;          /* N >= S + M + 1 */
    engine small;        /* N >= 2U + 1, region 0 crossing upwards */
    fftw_complex *xspec; /* crossing kernel spectrum at the small engine */
    double thx;          /* crossing tilt max(th0, th1) */
    /* E > B (th1 < 0): the jumps past S, from every source, by their own
     * convolution scaled to S (see apply_fold); else from the regions'
     * tilted convolutions */
    int fold_own;
    long fold_ns;        /* sources S - fold_ns + 1 .. S */
    engine fold;         /* N >= fold_ns + U */
    fftw_complex *fspec; /* c(d), d = 1..U, at the fold engine */
    double *fsc;         /* e^{h(S) - h(j)} <= 1 for the fold's sources */
    double *clamp0, *clamp1; /* sum_{d < -j} c_r(d), j = 0..B */
    double *w, *q, *xs;  /* scratch: S + M + 1, 2U + 2, S + 1 */
    double *hl;          /* h(l), l = 0..S + M */
} ws_t;

static double
h_at(const ws_t *s, long l)
{
    return l <= s->T ? s->th0 * (double)l : s->th0 * (double)s->T + s->th1 * (double)(l - s->T);
}

/* Where a jump to virtual position m > S lands after its stalls. */
static long
fold_to(long S, long B, long m, long *stalls)
{
    long o = m - S, st = (o + B - 1) / B, L = m - st * B;

    if (stalls)
        *stalls = st;
    return L > 0 ? L : 0;
}

/* Accumulator for sum of e^{a_i} without overflow. */
typedef struct { double mx, s; } lse_acc;
static void
lse_add(lse_acc *a, double lg)
{
    if (!(lg > -INFINITY))
        return;
    if (lg > a->mx) {
        a->s = a->s * exp(a->mx - lg) + 1.0;
        a->mx = lg;
    } else {
        a->s += exp(lg - a->mx);
    }
}
static double
lse_val(const lse_acc *a)
{
    return a->s > 0 ? a->mx + log(a->s) : -INFINITY;
}

/* The jumps past S when the top region's tilt is negative (E > B: the
 * mass piles up under S and decays downwards, h decreases).  There the
 * tilted values beyond S are e^{|theta| (m - S)} below the mass they fold
 * onto (m - S up to U, so e^{-600} on the default workload at 30 GB/s):
 * taken from the regions' tilted convolutions they underflow, and the
 * fold factor e^{h(L) - h(m)} overflows.  Instead, with the sources
 * rescaled to S, x'_j = x_j e^{h(S) - h(j)} <= 1 (h nonincreasing: the
 * region below a lazy threshold drifts up at least as fast), one
 * convolution with the untilted up-jump law c(d) = DIST(d + B), d >= 1
 * (the same in both regions), gives q(m) = e^{h(S)} (untilted mass at m);
 * it lands at L in (S - B, S] with the factor e^{h(L) - h(S)} <=
 * e^{|theta| B}.  Every factor is bounded, and the stall units' log is
 * log q(m) - h(S). */
static void
apply_fold(ws_t *s, const double *x, double *y, lse_acc *nacc, double *over)
{
    long S = s->S, B = s->B, U = s->U, ns = s->fold_ns, j0 = S - ns + 1;

    for (long i = 0; i < ns; i++)
        s->xs[i] = x[j0 + i] * s->fsc[i];
    /* out[i + t] = sum x'_{j0 + i} c(t + 1): m = j0 + i + t + 1 */
    eng_conv(&s->fold, s->xs, ns, s->fspec, s->q, 0, ns + U - 1);
    for (long o = 1; o <= U; o++) {
        long m = S + o, st, L = fold_to(S, B, m, &st);
        double v = s->q[m - j0 - 1];

        y[L] += v * exp(s->hl[L] - s->hl[S]);
        if (!(v > 0)) /* the logs only: the product stays linear */
            continue;
        if (nacc)
            lse_add(nacc, log(v) - s->hl[S] + log((double)st));
        if (over) {
            double lg = log(v) - s->hl[S], *ov = &over[o - 1];

            *ov = *ov > lg ? *ov + log1p(exp(lg - *ov)) : lg + log1p(exp(*ov - lg));
        }
    }
}

/* y = x P~ (tilted censored chain).  When nu is not NULL, *nu receives log
 * of the expected stall units per step, sum_j pi_j E[ceil(o/B)^+], and
 * over (when not NULL, U entries) the untilted mass arriving at overflow
 * position S + o, o = 1..U, as logs (-inf for none). */
static void
apply_P(ws_t *s, const double *x, double *y, double *nu, double *over)
{
    long S = s->S, B = s->B, M = s->M, U = s->U, T = s->T;
    lse_acc nacc = { -INFINITY, 0 };

    memset(y, 0, (size_t)(S + 1) * sizeof *y);
    if (over)
        for (long o = 0; o < U; o++)
            over[o] = -INFINITY;

    /* region 1: sources [T, S] */
    {
        region *r = &s->reg[1];

        memset(s->xs, 0, (size_t)T * sizeof *s->xs);
        memcpy(s->xs + T, x + T, (size_t)(S + 1 - T) * sizeof *x);
        eng_conv(&s->big, s->xs, S + 1, r->kspec, s->w, 0, S + M + 1);
        /* s->w[l + B] is the tilted mass at destination l */
        for (long l = T; l <= S; l++)
            y[l] += s->w[l + B];
        for (long o = 1; o <= U && !s->fold_own; o++) {
            long m = S + o, st, L = fold_to(S, B, m, &st);
            double v = s->w[m + B];
            /* untilted value at m: v e^{-h1(m)}, h1 the region's line */
            double h1m = s->th0 * (double)T + s->th1 * (double)(m - T);

            y[L] += v * exp(s->hl[L] - h1m);
            if (!(v > 0)) /* the logs only: the product stays linear */
                continue;
            if (nu)
                lse_add(&nacc, log(v) - h1m + log((double)st));
            if (over) {
                double lg = log(v) - h1m, *ov = &over[o - 1];

                *ov = *ov > lg ? *ov + log1p(exp(lg - *ov)) : lg + log1p(exp(*ov - lg));
            }
        }
        /* downwards across T, directly: j in [T, T + B), l = j + d < T */
        for (long j = T; T > 0 && j <= S && j < T + B; j++) {
            long dlo = -j > -B ? -j : -B; /* l = j + d in [0, T) */

            if (x[j] == 0)
                continue;
            for (long d = dlo; d < T - j; d++) {
                long l = j + d;
                double c = r->k->cu[d + B];

                if (c == 0)
                    continue;
                y[l] += x[j] * exp(log(c) + s->hl[l] - s->hl[j]);
            }
        }
        /* clamp at 0: j in [T, B), jumps d < -j */
        for (long j = T; j <= S && j < B; j++)
            if (s->clamp1[j] > 0)
                y[0] += x[j] * exp(log(s->clamp1[j]) - s->hl[j]);
    }
    if (s->nreg == 2) {
        region *r = &s->reg[0];
        long j0 = T - U > 0 ? T - U : 0;

        memcpy(s->xs, x, (size_t)T * sizeof *x);
        memset(s->xs + T, 0, (size_t)(S + 1 - T) * sizeof *s->xs);
        eng_conv(&s->big, s->xs, S + 1, r->kspec, s->w, 0, S + M + 1);
        for (long l = 0; l <= T && l <= S; l++)
            y[l] += s->w[l + B];
        /* upwards across T: x'_j = x_j e^{(th0 - thx)(T - j)}, kernel
         * c_0(d) e^{thx d}, d >= 1; q[m - (T - U)] for m in (T, T + U) */
        if (U > 0) {
            for (long i = 0; i < U; i++) {
                long j = T - U + i;

                s->xs[i] = j >= j0 ? x[j] * exp((s->th0 - s->thx) * (double)(T - j)) : 0.0;
            }
            eng_conv(&s->small, s->xs, U, s->xspec, s->q, 0, 2 * U);
            for (long m = T + 1; m < T + U; m++) {
                double v = s->q[m - (T - U)];
                double H0 = s->th0 * (double)T + s->thx * (double)(m - T);

                if (m <= S) {
                    y[m] += v * exp(s->hl[m] - H0);
                } else if (!s->fold_own) {
                    long st, L = fold_to(S, B, m, &st);

                    y[L] += v * exp(s->hl[L] - H0);
                    if (!(v > 0)) /* the logs only */
                        continue;
                    if (nu)
                        lse_add(&nacc, log(v) - H0 + log((double)st));
                    if (over) {
                        double lg = log(v) - H0, *ov = &over[m - S - 1];

                        *ov = *ov > lg ? *ov + log1p(exp(lg - *ov)) : lg + log1p(exp(*ov - lg));
                    }
                }
            }
        }
        for (long j = 0; j < T && j < B; j++)
            if (s->clamp0[j] > 0)
                y[0] += x[j] * exp(log(s->clamp0[j]) - s->hl[j]);
    }
    if (s->fold_own)
        apply_fold(s, x, y, nu ? &nacc : NULL, over);
    if (nu)
        *nu = lse_val(&nacc);
}

/* The bordered operator: A x = x - x P~ + (mean x) 1. */
static void
apply_A(ws_t *s, const double *x, double *y)
{
    long n = s->S + 1;
    double mean = 0;

    apply_P(s, x, y, NULL, NULL);
    for (long l = 0; l < n; l++)
        mean += x[l];
    mean /= (double)n;
    for (long l = 0; l < n; l++)
        y[l] = x[l] - y[l] + mean;
}

/* z = M^{-1} v: per region, the anticausal factor then the causal one. */
static void
apply_Minv(ws_t *s, const double *v, double *z)
{
    for (int ri = 2 - s->nreg; ri < 2; ri++) {
        region *r = &s->reg[ri];
        long n = r->n;
        double *t = s->xs; /* S + 1 scratch */

        for (long i = 0; i < n; i++)
            t[i] = v[r->lo + n - 1 - i];
        eng_conv(&r->pe, t, n, r->umspec, s->w, 0, n);
        for (long i = 0; i < n; i++)
            t[i] = s->w[n - 1 - i];
        eng_conv(&r->pe, t, n, r->upspec, z + r->lo, 0, n);
        for (long i = 0; i < n; i++)
            z[r->lo + i] /= r->k->K;
    }
}

static void
ws_free(ws_t *s)
{
    for (int i = 0; i < 2; i++) {
        region *r = &s->reg[i];

        if (r->owned)
            kern_free(r->k);
        fftw_free(r->kspec);
        fftw_free(r->upspec);
        fftw_free(r->umspec);
        eng_free(&r->pe);
    }
    eng_free(&s->big);
    eng_free(&s->small);
    fftw_free(s->xspec);
    eng_free(&s->fold);
    fftw_free(s->fspec);
    free(s->fsc);
    free(s->clamp0);
    free(s->clamp1);
    free(s->w);
    free(s->q);
    free(s->xs);
    free(s->hl);
}

double
bba_fftwh_bytes(long M, long B, long S, const bba_solver_opts *o)
{
    double n = (double)S + 1.0, nm = (double)S + (double)M + 1.0;
    double U = M > B ? (double)(M - B) : 0.0;
    double m = o->restart > 0 ? (double)o->restart : 30.0;

    (void)B;
    /* GMRES basis, 4 work vectors; big engine and 2 spectra, scratch w, h;
     * per region a preconditioner engine of 2n with 2 spectra; the
     * cepstrum (4 M complex); the crossing engine */
    return 8.0 * ((m + 6.0) * n + 2.0 * 1.3 * nm + 2.0 * nm + 2 * 3 * 2.6 * n
                  + 2.0 * 2.0 * 8.0 * ((double)M + 1.0) + 4.0 * 1.3 * U);
}

/* The kernel data for region kind lazy_region (EPS eps): from the cache
 * when there, else built (and inserted when the cache has room). */
static int
kern_get(bba_fftwh_cache *cache, int lazy_region, double eps, const double *dist,
         long M, long B, size_t napp, const long *b, const double *p, kern_t **out,
         int *owned, char *err)
{
    kern_t *k = NULL;
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
        kern_free(k);
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
    kern_free(k);
    return bb_seterr(err, BB_ENOMEM, "out of memory for the kernel (%ld loads)", M + 1);
}

/* Build the kernels, tilts, engines and factors for (S, T). */
static int
ws_init(ws_t *s, const double *dist, long M, long B, long S, size_t napp,
        const long *b, const double *p, const bba_policy *pol, bba_fftwh_cache *cache,
        char *err)
{
    long U = M > B ? M - B : 0;
    int rc = BB_OK;

    memset(s, 0, sizeof *s);
    s->S = S;
    s->B = B;
    s->M = M;
    s->U = U;
    s->T = pol->lazy ? pol->threshold : 0;
    s->eps = pol->lazy ? pol->eps : 1.0;
    s->nreg = s->T > 0 ? 2 : 1;

    s->w = malloc((size_t)(S + M + 1) * sizeof *s->w);
    s->q = malloc((size_t)(2 * U + 2) * sizeof *s->q);
    s->xs = malloc((size_t)(S + 1 > 2 * U + 2 ? S + 1 : 2 * U + 2) * sizeof *s->xs);
    s->hl = malloc((size_t)(S + M + 1) * sizeof *s->hl);
    s->clamp0 = calloc((size_t)B + 1, sizeof *s->clamp0);
    s->clamp1 = calloc((size_t)B + 1, sizeof *s->clamp1);
    if (!s->w || !s->q || !s->xs || !s->hl || !s->clamp0 || !s->clamp1)
        goto nomem;
    if (eng_init(&s->big, good_size(S + M + 1)) != 0)
        goto nomem;

    for (int ri = 2 - s->nreg; ri < 2; ri++) {
        region *r = &s->reg[ri];

        r->lo = ri == 0 ? 0 : s->T;
        r->hi = ri == 0 ? s->T - 1 : S;
        r->n = r->hi - r->lo + 1;
        r->kspec = fftw_malloc((size_t)(s->big.N / 2 + 1) * sizeof *r->kspec);
        if (!r->kspec)
            goto nomem;
        rc = kern_get(cache, ri == 0, s->eps, dist, M, B, napp, b, p, &r->k, &r->owned, err);
        if (rc != BB_OK)
            goto out;
        eng_spectrum(&s->big, r->k->ct, M + 1, r->kspec);
        /* a power of two: searches vary n at every solve, and FFTW reuses
         * the plans of sizes it has seen */
        long npe = 16;

        while (npe < 2 * r->n)
            npe *= 2;
        if (eng_init(&r->pe, npe) != 0)
            goto nomem;
        rc = region_renewal(r, M, B, r->owned ? NULL : &cache->lock, err);
        if (rc != BB_OK)
            goto out;
    }
    s->th1 = s->reg[1].k->theta;
    s->th0 = s->nreg == 2 ? s->reg[0].k->theta : s->th1;
    for (long l = 0; l <= S + M; l++)
        s->hl[l] = h_at(s, l);
    /* clamps: sum_{k < B - j} c_r(k) */
    {
        double acc = 0;

        /* clamp1[j] = sum_{k < B - j} dist[k] */
        for (long j = B; j >= 0; j--) {
            s->clamp1[j] = acc;
            if (B - j <= M)
                acc += dist[B - j];
        }
        for (long j = 0; j <= B; j++)
            s->clamp0[j] = s->eps * s->clamp1[j];
    }
    if (s->nreg == 2 && U > 0) {
        double *kt = calloc((size_t)U + 1, sizeof *kt);

        s->thx = s->th0 > s->th1 ? s->th0 : s->th1;
        if (kt == NULL || eng_init(&s->small, good_size(2 * U + 1)) != 0
            || !(s->xspec = fftw_malloc((size_t)(s->small.N / 2 + 1) * sizeof *s->xspec))) {
            free(kt);
            goto nomem;
        }
        for (long d = 1; d <= U; d++)
            kt[d] = s->reg[0].k->cu[d + B] > 0
                        ? exp(log(s->reg[0].k->cu[d + B]) + s->thx * (double)d) : 0.0;
        eng_spectrum(&s->small, kt, U + 1, s->xspec);
        free(kt);
    }
    if (s->th1 < 0 && U > 0) {
        double *kc = malloc((size_t)U * sizeof *kc);

        s->fold_own = 1;
        s->fold_ns = S + 1 < U ? S + 1 : U;
        s->fsc = malloc((size_t)s->fold_ns * sizeof *s->fsc);
        if (kc == NULL || s->fsc == NULL || eng_init(&s->fold, good_size(s->fold_ns + U)) != 0
            || !(s->fspec = fftw_malloc((size_t)(s->fold.N / 2 + 1) * sizeof *s->fspec))) {
            free(kc);
            goto nomem;
        }
        for (long d = 1; d <= U; d++)
            kc[d - 1] = dist[d + B];
        eng_spectrum(&s->fold, kc, U, s->fspec);
        free(kc);
        for (long i = 0; i < s->fold_ns; i++)
            s->fsc[i] = exp(s->hl[S] - s->hl[S - s->fold_ns + 1 + i]);
    }
out:
    return rc;
nomem:
    return bb_seterr(err, BB_ENOMEM, "out of memory for the FFT solver (%ld states)", S + 1);
}

/* ---- GMRES ---------------------------------------------------------------- */

static double
dot(const double *a, const double *b, long n)
{
    double s = 0;

    for (long i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* Right-preconditioned restarted GMRES(m) for A x = b (Saad and Schultz
 * 1986), x = 0 initially.  Returns the true relative residual. */
static int
gmres(ws_t *s, const double *bvec, double *x, int m, long maxit, double tol,
      long *iters, double *relres, char *err)
{
    long n = s->S + 1, it = 0;
    double *V = NULL, *H = NULL, *cs = NULL, *sn = NULL, *g = NULL, *yv = NULL;
    double *r = NULL, *z = NULL, bnorm, beta;
    int rc = BB_OK;

    V = malloc((size_t)(m + 1) * (size_t)n * sizeof *V);
    H = calloc((size_t)(m + 1) * (size_t)m, sizeof *H);
    cs = malloc((size_t)m * sizeof *cs);
    sn = malloc((size_t)m * sizeof *sn);
    g = malloc((size_t)(m + 1) * sizeof *g);
    yv = malloc((size_t)m * sizeof *yv);
    r = malloc((size_t)n * sizeof *r);
    z = malloc((size_t)n * sizeof *z);
    if (!V || !H || !cs || !sn || !g || !yv || !r || !z) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for GMRES (%ld states)", n);
        goto out;
    }
    memset(x, 0, (size_t)n * sizeof *x);
    memcpy(r, bvec, (size_t)n * sizeof *r);
    bnorm = sqrt(dot(bvec, bvec, n));
    beta = bnorm;
    while (beta > tol * bnorm && it < maxit) {
        int k = 0;
        double prev = beta;

        for (long i = 0; i < n; i++)
            V[i] = r[i] / beta;
        memset(g, 0, (size_t)(m + 1) * sizeof *g);
        g[0] = beta;
        for (k = 0; k < m && it < maxit; k++) {
            double *vk = V + (size_t)k * (size_t)n, *w = V + (size_t)(k + 1) * (size_t)n;
            double hn, t;

            apply_Minv(s, vk, z);
            apply_A(s, z, w);
            for (int pass = 0; pass < 2; pass++)   /* MGS, twice */
                for (int i = 0; i <= k; i++) {
                    double *vi = V + (size_t)i * (size_t)n, hij = dot(w, vi, n);

                    H[i * m + k] += hij;
                    for (long l = 0; l < n; l++)
                        w[l] -= hij * vi[l];
                }
            hn = sqrt(dot(w, w, n));
            H[(k + 1) * m + k] = hn;
            if (hn > 0)
                for (long l = 0; l < n; l++)
                    w[l] /= hn;
            for (int i = 0; i < k; i++) {
                double a = H[i * m + k], c = H[(i + 1) * m + k];

                H[i * m + k] = cs[i] * a + sn[i] * c;
                H[(i + 1) * m + k] = -sn[i] * a + cs[i] * c;
            }
            t = hypot(H[k * m + k], H[(k + 1) * m + k]);
            cs[k] = t > 0 ? H[k * m + k] / t : 1.0;
            sn[k] = t > 0 ? H[(k + 1) * m + k] / t : 0.0;
            H[k * m + k] = t;
            H[(k + 1) * m + k] = 0;
            g[k + 1] = -sn[k] * g[k];
            g[k] = cs[k] * g[k];
            it++;
            if (fabs(g[k + 1]) <= tol * bnorm || hn == 0) {
                k++;
                break;
            }
        }
        /* y = H^{-1} g; x += M^{-1} V y */
        for (int i = k - 1; i >= 0; i--) {
            double acc = g[i];

            for (int j = i + 1; j < k; j++)
                acc -= H[i * m + j] * yv[j];
            yv[i] = H[i * m + i] != 0 ? acc / H[i * m + i] : 0.0;
        }
        memset(r, 0, (size_t)n * sizeof *r);
        for (int i = 0; i < k; i++) {
            const double *vi = V + (size_t)i * (size_t)n;

            for (long l = 0; l < n; l++)
                r[l] += yv[i] * vi[l];
        }
        apply_Minv(s, r, z);
        for (long l = 0; l < n; l++)
            x[l] += z[l];
        memset(H, 0, (size_t)(m + 1) * (size_t)m * sizeof *H);
        /* the true residual */
        apply_A(s, x, r);
        for (long l = 0; l < n; l++)
            r[l] = bvec[l] - r[l];
        beta = sqrt(dot(r, r, n));
        if (!isfinite(beta))
            break;
        /* round-off floor: a restart that no longer halves an acceptable
         * residual (within 100 tol) is not worth another cycle */
        if (beta <= 100 * tol * bnorm && beta > 0.5 * prev)
            break;
    }
    *iters = it;
    *relres = bnorm > 0 ? beta / bnorm : beta;
out:
    free(V);
    free(H);
    free(cs);
    free(sn);
    free(g);
    free(yv);
    free(r);
    free(z);
    return rc;
}

/* ---- the entry point -------------------------------------------------------- */

/* The GMRES restart length at most when E > B (eval_core): B + 60 up to
 * this; (FOLD_RESTART_MAX + 6) (S + 1) doubles. */
#define FOLD_RESTART_MAX 400

static int
eval_core(const double *dist, long M, long B, long S, size_t napp,
          const long *b, const double *p, const bba_policy *pol,
          const bba_solver_opts *o, bba_fftwh_cache *cache, bba_measures *meas,
          bba_solve_info *info, double *pi, char *err)
{
    ws_t s;
    double *x = NULL, *rhs = NULL, *y = NULL, *over = NULL, relres = INFINITY;
    long U = M > B ? M - B : 0, n = S + 1, iters = 0;
    long maxit = o->krylov_max_iter > 0 ? o->krylov_max_iter : 300;
    int restart = o->restart > 0 ? o->restart : 30;
    double bytes, lognu, logZ, logD, pless = 0, pgeB, minx = 0, maxx = 0;
    int rc = BB_OK;

    memset(meas, 0, sizeof *meas);
    memset(info, 0, sizeof *info);
    if (S < 0 || B <= 0 || M < 0)
        return bb_seterr(err, BB_EINVAL, "bad dimensions S = %ld, B = %ld, M = %ld", S, B, M);
    if (pol->lazy && (pol->threshold < 0 || pol->threshold > S || !(pol->eps >= 0 && pol->eps <= 1)))
        return bb_seterr(err, BB_EINVAL, "lazy policy out of range (threshold %ld, EPS %g)",
                         pol->threshold, pol->eps);
    bytes = bba_fftwh_bytes(M, B, S, o);
    info->peak_bytes = bytes;
    if ((o->mem_limit_bytes > 0 && bytes > o->mem_limit_bytes)
        || 2.0 * ((double)S + (double)M + 2.0) > (double)INT_MAX)
        return bb_seterr(err, BB_ETOOBIG, "the FFT solve would have %ld states and need "
                         "%.3g GB (limit %.3g GB)", S + U + 1, bytes / 1e9,
                         o->mem_limit_bytes > 0 ? o->mem_limit_bytes / 1e9 : 0.0);
    for (long k = 0; k < B && k <= M; k++)
        pless += dist[k];
    pgeB = 0;
    for (long k = M; k >= B; k--)
        pgeB += dist[k];

    if (M <= B) {
        /* No load overflows or grows the buffer: every state drains to 0
         * (reachability is the caller's precondition), which absorbs. */
        meas->idle = 0;
        meas->log10_idle = -INFINITY;
        meas->quiet = 1;
        meas->mean_load = 0;
        meas->p_empty = 1;
        meas->p_full = S == 0 ? 1 : 0;
        info->iterations = 0;
        info->residual = 0;
        if (pi) {
            memset(pi, 0, (size_t)(S + U + 1) * sizeof *pi);
            pi[0] = 1;
        }
        return BB_OK;
    }

    rc = ws_init(&s, dist, M, B, S, napp, b, p, pol, cache, err);
    if (rc != BB_OK)
        goto out;
    x = malloc((size_t)n * sizeof *x);
    rhs = malloc((size_t)n * sizeof *rhs);
    y = malloc((size_t)n * sizeof *y);
    over = malloc((size_t)(U + 1) * sizeof *over);
    if (!x || !rhs || !y || !over) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the FFT solver (%ld states)", n);
        goto out;
    }
    for (long l = 0; l < n; l++)
        rhs[l] = 1.0;
    if (s.fold_own) {
        /* E > B: the preconditioner is exact at the bottom and in the
         * interior, and the top boundary (where the mass is) leaves a
         * correction of rank about B that restarts of 30 never finish
         * (the default workload at 30 GB/s stalls at 2e-7 after 300
         * steps; 82 steps in one cycle of B + 60).  Give GMRES that
         * basis when it fits in memory. */
        long want = B + 60 < FOLD_RESTART_MAX ? B + 60 : FOLD_RESTART_MAX;
        bba_solver_opts o2 = *o;

        o2.restart = want;
        if (want > restart && !(o->mem_limit_bytes > 0
                                && bba_fftwh_bytes(M, B, S, &o2) > o->mem_limit_bytes))
            restart = (int)want;
        if (maxit < 3L * restart)
            maxit = 3L * restart;
        info->peak_bytes = bba_fftwh_bytes(M, B, S, &o2);
    }
    rc = gmres(&s, rhs, x, restart, maxit,
               o->fft_tol > 0 ? o->fft_tol : 1e-14, &iters, &relres, err);
    if (rc != BB_OK)
        goto out;
    info->iterations = iters;
    info->residual = relres;
    for (long l = 0; l < n; l++) {
        if (x[l] < minx)
            minx = x[l];
        if (x[l] > maxx)
            maxx = x[l];
    }
    if (!(relres <= 100 * (o->fft_tol > 0 ? o->fft_tol : 1e-14)) || !(maxx > 0)
        || minx < -1e-8 * maxx) {
        rc = bb_seterr(err, BB_ENOCONV, "the FFT Wiener-Hopf solver stopped after %ld GMRES "
                       "steps at relative residual %.3g (tolerance %.3g)%s", iters, relres,
                       100 * (o->fft_tol > 0 ? o->fft_tol : 1e-14),
                       minx < -1e-8 * maxx ? ", with negative probabilities" : "");
        goto out;
    }
    for (long l = 0; l < n; l++)
        if (x[l] < 0)
            x[l] = 0;
    /* measures in logs: pi_l = x_l e^{-h(l)} */
    apply_P(&s, x, y, &lognu, pi ? over : NULL);
    {
        lse_acc z = { -INFINITY, 0 };
        double qs = 0, ls = 0, zs = 0, scale, upl = 1.0 - s.eps * pless;

        for (long l = 0; l < n; l++)
            if (x[l] > 0)
                lse_add(&z, log(x[l]) - s.hl[l]);
        logZ = lse_val(&z);
        logD = lognu > logZ ? lognu + log1p(exp(logZ - lognu)) : logZ + log1p(exp(lognu - logZ));
        for (long l = 0; l < n; l++) {
            double sc = x[l] > 0 ? exp(log(x[l]) - s.hl[l] - logZ) : 0.0;
            double up = l == 0 ? 1.0 : (l < s.T ? (upl < 1 ? upl : 1.0) : pgeB);

            zs += sc;
            qs += sc * up;
            ls += (double)l * sc;
            if (pi)
                pi[l] = sc;
        }
        scale = exp(logZ - logD);
        meas->log10_idle = (lognu - logD) / M_LN10;
        meas->idle = exp(lognu - logD);
        meas->quiet = qs / zs * scale;
        meas->mean_load = ls / zs;
        meas->p_empty = (x[0] > 0 ? exp(log(x[0]) - logD) : 0.0);
        meas->p_full = meas->idle + (x[S] > 0 ? exp(log(x[S]) - s.hl[S] - logD) : 0.0);
        if (pi) {
            for (long l = 0; l < n; l++)
                pi[l] *= scale / zs;
            for (long o2 = 1; o2 <= U; o2++)
                pi[S + o2] = exp(over[o2 - 1] - logD);
            for (long l = S + U; l > S; l--)
                if (l + B <= S + U)
                    pi[l] += pi[l + B];
        }
    }
out:
    ws_free(&s);
    free(x);
    free(rhs);
    free(y);
    free(over);
    return rc;
}

static long
gcd_long(long a, long b)
{
    while (b != 0) {
        long t = a % b;

        a = b;
        b = t;
    }
    return a;
}

/* Step 2 of issue 11: with g = gcd(B, the bandwidths that can be written),
 * only multiples of g are reachable from 0 and the chain on them is the
 * chain of (b/g, B/g) with S' = floor(S/g) (an overshoot past S lands and
 * stalls exactly as one past g S'); lazy rows below T are those below
 * ceil(T/g).  Solve that one, g times smaller. */
int
bba_fftwh_eval(const double *dist, long M, long B, long S, size_t napp,
               const long *b, const double *p, const bba_policy *pol,
               const bba_solver_opts *o, bba_fftwh_cache *cache, bba_measures *meas,
               bba_solve_info *info, double *pi, char *err)
{
    long g = B > 0 ? B : 1, Mr, U = M > B ? M - B : 0, Ur;
    long *br = NULL;
    double *dr = NULL, *pir = NULL;
    bba_policy polr = *pol;
    int rc;

    for (size_t i = 0; i < napp && b != NULL; i++)
        if (p[i] > 0 && b[i] > 0)
            g = gcd_long(b[i], g);
    if (b == NULL || g <= 1 || S < 0)
        return eval_core(dist, M, B, S, napp, b, p, pol, o, cache, meas, info, pi, err);
    if (pol->lazy && (pol->threshold + g - 1) / g > S / g)
        /* Every reachable row is lazy, which the reduced policy cannot
         * say (THRESHOLD <= S), and the unreduced system is numerically
         * singular: the states off the lattice form a transient class
         * that leaks to 0 only through the clamp, from loads whose mass
         * is ~1e-19 under lazy draining, so a second eigenvalue sits
         * within rounding of 0 and GMRES returns a mixture (measured: 15%
         * off on t_fftwh's common_factor_with_B).  GTH, subtraction-free,
         * is exact there: leave it to GTH. */
        return bb_seterr(err, BB_ENOCONV, "the lazy threshold (%ld quanta) lies above the "
                         "last reachable load (multiples of %ld up to %ld): not solved by "
                         "the FFT solver", pol->threshold, g, g * (S / g));
    Mr = M / g;
    Ur = Mr > B / g ? Mr - B / g : 0;
    dr = malloc(((size_t)Mr + 1) * sizeof *dr);
    br = malloc((napp > 0 ? napp : 1) * sizeof *br);
    if (pi)
        pir = malloc(((size_t)(S / g) + (size_t)Ur + 1) * sizeof *pir);
    if (!dr || !br || (pi && !pir)) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the reduced chain");
        goto out;
    }
    for (long k = 0; k <= Mr; k++)
        dr[k] = dist[g * k];
    for (size_t i = 0; i < napp; i++)
        br[i] = p[i] > 0 ? b[i] / g : 0;
    if (polr.lazy)
        polr.threshold = (pol->threshold + g - 1) / g;
    rc = eval_core(dr, Mr, B / g, S / g, napp, br, p, &polr, o, cache, meas, info, pir, err);
    if (rc != BB_OK)
        goto out;
    meas->mean_load *= (double)g;
    if (S % g != 0) /* state S itself is unreachable */
        meas->p_full = meas->idle;
    if (pi) {
        memset(pi, 0, ((size_t)S + (size_t)U + 1) * sizeof *pi);
        for (long l = 0; l <= S / g + Ur; l++)
            if (g * l <= S + U)
                pi[g * l] = pir[l];
    }
out:
    free(dr);
    free(br);
    free(pir);
    return rc;
}

/* ---- A reusable linear convolution (fftwh.h) ------------------------- */

struct bba_fftconv {
    engine e;
    fftw_complex *kspec;
    long nk, nx;
};

bba_fftconv *
bba_fftconv_new(const double *k, long nk, long nx_max)
{
    bba_fftconv *c;

    if (nk < 1 || nx_max < 1)
        return NULL;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->nk = nk;
    c->nx = nx_max;
    if (eng_init(&c->e, good_size(nk + nx_max - 1)) != 0
        || (c->kspec = fftw_malloc((size_t)(c->e.N / 2 + 1) * sizeof *c->kspec)) == NULL) {
        bba_fftconv_free(c);
        return NULL;
    }
    eng_spectrum(&c->e, k, nk, c->kspec);
    return c;
}

void
bba_fftconv_apply(bba_fftconv *c, const double *x, long nx, double *out)
{
    eng_conv(&c->e, x, nx < c->nx ? nx : c->nx, c->kspec, out, 0,
             (nx < c->nx ? nx : c->nx) + c->nk - 1);
}

void
bba_fftconv_free(bba_fftconv *c)
{
    if (c == NULL)
        return;
    eng_free(&c->e);
    fftw_free(c->kspec);
    free(c);
}
