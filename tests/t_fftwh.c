/* t_fftwh.c: the FFT Wiener-Hopf solver (analytic/chain/fftwh.h) against
 * hand-worked chains, against banded GTH, UMFPACK and Gauss-Seidel on the
 * chains of t_stationary and t_sizing, in the far tail (idle near 1e-200
 * against GTH, beyond the double range against the hand-derived decay
 * rate), overloaded (E > B), and its fallback.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

static int
rel_close(double a, double b, double tol)
{
    if (a == b)
        return 1;
    return fabs(a - b) <= tol * fabs(b);
}

static void
eval_kind(const bba_model *m, long S, const bb_drain *pol, bba_solver_kind kind,
          bba_eval_result *r, double **pi)
{
    bba_solver_opts so;
    char err[BB_ERRLEN];
    int rc;

    tu_solver(&so, kind);
    so.no_fallback = 1; /* an FFT answer must be the FFT solver's own */
    if (kind == BBA_SOLVER_GAUSS_SEIDEL)
        so.tol = 1e-15; /* at 1e-13 its error reaches 1.4e-11 relative (seed 9) */
    if (kind == BBA_SOLVER_UMFPACK)
        so.tol = 1e-12; /* its pi has -1.1e-13 entries on the gcd-2 chain */
    rc = bba_eval(m, S, pol, &so, r, pi, err);
    if (rc != BB_OK)
        print_error("S = %ld, solver %d: %s\n", S, (int)kind, err);
    assert_int_equal(rc, BB_OK);
}

/* The hand chain (B = 2, b = 3, p = 1/2) of t_stationary: whole
 * distributions, idle and quiet, exactly (1e-13). */
static void
hand_worked_chains(void **state)
{
    long b[1] = { 3 };
    double p[1] = { 0.5 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 2, .eps = 0.1 };
    double e1[3] = { 4.0 / 7, 2.0 / 7, 1.0 / 7 };
    double e2[4] = { 6.0 / 13, 4.0 / 13, 2.0 / 13, 1.0 / 13 };
    double e3[4] = { 0.6 / 2.35, 1 / 2.35, 0.5 / 2.35, 0.25 / 2.35 };
    struct { long S; const bb_drain *pol; const double *pi; long n; double idle, quiet; } c[] = {
        { 1, &greedy, e1, 3, 1.0 / 7, 5.0 / 7 },
        { 2, &greedy, e2, 4, 1.0 / 13, 9.0 / 13 },
        { 2, &lazy, e3, 4, 5.0 / 47, 36.0 / 47 },
    };
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 1, b, p, 2, 0, err), BB_OK);
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        bba_eval_result r;
        double *pi;

        eval_kind(&m, c[k].S, c[k].pol, BBA_SOLVER_FFT, &r, &pi);
        assert_int_equal(r.n_states, c[k].n);
        for (long j = 0; j < c[k].n; j++)
            assert_float_equal(pi[j], c[k].pi[j], 1e-13);
        assert_float_equal(r.meas.idle, c[k].idle, 1e-13);
        assert_float_equal(r.meas.quiet, c[k].quiet, 1e-13);
        assert_float_equal(r.meas.log10_idle, log10(c[k].idle), 1e-12);
        assert_true(r.solve.residual < 1e-12);
        free(pi);
    }
    bba_model_free(&m);
}

/* Compare FFT against the three chain solvers: idle and quiet to 1e-10
 * relative, the other measures too. */
