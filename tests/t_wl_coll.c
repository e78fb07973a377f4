/* t_wl_coll.c: collective schedules (coll.h) checked alone, for every
 * member of communicators of 1 to 40: every send has exactly one matching
 * receive (same pair, round and size), the steps can run to the end
 * without deadlock when sends are eager, and the bytes each member sends
 * and receives equal the algorithms' known totals (Rabenseifner: 2 (p -
 * 1)/p n for a power of two p, with the fold's extra n each way
 * otherwise; ring 2 (p - 1)/p n; recursive doubling log2 p' n).
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
#include "workload/coll.h"
#include "workload/ops.h"

enum { PMAX = 40 };

typedef struct {
    bbs_coll_act *a[PMAX];
    int n[PMAX];
    int p;
} all_sched;

static void
build(all_sched *S, int kind, int algo, int p, int root, double bytes)
{
    S->p = p;
    for (int me = 0; me < p; me++)
        if (bbs_coll_schedule(kind, algo, p, me, root, bytes, &S->a[me], &S->n[me]) != BB_OK)
            fail_msg("%s %s p=%d me=%d: schedule failed", bbs_coll_name(kind),
                     bbs_coll_algo_name(algo), p, me);
}

static void
release(all_sched *S)
{
    for (int me = 0; me < S->p; me++)
        free(S->a[me]);
}

/* Every send of member i to j in round r is received by j from i in
 * round r with the same size, one to one; steps never go backwards. */
static void
check_matching(const all_sched *S, const char *what)
{
    for (int i = 0; i < S->p; i++)
        for (int k = 0; k < S->n[i]; k++) {
            const bbs_coll_act *x = &S->a[i][k];
            if (k > 0 && x->step < S->a[i][k - 1].step)
                fail_msg("%s: member %d steps go backwards", what, i);
            if (x->peer < 0 || x->peer >= S->p || x->peer == i)
                fail_msg("%s: member %d action %d has peer %d", what, i, k, x->peer);
            /* count actions of i towards peer in this round and direction,
             * and their mirror images at peer */
            int mine = 0, theirs = 0;
            for (int q = 0; q < S->n[i]; q++) {
                const bbs_coll_act *y = &S->a[i][q];
                mine += y->send == x->send && y->peer == x->peer && y->round == x->round;
            }
            const bbs_coll_act *m = NULL;
            for (int q = 0; q < S->n[x->peer]; q++) {
                const bbs_coll_act *y = &S->a[x->peer][q];
                if (y->send != x->send && y->peer == i && y->round == x->round) {
                    theirs++;
                    m = y;
                }
            }
            if (mine != 1 || theirs != 1)
                fail_msg("%s: member %d %s %d round %d: %d here, %d there", what, i,
                         x->send ? "sends to" : "receives from", x->peer, x->round, mine,
                         theirs);
            if (m->bytes != x->bytes)
                fail_msg("%s: %d -> %d round %d: %g B sent, %g B expected", what,
                         x->send ? i : x->peer, x->send ? x->peer : i, x->round,
                         x->send ? x->bytes : m->bytes, x->send ? m->bytes : x->bytes);
        }
}

/* Run the steps with eager sends: a step is done when each of its
 * receives has its send posted; every member must reach its end. */
static void
check_progress(const all_sched *S, const char *what)
{
    int pos[PMAX] = { 0 }, posted[PMAX] = { 0 }, moved = 1;
    /* posted[i]: actions of i posted (the whole current step) */
    while (moved) {
        moved = 0;
        for (int i = 0; i < S->p; i++) {
            if (pos[i] >= S->n[i])
                continue;
            int st = S->a[i][pos[i]].step, end = pos[i];
            while (end < S->n[i] && S->a[i][end].step == st)
                end++;
            if (posted[i] < end) {
                posted[i] = end;
                moved = 1;
            }
            int ok = 1;
            for (int k = pos[i]; k < end && ok; k++) {
                const bbs_coll_act *x = &S->a[i][k];
                if (x->send)
                    continue;
                int found = 0;
                for (int q = 0; q < posted[x->peer] && !found; q++) {
                    const bbs_coll_act *y = &S->a[x->peer][q];
                    found = y->send && y->peer == i && y->round == x->round;
                }
                ok = found;
            }
            if (ok) {
                pos[i] = end;
                moved = 1;
            }
        }
    }
    for (int i = 0; i < S->p; i++)
        if (pos[i] < S->n[i])
            fail_msg("%s: member %d blocked at action %d of %d", what, i, pos[i], S->n[i]);
}

