/* t_wl_exec.c: the executor of operation streams against hand-worked
 * cases: collective byte counts, MILC's closed form, Nekbone, the
 * checkpoint and the storage server's pieces, dependencies, deadlock and
 * disagreeing collectives, capacity and draining.  The network side of
 * the executor (injection, latency, queueing, priority, store-and-forward)
 * is t_wl_exec_net.c.
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
#include "network/place.h"
#include "rng.h"
#include "network/route.h"
#include "network/topo.h"
#include "workload/exec.h"
#include "workload/models.h"
#include "wl_exec_test.h"
#include "job_keys.h"

/* Messages and bytes of collectives, counted by hand from the algorithms
 * of ops.h. */
static void
coll_case(int p, bbs_coll_kind k, double bytes, int job_algo, double want_msgs,
          double want_bytes)
{
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { p }, nodes[64];
    bbs_net_placement pl;
    bbs_exec_result r;
    for (int i = 0; i < p; i++)
        nodes[i] = i;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "c", p, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_job_allreduce(w, job), -1);
    if (job_algo >= 0)
        assert_int_equal(bbs_wl_set_job_allreduce(w, job, job_algo, err), BB_OK);
    for (int i = 0; i < p; i++)
        assert_int_equal(bbs_wl_coll(w, job, i, k, 0, 1 % p, bytes, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    if ((double)r.jobs[0].messages != want_msgs || fabs(r.jobs[0].bytes_sent - want_bytes) > 1e-6)
        fail_msg("%s (%s) p=%d: %llu messages %.0f B, wanted %.0f and %.0f", bbs_coll_name(k),
                 bbs_coll_algo_name(job_algo), p, (unsigned long long)r.jobs[0].messages,
                 r.jobs[0].bytes_sent, want_msgs, want_bytes);
    assert_true(r.jobs[0].finished);
    /* the communication time is all of this collective's kind */
    for (int q = 0; q < BBS_EXEC_NKINDS; q++)
        assert_true(r.jobs[0].kind_mean_s[q] == (q == 1 + (int)k ? r.jobs[0].comm_mean_s : 0));
    assert_true(r.jobs[0].comm_mean_s > 0 || p == 1);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* seek_device: a table device of 1000 MiB/s, 20 us per access and a
 * 2.5 ms seek (MFNetSim's rule: a seek unless the access continues the
 * one before within 512 B). */
static void
seek_device(bbs_dev_params *d)
{
    bbs_dev_params_init(d, BBS_DEV_TABLE);
    d->capacity_bytes = 1e12;
    d->table.nbins = 1;
    d->table.read_MiBps[0] = d->table.write_MiBps[0] = 1000.0;
    d->table.write_seek_us[0] = 2500;
    d->table.write_overhead_us[0] = 20;
    d->table.seq_window_bytes = 512;
}

/* A job's own allreduce algorithm beats the run's: Rabenseifner on 8
 * members of 1e6 B is 2 log2 8 = 6 exchanges of 5e5, 2.5e5, 1.25e5 B and
 * back, 48 messages and 8 x 2 x 7/8 x 1e6 B; on 6 members (4 after the
 * fold of 2 pairs) 2 + 4 x 4 + 2 = 20 messages, 2 + 4 x 1.5 + 2 = 10 n;
 * recursive doubling at 1 MB (auto would ring): 3 rounds of 8 x 1 MB. */
static void
test_job_allreduce(void **state)
{
    char err[BB_ERRLEN];
    bbs_wl *w;
    int job;
    (void)state;
    coll_case(8, BBS_COLL_ALLREDUCE, 1e6, BBS_ALGO_RABENSEIFNER, 48, 8 * 2 * 7.0 / 8 * 1e6);
    coll_case(6, BBS_COLL_ALLREDUCE, 1e6, BBS_ALGO_RABENSEIFNER, 20, 10e6);
    coll_case(8, BBS_COLL_ALLREDUCE, 1e6, BBS_ALGO_RECDBL, 24, 24e6);
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "c", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_set_job_allreduce(w, job, BBS_ALGO_N, err), BB_EINVAL);
    assert_int_equal(bbs_wl_set_job_allreduce(w, job + 1, BBS_ALGO_RING, err), BB_EINVAL);
    bbs_wl_free(w);
}

/* Nekbone's streams on a non-periodic 3x2x2 lattice run to the end (every
 * receive matches a send: no deadlock) and send at least their p2p bytes
 * (t_wl_models.c checks the streams themselves). */
static void
test_nekbone_runs(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_model m;
    bbs_wl *w;
    int job, ranks[1] = { 12 }, nodes[12];
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_model_defaults(&m, BBS_MODEL_NEKBONE);
    assert_int_equal(bbs_model_set(&m, "grid", "3x2x2", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "orders", "2:4:1", err), BB_OK);
    assert_int_equal(bbs_model_set(&m, "cg_iterations", "3", err), BB_OK);
    for (int i = 0; i < 12; i++)
        nodes[i] = 3 * i;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "nek", 12, 0, &job, err), BB_OK);
    assert_int_equal(bbs_model_generate(&m, w, job, err), BB_OK);
    /* the skeleton waits for its receives, never for its sends: no
     * WAITALL, one WAIT per receive, each on a receive */
    for (int rk = 0; rk < 12; rk++) {
        int n, recvs = 0, waits = 0;
        const bbs_op *ops = bbs_wl_stream(w, job, rk, &n);
        for (int i = 0; i < n; i++) {
            assert_int_not_equal(ops[i].kind, BBS_OP_WAITALL);
            if (ops[i].kind == BBS_OP_RECV)
                recvs++;
            if (ops[i].kind == BBS_OP_WAIT) {
                waits++;
                assert_int_equal(ops[ops[i].ref].kind, BBS_OP_RECV);
            }
        }
        assert_true(recvs > 0);
        assert_int_equal(waits, recvs);
    }
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_true(r.jobs[0].finished);
    assert_true(r.jobs[0].bytes_sent >= bbs_model_p2p_bytes(&m, 12));
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