static void
check_against_chain(const bba_model *m, long S, const bb_drain *pol)
{
    static const bba_solver_kind chain_kinds[] = {
        BBA_SOLVER_BANDED, BBA_SOLVER_UMFPACK, BBA_SOLVER_GAUSS_SEIDEL
    };
    bba_eval_result f, r;

    eval_kind(m, S, pol, BBA_SOLVER_FFT, &f, NULL);
    for (size_t k = 0; k < 3; k++) {
        /* GTH is subtraction-free: 1e-10 relative however small idle is.
         * UMFPACK and Gauss-Seidel are accurate to their residual (1e-13
         * here) in absolute terms only: an idle fraction of 1e-8 carries
         * a relative error near 1e-8 in them (measured 9e-9, seed 3). */
        double abs_tol = k == 0 ? 0.0 : 1e-13;

        eval_kind(m, S, pol, chain_kinds[k], &r, NULL);
        if (!(fabs(f.meas.idle - r.meas.idle) <= 1e-10 * r.meas.idle + abs_tol)
            || !rel_close(f.meas.quiet, r.meas.quiet, 1e-10))
            print_error("S = %ld lazy %d T %ld solver %zu: idle %.17g vs %.17g, "
                        "quiet %.17g vs %.17g\n", S, pol->kind == BB_DRAIN_LAZY, (long)pol->threshold, k,
                        f.meas.idle, r.meas.idle, f.meas.quiet, r.meas.quiet);
        assert_true(fabs(f.meas.idle - r.meas.idle) <= 1e-10 * r.meas.idle + abs_tol);
        assert_true(rel_close(f.meas.quiet, r.meas.quiet, 1e-10));
        if (!(rel_close(f.meas.mean_load, r.meas.mean_load, 1e-9)
              || fabs(f.meas.mean_load - r.meas.mean_load) < (k == 0 ? 1e-12 : 1e-10)))
            print_error("S = %ld lazy %d T %ld solver %zu: mean load %.17g vs %.17g\n",
                        S, pol->kind == BB_DRAIN_LAZY, (long)pol->threshold, k, f.meas.mean_load, r.meas.mean_load);
        assert_true(rel_close(f.meas.mean_load, r.meas.mean_load, 1e-9)
                    || fabs(f.meas.mean_load - r.meas.mean_load) < (k == 0 ? 1e-12 : 1e-10));
        /* with E > B the FFT solver does not tilt (fftwh.h): pi(0) is then
         * accurate in absolute terms only; Gauss-Seidel's pi(0) is off by
         * up to 2.5e-13 at residual 1e-13 (seed 5) */
        if (!(fabs(f.meas.p_empty - r.meas.p_empty)
                    <= 1e-10 * r.meas.p_empty + (k == 0 ? (m->mom.mean < (double)m->B ? 1e-15 : 1e-13) : 1e-11)))
            print_error("S = %ld lazy %d T %ld solver %zu: p_empty %.17g vs %.17g E/B %g\n",
                        S, pol->kind == BB_DRAIN_LAZY, (long)pol->threshold, k, f.meas.p_empty, r.meas.p_empty,
                        m->mom.mean / (double)m->B);
        assert_true(fabs(f.meas.p_empty - r.meas.p_empty)
                    <= 1e-10 * r.meas.p_empty + (k == 0 ? (m->mom.mean < (double)m->B ? 1e-15 : 1e-13) : 1e-11));
        assert_true(fabs(f.meas.p_full - r.meas.p_full) <= 1e-10 * r.meas.p_full + 1e-11);
    }
    assert_int_equal(f.n_states, r.n_states);
}

/* The random chains of t_stationary's solvers_agree (seeds 1..12), greedy
 * and lazy, and t_sizing's monotonicity workloads. */
static void
agrees_with_chain_solvers(void **state)
{
    (void)state;
    for (unsigned long seed = 1; seed <= 12; seed++) {
        tu_workload w;
        bba_model m;
        long S = 5 + 37 * (long)seed;

        if (seed == 12) /* total bandwidth below B */
            tu_random(&w, 2, 8, 0.5, 20, seed + 40);
        else
            tu_random(&w, 4 + seed % 8, 30, 0.5, 20, seed + 40);
        tu_model(&m, &w);
        for (int lazy = 0; lazy <= 1; lazy++) {
            bb_drain pol = { .kind = lazy, .unit = BB_DRAIN_QUANTA, .threshold = S / 4, .eps = 0.05 };

            check_against_chain(&m, S, &pol);
        }
        bba_model_free(&m);
    }
    for (unsigned long seed = 1; seed <= 4; seed++) {
        tu_workload w;
        bba_model m;

        tu_random(&w, 8, 30, 0.3, 20, seed + 100);
        tu_model(&m, &w);
        for (long S = 0; S <= 300; S += 23)
            for (int lazy = 0; lazy <= 1; lazy++) {
                bb_drain pol = { .kind = lazy, .unit = BB_DRAIN_QUANTA, .threshold = S / 5, .eps = 0.01 };

                check_against_chain(&m, S, &pol);
            }
        bba_model_free(&m);
    }
}

/* Lazy thresholds across the whole range (0, near the bottom, middle,
 * near the top, S) and EPS from 0.01 to 1 (EPS = 1 is greedy). */
