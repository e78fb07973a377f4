/* t_fluid.c: the fluid model (analytic/fluid/fluid.h) against a closed form
 * worked by hand, an independent discretisation in x, the discrete ON/OFF
 * chain of onoff.h as its time unit shrinks, its own two spectra and two
 * boundary solvers against each other, its limits, and its searches.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "testutil.h"
#include "fluid_int.h"

static bba_fluid_result
eval(const bba_fluid *m, double S, int lazy, double T, double eps)
{
    bb_drain pol = { .kind = lazy, .unit = BB_DRAIN_BYTES, .threshold = T, .eps = eps };
    bba_fluid_result r;
    char err[BB_ERRLEN];
    int rc = bba_fluid_eval(m, S, &pol, &r, err);

    if (rc != BB_OK)
        print_error("bba_fluid_eval(S = %g): %s\n", S, err);
    assert_int_equal(rc, BB_OK);
    assert_true(r.residual < 1e-10);
    return r;
}

/* One ON/OFF source (rate b > B while ON, Pr(ON) = p, mean ON L) into a
 * buffer of size S, worked by hand for waiting writers.  Phases OFF
 * (drift -B) and ON (drift e = b - B); lam = p / ((1 - p) L) (OFF -> ON),
 * mu = 1/L.  Inside the buffer the generator is Q: phi (Q - z D) = 0 has
 * the root 0 and one more: det(Q - z D) = (-lam + z B)(-mu - z e) - lam mu
 * = z (lam e - mu B - z B e), so
 *   z = lam / B - mu / e,
 * and the first column gives phi_ON = phi_OFF (lam - z B) / mu =
 * phi_OFF B / e: the density is c (e, B) e^{z x}.  At 0 the atom l sits in
 * OFF and p(0) D = l Q reads -c e B = -l lam, so l = c e B / lam.  At S
 * the source is throttled to B: it writes the share B/b of its offer, its
 * I/O phase (a volume) advances at that share, so at S it leaves ON at
 * mu' = mu B / b (the generator Q^S); the atom u sits in ON and
 * p(S) D = -u Q^S reads -c e^{zS} e B = -u mu', so
 *   u = c e^{zS} e B / mu' = c e^{zS} e b / mu.
 * Normalisation: l + u + c (e + B) (e^{zS} - 1)/z = 1.  Idle = 1 - X/E:
 * the source writes b except at S, where it writes B, so
 * X = b P(ON) - u (b - B); the phase law m satisfies m Q + u (Q^S - Q) = 0,
 * i.e. P(ON) mu - u (mu - mu') = P(OFF) lam, P(ON) = p + (1 - p) u (1 - B/b),
 * and X = p b (1 - u (1 - B/b)): idle = u (b - B)/b, the fraction of time
 * it waits.  With a binding B_BB (b > B + B_BB) the drift in ON is
 * e = B_BB and below S the source writes B + B_BB, its phase advancing at
 * (B + B_BB)/b: mu becomes mu_in = mu (B + B_BB)/b in the derivation of z
 * and of phi (z = lam/B - mu_in/e, phi_ON = phi_OFF B/e still), the atom
 * at S is unchanged (u = c e^{zS} e b/mu), and the source also waits
 * (1 - (B + B_BB)/b) of its time ON below S, where P(X < S, ON) =
 * c B (e^{zS} - 1)/z. */
static void
closed_form(double b, double p, double L, double B, double Bbb, double S, double *idle,
            double *pempty, double *log10idle)
{
    double lam = p / ((1 - p) * L), mu = 1 / L, e = fmin(b - B, Bbb);
    double mu_in = b - B > Bbb ? mu * (B + Bbb) / b : mu, z = lam / B - mu_in / e;
    double c, u, on;

    if (z < 0) {
        c = 1 / (e * B / lam + exp(z * S) * e * b / mu + (e + B) * expm1(z * S) / z);
        u = c * exp(z * S) * e * b / mu;
        on = c * B * expm1(z * S) / z;
    } else { /* the same divided by e^{zS}: c' = c e^{zS} */
        c = 1 / (e * B / lam * exp(-z * S) + e * b / mu - (e + B) * expm1(-z * S) / z);
        u = c * e * b / mu;
        on = -c * B * expm1(-z * S) / z;
        c *= exp(-z * S);
    }
    *idle = u * (b - B) / b + on * fmax(b - B - Bbb, 0) / b;
    *pempty = c * e * B / lam;
    *log10idle = (log(c * e * b / mu * (b - B) / b) + z * S) / M_LN10;
}

/* Without a bandwidth, with one that never binds (B_BB above b - B) and
 * with one that binds (0.83, a general spectrum): to 1e-12 of the closed
 * form. */
static void
one_source_closed_form(void **state)
{
    const double S[] = { 0, 0.37, 12.5, 230, 2900, 4.1e4 };
    bba_fluid_class c = { 3.1, 0.27, 61, 1 };
    double B = 1.45;

    (void)state;
    for (int bw = 0; bw < 3; bw++) {
        double Bbb = bw == 1 ? 1.7 : bw == 2 ? 0.83 : 0;
        bba_fluid *m = tu_fluid_bb(&c, 1, B, Bbb);

        assert_int_equal(bba_fluid_separable(m), bw < 2);
        for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
            bba_fluid_result r = eval(m, S[i], 0, 0, 1);
            double idle, pe, lg;

            closed_form(c.rate_Bps, c.p, c.burst_s, B, Bbb > 0 ? Bbb : INFINITY, S[i], &idle,
                        &pe, &lg);
            tu_assert_rel(r.idle, idle, 1e-12);
            tu_assert_rel(r.p_empty, pe, 1e-12);
            /* tiny idle fractions (1e-29 here) keep their accuracy */
            if (bw < 2)
                tu_assert_rel(r.log10_idle, lg, 1e-13);
        }
        bba_fluid_free(m);
    }
}

/* Far beyond the double range the idle fraction underflows but its log10
 * stays exact (closed form above); with no phase above B it is 0, -inf. */
static void
log10_idle_underflow(void **state)
{
    bba_fluid_class c = { 3.1, 0.27, 61, 1 };
    bba_fluid *m = tu_fluid_bb(&c, 1, 1.45, 0);
    bba_fluid_result r = eval(m, 4e6, 0, 0, 1);
    double idle, pe, lg;

    (void)state;
    closed_form(3.1, 0.27, 61, 1.45, INFINITY, 4e6, &idle, &pe, &lg);
    assert_true(lg < -400);
    tu_assert_rel(r.log10_idle, lg, 1e-12);
    assert_true(r.idle == 0.0 || r.idle < 1e-300);
    bba_fluid_free(m);
    m = tu_fluid_bb(&c, 1, 3.5, 0);
    r = eval(m, 100, 0, 0, 1);
    assert_true(r.idle == 0.0 && isinf(r.log10_idle) && r.log10_idle < 0);
    assert_true(isinf(bba_fluid_idle_limit(m)) == 0 && bba_fluid_idle_limit(m) == 0.0);
    bba_fluid_free(m);
}

