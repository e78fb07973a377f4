/* fluid_solve.c: the boundary conditions of the fluid model (fluid.h):
 * the coefficients of the modes and the atoms for a buffer size.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Conditions (row vectors over phases; p the density, l and u the atoms):
 *   at 0:   p(0+) D - l Q = 0,  l_f = 0 where d_f > 0;
 *   at T:   p(T-) D_below - p(T+) D_above = 0 (flux continuity);
 *   at S:   p(S-) D + u Q^S = 0,  u_f = 0 where d_f < 0,
 * Q^S the full-buffer generator (fluid_int.h: the writers of a phase above
 * B write their share B / r_f, and their I/O phases advance at it).
 * Each has one redundant column: every mode carries zero net flux
 * (phi D 1 = 0 for z != 0) and Q 1 = Q^S 1 = 0, so its columns sum to zero; one
 * is dropped and the normalisation takes its place.  A mode with z < 0 is
 * scaled at its region's left end (e^{z (x - x_left)}), one with z > 0 at
 * its right end, and the unknowns at each boundary share a log scale g
 * (the decay of the slowest mode across the region), so every coupling
 * coefficient e^{z len + g - g'} is at most 1: no overflow for any S, and
 * atoms at S far below the double range keep their relative accuracy.
 *
 * fl_solve_dense assembles and factors the whole system, 2P - 1 unknowns
 * for one region and 3 P_n + 2 P_0 - 2 for two (lazy), by LU, refined by
 * LAPACK dgerfs.  The greedy fast path, fl_solve_fast, is in fluid_fast.c. */
#include "config.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fluid_int.h"
#include "lapackf.h"

long
fl_atoms(const bba_fluid *m, int at_top, long *ph)
{
    long n = 0;

    for (long f = 0; f < m->P; f++)
        if (at_top ? m->cls[f] >= 0 : m->cls[f] <= 0) {
            if (ph != NULL)
                ph[n] = f;
            n++;
        }
    return n;
}

/* the phase whose column is dropped at a boundary: the most likely one
 * with a non-zero drift */
long
fl_drop_col(const bba_fluid *m)
{
    long j = -1;

    for (long f = 0; f < m->P; f++)
        if (m->cls[f] != FL_ZERO && (j < 0 || m->pi[f] > m->pi[j]))
            j = f;
    return j;
}

void
fl_sol_free(fl_sol *s)
{
    for (int b = 0; b < 3; b++) {
        free(s->y[b]);
        s->y[b] = NULL;
    }
}

/* The log scale between the two ends of a region of length len: the
 * slowest mode's decay (left-scaled side when the drift is <= 0) */
static double
region_dlog(const fl_spec *sp, double len)
{
    double zd = 0.0;

    if (sp->drift <= 0.0 && sp->mneg > 0)
        zd = sp->z[sp->mneg - 1];
    else if (sp->drift > 0.0 && sp->mneg < sp->m)
        zd = sp->z[sp->mneg];
    return zd * len;
}

int
fl_sol_alloc(const bba_fluid *m, fl_sol *s, char *err)
{
    long n0 = fl_atoms(m, 0, NULL), nS = fl_atoms(m, 1, NULL);

    for (int b = 0; b <= s->R; b++) {
        long n = 0;

        if (b == 0)
            n += n0;
        if (b == s->R)
            n += nS;
        if (b < s->R)
            n += s->sp[b]->mneg;
        if (b > 0)
            n += s->sp[b - 1]->m - s->sp[b - 1]->mneg;
        s->ny[b] = n;
        s->y[b] = calloc((size_t)(n > 0 ? n : 1), sizeof **s->y);
        if (s->y[b] == NULL) {
            fl_sol_free(s);
            return bb_seterr(err, BB_ENOMEM, "out of memory for a fluid solution");
        }
    }
    return BB_OK;
}

/* ---- the whole system ---------------------------------------------------- */

