/* t_fluidsim.c: tests of the fluid burst-buffer simulator (sim/fluidpath,
 * sim/fluid): the piecewise integration on rate paths worked by hand, the
 * random driver replayed from its documented draws, one ON/OFF source
 * against its closed form (greedy, B_BB, lazy), the limits S = 0 and S
 * large, conservation, reproducibility over threads, the coverage of the
 * intervals over many seeds, the default times and the bounds.
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
#include <gsl/gsl_rng.h>

#include "bbsim.h"

static bbs_fluid_platform
platform(double B, double bbbw, double S)
{
    bbs_fluid_platform f;

    memset(&f, 0, sizeof f);
    f.pfs_bw_Bps = B;
    f.bb_bw_Bps = bbbw;
    f.size_bytes = S;
    f.drain.unit = BB_DRAIN_BYTES;
    return f;
}

/* |a - b| <= tol in double precision (cmocka's float asserts are single). */
static void
near(double a, double b, double tol, const char *expr, int line)
{
    if (!(fabs(a - b) <= tol))
        fail_msg("line %d: %s = %.17g, expected %.17g (tolerance %g)", line, expr, a, b, tol);
}
#define NEAR(a, b, tol) near((a), (b), (tol), #a, __LINE__)
#define CLOSE(a, b) NEAR((a), (double)(b), 1e-9 * (1 + fabs((double)(b))))

/* ---- the path, by hand ------------------------------------------------------ */

/* Greedy, B = 10, S = 100, B_BB = 15, from X = 0:
 *   [0, 10)  r = 30: X rises at min(20, 15) = 15 and reaches S at 20/3;
 *            below S the stall rate is (30 - 10 - 15)/30 = 1/6, the
 *            applications write 25 and the buffer takes 15; at S the stall
 *            rate is 20/30, they write B = 10;
 *   [10, 30) r = 0: X falls at 10 from 100 to 0 at t = 20, then stays;
 *   [30, 40) r = 10 = B: zero drift at X = 0 (an atom at 0).
 * Integrals: stall 20/3 (1/6) + 10/3 (2/3) = 10/3; quiet 20/3 (5/6) +
 * 10/3 (1/3) + 10 + 10 = 80/3; empty 20; full 10/3; content 20/3 * 50 +
 * 10/3 * 100 + 10 * 50 = 3500/3; written 20/3 * 25 + 10/3 * 10 + 100 = 300;
 * to the PFS 10 * 10 + 10 * 10 + 10 * 10 = 300; into 100, drained 100. */
static void
test_path_greedy_by_hand(void **state)
{
    bbs_fluid_platform f = platform(10, 15, 100);
    bbs_fluid_path p;
    bbs_fluid_tally t;

    (void)state;
    memset(&t, 0, sizeof t);
    bbs_fluid_path_init(&p, &f, 0, 0, 30);
    bbs_fluid_path_advance(&p, 5, &t);       /* a rate change that is no event */
    CLOSE(p.x_bytes, 75);
    bbs_fluid_path_advance(&p, 10, &t);
    assert_true(p.x_bytes == 100);           /* snapped onto S exactly */
    bbs_fluid_path_set_rate(&p, 0);
    bbs_fluid_path_advance(&p, 30, &t);
    assert_true(p.x_bytes == 0);
    bbs_fluid_path_set_rate(&p, 10);
    bbs_fluid_path_advance(&p, 40, &t);
    bbs_fluid_path_advance(&p, 35, &t);      /* the past: nothing */
    CLOSE(t.time_s, 40);
    CLOSE(t.stall_s, 10.0 / 3);
    CLOSE(t.quiet_s, 80.0 / 3);
    CLOSE(t.empty_s, 20);
    CLOSE(t.full_s, 10.0 / 3);
    CLOSE(t.content_Bs, 3500.0 / 3);
    CLOSE(t.written_bytes, 300);
    CLOSE(t.to_pfs_bytes, 300);
    CLOSE(t.into_bb_bytes, 100);
    CLOSE(t.drained_bytes, 100);
    assert_true(p.x_bytes == 0);
    /* pieces: rise to 5, rise to S, at S, fall, at 0, zero drift */
    assert_int_equal(p.pieces, 6);
}

/* Lazy, B = 10, S = 100, T = 40, EPS = 1/2, B_BB unlimited, from X = 100:
 *   [0, 20)  r = 0: X falls at 10 to T (t = 6), then at EPS B = 5 to 0
 *            (t = 14), then stays;
 *   [20, 30) r = 12: X rises at 2 to 20 (below T; no stall);
 *   [30, 40) r = 4: X <= T falls at EPS (10 - 4) = 3 and reaches 0 at
 *            30 + 20/3, then stays.
 * quiet: 0 above T, (1 - EPS) 8 below it, 6 at 0, 10 rising, (1 - EPS)
 * 20/3 falling lazily, 10/3 at 0.  content: 6 (100 + 40)/2 + 8 (40/2) +
 * 10 (20/2) + 20/3 (20/2).  written 12 * 10 + 4 * 10; to the PFS 100
 * drained in [0, 14], B for the 10 s rising, 4 for 10 s plus the 20
 * drained after t = 30. */
