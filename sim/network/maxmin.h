/* maxmin.h: max-min fair rates of flows on links (progressive filling).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Water-filling (Bertsekas & Gallager, Data Networks, 2nd ed., Sec. 6.5.2):
 * raise every unfrozen flow's rate together; when a link fills, freeze the
 * flows through it at its fair share; the least fair share first, ties
 * by link index.  Up to 64 links the least is found by a scan of the
 * links, beyond by a binary heap of links keyed by remaining capacity /
 * unfrozen flows: a link's key only grows as flows freeze elsewhere, so
 * its entry is a lower bound, and one that reaches the top with its key
 * grown goes back at its key (one live entry per link, not one per frozen
 * flow crossing it; a new one where rounding takes a key below its
 * entry's).  Both take the links in the same order.  Cost O(P + L R) by
 * the scan (R: the links that freeze flows), O(P log L) by the heap, for
 * P = total path length and L links; the fabric calls it on the
 * connected component of the flows that changed, so P is that component's
 * size.  Workspace: grows to the largest problem seen, reused. */
#ifndef BBSIZE_SIM_NETWORK_MAXMIN_H
#define BBSIZE_SIM_NETWORK_MAXMIN_H

typedef struct {
    int nflows, nlinks;
    const int *path_off;     /* nflows + 1 offsets into path */
    const int *path;         /* link indices 0..nlinks-1; a link listed twice
                                in one path carries the flow twice */
    const double *cap;       /* per link, bytes/s, >= 0 */
    const unsigned char *cls;/* NULL: every flow alike on every link; else
                                per path entry, the flow's priority class
                                on that link, 0 (first) .. BBS_NET_MM_CLASSES-1 */
    /* Strict priority's gaps (cls given; NULL/0: none).  gap: per path
     * entry, 1 when the flow's next link carries other traffic, so that
     * its chunks can wait there and its credits run out at this link;
     * win: per link, the credit window of one channel at its far end
     * (bytes; 0: not known, no gaps there); chunk: the chunk (bytes). */
    const unsigned char *gap;
    const double *win;
    double chunk;
} bbs_net_mm_problem;

#define BBS_NET_MM_CLASSES 4

/* Strict priority (cls given), as an output port serving its virtual
 * channels lowest first, by sequential water-filling per class:
 *  1. For c = 0, 1, ... (the classes present), the path entries of class c
 *     are filled max-min on what the lower classes leave of each link
 *     (its capacity less the rates the entries of classes below c have so
 *     far), each flow held to at most the rate its earlier classes gave it.
 *     A flow's rate is the one its last class gave it (it only goes down).
 *  2. What a flow held on a later link does not use of an earlier one is
 *     left over: the leftover of every link is shared max-min among the
 *     flows that can still grow, in equal increments (plain progressive
 *     filling of the leftovers).
 * What the lower classes leave and what is left over are differences of
 * sums of rates: below 1e-12 of the link they are rounding, and read as 0
 * (a flow would otherwise get bytes per second and end a billion seconds
 * later).
 * The rates are unique: no iteration, damping or resolution, independent
 * of the order of the flows (to rounding) and of any earlier solve.  On a
 * link whose lower classes are never held further on, class c gets
 * exactly what classes below it leave (strict priority); where a lower
 * class is held later on its path, step 2 gives its leftover to whoever
 * can use it, by equal increments rather than by class (the one departure
 * from strict priority, and what makes the answer unique where two flows
 * hold each other back on two links: they each keep what step 1 gave
 * them, then share).  Every flow ends with a bottleneck: a full link that
 * set its rate (its last class's, or where step 2 stopped it).  Cost: one
 * progressive filling per class present over that class's entries, plus
 * one over the flows that can grow: O(P log P) for P path entries. */

/* Gaps (gap, win and chunk given).  A port serves a channel only while it
 * holds a chunk of it with a credit of the next router (dragonfly-dally's
 * router_packet_receive and get_next_router_vcg): a channel's window is
 * win bytes per port (win / chunk chunks).  When every entry of the
 * classes up to c on link l is a gap entry (its next link carries other
 * traffic) and l also carries a class above c, the port runs out of
 * credited chunks of those classes after sending their windows and a
 * waiting higher chunk goes: in step 1 the classes up to c fill at most
 * cap (1 - bbs_net_mm_gap_share) of l, leaving the classes above one chunk
 * per m windows and that chunk (m: the classes up to c present on l).
 * What they do not take of it is a leftover (step 2). */
double bbs_net_mm_gap_share(double win, double chunk, int m);
/* bbs_net_mm_gap_wait_s: the matching bound on a higher channel's wait at
 * such a port of capacity cap: the m windows at the port's rate,
 * m win / cap (s). */
double bbs_net_mm_gap_wait_s(double cap, double win, int m);

typedef struct bbs_net_mm_ws bbs_net_mm_ws;

bbs_net_mm_ws *bbs_net_mm_ws_alloc(void);
void bbs_net_mm_ws_free(bbs_net_mm_ws *ws);

/* bbs_net_maxmin_solve: rate[f] (bytes/s) for every flow; bottleneck[f]
 * (may be NULL) is the link that froze it (with classes: the one that set
 * its rate, above); saturated[l] (may be NULL) is 1 for a link that is
 * some flow's bottleneck (full, flows held back by it), else 0.  The
 * workspace carries nothing from one solve to the next.  A flow with an
 * empty path, a class out of range: BB_EINVAL.  BB_ENOMEM. */
int bbs_net_maxmin_solve(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                         int *bottleneck, unsigned char *saturated, char *err);

#endif