static void
totals(const all_sched *S, int me, double *sent, double *recvd, int *nsend)
{
    *sent = *recvd = 0;
    *nsend = 0;
    for (int k = 0; k < S->n[me]; k++) {
        if (S->a[me][k].send) {
            *sent += S->a[me][k].bytes;
            (*nsend)++;
        } else {
            *recvd += S->a[me][k].bytes;
        }
    }
}

static int
pof2_of(int p)
{
    int q = 1;
    while (q * 2 <= p)
        q *= 2;
    return q;
}

static void
test_every_kind_matches(void **state)
{
    (void)state;
    static const int algos[] = { BBS_ALGO_AUTO, BBS_ALGO_RECDBL, BBS_ALGO_RING,
                                 BBS_ALGO_RABENSEIFNER };
    char what[128];
    for (int kind = 0; kind < BBS_COLL_NKINDS; kind++)
        for (size_t ai = 0; ai < sizeof algos / sizeof algos[0]; ai++)
            for (int p = 1; p <= PMAX; p++) {
                if (kind != BBS_COLL_ALLREDUCE && ai > 0)
                    continue;
                int root = p > 1 ? (p * 7 + 3) % p : 0;
                all_sched S;
                build(&S, kind, algos[ai], p, root, 1e6);
                snprintf(what, sizeof what, "%s %s p=%d root=%d", bbs_coll_name(kind),
                         bbs_coll_algo_name(algos[ai]), p, root);
                check_matching(&S, what);
                check_progress(&S, what);
                release(&S);
            }
}

/* Rabenseifner's per-member bytes: a power of two p: 2 (p-1)/p n sent and
 * received in 2 log2 p messages; otherwise the first 2r members fold into
 * r: the even ones send n and receive n and nothing else, the odd ones
 * and the rest run the power-of-two algorithm on p' = p - r members, the
 * odd ones with n more each way. */
static void
test_rabenseifner_bytes(void **state)
{
    (void)state;
    const double n = 29516800;   /* Cosmoflow's gradient */
    for (int p = 2; p <= PMAX; p++) {
        int q = pof2_of(p), r = p - q, lg = 0;
        while ((1 << lg) < q)
            lg++;
        all_sched S;
        build(&S, BBS_COLL_ALLREDUCE, BBS_ALGO_RABENSEIFNER, p, 0, n);
        double total = 0;
        for (int me = 0; me < p; me++) {
            double sent, recvd, want;
            int nsend, want_n;
            totals(&S, me, &sent, &recvd, &nsend);
            total += sent;
            if (me < 2 * r && me % 2 == 0) {
                want = n;
                want_n = 1;
            } else {
                want = 2.0 * (q - 1) / q * n + (me < 2 * r ? n : 0);
                want_n = 2 * lg + (me < 2 * r);
            }
            if (fabs(sent - want) > 1e-9 * n || fabs(recvd - want) > 1e-9 * n
                || nsend != want_n)
                fail_msg("p=%d member %d: sent %.1f in %d, received %.1f; wanted %.1f in %d",
                         p, me, sent, nsend, recvd, want, want_n);
        }
        double want_total = q * 2.0 * (q - 1) / q * n + 2.0 * r * n;
        assert_true(fabs(total - want_total) < 1e-9 * want_total);
        if (p == q)   /* the known formula, per member: 2 (p-1)/p n */
            assert_true(fabs(total / p - 2.0 * (p - 1) / p * n) < 1e-9 * n);
        release(&S);
    }
}

/* Ring: 2 (p-1)/p n per member for every p; recursive doubling: log2 p'
 * exchanges of n (plus the fold). */
