/* onoff_step.c: one step x -> x P of the censored ON/OFF-modulated chain
 * (onoff_int.h): per state the landings of every load, by ranges of the
 * memoryless load, then the phases' Kronecker step; the direct path
 * (one state at a time) and the FFT path (one convolution per phase),
 * with Algorithm 4's correction below a lazy threshold.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "krylov.h"
#include "onoff_int.h"

/* One transition of the censored chain from normal level j under total
 * load k (the rule every function below implements, by ranges of loads):
 * with l = max(j + k - B, 0),
 *  - lazy (Algorithm 4), j below the threshold and k <= B: the buffer
 *    stays at j with probability 1 - EPS (quiet), moves to l with EPS
 *    (quiet when l >= j);
 *  - else l <= S: to l (quiet when l >= j), the phase moving one step;
 *  - else (an overflow of excess e = l - S) the applications stall
 *    e/B units, a real number (the PFS writes the excess at B, the
 *    buffer stays full), and the buffer lands at S; the phase moves by
 *    H^(e/B) K (the writers wait through the stall, the OFF applications
 *    compute on and may turn ON, then every application takes the normal
 *    unit's step; bba_onoff_stall_kernel); the stall is censored. */

/* y = x (G_1 (x) ... (x) G_C), x and y of length P; Kp[c] is G_c, one
 * class's phase step (H_c^(e/B) K_c after a stall of excess e); tmp holds P doubles.  P sum_c (N_c + 1) multiply-adds. */
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

/* Z <- Z (G_1 (x) ... (x) G_C) for n vectors at once, stored phase-
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

/* Add v times the transitions out of normal state (j, a phase of bursty
 * load kf) over the landing levels, the memoryless load k0 ~ D0 on top:
 * lev[l - off] for one-step landings (contiguous in l: the hot loop is an
 * axpy), and landings at S after a stall of excess e at ovf[e P + f]
 * (with oflag[e] set) when ovf is given, else at lev[S - off] too: the
 * rule above, by ranges of k0 instead of one k0 at a time. */
void
bba_onoff_spread(const bba_onoff *m, long j, long kf, long S, const bb_drain *pol,
                 double v, double *lev, long off, double *ovf, long P, long f, char *oflag)
{
    const double *D = m->D0;
    long B = m->B, M0 = m->M0, base = j + kf - B; /* l = base + k0 */
    long kq = pol->kind == BB_DRAIN_LAZY && j < pol->threshold ? B - kf : -1; /* k0 <= kq: lazy */
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
    /* Overflows (k > B, so never in the lazy part): a stall of e/B units,
     * e = l - S, landing at S, the phase then moving by H^(e/B) K. */
    if (k0 > M0)
        return;
    if (!ovf) {
        double so = 0;

        for (long k = k0; k <= M0; k++)
            so += D[k];
        lev[S - off] += v * so;
        return;
    }
    for (; k0 <= M0; k0++) {
        long e = base + k0 - S;

        if (D[k0] == 0)
            continue;
        ovf[e * P + f] += v * D[k0];
        oflag[e] = 1;
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
static void
lazy_fix(bba_onoff_work *w, long f, double *zt)
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
        zt[l] += W[0] * x[l] - bba_krylov_dot(wd, x + l, dmax + 1);
    }
    if (w->clamp)
        for (long l = 0; l < T; l++)
            if (zt[l] < 0)
                zt[l] = 0;
}

/* bba_onoff_spread for every state at once (greedy; lazy_fix adds
 * Algorithm 4): the landing of a normal state depends on the raw level
 * r = j + k - B alone, so per phase f the mass at each r is one linear
 * convolution of the level column x(., f) with D0 (by FFT), shifted by
 * the phase's load; r <= 0 lands at 0, r in 1..S at r, r > S after a
 * stall as in the rule above. */
static void
spread_fft(bba_onoff_work *w, const double *x)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, B = m->B, n = S + 1 + m->M0;
    double *ovf = w->z + (S + 1) * P;

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
                ovf[(r - S) * P + f] += cc[i];
                w->zflag[r - S] = 1;
            }
        }
        zt[0] += s0;
        if (w->pol->kind == BB_DRAIN_LAZY && w->pol->threshold > 0)
            lazy_fix(w, f, zt);
    }
}

/* y = x P_c (the censored chain); returns max |y - x|.  The one-step
 * landings accumulate phase-major in the first (S + 1) P block of z, so
 * that bba_onoff_spread writes contiguously; the landings at S after a
 * stall of excess e go to the block after it, row e (e = 1..U). */
double
bba_onoff_apply(bba_onoff_work *w, const double *x, double *y)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, U = w->U;
    double r = 0, *zt = w->z, *ovf = w->z + (S + 1) * P, *yS = y + S * P;

    memset(w->z, 0, (size_t)(S + 1 + U + 1) * (size_t)P * sizeof *w->z);
    memset(w->zflag, 0, (size_t)U + 1);
    if (w->conv)
        spread_fft(w, x);
    else
        for (long j = 0; j <= S; j++)
            for (long f = 0; f < P; f++) {
                double xv = x[j * P + f];

                if (xv != 0)
                    bba_onoff_spread(m, j, m->phase_load[f], S, w->pol, xv,
                                     zt + f * (S + 1), 0, ovf, P, f, w->zflag);
            }
    kron_apply_cols(m, w->Kp[0], zt, w->ktmp, S + 1);
    for (long l = 0; l <= S; l++)
        for (long f = 0; f < P; f++)
            y[l * P + f] = zt[f * (S + 1) + l];
    for (long e = 1; e <= U; e++) {
        double *add = w->tmp + P;

        /* a landing at S after a stall of e/B units: add to what is there */
        if (!w->zflag[e])
            continue;
        kron_apply(m, w->Kp[e], ovf + e * P, add, w->tmp);
        for (long f = 0; f < P; f++)
            yS[f] += add[f];
    }
    for (long i = 0; i < (S + 1) * P; i++) {
        double d = fabs(y[i] - x[i]);

        if (d > r)
            r = d;
    }
    return r;
}
