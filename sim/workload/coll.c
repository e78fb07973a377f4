/* coll.c: collective schedules (coll.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "bb_error.h"
#include "workload/coll.h"
#include "workload/ops.h"
#include "grow.h"
#include "workload/wl_int.h"

static const char *const algo_names[BBS_ALGO_N] = { "auto", "recursive-doubling", "ring",
                                                    "rabenseifner" };

const char *
bbs_coll_algo_name(int algo)
{
    return algo >= 0 && algo < BBS_ALGO_N ? algo_names[algo] : "?";
}

int
bbs_coll_algo_parse(const char *name, int *algo, char *err)
{
    for (int k = 0; k < BBS_ALGO_N; k++)
        if (strcasecmp(name, algo_names[k]) == 0) {
            *algo = k;
            return BB_OK;
        }
    if (strcasecmp(name, "halving-doubling") == 0) {
        *algo = BBS_ALGO_RABENSEIFNER;
        return BB_OK;
    }
    return bb_seterr(err, BB_EINVAL, "unknown allreduce algorithm '%s' (known: auto, ring, "
                     "recursive-doubling, rabenseifner)", name);
}

typedef struct {
    bbs_coll_act *a;
    int n;
    size_t cap;
    int st, rd;     /* st orders this member's steps; rd names the round (the
                     * message tag), which both ends of a message compute alike */
} sched;

static int
add(sched *s, int send, int peer, double bytes)
{
    if (bbs_grow((void **)&s->a, sizeof *s->a, &s->cap, (size_t)s->n + 1))
        return BB_ENOMEM;
    s->a[s->n++] = (bbs_coll_act){ send, peer, bytes, s->st, s->rd };
    return BB_OK;
}

/* An exchange step: send b to peer and receive b from it. */
static int
swap(sched *s, int peer, double b)
{
    int rc = add(s, 1, peer, b);
    if (rc == BB_OK)
        rc = add(s, 0, peer, b);
    s->st++;
    return rc;
}

/* The member index of new rank nr in a folded allreduce (coll.h). */
static int
unfolded(int nr, int rem)
{
    return nr < rem ? nr * 2 + 1 : nr + rem;
}

static int
allreduce(sched *s, int algo, int p, int me, double bytes)
{
    int rc = BB_OK;
    if (algo == BBS_ALGO_RING
        || (algo == BBS_ALGO_AUTO && bytes >= BBS_ALLREDUCE_RING_MIN && p > 2)) {
        for (int k = 0; k < 2 * (p - 1) && rc == BB_OK; k++, s->st++, s->rd++)
            if ((rc = add(s, 1, (me + 1) % p, bytes / p)) == BB_OK)
                rc = add(s, 0, (me - 1 + p) % p, bytes / p);
        return rc;
    }
    int pof2 = 1;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    int rem = p - pof2, nr;
    if (me < 2 * rem) {           /* the fold, round 0 */
        rc = me % 2 == 0 ? add(s, 1, me + 1, bytes) : add(s, 0, me - 1, bytes);
        nr = me % 2 == 0 ? -1 : me / 2;
        s->st++;
    } else {
        nr = me - rem;
    }
    s->rd = 1;
    if (nr >= 0 && algo == BBS_ALGO_RABENSEIFNER) {
        /* reduce-scatter by recursive halving: keep half of the current
         * segment, send the other half; then allgather by recursive
         * doubling, the same partners and sizes in reverse */
        double seg = bytes;
        for (int mask = 1; mask < pof2 && rc == BB_OK; mask <<= 1, s->rd++) {
            seg /= 2;
            rc = swap(s, unfolded(nr ^ mask, rem), seg);
        }
        for (int mask = pof2 >> 1; mask > 0 && rc == BB_OK; mask >>= 1, s->rd++) {
            rc = swap(s, unfolded(nr ^ mask, rem), seg);
            seg *= 2;
        }
    } else if (nr >= 0) {
        for (int mask = 1; mask < pof2 && rc == BB_OK; mask <<= 1, s->rd++)
            rc = swap(s, unfolded(nr ^ mask, rem), bytes);
    }
    s->rd = 1000;                 /* the unfold round, after every other round */
    if (rc == BB_OK && me < 2 * rem) {
        rc = me % 2 ? add(s, 1, me - 1, bytes) : add(s, 0, me + 1, bytes);
        s->st++;
    }
    return rc;
}

int
bbs_coll_schedule(int kind, int algo, int p, int me, int root, double bytes,
                  bbs_coll_act **a, int *n)
{
    sched s = { NULL, 0, 0, 0, 0 };
    int rc = BB_OK;
    *a = NULL;
    *n = 0;
    if (p <= 1)
        return BB_OK;
    if (me < 0 || me >= p || root < 0 || root >= p || !(bytes >= 0) || !isfinite(bytes)
        || algo < 0 || algo >= BBS_ALGO_N)
        return BB_EINVAL;
    int rel = (me - root + p) % p;
    switch (kind) {
    case BBS_COLL_BARRIER:
        for (int d = 1; d < p && rc == BB_OK; d <<= 1, s.st++, s.rd++)
            if ((rc = add(&s, 1, (me + d) % p, 0)) == BB_OK)
                rc = add(&s, 0, (me - d + p) % p, 0);
        break;
    case BBS_COLL_BCAST: {
        int mask = 1, lvl = 0;
        while (mask < p) {
            if (rel & mask) {
                s.rd = lvl;
                rc = add(&s, 0, ((rel - mask) + root) % p, bytes);
                s.st++;
                break;
            }
            mask <<= 1;
            lvl++;
        }
        mask >>= 1;
        lvl--;
        while (mask > 0 && rc == BB_OK) {
            if (rel + mask < p) {
                s.rd = lvl;
                rc = add(&s, 1, (rel + mask + root) % p, bytes);
                s.st++;
            }
            mask >>= 1;
            lvl--;
        }
        break;
    }
    case BBS_COLL_REDUCE:
        for (int mask = 1; mask < p && rc == BB_OK; mask <<= 1, s.rd++) {
            if ((rel & mask) == 0) {
                int src = rel | mask;
                if (src < p) {
                    rc = add(&s, 0, (src + root) % p, bytes);
                    s.st++;
                }
            } else {
                rc = add(&s, 1, ((rel & ~mask) + root) % p, bytes);
                s.st++;
                break;
            }
        }
        break;
    case BBS_COLL_ALLREDUCE:
        rc = allreduce(&s, algo, p, me, bytes);
        break;
    case BBS_COLL_GATHER:
    case BBS_COLL_GATHERV:
        if (me == root) {
            for (int i = 0; i < p && rc == BB_OK; i++)
                if (i != root)
                    rc = add(&s, 0, i, bytes);
        } else {
            rc = add(&s, 1, root, bytes);
        }
        break;
    case BBS_COLL_ALLTOALL:
        for (int k = 1; k < p && rc == BB_OK; k++, s.st++, s.rd++)
            if ((rc = add(&s, 1, (me + k) % p, bytes)) == BB_OK)
                rc = add(&s, 0, (me - k + p) % p, bytes);
        break;
    default:
        break;
    }
    if (rc != BB_OK) {
        free(s.a);
        return rc;
    }
    *a = s.a;
    *n = s.n;
    return BB_OK;
}
