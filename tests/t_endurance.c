/* t_endurance.c: the volume written into the burst buffer and the
 * endurance size (endurance.h, answer.h bba_front_endure): a chain worked
 * by hand, the flow balance (into the buffer = drained from it) against
 * the stationary distribution with every solver, greedy and lazy, the
 * ON/OFF chain's formula against the plain chain's where the two models
 * coincide, the rating arithmetic, and the endurance size as the least
 * fixed point on the quantum grid.  (The simulator's volume covers the
 * chain's in t_bbsim.)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "testutil.h"

/* One application writing 2 quanta with probability 1/2, B = 1, S = 1.
 * States 0, 1 (normal) and 2 (overflow: buffer 1, 1 held): 0 -> 0 or 1,
 * 1 -> 0 or 2, 2 -> 1.  pi = (0.4, 0.4, 0.2): idle 0.2.  Into the buffer:
 * from 0 a write puts 1 in (0.4 x 0.5 x 1); from 1 the buffer is full and
 * the write is held; so W = 0.2 a unit, not (1 - idle) E[(K - B)+] = 0.4,
 * which would count the held quantum as written into the buffer. */
static void
test_by_hand(void **state)
{
    const long b[] = { 2 };
    const double p[] = { 0.5 };
    const bba_solver_kind kinds[] = { BBA_SOLVER_FFT, BBA_SOLVER_BANDED, BBA_SOLVER_UMFPACK };
    bba_model m;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 1, b, p, 1, 0, err), BB_OK);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
        bba_solver_opts so;
        bba_eval_result r;

        tu_solver(&so, kinds[i]);
        assert_int_equal(bba_eval(&m, 1, &g, &so, &r, NULL, err), BB_OK);
        assert_float_equal(r.meas.idle, 0.2, 1e-12);
        assert_float_equal(r.meas.bb_in, 0.2, 1e-12);
    }
    {
        const double pi[] = { 0.4, 0.4, 0.2 };

        assert_float_equal(bba_bbin_chain(m.dist, m.M, m.B, 1, pi), 0.2, 1e-15);
        /* S = 0: nothing ever enters */
        assert_float_equal(bba_bbin_chain(m.dist, m.M, m.B, 0, pi), 0, 0);
    }
    bba_model_free(&m);
}

/* The flow balance, computed here from the transitions of chain.h rather
 * than from the formula: in steady state what enters the buffer leaves it.
 * Normal j, load k <= B: the PFS drains min(j, B - k) (lazy below the
 * threshold only with probability EPS); overflow j > S (buffer S, j - S
 * held): the PFS takes the held data first, then min(S, B - (j - S)) from
 * the buffer. */
static double
drained(const bba_model *m, long S, const bb_drain *pol, const double *pi, long n_states)
{
    double out = 0;

    for (long j = 0; j <= S; j++) {
        double keep = pol->kind == BB_DRAIN_LAZY && j < pol->threshold ? pol->eps : 1.0;

        for (long k = 0; k < m->B && k <= m->M; k++) {
            long d = j < m->B - k ? j : m->B - k;

            out += pi[j] * m->dist[k] * keep * (double)d;
        }
    }
    for (long j = S + 1; j < n_states; j++) {
        long h = j - S, d = m->B - h;

        if (d > S)
            d = S;
        if (d > 0)
            out += pi[j] * (double)d;
    }
    return out;
}

