/* onoff.c: the ON/OFF-modulated chain and its aggregation-disaggregation
 * solver (onoff.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Why one file of this size: the phase step (Kronecker product of the
 * class kernels), the censored overflow landings, the direct and FFT paths
 * of x P, the lazy correction below the threshold, the level solves, the
 * GMRES with its level-block preconditioner and the measures all index the
 * same (level x phase) vector and must censor overflows the same way; the
 * dense oracle that checks them (onoff_dense.c) is apart on purpose.  A
 * split along the two paths is the next step if it grows. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "dist.h"
#include "effbw.h"
#include "fftwh.h"
#include "onoff.h"
#include "stationary.h"

/* Weight of x P in a smoothing step (below); SMOOTH_DAMP_FFT on the FFT
 * path, whose steps are most of the cost (a phase mode at 0.9 per step
 * relaxes at 0.905 instead of 0.92: 17% fewer steps). */
#define SMOOTH_DAMP 0.8
#define SMOOTH_DAMP_FFT 0.95

/* A memoryless application: its phase is a fresh draw every unit. */
static int
memoryless(double p, double L)
{
    return L <= 0 || fabs(L * (1.0 - p) - 1.0) <= 1e-12;
}

void
bba_onoff_free(bba_onoff *m)
{
    if (m == NULL)
        return;
    if (m->K)
        for (size_t c = 0; c < m->n_classes; c++)
            free(m->K[c]);
    free(m->K);
    free(m->b);
    free(m->p);
    free(m->L);
    free(m->N);
    free(m->phase_load);
    free(m->phase_pi);
    free(m->D0);
    free(m->b0);
    free(m->p0);
    bba_effbw_ms_free(m->ms);
    memset(m, 0, sizeof *m);
}

/* K(mm, m') for a class of N applications: of the mm ON, s stay ON
 * (Binomial(mm, 1 - a)); of the N - mm OFF, m' - s switch ON
 * (Binomial(N - mm, c)). */
static void
class_kernel(int N, double a, double c, double *K)
{
    int r = N + 1;

    for (int mm = 0; mm <= N; mm++)
        for (int m2 = 0; m2 <= N; m2++) {
            double s = 0;

            for (int st = 0; st <= mm && st <= m2; st++) {
                if (m2 - st > N - mm)
                    continue;
                s += gsl_ran_binomial_pdf((unsigned)st, 1.0 - a, (unsigned)mm)
                     * gsl_ran_binomial_pdf((unsigned)(m2 - st), c, (unsigned)(N - mm));
            }
            K[mm * r + m2] = s;
        }
}

int
bba_onoff_init(bba_onoff *m, size_t n, const long *b, const double *p,
               const double *L, long B, int all_phases, long max_phases,
               char *err)
{
    long *b0 = NULL;
    double *p0 = NULL, P;
    size_t n0 = 0;
    int rc = BB_OK;

    memset(m, 0, sizeof *m);
    if (B <= 0)
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %ld quanta is not positive", B);
    m->B = B;
    m->b = malloc((n + 1) * sizeof *m->b);
    m->p = malloc((n + 1) * sizeof *m->p);
    m->L = malloc((n + 1) * sizeof *m->L);
    m->N = calloc(n + 1, sizeof *m->N);
    b0 = malloc((n + 1) * sizeof *b0);
    p0 = malloc((n + 1) * sizeof *p0);
    if (!m->b || !m->p || !m->L || !m->N || !b0 || !p0) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", n);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        double lo;
        size_t c;

        if (!(p[i] >= 0 && p[i] <= 1) || b[i] < 0) {
            rc = bb_seterr(err, BB_EINVAL, "application %zu: p = %g or b = %ld out of range",
                           i + 1, p[i], b[i]);
            goto out;
        }
        m->mean_load += p[i] * (double)b[i];
        if (b[i] == 0 || p[i] <= 0 || p[i] >= 1
            || (!all_phases && memoryless(p[i], L[i]))) {
            b0[n0] = b[i];
            p0[n0] = p[i];
            n0++;
            continue;
        }
        {
            double Li = L[i] > 0 ? L[i] : 1.0 / (1.0 - p[i]);

            lo = p[i] / (1.0 - p[i]) > 1 ? p[i] / (1.0 - p[i]) : 1;
            if (!(Li >= lo * (1.0 - 1e-12))) {
                char bl[40], blo[40];

                bb_fmt_apart(Li, lo, bl, blo, sizeof bl);
                rc = bb_seterr(err, BB_EINVAL, "application %zu: burst %s time units is "
                               "below max(1, p/(1-p)) = %s", i + 1, bl, blo);
                goto out;
            }
            for (c = 0; c < m->n_classes; c++)
                if (m->b[c] == b[i] && m->p[c] == p[i] && m->L[c] == Li)
                    break;
            if (c == m->n_classes) {
                m->b[c] = b[i];
                m->p[c] = p[i];
                m->L[c] = Li;
                m->n_classes++;
            }
            m->N[c]++;
        }
    }
    P = 1;
    for (size_t c = 0; c < m->n_classes; c++)
        P *= m->N[c] + 1;
    if (max_phases >= 0 && ((max_phases > 0 && P > (double)max_phases) || P > 1e15)) {
        rc = bb_seterr(err, BB_ETOOBIG, "the applications with bursts form %zu classes "
                       "and %.4g phases, over the limit of %ld", m->n_classes, P, max_phases);
        goto out;
    }
    m->n_phases = P < 9e18 ? (long)P : LONG_MAX;
    m->K = calloc(m->n_classes + 1, sizeof *m->K);
    if (max_phases >= 0) {
        m->phase_load = malloc((size_t)m->n_phases * sizeof *m->phase_load);
        m->phase_pi = malloc((size_t)m->n_phases * sizeof *m->phase_pi);
    }
    if (!m->K || (max_phases >= 0 && (!m->phase_load || !m->phase_pi))) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %ld phases", m->n_phases);
        goto out;
    }
    for (size_t c = 0; c < m->n_classes; c++) {
        int r = m->N[c] + 1;
        double a = 1.0 / m->L[c], cc = a * m->p[c] / (1.0 - m->p[c]);

        m->K[c] = malloc((size_t)r * (size_t)r * sizeof *m->K[c]);
        if (m->K[c] == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for a class kernel");
            goto out;
        }
        class_kernel(m->N[c], a, cc > 1 ? 1 : cc, m->K[c]);
    }
    for (size_t c = 0; c < m->n_classes; c++)
        m->M += (long)m->N[c] * m->b[c];
    /* Phases in mixed radix, class 0 fastest. */
    for (long f = 0; max_phases >= 0 && f < m->n_phases; f++) {
        long rest = f, load = 0;
        double pr = 1;

        for (size_t c = 0; c < m->n_classes; c++) {
            int mc = (int)(rest % (m->N[c] + 1));

            rest /= m->N[c] + 1;
            load += mc * m->b[c];
            pr *= gsl_ran_binomial_pdf((unsigned)mc, m->p[c], (unsigned)m->N[c]);
        }
        m->phase_load[f] = load;
        m->phase_pi[f] = pr;
    }
    if (n0 > 0) {
        rc = bba_dist_support(n0, b0, &m->M0, err);
        if (rc != BB_OK)
            goto out;
    }
    m->D0 = malloc(((size_t)m->M0 + 1) * sizeof *m->D0);
    if (m->D0 == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for a load distribution");
        goto out;
    }
    if (n0 > 0)
        bba_dist_compute(n0, b0, p0, m->M0, m->D0);
    else
        m->D0[0] = 1.0;
    m->M += m->M0;
    m->n0 = n0;
    m->b0 = b0;
    m->p0 = p0;
    b0 = NULL;
    p0 = NULL;
