/* t_scnbuild.c: a scenario made runnable (sim/workload/scnbuild.h): the
 * streams of its jobs (names, ranks, starts, allreduce, bytes by the
 * models' closed forms), the same for every stream unit when no job draws,
 * errors named by job and line, and the executor configuration.
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

#include "bb_error.h"
#include "workload/coll.h"
#include "workload/scnbuild.h"

/* Two checkpoint jobs on a preset, fed through the key API as the INI
 * reader does. */
static void
scenario(bbs_scenario *s)
{
    static const char *const kv[][2] = {
        { "[", "topology" }, { "preset", "graph500-72" },
        { "[", "storage" }, { "device", "mfnetsim-bb" }, { "capacity", "4GB" },
        { "pfs_bandwidth", "8GB/s" },
        { "[", "placement" }, { "policy", "random-node" },
        { "[", "run" }, { "seed", "3" },
        { "[", "job a" }, { "model", "checkpoint" }, { "ranks", "4" }, { "iterations", "3" },
        { "compute", "1s" }, { "total_bytes", "8GB" }, { "start", "5s" },
        { "[", "job b" }, { "model", "checkpoint" }, { "ranks", "2" }, { "iterations", "1" },
        { "total_bytes", "1GB" }, { "allreduce", "ring" },
    };
    char err[BB_ERRLEN];

    bbs_scenario_init(s, "t.ini");
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
        int line = (int)i + 1, rc;

        if (!strcmp(kv[i][0], "["))
            rc = bbs_scenario_section(s, kv[i][1], line, "t.ini", err);
        else
            rc = bbs_scenario_set(s, kv[i][0], kv[i][1], line, "t.ini", err);
        if (rc != BB_OK)
            fail_msg("line %d: %s", line, err);
    }
    if (bbs_scenario_finish(s, err) != BB_OK)
        fail_msg("%s", err);
}

/* Checkpoint: iterations x total_bytes written over the job's ranks. */
static void
streams_as_declared(void **state)
{
    bbs_scenario s;
    bbs_wl *w = NULL;
    bbs_wl_totals t;
    char err[BB_ERRLEN];
    int algo;

    (void)state;
    scenario(&s);
    assert_int_equal(bbs_scenario_build(&s, NULL, NULL, 0, &w, err), BB_OK);
    assert_int_equal(bbs_wl_njobs(w), 2);
    assert_string_equal(bbs_wl_job_name(w, 0), "a");
    assert_string_equal(bbs_wl_job_name(w, 1), "b");
    assert_int_equal(bbs_wl_nranks(w, 0), 4);
    assert_int_equal(bbs_wl_nranks(w, 1), 2);
    assert_float_equal(bbs_wl_job_start(w, 0), 5.0, 0);
    assert_float_equal(bbs_wl_job_start(w, 1), 0.0, 0);
    bbs_wl_job_totals(w, 0, &t);
    assert_float_equal(t.write_bytes, 3 * 8e9, 1);
    bbs_wl_job_totals(w, 1, &t);
    assert_float_equal(t.write_bytes, 1e9, 1);
    assert_int_equal(bbs_coll_algo_parse("ring", &algo, err), BB_OK);
    assert_int_equal(bbs_wl_job_allreduce(w, 1), algo);
    bbs_wl_free(w);
    bbs_scenario_free(&s);
}

/* The MFNetSim models draw nothing: unit 7 gives the same streams. */
static void
units_alike_without_draws(void **state)
{
    bbs_scenario s;
    bbs_wl *w0 = NULL, *w7 = NULL;
    char err[BB_ERRLEN];

    (void)state;
    scenario(&s);
    assert_int_equal(bbs_scenario_build(&s, NULL, NULL, 0, &w0, err), BB_OK);
    assert_int_equal(bbs_scenario_build(&s, NULL, NULL, 7, &w7, err), BB_OK);
    for (int j = 0; j < 2; j++)
        for (int r = 0; r < bbs_wl_nranks(w0, j); r++) {
            int n0, n7;
            const bbs_op *a = bbs_wl_stream(w0, j, r, &n0), *b = bbs_wl_stream(w7, j, r, &n7);

            assert_int_equal(n0, n7);
            assert_memory_equal(a, b, (size_t)n0 * sizeof *a);
        }
    bbs_wl_free(w0);
    bbs_wl_free(w7);
    bbs_scenario_free(&s);
}

/* A generator's refusal names the file, the job and its line; nothing is
 * returned. */
static void
errors_name_the_job(void **state)
{
    bbs_scenario s;
    bbs_wl *w = (bbs_wl *)&s;   /* must stay untouched */
    char err[BB_ERRLEN] = "";

    (void)state;
    scenario(&s);
    bbs_wl_set_default_max_ops(3);
    assert_int_not_equal(bbs_scenario_build(&s, NULL, NULL, 0, &w, err), BB_OK);
    bbs_wl_set_default_max_ops(0);
    assert_non_null(strstr(err, "t.ini: job 'a' (line "));
    assert_ptr_equal(w, (bbs_wl *)&s);
    bbs_scenario_free(&s);
}

static void
exec_config_from_scenario(void **state)
{
    bbs_scenario s;
    bbs_exec_config c;

    (void)state;
    scenario(&s);
    memset(&c, 0xff, sizeof c);
    bbs_scenario_exec_config(&s, &c);
    assert_float_equal(c.pfs_bw_Bps, 8e9, 0);
    assert_float_equal(c.capacity_bytes, 4e9, 0);
    assert_int_equal(c.seed, 3);
    assert_int_equal(c.route.kind, s.routing);
    assert_null(c.topo);      /* the caller's: initialised, not set */
    assert_null(c.place);
    bbs_scenario_free(&s);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(streams_as_declared),
        cmocka_unit_test(units_alike_without_draws),
        cmocka_unit_test(errors_name_the_job),
        cmocka_unit_test(exec_config_from_scenario),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
