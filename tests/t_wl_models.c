/* t_wl_models.c: the structure of the MFNetSim application models
 * (models.h) read back from their operation streams and checked against
 * hand-worked cases: MILC's rank order and neighbours, Nekbone's
 * non-periodic lattice and its solves, Cosmoflow's blocking steps.
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

#include "bb_error.h"
#include "workload/models.h"
#include "job_keys.h"

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

/* The op kinds of rank's stream as letters: C compute, S send, R receive,
 * W waitall, w wait (for one op), A allreduce, B barrier, r blocking read,
 * v blocking write,
 * others '?'. */
static void
kinds(const bbs_wl *w, int rank, char *buf, size_t cap)
{
    int n;
    const bbs_op *o = bbs_wl_stream(w, 0, rank, &n);
    size_t k = 0;
    for (int i = 0; i < n && k + 1 < cap; i++) {
        char c = '?';
        switch (o[i].kind) {
        case BBS_OP_COMPUTE: c = 'C'; break;
        case BBS_OP_SEND: c = 'S'; break;
        case BBS_OP_RECV: c = 'R'; break;
        case BBS_OP_WAITALL: c = 'W'; break;
        case BBS_OP_WAIT: c = 'w'; break;
        case BBS_OP_READ: c = o[i].nonblocking ? '?' : 'r'; break;
        case BBS_OP_WRITE: c = o[i].nonblocking ? '?' : 'v'; break;
        case BBS_OP_COLL:
            c = o[i].coll == BBS_COLL_ALLREDUCE ? 'A' : o[i].coll == BBS_COLL_BARRIER ? 'B' : '?';
            break;
        default: break;
        }
        buf[k++] = c;
    }
    buf[k] = 0;
}

/* Nekbone on a non-periodic 3x2x2 lattice (rank = x + 3 y + 6 z) with
 * 2x3x1 elements per rank, one order P = 2, 2 CG iterations, 8-B DOFs.
 * Rank 0 = (0,0,0) has 7 neighbours, in the skeleton's order (faces,
 * corners, edges): +x 1, +y 3, +z 6, corner (1,1,1) 10, edges (0,1,1) 9,
 * (1,0,1) 7, (1,1,0) 4.  Shared DOFs, E_i P + 1 = 5, 7, 3 along x, y, z:
 * +x face 7 x 3, +y face 5 x 3, +z face 5 x 7, corner 1, edge along x 5,
 * along y 7, along z 3; times 8 B.  The centre-most rank 10 = (1,1,1) has
 * 3 x 2 x 2 - 1 = 11 neighbours.  Per order: 2 gather-scatters, a CG solve
 * (allreduce, then per iteration allreduce, gather-scatter, 2 allreduces),
 * a barrier, a second solve.  A gather-scatter: 7 receives, 7 sends, a
 * wait for each receive (never for the sends, as the skeleton). */
