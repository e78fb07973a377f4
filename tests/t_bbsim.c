/* t_bbsim.c: tests of the burst-buffer platform model (sim/bb): hand-worked
 * stall patterns, conservation, determinism, the Bernoulli simulation
 * against the analytic chain over many seeds (coverage of the interval and
 * bias, the volume into the buffer included), the quasi-periodic fluid
 * limit, and bad configurations.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "bbanalytic.h"
#include "bbsim.h"

static bbs_bb_config
config(size_t n, const long *b, const double *p, long B, long S, long T)
{
    bbs_bb_config c;

    memset(&c, 0, sizeof c);
    c.pol.unit = BB_DRAIN_QUANTA;   /* the simulator takes the threshold in quanta */
    c.n = n;
    c.b = b;
    c.p = p;
    c.B = B;
    c.S = S;
    c.horizon_units = T;
    c.time_unit_s = 1.0;
    c.seed = 1;
    return c;
}

static void
check_conservation(const bbs_bb_result *r)
{
    double pfs = r->to_pfs_direct + r->bb_to_pfs + r->held_to_pfs;

    assert_float_equal(r->written, pfs + r->left_in_bb + r->held, 1e-9 * (r->written + 1));
    assert_true(r->conservation_error <= 1e-9 * (r->written + 1));
}

/* One application always writing 15 quanta, B = 10.
 * S = 0: write (5 held), stall, write, stall ...: idle 1/2, quiet 1/2.
 * S = 5: fill 5, hold 5, stall (held 5 + buffer 5): idle 1/3.
 * With B_BB (analytic/chain/bbbw.h), writing 24 with B = 10, B_BB = 2 takes
 * c = (24 - 12)/12 = 1 more unit, exactly: each write of 24 is a normal
 * unit (B to the PFS, 4 into the buffer, 10 held) and one stall (the
 * held 10 to the PFS): idle 1/2, 4 more in the buffer per 2 units, every
 * normal unit quiet; the fluid rule's (r - B - B_BB)/r = 12/24 too. */
static void
test_hand_worked_stalls(void **state)
{
    const long b[] = { 15 };
    const double p[] = { 1.0 };
    bbs_bb_config c = config(1, b, p, 10, 0, 12);
    bbs_bb_result r;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_bb_run(&c, 0, &r, err), BB_OK);
    assert_float_equal(r.idle, 0.5, 1e-15);
    assert_float_equal(r.quiet, 0.5, 1e-15);
    assert_float_equal(r.written, 6 * 15, 1e-12);
    assert_float_equal(r.p_empty, 1.0, 1e-15);
    assert_int_equal(r.events, 12);
    check_conservation(&r);

    c.S = 5;
    assert_int_equal(bbs_bb_run(&c, 0, &r, err), BB_OK);
    assert_float_equal(r.idle, 4.0 / 12.0, 1e-15);
    /* Normal units start at 0 and 5 in turn: mean occupancy 2.5. */
    assert_float_equal(r.mean_occupancy, 2.5, 1e-15);
    assert_float_equal(r.written, 8 * 15, 1e-12);
    check_conservation(&r);

    {
        const long b24[] = { 24 };
        bbs_bb_config t = config(1, b24, p, 10, 1000, 12);

        t.bb_bw = 2;
        assert_int_equal(bbs_bb_run(&t, 0, &r, err), BB_OK);
        assert_float_equal(r.idle, 0.5, 1e-15);
        assert_float_equal(r.quiet, 0.5, 1e-15);
        assert_float_equal(r.to_bb, 6 * 4, 1e-12);
        assert_float_equal(r.held_to_pfs, 6 * 10, 1e-12);
        assert_float_equal(r.p_full, 0, 0);
        check_conservation(&r);
    }

    /* Warm-up: the first 2 units are not measured. */
    c.bb_bw = 0;
    c.warmup_units = 2;
    c.horizon_units = 3;
    assert_int_equal(bbs_bb_run(&c, 0, &r, err), BB_OK);
    /* units 0..4: write, write, stall, write, write: measured 2..4. */
    assert_float_equal(r.idle, 1.0 / 3.0, 1e-15);
}

/* Lazy draining (Algorithm 4): with EPS = 1, or THRESHOLD = 0, it is the
 * greedy policy draw for draw; with EPS = 0 and THRESHOLD = S the buffer
 * drains only in stalls, so it is quiet more often, moves less to the PFS
 * between stalls and stalls more. */