static void
lazy_thresholds_and_eps(void **state)
{
    tu_workload w;
    bba_model m;
    long S = 240;
    long th[] = { 0, 1, 7, 60, 120, 200, 239, 240 };
    double eps[] = { 0.01, 0.3, 1.0 };

    (void)state;
    tu_random(&w, 10, 40, 0.1, 20, 8);
    tu_model(&m, &w);
    for (size_t i = 0; i < sizeof th / sizeof th[0]; i++)
        for (size_t e = 0; e < 3; e++) {
            bb_drain pol = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = th[i], .eps = eps[e] };

            check_against_chain(&m, S, &pol);
        }
    {
        bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy1 = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 120, .eps = 1.0 };
        bba_eval_result a, b;

        eval_kind(&m, S, &greedy, BBA_SOLVER_FFT, &a, NULL);
        eval_kind(&m, S, &lazy1, BBA_SOLVER_FFT, &b, NULL);
        assert_true(rel_close(a.meas.idle, b.meas.idle, 1e-11));
    }
    bba_model_free(&m);
}

/* Expected load above B (t_sizing's overloaded_limit workload): the
 * solver agrees with GTH, and idle tends to 1 - B/E. */
static void
overloaded(void **state)
{
    long b[3] = { 15, 8, 6 };
    double p[3] = { 0.6, 0.5, 0.25 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 30, .eps = 0.05 };
    bba_eval_result r;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 3, b, p, 10, 0, err), BB_OK);
    check_against_chain(&m, 100, &greedy);
    check_against_chain(&m, 100, &lazy);
    check_against_chain(&m, 2000, &greedy);
    eval_kind(&m, 20000, &greedy, BBA_SOLVER_FFT, &r, NULL);
    assert_true(fabs(r.meas.idle - (1.0 - 10.0 / 14.5)) < 1e-4);
    assert_true(r.meas.idle >= 1.0 - 10.0 / 14.5 - 1e-9);
    bba_model_free(&m);
}

/* The Cramer root theta < 0 of E e^{theta (X - B)} = 1 (E > B), from the
 * model's DIST by bisection: independent of fftwh.c's Newton iteration. */
static double
negative_cramer_root(const bba_model *m)
{
    double lo = -1.0, hi = 0.0;

    for (;;) { /* psi(lo) > 0: some load is below B */
        double s = 0;

        for (long k = 0; k <= m->M; k++)
            s += m->dist[k] * exp(lo * (double)(k - m->B));
        if (s > 1)
            break;
        lo *= 2;
    }
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi), s = 0;

        for (long k = 0; k <= m->M; k++)
            s += m->dist[k] * exp(mid * (double)(k - m->B));
        if (s > 1)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Far above B (E/B = 5.1, up-jumps 5 B long: the default workload at
 * 30 GB/s in small): the mirrored tilt and the fold of its own (fftwh.c)
 * against the chain solvers, greedy and lazy, at sizes below, near and
 * well above the largest jump; GMRES converges in one long cycle.  Then a
 * chain too large for GTH under the memory limit given: the FFT solver
 * answers alone, idle tends to 1 - B/E from above, and the mass at the
 * empty buffer decays like e^{theta S}, theta the negative Cramer root
 * (the walk seen from S drifts away from 0 with that rate), to 1e-3: the
 * complex roots of nearly the same modulus leave an oscillation around
 * the pure exponential, 3e-4 of the log ratio over 1000 quanta at S =
 * 4000 in banded GTH as in this solver (which agree to 1e-13 there),
 * 1.5e-4 at S = 40,000. */