static void
test_path_lazy_by_hand(void **state)
{
    bbs_fluid_platform f = platform(10, INFINITY, 100);
    bbs_fluid_path p;
    bbs_fluid_tally t;

    (void)state;
    f.drain.kind = BB_DRAIN_LAZY;
    f.drain.threshold = 40;
    f.drain.eps = 0.5;
    memset(&t, 0, sizeof t);
    bbs_fluid_path_init(&p, &f, 0, 100, 0);
    bbs_fluid_path_advance(&p, 20, &t);
    assert_true(p.x_bytes == 0);
    bbs_fluid_path_set_rate(&p, 12);
    bbs_fluid_path_advance(&p, 30, &t);
    CLOSE(p.x_bytes, 20);
    bbs_fluid_path_set_rate(&p, 4);
    bbs_fluid_path_advance(&p, 40, &t);
    assert_true(p.x_bytes == 0);
    CLOSE(t.time_s, 40);
    CLOSE(t.stall_s, 0);
    /* 0 (above T) + 0.5 * 8 + 6 + 10 + 0.5 * 20/3 + 10/3 */
    CLOSE(t.quiet_s, 4 + 6 + 10 + 10.0 / 3 + 10.0 / 3);
    CLOSE(t.empty_s, 6 + 10.0 / 3);
    CLOSE(t.full_s, 0);
    CLOSE(t.content_Bs, 6 * 70 + 8 * 20 + 10 * 10 + 20.0 / 3 * 10);
    CLOSE(t.written_bytes, 12 * 10 + 4 * 10);
    /* PFS: 100 drained in [0, 14]; B = 10 for 10 s rising; r = 4 for 10 s
     * plus the 20 drained */
    CLOSE(t.to_pfs_bytes, 100 + 100 + 40 + 20);
    CLOSE(t.into_bb_bytes, 20);
    CLOSE(t.drained_bytes, 120);
    /* written = to PFS + X_end - X_start: 160 = 260 + 0 - 100 */
    CLOSE(t.written_bytes, t.to_pfs_bytes - 100);
}

/* S = 0: every up phase is at S (stall (r - B)/r, the applications write
 * B), every other phase at 0; a zero-drift phase inside the buffer keeps X
 * and is quiet, neither empty nor full. */
static void
test_path_atoms_and_zero_drift(void **state)
{
    bbs_fluid_platform f0 = platform(10, INFINITY, 0), f = platform(10, INFINITY, 50);
    bbs_fluid_path p;
    bbs_fluid_tally t;

    (void)state;
    memset(&t, 0, sizeof t);
    bbs_fluid_path_init(&p, &f0, 0, 0, 40);
    bbs_fluid_path_advance(&p, 4, &t);
    bbs_fluid_path_set_rate(&p, 10);
    bbs_fluid_path_advance(&p, 6, &t);
    CLOSE(t.stall_s, 4 * 0.75);
    CLOSE(t.quiet_s, 4 * 0.25 + 2);
    CLOSE(t.full_s, 4);
    CLOSE(t.empty_s, 2);   /* r = B with S = 0: counted once, at 0 */
    CLOSE(t.written_bytes, 4 * 10 + 2 * 10);
    assert_true(p.x_bytes == 0);

    memset(&t, 0, sizeof t);
    bbs_fluid_path_init(&p, &f, 0, 30, 10);
    bbs_fluid_path_advance(&p, 5, &t);
    assert_true(p.x_bytes == 30);
    CLOSE(t.quiet_s, 5);
    CLOSE(t.empty_s + t.full_s + t.stall_s, 0);
    CLOSE(t.content_Bs, 150);
    /* r = B at X = S: an atom at S, no stall */
    bbs_fluid_path_init(&p, &f, 0, 50, 10);
    memset(&t, 0, sizeof t);
    bbs_fluid_path_advance(&p, 2, &t);
    CLOSE(t.full_s, 2);
    CLOSE(t.stall_s, 0);
}

/* The virtual clock by hand: B = 1, B_BB = 0.5, S = 1, r = 2 from empty.
 * Below S the content rises at 0.5 and the writers get (1 + 0.5)/2 =
 * 0.75, so S is reached at t = 2 with V = 1.5; at S they get 1/2.  So V
 * reaches 1 at 4/3 and 2.5 at 2 + 1/0.5 = 4; with r = 0.5 < B the share is
 * 1 and V runs with the clock.  The stall rate 1 - c integrates to
 * 0.25 * 2 + 0.5 * 2 = 1.5 over [0, 4], and to nothing more after. */
static void
test_path_virtual_clock(void **state)
{
    bbs_fluid_platform f = platform(1, 0.5, 1);
    bbs_fluid_path p;
    bbs_fluid_tally t;

    (void)state;
    memset(&t, 0, sizeof t);
    bbs_fluid_path_init(&p, &f, 0, 0, 2);
    CLOSE(bbs_fluid_path_share(&p), 0.75);
    CLOSE(bbs_fluid_path_time_at(&p, 1), 4.0 / 3);
    CLOSE(bbs_fluid_path_time_at(&p, 1.5), 2);
    CLOSE(bbs_fluid_path_time_at(&p, 2.5), 4);
    CLOSE(bbs_fluid_path_time_at(&p, 0), 0);
    bbs_fluid_path_advance(&p, 4, &t);
    CLOSE(p.v_s, 2.5);
    CLOSE(bbs_fluid_path_share(&p), 0.5);
    CLOSE(t.stall_s, 1.5);
    CLOSE(bbs_fluid_path_time_at(&p, 1), 6);
    bbs_fluid_path_set_rate(&p, 0.5);
    CLOSE(bbs_fluid_path_share(&p), 1);
    CLOSE(bbs_fluid_path_time_at(&p, 1), 5);
    bbs_fluid_path_advance(&p, 5, &t);
    CLOSE(p.v_s, 3.5);
    CLOSE(t.stall_s, 1.5);
}

/* ---- one ON/OFF source: the closed form ------------------------------------ */