static void
test_lazy_policy_limits(void **state)
{
    const long b[] = { 8, 6, 5 };
    const double p[] = { 0.5, 0.3, 0.2 };
    bbs_bb_config c = config(3, b, p, 10, 20, 3000);
    bbs_bb_result g, l;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_bb_run(&c, 0, &g, err), BB_OK);
    c.pol.kind = BB_DRAIN_LAZY;
    c.pol.threshold = 20;
    c.pol.eps = 1.0;
    assert_int_equal(bbs_bb_run(&c, 0, &l, err), BB_OK);
    assert_memory_equal(&g, &l, offsetof(bbs_bb_result, events));
    c.pol.threshold = 0;
    c.pol.eps = 0.0;
    assert_int_equal(bbs_bb_run(&c, 0, &l, err), BB_OK);
    assert_memory_equal(&g, &l, offsetof(bbs_bb_result, events));
    c.pol.threshold = 20;
    assert_int_equal(bbs_bb_run(&c, 0, &l, err), BB_OK);
    assert_true(l.quiet > g.quiet);
    assert_true(l.idle > g.idle);
    assert_true(l.mean_occupancy > g.mean_occupancy);
    check_conservation(&l);
}

static void
test_same_seed_same_result_other_seed_differs(void **state)
{
    const long b[] = { 8, 6, 5 };
    const double p[] = { 0.5, 0.3, 0.2 };
    bbs_bb_config c = config(3, b, p, 10, 5, 2000);
    bbs_bb_result r1, r2, r3;
    char err[BB_ERRLEN];

    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        c.mode = mode ? BBS_BB_PERIODIC : BBS_BB_BERNOULLI;
        c.d_min_tu = 2.0;
        c.noise = 0.2;
        c.seed = 11;
        assert_int_equal(bbs_bb_run(&c, 3, &r1, err), BB_OK);
        assert_int_equal(bbs_bb_run(&c, 3, &r2, err), BB_OK);
        assert_memory_equal(&r1, &r2, sizeof r1);
        c.seed = 12;
        assert_int_equal(bbs_bb_run(&c, 3, &r3, err), BB_OK);
        assert_true(r3.written != r1.written);
        c.seed = 11;
        assert_int_equal(bbs_bb_run(&c, 4, &r3, err), BB_OK);   /* other unit */
        assert_true(r3.written != r1.written);
        check_conservation(&r1);
        check_conservation(&r3);
    }
}

/* Bernoulli mode is the chain: 40 experiments (seeds), each 10
 * replications of 2000 units, on a chain small enough to solve exactly.
 * The 95% interval must cover the analytic idle fraction in 85% to 100% of
 * them (binomial(40, 0.95) is below 34 with probability 1.4%), and the
 * mean relative error over the experiments must be under 2% (its standard
 * error is about 0.6% here: a simulator off by a few percent fails).
 * With a burst-buffer bandwidth (bb_bw > 0, analytic/chain/bbbw.h) the same must
 * hold for the throttled chain, and the chain that ignores B_BB (the
 * plain one) must fail the coverage, so that the test can tell. */