out:
    free(b0);
    free(p0);
    if (rc != BB_OK)
        bba_onoff_free(m);
    return rc;
}

void
bba_onoff_defaults(bba_onoff_opts *o)
{
    o->tol = 1e-13;
    o->max_iter = 2000;
    o->smooth = 4;
    o->mem_limit_bytes = 0;
    o->fft = -1;
    o->krylov = -1;
}

/* Phase steps a transition can take: 1, or 1 + the stall of an overflow. */
static long
max_steps(const bba_onoff *m)
{
    long U = m->M > m->B ? m->M - m->B : 0;

    return 1 + (U + m->B - 1) / m->B;
}

void
bba_onoff_estimate(const bba_onoff *m, long S, const bba_onoff_opts *o,
                   double *bytes, double *ops_per_iter)
{
    double lv = (double)S + 1.0, P = (double)m->n_phases, T = (double)max_steps(m);
    double W = (double)m->B + (m->M > m->B ? (double)(m->M - m->B) : 0) + 1.0;
    double sr = 0;

    for (size_t c = 0; c < m->n_classes; c++)
        sr += m->N[c] + 1;
    if (bytes)
        *bytes = (5.0 + T) * lv * P * sizeof(double) + lv * W * (2.0 * sizeof(double) + sizeof(int));
    if (ops_per_iter)
        *ops_per_iter = (1.0 + (o ? o->smooth : 4)) * lv * P * ((double)m->M0 + 1.0 + sr)
                        + lv * W * (double)m->B;
}

/* One transition of the censored chain from normal level j under total
 * load k (the rule every function below implements, by ranges of loads):
 * with l = max(j + k - B, 0),
 *  - lazy (Algorithm 4), j below the threshold and k <= B: the buffer
 *    stays at j with probability 1 - EPS (quiet), moves to l with EPS
 *    (quiet when l >= j);
 *  - else l <= S: to l (quiet when l >= j), the phase moving one step;
 *  - else (an overflow) the applications stall st = ceil((l - S)/B) units
 *    and the buffer lands at max(l - st B, 0), the phase moving 1 + st
 *    steps; the st overflow states visited on the way are censored. */

/* y = x (K_1^t (x) ... (x) K_C^t), x and y of length P; Kp[c] is K_c^t;
 * tmp holds P doubles.  P sum_c (N_c + 1) multiply-adds. */
static void
kron_apply(const bba_onoff *m, double *const *Kp, const double *x, double *y,
           double *tmp)
{
    long P = m->n_phases, stride = 1;
    double *src = tmp, *dst = y;

    if (m->n_classes == 0) {
        y[0] = x[0];
        return;
    }
    /* Ping-pong between tmp and y so that the last pass writes y. */
    if (m->n_classes % 2 == 0) {
        src = y;
        dst = tmp;
    }
    memcpy(src, x, (size_t)P * sizeof *x);
    for (size_t c = 0; c < m->n_classes; c++) {
        int r = m->N[c] + 1;
        long block = stride * r;
        const double *K = Kp[c];

        for (long o = 0; o < P; o += block)
            for (long i = 0; i < stride; i++) {
                const double *s = src + o + i;
                double *d = dst + o + i;

                for (int m2 = 0; m2 < r; m2++) {
                    double acc = 0;

                    for (int mm = 0; mm < r; mm++)
                        acc += s[mm * stride] * K[mm * r + m2];
                    d[m2 * stride] = acc;
                }
            }
        stride = block;
        {
            double *sw = src;

            src = dst;
            dst = sw;
        }
    }
}

/* Z <- Z (K_1^t (x) ... (x) K_C^t) for n vectors at once, stored phase-
 * major: Z[f n + l] is phase f of vector l; tmp holds P n doubles.  The
 * same operation as kron_apply on each vector, with the level index
 * innermost (contiguous axpys). */
static void
kron_apply_cols(const bba_onoff *m, double *const *Kp, double *Z, double *tmp, long n)
{
    long P = m->n_phases, stride = 1;
    double *src = Z, *dst = tmp;

    for (size_t c = 0; c < m->n_classes; c++) {
        int r = m->N[c] + 1;
        long block = stride * r;
        const double *K = Kp[c];

        for (long o = 0; o < P; o += block)
            for (long i = 0; i < stride; i++)
                for (int m2 = 0; m2 < r; m2++) {
                    double *restrict d = dst + (o + i + m2 * stride) * n;

                    memset(d, 0, (size_t)n * sizeof *d);
                    for (int mm = 0; mm < r; mm++) {
                        const double *restrict sv = src + (o + i + mm * stride) * n;
                        double k = K[mm * r + m2];
                        long l = 0;

                        if (k == 0)
                            continue;
                        /* unrolled: -O2 does not vectorise this loop */
                        for (; l + 4 <= n; l += 4) {
                            d[l] += k * sv[l];
                            d[l + 1] += k * sv[l + 1];
                            d[l + 2] += k * sv[l + 2];
                            d[l + 3] += k * sv[l + 3];
                        }
                        for (; l < n; l++)
                            d[l] += k * sv[l];
                    }
                }
        stride = block;
        {
            double *sw = src;

            src = dst;
            dst = sw;
        }
    }
    if (src != Z)
        memcpy(Z, src, (size_t)P * (size_t)n * sizeof *Z);
}

typedef struct {
    const bba_onoff *m;
    long S, T, P;
    const bba_policy *pol;
    double ***Kp;      /* Kp[t-1][c] = K_c^t */
    double *z;         /* T x (S+1) x P */
    char *zflag;       /* T x (S+1) */
    double *tmp;       /* 3 P */
    double *ktmp;      /* (S + 1) P: kron_apply_cols' scratch */
    bba_fftconv *conv; /* greedy: the level convolution with D0 by FFT */
    double *xcol;      /* S + 1: one phase's levels */
    double *ccol;      /* S + M0 + 1: their convolution with D0 */
    double *lw;        /* 2 (B + 1): lazy_fix's weights */
    double *pinv[2];   /* lazy: the level blocks' inverses (level 0, levels
                          1..T-1), P x P, or NULL (no preconditioner) */
    double *pz;        /* cells: GMRES's preconditioned vector */
    int clamp;         /* spread_fft: clamp round-off below 0 (not in GMRES,
                          whose vectors are signed) */
} work;

