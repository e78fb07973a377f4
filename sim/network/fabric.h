/* fabric.h: the dragonfly at flow level on the event engine: flows on
 * routed paths share link bandwidth max-min fairly, recomputed when flows
 * start or end; per-link statistics.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each message or I/O transfer is a flow with a path (route.h) and a size.
 * Starting or ending a flow marks its links dirty; one update event per
 * instant (priority BBS_NET_PRIO_UPDATE, after the models' events at that
 * time) recomputes rates.  The recomputation touches only the connected
 * component of the dirty links in the flow-link graph (links -> flows on
 * them -> their other links ...): flows outside it keep their rates, which
 * is exact because max-min rates of disjoint components are independent
 * (SimGrid's "selective update" of its LMM solver does the same).  Under
 * heavy load on a dragonfly the component is nearly every flow, so a
 * local mode re-solves only the flows sharing a link with a changed one
 * (bbs_net_fabric_set_exact_limit).  Only flows whose rate changed get
 * their completion event rescheduled.
 *
 * Packets are not simulated: no credit-based flow control, no per-packet
 * buffers (the virtual channels below are classes of flows), no packet
 * latency under load (see the README); the fabric
 * tracks, per link, the rate of the flows held downstream of it
 * (bbs_net_fabric_backed_Bps), from which a model can charge the
 * head-of-line wait those flows' full buffers would cause.  A flow's
 * latency adds the path's router and link delays (bbs_net_path_delay_s)
 * to its transfer time; the completion callback
 * fires when the last byte leaves the fabric (transfer end), and the model
 * adds info->delay_s where it needs arrival times.
 *
 * Sizes: 10^3 to 10^5 concurrent flows; the hot cost is one max-min solve
 * per instant over a component, O(P log P) for P = its total path length. */
#ifndef BBSIZE_SIM_NETWORK_FABRIC_H
#define BBSIZE_SIM_NETWORK_FABRIC_H

#include <stdint.h>

#include "engine.h"
#include "route.h"
#include "topo.h"

/* The priority of the fabric's events (models use 0 for theirs). */
#define BBS_NET_PRIO_DONE 0
#define BBS_NET_PRIO_UPDATE 100

typedef struct bbs_net_fabric bbs_net_fabric;

/* What the completion callback receives. */
typedef struct {
    int flow;              /* id (reused after the callback returns) */
    int src, dst;          /* nodes */
    double bytes;
    double t_start_s;      /* when the flow entered the fabric */
    double t_end_s;        /* when its last byte was sent (= now) */
    double delay_s;        /* router and link delays of its path */
    int router_hops;
    int minimal;           /* the routing chose the minimal path */
    int64_t tag;           /* the model's */
} bbs_net_flow_info;

/* The callback returns BB_OK or a status that stops the engine. */
typedef int (*bbs_net_done_fn)(bbs_engine *e, const bbs_net_flow_info *info, void *ctx);

/* bbs_net_fabric_new: a fabric over topology t (borrowed) that registers
 * two handlers with engine e (borrowed) and calls done(ctx) at every flow
 * completion.  BB_ENOMEM, BB_EINVAL (engine full of kinds). */
int bbs_net_fabric_new(bbs_net_fabric **out, const bbs_net_topo *t, bbs_engine *e,
                       bbs_net_done_fn done, void *ctx, char *err);
void bbs_net_fabric_free(bbs_net_fabric *f);

/* bbs_net_fabric_start: a flow of bytes (>= 0) from src to dst on path
 * (len links, from route.h) at the engine's current time.  *flow_out (may
 * be NULL) receives its id.  BB_EINVAL (bad path or size), BB_ENOMEM. */
int bbs_net_fabric_start(bbs_net_fabric *f, int src, int dst, double bytes, const int *path,
                         int len, int minimal, int64_t tag, int *flow_out, char *err);

/* bbs_net_fabric_route_start: route with o and r (bbs_net_fabric_route),
 * then start. */
int bbs_net_fabric_route_start(bbs_net_fabric *f, const bbs_net_route_opts *o, gsl_rng *r,
                               int src, int dst, double bytes, int64_t tag, int *flow_out,
                               char *err);

/* bbs_net_fabric_route: the path from src to dst under o (route.h) on the
 * fabric's state now: adaptive routing on its flows per link, par on its
 * ports' occupancies (bbs_net_fabric_port_occupancy).  Returns the length;
 * *took_min as bbs_net_route. */
int bbs_net_fabric_route(const bbs_net_fabric *f, const bbs_net_route_opts *o, gsl_rng *r,
                         int src, int dst, int *path, int *took_min);