static void
test_collectives(void **state)
{
    (void)state;
    /* recursive doubling, p = 8: 3 rounds of 8 messages */
    coll_case(8, BBS_COLL_ALLREDUCE, 8, -1, 24, 24 * 8);
    /* p = 6: pof2 4, rem 2: 2 folds, 4 x 2 rounds, 2 unfolds = 12 */
    coll_case(6, BBS_COLL_ALLREDUCE, 8, -1, 12, 12 * 8);
    /* ring, p = 4, 1 MB: 2(p-1) steps of p messages of b/p: 2(p-1) b */
    coll_case(4, BBS_COLL_ALLREDUCE, 1e6, -1, 24, 6e6);
    /* binomial trees: p - 1 messages of b */
    coll_case(7, BBS_COLL_BCAST, 1000, -1, 6, 6000);
    coll_case(7, BBS_COLL_REDUCE, 1000, -1, 6, 6000);
    /* dissemination barrier, p = 5: ceil(log2 5) = 3 rounds of 5 */
    coll_case(5, BBS_COLL_BARRIER, 0, -1, 15, 0);
    /* gather: p - 1; alltoall: p(p-1) */
    coll_case(5, BBS_COLL_GATHER, 100, -1, 4, 400);
    coll_case(5, BBS_COLL_ALLTOALL, 100, -1, 20, 2000);
}

/* MILC at reduced scale: p2p bytes equal ranks x iterations x 16 x size. */
static void
test_milc_bytes(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_model m;
    bbs_wl *w;
    int job, ranks[1] = { 36 }, nodes[36];
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_wl_totals tot;
    bbs_model_defaults(&m, BBS_MODEL_MILC);
    m.ndims = 4;
    m.dims[0] = 3, m.dims[1] = 3, m.dims[2] = 2, m.dims[3] = 2;
    m.iterations = 3;
    for (int i = 0; i < 36; i++)
        nodes[i] = 2 * i;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "milc", 36, 0, &job, err), BB_OK);
    assert_int_equal(bbs_model_generate(&m, w, job, err), BB_OK);
    bbs_wl_job_totals(w, job, &tot);
    double closed = 36.0 * 3 * 16 * 497664;
    assert_true(tot.p2p_bytes == closed);
    assert_true(bbs_model_p2p_bytes(&m, 36) == closed);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    /* the simulated bytes: p2p plus the allreduces (36 ranks, pof2 32,
     * rem 4: 4 folds + 32 x 5 + 4 unfolds = 168 messages of 8 B, 2 per
     * iteration) */
    double coll = 3.0 * 2 * 168 * 8;
    assert_true(fabs(r.jobs[0].bytes_sent - (closed + coll)) < 1e-3);
    assert_true(r.jobs[0].finished);
    assert_true(r.jobs[0].comm_mean_s > 0);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* Checkpoint: every rank writes total/ranks through the table device:
 * bytes written equal the total; with 1 rank per buffer node, the I/O
 * time is at least the device time. */
