/* fluid_class.c: the interior mass and first moment per phase of one
 * birth-death class in a greedy buffer, from the atoms by flux balance
 * (fluid_int.h: fl_class_moments).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Why: the interior density is a sum of modes, sum_k a_k phi_k e^{z_k x}.
 * For a class of N identical sources the decaying modes' coefficients are
 * Lagrange-like (Anick, Mitra and Sondhi 1982: products of z_i / (z_i -
 * z_j)), of alternating sign and sizes up to binomials C(n, n/2) for n
 * modes, and their sum vanishes on the phases above B at 0.  The boundary
 * system is solved to a backward error of 1e-11 even for 500 copies (467
 * phases above B), and the atoms at 0 and S, which are its unknowns, come
 * out right; but the mass per phase summed over the modes loses 5 to 2
 * digits to that cancellation from about 400 copies on (measured: the
 * phase-law residual 2e-6 at 400, 4e-4 at 450, 0.06 at 500).  The
 * masses need no modes at all:
 *
 * integrating (p D)' = p Q' over (0, S) with p(0+) D = l Q and p(S-) D =
 * -u Q^S gives m Q' + l Q + u Q^S = 0 for the interior mass m per phase,
 * and (p D 1)' = p Q' 1 = 0 with p(0+) D 1 = 0 gives m D 1 = 0.  For one
 * class Q' is tridiagonal, so the first is the balance of every cut k |
 * k + 1 (up the rate (N - k) lam, down k mu scaled by share_in in the
 * interior, by share_top at S):
 *   (m_k + l_k + u_k) (N - k) lam
 *       = (m_(k+1) share_in_(k+1) + l_(k+1) + u_(k+1) share_top_(k+1)) (k+1) mu,
 * solved from the most likely phase j outwards for m = t alpha + beta
 * (alpha_j = 1, beta_j = 0: one division per phase, and the only
 * subtraction is of the atoms from the total at a phase, the interior
 * mass itself), then t from m D 1 = 0.  The first moment w = int x p dx
 * likewise: multiplying by x, w Q' = -S u Q^S - m D and w D 1 = 0, the
 * cut k | k + 1 carrying the partial sum of the right-hand side (taken
 * from the nearer end: the whole sums to 0).  No normalisation: the
 * masses are on the atoms' scale.  2 (N + 1) divisions each; no
 * allocation beyond 4 (N + 1) doubles.
 *
 * Used with the atoms of fluid_ma.c (fl_ma_groups): the modal atoms at
 * S are off as well where the modal masses fail (with modal atoms these
 * masses answered 400 copies at 100 GB 0.1% off and 375 at 10 TB 2% off
 * the discretisation, at residuals of 1e-8).  Where the interior mass
 * of a phase is far below its atoms (a buffer nearly always empty: 34
 * copies, idle 1e-72) the subtraction loses what the modes keep, so it
 * is for large classes only, its rounding bound *rel_err added to the
 * residual. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fluid_int.h"

/* A constraint sum_k (t alpha_k + beta_k) d_k = 0 whose t-coefficient
 * cancels below this fraction of its terms (a mean drift near 0) is not
 * used. */
#define CANCEL_MIN 1e-8

/* rates of the cut k | k + 1: up from k, down from k + 1 in the interior,
 * at 0 (Q) and at S (Q^S) */
typedef struct {
    double up, dn_in, dn0, dnS;
} cut;

static cut
cut_at(const bba_fluid *m, long k)
{
    double N = (double)m->N[0], lam = m->lam[0], mu = m->mu[0], k1 = (double)(k + 1);
    cut c = { (N - (double)k) * lam, m->share_in[k + 1] * k1 * mu, k1 * mu,
              m->share_top[k + 1] * k1 * mu };

    return c;
}

/* t from sum_k (t alpha_k + beta_k) d_k = 0; NAN when the t-coefficient
 * cancels */
