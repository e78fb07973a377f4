/* t_fluid_class.c: the fluid model (analytic/fluid/fluid.h) on large classes
 * of identical sources, whose rare phases (pi down to 1e-80) carry the
 * idle fraction: against an independent discretisation of the buffer
 * content solved by state reduction (no subtraction, so tiny
 * probabilities keep their accuracy), against the same sources written
 * out one by one, and the contract that an answer is accurate or refused
 * (BB_ENOCONV), never wrong; and the rank-revealing fallback of the
 * boundary factorisation (fluid_fact.c) on a singular system.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fluid_int.h"

/* ---- the independent discretisation ------------------------------------- */

/* One class (N sources, p, rate b, mean ON L) into a buffer of size S
 * drained at B, the content on K + 1 levels of h = S / K: the state
 * (level l, sources ON k).  k -> k + 1 at (N - k) lam, k -> k - 1 at
 * k mu, times B / (k b) at level K where k b > B (the writers wait: their
 * phases advance at their share); l -> l + 1 at (k b - B) / h where
 * k b > B and l < K, l -> l - 1 at (B - k b) / h where k b < B and l > 0,
 * times eps at the levels at or below the lazy threshold T.  Idle =
 * sum over level K of P(K, k) (k b - B) / (k b).  The stationary law by
 * Grassmann-Taksar-Heyman state reduction on the band (states ordered
 * level by level, bandwidth N + 1): P w^2 K operations.  The error is
 * O(h); ctmc() extrapolates K and 2K (Richardson). */
static double
ctmc_once(int N, double p, double b, double L, double B, double S, double T, double eps,
          int K, double *occ)
{
    long P = N + 1, n = (long)(K + 1) * P, w = P, W = 2 * w + 1;
    double lam = p / ((1 - p) * L), mu = 1 / L, h = S / K, tot = 0, idle = 0, oc = 0;
    double *a = calloc((size_t)n * (size_t)W, sizeof *a), *s = calloc((size_t)n, sizeof *s);
    double *x = calloc((size_t)n, sizeof *x);

    assert_non_null(a);
    assert_non_null(s);
    assert_non_null(x);
#define A(i, j) a[(size_t)(i) * (size_t)W + (size_t)((j) - (i) + w)]
    for (int l = 0; l <= K; l++)
        for (int k = 0; k <= N; k++) {
            long i = (long)l * P + k;
            double r = k * b, sh = l == K && r > B ? B / r : 1.0;

            if (k < N)
                A(i, i + 1) += (N - k) * lam;
            if (k > 0)
                A(i, i - 1) += sh * k * mu;
            if (r > B && l < K)
                A(i, i + P) += (r - B) / h;
            if (r < B && l > 0)
                A(i, i - P) += (l * h <= T * (1 + 1e-12) ? eps : 1.0) * (B - r) / h;
        }
    for (long k = n - 1; k >= 1; k--) {
        long lo = k - w < 0 ? 0 : k - w;

        for (long j = lo; j < k; j++)
            s[k] += A(k, j);
        for (long i = lo; i < k; i++) {
            double aik = A(i, k);

            if (aik == 0)
                continue;
            for (long j = lo; j < k; j++)
                if (j != i && A(k, j) != 0)
                    A(i, j) += aik * A(k, j) / s[k];
        }
    }
    x[0] = 1;
    for (long j = 1; j < n; j++) {
        long lo = j - w < 0 ? 0 : j - w;
        double acc = 0;

        for (long i = lo; i < j; i++)
            acc += x[i] * A(i, j);
        x[j] = acc / s[j];
    }
#undef A
    for (long i = 0; i < n; i++)
        tot += x[i];
    for (int l = 0; l <= K; l++)
        for (int k = 0; k <= N; k++) {
            double pr = x[(long)l * P + k] / tot, r = k * b;

            oc += pr * l * h;
            if (l == K && r > B)
                idle += pr * (r - B) / r;
        }
    free(a);
    free(s);
    free(x);
    *occ = oc;
    return idle;
}

static double
ctmc(int N, double p, double b, double L, double B, double S, double T, double eps, int K,
     double *occ)
{
    double o1, o2, i1 = ctmc_once(N, p, b, L, B, S, T, eps, K, &o1);
    double i2 = ctmc_once(N, p, b, L, B, S, T, eps, 2 * K, &o2);

    *occ = 2 * o2 - o1;
    return 2 * i2 - i1;
}