/* One source, rate b > B while ON, unthrottled ON mean L, Pr(ON) = p
 * unthrottled.  The writer waits (docs/fluid-sim.md): its ON period is a
 * volume that advances at its share c, c_in = min(1, (B + B_BB)/b) inside
 * the buffer and c_S = B/b at S, so ON -> OFF runs at alpha_in = c_in / L
 * inside and alpha_S = c_S / L on the atom at S; OFF -> ON at beta = p /
 * ((1 - p) L).  Drifts: ON d1 = min(b - B, B_BB) > 0; OFF -D(x) with D =
 * EPS B lazily below T, B above.  Densities f0 (OFF), f1 (ON) on (0, S),
 * atoms a0 (OFF at 0), aS (ON at S).  Stationarity: the level-crossing
 * flux d1 f1 - D f0 is 0 at every level, so h(x) := d1 f1 = D f0, which
 * is continuous in x (no mass sits at T).  The forward equation of OFF,
 * d/dx (-D f0) = -beta f0 + alpha_in f1, gives h' = (beta / D - alpha_in
 * / d1) h:
 *     h(x) = h(0) exp(G(x)),  G(x) = integral_0^x (beta/D(y) - alpha_in/d1) dy,
 * piecewise linear (slope z_lo below T, z_hi above).  Boundaries: the
 * atom at 0 leaves to ON at rate beta, h(0) = beta a0; the atom at S
 * leaves to OFF at alpha_S and feeds the OFF density there, h(S) =
 * alpha_S aS.  Normalisation: a0 + aS + integral h (1/d1 + 1/D) = 1.
 * Measures: idle = the stall fraction (one source: its lost time) = aS (1 -
 * c_S) + P(0 < X < S, ON) (1 - c_in); quiet = a0 + aS c_S + P(0 < X < S,
 * ON) c_in + (1 - EPS) P(0 < X < T, OFF); E[X] = integral x (f0 + f1) + S
 * aS; bb_in = d1 P(0 < X < S, ON).  Checked: in its own un-waited time
 * (OFF time plus c times ON time) the source is ON a fraction p. */
typedef struct {
    double idle, quiet, p_empty, p_full, mean_x, bb_in, p_on;
    double p_on_virtual;   /* ON fraction of the un-waited time */
} closed_form;

/* integral_0^l exp(z u) du and integral_0^l u exp(z u) du */
static void
seg(double z, double l, double *i0, double *i1)
{
    if (l <= 0) {
        *i0 = *i1 = 0;
    } else if (fabs(z * l) < 1e-8) {
        *i0 = l;
        *i1 = l * l / 2;
    } else {
        double e = exp(z * l);

        *i0 = (e - 1) / z;
        *i1 = (e * (z * l - 1) + 1) / (z * z);
    }
}

static closed_form
one_source(double b, double p, double L, const bbs_fluid_platform *f)
{
    double B = f->pfs_bw_Bps, S = f->size_bytes, beta = p / ((1 - p) * L);
    double c_in = fmin(1, (B + f->bb_bw_Bps) / b), c_s = B / b;
    double a_in = c_in / L, a_s = c_s / L;
    double d1 = fmin(b - B, f->bb_bw_Bps), Tl = f->drain.kind == BB_DRAIN_LAZY ? f->drain.threshold : 0;
    double Dlo = f->drain.kind == BB_DRAIN_LAZY ? f->drain.eps * B : B, Dhi = B;
    double zlo = beta / Dlo - a_in / d1, zhi = beta / Dhi - a_in / d1;
    double i0a, i1a, i0b, i1b, eT, eS, a0, h0, aS, on, offlo, off;
    closed_form o;

    seg(zlo, Tl, &i0a, &i1a);
    seg(zhi, S - Tl, &i0b, &i1b);
    eT = exp(zlo * Tl);
    eS = eT * exp(zhi * (S - Tl));
    a0 = 1 / (1 + beta * eS / a_s
              + beta * ((i0a + eT * i0b) / d1 + i0a / Dlo + eT * i0b / Dhi));
    h0 = beta * a0;
    aS = h0 * eS / a_s;
    on = h0 / d1 * (i0a + eT * i0b);
    offlo = h0 * i0a / Dlo;
    off = 1 - aS - on;
    o.idle = aS * (1 - c_s) + on * (1 - c_in);
    o.quiet = a0 + aS * c_s + on * c_in + (f->drain.kind == BB_DRAIN_LAZY ? (1 - f->drain.eps) * offlo : 0);
    o.mean_x = h0 * ((1 / d1 + 1 / Dlo) * i1a + eT * (1 / d1 + 1 / Dhi) * (Tl * i0b + i1b))
               + S * aS;
    o.p_empty = a0;
    o.p_full = aS;
    o.bb_in = d1 * on;
    o.p_on = aS + on;
    o.p_on_virtual = (aS * c_s + on * c_in) / (aS * c_s + on * c_in + off);
    return o;
}

/* A configuration of n sources (borrowed arrays). */
static bbs_fluid_config
config(size_t n, const double *b, const double *p, const double *L, bbs_fluid_platform f,
       double H, double W, uint64_t seed)
{
    bbs_fluid_config c;

    memset(&c, 0, sizeof c);
    c.n = n;
    c.rate_Bps = b;
    c.p = p;
    c.on_s = L;
    c.pf = f;
    c.horizon_s = H;
    c.warmup_s = W;
    c.seed = seed;
    return c;
}

/* R replications of c summarised at level. */
static void
simulate(const bbs_fluid_config *c, size_t R, double level, int threads, bbs_fluid_result *res,
         bbs_fluid_summary *s)
{
    char err[BB_ERRLEN];

    assert_int_equal(bbs_replicate_run(R, sizeof *res, res, bbs_fluid_run_unit, c, threads,
                                       NULL, NULL, err), BB_OK);
    assert_int_equal(bbs_fluid_summarize(res, R, level, s, err), BB_OK);
}

