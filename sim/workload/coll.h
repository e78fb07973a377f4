/* coll.h: collective algorithms as per-member schedules of point-to-point
 * actions, a pure function of (kind, algorithm, p, me, root, bytes).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A schedule is the list of sends and receives of one communicator member
 * for one collective, grouped into steps: the actions of a step are posted
 * together and the next step starts when all of them are done.  Each
 * action names the algorithm's round; both ends of a message compute the
 * same round, which the executor (exec.c) uses as the message's tag.
 * Members and peers are communicator indices 0..p-1; bytes is every
 * member's contribution (the root's for BCAST).  A receive's bytes are
 * what its matching send carries (GATHERV: the caller's own size, since
 * the root cannot know the others'; the executor ignores receive sizes).
 *
 * Algorithms (MPICH's, Thakur, Rabenseifner and Gropp 2005):
 *   BARRIER    dissemination: ceil(log2 p) rounds, send to me + 2^k, receive
 *              from me - 2^k, 0 bytes.
 *   BCAST      binomial tree from root, bytes per edge.
 *   REDUCE     binomial tree to root, bytes per edge.
 *   ALLREDUCE  p' = 2^floor(log2 p), r = p - p'.  Fold: among the first 2r
 *              members, each even one sends its bytes to the next and sits
 *              out; the odd ones and the rest (new rank me/2, resp. me - r)
 *              run the algorithm on p' members; unfold: each odd one sends
 *              the result (bytes) back.
 *              RECDBL: log2 p' exchanges of bytes with new rank ^ 2^k.
 *              RABENSEIFNER: reduce-scatter by recursive halving (log2 p'
 *              exchanges of bytes/2, bytes/4, ..., bytes/p' with new rank
 *              ^ 1, ^ 2, ...), then allgather by recursive doubling (the
 *              same sizes in reverse, partners ^ p'/2, ..., ^ 1).  Per
 *              member of a power of two: 2 (p - 1)/p bytes sent and
 *              received; the folded pairs add bytes each way.
 *              RING: reduce-scatter then allgather around the ring, 2 (p -
 *              1) steps of bytes/p to me + 1 (from me - 1): 2 (p - 1)/p
 *              bytes; no fold.
 *              AUTO: ring from BBS_ALLREDUCE_RING_MIN bytes with p > 2,
 *              recursive doubling below.
 *   GATHER, GATHERV  linear: every non-root sends its bytes to root.
 *   ALLTOALL   pairwise exchange: p - 1 steps, bytes to me + k, from me - k.
 * Rounds: the fold is round 0, the unfold round 1000, the others 1, 2, ...
 * in order (so p' < 2^499). */
#ifndef BBSIZE_SIM_WORKLOAD_COLL_H
#define BBSIZE_SIM_WORKLOAD_COLL_H

/* Allreduce algorithms (the [run] and job key allreduce of
 * bbsize-scenario(5)). */
enum {
    BBS_ALGO_AUTO = 0,
    BBS_ALGO_RECDBL = 1,
    BBS_ALGO_RING = 2,
    BBS_ALGO_RABENSEIFNER = 3,
    BBS_ALGO_N
};

typedef struct {
    int send;                   /* 1 send, 0 receive */
    int peer;                   /* communicator index */
    double bytes;
    int step;                   /* local sequencing: actions of a step run together */
    int round;                  /* the algorithm's round: the tag both ends agree on */
} bbs_coll_act;

/* bbs_coll_schedule: the schedule of member me (0 <= me < p) for one
 * collective of kind (bbs_coll_kind) with allreduce algorithm algo
 * (BBS_ALGO_*; others ignore it) and root (a member index; rooted kinds).
 * *a (malloc'd, the caller frees; NULL when *n = 0) receives *n actions in
 * step order.  p <= 1 or an unknown kind: no actions.  BB_OK, BB_EINVAL
 * (me or root out of range, bytes < 0 or not finite, unknown algo),
 * BB_ENOMEM; on error *a = NULL and *n = 0. */
int bbs_coll_schedule(int kind, int algo, int p, int me, int root, double bytes,
                      bbs_coll_act **a, int *n);

/* bbs_coll_algo_parse: "auto", "ring", "recursive-doubling",
 * "rabenseifner" (also "halving-doubling"), case-insensitive.  BB_EINVAL
 * listing them. */
int bbs_coll_algo_parse(const char *name, int *algo, char *err);
const char *bbs_coll_algo_name(int algo);

#endif
