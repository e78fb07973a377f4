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
} bbs_net_mm_problem;

typedef struct bbs_net_mm_ws bbs_net_mm_ws;

bbs_net_mm_ws *bbs_net_mm_ws_alloc(void);
void bbs_net_mm_ws_free(bbs_net_mm_ws *ws);

/* bbs_net_maxmin_solve: rate[f] (bytes/s) for every flow; bottleneck[f]
 * (may be NULL) is the link that froze it; saturated[l] (may be NULL) is 1
 * for a link that froze at least one flow (full, flows held back by it),
 * else 0.  A flow with an empty path: BB_EINVAL.  BB_ENOMEM. */
int bbs_net_maxmin_solve(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                         int *bottleneck, unsigned char *saturated, char *err);

#endif