static void
test_flow_balance(void **state)
{
    const bba_solver_kind kinds[] = { BBA_SOLVER_FFT, BBA_SOLVER_BANDED, BBA_SOLVER_UMFPACK,
                                      BBA_SOLVER_GAUSS_SEIDEL };
    char err[BB_ERRLEN];

    (void)state;
    for (unsigned long seed = 1; seed <= 4; seed++) {
        tu_workload w;
        bba_model m;

        tu_random(&w, 5, 25, 0.35, 20, seed);
        tu_model(&m, &w);
        for (int lazy = 0; lazy <= 1; lazy++)
            for (long S = 0; S <= 90; S += 30) {
                bb_drain pol = { .kind = lazy, .unit = BB_DRAIN_QUANTA, .threshold = lazy ? S / 3 : 0, .eps = 0.05 };
                bba_solver_opts so;
                bba_eval_result r, rk;
                double *pi = NULL, out;

                tu_solver(&so, BBA_SOLVER_BANDED);
                assert_int_equal(bba_eval(&m, S, &pol, &so, &r, &pi, err), BB_OK);
                out = drained(&m, S, &pol, pi, r.n_states);
                free(pi);
                assert_float_equal(r.meas.bb_in, out, 1e-10 * (out + 1e-3));
                if (S > 0)
                    assert_true(r.meas.bb_in > 0);
                for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
                    tu_solver(&so, kinds[i]);
                    assert_int_equal(bba_eval(&m, S, &pol, &so, &rk, NULL, err), BB_OK);
                    assert_float_equal(rk.meas.bb_in, r.meas.bb_in, 1e-9 * (out + 1e-3));
                }
            }
        bba_model_free(&m);
    }
}

/* Memoryless applications given a phase each (all_phases), with loads and
 * sizes whole multiples of B (so that the ON/OFF chain's stalls, its
 * excess over B, are whole units), are the chain of chain.h exactly
 * (onoff.h), so the ON/OFF formula over phases and D0 must give the
 * chain's volume; with half the applications in D0 too. */
static void
test_onoff_matches_chain(void **state)
{
    tu_workload w;
    bba_model m;
    double L[32];
    char err[BB_ERRLEN];

    (void)state;
    tu_random(&w, 4, 12, 0.4, 10, 11);
    for (size_t i = 0; i < w.n; i++) {
        L[i] = 1.0 / (1.0 - w.p[i]);
        w.b[i] = 10 * (1 + (w.b[i] - 1) / 6); /* 10 or 20 */
    }
    tu_model(&m, &w);
    for (int all = 0; all <= 1; all++)
        for (long S = 0; S <= 40; S += 20) {
            bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
            bba_solver_opts so;
            bba_onoff_opts oo;
            bba_onoff o;
            bba_eval_result r, ro;
            double *x = NULL, w_on;

            tu_solver(&so, BBA_SOLVER_BANDED);
            assert_int_equal(bba_eval(&m, S, &g, &so, &r, NULL, err), BB_OK);
            assert_int_equal(bba_onoff_init(&o, w.n, w.b, w.p, L, w.B, all, 0, err), BB_OK);
            bba_onoff_defaults(&oo);
            assert_int_equal(bba_onoff_eval(&o, S, &g, &oo, &ro, &x, err), BB_OK);
            w_on = bba_bbin_onoff(&o, S, x, ro.meas.stalled);
            free(x);
            bba_onoff_free(&o);
            assert_float_equal(w_on, r.meas.bb_in, 1e-9 * (r.meas.bb_in + 1e-3));
        }
    bba_model_free(&m);
}

/* A phase whose load exceeds B by more than the free room, worked by hand:
 * one phase of load L = 10^15 quanta (a phase load the front door can
 * build, issue 38: 2,000 TB/s bursts at 1 TB/s), no memoryless load (D0 =
 * 1 at 0), B = 1, S = 2.  Every normal state fills the buffer:
 * min((L - B)+, S - j) = S - j, so with x = (0.5, 0.25, 0.25) over the
 * levels W = (0.5 x 2 + 0.25 x 1 + 0) x (1 - idle) = 1.25 x 0.8 = 1.0.
 * B - L is far below 0: the sum is ones only (it once read cum[B - L + S],
 * before the array, and crashed). */
static void
test_phase_far_above(void **state)
{
    long load = 1000000000000000L;
    double D0[] = { 1.0 };
    const double x[] = { 0.5, 0.25, 0.25 };
    bba_onoff o;

    (void)state;
    memset(&o, 0, sizeof o);
    o.n_phases = 1;
    o.phase_load = &load;
    o.M0 = 0;
    o.D0 = D0;
    o.B = 1;
    assert_float_equal(bba_bbin_onoff(&o, 2, x, 0.2), 1.0, 1e-15);
    load = 2;   /* L - B = 1 < S - j for j = 0: 0.5 x 1 + 0.25 x 1 + 0 */
    assert_float_equal(bba_bbin_onoff(&o, 2, x, 0.2), 0.75 * 0.8, 1e-15);
}