static void
overloaded_far(void **state)
{
    long b[3] = { 601, 449, 303 };
    double p[3] = { 0.3, 0.4, 0.5 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy;
    bba_solver_opts so;
    bba_eval_result r1, r2;
    double E, th, chain_bytes;
    long S1 = 40000, S2 = 41000;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 3, b, p, 100, 0, err), BB_OK);
    E = m.mom.mean;
    assert_true(E > 5 * (double)m.B);
    for (long S = 50; S <= 1600; S = S * 3 + 7) {
        bba_eval_result f;

        lazy = (bb_drain){ .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = S / 3, .eps = 0.05 };
        check_against_chain(&m, S, &greedy);
        check_against_chain(&m, S, &lazy);
        eval_kind(&m, S, &greedy, BBA_SOLVER_FFT, &f, NULL);
        assert_true(f.solve.iterations <= m.B + 60);
    }
    tu_solver(&so, BBA_SOLVER_FFT);
    so.no_fallback = 1;
    so.mem_limit_bytes = 2.0 * bba_fftwh_bytes(m.M, m.B, S2, &so)
                         * (double)(m.B + 60 + 6) / 36.0;
    bba_chain_estimate(S1, m.B, m.M, NULL, NULL, &chain_bytes);
    assert_true(chain_bytes > so.mem_limit_bytes);
    assert_int_equal(bba_eval(&m, S1, &greedy, &so, &r1, NULL, err), BB_OK);
    assert_int_equal(bba_eval(&m, S2, &greedy, &so, &r2, NULL, err), BB_OK);
    assert_true(r1.meas.idle >= 1 - (double)m.B / E - 1e-12);
    assert_true(fabs(r1.meas.idle - (1 - (double)m.B / E)) < 1e-9);
    assert_true(fabs(r2.meas.idle - (1 - (double)m.B / E)) < 1e-9);
    th = negative_cramer_root(&m);
    assert_true(th < 0);
    assert_true(r1.meas.p_empty > 0 && r2.meas.p_empty > 0);
    if (!rel_close(log(r2.meas.p_empty / r1.meas.p_empty), th * (double)(S2 - S1), 1e-3))
        print_error("decay %.12g, expected %.12g\n", log(r2.meas.p_empty / r1.meas.p_empty),
                    th * (double)(S2 - S1));
    assert_true(rel_close(log(r2.meas.p_empty / r1.meas.p_empty), th * (double)(S2 - S1), 1e-3));
    bba_model_free(&m);
}

/* Bandwidths sharing a factor with B (gcd 2 and 5): only multiples of the
 * gcd are reachable; the solver divides by the gcd (fftwh.h step 0), S and
 * the threshold not multiples of it included, and must agree with the
 * chain solvers on the whole chain. */
static void
common_factor_with_B(void **state)
{
    long b1[3] = { 4, 6, 14 }, b2[2] = { 15, 35 };
    double p1[3] = { 0.3, 0.4, 0.2 }, p2[2] = { 0.2, 0.1 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 40, .eps = 0.05 };
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 3, b1, p1, 10, 0, err), BB_OK);
    check_against_chain(&m, 301, &greedy);
    check_against_chain(&m, 301, &lazy);
    {
        /* a threshold above the last reachable state, 300: banded GTH
         * answers (the unreduced FFT solve disagrees there, see fftwh.c) */
        bba_solver_opts so;
        bba_eval_result f, g;

        lazy.threshold = 301;
        tu_solver(&so, BBA_SOLVER_FFT);
        assert_int_equal(bba_eval(&m, 301, &lazy, &so, &f, NULL, err), BB_OK);
        assert_int_equal(f.solve.fallback, 1);
        eval_kind(&m, 301, &lazy, BBA_SOLVER_BANDED, &g, NULL);
        assert_true(f.meas.idle == g.meas.idle);
    }
    {
        /* near the top: against GTH (UMFPACK's pi has -4.8e-12 entries on
         * this chain's unreachable states) */
        bba_eval_result f, g;

        lazy.threshold = 299;
        eval_kind(&m, 301, &lazy, BBA_SOLVER_FFT, &f, NULL);
        eval_kind(&m, 301, &lazy, BBA_SOLVER_BANDED, &g, NULL);
        assert_true(rel_close(f.meas.idle, g.meas.idle, 1e-10));
        assert_true(rel_close(f.meas.quiet, g.meas.quiet, 1e-10));
        lazy.threshold = 300;
        eval_kind(&m, 300, &lazy, BBA_SOLVER_FFT, &f, NULL);
        eval_kind(&m, 300, &lazy, BBA_SOLVER_BANDED, &g, NULL);
        assert_true(rel_close(f.meas.idle, g.meas.idle, 1e-10));
        assert_true(rel_close(f.meas.quiet, g.meas.quiet, 1e-10));
    }
    lazy.threshold = 40;
    bba_model_free(&m);
    assert_int_equal(bba_model_init(&m, 2, b2, p2, 20, 0, err), BB_OK);
    check_against_chain(&m, 203, &greedy);
    check_against_chain(&m, 200, &lazy);
    bba_model_free(&m);
}

/* Idle fractions near 1e-200: against banded GTH, which is subtraction-
 * free and keeps relative accuracy wherever doubles can represent pi. */