/* ---- an independent method: an upwind CTMC on a grid in x ---------------- */

/* The test's own generators, from the classes' counts and rates: Q
 * (cap = inf); at the full level Q^S (cap = B) and below it where B_BB
 * binds Q' (cap = B + B_BB): Q with the ON -> OFF rates of a phase whose
 * offer r_f exceeds the cap scaled by cap / r_f (writers wait).  Row f,
 * dense. */
static void
gen_row(const bba_fluid *m, int f, double cap, double *row)
{
    int P = (int)m->P;
    long rem = f;
    double sh = m->rate[f] > cap * (1 + 1e-12) ? cap / m->rate[f] : 1.0;

    memset(row, 0, sizeof(double) * P);
    for (int c = 0; c < m->C; c++) {
        long mc = rem % (m->N[c] + 1);

        rem /= m->N[c] + 1;
        if (mc < m->N[c]) {
            row[f + m->stride[c]] += (m->N[c] - mc) * m->lam[c];
            row[f] -= (m->N[c] - mc) * m->lam[c];
        }
        if (mc > 0) {
            row[f - m->stride[c]] += sh * mc * m->mu[c];
            row[f] -= sh * mc * m->mu[c];
        }
    }
}

/* E = sum_f pi_f r_f with pi the law of Q (the test's own): the offered
 * load, the positive drift's sign E - B. */
static double
test_E(const bba_fluid *m)
{
    int P = (int)m->P;
    double E = 0, tot = 0, *row = malloc(sizeof(double) * P);
    gsl_matrix *A = gsl_matrix_alloc(P, P);
    gsl_permutation *perm = gsl_permutation_alloc(P);
    gsl_vector *x = gsl_vector_alloc(P), *rhs = gsl_vector_calloc(P);
    int sg;

    for (int f = 0; f < P; f++) {
        gen_row(m, f, INFINITY, row);
        for (int g = 0; g < P; g++)
            gsl_matrix_set(A, g, f, g == 0 ? 1.0 : row[g]);
    }
    gsl_vector_set(rhs, 0, 1.0);
    gsl_linalg_LU_decomp(A, perm, &sg);
    gsl_linalg_LU_solve(A, perm, rhs, x);
    for (int f = 0; f < P; f++) {
        E += gsl_vector_get(x, f) * m->rate[f];
        tot += gsl_vector_get(x, f);
    }
    free(row);
    gsl_matrix_free(A);
    gsl_permutation_free(perm);
    gsl_vector_free(x);
    gsl_vector_free(rhs);
    return E / tot;
}

/* Levels 0..K at x = j h, h = S/K: phase moves by Q' below level K (Q
 * where B_BB binds nowhere) and by Q^S at level K; an up phase moves a
 * level up at rate min(r_f - B, B_BB) / h (not from
 * K), a down phase a level down at |d_f| / h (EPS |d_f| / h below the
 * threshold; not from 0).  Solved by linear level reduction (R_j = A0_j
 * (-U_{j+1})^-1, U_j = A1_j + R_j A2_{j+1}, pi_{j+1} = pi_j R_j), dense
 * GSL LU for every block.  Idle: the stall fraction, the mass of each
 * phase times the share of its offer it cannot write, (r_f - cap)^+ / r_f
 * with cap = B at level K and B + B_BB below it; quiet and mean occupancy
 * as FLUID-SPEC.md with level K for "at S" and level 0 for "at 0".
 * Converges at first order in h. */
static void
grid_measures(const bba_fluid *m, double S, double T, double eps, int K, double *idle,
              double *quiet, double *occ)
{
    int P = (int)m->P;
    double h = S / K, *Q = malloc(sizeof(double) * P * P), *QS = malloc(sizeof(double) * P * P);
    double *up = malloc(sizeof(double) * P);
    double *dn = malloc(sizeof(double) * P * (K + 1)), *U = malloc(sizeof(double) * P * P);
    double *R = malloc(sizeof(double) * P * P * (K + 1)), *pi = malloc(sizeof(double) * P * (K + 1));
    gsl_matrix *A = gsl_matrix_alloc(P, P), *Ai = gsl_matrix_alloc(P, P);
    gsl_permutation *perm = gsl_permutation_alloc(P);
    gsl_vector *x = gsl_vector_alloc(P), *rhs = gsl_vector_calloc(P);
    double tot = 0;
    int sg;

    for (int f = 0; f < P; f++) {
        double e = m->rate[f] - m->B;

        gen_row(m, f, m->B + m->Bbb, Q + f * P);
        gen_row(m, f, m->B, QS + f * P);
        up[f] = m->cls[f] == FL_UP ? fmin(e, m->Bbb) / h : 0;
        for (int j = 0; j <= K; j++)
            dn[j * P + f] = m->cls[f] == FL_DOWN ? -e * (j * h < T - 1e-9 * h ? eps : 1.0) / h : 0;
    }
#define A1(j, a, b) (((j) == K ? QS : Q)[(a) * P + (b)] - ((a) == (b) ? ((j) < K ? up[a] : 0) + ((j) > 0 ? dn[(j) * P + (a)] : 0) : 0))
    for (int a = 0; a < P; a++)
        for (int b = 0; b < P; b++)
            U[a * P + b] = A1(K, a, b);
    for (int j = K - 1; j >= 0; j--) {
        double *Rj = R + (size_t)j * P * P;

        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                gsl_matrix_set(A, a, b, U[a * P + b]);
        gsl_linalg_LU_decomp(A, perm, &sg);
        gsl_linalg_LU_invert(A, perm, Ai);
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                Rj[a * P + b] = -up[a] * gsl_matrix_get(Ai, a, b);
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                U[a * P + b] = A1(j, a, b) + Rj[a * P + b] * dn[(j + 1) * P + b];
    }
#undef A1
    /* pi_0 U_0 = 0 with the first equation replaced by sum = 1 */
    for (int a = 0; a < P; a++)
        for (int b = 0; b < P; b++)
            gsl_matrix_set(A, b, a, b == 0 ? 1.0 : U[a * P + b]);
    gsl_vector_set(rhs, 0, 1.0);
    gsl_linalg_LU_decomp(A, perm, &sg);
    gsl_linalg_LU_solve(A, perm, rhs, x);
    for (int a = 0; a < P; a++)
        pi[a] = gsl_vector_get(x, a);
    for (int j = 0; j < K; j++)
        for (int b = 0; b < P; b++) {
            double s = 0;

            for (int a = 0; a < P; a++)
                s += pi[j * P + a] * R[(size_t)j * P * P + a * P + b];
            pi[(j + 1) * P + b] = s;
        }
    for (int i = 0; i < P * (K + 1); i++)
        tot += pi[i];
    *idle = *quiet = *occ = 0;
    for (int j = 0; j <= K; j++)
        for (int f = 0; f < P; f++) {
            double pr = pi[j * P + f] / tot, r = m->rate[f];
            double cap = j == K ? m->B : m->B + m->Bbb;

            *occ += pr * j * h;
            if (m->cls[f] == FL_UP)
                *idle += pr * fmax(r - cap, 0) / r;
            if (m->cls[f] == FL_UP)
                *quiet += pr * fmin(1, (j == K ? m->B : m->B + m->Bbb) / r);
            else if (m->cls[f] == FL_ZERO || j == 0)
                *quiet += pr;
            else if (j * h < T - 1e-9 * h)
                *quiet += (1 - eps) * pr;
        }
    free(Q);
    free(QS);
    free(up);
    free(dn);
    free(U);
    free(R);
    free(pi);
    gsl_matrix_free(A);
    gsl_matrix_free(Ai);
    gsl_permutation_free(perm);
    gsl_vector_free(x);
    gsl_vector_free(rhs);
}