/* Add v times the transitions out of normal state (j, a phase of bursty
 * load kf) over the landing levels, the memoryless load k0 ~ D0 on top:
 * lev[l - off] for one-step landings (contiguous in l: the hot loop is an
 * axpy), and landings after a stall at ovf[(st (S+1) + land) P + f] (with
 * oflag set) when ovf is given, else at lev[land - off] too.  The rule is
 * rule above, by ranges of k0 instead of one k0 at a time. */
static void
spread(const bba_onoff *m, long j, long kf, long S, const bba_policy *pol, double v,
       double *lev, long off, double *ovf, long P, long f, char *oflag)
{
    const double *D = m->D0;
    long B = m->B, M0 = m->M0, base = j + kf - B; /* l = base + k0 */
    long kq = pol->lazy && j < pol->threshold ? B - kf : -1; /* k0 <= kq: lazy */
    double eps = pol->eps;
    long k0 = 0, hi;

    if (kq >= 0) {
        /* Algorithm 4: the load stays at j with probability 1 - EPS. */
        double sd = 0;

        for (long k = 0; k <= kq && k <= M0; k++)
            sd += D[k];
        lev[j - off] += v * (1.0 - eps) * sd;
    }
    /* Loads that empty the buffer: l <= 0. */
    hi = -base < M0 ? -base : M0;
    if (hi >= 0) {
        double s0 = 0;

        for (long k = 0; k <= hi; k++)
            s0 += D[k] * (k <= kq ? eps : 1.0);
        lev[0 - off] += v * s0;
        k0 = hi + 1;
    }
    /* One-step landings 1 <= l <= S. */
    hi = S - base < M0 ? S - base : M0;
    if (k0 <= hi) {
        long mid = kq < hi ? kq : hi;
        double *d = lev + (base - off);

        if (k0 <= mid) {
            double fe = v * eps;

            for (long k = k0; k <= mid; k++)
                d[k] += fe * D[k];
            k0 = mid + 1;
        }
        for (long k = k0; k <= hi; k++)
            d[k] += v * D[k];
        k0 = hi + 1;
    }
    /* Overflows (k > B, so never in the lazy part): a stall of st units,
     * landing at max(l - st B, 0) after 1 + st phase steps. */
    for (; k0 <= M0; k0++) {
        long l = base + k0, st, land;

        if (D[k0] == 0)
            continue;
        st = (l - S + B - 1) / B;
        land = l - st * B > 0 ? l - st * B : 0;
        if (ovf) {
            ovf[(st * (S + 1) + land) * P + f] += v * D[k0];
            oflag[st * (S + 1) + land] = 1;
        } else {
            lev[land - off] += v * D[k0];
        }
    }
}

/* Algorithm 4 on top of the greedy landings of one phase f (bursty load
 * kf): from a level j below the threshold T, a total load k = kf + k0 <= B
 * keeps the buffer at j with probability 1 - EPS instead of moving it to
 * max(j + k - B, 0).  With q = B - kf, w_d = (1 - EPS) D0[q - d] the weight
 * of a move down by d (0 <= d <= q) and W_j = sum_{d >= j} w_d the weight
 * of the moves that clamp at 0 from j, the correction of zt (phase f's
 * one-step landings, levels 0..S) is
 *   zt[l] += W_0 x_l - sum_{d = 0}^{min(q, T - 1 - l)} w_d x_{l + d}  (0 < l < T)
 *   zt[0] += W_0 x_0 - sum_{j = 0}^{min(q, T - 1)} W_j x_j           (= 0 at j = 0),
 * x = w->xcol (phase f's level column).  Lazy moves never overflow (k <= B),
 * so the stall blocks are untouched.  T (q + 1) operations, at most
 * T (B + 1): about the FFT's cost at the default resolution.  The
 * subtraction can leave FFT round-off (1e-16 of the column's largest
 * entry) below 0: clamped as in spread_fft. */
static double dot(const double *restrict a, const double *restrict b, size_t n);

static void
lazy_fix(work *w, long f, double *zt)
{
    const bba_onoff *m = w->m;
    const double *x = w->xcol;
    long T = w->pol->threshold, q = m->B - m->phase_load[f], top;
    double *wd = w->lw, *W = w->lw + m->B + 1, om = 1.0 - w->pol->eps, s = 0, z0 = 0;

    if (q < 0 || om == 0)
        return; /* every load exceeds B, or EPS = 1: nothing lazy */
    for (long d = q; d >= 0; d--) {
        wd[d] = q - d <= m->M0 ? om * m->D0[q - d] : 0;
        s += wd[d];
        W[d] = s;
    }
    top = T - 1 < q ? T - 1 : q;
    for (long j = 0; j <= top; j++)
        z0 += W[j] * x[j];
    zt[0] += W[0] * x[0] - z0;
    for (long l = 1; l < T; l++) {
        long dmax = T - 1 - l < q ? T - 1 - l : q;
        zt[l] += W[0] * x[l] - dot(wd, x + l, (size_t)(dmax + 1));
    }
    if (w->clamp)
        for (long l = 0; l < T; l++)
            if (zt[l] < 0)
                zt[l] = 0;
}

/* spread() for every state at once (greedy; lazy_fix() adds Algorithm 4): the landing of a normal
 * state depends on the raw level r = j + k - B alone, so per phase f the
 * mass at each r is one linear convolution of the level column x(., f)
 * with D0 (by FFT), shifted by the phase's load; r <= 0 lands at 0, r in
 * 1..S at r, r > S after a stall as in the rule above. */
static void
spread_fft(work *w, const double *x)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, B = m->B, n = S + 1 + m->M0;

    for (long f = 0; f < P; f++) {
        double *zt = w->z + f * (S + 1), *cc = w->ccol;
        long shift = m->phase_load[f] - B; /* r = i + shift */
        double s0 = 0;

        for (long j = 0; j <= S; j++)
            w->xcol[j] = x[j * P + f];
        bba_fftconv_apply(w->conv, w->xcol, S + 1, cc);
        for (long i = 0; i < n; i++) {
            long r = i + shift;

            /* FFT round-off (about 1e-16 of the column's largest entry)
             * must not make a probability negative. */
            if (cc[i] < 0 && w->clamp)
                cc[i] = 0;

            if (r <= 0) {
                s0 += cc[i];
            } else if (r <= S) {
                zt[r] += cc[i];
            } else {
                long st = (r - S + B - 1) / B, land = r - st * B > 0 ? r - st * B : 0;

                w->z[(st * (S + 1) + land) * P + f] += cc[i];
                w->zflag[st * (S + 1) + land] = 1;
            }
        }
        zt[0] += s0;
        if (w->pol->lazy && w->pol->threshold > 0)
            lazy_fix(w, f, zt);
    }
}