static void
assert_in(const char *what, const bbs_ci *ci, double x)
{
    if (!(x >= ci->lo && x <= ci->hi))
        fail_msg("%s: %.9g is outside [%.9g, %.9g] (mean %.9g)", what, x, ci->lo, ci->hi,
                 ci->mean);
}

/* The simulation at a 99.9% level covers every closed-form measure (a
 * correct simulator misses one of these 6 x 3 checks with probability
 * about 2%, fixed once the seed is; the idle interval is under 3% wide,
 * so a bias of a few per cent fails). */
static void
check_against_closed_form(const bbs_fluid_config *c, const closed_form *x)
{
    bbs_fluid_result res[20];
    bbs_fluid_summary s;

    simulate(c, 20, 0.999, 0, res, &s);
    assert_in("idle", &s.idle, x->idle);
    assert_in("quiet", &s.quiet, x->quiet);
    assert_in("p_empty", &s.p_empty, x->p_empty);
    assert_in("p_full", &s.p_full, x->p_full);
    assert_in("E[X]", &s.occupancy_bytes, x->mean_x);
    assert_in("bb_in", &s.bb_in_Bps, x->bb_in);
    assert_true(s.idle.hi - s.idle.lo < 0.03 * x->idle);
}

/* b = 2, B = 1, p = 0.3, L = 1 s, S = 1 byte: idle 0.0639. */
static void
test_one_source_greedy(void **state)
{
    const double b[] = { 2 }, p[] = { 0.3 }, L[] = { 1 };
    bbs_fluid_platform f = platform(1, INFINITY, 1);
    bbs_fluid_config c = config(1, b, p, L, f, 1e5, 100, 11);
    closed_form x = one_source(2, 0.3, 1, &f);

    (void)state;
    NEAR(x.p_on_virtual, 0.3, 1e-12);
    /* the derivation's own limits: S = 0, the full-buffer generator's law:
     * ON for p L b/B on average, OFF for (1 - p) L, losing 1 - B/b of the
     * ON time: p (b - B)/(p b + (1 - p) B) = 0.3/1.3; S large (E < B), 0 */
    f.size_bytes = 0;
    NEAR(one_source(2, 0.3, 1, &f).idle, 0.3 * (2 - 1) / (0.3 * 2 + 0.7 * 1), 1e-12);
    f.size_bytes = 200;
    NEAR(one_source(2, 0.3, 1, &f).idle, 0, 1e-12);
    check_against_closed_form(&c, &x);
}

/* b = 4, B = 1, B_BB = 1.5: below S the writer gets a share 2.5/4, at S
 * 1/4. */
static void
test_one_source_bbbw(void **state)
{
    const double b[] = { 4 }, p[] = { 0.2 }, L[] = { 0.5 };
    bbs_fluid_platform f = platform(1, 1.5, 0.8);
    bbs_fluid_config c = config(1, b, p, L, f, 1e5, 100, 11);
    closed_form x = one_source(4, 0.2, 0.5, &f);

    (void)state;
    NEAR(x.p_on_virtual, 0.2, 1e-12);
    check_against_closed_form(&c, &x);
}

/* Lazy, T = S/2, EPS = 0.2: two regions with flux continuity at T. */
static void
test_one_source_lazy(void **state)
{
    const double b[] = { 2 }, p[] = { 0.3 }, L[] = { 1 };
    bbs_fluid_platform f = platform(1, INFINITY, 2);
    bbs_fluid_config c;
    closed_form x;

    (void)state;
    f.drain.kind = BB_DRAIN_LAZY;
    f.drain.threshold = 1;
    f.drain.eps = 0.2;
    c = config(1, b, p, L, f, 1e5, 200, 11);
    x = one_source(2, 0.3, 1, &f);
    NEAR(x.p_on_virtual, 0.3, 1e-12);
    check_against_closed_form(&c, &x);
}

/* ---- limits ----------------------------------------------------------------- */

/* The stationary law of an n x n generator q (row-major), by Gaussian
 * elimination on q^T with one equation replaced by the normalisation. */
static void
stationary(int n, const double *q, double *pi)
{
    double a[8][9];

    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a[i][j] = i == n - 1 ? 1 : q[j * n + i];
        a[i][n] = i == n - 1 ? 1 : 0;
    }
    for (int c = 0; c < n; c++) {
        int piv = c;

        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        for (int j = 0; j <= n; j++) {
            double t = a[c][j];

            a[c][j] = a[piv][j];
            a[piv][j] = t;
        }
        for (int r = 0; r < n; r++) {
            double m = a[r][c] / a[c][c];

            if (r != c)
                for (int j = c; j <= n; j++)
                    a[r][j] -= m * a[c][j];
        }
    }
    for (int i = 0; i < n; i++)
        pi[i] = a[i][n] / a[i][i];
}

/* S = 0: the content stays at 0 and the phases are the Markov chain of
 * the full-buffer generator: in a phase f with r_f > B every ON source
 * turns OFF at (B / r_f) / L_i, OFF ones turn ON at p_i / ((1 - p_i) L_i).
 * Its stationary law pi, solved here over the 2^3 phases of three
 * sources, gives the stall fraction idle = sum_f pi_f (1 - c_f), and the
 * throughput X = sum_f pi_f min(r_f, B) (1 - X/E, the load-weighted lost
 * time, is another number with several sources: 0.26 against 0.32 here,
 * twenty times the interval's half-width, so the simulator is seen to
 * count the stalled time). */
