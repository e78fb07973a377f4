/* onoff_dense.c: the dense test oracle of the ON/OFF-modulated chain
 * (onoff.h, bba_onoff_dense_eval).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Deliberately naive and independent of onoff_step.c and onoff_solve.c:
 * one two-state phase per application (no classes, no memoryless
 * shortcut), the overflow states
 * kept as states (no censoring), every transition written out from the
 * rule of the model, and the balance equations solved by dense LU.  Only
 * for tiny chains: (S + 1 + max(M - B, 0)) 2^n <= 2500 states.
 *
 * The writers wait: an overflow level j > S is a stall unit with j - S
 * quanta of excess left; it lasts d = min(1, (j - S)/B) units (the last
 * one of a stall is the fraction the excess needs) while the PFS writes
 * d B of the excess, and goes on to level j - B, or to the normal level S
 * once the excess is written.  In a stall unit the ON applications stay
 * ON and each OFF one turns ON with 1 - (1 - c_i)^d (the stall kernel
 * H^d); the step into an overflow state and from one overflow state to
 * the next move the phase by H^d of the unit entered, the step out of the
 * last one into a normal state by the normal unit's K (so a stall of tau
 * units gives H^tau K, onoff.h), and a step between normal states by K.
 * The measures are time averages: each state's probability in this
 * embedded chain weighted by its duration (1 for a normal unit, d for a
 * stall unit). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "bb_error.h"
#include "onoff.h"

#define DENSE_MAX_STATES 2500

int
bba_onoff_dense_eval(size_t n, const long *b, const double *p, const double *L,
                     long B, long S, const bb_drain *pol, bba_measures *out,
                     char *err)
{
    long M = 0, over, levels, F, N;
    double *A = NULL, *rhs = NULL, *Pph = NULL, *Hph = NULL, *pi = NULL, *dur = NULL;
    gsl_permutation *perm = NULL;
    int rc = BB_OK, sign;

    memset(out, 0, sizeof *out);
    if (n > 6 || B <= 0 || S < 0)
        return bb_seterr(err, BB_EINVAL, "dense oracle: n = %zu (<= 6), B = %ld, S = %ld", n, B, S);
    for (size_t i = 0; i < n; i++)
        M += b[i];
    over = M > B ? M - B : 0;
    levels = S + 1 + over;
    F = 1L << n;
    N = levels * F;
    if (N > DENSE_MAX_STATES)
        return bb_seterr(err, BB_ETOOBIG, "dense oracle: %ld states (limit %d)", N,
                         DENSE_MAX_STATES);
    A = calloc((size_t)N * (size_t)N, sizeof *A);
    rhs = calloc((size_t)N, sizeof *rhs);
    pi = calloc((size_t)N, sizeof *pi);
    Pph = malloc((size_t)F * (size_t)F * sizeof *Pph);
    Hph = malloc((size_t)levels * (size_t)F * (size_t)F * sizeof *Hph);
    dur = malloc((size_t)levels * sizeof *dur);
    perm = gsl_permutation_alloc((size_t)N);
    if (!A || !rhs || !pi || !Pph || !Hph || !dur || !perm) {
        rc = bb_seterr(err, BB_ENOMEM, "dense oracle: out of memory for %ld states", N);
        goto out;
    }
    /* Durations: 1 for a normal level, min(1, (j - S)/B) for a stall. */
    for (long j = 0; j < levels; j++)
        dur[j] = j <= S ? 1.0 : (j - S >= B ? 1.0 : (double)(j - S) / (double)B);
    /* Phase transition: application i ON -> OFF with 1/L_i, OFF -> ON with
     * p_i/((1 - p_i) L_i); p = 1 always ON, p = 0 always OFF.  In a stall
     * unit of duration d (Hph + j F F for the unit at level j) no ON
     * application turns OFF and an OFF one turns ON with 1 - (1 - c)^d. */
    for (long j = 0; j < levels; j++)
        for (long f = 0; f < F; f++)
            for (long g = 0; g < F; g++) {
                double pr = 1, hr = 1;

                for (size_t i = 0; i < n; i++) {
                    int on = (int)((f >> i) & 1), on2 = (int)((g >> i) & 1);
                    double a, c, cd, q, h;

                    if (p[i] >= 1)
                        q = h = on2 ? 1 : 0;
                    else if (p[i] <= 0)
                        q = h = on2 ? 0 : 1;
                    else {
                        a = 1.0 / (L[i] > 0 ? L[i] : 1.0 / (1.0 - p[i]));
                        c = a * p[i] / (1.0 - p[i]);
                        if (c > 1)
                            c = 1;
                        cd = 1.0 - pow(1.0 - c, dur[j]);
                        q = on ? (on2 ? 1 - a : a) : (on2 ? c : 1 - c);
                        h = on ? (on2 ? 1 : 0) : (on2 ? cd : 1 - cd);
                    }
                    pr *= q;
                    hr *= h;
                }
                if (j == 0)
                    Pph[f * F + g] = pr;
                Hph[(j * F + f) * F + g] = hr;
            }
    /* A = P^T - I, row-major: A[to][from]. */