static double
solve_t(long P, const double *alpha, const double *beta, const double *d)
{
    double sa = 0.0, aa = 0.0, sb = 0.0;

    for (long k = 0; k < P; k++) {
        sa += alpha[k] * d[k];
        aa += fabs(alpha[k] * d[k]);
        sb += beta[k] * d[k];
    }
    if (!(fabs(sa) > CANCEL_MIN * aa))
        return NAN;
    return -sb / sa;
}

int
fl_class_moments(const bba_fluid *m, const double *d, double S, const double *l,
                 const double *u, double *mi, double *xi, double *rel_err)
{
    long P = m->P, j = 0;
    double *al = NULL, *be = NULL, *cr = NULL, t, tot = 0.0, mag = 0.0, occ = 0.0;
    double omag = 0.0;
    int rc = -1;

    if (m->C != 1 || m->stride[0] != 1 || P != m->N[0] + 1 || P < 2)
        return -1;
    al = malloc((size_t)3 * (size_t)P * sizeof *al);
    if (al == NULL)
        return -1;
    be = al + P;
    cr = al + 2 * P;
    for (long k = 1; k < P; k++)
        if (m->pi_in[k] > m->pi_in[j])
            j = k;
    /* masses: m_k = t al_k + be_k */
    al[j] = 1.0;
    be[j] = 0.0;
    for (long k = j; k + 1 < P; k++) {
        cut c = cut_at(m, k);

        al[k + 1] = al[k] * c.up / c.dn_in;
        be[k + 1] = ((be[k] + l[k] + u[k]) * c.up - l[k + 1] * c.dn0 - u[k + 1] * c.dnS) /
                    c.dn_in;
    }
    for (long k = j - 1; k >= 0; k--) {
        cut c = cut_at(m, k);

        al[k] = al[k + 1] * c.dn_in / c.up;
        be[k] = (be[k + 1] * c.dn_in + l[k + 1] * c.dn0 + u[k + 1] * c.dnS) / c.up - l[k] -
                u[k];
    }
    t = solve_t(P, al, be, d);
    if (!isfinite(t))
        goto out;
    for (long k = 0; k < P; k++) {
        mi[k] = t * al[k] + be[k];
        tot += mi[k] + l[k] + u[k];
        mag += fabs(t * al[k]) + fabs(be[k]) + l[k] + u[k];
    }
    /* first moments: the cut k | k + 1 carries cr_k = sum_(i <= k) R_i,
     * R = -S u Q^S - m D, from the lower end below j, the upper above */
    {
        double lo = 0.0, hi = 0.0;

        for (long k = 0; k + 1 < P; k++) {
            cut c = cut_at(m, k);

            lo += mi[k] * d[k];
            cr[k] = S * (u[k] * c.up - u[k + 1] * c.dnS) - (k < j ? lo : 0.0);
        }
        for (long k = P - 2; k >= j; k--) {
            hi += mi[k + 1] * d[k + 1];
            cr[k] += hi;
        }
    }
    /* w_(k+1) dn_in = w_k up + cr_k; w = t al + be (al as for the masses) */
    be[j] = 0.0;
    for (long k = j; k + 1 < P; k++) {
        cut c = cut_at(m, k);

        be[k + 1] = (be[k] * c.up + cr[k]) / c.dn_in;
    }
    for (long k = j - 1; k >= 0; k--) {
        cut c = cut_at(m, k);

        be[k] = (be[k + 1] * c.dn_in - cr[k]) / c.up;
    }
    t = solve_t(P, al, be, d);
    if (!isfinite(t))
        goto out;
    for (long k = 0; k < P; k++) {
        xi[k] = t * al[k] + be[k];
        occ += xi[k] + S * u[k];
        omag += fabs(t * al[k]) + fabs(be[k]) + S * fabs(u[k]);
    }
    /* rounding of each step is relative to the terms it adds (about
     * DBL_EPSILON each), accumulated over the P steps of a sweep */
    *rel_err = (double)P * DBL_EPSILON * fmax(mag / fabs(tot), omag / fabs(occ));
    if (!(tot > 0.0) || !isfinite(*rel_err))
        *rel_err = INFINITY;
    rc = 0;
out:
    free(al);
    return rc;
}

