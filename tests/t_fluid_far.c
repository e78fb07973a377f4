/* t_fluid_far.c: the boundary blocks of the greedy fast path against the
 * same block written out here and solved by GSL's LU: the far block
 * reduced through its atoms (analytic/fluid/fluid_far.c), both solves (y L = r
 * and L z = b), at either end (E < B: the far end is S, atoms at S under
 * Q^S; E > B: it is 0, atoms at 0 under Q), on the band path and the
 * dense one; the near block solved by projection (analytic/fluid/fluid_near.c)
 * at either end, with zero-drift phases, the far modes' fluxes solved by
 * biorthogonality alone, and the route's refusal where the phase law
 * spans too many orders of magnitude for it.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "testutil.h"
#include "fluid_int.h"

/* a uniform in (-1, 1), reproducible */
static double
unif(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return 2.0 * (double)(*s >> 11) / 9007199254740992.0 - 1.0;
}

static void
check(const bba_fluid *m, int expect_band)
{
    const fl_spec *sp = m->greedy;
    long P = m->P, Pm = P - 1, nf = 0, na = 0, jf = -1, *fmode, *fatom;
    int top = sp->drift <= 0.0; /* the far end: S when the content drifts down */
    double sg = top ? 1.0 : -1.0, *lf, *row, *y, *z, *wk;
    fl_far F;
    char err[BB_ERRLEN];
    unsigned long seed = 12345;
    gsl_matrix *L = gsl_matrix_calloc((size_t)Pm, (size_t)Pm);
    gsl_matrix *LU = gsl_matrix_alloc((size_t)Pm, (size_t)Pm);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)Pm);
    gsl_vector *r = gsl_vector_alloc((size_t)Pm), *x = gsl_vector_alloc((size_t)Pm);
    int sgn;

    fmode = malloc((size_t)P * sizeof *fmode);
    fatom = malloc((size_t)P * sizeof *fatom);
    lf = malloc((size_t)P * sizeof *lf);
    row = malloc((size_t)P * sizeof *row);
    y = malloc((size_t)P * sizeof *y);
    z = malloc((size_t)P * sizeof *z);
    wk = malloc((size_t)P * sizeof *wk);
    assert_true(fmode && fatom && lf && row && y && z && wk && L && LU && perm && r && x);
    assert_int_equal(fl_top_law(m, err), BB_OK);
    /* far modes: those scaled at the far end (z > 0 at S, z < 0 at 0);
     * atoms: phases with d >= 0 at S, d <= 0 at 0; the dropped equation
     * the likeliest phase of the other kind */
    for (long k = 0; k < sp->m; k++)
        if (top ? k >= sp->mneg : k < sp->mneg)
            fmode[nf++] = k;
    for (long f = 0; f < P; f++) {
        if (top ? m->cls[f] >= 0 : m->cls[f] <= 0)
            fatom[na++] = f;
        else if (jf < 0 || m->pi[f] > m->pi[jf])
            jf = f;
        lf[f] = log(top ? m->pi_top[f] : m->pi[f]);
    }
    assert_int_equal(nf + na, Pm);
    /* L written out: rows the unknowns, columns the phases but jf */
    for (long u = 0; u < Pm; u++) {
        if (u < nf) {
            const double *ph = sp->phi + (size_t)fmode[u] * (size_t)P;

            for (long f = 0; f < P; f++)
                row[f] = ph[f] * sp->d[f];
        } else {
            fl_q_row(m, fatom[u - nf], row, top);
            for (long f = 0; f < P; f++)
                row[f] *= sg;
        }
        for (long f = 0, e = 0; f < P; f++)
            if (f != jf)
                gsl_matrix_set(L, (size_t)u, (size_t)e++, row[f]);
    }
    gsl_matrix_memcpy(LU, L);
    assert_int_equal(gsl_linalg_LU_decomp(LU, perm, &sgn), 0);
    assert_int_equal(fl_far_build(m, sp, top, sg, nf, fmode, na, fatom, jf, lf, &F, err), BB_OK);
    assert_int_equal(F.band, expect_band);
    for (int t = 0; t < 3; t++) {
        double big = 0.0;

        /* y L = r: L^T y = r */
        for (long e = 0; e < Pm; e++) {
            y[e] = unif(&seed);
            gsl_vector_set(r, (size_t)e, y[e]);
        }
        fl_far_solve_T(&F, y, wk);
        {
            gsl_matrix *LT = gsl_matrix_alloc((size_t)Pm, (size_t)Pm);
            gsl_permutation *pt = gsl_permutation_alloc((size_t)Pm);

            gsl_matrix_transpose_memcpy(LT, L);
            assert_int_equal(gsl_linalg_LU_decomp(LT, pt, &sgn), 0);
            gsl_linalg_LU_solve(LT, pt, r, x);
            gsl_matrix_free(LT);
            gsl_permutation_free(pt);
        }
        for (long u = 0; u < Pm; u++)
            big = fmax(big, fabs(gsl_vector_get(x, (size_t)u)));
        for (long u = 0; u < Pm; u++)
            assert_true(fabs(y[u] - gsl_vector_get(x, (size_t)u)) <= 1e-9 * big);
        /* L z = b, b a unit vector at a mode's row (as the fast path
         * asks) or a random one */
        for (long u = 0; u < Pm; u++) {
            z[u] = t == 0 ? (u == nf / 2) : unif(&seed);
            gsl_vector_set(r, (size_t)u, z[u]);
        }
        fl_far_solve_N(&F, 1, z, (int)Pm, wk);
        gsl_linalg_LU_solve(LU, perm, r, x);
        big = 0.0;
        for (long e = 0; e < Pm; e++)
            big = fmax(big, fabs(gsl_vector_get(x, (size_t)e)));
        for (long e = 0; e < Pm; e++)
            assert_true(fabs(z[e] - gsl_vector_get(x, (size_t)e)) <= 1e-9 * big);
    }
    fl_far_free(&F);
    gsl_matrix_free(L);
    gsl_matrix_free(LU);
    gsl_permutation_free(perm);
    gsl_vector_free(r);
    gsl_vector_free(x);
    free(fmode);
    free(fatom);
    free(lf);
    free(row);
    free(y);
    free(z);
    free(wk);
}