static void
test_ring_and_recdbl_bytes(void **state)
{
    (void)state;
    const double n = 1e6;
    for (int p = 2; p <= PMAX; p++) {
        all_sched S;
        build(&S, BBS_COLL_ALLREDUCE, BBS_ALGO_RING, p, 0, n);
        for (int me = 0; me < p; me++) {
            double sent, recvd;
            int ns;
            totals(&S, me, &sent, &recvd, &ns);
            assert_true(fabs(sent - 2.0 * (p - 1) / p * n) < 1e-9 * n);
            assert_true(fabs(recvd - sent) < 1e-9 * n);
        }
        release(&S);
        build(&S, BBS_COLL_ALLREDUCE, BBS_ALGO_RECDBL, p, 0, n);
        int q = pof2_of(p), r = p - q, lg = 0;
        while ((1 << lg) < q)
            lg++;
        for (int me = 0; me < p; me++) {
            double sent, recvd;
            int ns;
            totals(&S, me, &sent, &recvd, &ns);
            double want = me < 2 * r && me % 2 == 0 ? n : (lg + (me < 2 * r)) * n;
            assert_true(fabs(sent - want) < 1e-9 * n);
            assert_true(fabs(recvd - want) < 1e-9 * n);
        }
        release(&S);
    }
}

/* Hand-worked p = 4, n = 8: member 1 exchanges 4 B with 0, then 2 B with
 * 3 (halving), then 2 B with 3 and 4 B with 0 (doubling). */
static void
test_rabenseifner_by_hand(void **state)
{
    (void)state;
    bbs_coll_act *a;
    int n;
    assert_int_equal(bbs_coll_schedule(BBS_COLL_ALLREDUCE, BBS_ALGO_RABENSEIFNER, 4, 1, 0, 8,
                                       &a, &n), BB_OK);
    assert_int_equal(n, 8);
    static const int peer[4] = { 0, 3, 3, 0 };
    static const double b[4] = { 4, 2, 2, 4 };
    for (int k = 0; k < 4; k++) {
        assert_int_equal(a[2 * k].send, 1);
        assert_int_equal(a[2 * k + 1].send, 0);
        assert_int_equal(a[2 * k].peer, peer[k]);
        assert_int_equal(a[2 * k + 1].peer, peer[k]);
        assert_true(a[2 * k].bytes == b[k] && a[2 * k + 1].bytes == b[k]);
        assert_int_equal(a[2 * k].step, k);
    }
    free(a);
}

static void
test_errors_and_names(void **state)
{
    (void)state;
    bbs_coll_act *a = (bbs_coll_act *)&a;
    int n = 5, algo = -1;
    char err[BB_ERRLEN];
    assert_int_equal(bbs_coll_schedule(BBS_COLL_ALLREDUCE, 0, 4, 4, 0, 8, &a, &n), BB_EINVAL);
    assert_null(a);
    assert_int_equal(n, 0);
    assert_int_equal(bbs_coll_schedule(BBS_COLL_ALLREDUCE, 0, 4, 0, 0, -1, &a, &n), BB_EINVAL);
    assert_int_equal(bbs_coll_schedule(BBS_COLL_ALLREDUCE, 0, 4, 0, 0, NAN, &a, &n), BB_EINVAL);
    assert_int_equal(bbs_coll_schedule(BBS_COLL_ALLREDUCE, 9, 4, 0, 0, 8, &a, &n), BB_EINVAL);
    assert_int_equal(bbs_coll_schedule(BBS_COLL_ALLREDUCE, 0, 1, 0, 0, 8, &a, &n), BB_OK);
    assert_int_equal(n, 0);
    assert_int_equal(bbs_coll_algo_parse("Rabenseifner", &algo, err), BB_OK);
    assert_int_equal(algo, BBS_ALGO_RABENSEIFNER);
    assert_int_equal(bbs_coll_algo_parse("halving-doubling", &algo, err), BB_OK);
    assert_int_equal(algo, BBS_ALGO_RABENSEIFNER);
    assert_int_equal(bbs_coll_algo_parse("ring", &algo, err), BB_OK);
    assert_int_equal(algo, BBS_ALGO_RING);
    assert_int_equal(bbs_coll_algo_parse("tree", &algo, err), BB_EINVAL);
    assert_non_null(strstr(err, "rabenseifner"));
    for (int k = 0; k < BBS_ALGO_N; k++) {
        assert_int_equal(bbs_coll_algo_parse(bbs_coll_algo_name(k), &algo, err), BB_OK);
        assert_int_equal(algo, k);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_matches),
        cmocka_unit_test(test_rabenseifner_bytes),
        cmocka_unit_test(test_ring_and_recdbl_bytes),
        cmocka_unit_test(test_rabenseifner_by_hand),
        cmocka_unit_test(test_errors_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
