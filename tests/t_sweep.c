/* t_sweep.c: tests of grid evaluation (analytic/sweep, src/sweeprun on the
 * unit runner, any thread count) and
 * of the provenance of data/workloads/paper-random.csv.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "bbanalytic.h"
#include "sweep.h"
#include "sweeprun.h"

/* The hand-worked model below: one application, 2 quanta, p = 1/2, B = 1. */
static long tiny_b[1] = { 2 };
static double tiny_p[1] = { 0.5 };

static void
tiny_setup(bba_model *m, bba_solver_opts *so, bba_sweep_point *pts, size_t n)
{
    char err[BB_ERRLEN];

    assert_int_equal(bba_model_init(m, 1, tiny_b, tiny_p, 1, 0, err), BB_OK);
    bba_solver_defaults(so);
    memset(pts, 0, n * sizeof *pts);
    for (size_t i = 0; i < n; i++) {
        pts[i].model = m;
        pts[i].S = (long)i;
    }
}

/* Hand-worked: one application writing 2 quanta with p = 1/2, B = 1.
 * S = 0: pi(0) = pi(0)/2 + pi(1), pi(1) = pi(0)/2, so idle = pi(1) = 1/3.
 * S = 1: states 0, 1 normal and 2 overflow; pi0 = pi1, pi2 = pi1/2, so
 * idle = pi2 = 1/5. */
static void
test_hand_worked(void **state)
{
    bba_model m;
    bba_solver_opts so;
    bba_sweep_point pts[2];
    bba_sweep_out out[2];
    char err[BB_ERRLEN];

    (void)state;
    tiny_setup(&m, &so, pts, 2);
    assert_int_equal(bb_sweep_run(pts, 2, &so, 2, NULL, NULL, out, err), BB_OK);
    assert_float_equal(out[0].r.meas.idle, 1.0 / 3.0, 1e-12);
    assert_float_equal(out[1].r.meas.idle, 0.2, 1e-12);
    bba_model_free(&m);
}

/* A random workload of the paper's generator, quantised at R = 100. */
static void
paper_model(bba_model *m, long *b, double *p, size_t n, unsigned long seed)
{
    bba_app apps[40];
    bba_platform pf = { 100.0, 0, 1.0, 100 };
    bba_quantized q;
    char err[BB_ERRLEN];

    assert_true(n <= 40);
    assert_int_equal(bba_generate_paper(n, 0.3, 0.7, 100.0, 0, seed, apps, err), BB_OK);
    assert_int_equal(bba_quantize(apps, n, &pf, &q, err), BB_OK);
    memcpy(b, q.b, n * sizeof *b);
    memcpy(p, q.p, n * sizeof *p);
    bba_quantized_free(&q);
    assert_int_equal(bba_model_init(m, n, b, p, 100, 0, err), BB_OK);
}

/* Threads change nothing: every point equals a direct bba_eval, bit for
 * bit, with 1, 2 and 7 threads (more threads than cores on purpose). */
static void
test_threads_match_sequential(void **state)
{
    long b[12];
    double p[12];
    bba_model m;
    bba_solver_opts so;
    enum { N = 24 };
    bba_sweep_point pts[N];
    bba_sweep_out out[N];
    char err[BB_ERRLEN];
    int threads[3] = { 1, 2, 7 };

    (void)state;
    paper_model(&m, b, p, 12, 7);
    bba_solver_defaults(&so);
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < N; i++) {
        pts[i].model = &m;
        pts[i].S = 5 * (i % 12);
        pts[i].pol.lazy = i >= 12;
        pts[i].pol.eps = 0.01;
        pts[i].pol.threshold = i >= 12 ? pts[i].S / 3 : 0;
    }
    for (int t = 0; t < 3; t++) {
        memset(out, 0xAB, sizeof out);
        assert_int_equal(bb_sweep_run(pts, N, &so, threads[t], NULL, NULL, out, err), BB_OK);
        for (int i = 0; i < N; i++) {
            bba_eval_result r;

            assert_int_equal(bba_eval(&m, pts[i].S, &pts[i].pol, &so, &r, NULL, err), BB_OK);
            assert_int_equal(out[i].status, BB_OK);
            assert_int_equal(out[i].r.S, pts[i].S);
            assert_memory_equal(&out[i].r.meas.idle, &r.meas.idle, sizeof r.meas.idle);
            assert_memory_equal(&out[i].r.meas.quiet, &r.meas.quiet, sizeof r.meas.quiet);
        }
    }
    bba_model_free(&m);
}