static void
test_checkpoint_io(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(1);
    bbs_model m;
    bbs_wl *w;
    int job, ranks[1] = { 4 };
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_model_defaults(&m, BBS_MODEL_CHECKPOINT);
    m.total_bytes = 4e8;
    /* compute nodes 1, 18, 35, 52: distinct buffer nodes (8 per... ) */
    int nodes[4] = { t->compute_nodes[0], t->compute_nodes[8], t->compute_nodes[16],
                     t->compute_nodes[24] };
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "ckpt", 4, 0, &job, err), BB_OK);
    assert_int_equal(bbs_model_generate(&m, w, job, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_true(r.jobs[0].bytes_written == 4e8);
    double dev = 1e8 / (1000.0 * 1048576);
    assert_true(r.jobs[0].io_mean_s >= dev);
    assert_true(r.jobs[0].io_mean_s < dev + 1e8 / 5e9 + 1e-3);
    assert_true(fabs(r.jobs[0].compute_mean_s - 0.1) < 1e-12);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

/* The storage server's pieces: two ranks on one node write 8 MiB each to
 * their own files on the node-local buffer (a table device: 1000 MiB/s,
 * 20 us per request, a 2.5 ms seek whenever a piece does not continue the
 * previous one, as on MFNetSim's buffer), B just after A.  Pieces of 1 MiB,
 * 4 in flight, the next piece issued in turn over the requests present:
 * A1..A4 are issued when A arrives; then the device order is
 *   A1 A2 A3 A4 A5 B1 A6 B2 A7 B3 A8 B4 B5 B6 B7 B8
 * with a seek at A1, B1, A6, B2, A7, B3, A8, B4 (another file than the
 * piece before): A ends after 11 u + 7 s, B after 16 u + 8 s, u = 1 MiB /
 * rate + 20 us, s = 2.5 ms.  Whole requests in FIFO order: A then B, one
 * seek each: q = 8 MiB / rate + 20 us + 2.5 ms, A after q, B after 2 q. */
static void
test_storage_pieces(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    double mib = 1048576, rate = 1000 * mib, u = mib / rate + 20e-6, sk = 2.5e-3;
    double q = 8 * mib / rate + 20e-6 + sk, a_end = 11 * u + 7 * sk, b_end = 16 * u + 8 * sk;

    /* threads (MFNetSim's req_threads, 4 per request; on one node the
     * pieces move at once): A's threads hand A1..A4 to the device, then
     * B's B1..B4; each written piece's thread takes the next, queued at
     * the device's tail: A1-A4 B1-B4 A5-A8 B5-B8, a seek at A1, B1, A5,
     * B5: A ends after 12 u + 3 s, B after 16 u + 4 s. */
    double ta_end = 12 * u + 3 * sk, tb_end = 16 * u + 4 * sk;

    for (int pieces = 0; pieces <= 2; pieces++) {
        bbs_wl *w;
        int job, ranks[1] = { 2 }, nodes[2] = { 5, 5 };
        bbs_net_placement pl;
        bbs_exec_result r;
        bbs_exec_config c;
        double want_max = pieces == 2 ? tb_end : pieces ? b_end : 2 * q;
        double want_mean = pieces == 2 ? (ta_end + tb_end) / 2
                           : pieces ? (a_end + b_end) / 2 : 1.5 * q;

        assert_int_equal(bbs_wl_new(&w, err), BB_OK);
        assert_int_equal(bbs_wl_add_job(w, "two", 2, 0, &job, err), BB_OK);
        for (int k = 0; k < 2; k++)
            assert_int_equal(bbs_wl_io(w, job, k, 1, 8 * mib, (uint64_t)k + 1, 0, err),
                             BB_OK);
        place_list(&pl, 1, ranks, nodes);
        bbs_exec_config_init(&c);
        c.topo = t;
        c.place = &pl;
        c.arch = BBS_ARCH_NODE_LOCAL;
        c.piece_bytes = pieces ? mib : 0;
        c.pieces_in_flight = pieces ? 4 : 1;
        c.piece_threads = pieces == 2 ? 4 : 0;
        seek_device(&c.bb_dev);
        if (bbs_exec_run(w, &c, &r, err) != BB_OK)
            fail_msg("%s", err);
        if (fabs(r.jobs[0].io_max_s - want_max) > 1e-9 * want_max
            || fabs(r.jobs[0].io_mean_s - want_mean) > 1e-9 * want_mean)
            fail_msg("pieces %d: I/O max %.12g mean %.12g s, want %.12g and %.12g", pieces,
                     r.jobs[0].io_max_s, r.jobs[0].io_mean_s, want_max, want_mean);
        bbs_exec_result_free(&r);
        bbs_net_placement_free(&pl);
        bbs_wl_free(w);
    }
    bbs_net_topo_free(t);
}

/* One rank on node client writes 4 MiB to its buffer node in 1 MiB
 * pieces moved by threads threads (the seek device): its I/O time. */
static double
write_4mib(bbs_net_topo *t, int client, int threads)
{
    char err[BB_ERRLEN];
    double mib = 1048576, io;
    bbs_wl *w;
    int job, ranks[1] = { 1 }, nodes[1] = { client };
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_exec_config c0;

    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "one", 1, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_io(w, job, 0, 1, 4 * mib, 1, 0, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    bbs_exec_config_init(&c0);
    c0.topo = t;
    c0.place = &pl;
    c0.arch = BBS_ARCH_COMPUTE_GLOBAL;
    c0.piece_bytes = mib;
    c0.piece_threads = threads;
    seek_device(&c0.bb_dev);
    if (bbs_exec_run(w, &c0, &r, err) != BB_OK)
        fail_msg("%s", err);
    io = r.jobs[0].io_max_s;
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    return io;
}

/* The server's threads over the network (compute-side buffer node): one
 * rank writes 4 MiB in 1 MiB pieces.  Each piece crosses an idle path
 * (p / c + d) and is written (u; a seek before the first only, the others
 * continue it).  One thread: piece after piece, 4 (p / c + d + u) + s.
 * Four threads: the pieces leave the client one after the other (FCFS),
 * the first arrives at p / c + d and the device, slower than the link,
 * writes the four back to back: p / c + d + s + 4 u. */
static void
test_storage_threads_network(void **state)
{
    (void)state;
    bbs_net_topo *t = small_topo(1);
    double mib = 1048576, rate = 1000 * mib, u = mib / rate + 20e-6, sk = 2.5e-3;
    int client = t->compute_nodes[0], bb = -1, path[BBS_NET_MAX_PATH], len;

    for (int n = 0; n < t->nodes && bb < 0; n++)
        if (t->node_kind[n] & BBS_NET_NODE_BB)
            bb = n;
    double c = path_of(t, client, bb, path, &len), d = bbs_net_path_delay_s(t, path, len);
    assert_true(mib / c < u);
    for (int threads = 1; threads <= 4; threads += 3) {
        double want = threads == 1 ? 4 * (mib / c + d + u) + sk : mib / c + d + sk + 4 * u;
        double io = write_4mib(t, client, threads);
        if (fabs(io - want) > 1e-9 * want)
            fail_msg("%d threads: I/O %.12g s, want %.12g", threads, io, want);
    }
    bbs_net_topo_free(t);
}

/* CODES' LP mapping (compute_per_group): a client on its buffer node's
 * terminal moves its pieces without the network, so its 4 MiB write is
 * the device's alone, s + 4 u with any number of threads; a client on
 * the next terminal still pays its path. */
static void
test_shared_terminal(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_params par;
    bbs_net_topo *t;
    double mib = 1048576, rate = 1000 * mib, u = mib / rate + 20e-6, sk = 2.5e-3;
    double want = sk + 4 * u;

    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    par.bb_per_group = 1;
    par.compute_per_group = 8;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(t->node_kind[0], BBS_NET_NODE_BB | BBS_NET_NODE_COMPUTE);
    for (int threads = 1; threads <= 4; threads += 3) {
        double here = write_4mib(t, 0, threads), next = write_4mib(t, 1, threads);
        if (fabs(here - want) > 1e-9 * want)
            fail_msg("%d threads on the buffer node's terminal: I/O %.12g s, want %.12g",
                     threads, here, want);
        if (!(next > want * (1 + 1e-6)))
            fail_msg("%d threads one terminal further: I/O %.12g s, want more than %.12g",
                     threads, next, want);
    }
    bbs_net_topo_free(t);
}

/* BBS_DEP_OP: rank 1's compute waits for rank 0's receive; BBS_DEP_NONE
 * runs at once. */
static void
test_dependencies(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 3 }, nodes[3] = { 0, 1, 2 }, ri;
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_op op;
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "dep", 3, 0, &job, err), BB_OK);
    /* rank 2 sends to 0 after 1 s; rank 0 receives; rank 1 computes 2 s
     * after rank 0's receive completes */
    assert_int_equal(bbs_wl_compute(w, job, 2, 1.0, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 2, 0, 0, 1, 0, NULL, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 0, 2, 1, 0, &ri, err), BB_OK);
    bbs_op_init(&op, BBS_OP_COMPUTE);
    op.dep = BBS_DEP_OP;
    op.dep_rank = 0;
    op.dep_op = ri;
    op.delay_s = 2.0;
    /* rank 1 has no earlier op: the dependency is cross-rank */
    assert_int_equal(bbs_wl_append(w, job, 1, &op, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_OK, err);
    assert_true(r.jobs[0].elapsed_s > 3.0 && r.jobs[0].elapsed_s < 3.0 + 1e-3);
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bbs_wl_free(w);
    bbs_net_topo_free(t);
}

static void
test_bad(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(0);
    bbs_wl *w;
    int job, ranks[1] = { 2 }, nodes[2] = { 0, 5 };
    bbs_net_placement pl;
    bbs_exec_result r;
    /* a receive that is never matched */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "dl", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_recv(w, job, 1, 0, 3, 0, NULL, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    run(w, t, &pl, &r, BB_EDATA, err);
    assert_non_null(strstr(err, "deadlock"));
    assert_non_null(strstr(err, "rank 1"));
    bbs_wl_free(w);
    /* collective participants that disagree */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "dis", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_coll(w, job, 0, BBS_COLL_BCAST, 0, 0, 8, err), BB_OK);
    assert_int_equal(bbs_wl_coll(w, job, 1, BBS_COLL_ALLREDUCE, 0, 0, 8, err), BB_OK);
    run(w, t, &pl, &r, BB_EDATA, err);
    assert_non_null(strstr(err, "bcast"));
    assert_non_null(strstr(err, "allreduce"));
    bbs_wl_free(w);
    /* appending out of range */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "x", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_send(w, job, 0, 2, 8, 0, 0, NULL, err), BB_EINVAL);
    assert_non_null(strstr(err, "peer 2"));
    bbs_wl_free(w);
    bbs_net_placement_free(&pl);
    bbs_net_topo_free(t);
}