/* Fourteen small cases, greedy and lazy, eight of them with a binding
 * B_BB (Q' not reversible; W4 to W6, random draws, have complex pairs of
 * modes, W4 and W5 with E > B).  W1: three
 * classes, B = 1, rates
 * m1 0.5 + m2 1.0 + m3 0.8, so phases (2, 0, 0) and (0, 1, 0) have r = B
 * exactly (zero drift), E < B; greedy, lazy with T = 4, EPS 0.3, and
 * T = S.  W2: two classes with E > B (the content is pushed to S), greedy
 * and lazy.  W3: one class of three sources, greedy.  The grid at K = 400,
 * 800, 1600: errors halve (first order), the Richardson extrapolations
 * 2 x(2K) - x(K) converge at second order towards the exact values and
 * are within 5e-5 of them. */
static void
grid_convergence(void **state)
{
    const bba_fluid_class w1[3] = { { 0.5, 0.3, 2, 2 }, { 1.0, 0.2, 5, 1 }, { 0.8, 0.15, 3.5, 1 } };
    const bba_fluid_class w2[2] = { { 1.6, 0.45, 3, 1 }, { 0.9, 0.3, 1.5, 1 } };
    const bba_fluid_class w3[1] = { { 0.7, 0.35, 4, 3 } };
    /* random draws whose Q' gives complex pairs */
    const bba_fluid_class w4[3] = { { 2.1524, 0.4407, 6.3678, 1 }, { 0.2482, 0.6228, 9.0344, 1 },
                                    { 1.6806, 0.4529, 10.3492, 1 } };
    const bba_fluid_class w5[2] = { { 0.5897, 0.5825, 3.7606, 2 }, { 1.9449, 0.2291, 1.6731, 2 } };
    const bba_fluid_class w6[4] = { { 2.1261, 0.1506, 1.7656, 2 }, { 1.6554, 0.0539, 3.0809, 2 },
                                    { 0.8562, 0.1421, 7.3837, 1 }, { 0.7212, 0.4044, 2.3173, 1 } };
    const struct { const bba_fluid_class *c; size_t n; double B, Bbb, T, eps; } cs[] = {
        { w1, 3, 1.0, 0, 0, 1 }, { w1, 3, 1.0, 0, 4, 0.3 }, { w1, 3, 1.0, 0, 10, 0.3 },
        { w2, 2, 0.9, 0, 0, 1 }, { w2, 2, 0.9, 0, 3, 0.2 }, { w3, 1, 1.0, 0, 0, 1 },
        { w1, 3, 1.0, 0.6, 0, 1 }, { w1, 3, 1.0, 0.6, 4, 0.3 }, { w2, 2, 0.9, 0.5, 0, 1 },
        { w3, 1, 1.0, 0.5, 0, 1 }, { w4, 3, 1.493, 0.3463, 0, 1 },
        { w4, 3, 1.493, 0.3463, 3, 0.3 }, { w5, 2, 0.9716, 0.5139, 0, 1 },
        { w6, 4, 1.281, 1.362, 0, 1 },
    };
    double S = 10;

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid *m = tu_fluid_bb(cs[i].c, cs[i].n, cs[i].B, cs[i].Bbb);
        bba_fluid_result r = eval(m, S, cs[i].T > 0, cs[i].T, cs[i].eps);
        double id[3], q[3], o[3];

        assert_int_equal(m->binds, cs[i].Bbb > 0);
        if (cs[i].c == w4 || cs[i].c == w5 || cs[i].c == w6)
            assert_true(m->greedy->cplx);

        if (cs[i].c == w1)
            assert_int_equal(m->n_zero, 2);
        if (cs[i].c == w2)
            assert_true(m->E > m->B);
        tu_assert_rel(test_E(m), m->E, 1e-13);
        for (int k = 0; k < 3; k++)
            grid_measures(m, S, cs[i].T, cs[i].eps, 400 << k, &id[k], &q[k], &o[k]);
        for (int k = 0; k < 2; k++) {
            double e0 = id[k] - r.idle, e1 = id[k + 1] - r.idle;

            assert_true(fabs(e0) > 1.6 * fabs(e1) && fabs(e0) < 2.4 * fabs(e1));
        }
        /* Richardson: second order towards the exact value */
        assert_true(fabs(2 * id[2] - id[1] - r.idle) < 0.4 * fabs(2 * id[1] - id[0] - r.idle));
        tu_assert_rel(2 * id[2] - id[1], r.idle, 5e-5);
        tu_assert_rel(2 * q[2] - q[1], r.quiet, 5e-6);
        tu_assert_rel(2 * o[2] - o[1], r.mean_occupancy_bytes, 2e-5);
        bba_fluid_free(m);
    }
}

/* The stall fraction of a phase process with the generator capped at cap
 * (gen_row), its law solved here by a dense LU: sum_f pi_f (r_f - cap)^+
 * / r_f, the share of each phase's offer it cannot write: at S = 0 (and with no phase below B at any S) cap = B,
 * the full-buffer generator Q^S; as S grows with a stable buffer and a
 * binding B_BB, cap = B + B_BB. */
