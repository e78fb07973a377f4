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
 * The kernels' tilts, Wiener-Hopf factors and renewal sequences are in
 * fftwh_kern.c, the FFTs in fftconv.c, GMRES in krylov.c; this file holds
 * the tilted product, the preconditioner's application and the solve,
 * which share the indexing above and its overflow guards (every factor
 * kept <= 1).  References: Chan and Ng 1996 (preconditioned Krylov
 * methods for Toeplitz systems); Saad and Schultz 1986 (GMRES). */
#include "config.h"

#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fftwh_int.h"
#include "krylov.h"

typedef struct {
    long lo, hi, n;        /* the region's states [lo, hi], n = hi - lo + 1 */
    bba_fftwh_kern *k;     /* the kernel's data (cached or owned) */
    int owned;             /* 1: k is this solve's own */
    double *kspec;         /* ct at the big engine */
    bba_fft *pe;           /* preconditioner engine, N >= 2n */
    double *upspec, *umspec; /* renewal sequences u+, u- */
} region;

/* ---- the solver workspace ---------------------------------------------- */

typedef struct {
    long S, B, M, U, T;
    double eps;
    int nreg;            /* 1 (greedy or T = 0) or 2 */
    region reg[2];       /* reg[0]: [0, T) (lazy only); reg[1]: [T, S] */
    double th0, th1;     /* slopes of h */
    bba_fft *big;        /* N >= S + M + 1 */
    bba_fft *small;      /* N >= 2U + 1, region 0 crossing upwards */
    double *xspec;       /* crossing kernel spectrum at the small engine */
    double thx;          /* crossing tilt max(th0, th1) */
    /* E > B (th1 < 0): the jumps past S, from every source, by their own
     * convolution scaled to S (see apply_fold); else from the regions'
     * tilted convolutions */
    int fold_own;
    long fold_ns;        /* sources S - fold_ns + 1 .. S */
    bba_fft *fold;       /* N >= fold_ns + U */
    double *fspec;       /* c(d), d = 1..U, at the fold engine */
    double *fsc;         /* e^{h(S) - h(j)} <= 1 for the fold's sources */
    double *clamp0, *clamp1; /* sum_{d < -j} c_r(d), j = 0..B */
    double *w, *q, *xs;  /* scratch: S + M + 1, 2U + 2, S + 1 */
    double *hl;          /* h(l), l = 0..S + M */
    /* The product's tilt factors, which depend on (S, T) only, computed
     * once per solve rather than at every product (the same expressions,
     * so the same values): */
    double *clampe0, *clampe1; /* c_r(d < -j) e^{-h(j)}, j = 0..B */
    double *foldf;       /* o = 1..U: e^{h(L) - h(S + o)} along region 1's
                            line, or e^{h(L) - h(S)} when fold_own */
    double *upsc, *upf;  /* upwards across T: the sources' scale (j = T - U
                            + i) and the landing factor (m = T + 1 + i) */
    /* downwards across T: e^{h(l) - h(j)} = e^{h(l) - h(T)} e^{h(T) - h(j)},
     * l = dn_lo + i < T and j = T + i, each factor within e^{+-DN_EXP}
     * (else NULL: the direct exponentials); dn_acc the sums per l */
    double *dn_l, *dn_j, *dn_acc;
    long dn_lo, dn_jn;
} ws_t;

/* The largest |exponent| of a precomputed crossing factor: products of
 * two stay far inside the double range. */