/* bbs_net_fabric_port_occupancy: the bytes a router's output port that
 * sends on link l holds now, as dragonfly-dally's route scoring counts
 * them (dfdally_score_connection: the credits in use on every channel of
 * the port, vc_occupancy, plus the chunks waiting there for a credit,
 * queued_count), at flow level.  A flow held at l or further on (l is
 * its bottleneck or lies before it: it sends into l faster than l, or
 * what follows l, takes its bytes) keeps its channel's buffer beyond l
 * full (the link's VC buffer, bbs_net_link_vc_bytes) and the buffer it
 * came from before l full of chunks waiting for a credit (counted per
 * flow: CODES' are per input port and channel); a flow held before l
 * passes with one chunk in flight (BBS_NET_CHUNK_BYTES; at most the
 * channel's buffer for all such flows of a channel).  A flow started at
 * this instant, not yet given a rate, counts as held at its first router
 * port (path[1]): its node sends into that port faster than the port
 * sends on, as a message's packets fill it before its later ones are
 * routed.  0 for an idle port.  O(flows on l). */
double bbs_net_fabric_port_occupancy(const bbs_net_fabric *f, int l);

/* bbs_net_fabric_set_exact_limit: how rates are recomputed.  -1 (the
 * default): exact, over the whole connected component of the changed
 * links.  0: local, only the flows that share a link with a flow that
 * started or ended, every other flow held at its rate (each re-solved flow
 * gets what the others leave: capacities are never exceeded, but capacity
 * freed two links away is only found at those flows' next update, and a
 * re-solved flow may overtake a held one on a shared bottleneck).  N > 0:
 * exact while the component has at most N flows, else local; after a
 * component too large, the next 1, 2, 4 ... 64 updates go local without
 * trying (the exact attempt costs up to N flows of search). */
void bbs_net_fabric_set_exact_limit(bbs_net_fabric *f, int limit);

/* bbs_net_fabric_set_vc_priority: on (1), a link serves its flows in
 * strict priority by the virtual channel each uses there (bbs_net_path_vc
 * under scheme: traffic still in its source group before traffic arriving
 * in its destination group, as dragonfly-dally's output ports serve their
 * channels lowest first), max-min within a channel (maxmin.h's classes,
 * filled one after the other), and where the lower channels' next links
 * are shared and the link's channel window (bbs_net_link_vc_bytes) is
 * known, their gaps leave the higher channels a share (maxmin.h); off (0,
 * the default), max-min among all.
 * The channels are tracked under scheme either way (the default:
 * BBS_NET_VC_GROUP).  Set it before the first flow starts. */
void bbs_net_fabric_set_vc_priority(bbs_net_fabric *f, int on, int scheme);

/* Number of active flows on each link (indexed by link id). */
const int *bbs_net_fabric_link_flows(const bbs_net_fabric *f);
int bbs_net_fabric_active(const bbs_net_fabric *f);
/* bbs_net_fabric_flow_rate: current rate of an active flow, bytes/s. */
double bbs_net_fabric_flow_rate(const bbs_net_fabric *f, int flow);

/* bbs_net_fabric_backed_Bps: the rate of the flows on link l whose
 * bottleneck lies further on their path.  Under credit-based flow control
 * such a flow fills the virtual-channel buffer at l's far end, which then
 * drains at its rate: a packet entering that buffer behind it waits
 * (head-of-line) about the buffer's size over this rate. */
double bbs_net_fabric_backed_Bps(const bbs_net_fabric *f, int l);

/* bbs_net_fabric_hol_wait_s: the head-of-line wait (s), now, of a packet
 * entering link l on virtual channel vc whose buffer at l's far end holds
 * vc_bytes.  Without vc_priority: vc_bytes / bbs_net_fabric_backed_Bps.
 * With it, the flows held beyond l on the same channel fill that buffer
 * and drain it at their rate; one starved where it is held (the lower
 * channels fill that link) drains once that link has sent what their
 * flows have left, so the wait is at most that time (the longest over the
 * held flows) when every held flow is starved so.  0 when nothing is held
 * (or only flows at no rate that nothing starves). */
double bbs_net_fabric_hol_wait_s(const bbs_net_fabric *f, int l, int vc, double vc_bytes);

/* bbs_net_fabric_starve_wait_s: with vc_priority, what a packet on channel
 * vc > 0 waits at link l, now, when the lower channels fill it (to the
 * rounding of summed rates, 1e-9 of the link): the time l needs to send what
 * their flows have left, at its capacity, at most their windows when they
 * leave gaps (bbs_net_fabric_lower_gaps); else 0 (and 0 when now + that
 * time is now: the rounding of flows that end within a unit of the
 * clock).
 * (A flow's own starvation is in its rate; this is for the packets that
 * are not flows.) */