static double
law_idle(const bba_fluid *m, double cap)
{
    int P = (int)m->P, sg;
    double idle = 0, *row = malloc(sizeof(double) * P);
    gsl_matrix *A = gsl_matrix_alloc(P, P);
    gsl_permutation *perm = gsl_permutation_alloc(P);
    gsl_vector *x = gsl_vector_alloc(P), *rhs = gsl_vector_calloc(P);

    for (int f = 0; f < P; f++) {
        gen_row(m, f, cap, row);
        for (int g = 0; g < P; g++)
            gsl_matrix_set(A, g, f, g == 0 ? 1.0 : row[g]);
    }
    gsl_vector_set(rhs, 0, 1.0);
    gsl_linalg_LU_decomp(A, perm, &sg);
    gsl_linalg_LU_solve(A, perm, rhs, x);
    for (int f = 0; f < P; f++)
        if (m->rate[f] > cap * (1 + 1e-12))
            idle += gsl_vector_get(x, f) * (m->rate[f] - cap) / m->rate[f];
    free(row);
    gsl_matrix_free(A);
    gsl_permutation_free(perm);
    gsl_vector_free(x);
    gsl_vector_free(rhs);
    return idle;
}

static double
idle_at_zero(const bba_fluid *m)
{
    return law_idle(m, m->B);
}