static void
coverage(const bb_drain *pol, long S, long bb_bw)
{
    const long b[] = { 8, 6, 5 };
    const double p[] = { 0.5, 0.3, 0.2 };
    enum { EXPERIMENTS = 40, R = 10 };
    bbs_bb_config c = config(3, b, p, 10, S, 2000);
    bba_model m;
    bba_solver_opts so;
    bba_eval_result ev;
    bbs_bb_result res[R];
    bbs_bb_summary s;
    char err[BB_ERRLEN];
    int covered = 0, covered_in = 0, covered_naive = 0;
    double rel = 0.0, quiet_rel = 0.0, full_rel = 0.0, occ_rel = 0.0, in_rel = 0.0;
    double naive = 0.0;   /* (1 - idle) E[(K - B)+]: counts held data as written */

    bba_eval_result plain;
    int covered_plain = 0;

    c.pol = *pol;
    c.bb_bw = bb_bw;
    bba_solver_defaults(&so);
    assert_int_equal(bba_model_init(&m, 3, b, p, 10, 0, err), BB_OK);
    assert_int_equal(bba_eval(&m, S, pol, &so, &plain, NULL, err), BB_OK);
    assert_int_equal(bba_model_set_bbbw(&m, bb_bw, err), BB_OK);
    assert_int_equal(bba_eval(&m, S, pol, &so, &ev, NULL, err), BB_OK);
    assert_true(ev.meas.idle > 0.01);   /* a measurable target */
    for (long k = m.B + 1; k <= m.M; k++)
        naive += m.dist[k] * (double)(k - m.B);
    naive *= 1.0 - plain.meas.idle;
    for (int x = 0; x < EXPERIMENTS; x++) {
        c.seed = 1000 + (uint64_t)x;
        assert_int_equal(bbs_replicate_run(R, sizeof res[0], res, bbs_bb_grid_unit, &(bbs_bb_grid){ &c, R }, 2,
                                           NULL, NULL, err), BB_OK);
        assert_int_equal(bbs_bb_summarize(res, R, 0.95, &s, err), BB_OK);
        covered += s.idle_lo <= ev.meas.idle && ev.meas.idle <= s.idle_hi;
        covered_plain += s.idle_lo <= plain.meas.idle && plain.meas.idle <= s.idle_hi;
        rel += (s.idle_mean - ev.meas.idle) / ev.meas.idle / EXPERIMENTS;
        quiet_rel += (s.quiet_mean - ev.meas.quiet) / ev.meas.quiet / EXPERIMENTS;
        full_rel += (s.p_full_mean - ev.meas.p_full) / ev.meas.p_full / EXPERIMENTS;
        occ_rel += (s.occ_mean - ev.meas.mean_load) / ev.meas.mean_load / EXPERIMENTS;
        /* the volume into the buffer (analytic/questions/endurance.h) */
        covered_in += s.bb_in_lo <= ev.meas.bb_in && ev.meas.bb_in <= s.bb_in_hi;
        covered_naive += s.bb_in_lo <= naive && naive <= s.bb_in_hi;
        in_rel += (s.bb_in_mean - ev.meas.bb_in) / ev.meas.bb_in / EXPERIMENTS;
    }
    print_message("# S = %ld %s B_BB %ld: analytic idle %.5f, coverage %d/40, mean relative "
                  "error %.4f (quiet %.4f, p_full %.4f, occupancy %.4f); into the buffer "
                  "%.5f quanta per unit, coverage %d/40, mean relative error %.4f\n", S,
                  bb_drain_kind_name(pol->kind), bb_bw, ev.meas.idle, covered, rel,
                  quiet_rel, full_rel, occ_rel, ev.meas.bb_in, covered_in, in_rel);
    assert_in_range(covered, 34, 40);
    assert_in_range(covered_in, 34, 40);
    assert_true(fabs(in_rel) < 0.01);
    /* the shortcut the exact formula replaces is told apart */
    print_message("#   (1 - idle) E[(K - B)+] = %.5f: coverage %d/40\n", naive, covered_naive);
    assert_true(covered_naive < 34);
    if (bb_bw > 0) {
        print_message("#   the chain without B_BB (idle %.5f): coverage %d/40\n",
                      plain.meas.idle, covered_plain);
        assert_true(covered_plain < 34);
    }
    assert_true(fabs(rel) < 0.02);
    assert_true(fabs(quiet_rel) < 0.01);
    assert_true(fabs(full_rel) < 0.02);
    assert_true(fabs(occ_rel) < 0.02);
    bba_model_free(&m);
}

static void
test_bernoulli_covers_chain_greedy(void **state)
{
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.0 };

    (void)state;
    coverage(&pol, 5, 0);
}

/* B_BB = 3 throttles the loads 14 and 19 of 8, 6, 5 over B = 10. */
static void
test_bernoulli_covers_chain_bbbw(void **state)
{
    bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.0 }, l = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 4, .eps = 0.05 };

    (void)state;
    coverage(&g, 5, 3);
    coverage(&l, 8, 3);
}

static void
test_bernoulli_covers_chain_lazy(void **state)
{
    bb_drain pol = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 4, .eps = 0.05 };

    (void)state;
    coverage(&pol, 8, 0);
}

