/* t_partition.c: static partitions (analytic/questions/partition.h) and the
 * partitioned simulator (sim/bbpart.h): one group is the shared buffer to
 * the byte (Bernoulli and fluid); the dynamic programme's total equals an
 * exhaustive search over every split of the steps, each group sized by a
 * front of its own (so the bound and caps change no answer); granularity
 * rounds each allocation up; errors and infeasible splits; the simulator
 * on cases worked by hand (a static share stalls every other unit, the
 * work-conserving PFS lends the idle share, and lends nothing when no
 * share idles), and the static platform against the chain's idle.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bbpart.h"
#include "stats.h"
#include "testutil.h"

#define NAPP 6

static const bba_app apps[NAPP] = {
    { "a", 0.10, 300e9, 0, 0 }, { "b", 0.05, 800e9, 0, 0 }, { "c", 0.20, 120e9, 0, 0 },
    { "d", 0.08, 400e9, 0, 0 }, { "e", 0.15, 200e9, 0, 0 }, { "f", 0.03, 1000e9, 0, 0 },
};

static void
question(bba_question *q, const bba_app *a, size_t n, long R)
{
    bba_question_init(q);
    q->apps = a;
    q->n = n;
    q->pf.pfs_bw_Bps = 1e12;
    q->pf.bb_bw_Bps = 0;
    q->pf.time_unit_s = 60;
    q->pf.resolution = R;
    q->time_unit_given = 1;
    q->model = BBA_MODEL_BERNOULLI;
}

/* S_g(k) by a front of its own: the group's applications, k/K of B at
 * resolution k R / K; INFINITY when no size meets the target. */
static double
size_alone(const bba_question *base, const size_t *grp, size_t g, int k, int K, long R,
           double gran)
{
    bba_app sub[NAPP];
    bba_question q;
    bba_front *f;
    bba_answer a;
    char err[BB_ERRLEN];
    size_t n = 0;
    int rc;

    for (size_t i = 0; i < base->n; i++)
        if (grp[i] == g)
            sub[n++] = base->apps[i];
    question(&q, sub, n, R / K * k);
    q.pf.pfs_bw_Bps = base->pf.pfs_bw_Bps * k / K;
    rc = bba_front_new(&q, &f, err);
    if (rc == BB_EINFEASIBLE || rc == BB_ETOOBIG)
        return INFINITY;
    assert_int_equal(rc, BB_OK);
    rc = bba_front_size(f, q.target, &q.drain, &a, err);
    bba_front_free(f);
    if (rc == BB_EINFEASIBLE || rc == BB_ETOOBIG)
        return INFINITY;
    assert_int_equal(rc, BB_OK);
    return gran > 0 ? ceil(a.S_bytes / gran * (1 - 1e-12)) * gran : a.S_bytes;
}

static void
test_one_group_is_shared(void **state)
{
    const size_t grp[NAPP] = { 0 };
    bba_question q;
    bba_partition_spec sp = { NULL, grp, 1, 100, 0 };
    bba_partition p;
    char err[BB_ERRLEN];

    (void)state;
    question(&q, apps, NAPP, 0);   /* the resolution settled as size settles it */
    sp.base = &q;
    assert_int_equal(bba_partition_solve(&sp, &p, err), BB_OK);
    assert_true(p.feasible);
    assert_int_equal(p.k[0], p.steps);
    assert_true(p.total_bytes == p.shared.S_bytes);
    assert_true(p.shared_bytes == p.shared.S_bytes);
    bba_partition_free(&p);
}

static void
test_one_group_is_shared_fluid(void **state)
{
    bba_app b[3] = { { "x", 0.05, 1200e9, 0, 300 }, { "y", 0.3, 300e9, 0, 120 },
                     { "z", 0.2, 200e9, 0, 600 } };
    const size_t grp[3] = { 0, 0, 0 };
    bba_question q;
    bba_partition_spec sp = { NULL, grp, 1, 20, 0 };
    bba_partition p;
    char err[BB_ERRLEN];

    (void)state;
    question(&q, b, 3, 0);
    q.model = BBA_MODEL_AUTO;
    sp.base = &q;
    assert_int_equal(bba_partition_solve(&sp, &p, err), BB_OK);
    assert_int_equal(p.model, BBA_MODEL_FLUID);
    assert_true(p.feasible);
    assert_true(p.total_bytes == p.shared.S_bytes);
    bba_partition_free(&p);
}