static void
far_tail_against_gth(void **state)
{
    long b1[1] = { 3 };
    double p1[1] = { 0.5 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    bba_eval_result f, g;
    char err[BB_ERRLEN];

    (void)state;
    /* hand chain: idle ~ phi^-S, 1e-200 near S = 957 */
    assert_int_equal(bba_model_init(&m, 1, b1, p1, 2, 0, err), BB_OK);
    eval_kind(&m, 957, &greedy, BBA_SOLVER_FFT, &f, NULL);
    eval_kind(&m, 957, &greedy, BBA_SOLVER_BANDED, &g, NULL);
    assert_true(g.meas.idle > 1e-203 && g.meas.idle < 1e-197);
    assert_true(rel_close(f.meas.idle, g.meas.idle, 1e-10));
    assert_true(rel_close(f.meas.quiet, g.meas.quiet, 1e-12));
    bba_model_free(&m);

    /* a random workload at light load */
    for (unsigned long seed = 1; seed <= 2; seed++) {
        tu_workload w;
        long S;

        tu_random(&w, 6, 30, 0.05, 20, seed + 60);
        tu_model(&m, &w);
        /* bracket the size giving about 1e-200 with the FFT solver's logs */
        for (S = 100;; S += 100) {
            eval_kind(&m, S, &greedy, BBA_SOLVER_FFT, &f, NULL);
            if (f.meas.log10_idle < -200)
                break;
        }
        eval_kind(&m, S, &greedy, BBA_SOLVER_BANDED, &g, NULL);
        assert_true(g.meas.idle > 0 && g.meas.idle < 1e-150);
        if (!rel_close(f.meas.idle, g.meas.idle, 1e-10))
            print_error("S = %ld: idle %.17g vs GTH %.17g\n", S, f.meas.idle, g.meas.idle);
        assert_true(rel_close(f.meas.idle, g.meas.idle, 1e-10));
        assert_true(rel_close(f.meas.quiet, g.meas.quiet, 1e-12));
        bba_model_free(&m);
    }
}

/* Below the double range: idle(S) = C phi^-S (1 + o(1)) for the hand chain
 * (jumps +1 and -2 with probability 1/2: the Cramer root solves
 * (e^-2t + e^t)/2 = 1, i.e. t^3 - 2t^2 + 1 = 0 in e^t, so e^t = phi, the
 * golden ratio).  From S0 where GTH still represents idle, log10 idle at
 * S0 + k must be log10 idle(S0) - k log10 phi; the correction decays like
 * (phi^-2)^S0, far below rounding at S0 = 600. */
static void
below_double_range_hand_asymptote(void **state)
{
    long b[1] = { 3 };
    double p[1] = { 0.5 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    bba_eval_result f, g;
    double phi = (1 + sqrt(5.0)) / 2;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 1, b, p, 2, 0, err), BB_OK);
    eval_kind(&m, 600, &greedy, BBA_SOLVER_BANDED, &g, NULL);
    for (long k = 400; k <= 2400; k += 1000) {
        double expect = log10(g.meas.idle) - (double)k * log10(phi);

        eval_kind(&m, 600 + k, &greedy, BBA_SOLVER_FFT, &f, NULL);
        assert_true(expect < -308 || k < 1000);
        assert_true(fabs(f.meas.log10_idle - expect) <= 1e-12 * fabs(expect));
        if (expect < -330)
            assert_true(f.meas.idle == 0); /* below the double range */
    }
    bba_model_free(&m);
}

/* The size search with the FFT solver returns the smallest size, checked
 * by banded GTH at S and S - 1 (t_sizing's size_is_minimal workloads). */
static void
size_search_minimal(void **state)
{
    double targets[] = { 1e-2, 1e-7 };

    (void)state;
    for (unsigned long seed = 1; seed <= 3; seed++)
        for (size_t t = 0; t < 2; t++)
            for (int lazy = 0; lazy <= 1; lazy++) {
                tu_workload w;
                bba_model m;
                bba_solver_opts so;
                bba_size_result r;
                bb_drain ps = { .kind = lazy, .unit = BB_DRAIN_FRACTION, .threshold = 0.2, .eps = 0.01 };
                bb_drain pol;
                bba_eval_result e;
                char err[BB_ERRLEN];

                tu_random(&w, 10, 40, 0.1, 20, seed + 7);
                tu_model(&m, &w);
                tu_solver(&so, BBA_SOLVER_FFT);
                assert_int_equal(bba_size_min(&m, targets[t], &ps, &so, 100000, NULL, NULL,
                                              &r, err), BB_OK);
                bba_drain_quanta(&ps, r.best.S, 1, &pol);
                eval_kind(&m, r.best.S, &pol, BBA_SOLVER_BANDED, &e, NULL);
                assert_true(e.meas.idle <= targets[t]);
                if (r.best.S > 0) {
                    bba_drain_quanta(&ps, r.best.S - 1, 1, &pol);
                    eval_kind(&m, r.best.S - 1, &pol, BBA_SOLVER_BANDED, &e, NULL);
                    assert_true(e.meas.idle > targets[t]);
                }
                bba_model_free(&m);
            }
}