static void
size_zero_law(void **state)
{
    const bba_fluid_class w1[3] = { { 0.5, 0.3, 2, 2 }, { 1.0, 0.2, 5, 1 }, { 0.8, 0.15, 3.5, 1 } };
    const bba_fluid_class w2[2] = { { 1.6, 0.45, 3, 1 }, { 0.9, 0.3, 1.5, 1 } };
    const bba_fluid_class w3[1] = { { 0.7, 0.35, 4, 3 } };
    const bba_fluid_class w4[2] = { { 1.5e12, 0.10, 300, 1 }, { 2e12, 0.05, 180, 2 } };
    const bba_fluid_class w5[2] = { { 1.2, 0.5, 10, 2 }, { 0.3, 1.0, 1, 1 } };
    const struct { const bba_fluid_class *c; size_t n; double B; } cs[] = {
        { w1, 3, 1.0 }, { w2, 2, 0.9 }, { w3, 1, 1.0 }, { w4, 2, 1e12 }, { w5, 2, 0.3 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        bba_fluid *m = tu_fluid_bb(cs[i].c, cs[i].n, cs[i].B, 0);
        bba_fluid_result r = eval(m, 0, 0, 0, 1);
        double ref = idle_at_zero(m);

        tu_assert_rel(r.idle, ref, 1e-12);
        if (m->n_down == 0) { /* w5: every phase at or above B */
            bba_fluid_result r1 = eval(m, 7, 0, 0, 1);

            tu_assert_rel(r1.idle, ref, 1e-12);
            /* by hand: the phase is the number k of the two 1.2 sources
             * ON (the 0.3 one always is), r = 0.3, 1.5, 2.7, B = 0.3; at S
             * (always) 0 -> 1 at 2 lam = 0.2, 1 -> 2 at lam = 0.1, 1 -> 0
             * at mu B/1.5 = 0.02, 2 -> 1 at 2 mu B/2.7 = 0.2/9: the law is
             * (1, 10, 45)/56 and the stall fraction (10 (1.2/1.5) + 45
             * (2.4/2.7))/56 = 6/7 (not 1 - B/E = 0.8: three sources) */
            tu_assert_rel(r1.idle, 6.0 / 7.0, 1e-12);
            assert_true(r1.p_full == 1.0 || fabs(r1.p_full - 1) < 1e-14);
        }
        bba_fluid_free(m);
    }
}

/* ---- the discrete chain as its time unit shrinks -------------------------- */

/* B = 16 B/s, sources 24 B/s (p 0.2, L 3 s) and 12 B/s (p 0.3, L 2 s),
 * S = 48 B, greedy and lazy (T = 16 B, EPS 0.3).  With a quantum of 1 B
 * and time units u = 1, 1/2, 1/4 s the chain of onoff.h has B = 16, 8, 4
 * quanta and L = 3, 6, 12 units: its idle and quiet fractions converge at
 * first order (errors halve) and 2 x(u/4) - x(u/2) is within 0.2% of the
 * fluid value. */
static void
discrete_chain_limit(void **state)
{
    bba_fluid_class c[2] = { { 24, 0.2, 3, 1 }, { 12, 0.3, 2, 1 } };
    bba_fluid *m = tu_fluid_bb(c, 2, 16, 0);

    (void)state;
    for (int lazy = 0; lazy < 2; lazy++) {
        bba_fluid_result r = eval(m, 48, lazy, 16, 0.3);
        double idle[3], quiet[3];

        for (int k = 0; k < 3; k++) {
            int s = 1 << k;
            long b[2] = { 24 / s, 12 / s };
            double p[2] = { 0.2, 0.3 }, L[2] = { 3.0 * s, 2.0 * s };
            bba_onoff om;
            bba_onoff_opts oo;
            bba_eval_result er;
            bb_drain bp = { .kind = lazy, .unit = BB_DRAIN_QUANTA, .threshold = lazy ? 16 : 0, .eps = 0.3 };
            char err[BB_ERRLEN];

            assert_int_equal(bba_onoff_init(&om, 2, b, p, L, 16 / s, 1, 0, err), BB_OK);
            bba_onoff_defaults(&oo);
            assert_int_equal(bba_onoff_eval(&om, 48, &bp, &oo, &er, NULL, err), BB_OK);
            idle[k] = er.meas.idle;
            quiet[k] = er.meas.quiet;
            bba_onoff_free(&om);
        }
        for (int k = 0; k < 2; k++) {
            double ratio = (idle[k] - r.idle) / (idle[k + 1] - r.idle);

            assert_true(ratio > 1.5 && ratio < 2.6);
        }
        tu_assert_rel(2 * idle[2] - idle[1], r.idle, 2e-3);
        tu_assert_rel(2 * quiet[2] - quiet[1], r.quiet, 2e-3);
    }
    bba_fluid_free(m);
}

/* ---- the two spectra and the two boundary solvers ----------------------- */

/* Greedy without B_BB both spectra apply: the separable roots and the
 * dense eigenvalues agree, and so do the measures solved from either; the
 * factor-once path agrees with the whole dense system from small sizes
 * (every mode couples the two ends) to large (none does), here with E < B
 * and with E > B (the near end is then S), on one class of 200
 * sources (idle down to 1e-2000: its LU's pivoting order matters), and
 * on nine distinct binary sources (512 phases: the far block's atoms
 * span strides up to 256, a band too wide, so fluid_far.c factors them
 * sparse). */
static void
separable_vs_dense(void **state)
{
    const bba_fluid_class c[3] = { { 0.45, 0.2, 3, 3 }, { 0.7, 0.1, 7, 2 }, { 0.3, 0.25, 1.5, 2 } };
    const bba_fluid_class big = { 1.0, 0.3, 5, 200 };
    const double B[4] = { 1.0, 0.5, 75, 3.0 };
    bba_fluid_class bin[9];

    (void)state;
    for (int i = 0; i < 9; i++)
        bin[i] = (bba_fluid_class){ 0.6 + 0.15 * i, 0.05 + 0.02 * i, 1.0 + 0.5 * i, 1 };
    for (int k = 0; k < 4; k++) {
        bba_fluid *m = k < 2 ? tu_fluid_bb(c, 3, B[k], 0)
                       : k == 2 ? tu_fluid_bb(&big, 1, B[k], 0) : tu_fluid_bb(bin, 9, B[k], 0);
        fl_spec *sd;
        char err[BB_ERRLEN];
        double zmax = 0;

        assert_true(bba_fluid_separable(m));
        assert_true(k == 1 ? m->E > m->B : m->E < m->B);
        assert_int_equal(fl_spec_build(m, 1.0, 0, &sd, err), BB_OK);
        assert_false(sd->separable);
        assert_int_equal(sd->m, m->greedy->m);
        assert_int_equal(sd->mneg, m->greedy->mneg);
        for (long j = 0; j < sd->m; j++)
            zmax = fmax(zmax, fabs(sd->z[j]));
        for (long j = 0; j < sd->m; j++)
            assert_true(fabs(sd->z[j] - m->greedy->z[j]) < 1e-12 * zmax);
        for (double S = 0.05; S < 2000; S *= k == 3 ? 40 : 3.7) {
            const fl_spec *sp[1] = { sd };
            double x[2] = { 0, S };
            fl_sol s;
            bba_fluid_result rd, rf;

            /* the factor-once path itself (one class of 200 would take the
             * mode-free route of bba_fluid_eval) */
            assert_int_equal(fl_solve_fast(m, S, &s, err), BB_OK);
            assert_int_equal(fl_measures(m, &s, 1.0, &rf, err), BB_OK);
            fl_sol_free(&s);
            assert_true(rf.residual < 1e-10);

            assert_int_equal(fl_solve_dense(m, 1, sp, x, &s, err), BB_OK);
            assert_int_equal(fl_measures(m, &s, 1.0, &rd, err), BB_OK);
            fl_sol_free(&s);
            tu_assert_rel(rf.idle, rd.idle, 1e-9);
            tu_assert_rel(rf.log10_idle, rd.log10_idle, 1e-11);
            tu_assert_rel(rf.quiet, rd.quiet, 1e-11);
            tu_assert_rel(rf.mean_occupancy_bytes, rd.mean_occupancy_bytes, 1e-9);
            tu_assert_rel(rf.bb_in_Bps, rd.bb_in_Bps, 1e-9);
        }
        fl_spec_free(sd);
        bba_fluid_free(m);
    }
}

/* The lazy system (two regions, dense) tends to the greedy one (one
 * region, factor-once) as EPS -> 1 and as T -> 0: three classes of 48
 * phases, with and without a binding B_BB (general spectra), at sizes
 * where the ends couple. */
static void
lazy_tends_to_greedy(void **state)
{
    const bba_fluid_class c[3] = { { 0.45, 0.2, 3, 3 }, { 0.7, 0.1, 7, 2 }, { 0.3, 0.25, 1.5, 2 } };

    (void)state;
    for (int bw = 0; bw < 2; bw++) {
        bba_fluid *m = tu_fluid_bb(c, 3, 1.0, bw ? 0.9 : 0);

        for (double S = 0.3; S < 100; S *= 4.3) {
            bba_fluid_result g = eval(m, S, 0, 0, 1);
            bba_fluid_result e1 = eval(m, S, 1, 0.4 * S, 1 - 1e-9);
            bba_fluid_result t0 = eval(m, S, 1, 1e-10 * S, 0.3);

            tu_assert_rel(e1.idle, g.idle, 1e-7);
            tu_assert_rel(e1.quiet, g.quiet, 1e-7);
            tu_assert_rel(t0.idle, g.idle, 1e-7);
            tu_assert_rel(t0.mean_occupancy_bytes, g.mean_occupancy_bytes, 1e-7);
        }
        bba_fluid_free(m);
    }
}

/* ---- limits ----------------------------------------------------------------- */

/* With a positive drift the content stays near S and the lower boundary
 * decouples: the limit is the stall fraction of the process reflected at
 * S alone.  For several applications it is not 1 - B/E (that is the
 * load-weighted lost time, X -> B): checked here against the model at a
 * size where the lower end has decayed (S = 400 = 29 / z_min here, with
 * z_min about 0.073: the two agree to 1e-9) and far beyond (1e6), and
 * against the grid at S = 400 (h = 0.05, 0.025; Richardson to 5e-5, as
 * in grid_convergence).  Returns the limit. */
static double
full_limit(const bba_fluid *m)
{
    double lim = bba_fluid_idle_limit(m), id[2], q, o;

    assert_true(m->E > m->B);
    tu_assert_rel(eval(m, 400, 0, 0, 1).idle, lim, 1e-9);
    tu_assert_rel(eval(m, 1e6, 0, 0, 1).idle, lim, 1e-10);
    for (int k = 0; k < 2; k++)
        grid_measures(m, 400, 0, 1, 8000 << k, &id[k], &q, &o);
    tu_assert_rel(2 * id[1] - id[0], lim, 5e-5);
    assert_true(fabs(lim - (1 - m->B / m->E)) > 1e-3 * lim);
    return lim;
}

/* As S grows with E < B the idle fraction tends to 0 (by hand for two
 * sources: the phase law at S = 0 is the test's own solve); with E > B
 * the buffer stays near full, the PFS always busy and no byte lost (work
 * conservation), so X -> B and idle -> 1 - B/E: the closed form's limit
 * for one source, and the answer for E/B = 1.0015 (no size meets 1e-3). */
static void
limits(void **state)
{
    const bba_fluid_class c[2] = { { 2.0, 0.1, 10, 1 }, { 1.5, 0.2, 4, 1 } };

    (void)state;
    for (int bw = 0; bw < 3; bw++) {
        /* B_BB 2.5 never binds (the largest excess is 2.3); 0.5 binds in
         * the phases above 1.7: the limit is that of Q', capped at 1.7 */
        bba_fluid *m = tu_fluid_bb(c, 2, 1.2, bw == 1 ? 2.5 : bw == 2 ? 0.5 : 0);
        bba_fluid_result r0 = eval(m, 0, 0, 0, 1), rl = eval(m, 2000, 0, 0, 1);

        tu_assert_rel(r0.idle, idle_at_zero(m), 1e-13);
        if (bw < 2) {
            assert_true(bba_fluid_idle_limit(m) == 0.0);
            assert_true(rl.idle < 1e-30);
        } else {
            double lim = law_idle(m, 1.7);

            assert_true(lim > 0.01);
            tu_assert_rel(bba_fluid_idle_limit(m), lim, 1e-13);
            tu_assert_rel(rl.idle, lim, 1e-10);
        }
        bba_fluid_free(m);
    }
    {
        bba_fluid_class one = { 3.0, 0.6, 20, 1 };  /* E = 1.8 > B = 1.5 */
        bba_fluid *m = tu_fluid_bb(&one, 1, 1.5, 0);
        bba_fluid_result r = eval(m, 5e4, 0, 0, 1);
        double idle, pe, lg;

        closed_form(3.0, 0.6, 20, 1.5, INFINITY, 5e4, &idle, &pe, &lg);
        tu_assert_rel(r.idle, idle, 1e-12);
        tu_assert_rel(bba_fluid_idle_limit(m), 1 - 1.5 / 1.8, 1e-14);
        tu_assert_rel(r.idle, 1 - 1.5 / 1.8, 1e-9);
        bba_fluid_free(m);
    }
    {
        /* two applications, E = 0.99 > B = 0.9: the limit 0.1002 is
         * the process reflected at S (1 - B/E = 0.0909) */
        const bba_fluid_class w2[2] = { { 1.6, 0.45, 3, 1 }, { 0.9, 0.3, 1.5, 1 } };
        bba_fluid *m = tu_fluid_bb(w2, 2, 0.9, 0);

        full_limit(m);
        bba_fluid_free(m);
    }
    {
        bba_fluid_class one = { 2.003e12, 0.5, 60, 1 }; /* E/B = 1.0015 */
        bba_fluid *m = tu_fluid_bb(&one, 1, 1e12, 0);
        char err[BB_ERRLEN];
        double S;

        tu_assert_rel(bba_fluid_idle_limit(m), 1 - 1 / 1.0015, 1e-12);
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL, &S, NULL,
                                            NULL, err), BB_EINFEASIBLE);
        assert_int_equal(bba_fluid_size_min(m, 2e-3, NULL, 1e-4, 0, NULL, NULL, &S, NULL,
                                            NULL, err), BB_OK);
        assert_true(eval(m, S, 0, 0, 1).idle <= 2e-3);
        assert_true(eval(m, 0.99 * S, 0, 0, 1).idle > 2e-3);
        bba_fluid_free(m);
    }
}