/* Loads unlike their bursts: group 0 writes seldom but at most of B, so
 * it needs far more than its load's share of the steps (the bound's
 * shares, proportional to the loads, are far from the optimum). */
static const bba_app skew[NAPP] = {
    { "rare", 0.01, 700e9, 0, 0 }, { "steady", 0.5, 200e9, 0, 0 },
    { "mid", 0.1, 1100e9, 0, 0 }, { "rare2", 0.02, 300e9, 0, 0 },
    { "steady2", 0.4, 100e9, 0, 0 }, { "mid2", 0.1, 200e9, 0, 0 },
};

/* Every split of K steps among 3 groups, each sized alone: the least
 * total is the dynamic programme's, and its split attains it. */
static void
check_exhaustive(const bba_app *w, double gran)
{
    const size_t grp[NAPP] = { 0, 1, 2, 0, 1, 2 };
    const int K = 20;
    const long R = 800;
    double tab[3][21], best = INFINITY;
    bba_question q;
    bba_partition_spec sp = { NULL, grp, 3, 20, gran };
    bba_partition p;
    char err[BB_ERRLEN];

    question(&q, w, NAPP, R);
    sp.base = &q;
    for (size_t g = 0; g < 3; g++)
        for (int k = 1; k <= K; k++)
            tab[g][k] = size_alone(&q, grp, g, k, K, R, gran);
    for (int a = 1; a <= K - 2; a++)
        for (int b = 1; a + b <= K - 1; b++) {
            double t = tab[0][a] + tab[1][b] + tab[2][K - a - b];

            if (t < best)
                best = t;
        }
    assert_true(isfinite(best));

    assert_int_equal(bba_partition_solve(&sp, &p, err), BB_OK);
    assert_true(p.feasible);
    assert_int_equal(p.steps, K);
    assert_int_equal(p.k[0] + p.k[1] + p.k[2], K);
    assert_float_equal(p.total_bytes, best, 1e-6 * best);
    assert_float_equal(tab[0][p.k[0]] + tab[1][p.k[1]] + tab[2][p.k[2]], best, 1e-6 * best);
    for (size_t g = 0; g < 3; g++) {
        assert_float_equal(p.bytes[g], tab[g][p.k[g]], 1e-6 * best);
        assert_true(p.a[g].idle <= q.target);
        if (gran > 0)
            assert_float_equal(fmod(p.bytes[g], gran), 0, 1e-6 * gran);
    }
    bba_partition_free(&p);
}

static void
test_exhaustive(void **state)
{
    (void)state;
    check_exhaustive(apps, 0);
    check_exhaustive(skew, 0);
}

static void
test_exhaustive_granularity(void **state)
{
    (void)state;
    check_exhaustive(apps, 82.0 * 1024 * 1024 * 1024);
    check_exhaustive(skew, 82.0 * 1024 * 1024 * 1024);
}

static void
test_errors(void **state)
{
    const size_t grp[NAPP] = { 0, 0, 0, 0, 0, 2 };   /* group 1 has no application */
    const size_t heavy[2] = { 0, 1 };
    const bba_app h[2] = { { "h", 1.0, 0.95e12, 0, 0 }, { "l", 0.1, 0.5e12, 0, 0 } };
    bba_question q;
    bba_partition_spec sp = { NULL, grp, 3, 100, 0 };
    bba_partition p;
    char err[BB_ERRLEN];

    (void)state;
    question(&q, apps, NAPP, 100);
    sp.base = &q;
    assert_int_equal(bba_partition_begin(&sp, &p, err), BB_EINVAL);
    assert_non_null(strstr(err, "group 2 has no application"));
    bba_partition_free(&p);
    sp.steps = 2;
    assert_int_equal(bba_partition_begin(&sp, &p, err), BB_EINVAL);
    bba_partition_free(&p);
    /* 0.95 B and 0.05 B expected: a share must exceed its load, so the
     * first needs 96 of 100 steps and the second 6: no split */
    question(&q, h, 2, 100);
    sp = (bba_partition_spec){ &q, heavy, 2, 100, 0 };
    assert_int_equal(bba_partition_solve(&sp, &p, err), BB_OK);
    assert_false(p.feasible);
    assert_true(isnan(p.total_bytes));
    bba_partition_free(&p);
}

/* ---- the simulator --------------------------------------------------------- */