/* E < B: the far end is S; three classes of 4 (125 phases, band path),
 * and six single sources (64 phases, strides up to 32: dense path) */
static void
far_at_S(void **state)
{
    const bba_fluid_class c[3] = { { 0.45, 0.2, 3, 4 }, { 0.7, 0.1, 7, 4 },
                                   { 0.3, 0.25, 1.5, 4 } };
    const bba_fluid_class s[6] = { { 0.6, 0.1, 2, 1 }, { 0.5, 0.2, 3, 1 }, { 0.7, 0.1, 5, 1 },
                                   { 0.4, 0.3, 1, 1 }, { 0.9, 0.05, 4, 1 },
                                   { 0.5, 0.15, 2, 1 } };
    bba_fluid *m = tu_fluid(c, 3, 4.0);

    (void)state;
    assert_true(m->E < m->B);
    check(m, 1);
    bba_fluid_free(m);
    m = tu_fluid(s, 6, 1.0);
    assert_true(m->E < m->B);
    check(m, 0);
    bba_fluid_free(m);
}

/* E > B: the far end is 0, its atoms under Q */
static void
far_at_0(void **state)
{
    const bba_fluid_class c[3] = { { 0.45, 0.5, 3, 4 }, { 0.7, 0.4, 7, 4 },
                                   { 0.3, 0.5, 1.5, 4 } };
    bba_fluid *m = tu_fluid(c, 3, 2.0);

    (void)state;
    assert_true(m->E > m->B);
    check(m, 1);
    bba_fluid_free(m);
}