/* The lowest failing point is reported, the others are still evaluated. */
static void
test_error_lowest_index(void **state)
{
    bba_model m;
    bba_solver_opts so;
    bba_sweep_point pts[5];
    bba_sweep_out out[5];
    char err[BB_ERRLEN];

    (void)state;
    tiny_setup(&m, &so, pts, 5);
    pts[2].S = pts[4].S = -1;   /* S < 0 is invalid */
    assert_int_equal(bb_sweep_run(pts, 5, &so, 3, NULL, NULL, out, err), BB_EINVAL);
    assert_non_null(strstr(err, "point 3:"));
    assert_int_equal(out[0].status, BB_OK);
    assert_int_equal(out[3].status, BB_OK);
    assert_float_equal(out[1].r.meas.idle, 0.2, 1e-12);
    assert_int_equal(out[4].status, BB_EINVAL);
    assert_int_equal(bb_sweep_run(pts, 5, &so, 0, NULL, NULL, out, err), BB_EINVAL);
    assert_int_equal(bb_sweep_run(pts, 0, &so, 2, NULL, NULL, out, err), BB_OK);
    bba_model_free(&m);
}

static size_t progress_calls, progress_last;

static void
count_progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    assert_true(done > progress_last && done <= total);
    progress_last = done;
    progress_calls++;
}

static void
test_progress(void **state)
{
    bba_model m;
    bba_solver_opts so;
    bba_sweep_point pts[6];
    bba_sweep_out out[6];
    char err[BB_ERRLEN];

    (void)state;
    tiny_setup(&m, &so, pts, 6);
    progress_calls = progress_last = 0;
    assert_int_equal(bb_sweep_run(pts, 6, &so, 2, count_progress, NULL, out, err), BB_OK);
    assert_int_equal(progress_calls, 6);
    assert_int_equal(progress_last, 6);
    bba_model_free(&m);
}

/* data/workloads/paper-random.csv is what its header says: the paper's
 * generator with n = 20, p_max = 0.2, alpha = 0.8, B = 100, seed 42. */
static void
test_paper_random_provenance(void **state)
{
    const char *top = getenv("BBSIZE_TOP_SRCDIR");
    char path[1024], line[512];
    bba_app apps[20];
    char err[BB_ERRLEN];
    FILE *fp;
    size_t i = 0;
    int header = 0;

    (void)state;
    snprintf(path, sizeof path, "%s/data/workloads/paper-random.csv", top ? top : ".");
    fp = fopen(path, "r");
    assert_non_null(fp);
    assert_int_equal(bba_generate_paper(20, 0.2, 0.8, 100.0, 0, 42, apps, err), BB_OK);
    while (fgets(line, sizeof line, fp)) {
        char name[64];
        double pv, bw;

        if (line[0] == '#')
            continue;
        if (!header) {
            assert_string_equal(line, "name,p,bw\n");
            header = 1;
            continue;
        }
        assert_int_equal(sscanf(line, "%63[^,],%lf,%lf", name, &pv, &bw), 3);
        assert_true(i < 20);
        assert_string_equal(name, apps[i].name);
        assert_float_equal(pv, apps[i].p, 1e-15);
        assert_float_equal(bw, apps[i].bw_Bps, 1e-12);
        i++;
    }
    fclose(fp);
    assert_int_equal(i, 20);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_threads_match_sequential),
        cmocka_unit_test(test_error_lowest_index),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_paper_random_provenance),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