/* y = x P_c (the censored chain); returns max |y - x|.  The one-step
 * landings accumulate phase-major in the first (S + 1) P block of z, so
 * that spread() writes contiguously; the landings after a stall go to
 * z[st], level-major. */
static double
apply(work *w, const double *x, double *y)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, T = w->T;
    double r = 0, *zt = w->z;

    /* Clear the one-step block, and of each stall block the levels a
     * stall can land on: 0 and (S - B, S] (the rule above). */
    memset(w->z, 0, (size_t)(S + 1) * (size_t)P * sizeof *w->z);
    memset(w->zflag, 0, (size_t)T * (size_t)(S + 1));
    for (long st = 1; st < T; st++) {
        long lo = S - m->B + 1 > 1 ? S - m->B + 1 : 1;

        memset(w->z + st * (S + 1) * P, 0, (size_t)P * sizeof *w->z);
        if (lo <= S)
            memset(w->z + (st * (S + 1) + lo) * P, 0,
                   (size_t)(S - lo + 1) * (size_t)P * sizeof *w->z);
    }
    if (w->conv)
        spread_fft(w, x);
    else
        for (long j = 0; j <= S; j++)
            for (long f = 0; f < P; f++) {
                double xv = x[j * P + f];

                if (xv != 0)
                    spread(m, j, m->phase_load[f], S, w->pol, xv, zt + f * (S + 1), 0, w->z,
                           P, f, w->zflag);
            }
    kron_apply_cols(m, w->Kp[0], zt, w->ktmp, S + 1);
    for (long l = 0; l <= S; l++)
        for (long f = 0; f < P; f++)
            y[l * P + f] = zt[f * (S + 1) + l];
    for (long s = 1; s < T; s++)
        for (long l = 0; l <= S; l++) {
            double *yl = y + l * P, *add = w->tmp + P;

            /* Rare: a landing after a stall; add to what is there. */
            if (!w->zflag[s * (S + 1) + l])
                continue;
            kron_apply(m, w->Kp[s], w->z + (s * (S + 1) + l) * P, add, w->tmp);
            for (long f = 0; f < P; f++)
                yl[f] += add[f];
        }
    for (long i = 0; i < (S + 1) * P; i++) {
        double d = fabs(y[i] - x[i]);

        if (d > r)
            r = d;
    }
    return r;
}

/* The first level chain, every level's phases at the stationary phase
 * distribution, is the scalar chain of chain.h for the load law of all
 * applications made memoryless: solve it by the FFT Wiener-Hopf solver
 * (fftwh.h) into xi (S + 1, normalised over the normal states).  Returns
 * BB_OK, or an error after which the caller solves it by banded GTH. */
static int
first_solve_fft(const work *w, double *xi)
{
    const bba_onoff *m = w->m;
    long S = w->S, U = m->M > m->B ? m->M - m->B : 0, nf = 0;
    size_t n = m->n0;
    double *dist = NULL, *pi = NULL, *pf = NULL, tot = 0;
    long *bf = NULL;
    bba_solver_opts so;
    bba_measures me;
    bba_solve_info info;
    char err[BB_ERRLEN];
    int rc = BB_ENOMEM;

    for (size_t c = 0; c < m->n_classes; c++)
        n += (size_t)m->N[c];
    dist = calloc((size_t)m->M + 1, sizeof *dist);
    pi = malloc(((size_t)S + (size_t)U + 1) * sizeof *pi);
    bf = malloc((n + 1) * sizeof *bf);
    pf = malloc((n + 1) * sizeof *pf);
    if (!dist || !pi || !bf || !pf)
        goto out;
    for (size_t i = 0; i < m->n0; i++, nf++) {
        bf[nf] = m->b0[i];
        pf[nf] = m->p0[i];
    }
    for (size_t c = 0; c < m->n_classes; c++)
        for (int i = 0; i < m->N[c]; i++, nf++) {
            bf[nf] = m->b[c];
            pf[nf] = m->p[c];
        }
    for (long f = 0; f < m->n_phases; f++)
        for (long k = 0; k <= m->M0; k++)
            dist[m->phase_load[f] + k] += m->phase_pi[f] * m->D0[k];
    rc = BB_EDATA;
    if (!(dist[0] > 0) && S > 0)
        goto out; /* never drains below B: let GTH say so */
    bba_solver_defaults(&so);
    so.kind = BBA_SOLVER_FFT;
    rc = bba_fftwh_eval(dist, m->M, m->B, S, n, bf, pf, w->pol, &so, NULL, &me, &info, pi, err);
    if (rc != BB_OK)
        goto out;
    for (long j = 0; j <= S; j++)
        tot += pi[j] > 0 ? pi[j] : 0;
    rc = tot > 0 ? BB_OK : BB_EDATA;
    for (long j = 0; j <= S && rc == BB_OK; j++)
        xi[j] = (pi[j] > 0 ? pi[j] : 0) / tot;
out:
    free(dist);
    free(pi);
    free(bf);
    free(pf);
    return rc;
}

/* The level chain with the phases of each level weighted by x (or by the
 * stationary phase distribution where x has no mass), as a bba_chain with
 * n_states = S + 1 and band [j - B, j + U]; solved by banded GTH. */
static int
coarse_solve(work *w, const double *x, bba_chain *c, double *acc, double *xi,
             char *err)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, B = m->B, U = c->M - B, pos = 0;
    bba_solver_opts so;
    bba_solve_info info;

    for (long j = 0; j <= S; j++) {
        const double *xj = x + j * P;
        double mass = 0;
        long base = j - B;

        for (long f = 0; f < P; f++)
            mass += xj[f];
        memset(acc, 0, (size_t)(B + U + 1) * sizeof *acc);
        for (long f = 0; f < P; f++) {
            double wf = mass > 0 ? xj[f] / mass : m->phase_pi[f];

            if (wf == 0)
                continue;
            spread(m, j, m->phase_load[f], S, w->pol, wf, acc, base, NULL, 0, 0, NULL);
        }
        c->rowptr[j] = (int)pos;
        for (long d = 0; d <= B + U; d++)
            if (acc[d] != 0) {
                c->col[pos] = (int)(base + d);
                c->val[pos] = acc[d];
                pos++;
            }
    }
    c->rowptr[S + 1] = (int)pos;
    c->nnz = pos;
    bba_solver_defaults(&so);
    so.kind = BBA_SOLVER_BANDED;
    so.tol = 1e-9;
    return bba_stationary_solve(c, &so, xi, &info, err);
}

/* The measures of x (normalised over the normal states) in
 * O((S + 1) P + M): with tail(t) = Pr(k0 > t) and
 * G(t) = sum_{k0 > t} D0[k0] ceil((k0 - t)/B), G(t) = tail(t) + G(t + B),
 * a state (j, f) stalls G(S + B - j - kf) units on average and is quiet
 * (l >= j) when j = 0 or k0 >= B - kf; lazy draining below the threshold
 * adds (1 - EPS) Pr(k0 < B - kf) to the quiet probability of j > 0 (its
 * loads k <= B never stall). */