int
fl_solve_dense(const bba_fluid *m, int R, const fl_spec *const *sp, const double *x,
               fl_sol *s, char *err)
{
    long P = m->P, n0 = fl_atoms(m, 0, NULL), nS = fl_atoms(m, 1, NULL);
    long n = 0, jd = fl_drop_col(m), off[3], *ph0 = NULL, *phS = NULL, *col = NULL;
    long ncol[3], cbase[3];
    double *A = NULL, *AF = NULL, *row = NULL, gmax;
    int *ipiv = NULL, rc, info = 0;

    memset(s, 0, sizeof *s);
    s->R = R;
    for (int r = 0; r < R; r++)
        s->sp[r] = sp[r];
    for (int b = 0; b <= R; b++)
        s->x[b] = x[b];
    s->g[0] = 0.0;
    for (int r = 0; r < R; r++)
        s->g[r + 1] = s->g[r] + region_dlog(sp[r], x[r + 1] - x[r]);
    gmax = s->g[0];
    for (int b = 1; b <= R; b++)
        gmax = fmax(gmax, s->g[b]);
    for (int b = 0; b <= R; b++)
        s->g[b] -= gmax;
    rc = fl_sol_alloc(m, s, err);
    if (rc != BB_OK)
        return rc;
    for (int b = 0; b <= R; b++) {
        off[b] = n;
        n += s->ny[b];
    }
    /* equation columns: phases at 0 and S, non-zero-drift phases inside,
     * less the dropped one; then the normalisation */
    col = malloc((size_t)P * sizeof *col);
    ph0 = malloc((size_t)n0 * sizeof *ph0);
    phS = malloc((size_t)nS * sizeof *phS);
    row = malloc((size_t)P * sizeof *row);
    if (col == NULL || ph0 == NULL || phS == NULL || row == NULL)
        goto nomem;
    fl_atoms(m, 0, ph0);
    fl_atoms(m, 1, phS);
    {
        long e = 0;

        for (int b = 0; b <= R; b++) {
            cbase[b] = e;
            ncol[b] = 0;
            for (long f = 0; f < P; f++)
                if (f != jd && (b == 0 || b == R || m->cls[f] != FL_ZERO))
                    ncol[b]++;
            e += ncol[b];
        }
        if (e + 1 != n) {
            rc = bb_seterr(err, BB_EDATA, "fluid model: %ld equations for %ld "
                           "unknowns", e + 1, n);
            goto out;
        }
    }
    /* col[f]: rank of phase f among the columns of an end boundary (-1:
     * dropped); colI[f] inside (zero-drift phases skipped) */
    {
        long a = 0;

        for (long f = 0; f < P; f++)
            col[f] = f == jd ? -1 : a++;
    }
    if (2.0 * (double)n * (double)n * sizeof(double) > (m->mem_limit > 0 ? m->mem_limit : 1e300)) {
        rc = bb_seterr(err, BB_ETOOBIG, "fluid model: the boundary system has %ld "
                       "unknowns (%.3g GB), over the memory limit", n,
                       2.0 * (double)n * (double)n * 8.0 / 1e9);
        goto out;
    }
    A = bba_big_alloc((size_t)n * (size_t)n * sizeof *A, 1);
    AF = bba_big_alloc((size_t)n * (size_t)n * sizeof *AF, 0);
    ipiv = malloc((size_t)n * sizeof *ipiv);
    if (A == NULL || AF == NULL || ipiv == NULL)
        goto nomem;
#define AT(u, e) A[(size_t)(u) + (size_t)(e) * (size_t)n]
    {
        long *colI = malloc((size_t)P * sizeof *colI), a = 0;

        if (colI == NULL)
            goto nomem;
        for (long f = 0; f < P; f++)
            colI[f] = (f == jd || m->cls[f] == FL_ZERO) ? -1 : a++;
        /* atoms */
        for (long i = 0; i < n0; i++) {
            long u = off[0] + i;

            fl_q_row(m, ph0[i], row, 0);
            for (long f = 0; f < P; f++)
                if (col[f] >= 0 && row[f] != 0.0)
                    AT(u, cbase[0] + col[f]) = -row[f];
            AT(u, n - 1) = exp(s->g[0]);
        }
        for (long i = 0; i < nS; i++) {
            long u = off[R] + s->ny[R] - nS + i;

            fl_q_row(m, phS[i], row, 1);
            for (long f = 0; f < P; f++)
                if (col[f] >= 0 && row[f] != 0.0)
                    AT(u, cbase[R] + col[f]) = row[f];
            AT(u, n - 1) = exp(s->g[R]);
        }
        /* modes */
        for (int r = 0; r < R; r++) {
            const fl_spec *q = sp[r];
            double len = x[r + 1] - x[r];
            long uL = off[r] + (r == 0 ? n0 : sp[r - 1]->m - sp[r - 1]->mneg);
            long uR = off[r + 1];

            for (long k = 0; k < q->m; k++) {
                const double *ph = q->phi + (size_t)k * (size_t)P;
                int left = k < q->mneg;
                long u = left ? uL + k : uR + (k - q->mneg);
                int bn = left ? r : r + 1, bo = left ? r + 1 : r; /* own, other */
                double so = (bn == 0 || (!left)) ? 1.0 : -1.0; /* sign at own */
                double sother = left ? 1.0 : (bo == 0 ? 1.0 : -1.0);
                double ex = left ? exp(q->z[k] * len + s->g[r] - s->g[r + 1])
                                 : exp(-q->z[k] * len + s->g[r + 1] - s->g[r]);
                double w = left ? q->z[k] : -q->z[k], I0;

                /* a pair's row at the other end mixes p and q */
                if (q->kind[k] != 0)
                    fl_mode_at(q, P, k, left ? len : -len, row);
                for (long f = 0; f < P; f++) {
                    double v = ph[f] * q->d[f], vo = q->kind[k] ? row[f] * q->d[f] : v;
                    long cn, co;

                    cn = (bn == 0 || bn == R) ? col[f] : colI[f];
                    co = (bo == 0 || bo == R) ? col[f] : colI[f];
                    if (cn >= 0 && v != 0.0)
                        AT(u, cbase[bn] + cn) = so * v;
                    if (co >= 0 && vo != 0.0)
                        AT(u, cbase[bo] + co) = sother * ex * vo;
                }
                if (q->kind[k] == 0) {
                    I0 = fabs(w * len) < 1e-8 ? len * (1.0 + 0.5 * w * len)
                                              : expm1(w * len) / w;
                    AT(u, n - 1) = exp(s->g[bn]) * q->mass[k] * I0;
                } else {
                    /* Re or Im of (P + i Q) int e^{w t}, P, Q the masses of
                     * the pair's rows p, q */
                    long kp = q->kind[k] == 1 ? k : k - 1;
                    double complex J0, J1, mc = q->mass[kp] + I * q->mass[kp + 1];

                    fl_cexpint(w, left ? q->zi[k] : -q->zi[k], len, &J0, &J1);
                    J0 *= mc;
                    AT(u, n - 1) = exp(s->g[bn]) * (q->kind[k] == 1 ? creal(J0) : cimag(J0));
                }
            }
        }
        free(colI);
    }
    /* LU, then iterative refinement to a small componentwise backward
     * error (dgerfs): the unknowns span many orders of magnitude (atoms of
     * phases with pi ~ 1e-15 beside O(1) ones) and a plain solve leaves the
     * small ones accurate only relative to the large. */
    {
        int nn = (int)n, one = 1, *iw = malloc((size_t)n * sizeof *iw);
        double *rhs = calloc((size_t)n, sizeof *rhs), *y = malloc((size_t)n * sizeof *y);
        double *wk = malloc((size_t)3 * (size_t)n * sizeof *wk), ferr, berr;

        if (rhs == NULL || y == NULL || wk == NULL || iw == NULL) {
            free(rhs);
            free(y);
            free(wk);
            free(iw);
            goto nomem;
        }
        rhs[n - 1] = 1.0;
        memcpy(AF, A, (size_t)n * (size_t)n * sizeof *A);
        dgetrf_(&nn, &nn, AF, &nn, ipiv, &info);
        if (info == 0) {
            memcpy(y, rhs, (size_t)n * sizeof *y);
            dgetrs_("T", &nn, &one, AF, &nn, ipiv, y, &nn, &info, 1);
            dgerfs_("T", &nn, &one, A, &nn, AF, &nn, ipiv, rhs, &nn, y, &nn, &ferr, &berr,
                    wk, iw, &info, 1);
            for (int b = 0; b <= R; b++)
                memcpy(s->y[b], y + off[b], (size_t)s->ny[b] * sizeof *y);
        } else {
            rc = bb_seterr(err, BB_ESINGULAR, "fluid model: the boundary system of "
                           "%ld unknowns is singular (pivot %d)", n, info);
        }
        free(rhs);
        free(y);
        free(wk);
        free(iw);
        if (info != 0)
            goto out;
    }
#undef AT
    rc = BB_OK;
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for a fluid boundary system");
out:
    free(A);
    free(AF);
    free(ipiv);
    free(col);
    free(ph0);
    free(phS);
    free(row);
    if (rc != BB_OK)
        fl_sol_free(s);
    return rc;
}