/* ---- the searches ---------------------------------------------------------- */

/* The size meets the target and 0.99 of it does not, greedy and lazy;
 * infeasible when E >= B and when B_BB binds (with the bandwidth that
 * would do); too big for a size bound below the answer; a finite B_BB
 * that never binds answers as none. */
static void
size_search(void **state)
{
    const bba_fluid_class c[3] = { { 1.5e12, 0.10, 300, 1 }, { 2e12, 0.05, 180, 1 },
                                   { 0.6e12, 0.20, 120, 1 } };
    bb_drain lazy = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_FRACTION, .threshold = 0.3, .eps = 0.01 };
    char err[BB_ERRLEN];
    double S, bw;
    int ev;

    (void)state;
    for (int l = 0; l < 2; l++) {
        bba_fluid *m = tu_fluid_bb(c, 3, 1e12, 0);
        bba_fluid_result at;
        double T = l ? lazy.threshold : 0;

        assert_int_equal(bba_fluid_size_min(m, 1e-3, l ? &lazy : NULL, 1e-4, 0, NULL, NULL,
                                            &S, &at, &ev, err), BB_OK);
        assert_true(at.idle <= 1e-3);
        assert_true(eval(m, S, l, T * S, 0.01).idle <= 1e-3);
        assert_true(eval(m, 0.99 * S, l, T * 0.99 * S, 0.01).idle > 1e-3);
        /* and to the tolerance asked */
        assert_true(eval(m, (1 - 2e-4) * S, l, T * (1 - 2e-4) * S, 0.01).idle > 1e-3);
        assert_true(ev < 25);
        bba_fluid_free(m);
        if (l)
            continue;
        m = tu_fluid_bb(c, 3, 1e12, 0);
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0.5 * S, NULL, NULL,
                                            &bw, NULL, NULL, err),
                         BB_ETOOBIG);
        bba_fluid_free(m);
        m = tu_fluid_bb(c, 3, 1e12, 5e12); /* never binds: the same size */
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL,
                                            &bw, NULL, NULL, err), BB_OK);
        tu_assert_rel(bw, S, 1e-12);
        bba_fluid_free(m);
        m = tu_fluid_bb(c, 3, 0.3e12, 0); /* E = 0.37e12 > B */
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL,
                                            &S, NULL, NULL, err),
                         BB_EINFEASIBLE);
        /* three applications: the limit is the process reflected at S
         * (the model at a size where the lower end has decayed by e^-1000,
         * z about 1e-14 per byte), above 1 - B/E = 0.189 */
        tu_assert_rel(bba_fluid_idle_limit(m), eval(m, 1e17, 0, 0, 1).idle, 1e-10);
        assert_true(bba_fluid_idle_limit(m) > 1 - 0.3 / 0.37 + 0.01);
        bba_fluid_free(m);
        m = tu_fluid_bb(c, 3, 1e12, 0.4e12); /* the 2 TB/s phases wait below S */
        assert_true(bba_fluid_idle_limit(m) > 1e-3);
        tu_assert_rel(bba_fluid_idle_limit(m), law_idle(m, 1.4e12), 1e-12);
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL,
                                            &S, NULL, NULL, err),
                         BB_EINFEASIBLE);
        assert_non_null(strstr(err, "bandwidth"));
        assert_int_equal(bba_fluid_bbbw_min(m, 1e-3, &bw, err), BB_OK);
        bba_fluid_free(m);
        /* at that bandwidth the limit is the target: no finite size */
        m = tu_fluid_bb(c, 3, 1e12, bw);
        tu_assert_rel(bba_fluid_idle_limit(m), 1e-3, 1e-9);
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL,
                                            &S, NULL, NULL, err),
                         BB_EINFEASIBLE);
        bba_fluid_free(m);
        m = tu_fluid_bb(c, 3, 1e12, 1.05 * bw);
        assert_true(bba_fluid_idle_limit(m) < 1e-3);
        assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL,
                                            &S, NULL, NULL, err), BB_OK);
        assert_true(eval(m, S, 0, 0, 1).idle <= 1e-3);
        assert_true(eval(m, 0.99 * S, 0, 0, 1).idle > 1e-3);
        bba_fluid_free(m);
    }
}

