/* fluid_top.c: the stationary laws of the fluid model's phase generators
 * with waiting writers, Q^S at a full buffer and Q' below it where B_BB
 * binds (fluid.h, fluid_int.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * At a full buffer the writers of a phase f with r_f > B write B: each
 * writes the share c_f = B / r_f of its offer, so its I/O phase (a volume)
 * advances at c_f and its ON -> OFF rate is c_f / L; OFF sources compute
 * on.  Q^S is Q with those rates; it is not reversible and its law has no
 * product form.  It is the phase law of a buffer of size 0 and of one
 * that no phase drains.  Below a full buffer, where r_f > B + B_BB, the
 * share is (B + B_BB) / r_f: Q', whose law sets the drift and the limit.
 *
 * Method: state reduction (Grassmann, Taksar and Heyman, Operations
 * Research 33, 1985): phases P-1 down to 1 are censored out one at a
 * time, q_ij += q_in q_nj / s_n with s_n = sum_{j < n} q_nj, then
 * pi_0 = 1, pi_j = sum_{i < j} pi_i q_ij / s_j, normalised.  No
 * subtraction, so every probability keeps its relative accuracy (phases
 * of probability 1e-15 beside O(1) ones).  A transition changes one
 * class's count by one, so |i - j| <= w (the largest stride) and the
 * elimination fills only that band: P w^2 flops.
 *
 * Blocked: the phases are censored NB at a time (block N = [n0, n1]).
 * Within the block each phase is eliminated as above on the block's own
 * rows; each row i below it (i in [n0 - w, n0)) then takes its
 * multipliers t_in = (q_in + sum_{n' > n in N} t_in' q_n'n) / s_n (its
 * q_in as the one-at-a-time order would have left them, kept for the
 * back substitution) and the w x w update q_ij += sum_n t_in q_nj in one
 * matrix product (dgemm).  Every term is a product or a sum of
 * non-negative numbers, as in the one-at-a-time order: the same
 * arithmetic in another order, its relative accuracy kept.  The band is
 * stored row-major with leading dimension 2 w + NB (row i holds columns
 * i - w - NB .. i + w), so that the block's rows read as a dense NB x w
 * matrix whose entries outside the band are zeros. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"
#include "lapackf.h"

/* phases censored at a time: NB x w multipliers per row block */
#define NB 64
/* Gauss-Seidel sweeps of the estimate, and the largest change of a log
 * probability in a sweep at which it stops */
#define SWEEPS_MAX 256
#define SWEEP_TOL 1e-3

static long
band(const bba_fluid *m)
{
    long w = 0;

    for (int c = 0; c < m->C; c++)
        if (m->stride[c] > w)
            w = m->stride[c];
    return w;
}

static long
block_of(long w)
{
    return w < NB ? (w > 0 ? w : 1) : NB;
}

double
fl_law_bytes(const bba_fluid *m)
{
    long w = band(m), nb = block_of(w);

    return ((double)m->P * (2.0 * (double)w + (double)nb + 2.0)
            + ((double)w + (double)nb) * (double)nb) * sizeof(double);
}

int
fl_law(const bba_fluid *m, const double *share, double *pi_top, double **work, char *err)
{
    long P = m->P, w = band(m), nb = block_of(w), ld = 2 * w + nb + 1, off = w + nb;
    size_t na = (size_t)P * (size_t)ld;
    double *a, *s, *t, *mm, tot = 0.0;
    int rc = BB_OK;

    if (P == 1) {
        pi_top[0] = 1.0;
        return BB_OK;
    }
    if (*work == NULL) {
        *work = bba_big_alloc((size_t)fl_law_bytes(m), 1);
        if (*work == NULL)
            return bb_seterr(err, BB_ENOMEM, "out of memory for the full-buffer phase law "
                             "of %ld phases (%.3g GB)", P, fl_law_bytes(m) / 1e9);
    } else {
        /* the band's padding must read as zeros */
        memset(*work, 0, na * sizeof **work);
    }
    a = *work;
    s = a + na;
    t = s + P;
    mm = t + (size_t)w * (size_t)nb;
    /* row i, column j (i - w - nb <= j <= i + w) */
#define A(i, j) a[(size_t)(i) * (size_t)ld + (size_t)((j) - (i) + off)]
    for (long f = 0; f < P; f++) {
        long rem = f;

        for (int c = 0; c < m->C; c++) {
            long mc = rem % (m->N[c] + 1);

            rem /= m->N[c] + 1;
            if (mc < m->N[c])
                A(f, f + m->stride[c]) = fl_birth(m, c, mc);
            if (mc > 0)
                A(f, f - m->stride[c]) = share[f] * fl_death(m, c, mc);
        }
    }
    for (long n1 = P - 1; n1 >= 1; n1 -= nb) {
        long n0 = n1 - nb + 1 > 1 ? n1 - nb + 1 : 1, k = n1 - n0 + 1;
        long r0 = n0 - w > 0 ? n0 - w : 0, nr = n0 - r0;

        /* the block's own rows, one phase at a time */
        for (long n = n1; n >= n0; n--) {
            long lo = n - w > 0 ? n - w : 0;
            double sn = 0.0;
            const double *an = &A(n, lo);

            for (long j = 0; j < n - lo; j++)
                sn += an[j];
            if (!(sn > 0.0)) {
                rc = bb_seterr(err, BB_EDATA, "fluid model: phase %ld of the full-buffer "
                               "generator leads to no lower phase (reducible)", n);
                goto out;
            }
            s[n] = sn;
            for (long i = n0; i < n; i++) {
                double tt = A(i, n);
                int len = (int)(n - lo), inc = 1;

                if (tt == 0.0)
                    continue;
                tt /= sn;
                /* the diagonal is never read: no test for j = i */
                daxpy_(&len, &tt, an, &inc, &A(i, lo), &inc);
            }
        }
        if (nr == 0)
            continue;
        /* the rows below: multipliers T (nr x k, row-major) from T M = A_RN,
         * M (k x k) with s_n on its diagonal and -q_n'n below it (n' > n):
         * t_in s_n = q_in + sum_n' t_in' q_n'n, every term non-negative */
        for (long p = 0; p < k; p++)
            for (long p2 = 0; p2 < k; p2++)
                mm[p2 * k + p] = p2 == p ? s[n0 + p] : p2 > p ? -A(n0 + p2, n0 + p) : 0.0;
        for (long i = r0; i < n0; i++)
            for (long n = n0; n <= n1; n++)
                t[(size_t)(i - r0) * (size_t)k + (size_t)(n - n0)] = n - i <= w ? A(i, n) : 0.0;
        {
            int kk = (int)k, nn = (int)nr;
            double one = 1.0;

            /* row-major M is column-major M^T (upper): M^T T^T = A_RN^T */
            dtrsm_("L", "U", "N", "N", &kk, &nn, &one, mm, &kk, t, &kk, 1, 1, 1, 1);
        }
        for (long i = r0; i < n0; i++)
            for (long n = n0; n <= n1 && n - i <= w; n++)  /* as one at a time leaves it */
                A(i, n) = t[(size_t)(i - r0) * (size_t)k + (size_t)(n - n0)] * s[n];
        {
            int ncol = (int)nr, nrow = (int)nr, kk = (int)k, lda = (int)(ld - 1);
            int ldt = (int)k;
            double one = 1.0;

            /* row-major C (nr x nr at rows and columns [r0, n0)) += T (nr x k)
             * A_N (k x nr): column-major C^T += A_N^T T^T */
            dgemm_("N", "N", &ncol, &nrow, &kk, &one, &A(n0, r0), &lda, t, &ldt, &one,
                   &A(r0, r0), &lda, 1, 1);
        }
    }
    pi_top[0] = 1.0;
    tot = 1.0;
    for (long j = 1; j < P; j++) {
        long lo = j - w > 0 ? j - w : 0;
        double acc = 0.0;

        for (long i = lo; i < j; i++)
            acc += pi_top[i] * A(i, j);
        pi_top[j] = acc / s[j];
        tot += pi_top[j];
    }
#undef A
    for (long f = 0; f < P; f++)
        pi_top[f] /= tot;
out:
    return rc;
}