/* Capacity and draining: two ranks on one buffer node write 1e8 B each
 * into a buffer of 1.5e8 B that drains at 1e9 B/s in 5e7-B chunks: the
 * second write cannot fit beside the first, so it stalls until a chunk has
 * drained; at the end every byte is on the PFS.  A single write larger
 * than the buffer is refused. */
static void
test_capacity_drain(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(1);
    bbs_wl *w;
    int job, ranks[1] = { 2 };
    bbs_net_placement pl;
    bbs_exec_result r;
    bbs_exec_config c;
    int nodes[2] = { t->compute_nodes[0], t->compute_nodes[1] };
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "w", 2, 0, &job, err), BB_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(bbs_wl_io(w, job, i, 1, 1e8, (uint64_t)i, 0, err), BB_OK);
    place_list(&pl, 1, ranks, nodes);
    exec_config_on(&c, t, &pl);
    c.capacity_bytes = 1.5e8;
    c.pfs_bw_Bps = 1e9;
    c.drain_chunk_bytes = 5e7;
    assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_OK);
    assert_true(r.stall_s > 0);
    assert_true(fabs(r.bytes_on_pfs - 2e8) < 1);
    assert_true(r.jobs[0].bytes_written == 2e8);
    bbs_exec_result_free(&r);
    bbs_wl_free(w);
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "w", 2, 0, &job, err), BB_OK);
    assert_int_equal(bbs_wl_io(w, job, 0, 1, 2e8, 0, 0, err), BB_OK);
    assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "exceeds the buffer capacity"));
    bbs_wl_free(w);
    bbs_net_placement_free(&pl);
    bbs_net_topo_free(t);
}