/* B_BB for a target, by hand: one class of two sources of 1.0 (p 0.4,
 * L = 5, E = 0.8), B = 0.85: lam = 2/15, mu = 1/5.  For x in [0.15, 1.15)
 * only the two-ON phase (r 2.0) binds: its writers write (B + x)/2 = c2
 * of their offer, so in Q' 2 -> 1 goes at 2 mu c2; the law of the
 * birth-death chain is proportional to (1, 2 lam/mu, 2 lam/mu
 * lam/(2 mu c2)) = (1, 4/3, 4/(9 c2)), and the limit (lost time weighted
 * by load: both ON sources, sum p b = E) is pi_2 (1 - c2) =
 * 4 (1 - c2)/(21 c2 + 4).  Target t: c2 = 4 (1 - t)/(4 + 21 t); t = 0.05
 * gives c2 = 3.8/5.05 and x = 2 c2 - 0.85 = 0.6550 (inside the piece).
 * As x -> 0 the content stays at 0: the idle fraction of a buffer of size
 * 0 (the test's own solve); a target above it needs no bandwidth.
 * B = 0.7 < E: the buffer fills as it grows and the search refuses (the
 * limit, the process reflected at S, is 0.1418 here, not 1 - B/E = 0.125:
 * two applications; full_limit checks it). */
static void
bbbw_hand(void **state)
{
    bba_fluid_class c = { 1.0, 0.4, 5, 2 };
    bba_fluid *m = tu_fluid_bb(&c, 1, 0.85, 0);
    char err[BB_ERRLEN];
    double bw, h0 = idle_at_zero(m);

    (void)state;
    assert_int_equal(bba_fluid_bbbw_min(m, 0.05, &bw, err), BB_OK);
    tu_assert_rel(bw, 2 * 3.8 / 5.05 - 0.85, 1e-10);
    assert_true(h0 > 0.05 && h0 < 0.5);
    assert_int_equal(bba_fluid_bbbw_min(m, h0 * (1 + 1e-9), &bw, err), BB_OK);
    assert_true(bw == 0.0);
    assert_int_equal(bba_fluid_bbbw_min(m, 0.5, &bw, err), BB_OK);
    assert_true(bw == 0.0);
    bba_fluid_free(m);
    m = tu_fluid_bb(&c, 1, 0.7, 0);
    assert_true(full_limit(m) > 0.125);
    assert_int_equal(bba_fluid_bbbw_min(m, 0.1, &bw, err), BB_EINFEASIBLE);
    assert_non_null(strstr(err, "E = 0.8 B/s > B = 0.7 B/s"));
    bba_fluid_free(m);
}

/* The best threshold keeps idle <= target and is at least as quiet as
 * greedy; the refined edge has idle within the tolerance of the target. */
static void
threshold_search(void **state)
{
    const bba_fluid_class c[3] = { { 1.5e12, 0.10, 300, 1 }, { 2e12, 0.05, 180, 1 },
                                   { 0.6e12, 0.20, 120, 1 } };
    bba_fluid *m = tu_fluid_bb(c, 3, 1e12, 0);
    bba_fluid_threshold_result t;
    char err[BB_ERRLEN];
    double S;

    (void)state;
    /* a size a tenth above the greedy one for the target */
    assert_int_equal(bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL, &S, NULL, NULL,
                                        err), BB_OK);
    S *= 1.1;
    assert_int_equal(bba_fluid_threshold_best(m, S, 1e-3, 0.01, 10, 1e-3, NULL, NULL,
                                              &t, err), BB_OK);
    assert_true(t.feasible);
    assert_true(t.best.idle <= 1e-3 && t.best.idle > 0.8e-3);
    assert_true(t.best.quiet > t.greedy.quiet);
    assert_true(t.threshold_bytes > 0 && t.threshold_bytes < S);
    assert_true(t.monotone_idle);
    tu_assert_rel(eval(m, S, 1, t.threshold_bytes, 0.01).quiet, t.best.quiet, 1e-12);
    bba_fluid_free(m);
}

/* Every bound the fluid searches state holds: the last (the lowest) is at
 * least the solves taken, counted by the search itself, over workloads of
 * one to five classes (separable and dense spectra), targets, greedy and
 * lazy, tolerances, no size bound and bounds above and below the answer,
 * and the threshold search over grids coarse and fine. */
static void
search_bounds_hold(void **state)
{
    const bba_fluid_class w[][5] = {
        { { 1.5e12, 0.10, 300, 1 }, { 2e12, 0.05, 180, 1 }, { 0.6e12, 0.20, 120, 1 } },
        { { 2.5e12, 0.30, 60, 1 } },
        { { 0.4e12, 0.25, 600, 3 }, { 0.9e12, 0.05, 30, 2 } },
        { { 0.3e12, 0.1, 100, 1 }, { 0.5e12, 0.2, 200, 1 }, { 0.7e12, 0.05, 50, 1 },
          { 0.2e12, 0.4, 400, 2 }, { 1.1e12, 0.02, 20, 1 } },
    };
    const size_t nc[] = { 3, 1, 2, 5 };
    const double Bbb[] = { 0, 0, 1.5e12, 0 };
    const double targets[] = { 1e-2, 1e-4, 1e-7 }, tols[] = { 1e-4, 1e-8 };
    char err[BB_ERRLEN];

    (void)state;
    for (size_t k = 0; k < sizeof nc / sizeof nc[0]; k++) {
        bba_fluid *m = tu_fluid_bb(w[k], nc[k], 1e12, Bbb[k]);

        for (size_t t = 0; t < 3; t++)
            for (int lazy = 0; lazy <= 1; lazy++)
                for (size_t e = 0; e < 2; e++) {
                    bb_drain ps = { .kind = lazy, .unit = BB_DRAIN_FRACTION, .threshold = 0.3, .eps = 0.01 };
                    tu_progress_rec rec = { 0, 0, 0 };
                    double S, caps[3];
                    int ev, rc;

                    rc = bba_fluid_size_min(m, targets[t], &ps, tols[e], 0,
                                            tu_progress_record, &rec, &S, NULL, &ev, err);
                    /* B_BB binds for the smallest target */
                    assert_true(rc == BB_OK || (Bbb[k] > 0 && rc == BB_EINFEASIBLE));
                    assert_int_equal(rec.calls, ev + 1);
                    assert_true(rec.most >= ev);
                    if (rc != BB_OK)
                        continue;
                    caps[0] = 0.5 * S;
                    caps[1] = S * (1 + tols[e]);
                    caps[2] = 30 * S;
                    for (size_t c = 0; c < 3 && S > 0; c++) {
                        tu_progress_rec rc2 = { 0, 0, 0 };
                        double Sc;

                        rc = bba_fluid_size_min(m, targets[t], &ps, tols[e], caps[c],
                                                tu_progress_record, &rc2, &Sc, NULL, &ev, err);
                        assert_true(rc == BB_OK || (c == 0 && rc == BB_ETOOBIG));
                        assert_int_equal(rc2.calls, ev + 1);
                        assert_true(rc2.most >= ev);
                    }
                    if (lazy || e)
                        continue;
                    for (int grid = 1; grid <= 16; grid *= 4) {
                        bba_fluid_threshold_result tr;
                        tu_progress_rec rt = { 0, 0, 0 };

                        assert_int_equal(bba_fluid_threshold_best(m, 2 * S, targets[t], 0.01,
                                                                  grid, 1e-3,
                                                                  tu_progress_record, &rt, &tr,
                                                                  err),
                                         BB_OK);
                        assert_int_equal(rt.calls, tr.evaluations + 1);
                        assert_true(rt.most >= tr.evaluations);
                    }
                }
        bba_fluid_free(m);
    }
}