/* ON/OFF mode is the modulated chain (analytic/onoff/onoff.h): the same 40
 * experiments of 10 replications of 2000 units as coverage() above, with
 * mean ON runs of 3, 2.5 and 4 units.  The interval must cover the exact
 * idle fraction in 34 to 40 of them, and the mean relative error must stay
 * under 3% (bursts make the units correlated, so the runs are noisier).
 * The same simulations must FAIL against the broken-by-one model (every
 * L_i one unit longer, the off-by-one a stalled-phase or run-length bug
 * would make): coverage below 34, so the test can tell. */
static void
onoff_coverage(const bb_drain *pol, long S)
{
    const long b[] = { 8, 6, 5 };
    const double p[] = { 0.5, 0.3, 0.2 }, L[] = { 3, 2.5, 4 }, L1[] = { 4, 3.5, 5 };
    enum { EXPERIMENTS = 40, R = 10 };
    bbs_bb_config c = config(3, b, p, 10, S, 2000);
    bba_onoff m, m1;
    bba_onoff_opts oo;
    bba_eval_result ev, ev1;
    bbs_bb_result res[R];
    bbs_bb_summary s;
    char err[BB_ERRLEN];
    int covered = 0, covered1 = 0, covered_in = 0;
    double rel = 0.0, quiet_rel = 0.0, in_rel = 0.0, bb_in, *xs = NULL;

    c.pol = *pol;
    c.mode = BBS_BB_ONOFF;
    c.burst_tu = L;
    bba_onoff_defaults(&oo);
    assert_int_equal(bba_onoff_init(&m, 3, b, p, L, 10, 0, 0, err), BB_OK);
    assert_int_equal(bba_onoff_eval(&m, S, pol, &oo, &ev, &xs, err), BB_OK);
    bb_in = bba_bbin_onoff(&m, S, xs, ev.meas.idle);
    free(xs);
    assert_int_equal(bba_onoff_init(&m1, 3, b, p, L1, 10, 0, 0, err), BB_OK);
    assert_int_equal(bba_onoff_eval(&m1, S, pol, &oo, &ev1, NULL, err), BB_OK);
    assert_true(ev.meas.idle > 0.01);
    for (int x = 0; x < EXPERIMENTS; x++) {
        c.seed = 2000 + (uint64_t)x;
        assert_int_equal(bbs_replicate_run(R, sizeof res[0], res, bbs_bb_grid_unit, &(bbs_bb_grid){ &c, R }, 2,
                                           NULL, NULL, err), BB_OK);
        assert_int_equal(bbs_bb_summarize(res, R, 0.95, &s, err), BB_OK);
        covered += s.idle_lo <= ev.meas.idle && ev.meas.idle <= s.idle_hi;
        covered1 += s.idle_lo <= ev1.meas.idle && ev1.meas.idle <= s.idle_hi;
        rel += (s.idle_mean - ev.meas.idle) / ev.meas.idle / EXPERIMENTS;
        quiet_rel += (s.quiet_mean - ev.meas.quiet) / ev.meas.quiet / EXPERIMENTS;
        covered_in += s.bb_in_lo <= bb_in && bb_in <= s.bb_in_hi;
        in_rel += (s.bb_in_mean - bb_in) / bb_in / EXPERIMENTS;
    }
    print_message("# onoff S = %ld %s: exact idle %.5f (L + 1: %.5f), coverage %d/40 "
                  "(L + 1: %d/40), mean relative error %.4f (quiet %.4f); into the buffer "
                  "%.5f quanta per unit, coverage %d/40, mean relative error %.4f\n", S,
                  bb_drain_kind_name(pol->kind), ev.meas.idle, ev1.meas.idle, covered,
                  covered1, rel, quiet_rel, bb_in, covered_in, in_rel);
    assert_in_range(covered, 34, 40);
    assert_in_range(covered_in, 34, 40);
    assert_true(fabs(in_rel) < 0.02);
    assert_true(covered1 < 34);
    assert_true(fabs(rel) < 0.03);
    assert_true(fabs(quiet_rel) < 0.01);
    bba_onoff_free(&m);
    bba_onoff_free(&m1);
}

static void
test_onoff_covers_chain_greedy(void **state)
{
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.0 };

    (void)state;
    onoff_coverage(&pol, 5);
}

static void
test_onoff_covers_chain_lazy(void **state)
{
    bb_drain pol = { .kind = BB_DRAIN_LAZY, .unit = BB_DRAIN_QUANTA, .threshold = 4, .eps = 0.05 };

    (void)state;
    onoff_coverage(&pol, 8);
}