/* The near block [L | c] (rows: near modes' phi D, then the near atoms'
 * sg Q~ rows with a 1 in the last column; columns the phases but jd and
 * the atoms' sum) written out, y [L | c] = g solved by GSL on random g,
 * against fl_near_solve_T.  The near end is 0 when the content drifts
 * down (atoms under Q), else S (under Q^S). */
static void
near_check(const bba_fluid *m)
{
    const fl_spec *sp = m->greedy;
    long P = m->P, nn = 0, na = 0, nf = 0, jd = fl_drop_col(m), *nmode, *natom, *fmode;
    int top = sp->drift > 0.0, sgn;
    double sg = top ? 1.0 : -1.0, *row, *y, *wk;
    fl_near F;
    char err[BB_ERRLEN];
    unsigned long seed = 777;
    gsl_matrix *LT = gsl_matrix_calloc((size_t)P, (size_t)P);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)P);
    gsl_vector *r = gsl_vector_alloc((size_t)P), *x = gsl_vector_alloc((size_t)P);

    nmode = malloc((size_t)P * sizeof *nmode);
    natom = malloc((size_t)P * sizeof *natom);
    fmode = malloc((size_t)P * sizeof *fmode);
    row = malloc((size_t)P * sizeof *row);
    y = malloc((size_t)P * sizeof *y);
    wk = malloc((size_t)5 * (size_t)P * sizeof *wk);
    assert_true(nmode && natom && fmode && row && y && wk && LT && perm && r && x);
    for (long k = 0; k < sp->m; k++) {
        if (top ? k >= sp->mneg : k < sp->mneg)
            nmode[nn++] = k;
        else
            fmode[nf++] = k;
    }
    for (long f = 0; f < P; f++)
        if (top ? m->cls[f] >= 0 : m->cls[f] <= 0)
            natom[na++] = f;
    assert_int_equal(nn + na, P);
    /* LT = [L | c]^T: row e an equation, column u an unknown */
    for (long u = 0; u < P; u++) {
        if (u < nn) {
            const double *ph = sp->phi + (size_t)nmode[u] * (size_t)P;

            for (long f = 0; f < P; f++)
                row[f] = ph[f] * sp->d[f];
        } else {
            fl_q_row(m, natom[u - nn], row, top);
            for (long f = 0; f < P; f++)
                row[f] *= sg;
        }
        for (long f = 0, e = 0; f < P; f++)
            if (f != jd)
                gsl_matrix_set(LT, (size_t)e++, (size_t)u, row[f]);
        gsl_matrix_set(LT, (size_t)(P - 1), (size_t)u, u < nn ? 0.0 : 1.0);
    }
    assert_int_equal(gsl_linalg_LU_decomp(LT, perm, &sgn), 0);
    {
        int rc = fl_near_build(m, sp, top, sg, nn, nmode, na, natom, nf, fmode, jd, &F, err);

        if (rc != BB_OK)
            print_error("fl_near_build: %s\n", err);
        assert_int_equal(rc, BB_OK);
    }
    for (int t = 0; t < 3; t++) {
        double big = 0.0;

        /* the fast path's own right side (the atoms' sum 1), then random */
        for (long e = 0; e < P; e++) {
            y[e] = t == 0 ? (e == P - 1) : unif(&seed);
            gsl_vector_set(r, (size_t)e, y[e]);
        }
        fl_near_solve_T(&F, 1, y, (int)P, wk);
        gsl_linalg_LU_solve(LT, perm, r, x);
        for (long u = 0; u < P; u++)
            big = fmax(big, fabs(gsl_vector_get(x, (size_t)u)));
        for (long u = 0; u < P; u++)
            assert_true(fabs(y[u] - gsl_vector_get(x, (size_t)u)) <= 1e-9 * big);
    }
    /* the far modes' own fluxes, solved without a pass over the modes
     * (biorthogonality), against the written-out block */
    for (long j = 0; j < nf; j++) {
        const double *ph = sp->phi + (size_t)fmode[j] * (size_t)P;
        double big = 0.0;

        for (long f = 0, e = 0; f < P; f++)
            if (f != jd)
                gsl_vector_set(r, (size_t)e++, ph[f] * sp->d[f]);
        gsl_vector_set(r, (size_t)(P - 1), 0.0);
        assert_int_equal(fl_near_far_flux(&F, j, 1, y, (int)P), BB_OK);
        gsl_linalg_LU_solve(LT, perm, r, x);
        for (long u = 0; u < P; u++)
            big = fmax(big, fabs(gsl_vector_get(x, (size_t)u)));
        for (long u = 0; u < P; u++)
            assert_true(fabs(y[u] - gsl_vector_get(x, (size_t)u)) <= 1e-9 * big);
    }
    fl_near_free(&F);
    gsl_matrix_free(LT);
    gsl_permutation_free(perm);
    gsl_vector_free(r);
    gsl_vector_free(x);
    free(nmode);
    free(natom);
    free(fmode);
    free(row);
    free(y);
    free(wk);
}