/* ---- errors, and concurrent evaluations ------------------------------------ */

static void
errors(void **state)
{
    bba_fluid_class ok = { 1.0, 0.3, 5, 2 }, bad;
    bba_fluid_opts o = { 1.0, 0, 0, 0 };
    bba_fluid *m = NULL;
    bba_fluid_result r;
    bb_drain pol = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_BYTES, .threshold = 2.0, .eps = 0.5 };
    char err[BB_ERRLEN];

    (void)state;
    bad = ok;
    bad.p = 1.5;
    assert_int_equal(bba_fluid_new(&bad, 1, &o, &m, err), BB_EINVAL);
    assert_non_null(strstr(err, "class 1"));
    bad = ok;
    bad.burst_s = 0;
    assert_int_equal(bba_fluid_new(&bad, 1, &o, &m, err), BB_EINVAL);
    bad = ok;
    bad.rate_Bps = -1;
    assert_int_equal(bba_fluid_new(&bad, 1, &o, &m, err), BB_EINVAL);
    bad = ok;
    bad.count = -2;
    assert_int_equal(bba_fluid_new(&bad, 1, &o, &m, err), BB_EINVAL);
    o.pfs_bw_Bps = 0;
    assert_int_equal(bba_fluid_new(&ok, 1, &o, &m, err), BB_EINVAL);
    o.pfs_bw_Bps = 1.0;
    o.max_phases = 2;
    assert_int_equal(bba_fluid_new(&ok, 1, &o, &m, err), BB_ETOOBIG);
    o.max_phases = 0;
    o.mem_limit_bytes = 10;
    assert_int_equal(bba_fluid_new(&ok, 1, &o, &m, err), BB_ETOOBIG);
    assert_null(m);
    m = tu_fluid_bb(&ok, 1, 1.0, 0);
    assert_int_equal(bba_fluid_eval(m, -1, NULL, &r, err), BB_EINVAL);
    assert_int_equal(bba_fluid_eval(m, NAN, NULL, &r, err), BB_EINVAL);
    assert_int_equal(bba_fluid_eval(m, 1.0, &pol, &r, err), BB_EINVAL); /* T > S */
    pol.threshold = 0.5;
    pol.eps = 0;
    assert_int_equal(bba_fluid_eval(m, 1.0, &pol, &r, err), BB_EINVAL);
    assert_int_equal(bba_fluid_size_min(m, 0, NULL, 1e-3, 0, NULL, NULL, &r.idle, NULL, NULL, err),
                     BB_EINVAL);
    bba_fluid_free(m);
    bba_fluid_free(NULL);
}

typedef struct {
    const bba_fluid *m;
    double out[12];
} th_arg;

static void *
th_run(void *p)
{
    th_arg *a = p;

    for (int i = 0; i < 12; i++) {
        bba_fluid_result r;
        bb_drain pol = { .kind = i % 3 == 0, .unit = BB_DRAIN_BYTES, .threshold = 0.2 * (i + 1) * 10, .eps = i % 2 ? 0.1 : 0.2 };

        a->out[i] = bba_fluid_eval(a->m, (i + 1) * 10, &pol, &r, NULL) == BB_OK ? r.idle : -1;
    }
    return NULL;
}

/* Two threads on one model fill its caches (factors, coupled columns,
 * lazy spectra) as they go: the same answers as one thread alone. */
static void
concurrent(void **state)
{
    const bba_fluid_class c[2] = { { 0.45, 0.2, 3, 4 }, { 0.7, 0.1, 7, 3 } };
    bba_fluid *m1 = tu_fluid_bb(c, 2, 1.0, 0), *m2 = tu_fluid_bb(c, 2, 1.0, 0);
    th_arg a = { m1, { 0 } }, b = { m1, { 0 } }, ref = { m2, { 0 } };
    pthread_t t1, t2;

    (void)state;
    th_run(&ref);
    assert_int_equal(pthread_create(&t1, NULL, th_run, &a), 0);
    assert_int_equal(pthread_create(&t2, NULL, th_run, &b), 0);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    for (int i = 0; i < 12; i++) {
        assert_true(ref.out[i] > 0);
        assert_true(a.out[i] == ref.out[i] && b.out[i] == ref.out[i]);
    }
    bba_fluid_free(m1);
    bba_fluid_free(m2);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_source_closed_form),
        cmocka_unit_test(log10_idle_underflow),
        cmocka_unit_test(grid_convergence),
        cmocka_unit_test(size_zero_law),
        cmocka_unit_test(discrete_chain_limit),
        cmocka_unit_test(separable_vs_dense),
        cmocka_unit_test(lazy_tends_to_greedy),
        cmocka_unit_test(limits),
        cmocka_unit_test(size_search),
        cmocka_unit_test(bbbw_hand),
        cmocka_unit_test(threshold_search),
        cmocka_unit_test(search_bounds_hold),
        cmocka_unit_test(errors),
        cmocka_unit_test(concurrent),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