static void
measures(work *w, const double *x, bba_measures *me)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, B = m->B, M0 = m->M0, kmax = 0;
    long t0, nt;
    double stall = 0, quiet = 0, load = 0, p0 = 0, pS = 0, Z, *tail, *G;
    int lazy = w->pol->lazy && w->pol->threshold > 0;
    double lazy_keep = lazy ? 1.0 - w->pol->eps : 0;

    for (long f = 0; f < P; f++)
        if (m->phase_load[f] > kmax)
            kmax = m->phase_load[f];
    t0 = B - kmax - 1 < 0 ? B - kmax - 1 : 0; /* smallest t needed */
    nt = M0 - t0 + 1 + B;
    tail = malloc((size_t)nt * sizeof *tail);
    G = malloc((size_t)nt * sizeof *G);
    if (tail == NULL || G == NULL) {
        free(tail);
        free(G);
        me->idle = NAN;
        return;
    }
    /* tail[t - t0] for t0 <= t < t0 + nt; G likewise, 0 for t >= M0. */
    for (long i = nt - 1; i >= 0; i--) {
        long t = t0 + i;

        tail[i] = t >= M0 ? 0 : (t + 1 < 0 ? 1.0 : tail[i + 1] + m->D0[t + 1]);
        if (t < 0)
            tail[i] = 1.0;
    }
    for (long i = nt - 1; i >= 0; i--)
        G[i] = t0 + i >= M0 ? 0 : tail[i] + (i + B < nt ? G[i + B] : 0);
    for (long j = 0; j <= S; j++)
        for (long f = 0; f < P; f++) {
            double xv = x[j * P + f];
            long kf = m->phase_load[f], t = S + B - j - kf;

            if (xv == 0)
                continue;
            load += (double)j * xv;
            if (j == 0)
                p0 += xv;
            if (j == S)
                pS += xv;
            stall += xv * (t >= M0 ? 0 : G[t - t0]);
            quiet += j == 0 ? xv : xv * (B - kf - 1 >= M0 ? 0 : tail[B - kf - 1 - t0]);
            /* Algorithm 4 below the threshold: a load k < B that would
             * have lowered the buffer keeps it with probability 1 - EPS
             * (k = B keeps it anyway; k > B moves as greedy) */
            if (lazy && j > 0 && j < w->pol->threshold && B - kf - 1 >= 0)
                quiet += xv * lazy_keep
                         * (1.0 - (B - kf - 1 >= M0 ? 0 : tail[B - kf - 1 - t0]));
        }
    free(tail);
    free(G);
    Z = 1.0 + stall;
    me->idle = stall / Z;
    me->quiet = quiet / Z;
    me->mean_load = load;
    me->p_empty = p0 / Z;
    me->p_full = me->idle + pS / Z;
}

/* C = A B for r x r matrices. */
static void
matmul(int r, const double *A, const double *Bm, double *C)
{
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++) {
            double s = 0;

            for (int k = 0; k < r; k++)
                s += A[i * r + k] * Bm[k * r + j];
            C[i * r + j] = s;
        }
}

static void axpy(double alpha, const double *restrict x, double *restrict y, size_t n);

/* The lazy preconditioner.  Below the threshold the buffer keeps its
 * level with probability h_f = (1 - EPS) Pr(k0 <= B - kf) + EPS Pr(k0 =
 * B - kf) (at level 0: Pr(k0 <= B - kf)) while the phases move: with EPS
 * = 0.01 a level holds for tens of steps, and the Krylov steps needed
 * grow with it (measured: GMRES(30) out of steps at 600 products on the
 * paper's workload with 10-unit bursts, 100-140 greedy).  The level
 * blocks of I - P there are A = I - diag(h) K (K the full phase kernel),
 * the same for every level 1..T-1: a block-diagonal right preconditioner
 * (Saad 2003, 9.3) over the lazy region, one per region as the scalar
 * solver's (fftwh.c), makes GMRES see the chain observed when the level
 * moves.  Builds pinv[0] (level 0) and pinv[1] (levels 1..T-1), A^-1
 * explicitly (P^3; P <= LAZY_PREC_MAX_P).  Returns 0 on success, -1 when
 * out of memory or a block is numerically singular (no preconditioner:
 * GMRES runs unpreconditioned). */
#define LAZY_PREC_MAX_P 512

static int
lazy_prec_new(work *w)
{
    const bba_onoff *m = w->m;
    long P = w->P, B = m->B;
    double *K = NULL, *cdf = NULL;
    gsl_permutation *perm = NULL;
    int rc = -1, sg;

    K = malloc((size_t)P * (size_t)P * sizeof *K);
    cdf = malloc(((size_t)m->M0 + 1) * sizeof *cdf);
    perm = gsl_permutation_alloc((size_t)P);
    w->pinv[0] = malloc((size_t)P * (size_t)P * sizeof *K);
    w->pinv[1] = malloc((size_t)P * (size_t)P * sizeof *K);
    if (!K || !cdf || !perm || !w->pinv[0] || !w->pinv[1])
        goto out;
    for (long k = 0; k <= m->M0; k++)
        cdf[k] = m->D0[k] + (k > 0 ? cdf[k - 1] : 0);
    /* The full kernel, K(f, f') = prod_c K_c(m_c(f), m_c(f')); phase
     * digits as kron_apply's (class 0 fastest). */
    for (long f = 0; f < P; f++)
        for (long g = 0; g < P; g++) {
            long a = f, b = g;
            double v = 1;

            for (size_t c = 0; c < m->n_classes && v != 0; c++) {
                int r = m->N[c] + 1;

                v *= m->K[c][(a % r) * r + b % r];
                a /= r;
                b /= r;
            }
            K[f * P + g] = v;
        }
    for (int blk = 0; blk < 2; blk++) {
        double *A = w->pinv[blk];
        gsl_matrix_view Av = gsl_matrix_view_array(A, (size_t)P, (size_t)P);
        gsl_matrix_view Iv;
        gsl_matrix *inv = NULL;

        for (long f = 0; f < P; f++) {
            long q = B - m->phase_load[f];
            double le = q < 0 ? 0 : cdf[q < m->M0 ? q : m->M0];
            double eq = q < 0 || q > m->M0 ? 0 : m->D0[q];
            double h = blk == 0 ? le : (1.0 - w->pol->eps) * le + w->pol->eps * eq;

            if (h > 1.0 - 1e-9)
                h = 1.0 - 1e-9;
            for (long g = 0; g < P; g++)
                A[f * P + g] = (f == g ? 1.0 : 0.0) - h * K[f * P + g];
        }
        if (gsl_linalg_LU_decomp(&Av.matrix, perm, &sg) != 0)
            goto out;
        inv = gsl_matrix_alloc((size_t)P, (size_t)P);
        if (inv == NULL || gsl_linalg_LU_invert(&Av.matrix, perm, inv) != 0) {
            gsl_matrix_free(inv);
            goto out;
        }
        Iv = gsl_matrix_view_array(A, (size_t)P, (size_t)P);
        gsl_matrix_memcpy(&Iv.matrix, inv);
        gsl_matrix_free(inv);
        for (long i = 0; i < P * P; i++)
            if (!isfinite(A[i]))
                goto out;
    }
    rc = 0;
out:
    if (rc != 0) {
        free(w->pinv[0]);
        free(w->pinv[1]);
        w->pinv[0] = w->pinv[1] = NULL;
    }
    free(K);
    free(cdf);
    if (perm)
        gsl_permutation_free(perm);
    return rc;
}

