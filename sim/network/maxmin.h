/* maxmin.h: max-min fair rates of flows on links (progressive filling).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Water-filling (Bertsekas & Gallager, Data Networks, 2nd ed., Sec. 6.5.2):
 * raise every unfrozen flow's rate together; when a link fills, freeze the
 * flows through it at its fair share.  Implemented with a binary heap of
 * links keyed by remaining capacity / unfrozen flows: a link's key only
 * grows as flows freeze elsewhere, so stale heap entries are skipped.
 * Cost O(P log P) for P = total path length; the fabric calls it on the
 * connected component of the flows that changed, so P is that component's
 * size.  Workspace: grows to the largest problem seen, reused. */
#ifndef BBSIZE_SIM_NETWORK_MAXMIN_H
#define BBSIZE_SIM_NETWORK_MAXMIN_H

typedef struct {
    int nflows, nlinks;
    const int *path_off;     /* nflows + 1 offsets into path */
    const int *path;         /* link indices 0..nlinks-1; a link listed twice
                                in one path carries the flow twice */
    const double *cap;       /* per link, bytes/s, > 0 */
    const unsigned char *cls;/* NULL: every flow alike on every link; else
                                per path entry, the flow's priority class
                                on that link, 0 (first) .. BBS_NET_MM_CLASSES-1 */
    double *cls_cap;         /* with cls, may be NULL: per link and class
                                (l * BBS_NET_MM_CLASSES + c), in: where the
                                class's capacity on the link starts (< 0:
                                the link's), out: where it ended */
} bbs_net_mm_problem;

#define BBS_NET_MM_CLASSES 4

/* Strict priority (cls given): on each link, class c shares max-min what
 * classes 0..c-1 leave of its capacity, as an output port serving its
 * virtual channels lowest first.  Solved as max-min over (link, class)
 * pairs whose capacities start at the link's (or where cls_cap says) and
 * move halfway, each pass, towards what the classes before them leave
 * (halfway: two flows that hold each other back on two links settle
 * between instead of starving each other in turn), until no capacity
 * moves by BBS_NET_MM_PRIO_RES of its link (at most BBS_NET_MM_PRIO_ITERS
 * passes); then made feasible class by class: a class over what the
 * earlier ones leave on a link is scaled down to it.  That is the
 * resolution (halving steps stop below it: a share is found to within
 * twice it): a pair left less than BBS_NET_MM_PRIO_RES of its link is
 * starved (capacity 0, solved again: halving towards nothing stops short
 * of it, and one pair's remainder leaves another's), and so is a flow
 * below that share of its links.  A pair whose target (what the classes
 * before it leave) held still over a pass, to that resolution, goes all
 * the way to it: the halving would end there, 8 to 10 passes later (the
 * converged rates satisfy the same conditions; two classes holding each
 * other back move each other's targets, and keep halving).  Each pass
 * costs one plain solve of the pairs in use; started where the last solve
 * of the same links ended (cls_cap). */
#define BBS_NET_MM_PRIO_ITERS 16
#define BBS_NET_MM_PRIO_RES 1e-3

typedef struct bbs_net_mm_ws bbs_net_mm_ws;

bbs_net_mm_ws *bbs_net_mm_ws_alloc(void);
void bbs_net_mm_ws_free(bbs_net_mm_ws *ws);
/* bbs_net_mm_ws_passes: the passes of the last solve with classes (0: it
 * needed none, no link carrying two). */
int bbs_net_mm_ws_passes(const bbs_net_mm_ws *ws);

/* bbs_net_maxmin_solve: rate[f] (bytes/s) for every flow; bottleneck[f]
 * (may be NULL) is the link that froze it; saturated[l] (may be NULL) is 1
 * for a link that froze at least one flow (full, flows held back by it),
 * else 0.  A flow with an empty path: BB_EINVAL.  BB_ENOMEM. */
int bbs_net_maxmin_solve(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                         int *bottleneck, unsigned char *saturated, char *err);

#endif