static void
test_limit_size_zero(void **state)
{
    const double b[] = { 3, 2, 2 }, p[] = { 0.4, 0.3, 0.5 }, L[] = { 1, 2, 0.5 };
    bbs_fluid_config c;
    bbs_fluid_result res[20];
    bbs_fluid_summary s;
    double idle = 0, X = 0, B = 2.5, E = 0, q[64] = { 0 }, pi[8], xm = 0;

    (void)state;
    c = config(3, b, p, L, platform(B, INFINITY, 0), 1e4, 10, 5);
    for (int i = 0; i < 3; i++)
        E += p[i] * b[i];
    for (int f = 0; f < 8; f++) {
        double r = 0, cf;

        for (int i = 0; i < 3; i++)
            r += (f >> i) & 1 ? b[i] : 0;
        cf = r > B ? B / r : 1;
        for (int i = 0; i < 3; i++) {
            int g = f ^ (1 << i);
            double rate = (f >> i) & 1 ? cf / L[i] : p[i] / ((1 - p[i]) * L[i]);

            q[f * 8 + g] = rate;
            q[f * 8 + f] -= rate;
        }
    }
    stationary(8, q, pi);
    for (int f = 0; f < 8; f++) {
        double r = 0;

        for (int i = 0; i < 3; i++)
            if ((f >> i) & 1)
                r += b[i];
        idle += r > B ? pi[f] * (1 - B / r) : 0;
        X += pi[f] * fmin(r, B);
    }
    simulate(&c, 20, 0.999, 0, res, &s);
    print_message("# S = 0: stall fraction %.6f, 1 - X/E %.6f, simulated %.6f +- %.6f\n", idle,
                  1 - X / E, s.idle.mean, (s.idle.hi - s.idle.lo) / 2);
    assert_in("idle at S = 0", &s.idle, idle);
    assert_true(fabs(1 - X / E - idle) > 5 * (s.idle.hi - s.idle.lo) / 2);
    assert_true(s.occupancy_bytes.mean == 0 && s.bb_in_Bps.mean == 0);
    assert_true(s.p_empty.mean + s.p_full.mean > 1 - 1e-12);   /* all mass on the atoms */
    /* the throughput, on the simulated bytes: X / E within the noise of X
     * (the ON fractions of 2 x 10^4 cycles, about 1%) */
    for (int k = 0; k < 20; k++)
        xm += res[k].throughput_Bps / 20;
    NEAR(xm / E, X / E, 0.01);
}

/* S large, E < B, B_BB binding: the buffer never fills; the writer gets
 * the share c = (B + B_BB)/b, so its ON periods last 1/c as long: ON a
 * fraction (p/c)/(p/c + 1 - p) of the time, losing 1 - c of it.  S large,
 * E > B: work conservation, X -> B, so idle -> 1 - B/E (not the (E - B)/b
 * of writers that ran on the clock): one source b = 3, p = 1/2, B = 1. */
static void
test_limit_size_large(void **state)
{
    const double b1[] = { 4 }, p1[] = { 0.2 }, L1[] = { 1 };
    const double b2[] = { 3 }, p2[] = { 0.5 }, L2[] = { 1 };
    bbs_fluid_config c = config(1, b1, p1, L1, platform(1, 1.5, 1e3), 2e4, 100, 11);
    bbs_fluid_result res[20];
    bbs_fluid_summary s;
    double cc = 2.5 / 4, on = (0.2 / cc) / (0.2 / cc + 0.8), xm = 0;

    (void)state;
    simulate(&c, 20, 0.999, 0, res, &s);
    assert_in("idle, S large, E < B", &s.idle, on * (1 - cc));
    assert_true(s.p_full.mean == 0);
    /* E = 1.5 > B = 1: fills in about S/(E - B) = 200 s, warm-up 1000 s */
    c = config(1, b2, p2, L2, platform(1, INFINITY, 100), 2e4, 1e3, 11);
    simulate(&c, 20, 0.999, 0, res, &s);
    assert_in("idle, S large, E > B", &s.idle, 1 - 1 / 1.5);
    assert_true(!(s.idle.lo <= (1.5 - 1) / 3 && (1.5 - 1) / 3 <= s.idle.hi));
    /* no byte lost: what was asked for was written or is still held */
    NEAR(s.offered, s.written + s.held, 1e-9 * s.offered);
    assert_true(s.held > 0);
    /* X -> B: the throughput is the PFS bandwidth */
    for (int k = 0; k < 20; k++)
        xm += res[k].throughput_Bps / 20;
    NEAR(xm, 1, 1e-3);
    /* the estimate bounds the events: unthrottled, 2 p / L = 1 phase change
     * per second, 2.1e4 in all.  Waiting, the writer completes X / (b L) =
     * 1/3 ON periods per second (work conservation: X = B), so about 2/3
     * changes per second, 1.4e4 (each OFF period ends one ON period) */
    {
        double ev, by, m = 0;

        bbs_fluid_estimate(&c, &ev, &by);
        CLOSE(ev, 1 + 21e3);
        for (int k = 0; k < 20; k++) {
            assert_true((double)res[k].events < ev);
            m += (double)res[k].events / 20;
        }
        NEAR(m, 2.0 / 3 * 21e3, 0.03 * 14e3);
    }
}

/* ---- the random driver ------------------------------------------------------ */