/* GMRES stopped early: BB_ENOCONV naming the residual; with the fallback
 * allowed, banded GTH answers and says so. */
static void
no_convergence_and_fallback(void **state)
{
    tu_workload w;
    bba_model m;
    bba_solver_opts so;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    bba_eval_result r, g;
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 10, 40, 0.2, 20, 3);
    tu_model(&m, &w);
    tu_solver(&so, BBA_SOLVER_FFT);
    so.krylov_max_iter = 1;
    so.no_fallback = 1;
    assert_int_equal(bba_eval(&m, 400, &pol, &so, &r, NULL, err), BB_ENOCONV);
    assert_non_null(strstr(err, "residual"));
    so.no_fallback = 0;
    assert_int_equal(bba_eval(&m, 400, &pol, &so, &r, NULL, err), BB_OK);
    assert_int_equal(r.solve.fallback, 1);
    eval_kind(&m, 400, &pol, BBA_SOLVER_BANDED, &g, NULL);
    assert_true(r.meas.idle == g.meas.idle);
    /* the fallback is refused when GTH would not fit either */
    so.no_fallback = 0;
    so.mem_limit_bytes = 1.01 * bba_fftwh_bytes(m.M, m.B, 400, &so);
    {
        double chain_bytes;

        bba_chain_estimate(400, m.B, m.M, NULL, NULL, &chain_bytes);
        assert_true(chain_bytes > so.mem_limit_bytes);
    }
    /* a refusal naming what to change (exit 2), not an internal error */
    assert_int_equal(bba_eval(&m, 400, &pol, &so, &r, NULL, err), BB_ETOOBIG);
    assert_non_null(strstr(err, "residual"));
    assert_non_null(strstr(err, "raise the memory bound"));
    /* and the FFT solver's own budget is checked first */
    so.krylov_max_iter = 300;
    so.mem_limit_bytes = 1000;
    assert_int_equal(bba_eval(&m, 400, &pol, &so, &r, NULL, err), BB_ETOOBIG);
    assert_non_null(strstr(err, "GB"));
    bba_model_free(&m);
}

/* Chains the FFT solver leaves to the chain path: no load below B (the
 * buffer never drains: the chain's message) and lazy EPS = 0. */
static void
unreachable_states_reported(void **state)
{
    long b[1] = { 20 };
    double p[1] = { 1.0 };
    bba_model m;
    bb_drain greedy = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 }, lazy0 = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 5, .eps = 0.0 };
    bba_solver_opts so;
    bba_eval_result r, g;
    tu_workload w;
    char err[BB_ERRLEN];

    (void)state;
    tu_solver(&so, BBA_SOLVER_FFT);
    assert_int_equal(bba_model_init(&m, 1, b, p, 20, 0, err), BB_OK);
    assert_int_equal(bba_eval(&m, 50, &greedy, &so, &r, NULL, err), BB_EDATA);
    bba_model_free(&m);
    /* EPS = 0: left to banded GTH (the same answer bit for bit) */
    tu_random(&w, 5, 30, 0.3, 20, 5);
    tu_model(&m, &w);
    assert_int_equal(bba_eval(&m, 50, &lazy0, &so, &r, NULL, err), BB_OK);
    eval_kind(&m, 50, &lazy0, BBA_SOLVER_BANDED, &g, NULL);
    assert_true(r.meas.idle == g.meas.idle && r.meas.quiet == g.meas.quiet);
    bba_model_free(&m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_worked_chains),
        cmocka_unit_test(agrees_with_chain_solvers),
        cmocka_unit_test(lazy_thresholds_and_eps),
        cmocka_unit_test(overloaded),
        cmocka_unit_test(overloaded_far),
        cmocka_unit_test(common_factor_with_B),
        cmocka_unit_test(far_tail_against_gth),
        cmocka_unit_test(below_double_range_hand_asymptote),
        cmocka_unit_test(size_search_minimal),
        cmocka_unit_test(no_convergence_and_fallback),
        cmocka_unit_test(unreachable_states_reported),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