/* With every burst the memoryless 1/(1 - p), and loads and size whole
 * multiples of B (so that every stall is whole units: the ON/OFF mode's
 * stall lasts its excess over B, the paper's whole units), ON/OFF mode is
 * the Bernoulli chain in law: it covers the scalar chain's idle fraction
 * (one long run, within 4 standard errors). */
static void
test_onoff_memoryless_is_bernoulli(void **state)
{
    const long b[] = { 10, 20, 10 };
    const double p[] = { 0.3, 0.15, 0.2 }, L[] = { 1.0 / 0.7, 1.0 / 0.85, 1.25 };
    enum { R = 8 };
    bbs_bb_config c = config(3, b, p, 10, 20, 20000);
    bba_model m;
    bba_solver_opts so;
    bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    bba_eval_result ev;
    bbs_bb_result res[R];
    bbs_bb_summary s;
    char err[BB_ERRLEN];

    (void)state;
    bba_solver_defaults(&so);
    assert_int_equal(bba_model_init(&m, 3, b, p, 10, 0, err), BB_OK);
    assert_int_equal(bba_eval(&m, 20, &g, &so, &ev, NULL, err), BB_OK);
    assert_true(ev.meas.idle > 0.01);
    c.mode = BBS_BB_ONOFF;
    c.burst_tu = L;
    c.seed = 77;
    assert_int_equal(bbs_replicate_run(R, sizeof res[0], res, bbs_bb_grid_unit, &(bbs_bb_grid){ &c, R }, 2,
                                       NULL, NULL, err), BB_OK);
    assert_int_equal(bbs_bb_summarize(res, R, 0.95, &s, err), BB_OK);
    assert_true(fabs(s.idle_mean - ev.meas.idle) < 4 * s.idle_sd / sqrt((double)R));
    bba_model_free(&m);
}

/* The onoff mode with waiting writers against the chain worked here from
 * its rules, with no analytic code: over the normal units the state is
 * (phases, buffer load); a normal unit of load k writes as the platform
 * does (greedy: k <= B drains min(L, B - k); k > B puts min(k - B, S - L)
 * into the buffer and holds the rest), then a stall of held/B units (a
 * real number: the PFS writes the held data, the buffer stays full),
 * during which ON applications wait and OFF ones turn ON with
 * 1 - (1 - c_i)^(held/B), c_i = p_i / ((1 - p_i) L_i); then the normal
 * step (ON -> OFF 1/L_i, OFF -> ON c_i).  Its stationary law (power iteration) gives the chain's
 * idle, the stalled units' share E[stalls] / (1 + E[stalls]), and its
 * throughput X = E[load] / (1 + E[stalls]).  The simulated idle must
 * cover the first and equal the simulated stall fraction, the simulated
 * throughput the second; the load-weighted lost time 1 - X / E is another
 * number here (the OFF applications do not lose a stall), outside the
 * interval, so the test can tell the definitions apart; and so is the
 * same chain with the paper's whole stall units (the rule of old). */