/* ---- tests -------------------------------------------------------------- */

/* 34, 40 and 100 copies on a PFS that only 34 of them overload: the
 * idle fractions 7e-73, 3e-66 and 7e-22 live in phases of pi 1e-59 to
 * 1e-80 (they exited 65 with a residual of inf, or answered 1e-49 for
 * 7e-73).  Greedy, and lazy where its dense system resolves them.  The
 * discretisation's extrapolated error at these K is below 3e-4 (it moves
 * by less between K and 2K). */
static void
class_vs_discretised(void **state)
{
    struct {
        int N, K, lazy;
        double p, b, L, B, S;
    } cs[] = {
        { 34, 250, 0, 0.01, 30, 30, 1000, 100 },
        { 40, 250, 0, 0.01, 30, 30, 1000, 100 },
        { 40, 250, 0, 0.01, 30, 30, 1000, 20 },
        { 100, 100, 0, 0.05, 30, 60, 1000, 100 },
        { 100, 100, 1, 0.05, 30, 60, 1000, 100 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid_class c = { cs[i].b, cs[i].p, cs[i].L, cs[i].N };
        bba_fluid *m = tu_fluid(&c, 1, cs[i].B);
        bb_drain pol = { .kind = cs[i].lazy ? BB_DRAIN_LAZY : BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0.5 * cs[i].S, .eps = 0.01 };
        bba_fluid_result r;
        char err[BB_ERRLEN];
        double occ, idle = ctmc(cs[i].N, cs[i].p, cs[i].b, cs[i].L, cs[i].B, cs[i].S,
                                cs[i].lazy ? 0.5 * cs[i].S : 0, cs[i].lazy ? 0.01 : 1,
                                cs[i].K, &occ);
        int rc = bba_fluid_eval(m, cs[i].S, &pol, &r, err);

        if (rc != BB_OK)
            print_error("case %zu: %s\n", i, err);
        assert_int_equal(rc, BB_OK);
        assert_true(idle > 0 && idle < 1e-20);
        tu_assert_rel(r.idle, idle, 1e-3);
        tu_assert_rel(r.mean_occupancy_bytes, occ, 1e-3);
        assert_true(r.mean_occupancy_bytes > 0);
        bba_fluid_free(m);
    }
}

/* Lazy draining on classes with phases below 2^-900 (the dense spectra
 * weigh phases by pi^1/2 and refused them): 150 copies of p = 0.01 (the
 * rarest at the top, all ON) and 160 of p = 0.98 (at the bottom, none
 * ON), each answered on the class truncated to the phases a double
 * weighs, against the discretisation of the whole class (which keeps
 * them all).  The model has rare phases (m->rare), so the truncated path
 * is the one taken. */
static void
lazy_truncated_vs_discretised(void **state)
{
    struct {
        int N, K;
        double p, b, L, B, S;
    } cs[] = {
        { 150, 100, 0.01, 30, 30, 100, 300 },
        { 160, 100, 0.98, 1, 30, 157.5, 5 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid_class c = { cs[i].b, cs[i].p, cs[i].L, cs[i].N };
        bba_fluid *m = tu_fluid(&c, 1, cs[i].B);
        bb_drain pol = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_BYTES,
                         .threshold = 0.3 * cs[i].S, .eps = 0.05 };
        bba_fluid_result r;
        char err[BB_ERRLEN];
        double occ, idle = ctmc(cs[i].N, cs[i].p, cs[i].b, cs[i].L, cs[i].B, cs[i].S,
                                0.3 * cs[i].S, 0.05, cs[i].K, &occ);
        int rc = bba_fluid_eval(m, cs[i].S, &pol, &r, err);

        if (rc != BB_OK)
            print_error("case %zu: %s\n", i, err);
        assert_int_equal(rc, BB_OK);
        assert_true(m->rare > 0);
        assert_non_null(m->trunc);
        assert_true(m->trunc->P < m->P);
        /* the first cut at the top (all ON), the second at the bottom */
        if (i == 0)
            assert_true(m->trunc->lo[0] == 0 && m->trunc->N[0] < cs[i].N);
        else
            assert_true(m->trunc->lo[0] > 0 && m->trunc->lo[0] + m->trunc->N[0] == cs[i].N);
        assert_true(idle > 1e-8);
        tu_assert_rel(r.idle, idle, 1e-3);
        tu_assert_rel(r.mean_occupancy_bytes, occ, 1e-3);
        /* EPS -> 1 on the truncated class tends to greedy draining on the
         * whole one (its modes, which weigh no phase by pi^1/2) */
        {
            bba_fluid_result g, l;

            pol.eps = 1.0 - 1e-9;
            assert_int_equal(bba_fluid_eval(m, cs[i].S, &pol, &l, err), BB_OK);
            assert_int_equal(bba_fluid_eval(m, cs[i].S, NULL, &g, err), BB_OK);
            tu_assert_rel(l.idle, g.idle, 1e-6);
            tu_assert_rel(l.mean_occupancy_bytes, g.mean_occupancy_bytes, 1e-6);
        }
        bba_fluid_free(m);
    }
}

/* A class of N equals the same N sources written out: here as N distinct
 * classes whose rates differ by a part in 1e10 (so that nothing merges),
 * with 1 and N + 1 phases per class against 2^N phases in all, in the
 * regime of rare phases (N = 8, p = 0.02: only 7 or 8 sources ON
 * overload, pi ~ 1e-12) and a moderate one. */
static void
class_vs_written_out(void **state)
{
    struct {
        int N;
        double p, B;
    } cs[] = { { 8, 0.02, 6.5 }, { 8, 0.3, 3.5 }, { 5, 0.1, 2.5 } };

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid_class one = { 1.0, cs[i].p, 2.0, cs[i].N }, rows[16];
        bba_fluid *mc, *mr;

        for (int j = 0; j < cs[i].N; j++) {
            rows[j] = one;
            rows[j].count = 1;
            rows[j].rate_Bps = 1.0 + 1e-10 * j;
        }
        mc = tu_fluid(&one, 1, cs[i].B);
        mr = tu_fluid(rows, (size_t)cs[i].N, cs[i].B);
        assert_int_equal(bba_fluid_phases(mc), cs[i].N + 1);
        assert_int_equal(bba_fluid_phases(mr), 1L << cs[i].N);
        for (double S = 0.1; S < 200; S *= 4.1) {
            bba_fluid_result a, b;
            char err[BB_ERRLEN];

            assert_int_equal(bba_fluid_eval(mc, S, NULL, &a, err), BB_OK);
            assert_int_equal(bba_fluid_eval(mr, S, NULL, &b, err), BB_OK);
            assert_true(a.idle > 0);
            tu_assert_rel(a.idle, b.idle, 1e-6);
            tu_assert_rel(a.mean_occupancy_bytes, b.mean_occupancy_bytes, 1e-6);
            tu_assert_rel(a.p_full, b.p_full, 1e-6);
        }
        bba_fluid_free(mc);
        bba_fluid_free(mr);
    }
}