#define ADD(from, to, v) (A[(size_t)(to) * (size_t)N + (size_t)(from)] += (v))
    for (long j = 0; j < levels; j++)
        for (long f = 0; f < F; f++) {
            long from = j * F + f, k = 0;
            long dst[2];
            double wt[2];
            int nd;

            for (size_t i = 0; i < n; i++)
                if ((f >> i) & 1)
                    k += b[i];
            if (j > S) {
                /* a stall unit: B of the excess written, or the rest */
                dst[0] = j - B > S ? j - B : S;
                wt[0] = 1;
                nd = 1;
            } else if (pol->kind == BB_DRAIN_LAZY && j < pol->threshold && k <= B) {
                dst[0] = j;
                wt[0] = 1 - pol->eps;
                dst[1] = j + k - B > 0 ? j + k - B : 0;
                wt[1] = pol->eps;
                nd = 2;
            } else {
                dst[0] = j + k - B > 0 ? j + k - B : 0;
                wt[0] = 1;
                nd = 1;
            }
            for (int d = 0; d < nd; d++) {
                /* into a stall unit, or on from one: H^d of the unit
                 * entered; into a normal unit: K */
                const double *ph = dst[d] > S ? Hph + dst[d] * F * F : Pph;

                for (long g = 0; g < F; g++)
                    ADD(from, dst[d] * F + g, wt[d] * ph[f * F + g]);
            }
            ADD(from, from, -1.0);
        }
#undef ADD
    /* Replace the last balance equation by sum(pi) = 1. */
    for (long s = 0; s < N; s++)
        A[(size_t)(N - 1) * (size_t)N + (size_t)s] = 1.0;
    rhs[N - 1] = 1.0;
    {
        gsl_matrix_view Av = gsl_matrix_view_array(A, (size_t)N, (size_t)N);
        gsl_vector_view bv = gsl_vector_view_array(rhs, (size_t)N);
        gsl_vector_view xv = gsl_vector_view_array(pi, (size_t)N);

        if (gsl_linalg_LU_decomp(&Av.matrix, perm, &sign) != GSL_SUCCESS
            || gsl_linalg_LU_solve(&Av.matrix, perm, &bv.vector, &xv.vector) != GSL_SUCCESS) {
            rc = bb_seterr(err, BB_ESINGULAR, "dense oracle: singular system");
            goto out;
        }
    }
    {
        double normal = 0, load = 0, time = 0;

        for (long s = 0; s < N; s++)
            time += pi[s] * dur[s / F];
        for (long j = 0; j < levels; j++)
            for (long f = 0; f < F; f++) {
                double v = pi[j * F + f] / time;
                long k = 0, l;
                double up;

                if (j > S) {
                    out->stalled += v * dur[j];
                    continue;
                }
                normal += v;
                load += (double)j * v;
                for (size_t i = 0; i < n; i++)
                    if ((f >> i) & 1)
                        k += b[i];
                l = j + k - B > 0 ? j + k - B : 0;
                if (pol->kind == BB_DRAIN_LAZY && j < pol->threshold && k <= B)
                    up = (1 - pol->eps) + (l >= j ? pol->eps : 0);
                else
                    up = l >= j ? 1 : 0;
                out->quiet += v * up;
                if (j == 0)
                    out->p_empty += v;
                if (j == S)
                    out->p_full += v;
            }
        out->p_full += out->stalled;
        out->mean_load = normal > 0 ? load / normal : 0;
        out->idle = out->stalled;
    }
out:
    free(A);
    free(rhs);
    free(pi);
    free(Pph);
    free(Hph);
    free(dur);
    gsl_permutation_free(perm);
    return rc;
}