static void
test_onoff_waiting_by_hand(void **state)
{
    enum { N = 2, S = 3, NS = 4 * (S + 1), R = 20 };
    const long b[N] = { 3, 2 }, B = 2;
    const double p[N] = { 0.5, 0.3 }, L[N] = { 3, 2.5 };
    double pi[NS], nx[NS], Ek = 0, Et = 0, E = 0, X = 0, idle = 0, idle_whole = 0, xm = 0, sm = 0;
    bbs_bb_config c = config(N, b, p, B, S, 20000);
    bbs_bb_result res[R];
    bbs_bb_summary sum;
    char err[BB_ERRLEN];

    (void)state;
    for (int i = 0; i < N; i++)
        E += p[i] * (double)b[i];
    /* whole = 1: the paper's whole stall units instead, ceil(held/B) of
     * them, the last one's spare PFS time draining the buffer (the rule
     * of old, which the simulation must miss) */
    for (int whole = 0; whole <= 1; whole++) {
        for (int k = 0; k < NS; k++)
            pi[k] = 1.0 / NS;
        for (int it = 0; it < 5000; it++) {
            memset(nx, 0, sizeof nx);
            Ek = Et = 0;
            for (int x = 0; x < 4; x++)
                for (long l = 0; l <= S; l++) {
                    double w = pi[x * (S + 1) + l], k = 0, held = 0, lb = (double)l, t;

                    for (int i = 0; i < N; i++)
                        k += (x >> i) & 1 ? (double)b[i] : 0;
                    if (k <= (double)B) {
                        lb -= fmin(lb, (double)B - k);
                    } else {
                        double into = fmin(k - (double)B, (double)S - lb);

                        lb += into;
                        held = k - (double)B - into;
                    }
                    t = held / (double)B; /* the stall */
                    if (whole) {
                        t = ceil(t);
                        lb -= fmin(lb, t * (double)B - held);
                    }
                    Ek += w * k;
                    Et += w * t;
                    for (int y = 0; y < 4; y++) {
                        double pr = 1;

                        for (int i = 0; i < N; i++) {
                            double a = 1 / L[i], ci = a * p[i] / (1 - p[i]);
                            double on = (x >> i) & 1 ? 1 : 1 - pow(1 - ci, t); /* H^t */
                            double on2 = on * (1 - a) + (1 - on) * ci;          /* K */

                            pr *= (y >> i) & 1 ? on2 : 1 - on2;
                        }
                        nx[y * (S + 1) + (long)lb] += w * pr;
                    }
                }
            memcpy(pi, nx, sizeof pi);
        }
        if (whole) {
            idle_whole = Et / (1 + Et);
        } else {
            X = Ek / (1 + Et);
            idle = Et / (1 + Et);
        }
    }
    c.mode = BBS_BB_ONOFF;
    c.burst_tu = L;
    c.warmup_units = 100;
    assert_int_equal(bbs_replicate_run(R, sizeof res[0], res, bbs_bb_grid_unit,
                                       &(bbs_bb_grid){ &c, R }, 2, NULL, NULL, err), BB_OK);
    assert_int_equal(bbs_bb_summarize(res, R, 0.999, &sum, err), BB_OK);
    for (int k = 0; k < R; k++) {
        xm += res[k].throughput / R;
        sm += res[k].stall_fraction / R;
        check_conservation(&res[k]);
    }
    print_message("# onoff by hand: idle %.6f, simulated %.6f [%.6f, %.6f], stalled %.6f; "
                  "X %.6f, simulated %.6f; 1 - X/E %.6f; whole stall units %.6f\n", idle,
                  sum.idle_mean, sum.idle_lo, sum.idle_hi, sm, X, xm, 1 - X / E, idle_whole);
    assert_true(idle > 0.02);
    assert_true(sum.idle_lo <= idle && idle <= sum.idle_hi);
    assert_true(sum.idle_hi - sum.idle_lo < 0.05 * idle);
    assert_true(fabs(sm - sum.idle_mean) <= 1e-12);
    /* the throughput to the same noise as before (0.1 idle E) */
    assert_true(fabs(xm - X) < 0.1 * idle * E);
    assert_true(!(sum.idle_lo <= 1 - X / E && 1 - X / E <= sum.idle_hi));
    assert_true(!(sum.idle_lo <= idle_whole && idle_whole <= sum.idle_hi));
}

/* Quasi-periodic applications with periods much shorter than the time
 * unit write at their mean rate: one application of b = 30, p = 1/2 puts
 * 15 per unit against B = 10.  In the long run a fraction f of units
 * stalls with (1 - f) 15 = 10, so f = 1/3 whatever S; the Bernoulli chain
 * (15 on average too, but in bursts of 30) is different only in the
 * transient.  Tolerance: a few units of start-up over 3000. */