static void
test_nekbone_structure(void **state)
{
    (void)state;
    bbs_model m;
    char err[BB_ERRLEN];
    bbs_model_defaults(&m, BBS_MODEL_NEKBONE);
    assert_int_equal(bbs_model_set(&m, "grid", "3x2x2", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "elements", "2x3x1", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "orders", "2:3:1", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "cg_iterations", "2", err), BB_OK);
    bbs_wl *w = build(&m, 12);
    static const int want_peer[7] = { 1, 3, 6, 10, 9, 7, 4 };
    static const double want_bytes[7] = { 168, 120, 280, 8, 40, 56, 24 };
    int n, k = 0;
    const bbs_op *o = bbs_wl_stream(w, 0, 0, &n);
    for (int i = 0; i < n && k < 7; i++)
        if (o[i].kind == BBS_OP_SEND) {
            if (o[i].peer != want_peer[k] || o[i].bytes != want_bytes[k])
                fail_msg("send %d to %d of %.0f B, wanted %d and %.0f", k, o[i].peer,
                         o[i].bytes, want_peer[k], want_bytes[k]);
            k++;
        }
    assert_int_equal(k, 7);
    int got[16];
    assert_int_equal(peers(w, 10, BBS_OP_SEND, got, 16), 16);   /* 11 + 5 of the next */
    assert_int_equal(got[11], got[0]);
    char buf[1024], want[1024];
    const char *x = "RRRRRRRSSSSSSSwwwwwww";
    snprintf(want, sizeof want, "%s%s" "A" "A%sAA" "A%sAA" "B" "A" "A%sAA" "A%sAA", x, x, x, x,
             x, x);
    kinds(w, 0, buf, sizeof buf);
    assert_string_equal(buf, want);
    /* the closed form counts pairs per offset, independently of the
     * per-rank loop: 6 gather-scatters of every rank's messages */
    bbs_wl_totals t;
    bbs_wl_job_totals(w, 0, &t);
    assert_true(fabs(t.p2p_bytes - bbs_model_p2p_bytes(&m, 12)) < 1e-6);
    assert_int_equal(t.colls[BBS_COLL_ALLREDUCE], 12 * 14);
    assert_int_equal(t.colls[BBS_COLL_BARRIER], 12);
    bbs_wl_free(w);
    /* one number for elements means a cube */
    assert_int_equal(bbs_model_set(&m, "elements", "4", err), BB_OK);
    assert_true(m.elem[0] == 4 && m.elem[1] == 4 && m.elem[2] == 4);
    assert_int_equal(bbs_model_set(&m, "elements", "4x4", err), BB_EINVAL);
}

/* Cosmoflow as the artifact's skeleton runs it: per iteration a blocking
 * write of the batch to a file of its own at offset 0 (rank r, iteration
 * i: object r x iterations + i of the job), then compute, then the
 * allreduce; batch_op = read turns the write into a read of the same
 * bytes (the paper's Figure 6). */
static void
test_cosmoflow_steps(void **state)
{
    (void)state;
    bbs_model m;
    char err[BB_ERRLEN], buf[64];
    bbs_model_defaults(&m, BBS_MODEL_COSMOFLOW);
    assert_int_equal(bbs_model_set(&m, "iterations", "3", err), BB_OK);
    bbs_wl *w = build(&m, 4);
    kinds(w, 2, buf, sizeof buf);
    assert_string_equal(buf, "vCAvCAvCA");
    bbs_wl_totals t;
    bbs_wl_job_totals(w, 0, &t);
    assert_true(t.write_bytes == 4 * 3 * 8388608.0 && t.read_bytes == 0);
    assert_true(fabs(t.compute_s - 4 * 3 * 0.129) < 1e-12);
    assert_true(t.coll_bytes[BBS_COLL_ALLREDUCE] == 4 * 3 * 29516800.0);
    {
        int n;
        const bbs_op *s = bbs_wl_stream(w, 0, 2, &n);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(s[3 * i].kind, BBS_OP_WRITE);
            assert_true(s[3 * i].object == (uint64_t)(2 * 3 + i) && s[3 * i].offset == 0);
        }
    }
    bbs_wl_free(w);
    assert_int_equal(bbs_model_set(&m, "batch_op", "read", err), BB_OK);
    w = build(&m, 4);
    kinds(w, 0, buf, sizeof buf);
    assert_string_equal(buf, "rCArCArCA");
    bbs_wl_job_totals(w, 0, &t);
    assert_true(t.read_bytes == 4 * 3 * 8388608.0 && t.write_bytes == 0);
    bbs_wl_free(w);
    assert_int_equal(bbs_model_set(&m, "batch_op", "WRITE", err), BB_OK);
    assert_int_equal(m.batch_write, 1);
    assert_int_equal(bbs_model_set(&m, "batch_op", "pipelined", err), BB_EINVAL);
    assert_int_equal(m.batch_write, 1);
    assert_non_null(strstr(err, "read (the paper) or write (the artifact)"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_milc_neighbours),
        cmocka_unit_test(test_nekbone_structure),
        cmocka_unit_test(test_cosmoflow_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