double bbs_net_fabric_starve_wait_s(const bbs_net_fabric *f, int l, int vc);

/* bbs_net_fabric_lower_gaps: with vc_priority, 1 when the channels below
 * vc fill link l now but leave gaps (maxmin.h): l's channel window is
 * known and every flow of theirs on l has a next link that carries another
 * flow, so the port runs out of their credited chunks after their windows
 * and a waiting chunk of vc goes.  The starve wait is then at most those
 * windows at l's capacity (bbs_net_mm_gap_wait_s) and ends with the packet
 * through (no need to look again); else 0.  O(flows on l). */
int bbs_net_fabric_lower_gaps(const bbs_net_fabric *f, int l, int vc);

/* bbs_net_fabric_starve_gap_s: bbs_net_fabric_starve_wait_s, and in *gap
 * (may be NULL) whether that wait is one through the lower channels' gaps
 * (bbs_net_fabric_lower_gaps; 0 when the wait is 0), from one look at the
 * link's flows instead of two.  O(flows on l). */
double bbs_net_fabric_starve_gap_s(const bbs_net_fabric *f, int l, int vc, int *gap);

/* bbs_net_md1_wait_s: the mean wait (s) of a packet of pkt_bytes on
 * channel c at an output port of capacity cap_Bps whose nclass channels
 * carry class_Bps[0 .. nclass-1] (bytes/s), one packet after the other
 * (deterministic service S = pkt_bytes / cap_Bps), lowest non-empty
 * channel first: Cobham's wait of a non-preemptive priority M/G/1 queue,
 * rho S / (2 (1 - s_lo) (1 - s_hi)), with rho the port's utilisation (every
 * channel), s_lo that of the channels below c and s_hi of those up to c
 * (one channel: the M/D/1 wait rho S / (2 (1 - rho))).  At most buf_bytes
 * of the packet's own channel are ahead of it (the channel's buffer:
 * credit flow control per port and channel), sent at what the lower
 * channels leave, so the wait is at most buf_bytes / (cap (1 - s_lo)),
 * and buf_bytes / cap when the lower channels fill the port (that wait
 * is bbs_net_fabric_starve_wait_s's).  O(nclass). */
double bbs_net_md1_wait_s(double cap_Bps, double pkt_bytes, double buf_bytes,
                          const double *class_Bps, int nclass, int c);

/* bbs_net_fabric_queue_wait_s: bbs_net_md1_wait_s at link l now, for a
 * packet on channel vc, with the link's rate per channel (with
 * vc_priority; without it, one channel carrying them all) and buffers of
 * max(buf_bytes, pkt_bytes) = B; with vc_priority at most the time the
 * link needs to send what the lower channels' flows have left, at its
 * capacity (at most their windows when they leave gaps), plus B at its
 * capacity (those flows end: the buffer does not wait for ever behind
 * lower channels that leave it a sliver).  O(flows
 * on l) with vc_priority, O(1) without. */
double bbs_net_fabric_queue_wait_s(const bbs_net_fabric *f, int l, int vc, double pkt_bytes,
                                   double buf_bytes);

/* bbs_net_fabric_flush: bring every link's counters to time now_s
 * (>= the last update); call before reading them at the end of a run. */
void bbs_net_fabric_flush(bbs_net_fabric *f, double now_s);

/* Per-link counters since the start, valid after bbs_net_fabric_flush. */
typedef struct {
    double bytes;          /* carried */
    double saturated_s;    /* time full with flows held back by the link */
    double rate_Bps;       /* current aggregate rate */
    int saturated;         /* saturated now */
    int flows;             /* active flows now */
} bbs_net_link_stat;
void bbs_net_fabric_link_stat(const bbs_net_fabric *f, int link, bbs_net_link_stat *s);

/* Cost counters: rate recomputations, flows and path entries they
 * touched (sum), the largest component. */
typedef struct {
    uint64_t updates, exact_updates, flows_touched, path_touched, max_component, flows_started;
} bbs_net_fabric_cost;
void bbs_net_fabric_cost_get(const bbs_net_fabric *f, bbs_net_fabric_cost *c);

/* bbs_net_fabric_check: verify the current rates (call when no update is
 * pending, e.g. between bbs_engine_run calls): no link above capacity
 * (relative tolerance tol), and every flow has a bottleneck link: full
 * (within tol) and where no flow is faster (the max-min optimality
 * condition, Bertsekas & Gallager Sec. 6.5.2; with vc_priority, no flow
 * of its channel or a later one there).  BB_OK or BB_EDATA saying
 * which link or flow fails. */
int bbs_net_fabric_check(const bbs_net_fabric *f, double tol, char *err);

#endif