/* z = u M^-1: levels below the threshold times their block's inverse,
 * the others copied.  T P^2 operations. */
static void
lazy_prec_apply(const work *w, const double *u, double *z)
{
    long P = w->P, T = w->pol->threshold;

    memcpy(z + T * P, u + T * P, (size_t)(w->S + 1 - T) * (size_t)P * sizeof *z);
    for (long j = 0; j < T; j++) {
        const double *uj = u + j * P, *Ai = w->pinv[j == 0 ? 0 : 1];
        double *zj = z + j * P;

        memset(zj, 0, (size_t)P * sizeof *zj);
        for (long f = 0; f < P; f++)
            if (uj[f] != 0)
                axpy(uj[f], Ai + f * P, zj, (size_t)P);
    }
}

/* Restarted GMRES (Saad and Schultz 1986) on x (I - P) = 0 from x, FFT
 * path only: each restart solves d (I - P) = x P - x for the correction d
 * (a consistent singular system: both sides sum to 0) with at most
 * GMRES_M Arnoldi steps (modified Gram-Schmidt, Givens rotations), then
 * x += d.  At the end x is clamped at 0 and normalised, and the true
 * max |x P - x| is returned (x is then usable by the smoothing whatever
 * it is).  Unpreconditioned: after the level mode is removed by the first
 * level solve, what remains are the phase modes (1 - a - c per step for
 * power steps), which Krylov steps resolve in far fewer products.
 * V holds (GMRES_M + 1) cells doubles.  *steps receives the products. */
/* sum a[i] b[i] and y += alpha x, unrolled by four (-O2 vectorises
 * neither: no reassociation for the sum, possible aliasing for the axpy). */
static double
dot(const double *restrict a, const double *restrict b, size_t n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

static void
axpy(double alpha, const double *restrict x, double *restrict y, size_t n)
{
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        y[i] += alpha * x[i];
        y[i + 1] += alpha * x[i + 1];
        y[i + 2] += alpha * x[i + 2];
        y[i + 3] += alpha * x[i + 3];
    }
    for (; i < n; i++)
        y[i] += alpha * x[i];
}

#define GMRES_M 30
#define GMRES_MAX_STEPS 600

static double
gmres_solve(work *w, double *x, double *y, double *V, size_t cells, double tol, long *steps)
{
    double H[GMRES_M + 1][GMRES_M], cs[GMRES_M], sn[GMRES_M], g[GMRES_M + 1], yv[GMRES_M];
    double res = INFINITY, sum;

    *steps = 0;
    w->clamp = 0;
    while (*steps < GMRES_MAX_STEPS) {
        double beta = 0;
        int k = 0;

        apply(w, x, y);
        (*steps)++;
        for (size_t i = 0; i < cells; i++) {
            V[i] = y[i] - x[i];
            beta += V[i] * V[i];
        }
        beta = sqrt(beta);
        if (!(beta > 0.5 * tol))
            break;
        for (size_t i = 0; i < cells; i++)
            V[i] /= beta;
        memset(g, 0, sizeof g);
        g[0] = beta;
        for (k = 0; k < GMRES_M && *steps < GMRES_MAX_STEPS; k++) {
            double *vk = V + (size_t)k * cells, *wv = V + (size_t)(k + 1) * cells, h, t;

            /* wv = vk M^-1 (I - P) (M = I without the lazy preconditioner) */
            if (w->pinv[0]) {
                lazy_prec_apply(w, vk, w->pz);
                vk = w->pz;
            }
            apply(w, vk, y);
            (*steps)++;
            for (size_t i = 0; i < cells; i++)
                wv[i] = vk[i] - y[i];
            vk = V + (size_t)k * cells;
            for (int i = 0; i <= k; i++) {
                const double *vi = V + (size_t)i * cells;
                double d = dot(wv, vi, cells);

                H[i][k] = d;
                axpy(-d, vi, wv, cells);
            }
            h = sqrt(dot(wv, wv, cells));
            H[k + 1][k] = h;
            if (h > 0)
                for (size_t q = 0; q < cells; q++)
                    wv[q] /= h;
            for (int i = 0; i < k; i++) {
                t = cs[i] * H[i][k] + sn[i] * H[i + 1][k];
                H[i + 1][k] = -sn[i] * H[i][k] + cs[i] * H[i + 1][k];
                H[i][k] = t;
            }
            t = hypot(H[k][k], H[k + 1][k]);
            cs[k] = t > 0 ? H[k][k] / t : 1;
            sn[k] = t > 0 ? H[k + 1][k] / t : 0;
            H[k][k] = t;
            H[k + 1][k] = 0;
            g[k + 1] = -sn[k] * g[k];
            g[k] = cs[k] * g[k];
            if (fabs(g[k + 1]) <= 0.5 * tol || !(h > 0)) {
                k++;
                break;
            }
        }
        /* Back substitution, then x += V y. */
        for (int i = k - 1; i >= 0; i--) {
            double t = g[i];

            for (int j = i + 1; j < k; j++)
                t -= H[i][j] * yv[j];
            yv[i] = H[i][i] != 0 ? t / H[i][i] : 0;
        }
        if (w->pinv[0]) {
            /* x += (V yv) M^-1 */
            memset(y, 0, cells * sizeof *y);
            for (int i = 0; i < k; i++)
                axpy(yv[i], V + (size_t)i * cells, y, cells);
            lazy_prec_apply(w, y, w->pz);
            axpy(1.0, w->pz, x, cells);
        } else {
            for (int i = 0; i < k; i++)
                axpy(yv[i], V + (size_t)i * cells, x, cells);
        }
        if (!isfinite(g[k]) || fabs(g[k]) <= 0.5 * tol)
            break;
    }
    w->clamp = 1;
    sum = 0;
    for (size_t i = 0; i < cells; i++) {
        if (!(x[i] > 0))
            x[i] = 0;
        sum += x[i];
    }
    if (!(sum > 0))
        return INFINITY;
    for (size_t i = 0; i < cells; i++)
        x[i] /= sum;
    res = apply(w, x, y);
    (*steps)++;
    return res;
}