/* The progress callback: done never decreases, total is every rank's
 * ops, calls every progress_ops ops and once at the end. */
typedef struct {
    int64_t seen[16], total;
    int n, bad_total;
} prog_log;

static void
prog_cb(void *ctx, int64_t done, int64_t total)
{
    prog_log *L = ctx;
    if (L->n < 16)
        L->seen[L->n] = done;
    L->n++;
    if (total != L->total)
        L->bad_total = 1;
}

static void
test_progress(void **state)
{
    (void)state;
    char err[BB_ERRLEN];
    bbs_net_topo *t = small_topo(1);
    bbs_wl *w;
    int job, ranks[1] = { 4 };
    bbs_net_placement pl;
    bbs_exec_result r0, r;
    bbs_exec_config c;
    int nodes[4] = { t->compute_nodes[0], t->compute_nodes[3], t->compute_nodes[6],
                     t->compute_nodes[9] };
    /* 4 ranks x 5 ops (compute, send to the next, receive from the
     * previous, allreduce, write): 20 ops */
    assert_int_equal(bbs_wl_new(&w, err), BB_OK);
    assert_int_equal(bbs_wl_add_job(w, "p", 4, 0, &job, err), BB_OK);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(bbs_wl_compute(w, job, i, 1e-3 * (i + 1), err), BB_OK);
        assert_int_equal(bbs_wl_send(w, job, i, (i + 1) % 4, 1e6, 0, 1, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_recv(w, job, i, (i + 3) % 4, 0, 0, NULL, err), BB_OK);
        assert_int_equal(bbs_wl_coll(w, job, i, BBS_COLL_ALLREDUCE, 0, 0, 1e5, err), BB_OK);
        assert_int_equal(bbs_wl_io(w, job, i, 1, 1e7, (uint64_t)i, 0, err), BB_OK);
    }
    place_list(&pl, 1, ranks, nodes);
    exec_config_on(&c, t, &pl);
    assert_int_equal(bbs_exec_run(w, &c, &r0, err), BB_OK);
    /* every 3 ops: 3, 6, ..., 18, then the end at 20 */
    prog_log L = { { 0 }, 20, 0, 0 };
    c.progress = prog_cb;
    c.progress_ctx = &L;
    c.progress_ops = 3;
    assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_OK);
    assert_int_equal(L.n, 7);
    assert_false(L.bad_total);
    for (int i = 0; i < 6; i++)
        assert_int_equal(L.seen[i], 3 * (i + 1));
    assert_int_equal(L.seen[6], 20);
    /* the callback changes nothing */
    assert_true(r.jobs[0].elapsed_s == r0.jobs[0].elapsed_s);
    assert_true(r.events == r0.events);
    bbs_exec_result_free(&r);
    /* stopped at a horizon before the end: the last call says so */
    L.n = 0;
    c.progress_ops = 1;
    c.horizon_s = 2.5e-3;
    assert_int_equal(bbs_exec_run(w, &c, &r, err), BB_OK);
    assert_true(L.n >= 2 && L.n < 16);
    for (int i = 1; i < L.n; i++)
        assert_true(L.seen[i] >= L.seen[i - 1]);
    assert_true(L.seen[L.n - 1] > 0 && L.seen[L.n - 1] < 20);
    assert_false(L.bad_total);
    bbs_exec_result_free(&r);
    bbs_exec_result_free(&r0);
    bbs_wl_free(w);
    bbs_net_placement_free(&pl);
    bbs_net_topo_free(t);
}

static void
test_young_daly(void **state)
{
    (void)state;
    /* delta 60 s, MTTI 24 h: sqrt(2 60 86400) - 60 = 3219.9 - 60 */
    assert_true(fabs(bbs_young_daly_s(60, 86400) - (sqrt(2.0 * 60 * 86400) - 60)) < 1e-9);
    assert_true(fabs(bbs_young_daly_s(60, 86400) - 3159.9) < 0.1);
    assert_true(bbs_young_daly_s(100, 10) == 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collectives),
        cmocka_unit_test(test_job_allreduce),
        cmocka_unit_test(test_nekbone_runs),
        cmocka_unit_test(test_milc_bytes),
        cmocka_unit_test(test_checkpoint_io),
        cmocka_unit_test(test_storage_pieces),
        cmocka_unit_test(test_storage_threads_network),
        cmocka_unit_test(test_shared_terminal),
        cmocka_unit_test(test_dependencies),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_capacity_drain),
        cmocka_unit_test(test_young_daly),
        cmocka_unit_test(test_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
