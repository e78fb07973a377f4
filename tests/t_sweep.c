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

/* The hand-worked model below: one application writing 2 bytes per
 * second with p = 1/2, B = 1 byte/s, time unit 1 s, resolution 1: 2
 * quanta of 1 byte, B = 1 quantum. */
static bba_app tiny_app[1] = { { "tiny", 0.5, 2.0, 0, 0 } };

static bba_front *
tiny_setup(bba_sweep_point *pts, size_t n)
{
    bba_question q;
    bba_front *f;
    char err[BB_ERRLEN];

    bba_question_init(&q);
    q.apps = tiny_app;
    q.n = 1;
    q.pf = (bba_platform){ 1.0, 0, 1.0, 1 };
    q.time_unit_given = 1;
    assert_int_equal(bba_front_new(&q, &f, err), BB_OK);
    memset(pts, 0, n * sizeof *pts);
    for (size_t i = 0; i < n; i++) {
        pts[i].front = f;
        pts[i].S_bytes = (double)i;
    }
    return f;
}

/* Hand-worked: one application writing 2 quanta with p = 1/2, B = 1.
 * S = 0: pi(0) = pi(0)/2 + pi(1), pi(1) = pi(0)/2, so idle = pi(1) = 1/3.
 * S = 1: states 0, 1 normal and 2 overflow; pi0 = pi1, pi2 = pi1/2, so
 * idle = pi2 = 1/5. */
static void
test_hand_worked(void **state)
{
    bba_sweep_point pts[2];
    bba_sweep_out out[2];
    char err[BB_ERRLEN];
    bba_front *f;

    (void)state;
    f = tiny_setup(pts, 2);
    assert_int_equal(bb_sweep_run(pts, 2, 2, NULL, NULL, out, err), BB_OK);
    assert_float_equal(out[0].a.idle, 1.0 / 3.0, 1e-12);
    assert_float_equal(out[1].a.idle, 0.2, 1e-12);
    bba_front_free(f);
}

/* A random workload of the paper's generator at R = 100. */
static bba_front *
paper_front(bba_app *apps, size_t n, unsigned long seed)
{
    bba_question q;
    bba_front *f;
    char err[BB_ERRLEN];

    assert_int_equal(bba_generate_paper(n, 0.3, 0.7, 100.0, 0, seed, apps, err), BB_OK);
    bba_question_init(&q);
    q.apps = apps;
    q.n = n;
    q.pf = (bba_platform){ 100.0, 0, 1.0, 100 };
    q.time_unit_given = 1;
    assert_int_equal(bba_front_new(&q, &f, err), BB_OK);
    return f;
}

/* Threads change nothing: every point equals a direct bba_front_idle, bit
 * for bit, with 1, 2 and 7 threads (more threads than cores on purpose). */
static void
test_threads_match_sequential(void **state)
{
    bba_app apps[12];
    bba_front *f;
    enum { N = 24 };
    bba_sweep_point pts[N];
    bba_sweep_out out[N];
    char err[BB_ERRLEN];
    int threads[3] = { 1, 2, 7 };

    (void)state;
    f = paper_front(apps, 12, 7);
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < N; i++) {
        pts[i].front = f;
        pts[i].S_bytes = 5.0 * (i % 12);
        pts[i].drain.kind = i >= 12 ? BB_DRAIN_LAZY : BB_DRAIN_GREEDY;
        pts[i].drain.eps = 0.01;
        pts[i].drain.threshold = i >= 12 ? 1.0 / 3.0 : 0;
    }
    for (int t = 0; t < 3; t++) {
        memset(out, 0xAB, sizeof out);
        assert_int_equal(bb_sweep_run(pts, N, threads[t], NULL, NULL, out, err), BB_OK);
        for (int i = 0; i < N; i++) {
            bba_answer r;

            assert_int_equal(bba_front_idle(f, pts[i].S_bytes, &pts[i].drain, &r, err), BB_OK);
            assert_int_equal(out[i].status, BB_OK);
            assert_int_equal(out[i].a.S_quanta, (long)pts[i].S_bytes);
            assert_memory_equal(&out[i].a.idle, &r.idle, sizeof r.idle);
            assert_memory_equal(&out[i].a.quiet, &r.quiet, sizeof r.quiet);
        }
    }
    bba_front_free(f);
}

/* The lowest failing point is reported, the others are still evaluated. */
static void
test_error_lowest_index(void **state)
{
    bba_sweep_point pts[5];
    bba_sweep_out out[5];
    char err[BB_ERRLEN];
    bba_front *f;

    (void)state;
    f = tiny_setup(pts, 5);
    pts[2].S_bytes = pts[4].S_bytes = -1;   /* S < 0 is invalid */
    assert_int_equal(bb_sweep_run(pts, 5, 3, NULL, NULL, out, err), BB_EINVAL);
    assert_non_null(strstr(err, "point 3:"));
    assert_int_equal(out[0].status, BB_OK);
    assert_int_equal(out[3].status, BB_OK);
    assert_float_equal(out[1].a.idle, 0.2, 1e-12);
    assert_int_equal(out[4].status, BB_EINVAL);
    assert_int_equal(bb_sweep_run(pts, 5, 0, NULL, NULL, out, err), BB_EINVAL);
    assert_int_equal(bb_sweep_run(pts, 0, 2, NULL, NULL, out, err), BB_OK);
    bba_front_free(f);
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
    bba_sweep_point pts[6];
    bba_sweep_out out[6];
    char err[BB_ERRLEN];
    bba_front *f;

    (void)state;
    f = tiny_setup(pts, 6);
    progress_calls = progress_last = 0;
    assert_int_equal(bb_sweep_run(pts, 6, 2, count_progress, NULL, out, err), BB_OK);
    assert_int_equal(progress_calls, 6);
    assert_int_equal(progress_last, 6);
    bba_front_free(f);
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
