/* t_fluidval.c: validate's fluid model in the simulator's entry
 * (sim/replicate.h bbs_fluidplat_validate): each row's prediction is the
 * front door's own answer at that size, its simulation is the one
 * bbs_fluidplat_prepare and _execute give alone (same seed, same
 * replications), its verdict covers the prediction exactly when the
 * interval holds it, and a prediction the front door refuses stops the
 * run before anything is simulated.
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

#include "bbsim.h"
#include "replicate.h"

/* Two bursty applications on a 1 GB/s PFS, E/B = 0.75. */
static const bba_app apps[2] = {
    { .name = "a", .p = 0.3, .bw_Bps = 1.5e9, .burst_s = 40 },
    { .name = "b", .p = 0.2, .bw_Bps = 1.5e9, .burst_s = 90 },
};
static const bba_platform pf = { .pfs_bw_Bps = 1e9, .time_unit_s = 1 };
static const double sizes[2] = { 2e10, 6e10 };

static bba_front *
front_new(void)
{
    bba_question q;
    bba_front *f = NULL;
    char err[BB_ERRLEN];

    bba_question_init(&q);
    q.apps = apps;
    q.n = 2;
    q.pf = pf;
    q.model = BBA_MODEL_FLUID;
    assert_int_equal(bba_front_new(&q, &f, err), BB_OK);
    return f;
}

static void
question(bbs_fluidplat_question *qn, const bb_drain *d)
{
    memset(qn, 0, sizeof *qn);
    qn->in = (bbs_fluidplat_inputs){ apps, 2, NULL, "t", &pf, sizes, 2 };
    qn->drain = *d;
    qn->horizon_given = 1;
    qn->horizon_s = 2e5;
    qn->run.replications = 4;
    qn->run.seed = 7;
    qn->run.confidence = 0.95;
    qn->run.threads = 2;
    qn->run.max_events = 1e9;
    qn->run.max_bytes = 1e9;
}

static void
test_rows(void **state)
{
    bba_front *f = front_new();
    bb_drain d = { 0, 0, 0, 0.01 };
    bbs_fluidplat_question qn;
    bbs_fluidplat_runs v, alone;
    char err[BB_ERRLEN];

    (void)state;
    question(&qn, &d);
    assert_int_equal(bbs_fluidplat_validate(&v, &qn, f, 0.5, err), BB_OK);
    assert_int_equal(v.analytic_failed, 0);
    assert_int_equal(bbs_fluidplat_prepare(&alone, &qn, err), BB_OK);
    assert_int_equal(bbs_fluidplat_execute(&alone, &qn, err), BB_OK);
    for (size_t k = 0; k < 2; k++) {
        const bbs_valrow *r = &v.val[k];
        bba_answer a;

        assert_int_equal(bba_front_idle(f, sizes[k], &d, &a, err), BB_OK);
        assert_true(r->analytic == a.idle && r->quiet_analytic == a.quiet);
        assert_true(r->bb_in_analytic_Bps == a.bb_write_Bps && r->S_bytes == sizes[k]);
        assert_int_equal(r->S_quanta, -1);
        /* the simulation is the entry's own, replication for replication */
        assert_true(r->idle.mean == alone.sum[k].idle.mean && r->idle.lo == alone.sum[k].idle.lo
                    && r->idle.hi == alone.sum[k].idle.hi);
        assert_true(r->quiet_mean == alone.sum[k].quiet.mean);
        assert_true(r->bb_in_Bps.mean == alone.sum[k].bb_in_Bps.mean);
        /* covered exactly when the interval holds the prediction */
        assert_int_equal(r->ag.covered, r->idle.lo <= r->analytic && r->analytic <= r->idle.hi);
    }
    /* the larger buffer idles less, in the model and in the simulation */
    assert_true(v.val[1].analytic < v.val[0].analytic);
    assert_true(v.replications == 4 && v.horizon_s == 2e5);
    bbs_fluidplat_free(&alone);
    bbs_fluidplat_free(&v);
    assert_null(v.val);
    bba_front_free(f);
}

static void
test_analytic_refusal(void **state)
{
    bba_front *f = front_new();
    /* a lazy threshold of 30 GB: above the first size */
    bb_drain d = { 1, 1, 3e10, 0.01 };
    bbs_fluidplat_question qn;
    bbs_fluidplat_runs v;
    char err[BB_ERRLEN];

    (void)state;
    question(&qn, &d);
    assert_int_not_equal(bbs_fluidplat_validate(&v, &qn, f, 0.5, err), BB_OK);
    assert_int_equal(v.analytic_failed, 1);
    assert_null(v.sum);   /* nothing simulated */
    assert_null(v.val);
    bbs_fluidplat_free(&v);
    bba_front_free(f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_analytic_refusal),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