/* One source, S = 0: the writer always gets the share c = B/b while ON,
 * so an ON period drawn as d seconds of writing lasts d b/B, and idle is
 * (ON time in the window) (1 - B/b) / H.  The path is replayed here from
 * the documented draws: stream (seed, unit, APP i) for application i (here
 * 1: application 0 never writes, so has no stream), ON if the first
 * uniform is < p, then each period -mean log(1 - u) of one uniform;
 * events at or before W + H are counted, those after W are the measured
 * ones. */
static void
test_draws_replayed(void **state)
{
    const double b[] = { 7, 5 }, p[] = { 0, 0.4 }, L[] = { 0, 2 };
    bbs_fluid_config c;
    bbs_fluid_result r;
    char err[BB_ERRLEN];

    (void)state;
    c = config(2, b, p, L, platform(2, INFINITY, 0), 300, 50, 11);
    for (uint64_t unit = 0; unit < 20; unit++) {
        gsl_rng *g = bbs_rng_stream_new(NULL, c.seed, unit, BBS_ENTITY(BBS_ECLASS_APP, 1));
        double t = 0, end = c.warmup_s + c.horizon_s, on_time = 0;
        int on = gsl_rng_uniform(g) < p[1];
        uint64_t events = 0, measured = 0;

        for (;;) {
            double mean = on ? L[1] : L[1] * (1 - p[1]) / p[1];
            double next = t - mean * log1p(-gsl_rng_uniform(g)) * (on ? 5.0 / 2 : 1);
            double lo = fmax(t, c.warmup_s), hi = fmin(next, end);

            if (on && hi > lo)
                on_time += hi - lo;
            if (next > end)
                break;
            events++;
            measured += next > c.warmup_s;
            t = next;
            on = !on;
        }
        gsl_rng_free(g);
        assert_int_equal(bbs_fluid_run(&c, unit, &r, err), BB_OK);
        assert_int_equal(r.events, events);
        assert_int_equal(r.measured_events, measured);
        NEAR(r.idle, on_time / c.horizon_s * (1 - 2 / 5.0), 1e-12);
        NEAR(r.p_full, on_time / c.horizon_s, 1e-12);
    }
}

/* The virtual clock against brute force: the same model simulated by
 * re-sampling, with no virtual time, here.  Exponential volumes are
 * memoryless, so between two changes of the share c (a phase change or
 * the content reaching S or 0) each ON source ends at rate c / L_i and
 * each OFF one at p_i / ((1 - p_i) L_i): draw the first of those competing
 * exponentials afresh at every change (Gillespie), move the content
 * linearly, and add the stalled time (1 - c) dt.  Two
 * sources, B_BB binding when both are ON, S = 2: both estimates of idle
 * agree within their noise (z = 3.3 on the difference of the means), and
 * the brute force's is far from the value with the writers on the clock
 * (c = 1 for the phases: checked by the same code with c frozen at 1). */
static double
brute_force_idle(const double *b, const double *p, const double *L, const bbs_fluid_platform *f,
                 double W, double H, gsl_rng *g, int clocked)
{
    double t = 0, x = 0, lost = 0, B = f->pfs_bw_Bps;
    int on[2] = { gsl_rng_uniform(g) < p[0], gsl_rng_uniform(g) < p[1] };

    while (t < W + H) {
        double r = on[0] * b[0] + on[1] * b[1], v = 0, c = 1, hit = INFINITY, rate[2], tau, dt;

        if (r > B && x < f->size_bytes) {
            v = fmin(r - B, f->bb_bw_Bps);
            c = fmin(1, (B + f->bb_bw_Bps) / r);
            hit = (f->size_bytes - x) / v;
        } else if (r > B) {
            c = B / r;
        } else if (r < B && x > 0) {
            v = r - B;
            hit = x / (B - r);
        }
        for (int i = 0; i < 2; i++)
            rate[i] = on[i] ? (clocked ? 1 : c) / L[i] : p[i] / ((1 - p[i]) * L[i]);
        tau = -log1p(-gsl_rng_uniform(g)) / (rate[0] + rate[1]);
        dt = fmin(fmin(tau, hit), W + H - t);
        lost += (1 - c) * fmax(0, fmin(t + dt, W + H) - fmax(t, W));
        t += dt;
        if (dt == hit) {
            x = v > 0 ? f->size_bytes : 0;
            continue;
        }
        x = fmin(fmax(x + v * dt, 0), f->size_bytes);
        if (dt == tau) {
            int k = gsl_rng_uniform(g) * (rate[0] + rate[1]) < rate[0] ? 0 : 1;

            on[k] = !on[k];
        }
    }
    return lost / H;
}

static void
test_against_brute_force(void **state)
{
    const double b[] = { 3, 2 }, p[] = { 0.3, 0.4 }, L[] = { 1, 2 };
    bbs_fluid_platform f = platform(2, 1.5, 2);
    bbs_fluid_config c = config(2, b, p, L, f, 2e4, 100, 17);
    enum { R = 20 };
    bbs_fluid_result res[R];
    bbs_fluid_summary s;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    double m1 = 0, q1 = 0, m2 = 0, q2 = 0, clk = 0, se;

    (void)state;
    gsl_rng_set(g, 99);
    simulate(&c, R, 0.95, 0, res, &s);
    for (int k = 0; k < R; k++) {
        double y = brute_force_idle(b, p, L, &f, 100, 2e4, g, 0);

        m1 += res[k].idle / R;
        q1 += res[k].idle * res[k].idle / R;
        m2 += y / R;
        q2 += y * y / R;
    }
    for (int k = 0; k < 4; k++)
        clk += brute_force_idle(b, p, L, &f, 100, 2e4, g, 1) / 4;
    gsl_rng_free(g);
    se = sqrt(((q1 - m1 * m1) + (q2 - m2 * m2)) / (R - 1));
    print_message("# brute force: idle %.6f, virtual clock %.6f (se of the difference %.6f); "
                  "writers on the clock %.6f\n", m2, m1, se, clk);
    assert_true(m1 > 0.02);
    assert_true(fabs(m1 - m2) < 3.3 * se);
    assert_true(se < 0.01 * m1);
    assert_true(fabs(clk - m1) > 10 * se);
}