/* E < B (near end 0) and E > B (near end S, the writers' share in Q^S),
 * each with zero-drift phases (2 x 0.5 and 4 x 0.25 at B = 1), and six
 * single sources */
static void
near_both_ends(void **state)
{
    const bba_fluid_class lo[3] = { { 0.5, 0.2, 3, 3 }, { 0.25, 0.1, 7, 4 },
                                    { 0.3, 0.25, 1.5, 2 } };
    const bba_fluid_class hi[3] = { { 0.5, 0.5, 3, 3 }, { 0.25, 0.6, 7, 4 },
                                    { 0.3, 0.5, 1.5, 2 } };
    const bba_fluid_class s[6] = { { 0.6, 0.1, 2, 1 }, { 0.5, 0.2, 3, 1 }, { 0.7, 0.1, 5, 1 },
                                   { 0.4, 0.3, 1, 1 }, { 0.9, 0.05, 4, 1 },
                                   { 0.5, 0.15, 2, 1 } };
    bba_fluid *m = tu_fluid(lo, 3, 1.0);

    (void)state;
    assert_true(m->E < m->B && m->n_zero > 0);
    near_check(m);
    bba_fluid_free(m);
    m = tu_fluid(hi, 3, 1.0);
    assert_true(m->E > m->B && m->n_zero > 0);
    near_check(m);
    bba_fluid_free(m);
    m = tu_fluid(s, 6, 1.0);
    near_check(m);
    bba_fluid_free(m);
}

/* One class of 34 with p = 0.01 and a single phase above B (pi = 1e-68):
 * in the far modes' basis its rare atoms are lost, and the route says so
 * (the fast path then factors the block: t_fluid_class answers it) */
static void
near_refuses_rare(void **state)
{
    const bba_fluid_class c = { 30, 0.01, 30, 34 };
    bba_fluid *m = tu_fluid(&c, 1, 1000);
    const fl_spec *sp = m->greedy;
    long P = m->P, nn = 0, na = 0, nf = 0, *nmode, *natom, *fmode;
    fl_near F;
    char err[BB_ERRLEN];

    (void)state;
    nmode = malloc((size_t)P * sizeof *nmode);
    natom = malloc((size_t)P * sizeof *natom);
    fmode = malloc((size_t)P * sizeof *fmode);
    assert_true(nmode && natom && fmode && sp->drift < 0.0);
    for (long k = 0; k < sp->m; k++) {
        if (k < sp->mneg)
            nmode[nn++] = k;
        else
            fmode[nf++] = k;
    }
    for (long f = 0; f < P; f++)
        if (m->cls[f] <= 0)
            natom[na++] = f;
    assert_int_equal(fl_near_build(m, sp, 0, -1.0, nn, nmode, na, natom, nf, fmode,
                                   fl_drop_col(m), &F, err), BB_ENOCONV);
    free(nmode);
    free(natom);
    free(fmode);
    bba_fluid_free(m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(far_at_S),
        cmocka_unit_test(far_at_0),
        cmocka_unit_test(near_both_ends),
        cmocka_unit_test(near_refuses_rare),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