int
bba_onoff_eval(const bba_onoff *m, long S, const bba_policy *pol,
               const bba_onoff_opts *o, bba_eval_result *out, double **pi_out,
               char *err)
{
    work w;
    bba_chain c;
    double *x = NULL, *y = NULL, *xsave = NULL, *xi = NULL, *acc = NULL, *V = NULL, bytes;
    double res = INFINITY;
    long P = m->n_phases, T = max_steps(m), U = m->M > m->B ? m->M - m->B : 0, it;
    size_t cells;
    long nsmooth = o->smooth > 0 ? o->smooth : 1;
    /* A model standing for a larger one (m->ms) is an approximation
     * uncertain by percents: a residual of 1e-11 (idle to about 1e-7
     * relative at 1e-3) is enough, and saves a fifth of the steps. */
    double tol = m->ms && o->tol < 1e-11 ? 1e-11 : o->tol, damp = SMOOTH_DAMP;
    double sr = 0, ops_apply, ops_coarse;
    int rc = BB_OK;

    memset(out, 0, sizeof *out);
    memset(&w, 0, sizeof w);
    memset(&c, 0, sizeof c);
    if (pi_out)
        *pi_out = NULL;
    if (S < 0)
        return bb_seterr(err, BB_EINVAL, "buffer size %ld quanta is negative", S);
    if (m->phase_load == NULL)
        return bb_seterr(err, BB_EINVAL, "a classes-only model (%ld phases) cannot be solved",
                         m->n_phases);
    if (pol->lazy && (pol->threshold < 0 || pol->threshold > S))
        return bb_seterr(err, BB_EINVAL, "threshold %ld quanta is outside [0, %ld]",
                         pol->threshold, S);
    if (pol->lazy && !(pol->eps >= 0.0 && pol->eps <= 1.0))
        return bb_seterr(err, BB_EINVAL, "EPS %g is outside [0, 1]", pol->eps);
    bba_onoff_estimate(m, S, o, &bytes, NULL);
    if ((o->mem_limit_bytes > 0 && bytes > o->mem_limit_bytes)
        || ((double)S + 1.0) * ((double)m->B + (double)U + 1.0) >= 2147483647.0)
        return bb_seterr(err, BB_ETOOBIG, "the modulated chain at %ld quanta has %ld "
                         "levels x %ld phases and needs %.3g GB (limit %.3g GB)",
                         S, S + 1, P, bytes / 1e9, o->mem_limit_bytes / 1e9);
    cells = (size_t)(S + 1) * (size_t)P;
    w.m = m;
    w.clamp = 1;
    w.S = S;
    w.T = T;
    w.P = P;
    w.pol = pol;
    x = bba_big_alloc(cells * sizeof *x, 0);
    y = bba_big_alloc(cells * sizeof *y, 0);
    xsave = bba_big_alloc(cells * sizeof *xsave, 0);
    w.z = bba_big_alloc((size_t)T * cells * sizeof *w.z, 0);
    w.zflag = malloc((size_t)T * (size_t)(S + 1));
    w.tmp = malloc(3 * (size_t)P * sizeof *w.tmp);
    w.ktmp = bba_big_alloc(cells * sizeof *w.ktmp, 0);
    w.Kp = calloc((size_t)T, sizeof *w.Kp);
    xi = malloc((size_t)(S + 1) * sizeof *xi);
    acc = malloc((size_t)(m->B + U + 1) * sizeof *acc);
    c.rowptr = malloc((size_t)(S + 2) * sizeof *c.rowptr);
    c.col = bba_big_alloc((size_t)(S + 1) * (size_t)(m->B + U + 1) * sizeof *c.col, 0);
    c.val = bba_big_alloc((size_t)(S + 1) * (size_t)(m->B + U + 1) * sizeof *c.val, 0);
    if (!x || !y || !xsave || !w.z || !w.zflag || !w.tmp || !w.ktmp || !w.Kp || !xi || !acc || !c.rowptr
        || !c.col || !c.val) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the modulated chain (%.3g GB)",
                       bytes / 1e9);
        goto out;
    }
    for (long s = 0; s < T; s++) {
        w.Kp[s] = calloc(m->n_classes + 1, sizeof *w.Kp[s]);
        if (w.Kp[s] == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for kernel powers");
            goto out;
        }
        for (size_t cl = 0; cl < m->n_classes; cl++) {
            int r = m->N[cl] + 1;

            w.Kp[s][cl] = malloc((size_t)r * (size_t)r * sizeof(double));
            if (w.Kp[s][cl] == NULL) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory for kernel powers");
                goto out;
            }
            if (s == 0)
                memcpy(w.Kp[s][cl], m->K[cl], (size_t)r * (size_t)r * sizeof(double));
            else
                matmul(r, w.Kp[s - 1][cl], m->K[cl], w.Kp[s][cl]);
        }
    }
    c.S = S;
    c.B = m->B;
    c.M = m->B + U;
    c.n_states = S + 1;

    /* Balance the work: a level-chain solve costs (S+1) U B, a smoothing
     * step (S+1) P (M0 + 1 + sum_c (N_c + 1)); with all applications
     * bursty (M0 = 0) the solve is hundreds of steps, and the phase modes
     * need that many steps anyway (40-unit bursts: 0.98 per step).  So
     * smooth at least as long as one solve costs (measured: 3.5x faster
     * on three classes of 16-40-unit bursts at S = 4110). */
    for (size_t cl = 0; cl < m->n_classes; cl++)
        sr += m->N[cl] + 1;
    ops_apply = (double)P * ((double)m->M0 + 1.0 + sr);
    {
        double nf = (double)S + (double)m->M0 + 1.0;
        double fft_ops = 6.0 * log2(nf) * nf / ((double)S + 1.0);

        if (o->fft == 1 || (o->fft < 0 && m->M0 > 0 && fft_ops < (double)m->M0 + 1.0)) {
            w.conv = bba_fftconv_new(m->D0, m->M0 + 1, S + 1);
            w.xcol = malloc((size_t)(S + 1) * sizeof *w.xcol);
            w.ccol = malloc((size_t)(S + 1 + m->M0) * sizeof *w.ccol);
            w.lw = malloc(2 * ((size_t)m->B + 1) * sizeof *w.lw);
            if (!w.conv || !w.xcol || !w.ccol || !w.lw) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory for the level convolution");
                goto out;
            }
            ops_apply = (double)P * (fft_ops + sr);
            if (pol->lazy && pol->threshold > 0)
                ops_apply += (double)P * (double)pol->threshold * ((double)m->B + 1.0)
                             / ((double)S + 1.0);
            damp = SMOOTH_DAMP_FFT;
            /* GMRES's basis when it fits the memory limit (else the
             * smoothing alone goes on). */
            double slow = 0;

            for (size_t cl = 0; cl < m->n_classes; cl++) {
                double a = 1.0 / m->L[cl], cc = a * m->p[cl] / (1.0 - m->p[cl]);

                if (fabs(1.0 - a - cc) > slow)
                    slow = fabs(1.0 - a - cc);
            }
            if ((o->krylov == 1 || (o->krylov < 0
                     && (slow > 0.85 || P >= 32 || (pol->lazy && pol->threshold > 0))))
                && (o->mem_limit_bytes <= 0
                    || bytes + (GMRES_M + 1.0) * (double)cells * sizeof(double)
                           <= o->mem_limit_bytes))
                V = bba_big_alloc((GMRES_M + 1) * cells * sizeof *V, 0);
            /* Below a lazy threshold, the level blocks' preconditioner
             * (lazy_prec_new: P^2 doubles twice, cells more for GMRES). */
            if (V != NULL && pol->lazy && pol->threshold > 0 && P <= LAZY_PREC_MAX_P) {
                w.pz = bba_big_alloc(cells * sizeof *w.pz, 0);
                if (w.pz == NULL || lazy_prec_new(&w) != 0) {
                    free(w.pz);
                    w.pz = NULL;
                }
            }
        }
    }
    ops_coarse = (double)(U > 0 ? U : 1) * (double)m->B + (double)P * ((double)m->M0 + 1.0);
    /* With the FFT convolution a step is cheap beside a level solve
     * (banded GTH, whose constant the count above understates), and the
     * phase modes need a few hundred steps anyway: smooth 8 times longer
     * (measured: one aggregation iteration instead of 8 on the paper's
     * workload with 10-unit bursts, 3x faster). */
    if (w.conv)
        ops_apply /= 8;
    if (ops_coarse / ops_apply > (double)nsmooth)
        nsmooth = ops_coarse / ops_apply > 1024 ? 1024 : (long)(ops_coarse / ops_apply);

    /* Start from the stationary phase distribution at every level: the
     * first level chain is then exactly the scalar chain of DIST. */
    for (long j = 0; j <= S; j++)
        memcpy(x + j * P, m->phase_pi, (size_t)P * sizeof *x);
    for (it = 1; it <= o->max_iter; it++) {
        double prev = res;
        int accepted = 1;

        /* Aggregation-disaggregation (Koury, McAllister and Stewart) is not
         * guaranteed to converge: with the conditional phase weights of an
         * early iterate, the level chain can drift upward where the true
         * one does not (measured: 40-unit bursts at S = 9920 sent the
         * level marginal to 1e-108 at 0 and then NaN), or cycle with the
         * smoothing (one application at S = 600).  So a correction is kept
         * only when it lowers the residual, else the iterate before it
         * goes on with pure damped power steps, which always converge. */
        if (it > 1)
            memcpy(xsave, x, cells * sizeof *x);
        if (it == 1 && w.conv && first_solve_fft(&w, xi) == BB_OK)
            rc = BB_OK;
        else
            rc = coarse_solve(&w, x, &c, acc, xi, err);
        if (rc != BB_OK && it == 1)
            goto out;
        if (rc == BB_OK) {
            for (long j = 0; j <= S; j++) {
                double mass = 0, *xj = x + j * P;

                for (long f = 0; f < P; f++)
                    mass += xj[f];
                for (long f = 0; f < P; f++)
                    xj[f] = mass > 0 ? xi[j] * xj[f] / mass : xi[j] * m->phase_pi[f];
            }
        } else {
            accepted = 0;
        }
        rc = BB_OK;
        if (it == 1 && V != NULL) {
            long gsteps;

            res = gmres_solve(&w, x, y, V, cells, tol, &gsteps);
            if (res <= tol)
                break;
        }
        for (long s = 0; s < nsmooth; s++) {
            double *sw;

            /* A damped step x <- (1 - w) x + w x P: the same fixed point,
             * but no eigenvalue on the unit circle, so that a periodic
             * chain (deterministic loads, as in the hand-worked case at
             * some sizes) converges too. */
            res = apply(&w, x, y);
            if (s == 0 && it > 1 && accepted && !(res <= prev)) {
                memcpy(x, xsave, cells * sizeof *x);
                accepted = 0;
                res = apply(&w, x, y);
            }
            for (size_t i = 0; i < cells; i++)
                y[i] = (1.0 - damp) * x[i] + damp * y[i];
            sw = x;
            x = y;
            y = sw;
            if (res <= tol)
                break;
        }
        if (res <= tol)
            break;
        /* When an iteration gains less than half, smooth twice as long. */
        if ((!accepted || !(res < 0.5 * prev)) && nsmooth < 4096)
            nsmooth *= 2;
    }
    out->solve.iterations = it > o->max_iter ? o->max_iter : it;
    out->solve.residual = res;
    out->solve.peak_bytes = bytes;
    if (!(res <= tol)) {
        rc = bb_seterr(err, BB_ENOCONV, "the modulated chain did not converge in %ld "
                       "aggregation iterations (residual %.3g, tolerance %.3g)",
                       o->max_iter, res, tol);
        goto out;
    }
    out->S = S;
    out->threshold = pol->lazy ? pol->threshold : 0;
    out->n_states = (S + 1 + U) * P;
    out->nnz = 0;
    measures(&w, x, &out->meas);
    if (m->ms) {
        /* effbw.h: this model stands for a larger one.  Under lazy
         * draining the buffer sits at the threshold, and an overflow is an
         * excursion of S - THRESHOLD from there; a heuristic
         * S - (1 - EPS) THRESHOLD keeps EPS = 1 (greedy, exactly) at S.
         * (Measured on the paper's
         * workload with 10-unit bursts, threshold 0.5 at 2.531 PB: idle
         * +38% against the simulator with the factor at S, +12% at
         * S - 0.99 THRESHOLD; greedy at its answer: +7%.) */
        long xs = pol->lazy ? S - lround((1.0 - pol->eps) * (double)pol->threshold) : S;
        double idle = out->meas.idle * bba_effbw_ms_factor(m->ms, m, xs);

        if (idle > 1)
            idle = 1;
        out->meas.p_full += idle - out->meas.idle;
        out->meas.idle = idle;
    }
    if (pi_out) {
        *pi_out = x;
        x = NULL;
    }
out:
    if (w.Kp) {
        for (long s = 0; s < T; s++) {
            if (w.Kp[s] == NULL)
                continue;
            for (size_t cl = 0; cl < m->n_classes; cl++)
                free(w.Kp[s][cl]);
            free(w.Kp[s]);
        }
        free(w.Kp);
    }
    free(x);
    free(y);
    free(xsave);
    free(w.z);
    free(w.zflag);
    free(w.tmp);
    free(w.ktmp);
    free(V);
    bba_fftconv_free(w.conv);
    free(w.xcol);
    free(w.ccol);
    free(w.lw);
    free(w.pz);
    free(w.pinv[0]);
    free(w.pinv[1]);
    free(xi);
    free(acc);
    free(c.rowptr);
    free(c.col);
    free(c.val);
    return rc;
}
