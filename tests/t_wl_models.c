/* t_wl_models.c: the structure of the MFNetSim application models
 * (models.h) read back from their operation streams and checked against
 * hand-worked cases: MILC's rank order and neighbours.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bb_error.h"
#include "workload/models.h"

static bbs_wl *
build(const bbs_model *m, int ranks)
{
    char err[BB_ERRLEN];
    bbs_wl *w;
    int job;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "j", ranks, 0, &job, err), BB_OK);
    if (bbs_model_generate(m, w, job, err) != BB_OK)
        fail_msg("generate: %s", err);
    return w;
}

/* The peers of the first n ops of kind k in rank's stream, in order. */
static int
peers(const bbs_wl *w, int rank, int kind, int *out, int max)
{
    int n, k = 0;
    const bbs_op *o = bbs_wl_stream(w, 0, rank, &n);
    for (int i = 0; i < n && k < max; i++)
        if (o[i].kind == kind)
            out[k++] = o[i].peer;
    return k;
}

/* MILC on a 3x4 grid, dimension 0 fastest (rank = c0 + 3 c1), periodic,
 * neighbours in the skeleton's order -d0, +d0, -d1, +d1.  Worked by hand:
 * rank 5 = (2,1): (1,1) = 4, (0,1) = 3 (wraps), (2,0) = 2, (2,2) = 8;
 * rank 0 = (0,0): (2,0) = 2, (1,0) = 1, (0,3) = 9, (0,1) = 3;
 * rank 11 = (2,3): (1,3) = 10, (0,3) = 9, (2,2) = 8, (2,0) = 2. */
static void
test_milc_neighbours(void **state)
{
    (void)state;
    bbs_model m;
    bbs_model_defaults(&m, BBS_MODEL_MILC);
    m.ndims = 2;
    m.dims[0] = 3, m.dims[1] = 4;
    m.iterations = 1;
    bbs_wl *w = build(&m, 12);
    static const int want[3][5] = { { 5, 4, 3, 2, 8 }, { 0, 2, 1, 9, 3 }, { 11, 10, 9, 8, 2 } };
    for (int c = 0; c < 3; c++) {
        int got[4];
        assert_int_equal(peers(w, want[c][0], BBS_OP_RECV, got, 4), 4);
        for (int i = 0; i < 4; i++)
            if (got[i] != want[c][1 + i])
                fail_msg("rank %d receive %d from %d, wanted %d", want[c][0], i, got[i],
                         want[c][1 + i]);
        assert_int_equal(peers(w, want[c][0], BBS_OP_SEND, got, 4), 4);
        for (int i = 0; i < 4; i++)
            assert_int_equal(got[i], want[c][1 + i]);
    }
    /* per iteration 2 phases x 4 sends, each followed by the phase's
     * compute, then 2 allreduces */
    bbs_wl_totals t;
    bbs_wl_job_totals(w, 0, &t);
    assert_int_equal(t.ops[BBS_OP_SEND], 12 * 8);
    assert_int_equal(t.ops[BBS_OP_COMPUTE], 12 * 2);
    assert_int_equal(t.colls[BBS_COLL_ALLREDUCE], 12 * 2);
    bbs_wl_free(w);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_milc_neighbours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