#define DN_EXP 300.0

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
    bba_fft_conv(s->fold, s->xs, ns, s->fspec, s->q, 0, ns + U - 1);
    for (long o = 1; o <= U; o++) {
        long m = S + o, st, L = fold_to(S, B, m, &st);
        double v = s->q[m - j0 - 1];

        y[L] += v * s->foldf[o - 1];
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
        bba_fft_conv(s->big, s->xs, S + 1, r->kspec, s->w, 0, S + M + 1);
        /* s->w[l + B] is the tilted mass at destination l */
        for (long l = T; l <= S; l++)
            y[l] += s->w[l + B];
        for (long o = 1; o <= U && !s->fold_own; o++) {
            long m = S + o, st, L = fold_to(S, B, m, &st);
            double v = s->w[m + B];
            /* untilted value at m: v e^{-h1(m)}, h1 the region's line */
            double h1m = s->th0 * (double)T + s->th1 * (double)(m - T);

            y[L] += v * s->foldf[o - 1];
            if (!(v > 0)) /* the logs only: the product stays linear */
                continue;
            if (nu)
                lse_add(&nacc, log(v) - h1m + log((double)st));
            if (over) {
                double lg = log(v) - h1m, *ov = &over[o - 1];

                *ov = *ov > lg ? *ov + log1p(exp(lg - *ov)) : lg + log1p(exp(*ov - lg));
            }
        }
        /* downwards across T: j in [T, T + B), l = j + d < T; by the
         * separated factors, multiply-adds only, where they are bounded */
        if (T > 0 && s->dn_l != NULL) {
            long lo = s->dn_lo;

            memset(s->dn_acc, 0, (size_t)(T - lo) * sizeof *s->dn_acc);
            for (long i = 0; i < s->dn_jn; i++) {
                long j = T + i, l0 = j - B > 0 ? j - B : 0;
                double xj = x[j] * s->dn_j[i];

                if (xj == 0)
                    continue;
                for (long l = l0; l < T; l++)
                    s->dn_acc[l - lo] += r->k->cu[l - j + B] * xj;
            }
            for (long l = lo; l < T; l++)
                y[l] += s->dn_acc[l - lo] * s->dn_l[l - lo];
        }
        for (long j = T; T > 0 && s->dn_l == NULL && j <= S && j < T + B; j++) {
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
            y[0] += x[j] * s->clampe1[j];
    }
    if (s->nreg == 2) {
        region *r = &s->reg[0];
        long j0 = T - U > 0 ? T - U : 0;

        memcpy(s->xs, x, (size_t)T * sizeof *x);
        memset(s->xs + T, 0, (size_t)(S + 1 - T) * sizeof *s->xs);
        bba_fft_conv(s->big, s->xs, S + 1, r->kspec, s->w, 0, S + M + 1);
        for (long l = 0; l <= T && l <= S; l++)
            y[l] += s->w[l + B];
        /* upwards across T: x'_j = x_j e^{(th0 - thx)(T - j)}, kernel
         * c_0(d) e^{thx d}, d >= 1; q[m - (T - U)] for m in (T, T + U) */
        if (U > 0) {
            for (long i = 0; i < U; i++) {
                long j = T - U + i;

                s->xs[i] = j >= j0 ? x[j] * s->upsc[i] : 0.0;
            }
            bba_fft_conv(s->small, s->xs, U, s->xspec, s->q, 0, 2 * U);
            for (long m = T + 1; m < T + U; m++) {
                double v = s->q[m - (T - U)];
                double H0 = s->th0 * (double)T + s->thx * (double)(m - T);

                if (m <= S) {
                    y[m] += v * s->upf[m - T - 1];
                } else if (!s->fold_own) {
                    long st, L = fold_to(S, B, m, &st);

                    y[L] += v * s->upf[m - T - 1];
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
            y[0] += x[j] * s->clampe0[j];
    }
    if (s->fold_own)
        apply_fold(s, x, y, nu ? &nacc : NULL, over);
    if (nu)
        *nu = lse_val(&nacc);
}

/* The bordered operator: A x = x - x P~ + (mean x) 1 (krylov.h's A). */
static void
apply_A(void *ctx, const double *x, double *y)
{
    ws_t *s = ctx;
    long n = s->S + 1;
    double mean = 0;

    apply_P(s, x, y, NULL, NULL);
    for (long l = 0; l < n; l++)
        mean += x[l];
    mean /= (double)n;
    for (long l = 0; l < n; l++)
        y[l] = x[l] - y[l] + mean;
}

/* z = M^{-1} v: per region, the anticausal factor then the causal one
 * (krylov.h's Minv). */
static void
apply_Minv(void *ctx, const double *v, double *z)
{
    ws_t *s = ctx;
    for (int ri = 2 - s->nreg; ri < 2; ri++) {
        region *r = &s->reg[ri];
        long n = r->n;
        double *t = s->xs; /* S + 1 scratch */

        for (long i = 0; i < n; i++)
            t[i] = v[r->lo + n - 1 - i];
        bba_fft_conv(r->pe, t, n, r->umspec, s->w, 0, n);
        for (long i = 0; i < n; i++)
            t[i] = s->w[n - 1 - i];
        bba_fft_conv(r->pe, t, n, r->upspec, z + r->lo, 0, n);
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
            bba_fftwh_kern_free(r->k);
        bba_fft_spec_free(r->kspec);
        bba_fft_spec_free(r->upspec);
        bba_fft_spec_free(r->umspec);
        bba_fft_free(r->pe);
    }
    bba_fft_free(s->big);
    bba_fft_free(s->small);
    bba_fft_spec_free(s->xspec);
    bba_fft_free(s->fold);
    bba_fft_spec_free(s->fspec);
    free(s->fsc);
    free(s->clamp0);
    free(s->clamp1);
    free(s->clampe0);
    free(s->clampe1);
    free(s->foldf);
    free(s->upsc);
    free(s->upf);
    free(s->dn_l);
    free(s->dn_j);
    free(s->dn_acc);
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

    /* GMRES basis, 4 work vectors; big engine and 2 spectra, scratch w, h;
     * per region a preconditioner engine of 2n with 2 spectra; the
     * cepstrum (4 M complex); the crossing engine */
    return 8.0 * ((m + 6.0) * n + 2.0 * 1.3 * nm + 2.0 * nm + 2 * 3 * 2.6 * n
                  + 2.0 * 2.0 * 8.0 * ((double)M + 1.0) + 4.0 * 1.3 * U
                  + 3.0 * U + 5.0 * (double)B);   /* the product's factors */
}

/* The product's tilt factors (ws_t): what apply_P and apply_fold would
 * otherwise exponentiate at every product.  O(U + B). */
static int
factors_init(ws_t *s, char *err)
{
    long S = s->S, B = s->B, U = s->U, T = s->T, nc = B < S + s->M ? B + 1 : S + s->M + 1;

    s->clampe0 = calloc((size_t)nc + 1, sizeof *s->clampe0);
    s->clampe1 = calloc((size_t)nc + 1, sizeof *s->clampe1);
    s->foldf = calloc((size_t)U + 1, sizeof *s->foldf);
    if (!s->clampe0 || !s->clampe1 || !s->foldf)
        goto nomem;
    for (long j = 0; j < nc; j++) {
        s->clampe0[j] = s->clamp0[j] > 0 ? exp(log(s->clamp0[j]) - s->hl[j]) : 0.0;
        s->clampe1[j] = s->clamp1[j] > 0 ? exp(log(s->clamp1[j]) - s->hl[j]) : 0.0;
    }
    for (long o = 1; o <= U; o++) {
        long m = S + o, L = fold_to(S, B, m, NULL);
        double h1m = s->th0 * (double)T + s->th1 * (double)(m - T);

        s->foldf[o - 1] = exp(s->hl[L] - (s->fold_own ? s->hl[S] : h1m));
    }
    if (s->nreg == 2 && U > 0) {
        s->upsc = calloc((size_t)U + 1, sizeof *s->upsc);
        s->upf = calloc((size_t)U + 1, sizeof *s->upf);
        if (!s->upsc || !s->upf)
            goto nomem;
        for (long i = 0; i < U; i++) {
            long j = T - U + i, m = T + 1 + i;
            double H0 = s->th0 * (double)T + s->thx * (double)(m - T);

            if (j >= 0)
                s->upsc[i] = exp((s->th0 - s->thx) * (double)(T - j));
            if (m <= S)
                s->upf[i] = exp(s->hl[m] - H0);
            else if (!s->fold_own)
                s->upf[i] = exp(s->hl[fold_to(S, B, m, NULL)] - H0);
        }
    }
    if (s->nreg == 2) {
        long lo = T - B > 0 ? T - B : 0, jn = (S < T + B - 1 ? S : T + B - 1) - T + 1;

        if (jn > 0 && ((s->th0 >= 0 && s->th1 >= 0)
                       || (fabs(s->th0) * (double)(T - lo) <= DN_EXP
                           && fabs(s->th1) * (double)(jn - 1) <= DN_EXP))) {
            s->dn_lo = lo;
            s->dn_jn = jn;
            s->dn_l = malloc((size_t)(T - lo) * sizeof *s->dn_l);
            s->dn_j = malloc((size_t)jn * sizeof *s->dn_j);
            s->dn_acc = malloc((size_t)(T - lo) * sizeof *s->dn_acc);
            if (!s->dn_l || !s->dn_j || !s->dn_acc)
                goto nomem;
            for (long l = lo; l < T; l++)
                s->dn_l[l - lo] = exp(s->hl[l] - s->hl[T]);
            for (long i = 0; i < jn; i++)
                s->dn_j[i] = exp(s->hl[T] - s->hl[T + i]);
        }
    }
    return BB_OK;
nomem:
    return bb_seterr(err, BB_ENOMEM, "out of memory for the FFT solver (%ld states)", S + 1);
}

/* Build the kernels, tilts, engines and factors for (S, T). */
static int
ws_init(ws_t *s, const double *dist, long M, long B, long S, size_t napp,
        const long *b, const double *p, const bb_drain *pol, bba_fftwh_cache *cache,
        char *err)
{
    long U = M > B ? M - B : 0;
    int rc = BB_OK;

    memset(s, 0, sizeof *s);
    s->S = S;
    s->B = B;
    s->M = M;
    s->U = U;
    s->T = pol->kind == BB_DRAIN_LAZY ? pol->threshold : 0;
    s->eps = pol->kind == BB_DRAIN_LAZY ? pol->eps : 1.0;
    s->nreg = s->T > 0 ? 2 : 1;

    s->w = malloc((size_t)(S + M + 1) * sizeof *s->w);
    s->q = malloc((size_t)(2 * U + 2) * sizeof *s->q);
    s->xs = malloc((size_t)(S + 1 > 2 * U + 2 ? S + 1 : 2 * U + 2) * sizeof *s->xs);
    s->hl = malloc((size_t)(S + M + 1) * sizeof *s->hl);
    s->clamp0 = calloc((size_t)B + 1, sizeof *s->clamp0);
    s->clamp1 = calloc((size_t)B + 1, sizeof *s->clamp1);
    if (!s->w || !s->q || !s->xs || !s->hl || !s->clamp0 || !s->clamp1)
        goto nomem;
    s->big = bba_fft_new(bba_fft_size(S + M + 1));
    if (s->big == NULL)
        goto nomem;

    for (int ri = 2 - s->nreg; ri < 2; ri++) {
        region *r = &s->reg[ri];

        r->lo = ri == 0 ? 0 : s->T;
        r->hi = ri == 0 ? s->T - 1 : S;
        r->n = r->hi - r->lo + 1;
        r->kspec = bba_fft_spec_new(s->big);
        if (!r->kspec)
            goto nomem;
        rc = bba_fftwh_kern_get(cache, ri == 0, s->eps, dist, M, B, napp, b, p, &r->k,
                                &r->owned, err);
        if (rc != BB_OK)
            goto out;
        bba_fft_spectrum(s->big, r->k->ct, M + 1, r->kspec);
        /* a power of two: searches vary n at every solve, and FFTW reuses
         * the plans of sizes it has seen */
        long npe = 16;

        while (npe < 2 * r->n)
            npe *= 2;
        r->pe = bba_fft_new(npe);
        r->upspec = r->pe ? bba_fft_spec_new(r->pe) : NULL;
        r->umspec = r->pe ? bba_fft_spec_new(r->pe) : NULL;
        if (!r->upspec || !r->umspec)
            goto nomem;
        rc = bba_fftwh_kern_renewal(r->k, r->owned ? NULL : cache, r->n, M, B, r->pe,
                                    r->upspec, r->umspec, err);
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
        s->small = bba_fft_new(bba_fft_size(2 * U + 1));
        if (kt == NULL || s->small == NULL || !(s->xspec = bba_fft_spec_new(s->small))) {
            free(kt);
            goto nomem;
        }
        for (long d = 1; d <= U; d++)
            kt[d] = s->reg[0].k->cu[d + B] > 0
                        ? exp(log(s->reg[0].k->cu[d + B]) + s->thx * (double)d) : 0.0;
        bba_fft_spectrum(s->small, kt, U + 1, s->xspec);
        free(kt);
    }
    if (s->th1 < 0 && U > 0) {
        double *kc = malloc((size_t)U * sizeof *kc);

        s->fold_own = 1;
        s->fold_ns = S + 1 < U ? S + 1 : U;
        s->fsc = malloc((size_t)s->fold_ns * sizeof *s->fsc);
        s->fold = bba_fft_new(bba_fft_size(s->fold_ns + U));
        if (kc == NULL || s->fsc == NULL || s->fold == NULL
            || !(s->fspec = bba_fft_spec_new(s->fold))) {
            free(kc);
            goto nomem;
        }
        for (long d = 1; d <= U; d++)
            kc[d - 1] = dist[d + B];
        bba_fft_spectrum(s->fold, kc, U, s->fspec);
        free(kc);
        for (long i = 0; i < s->fold_ns; i++)
            s->fsc[i] = exp(s->hl[S] - s->hl[S - s->fold_ns + 1 + i]);
    }
    if ((rc = factors_init(s, err)) != BB_OK)
        goto out;
out:
    return rc;
nomem:
    return bb_seterr(err, BB_ENOMEM, "out of memory for the FFT solver (%ld states)", S + 1);
}

/* ---- the entry point -------------------------------------------------------- */

/* The GMRES restart length at most when E > B (eval_core): B + 60 up to
 * this; (FOLD_RESTART_MAX + 6) (S + 1) doubles. */
#define FOLD_RESTART_MAX 400

static int
eval_core(const double *dist, long M, long B, long S, size_t napp,
          const long *b, const double *p, const bb_drain *pol,
          const bba_solver_opts *o, bba_fftwh_cache *cache, bba_measures *meas,
          bba_solve_info *info, double *pi, char *err)
{
    ws_t s;
    bba_krylov *kw = NULL;
    double *x = NULL, *rhs = NULL, *y = NULL, *over = NULL, relres = INFINITY;
    double tol = o->fft_tol > 0 ? o->fft_tol : 1e-14;
    long U = M > B ? M - B : 0, n = S + 1, iters = 0;
    long maxit = o->krylov_max_iter > 0 ? o->krylov_max_iter : 300;
    int restart = o->restart > 0 ? o->restart : 30;
    double bytes, lognu, logZ, logD, pless = 0, pgeB, minx = 0, maxx = 0;
    int rc = BB_OK;

    memset(meas, 0, sizeof *meas);
    memset(info, 0, sizeof *info);
    if (S < 0 || B <= 0 || M < 0)
        return bb_seterr(err, BB_EINVAL, "bad dimensions S = %ld, B = %ld, M = %ld", S, B, M);
    if (pol->kind == BB_DRAIN_LAZY
        && (pol->threshold < 0 || pol->threshold > S || !(pol->eps >= 0 && pol->eps <= 1)))
        return bb_seterr(err, BB_EINVAL, "lazy policy out of range (threshold %ld, EPS %g)",
                         (long)pol->threshold, pol->eps);
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
    kw = bba_krylov_alloc(n, restart);
    if (kw == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for GMRES (%ld states)", n);
        goto out;
    }
    {
        /* relative to ||rhs|| = sqrt(n); a restart that no longer halves
         * an acceptable residual (within 100 tol) is the round-off floor */
        double bnorm = sqrt((double)n);
        bba_krylov_sys sys = { n, apply_A, apply_Minv, &s, 2, 1, tol * bnorm, 100 * tol * bnorm,
                               maxit };

        rc = bba_krylov_set(kw, &sys, rhs, x, 1);
        if (rc != BB_OK)
            goto out;
        while (bba_krylov_test(kw) == BBA_KRYLOV_CONTINUE)
            bba_krylov_iterate(kw);
        iters = bba_krylov_steps(kw);
        relres = bba_krylov_residual(kw) / bnorm;
    }
    info->iterations = iters;
    info->residual = relres;
    for (long l = 0; l < n; l++) {
        if (x[l] < minx)
            minx = x[l];
        if (x[l] > maxx)
            maxx = x[l];
    }
    if (!(relres <= 100 * tol) || !(maxx > 0) || minx < -1e-8 * maxx) {
        rc = bb_seterr(err, BB_ENOCONV, "the FFT Wiener-Hopf solver stopped after %ld GMRES "
                       "steps at relative residual %.3g (tolerance %.3g)%s", iters, relres,
                       100 * tol,
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
    bba_krylov_free(kw);
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

/* Step 0 of fftwh.h: with g = gcd(B, the bandwidths that can be written),
 * only multiples of g are reachable from 0 and the chain on them is the
 * chain of (b/g, B/g) with S' = floor(S/g) (an overshoot past S lands and
 * stalls exactly as one past g S'); lazy rows below T are those below
 * ceil(T/g).  Solve that one, g times smaller. */
int
bba_fftwh_eval(const double *dist, long M, long B, long S, size_t napp,
               const long *b, const double *p, const bb_drain *pol,
               const bba_solver_opts *o, bba_fftwh_cache *cache, bba_measures *meas,
               bba_solve_info *info, double *pi, char *err)
{
    long g = B > 0 ? B : 1, Mr, U = M > B ? M - B : 0, Ur;
    long *br = NULL;
    double *dr = NULL, *pir = NULL;
    bb_drain polr = *pol;
    int rc;

    assert(BB_DRAIN_IN(pol, BB_DRAIN_QUANTA));
    for (size_t i = 0; i < napp && b != NULL; i++)
        if (p[i] > 0 && b[i] > 0)
            g = gcd_long(b[i], g);
    if (b == NULL || g <= 1 || S < 0)
        return eval_core(dist, M, B, S, napp, b, p, pol, o, cache, meas, info, pi, err);
    if (pol->kind == BB_DRAIN_LAZY && ((long)pol->threshold + g - 1) / g > S / g)
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
                         "the FFT solver", (long)pol->threshold, g, g * (S / g));
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
    if (polr.kind == BB_DRAIN_LAZY)
        polr.threshold = (double)(((long)pol->threshold + g - 1) / g);
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