/* A constant source (p = 1) has no events: b = 3 into S = 10 at B_BB =
 * 1.5 fills by t = 20/3, then stalls (3 - 1)/3 of the time, exactly. */
static void
test_constant_source(void **state)
{
    const double b[] = { 3, 7, 0 }, p[] = { 1, 0, 0.5 }, L[] = { 0, 0, 0 };
    bbs_fluid_config c;
    bbs_fluid_result r;
    char err[BB_ERRLEN];

    (void)state;
    /* with one that never writes and one of rate 0 */
    c = config(3, b, p, L, platform(1, 1.5, 10), 100, 10, 1);
    assert_int_equal(bbs_fluid_run(&c, 0, &r, err), BB_OK);
    assert_int_equal(r.events, 0);
    CLOSE(r.idle, 2.0 / 3);
    CLOSE(r.p_full, 1);
    CLOSE(r.mean_occupancy_bytes, 10);
    CLOSE(r.written_bytes, 2.5 * 20.0 / 3 + 1 * (110 - 20.0 / 3));
    CLOSE(r.to_pfs_bytes, 110);
    CLOSE(r.left_bytes, 10);
}

/* Conservation on a busy lazy run with B_BB, and the drain rate equal to
 * the fill rate in steady state. */
static void
test_conservation(void **state)
{
    const double b[] = { 3, 2, 1.5, 2 }, p[] = { 0.2, 0.3, 0.4, 1 }, L[] = { 1, 3, 0.5, 0 };
    bbs_fluid_config c;
    bbs_fluid_result res[8];
    bbs_fluid_summary s;

    (void)state;
    c = config(4, b, p, L, platform(4, 2.5, 5), 2e4, 100, 3);
    c.pf.drain.kind = BB_DRAIN_LAZY;
    c.pf.drain.threshold = 2;
    c.pf.drain.eps = 0.3;
    simulate(&c, 8, 0.95, 0, res, &s);
    for (int k = 0; k < 8; k++) {
        bbs_fluid_result *r = &res[k];

        assert_true(r->conservation_error_bytes <= 1e-9 * r->written_bytes);
        NEAR(r->written_bytes, r->to_pfs_bytes + r->left_bytes,
                           1e-9 * r->written_bytes);
        NEAR(r->into_bb_bytes - r->drained_bytes, r->left_bytes,
                           1e-9 * r->written_bytes);
        assert_true(r->left_bytes >= 0 && r->left_bytes <= 5);
        assert_true(r->idle > 0 && r->p_full > 0 && r->p_empty > 0);
    }
    NEAR(s.bb_out_Bps, s.bb_in_Bps.mean, 1e-3 * s.bb_in_Bps.mean);
}

/* Same seed same bytes; 1 thread and 2 threads; another seed differs. */
static void
test_reproducible(void **state)
{
    const double b[] = { 3, 2 }, p[] = { 0.2, 0.3 }, L[] = { 1, 3 };
    bbs_fluid_config c;
    bbs_fluid_result a[6], d[6], e[6];
    bbs_fluid_summary s;

    (void)state;
    c = config(2, b, p, L, platform(2, INFINITY, 3), 2000, 10, 42);
    simulate(&c, 6, 0.95, 1, a, &s);
    simulate(&c, 6, 0.95, 2, d, &s);
    assert_memory_equal(a, d, sizeof a);
    c.seed = 43;
    simulate(&c, 6, 0.95, 2, e, &s);
    assert_true(a[0].idle != e[0].idle && a[0].events != e[0].events);
    /* replications are distinct streams */
    assert_true(a[0].events != a[1].events);
}

/* Over 300 seeds of 10 short replications, the 95% interval covers the
 * closed-form idle and E[X] about 95% of the time (binomial sd 1.3%:
 * [0.91, 0.99] is three of them). */
static void
test_interval_coverage(void **state)
{
    const double b[] = { 2 }, p[] = { 0.3 }, L[] = { 1 };
    bbs_fluid_platform f = platform(1, INFINITY, 1);
    bbs_fluid_config c = config(1, b, p, L, f, 1000, 30, 11);
    closed_form x = one_source(2, 0.3, 1, &f);
    bbs_fluid_result res[10];
    bbs_fluid_summary s;
    int n = 300, hit_idle = 0, hit_x = 0;

    (void)state;
    for (int k = 0; k < n; k++) {
        c.seed = 1000 + (uint64_t)k;
        simulate(&c, 10, 0.95, 0, res, &s);
        hit_idle += x.idle >= s.idle.lo && x.idle <= s.idle.hi;
        hit_x += x.mean_x >= s.occupancy_bytes.lo && x.mean_x <= s.occupancy_bytes.hi;
    }
    print_message("# coverage over %d seeds: idle %.3f, E[X] %.3f\n", n, (double)hit_idle / n,
                  (double)hit_x / n);
    assert_true(hit_idle >= 0.91 * n && hit_idle <= 0.99 * n);
    assert_true(hit_x >= 0.91 * n && hit_x <= 0.99 * n);
}

/* ---- defaults, estimates, bounds, bad input --------------------------------- */