/* 1 GB/s written, drives rated 1 DWPD over 5 years, write amplification 2,
 * 10 years of service: 86.4 TB a day x 2 x 10 / (1 x 5) = 345.6 TB. */
static void
test_rating(void **state)
{
    bba_endurance e = { 1.0, 5.0, 10.0, 2.0 };
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_endurance_check(&e, err), BB_OK);
    assert_float_equal(bba_endurance_bytes(&e, 1e9), 345.6e12, 1e-3);
    assert_float_equal(bba_endurance_bytes(&e, 0), 0, 0);
    assert_true(isnan(bba_endurance_bytes(&e, NAN)));
    assert_float_equal(bba_drive_writes_per_day(1e9, 86.4e12), 1.0, 1e-15);
    assert_true(isnan(bba_drive_writes_per_day(1e9, 0)));
    e.waf = 0.5;
    assert_int_equal(bba_endurance_check(&e, err), BB_EINVAL);
    assert_non_null(strstr(err, "amplification"));
    e.waf = 1;
    e.dwpd = 0;
    assert_int_equal(bba_endurance_check(&e, err), BB_EINVAL);
    e.dwpd = 1;
    e.lifetime_years = -1;
    assert_int_equal(bba_endurance_check(&e, err), BB_EINVAL);
    e.lifetime_years = 1;
    e.rated_years = NAN;
    assert_int_equal(bba_endurance_check(&e, err), BB_EINVAL);
}

/* Through the front door: the endurance size is the least size on the
 * quantum grid, at or above the stall size, whose drives last: it lasts,
 * one quantum less does not; a generous rating leaves the stall size. */
static void
test_front_endure(void **state)
{
    bba_app apps[3];
    bba_question q;
    bba_front *f;
    bba_answer a, e, e1;
    bb_drain d = { 0, 0, 0, 0.01 };
    bba_endurance rate = { 0.5, 5, 5, 2.0 }, lax = { 1000, 5, 5, 1 };
    char err[BB_ERRLEN];
    int binds;
    double need;

    (void)state;
    memset(apps, 0, sizeof apps);
    apps[0] = (bba_app){ "a", 0.05, 800e9, 0, 0 };
    apps[1] = (bba_app){ "b", 0.2, 200e9, 0, 0 };
    apps[2] = (bba_app){ "c", 0.1, 400e9, 0, 0 };
    bba_question_init(&q);
    q.apps = apps;
    q.n = 3;
    q.pf.pfs_bw_Bps = 300e9;
    q.pf.time_unit_s = 60;
    q.pf.resolution = 100;
    q.time_unit_given = 1;
    assert_int_equal(bba_front_new(&q, &f, err), BB_OK);
    assert_int_equal(bba_front_size(f, 1e-3, &d, &a, err), BB_OK);
    assert_true(a.bb_write_Bps > 0);
    assert_int_equal(bba_front_endure(f, &a, &d, &lax, &e, &binds, err), BB_OK);
    assert_int_equal(binds, 0);
    assert_float_equal(e.S_bytes, a.S_bytes, 0);
    assert_int_equal(bba_front_endure(f, &a, &d, &rate, &e, &binds, err), BB_OK);
    assert_int_equal(binds, 1);
    assert_true(e.S_bytes > a.S_bytes);
    assert_true(e.bb_write_Bps >= a.bb_write_Bps);   /* W grows with S */
    need = bba_endurance_bytes(&rate, e.bb_write_Bps);
    assert_true(need <= e.S_bytes);
    assert_int_equal(bba_front_idle(f, e.S_bytes - e.quantum_bytes, &d, &e1, err), BB_OK);
    assert_true(bba_endurance_bytes(&rate, e1.bb_write_Bps) > e1.S_bytes);
    /* the figures the size search reported stay with the answer */
    assert_float_equal(e.bb_bw_min_Bps, a.bb_bw_min_Bps, 0);
    bba_front_free(f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_flow_balance),
        cmocka_unit_test(test_onoff_matches_chain),
        cmocka_unit_test(test_phase_far_above),
        cmocka_unit_test(test_rating),
        cmocka_unit_test(test_front_endure),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
