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
 * elimination fills only that band: P w^2 flops, P (2 w + 1) doubles. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"

static long
band(const bba_fluid *m)
{
    long w = 0;

    for (int c = 0; c < m->C; c++)
        if (m->stride[c] > w)
            w = m->stride[c];
    return w;
}

double
fl_law_bytes(const bba_fluid *m)
{
    return (double)m->P * (2.0 * (double)band(m) + 1.0) * sizeof(double);
}

int
fl_law(const bba_fluid *m, const double *share, double *pi_top, char *err)
{
    long P = m->P, w = band(m), ld = 2 * w + 1;
    double *a, *s, tot = 0.0;
    int rc = BB_OK;

    if (P == 1) {
        pi_top[0] = 1.0;
        return BB_OK;
    }
    a = bba_big_alloc((size_t)P * (size_t)ld * sizeof *a, 1);
    s = malloc((size_t)P * sizeof *s);
    if (a == NULL || s == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the full-buffer phase law of "
                       "%ld phases (%.3g GB)", P, fl_law_bytes(m) / 1e9);
        goto out;
    }
#define A(i, j) a[(size_t)(i) * (size_t)ld + (size_t)((j) - (i) + w)]
    for (long f = 0; f < P; f++) {
        long rem = f;

        for (int c = 0; c < m->C; c++) {
            long mc = rem % (m->N[c] + 1);

            rem /= m->N[c] + 1;
            if (mc < m->N[c])
                A(f, f + m->stride[c]) = (double)(m->N[c] - mc) * m->lam[c];
            if (mc > 0)
                A(f, f - m->stride[c]) = share[f] * (double)mc * m->mu[c];
        }
    }
    for (long n = P - 1; n >= 1; n--) {
        long lo = n - w > 0 ? n - w : 0;
        double sn = 0.0;

        for (long j = lo; j < n; j++)
            sn += A(n, j);
        if (!(sn > 0.0)) {
            rc = bb_seterr(err, BB_EDATA, "fluid model: phase %ld of the full-buffer "
                           "generator leads to no lower phase (reducible)", n);
            goto out;
        }
        s[n] = sn;
        for (long i = lo; i < n; i++) {
            double t = A(i, n);

            if (t == 0.0)
                continue;
            t /= sn;
            {
                /* the diagonal is never read: no test for j = i */
                double *ai = &A(i, lo);
                const double *an = &A(n, lo);

                for (long j = 0; j < n - lo; j++)
                    ai[j] += t * an[j];
            }
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
    free(a);
    free(s);
    return rc;
}