/* A sweep costs about 8 C P flops (two rates in, two out, per class), the
 * reduction P w^2. */
int
fl_law_narrow(const bba_fluid *m)
{
    double w = (double)band(m);

    return w * w <= 8.0 * (double)m->C * SWEEPS_MAX;
}

/* Gauss-Seidel on the balance equations, x_f = sum_g x_g q_gf / q_f in
 * phase order, from pi / share normalised (the law if Q^S were Q with
 * each row scaled by its share): every term non-negative, as in the
 * reduction. */
int
fl_law_sweep(const bba_fluid *m, const double *share, double *lx)
{
    long P = m->P;
    double tot = 0.0, *x = lx;

    for (long f = 0; f < P; f++) {
        x[f] = m->pi[f] / share[f];
        tot += x[f];
    }
    for (int k = 0; k < SWEEPS_MAX; k++) {
        double ch = 0.0, t2 = 0.0;

        for (long f = 0; f < P; f++)
            x[f] /= tot;
        for (long f = 0; f < P; f++) {
            long rem = f;
            double in = 0.0, out = 0.0, nx;

            for (int c = 0; c < m->C; c++) {
                long mc = rem % (m->N[c] + 1), st = m->stride[c];

                rem /= m->N[c] + 1;
                if (mc < m->N[c]) {
                    out += fl_birth(m, c, mc);
                    in += x[f + st] * share[f + st] * fl_death(m, c, mc + 1);
                }
                if (mc > 0) {
                    out += share[f] * fl_death(m, c, mc);
                    in += x[f - st] * fl_birth(m, c, mc - 1);
                }
            }
            nx = in / out;
            if (x[f] > 0x1p-900 && nx > 0x1p-900)
                ch = fmax(ch, fabs(log(nx / x[f])));
            x[f] = nx;
            t2 += nx;
        }
        tot = t2;
        if (ch < SWEEP_TOL) {
            for (long f = 0; f < P; f++)
                lx[f] = x[f] > 0.0 ? log(x[f] / tot) : -INFINITY;
            return BB_OK;
        }
    }
    return BB_ENOCONV;
}

int
fl_law_new(const bba_fluid *m, const double *share, double **law, char *err)
{
    double *work = NULL;
    int rc;

    *law = malloc((size_t)m->P * sizeof **law);
    if (*law == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %ld phases", m->P);
    rc = fl_law(m, share, *law, &work, err);
    free(work);
    if (rc != BB_OK) {
        free(*law);
        *law = NULL;
    }
    return rc;
}

int
fl_top_lpi(const bba_fluid *m, double *ls, char *err)
{
    double *law = m->pi_top;
    int rc;

    if (!fl_law_narrow(m) && fl_law_sweep(m, m->share_top, ls) == BB_OK)
        return BB_OK;
    if (law == NULL && (rc = fl_law_new(m, m->share_top, &law, err)) != BB_OK)
        return rc;
    for (long f = 0; f < m->P; f++)
        ls[f] = law[f] > 0.0 ? log(law[f]) : -INFINITY;
    if (law != m->pi_top)
        free(law);
    return BB_OK;
}