static void
test_default_times_and_estimate(void **state)
{
    const double b[] = { 2, 5 }, p[] = { 0.3, 0.5 }, L[] = { 1, 4 };
    const double bf[] = { 2, 2 }, pf[] = { 0.5, 0.5 }, Lf[] = { 1e-3, 10 };
    bbs_fluid_config c;
    double H, W, ev, by;
    bbs_fluid_result r;
    char err[BB_ERRLEN];

    (void)state;
    c = config(2, b, p, L, platform(4, INFINITY, 10), 0, 0, 1);
    /* slowest cycle max(1/0.3, 4/0.5) = 8 s; E = 3.1 < B: W = H/10 */
    bbs_fluid_default_times(&c, &H, &W);
    CLOSE(H, 8e4);
    CLOSE(W, 8e3);
    /* lazy: T/(EPS (B - E)) = 9/(0.01 * 0.9) = 1000 s < H */
    c.pf.drain.kind = BB_DRAIN_LAZY;
    c.pf.drain.threshold = 9;
    c.pf.drain.eps = 0.01;
    bbs_fluid_default_times(&c, &H, &W);
    CLOSE(W, 8e3);
    c.pf.drain.eps = 1e-4;
    bbs_fluid_default_times(&c, &H, &W);
    CLOSE(W, 8e4);   /* 1e5 s, capped at H */
    /* E > B: S/(E - B) */
    c.pf.drain.kind = BB_DRAIN_GREEDY;
    c.pf.pfs_bw_Bps = 3;
    c.pf.size_bytes = 1e4 * 0.1;
    bbs_fluid_default_times(&c, &H, &W);
    CLOSE(W, 1e4);
    /* a fast source beside a slow one: scaled to 1e6 expected events */
    c.n = 2;
    c.rate_Bps = bf;
    c.p = pf;
    c.on_s = Lf;
    bbs_fluid_default_times(&c, &H, &W);
    c.horizon_s = H;
    c.warmup_s = W;
    bbs_fluid_estimate(&c, &ev, &by);
    NEAR(ev, 2 + 1e6, 1e-6);
    assert_true(by > 0 && by < 1e4);
    /* the estimate is the mean: a run of 1e5 expected events lands within 2% */
    c.horizon_s = 1e5 / bbs_fluid_event_rate(&c);
    c.warmup_s = 0;
    assert_int_equal(bbs_fluid_run(&c, 0, &r, err), BB_OK);
    NEAR((double)r.events, 1e5, 2e3);
    /* the engine's bound stops a run beyond it */
    bbs_engine_set_default_limits(1000, 0);
    assert_int_equal(bbs_fluid_run(&c, 0, &r, err), BB_ETOOBIG);
    bbs_engine_set_default_limits(0, 0);
}

static void
test_bad_configurations(void **state)
{
    double b[] = { 2 }, p[] = { 0.3 }, L[] = { 1 };
    bbs_fluid_config c = config(1, b, p, L, platform(1, INFINITY, 1), 10, 0, 11), d;
    bbs_fluid_result r;
    char err[BB_ERRLEN];

    (void)state;
#define BAD(stmt, needle)                                                                      \
    do {                                                                                       \
        d = c;                                                                                 \
        stmt;                                                                                  \
        assert_int_equal(bbs_fluid_run(&d, 0, &r, err), BB_EINVAL);                           \
        if (strstr(err, needle) == NULL)                                                       \
            fail_msg("'%s' lacks '%s'", err, needle);                                          \
        b[0] = 2, p[0] = 0.3, L[0] = 1;                                                        \
    } while (0)
    BAD(b[0] = -1, "rate");
    BAD(b[0] = INFINITY, "rate");
    BAD(p[0] = 1.5, "p = 1.5");
    BAD(p[0] = NAN, "p = nan");
    BAD(L[0] = 0, "mean ON period");
    BAD(L[0] = INFINITY, "mean ON period");
    BAD(p[0] = 1e-320, "mean OFF period");
    BAD(d.pf.pfs_bw_Bps = 0, "PFS bandwidth");
    BAD(d.pf.bb_bw_Bps = 0, "burst-buffer bandwidth");
    BAD(d.pf.size_bytes = -1, "buffer size");
    BAD(d.pf.size_bytes = INFINITY, "buffer size");
    BAD((d.pf.drain.kind = BB_DRAIN_LAZY, d.pf.drain.eps = 0.5, d.pf.drain.threshold = 2), "threshold");
    BAD((d.pf.drain.kind = BB_DRAIN_LAZY, d.pf.drain.eps = 0), "EPS");
    BAD(d.horizon_s = 0, "horizon");
    BAD(d.warmup_s = -1, "warm-up");
#undef BAD
    /* p = 0, p = 1 and b = 0 need no period */
    p[0] = 1;
    L[0] = -1;
    assert_int_equal(bbs_fluid_run(&c, 0, &r, err), BB_OK);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_greedy_by_hand),
        cmocka_unit_test(test_path_lazy_by_hand),
        cmocka_unit_test(test_path_atoms_and_zero_drift),
        cmocka_unit_test(test_path_virtual_clock),
        cmocka_unit_test(test_one_source_greedy),
        cmocka_unit_test(test_one_source_bbbw),
        cmocka_unit_test(test_one_source_lazy),
        cmocka_unit_test(test_limit_size_zero),
        cmocka_unit_test(test_limit_size_large),
        cmocka_unit_test(test_draws_replayed),
        cmocka_unit_test(test_against_brute_force),
        cmocka_unit_test(test_constant_source),
        cmocka_unit_test(test_conservation),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_interval_coverage),
        cmocka_unit_test(test_default_times_and_estimate),
        cmocka_unit_test(test_bad_configurations),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