static void
test_periodic_fluid_limit(void **state)
{
    const long b[] = { 30 };
    const double p[] = { 0.5 };
    const double d[] = { 0.01 };
    bbs_bb_config c = config(1, b, p, 10, 20, 3000);
    bbs_bb_result r;
    char err[BB_ERRLEN];

    (void)state;
    c.mode = BBS_BB_PERIODIC;
    c.period_tu = d;
    c.noise = 0.0;
    assert_int_equal(bbs_bb_run(&c, 0, &r, err), BB_OK);
    assert_float_equal(r.idle, 1.0 / 3.0, 0.01);
    assert_float_equal(r.written, 2000 * 15, 15 * 10);
    check_conservation(&r);
    /* About 2 phase events per period: 3000 / 0.01 * 2 = 6e5, minus the
     * frozen stall units (a third). */
    assert_true(r.events > 350000 && r.events < 450000);

    /* Period 2 units, p = 1/2, b = 20 = 2B: 20 per period against a PFS
     * that takes 20 per period, so a large buffer never overflows. */
    {
        const long b2[] = { 20 };
        const double d2[] = { 2.0 };
        bbs_bb_config c2 = config(1, b2, p, 10, 100, 1000);

        c2.mode = BBS_BB_PERIODIC;
        c2.period_tu = d2;
        assert_int_equal(bbs_bb_run(&c2, 0, &r, err), BB_OK);
        assert_float_equal(r.idle, 0.0, 0.0);
        assert_float_equal(r.written, 10.0 * 1000, 20.0);
        assert_true(r.left_in_bb <= 10.0 + 1e-9);
        check_conservation(&r);
    }
}

static void
test_bad_configurations(void **state)
{
    const long b[] = { 8, -1 };
    const double p[] = { 0.5, 0.3 };
    const double d[] = { 1.0, 0.0 };
    const double Lbad[] = { 0.5 };
    const long b_ok[] = { 1, 1 };
    bbs_bb_config c = config(1, b, p, 10, 5, 100);
    bbs_bb_result r;
    char err[BB_ERRLEN];

    (void)state;
#define BAD(field_change, needle) do { \
        bbs_bb_config x = c; \
        field_change; \
        assert_int_equal(bbs_bb_run(&x, 0, &r, err), BB_EINVAL); \
        assert_non_null(strstr(err, needle)); \
    } while (0)
    BAD(x.horizon_units = 0, "horizon 0 time units is not positive");
    BAD(x.horizon_units = -5, "horizon");
    BAD(x.warmup_units = -1, "warm-up");
    BAD(x.B = 0, "PFS bandwidth");
    BAD(x.S = -1, "buffer size");
    BAD(x.n = 0, "no application");
    BAD(x.n = 2, "application 2: bandwidth -1");
    BAD(x.time_unit_s = 0, "time unit");
    BAD((x.pol.kind = BB_DRAIN_LAZY, x.pol.threshold = 6), "threshold 6 quanta is outside [0, 5]");
    BAD((x.pol.kind = BB_DRAIN_LAZY, x.pol.eps = 1.5), "EPS");
    BAD(x.mode = BBS_BB_PERIODIC, "needs a period");
    BAD((x.mode = BBS_BB_ONOFF, x.burst_tu = Lbad), "burst 0.5 time units is below max(1, p/(1-p)) = 1");
    BAD((x.mode = BBS_BB_PERIODIC, x.d_min_tu = 1, x.noise = 1.0), "noise u = 1 is outside [0, 1)");
    BAD((x.mode = BBS_BB_PERIODIC, x.period_tu = d, x.n = 2, x.b = b_ok),
        "application 2: period 0");
#undef BAD
    {
        double bad_p[] = { 1.5 };
        bbs_bb_config x = c;

        x.p = bad_p;
        assert_int_equal(bbs_bb_check(&x, err), BB_EINVAL);
        assert_non_null(strstr(err, "p = 1.5 is not in [0, 1]"));
    }
    {
        bbs_bb_summary s;

        assert_int_equal(bbs_bb_summarize(&r, 0, 0.95, &s, err), BB_EINVAL);
        memset(&r, 0, sizeof r);
        assert_int_equal(bbs_bb_summarize(&r, 1, 1.5, &s, err), BB_EINVAL);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked_stalls),
        cmocka_unit_test(test_lazy_policy_limits),
        cmocka_unit_test(test_same_seed_same_result_other_seed_differs),
        cmocka_unit_test(test_bernoulli_covers_chain_greedy),
        cmocka_unit_test(test_bernoulli_covers_chain_lazy),
        cmocka_unit_test(test_bernoulli_covers_chain_bbbw),
        cmocka_unit_test(test_onoff_covers_chain_greedy),
        cmocka_unit_test(test_onoff_covers_chain_lazy),
        cmocka_unit_test(test_onoff_memoryless_is_bernoulli),
        cmocka_unit_test(test_onoff_waiting_by_hand),
        cmocka_unit_test(test_periodic_fluid_limit),
        cmocka_unit_test(test_bad_configurations),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