static void
part_config(bbs_part_config *c, const long *b, const double *p, const size_t *grp,
            size_t n, const long *B, const long *S, size_t G, bbs_part_pfs mode)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->b = b;
    c->p = p;
    c->group = grp;
    c->G = G;
    c->B = B;
    c->S = S;
    c->pfs = mode;
    c->horizon_units = 1000;
    c->warmup_units = 0;
    c->time_unit_s = 1;
    c->seed = 1;
}

/* Partition 0 writes 3 quanta every unit on a share of 2 and no buffer:
 * it sends 2, holds 1, and spends the next unit sending it: idle 1/2.
 * With the other partition silent, the work-conserving PFS lends it its
 * share: no stall.  With the other partition using its whole share,
 * nothing is lent: 1/2 again. */
static void
test_sim_by_hand(void **state)
{
    const long b[2] = { 3, 2 };
    const long B[2] = { 2, 2 }, S[2] = { 0, 0 };
    const size_t grp[2] = { 0, 1 };
    double p[2] = { 1, 0 };
    bbs_part_config c;
    bbs_part_result r;
    char err[BB_ERRLEN];

    (void)state;
    part_config(&c, b, p, grp, 2, B, S, 2, BBS_PART_STATIC);
    assert_int_equal(bbs_part_run(&c, 0, &r, err), BB_OK);
    assert_float_equal(r.idle[0], 0.5, 0);
    assert_float_equal(r.idle[1], 0, 0);
    c.pfs = BBS_PART_SHARED;
    assert_int_equal(bbs_part_run(&c, 0, &r, err), BB_OK);
    assert_float_equal(r.idle[0], 0, 0);
    p[1] = 1;
    assert_int_equal(bbs_part_run(&c, 0, &r, err), BB_OK);
    assert_float_equal(r.idle[0], 0.5, 0);
    assert_float_equal(r.idle[1], 0, 0);
    assert_true(r.conservation_error <= 1e-9);
}

/* One static partition is the chain: its idle fraction against the
 * analytic one, within the replications' interval. */
static void
test_sim_static_is_chain(void **state)
{
    const long b[3] = { 4, 6, 3 };
    const double p[3] = { 0.3, 0.2, 0.4 };
    const size_t grp[3] = { 0, 0, 0 };
    const long B[1] = { 6 }, S[1] = { 8 };
    bbs_part_config c;
    bba_model m;
    bba_solver_opts so;
    bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };
    bba_eval_result e;
    bbs_welford w;
    bbs_ci ci;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bba_model_init(&m, 3, b, p, 6, 0, err), BB_OK);
    tu_solver(&so, BBA_SOLVER_BANDED);
    assert_int_equal(bba_eval(&m, 8, &g, &so, &e, NULL, err), BB_OK);
    part_config(&c, b, p, grp, 3, B, S, 1, BBS_PART_STATIC);
    c.horizon_units = 20000;
    c.warmup_units = 1000;
    bbs_welford_init(&w);
    for (uint64_t u = 0; u < 20; u++) {
        bbs_part_result r;

        assert_int_equal(bbs_part_run(&c, u, &r, err), BB_OK);
        bbs_welford_add(&w, r.idle[0]);
    }
    assert_int_equal(bbs_ci_fraction(&w, 20000, 0.999, &ci, err), BB_OK);
    assert_true(e.meas.idle > 0.01);
    assert_true(ci.lo <= e.meas.idle && e.meas.idle <= ci.hi);
    bba_model_free(&m);
}

static void
test_sim_errors(void **state)
{
    const long b[1] = { 1 }, B[1] = { 0 }, S[1] = { 0 };
    const double p[1] = { 0.5 };
    const size_t grp[1] = { 1 };
    bbs_part_config c;
    char err[BB_ERRLEN];

    (void)state;
    part_config(&c, b, p, grp, 1, B, S, 1, BBS_PART_STATIC);
    assert_int_equal(bbs_part_check(&c, err), BB_EINVAL);
    assert_non_null(strstr(err, "partition 2 of 1"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_group_is_shared),
        cmocka_unit_test(test_one_group_is_shared_fluid),
        cmocka_unit_test(test_exhaustive),
        cmocka_unit_test(test_exhaustive_granularity),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_sim_by_hand),
        cmocka_unit_test(test_sim_static_is_chain),
        cmocka_unit_test(test_sim_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