/* Classes of hundreds of sources: every answer is to accuracy (its
 * residual below 1e-6, mean occupancy >= 0, idle in [0, 1], idle
 * non-increasing in S) or refused with BB_ENOCONV, never BB_EDATA and
 * never a value outside the model's bounds.  200 sources of p = 0.3 (125
 * phases above B) against the limits: at S = 0 the stall fraction of
 * Q^S, and as S grows idle falls to 0 (E < B). */
static void
large_classes_accurate_or_refused(void **state)
{
    struct {
        int N;
        double p, b, L, B;
    } cs[] = {
        { 200, 0.3, 1, 5, 75 },
        { 300, 0.05, 30, 60, 1000 },
        { 500, 0.05, 30, 60, 1000 },
        { 1000, 0.02, 30, 60, 1000 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid_class c = { cs[i].b, cs[i].p, cs[i].L, cs[i].N };
        bba_fluid *m = tu_fluid(&c, 1, cs[i].B);
        double prev = 1.0;
        int ok = 0;

        for (double S = 1; S < 1e6; S *= 10) {
            bba_fluid_result r;
            char err[BB_ERRLEN];
            int rc = bba_fluid_eval(m, S, NULL, &r, err);

            assert_true(rc == BB_OK || rc == BB_ENOCONV);
            if (rc != BB_OK)
                continue;
            ok++;
            assert_true(r.residual <= 1e-6);
            assert_true(r.mean_occupancy_bytes >= 0 && r.mean_occupancy_bytes <= S);
            assert_true(r.idle >= 0 && r.idle <= 1);
            assert_true(r.idle <= prev * (1 + 1e-9));
            prev = r.idle;
        }
        if (i < 2)
            assert_int_equal(ok, 6); /* these are answered at every size */
        bba_fluid_free(m);
    }
}

/* The factorisation's QR fallback: a singular 3 x 3 system y A = r whose
 * solution set is a line, r in the range: the basic solution satisfies
 * it (to rounding) and is finite; a regular system goes by LU. */
static void
fact_rank_revealing(void **state)
{
    /* columns = equations: A = [[1, 2, 3], [2, 4, 6], [1, 0, 1]] (row u);
     * y = (1, 0, 1) gives y A = (2, 2, 4) */
    const double A0[9] = { 1, 2, 1, 2, 4, 0, 3, 6, 1 };
    const double sc[3] = { 1, 1, 1 };
    double *A = malloc(sizeof A0), y[3] = { 2, 2, 4 }, z[3];
    fl_fact F;
    char err[BB_ERRLEN];

    (void)state;
    memcpy(A, A0, sizeof A0);
    assert_int_equal(fl_fact_build(&F, A, 3, sc, NULL, NULL, err), BB_OK);
    assert_int_equal(F.qr, 1);
    assert_int_equal(F.rank, 2);
    fl_fact_solve_T(&F, 1, y, 3);
    for (int e = 0; e < 3; e++) {
        double v = 0;

        for (int u = 0; u < 3; u++) {
            assert_true(isfinite(y[u]));
            v += y[u] * A0[u + 3 * e];
        }
        assert_true(fabs(v - (e == 2 ? 4 : 2)) < 1e-12);
    }
    /* A z = b with b = A (1, 1, 1)^T = (6, 12, 2), consistent */
    z[0] = 6;
    z[1] = 12;
    z[2] = 2;
    fl_fact_solve_N(&F, 1, z, 3);
    for (int u = 0; u < 3; u++) {
        double v = 0;

        for (int e = 0; e < 3; e++)
            v += A0[u + 3 * e] * z[e];
        assert_true(fabs(v - (u == 0 ? 6 : u == 1 ? 12 : 2)) < 1e-12);
    }
    fl_fact_free(&F);
    {
        const double R0[4] = { 2, 1, 1, 3 };
        double *R = malloc(sizeof R0), t[2] = { 5, 10 };

        memcpy(R, R0, sizeof R0);
        assert_int_equal(fl_fact_build(&F, R, 2, sc, NULL, NULL, err), BB_OK);
        assert_int_equal(F.qr, 0);
        /* y R = t: y0 2 + y1 1 = 5, y0 1 + y1 3 = 10 -> y = (1, 3) */
        fl_fact_solve_T(&F, 1, t, 2);
        assert_true(fabs(t[0] - 1) < 1e-14 && fabs(t[1] - 3) < 1e-14);
        fl_fact_free(&F);
    }
}

/* The masses by flux balance (fluid_class.c) on one source, worked by
 * hand: OFF -> ON lam, ON -> OFF mu (times s = B / b at S), drifts -B
 * and c = b - B.  The one mode phi = (1, B / c) has z = lam / B - mu / c
 * (phi Q = z phi D); with p(x) = phi e^{z x}, the atom at 0 is l_0 = B /
 * lam (p(0+) D = l Q) and at S u_1 = B e^{z S} / (mu s) (p(S-) D + u Q^S
 * = 0); the masses phi_f (e^{zS} - 1) / z and first moments phi_f
 * (e^{zS} (zS - 1) + 1) / z^2.  Both signs of the mean drift. */
static void
class_moments_hand(void **state)
{
    const double Bs[2] = { 1.5, 0.6 }; /* E = 0.8: drift -0.7 and +0.2 */

    (void)state;
    for (int i = 0; i < 2; i++) {
        double b = 2.0, p = 0.4, L = 3.0, B = Bs[i], S = 1.7;
        bba_fluid_class c = { b, p, L, 1 };
        bba_fluid *m = tu_fluid(&c, 1, B);
        double lam = p / ((1 - p) * L), mu = 1 / L, cc = b - B, z = lam / B - mu / cc;
        double e = exp(z * S), phi[2] = { 1, B / cc }, d[2] = { -B, cc };
        double l[2] = { B / lam, 0 }, u[2] = { 0, B * e / (mu * B / b) }, mi[2], xi[2], rel;

        assert_int_equal(fl_class_moments(m, d, S, l, u, mi, xi, &rel), 0);
        assert_true(rel < 1e-12);
        for (int f = 0; f < 2; f++) {
            tu_assert_rel(mi[f], phi[f] * (e - 1) / z, 1e-12);
            tu_assert_rel(xi[f], phi[f] * (e * (z * S - 1) + 1) / (z * z), 1e-12);
        }
        bba_fluid_free(m);
    }
}

/* The matrix-analytic route (fluid_ma.c: atoms by first-passage
 * matrices, masses by flux balance) against the modal solution where
 * that is exact (up to 300 sources, both signs of the mean drift), and
 * against the discretisation at 400 sources, where the modes cancel
 * (main refused it: residual 2.6e-6) and this route answers. */
static double
ma_idle(const bba_fluid *m, double S)
{
    long P = bba_fluid_phases(m);
    double *w = calloc((size_t)4 * (size_t)P, sizeof *w), res, rel, Z = 0, idle = 0;
    char err[BB_ERRLEN];

    assert_non_null(w);
    assert_int_equal(fl_ma_atoms(m, S, w, w + P, &res, err), BB_OK);
    assert_true(res < 1e-12);
    assert_int_equal(fl_class_moments(m, m->greedy->d, S, w, w + P, w + 2 * P, w + 3 * P,
                                      &rel), 0);
    for (long f = 0; f < P; f++) {
        Z += w[f] + w[P + f] + w[2 * P + f];
        idle += w[P + f] * m->lost[f];
    }
    free(w);
    return idle / Z;
}

static void
ma_route(void **state)
{
    struct {
        int N;
        double p, B, S;
    } cs[] = {
        { 10, 0.3, 10, 30 }, { 10, 0.3, 100, 30 }, { 100, 0.05, 100, 100 },
        { 200, 0.05, 250, 100 }, { 300, 0.05, 400, 100 }, { 200, 0.05, 1000, 100 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid_class c = { 30, cs[i].p, 60, cs[i].N };
        bba_fluid *m = tu_fluid(&c, 1, cs[i].B);
        bba_fluid_result r;
        char err[BB_ERRLEN];
        double a;

        assert_int_equal(bba_fluid_eval(m, cs[i].S, NULL, &r, err), BB_OK);
        assert_true(r.idle > 0);
        /* to 1e-8, or to P eps absolute (the route's normwise accuracy,
         * which the measures refuse to print below: the last case, idle
         * 6.5e-12, 1e-3 off) */
        a = ma_idle(m, cs[i].S);
        assert_true(fabs(a - r.idle) <= fmax(1e-8 * r.idle, (double)(cs[i].N + 1) * DBL_EPSILON));
        bba_fluid_free(m);
    }
    {
        bba_fluid_class c = { 30, 0.05, 60, 400 };
        bba_fluid *m = tu_fluid(&c, 1, 1000);
        bba_fluid_result r;
        char err[BB_ERRLEN];
        double occ, idle = ctmc(400, 0.05, 30, 60, 1000, 100, 0, 1, 20, &occ);

        assert_int_equal(bba_fluid_eval(m, 100, NULL, &r, err), BB_OK);
        tu_assert_rel(r.idle, idle, 1e-3);
        tu_assert_rel(r.mean_occupancy_bytes, occ, 1e-2);
        bba_fluid_free(m);
    }
    {
        /* 375 copies at 1 GB: the modes answered 3.8402e-5 with a residual
         * of 4.9e-7, 1.6e-4 off the discretisation; one large class now
         * takes the mode-free route first (its bound 2e-9), within 2e-5 */
        bba_fluid_class c = { 30, 0.05, 60, 375 };
        bba_fluid *m = tu_fluid(&c, 1, 1000);
        bba_fluid_result r;
        char err[BB_ERRLEN];
        double occ, idle = ctmc(375, 0.05, 30, 60, 1000, 1, 0, 1, 20, &occ);

        assert_int_equal(bba_fluid_eval(m, 1, NULL, &r, err), BB_OK);
        assert_true(r.residual < 1e-8);
        tu_assert_rel(r.idle, idle, 2e-5);
        tu_assert_rel(r.mean_occupancy_bytes, occ, 1e-3);
        bba_fluid_free(m);
    }
}

/* A binding B_BB keeps one class a birth-death chain (Q' scales the
 * ON -> OFF rates where r_f > B + B_BB): the class route (150 copies:
 * taken first) against the general dense spectrum (dgeev modes, the
 * whole boundary system), from S where most modes couple the ends to
 * S where few do. */
static void
class_binding(void **state)
{
    bba_fluid_class c = { 90, 0.05, 60, 150 };
    bba_fluid_opts o = { 1000, 100, 0, 0 };
    bba_fluid *m = NULL;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_fluid_new(&c, 1, &o, &m, err), BB_OK);
    assert_true(m->binds);
    for (double S = 10; S < 2e4; S *= 10) {
        const fl_spec *sp[1] = { m->greedy };
        double x[2] = { 0.0, S };
        bba_fluid_result a, b;
        fl_sol sol;

        assert_int_equal(bba_fluid_eval(m, S, NULL, &a, err), BB_OK);
        assert_int_equal(fl_solve_dense(m, 1, sp, x, &sol, err), BB_OK);
        assert_int_equal(fl_measures(m, &sol, 1.0, &b, err), BB_OK);
        fl_sol_free(&sol);
        assert_true(b.residual < 1e-10);
        tu_assert_rel(a.idle, b.idle, 1e-9);
        tu_assert_rel(a.mean_occupancy_bytes, b.mean_occupancy_bytes, 1e-9);
        tu_assert_rel(a.p_empty, b.p_empty, 1e-9);
    }
    bba_fluid_free(m);
}

/* A rate exactly B (100 x 10 = 1000): the class route censors the phase
 * of zero drift (the chain off it is birth-death) and gives it the atoms
 * its balance at 0 and at S says; against the modes (150 copies, which
 * they resolve), greedy and with a binding B_BB. */
static void
class_zero_drift(void **state)
{
    bba_fluid_class c = { 100, 0.05, 60, 150 };

    (void)state;
    for (int bind = 0; bind < 2; bind++) {
        bba_fluid_opts o = { 1000, bind ? 100 : 0, 0, 0 };
        bba_fluid *m = NULL;
        char err[BB_ERRLEN];

        assert_int_equal(bba_fluid_new(&c, 1, &o, &m, err), BB_OK);
        assert_int_equal(m->n_zero, 1);
        for (double S = 1; S < 2e3; S *= 10) {
            const fl_spec *sp[1] = { m->greedy };
            double x[2] = { 0.0, S };
            bba_fluid_result a, b;
            fl_sol sol;

            assert_int_equal(bba_fluid_eval(m, S, NULL, &a, err), BB_OK);
            assert_int_equal(bind ? fl_solve_dense(m, 1, sp, x, &sol, err)
                                  : fl_solve_fast(m, S, &sol, err), BB_OK);
            assert_int_equal(fl_measures(m, &sol, 1.0, &b, err), BB_OK);
            fl_sol_free(&sol);
            assert_true(b.residual < 1e-10);
            tu_assert_rel(a.idle, b.idle, 1e-9);
            tu_assert_rel(a.mean_occupancy_bytes, b.mean_occupancy_bytes, 1e-9);
            tu_assert_rel(a.p_full, b.p_full, 1e-9);
        }
        bba_fluid_free(m);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(class_vs_discretised),
        cmocka_unit_test(lazy_truncated_vs_discretised),
        cmocka_unit_test(class_vs_written_out),
        cmocka_unit_test(large_classes_accurate_or_refused),
        cmocka_unit_test(fact_rank_revealing),
        cmocka_unit_test(class_moments_hand),
        cmocka_unit_test(ma_route),
        cmocka_unit_test(class_binding),
        cmocka_unit_test(class_zero_drift),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
