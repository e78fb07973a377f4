/* exec_net.c: the executor's network interface (exec_int.h): a node's
 * first-come first-served injection, small messages, flows in pieces under
 * adaptive routing, the queueing delay of loaded links, flow completions.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "engine.h"
#include "network/fabric.h"
#include "rng.h"
#include "storage/bbnode.h"
#include "storage/device.h"
#include "workload/exec.h"
#include "workload/exec_int.h"
#include "workload/wl_int.h"

/* queue_delay: what the first packet of a transfer waits on its path's
 * loaded links (vc: its channel on each, bbs_net_path_vc); 0 without a
 * packet size.  At each link, the M/D/1 wait of its output port
 * (bbs_net_fabric_queue_wait_s: per channel, Cobham's priority queue under
 * vc_priority, at most the channel's buffer ahead of it); or (queue_per_flow,
 * the earlier model) the M/D/1 wait at the link's utilisation rho,
 * rho / (2 (1 - rho)) packet times, but at most one packet time per flow
 * on the link, or with back-pressure one virtual-channel buffer per flow.
 * With back-pressure, also the head-of-line wait in the buffer at each
 * link's far end (bbs_net_fabric_hol_wait_s): when flows on the link are
 * held further on, credit-based flow control keeps that virtual-channel
 * buffer full of their packets, which leave at their rate.
 * (With strict channel priority a small message also waits for the lower
 * channels: starve_hold.) */
static double
queue_delay(const bbs_exec_state *x, const int *path, const unsigned char *vc, int len)
{
    const bbs_net_topo *t = x->c->topo;
    const int *nf = bbs_net_fabric_link_flows(x->fab);
    double pkt = x->c->packet_bytes, d = 0;

    for (int i = 0; i < len; i++) {
        double cap = t->link_cap_Bps[path[i]], buf = bbs_net_link_vc_bytes(t, path[i]);
        double vcb = x->c->backpressure ? buf : 0;

        if (pkt > 0 && !x->c->queue_per_flow) {
            d += bbs_net_fabric_queue_wait_s(x->fab, path[i], vc[i], pkt, buf);
        } else if (pkt > 0) {
            bbs_net_link_stat st;
            double rho, w, most = nf[path[i]] * fmax(vcb / pkt, 1);

            bbs_net_fabric_link_stat(x->fab, path[i], &st);
            rho = st.rate_Bps / cap;
            w = rho < 1 ? rho / (2 * (1 - rho)) : INFINITY;
            if (w > most)
                w = most;
            d += w * pkt / cap;
        }
        d += bbs_net_fabric_hol_wait_s(x->fab, path[i], vc[i], vcb);
    }
    return d;
}

/* starve_hold: with strict channel priority, what small message m (not a
 * flow; a flow's starvation is in its rate) waits at the links of its
 * path whose lower channels fill them, until their flows have sent what
 * they have left (bbs_net_fabric_starve_gap_s); those links are kept in
 * m, to look again then (exec_h_starved): the output port sends from its
 * lowest non-empty channel, so flows that started there meanwhile go
 * first too.  Where the lower channels leave gaps (its gap flag) the
 * wait is their windows and the packet goes through then: that link is
 * not looked at again. */
static double
starve_hold(const bbs_exec_state *x, msg *m, const int *path, const unsigned char *vc, int len)
{
    double d = 0;

    m->nstarve = 0;
    if (!x->c->vc_priority)
        return 0;
    for (int i = 0; i < len; i++) {
        int gap;
        double w = bbs_net_fabric_starve_gap_s(x->fab, path[i], vc[i], &gap);
        if (w > 0 && !gap) {
            m->starve_link[m->nstarve] = path[i];
            m->starve_vc[m->nstarve++] = vc[i];
        }
        d += w;
    }
    return d;
}

int
exec_h_starved(bbs_engine *e, const bbs_event *ev, void *ctx)
{
    bbs_exec_state *x = ctx;
    int mi = (int)ev->arg;
    msg *m = &x->m[mi];
    double d = 0, now = bbs_engine_now(e);
    int n = 0;

    for (int i = 0; i < m->nstarve; i++) {
        int l = m->starve_link[i], vc = m->starve_vc[i];
        int gap;
        double w = bbs_net_fabric_starve_gap_s(x->fab, l, vc, &gap);
        if (w > 0 && !gap) {
            m->starve_link[n] = l; /* to look again; through a gap: not */
            m->starve_vc[n++] = (unsigned char)vc;
        }
        d += w;
    }
    m->nstarve = n;
    m->qdelay += d;
    return d > 0 ? exec_sched(x, now + d, EV_STARVED, 0, mi, NULL)
                 : exec_sched(x, now + m->after_s, EV_ARRIVE, 0, mi, NULL);
}

/* store_forward: what a message's first packet adds by being received
 * whole at every hop before it goes on (CODES' dragonfly-dally times each
 * chunk on each link at its own size, at most a packet): the sum over the
 * path of min(bytes, packet) / the link's wire bandwidth, less that
 * packet's time on the slowest link (the bytes / rate of a flow, or of a
 * small message, already count that one); 0 without a packet size or with
 * store_forward off. */
static double
store_forward(const bbs_exec_state *x, double bytes, const int *path, int len)
{
    const bbs_net_topo *t = x->c->topo;
    double p = fmin(bytes, x->c->packet_bytes), sum = 0, slowest = INFINITY;

    if (!x->c->store_forward || !(p > 0))
        return 0;
    for (int i = 0; i < len; i++) {
        sum += p / t->link_cap_Bps[path[i]];
        slowest = fmin(slowest, t->link_cap_Bps[path[i]]);
    }
    return fmax(sum - p / slowest, 0);
}

/* first_packet_delay: what message m's first packet adds on the path
 * (its channels vc): the queueing it meets and its store-and-forward. */
static double
first_packet_delay(const bbs_exec_state *x, const msg *m, const int *path,
                   const unsigned char *vc, int len)
{
    return queue_delay(x, path, vc, len) + store_forward(x, m->bytes, path, len);
}

/* all_pieces: whether message m goes in pieces that are all routed and
 * started at once (progressive adaptive routing, par: dragonfly-dally
 * routes every packet of a message when it reaches a router, so its later
 * packets see the ports its earlier ones fill); under adaptive routing a
 * message's pieces go one after the other. */
static int
all_pieces(const bbs_exec_state *x, const msg *m)
{
    return x->c->route.kind == BBS_NET_ROUTE_PAR && x->c->route_piece_bytes > 0
           && m->bytes > x->c->route_piece_bytes;
}

/* exec_send_piece: the flows of message mi, routed on the loads of now: all
 * of it, or under adaptive routing with route_piece_bytes its next piece
 * (CODES routes every packet adaptively; a piece is the flow model's
 * packet), or under par all its pieces, one after the other at this
 * instant, each routed on the port occupancies the pieces before it leave
 * (bbs_net_fabric_port_occupancy counts a flow started now as filling its
 * first router port).  Under par m->xfer_left is then what the pieces have
 * not yet delivered.  The first piece's path gives the queueing delay. */
static int
exec_send_piece(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    const bbs_net_topo *t = x->c->topo;
    int path[BBS_NET_MAX_PATH], minimal, len, all = all_pieces(x, m), rc;
    double rp = x->c->route_piece_bytes, left = m->xfer_left;

    do {
        double piece = left;
        if (bbs_net_route_is_adaptive(x->c->route.kind) && rp > 0 && piece > rp)
            piece = rp;
        len = bbs_net_fabric_route(x->fab, &x->c->route, x->rng_route, m->src_node,
                                   m->dst_node, path, &minimal);
        if (left == m->bytes) {
            unsigned char vc[BBS_NET_MAX_PATH];
            bbs_net_path_vc(t, path, len, x->c->vc_scheme, vc);
            m->qdelay = first_packet_delay(x, m, path, vc, len);
        }
        left -= piece;
        if ((rc = bbs_net_fabric_start(x->fab, m->src_node, m->dst_node, piece, path, len,
                                       minimal, mi, NULL, x->err)) != BB_OK)
            return rc;
    } while (all && left > 0);
    if (!all)
        m->xfer_left = left;
    return BB_OK;
}

/* transmit: message mi leaves m->src_node now.  A P2P message of at most
 * small_bytes is routed but is not a flow: it is sent at the path's
 * slowest link and arrives after the path's delays and queueing; anything
 * else goes as flows on routed paths (exec_send_piece), whose arrival adds the
 * queueing its first packet meets. */
static int
transmit(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    const bbs_net_topo *t = x->c->topo;

    if (m->kind == M_P2P && m->bytes <= x->c->small_bytes) {
        int path[BBS_NET_MAX_PATH], len, rc;
        unsigned char vc[BBS_NET_MAX_PATH];
        double cap = INFINITY, t_sent, held;

        len = bbs_net_fabric_route(x->fab, &x->c->route, x->rng_route, m->src_node, m->dst_node,
                                   path, NULL);
        bbs_net_path_vc(t, path, len, x->c->vc_scheme, vc);
        m->qdelay = first_packet_delay(x, m, path, vc, len);
        held = starve_hold(x, m, path, vc, len);
        for (int i = 0; i < len; i++) {
            cap = fmin(cap, t->link_cap_Bps[path[i]]);
            x->small_link_bytes[t->link_kind[path[i]]] += m->bytes;
        }
        x->jb[m->job].hops += bbs_net_path_router_hops(t, path, len);
        x->jb[m->job].hopn++;
        t_sent = bbs_engine_now(x->e) + m->bytes / cap;
        if ((rc = exec_sched(x, t_sent, EV_LOCALSEND, 0, mi, NULL)) != BB_OK)
            return rc;
        if (held > 0) {
            m->after_s = bbs_net_path_delay_s(t, path, len) + m->qdelay;
            m->qdelay += held;
            return exec_sched(x, t_sent + held, EV_STARVED, 0, mi, NULL);
        }
        return exec_sched(x, t_sent + bbs_net_path_delay_s(t, path, len) + m->qdelay, EV_ARRIVE,
                          0, mi, NULL);
    }
    m->xfer_left = m->bytes;
    return exec_send_piece(x, mi);
}

/* exec_inject: message mi from node src to node dst (src != dst) through src's
 * network interface: at once, or (inject_fcfs) after the messages the node
 * sent before it, one at a time, as CODES' fcfs scheduler sends a node's
 * messages, one message's packets after the other's. */
int
exec_inject(bbs_exec_state *x, int mi, int src, int dst)
{
    msg *m = &x->m[mi];

    m->src_node = src;
    m->dst_node = dst;
    if (!x->c->inject_fcfs)
        return transmit(x, mi);
    node_st *q = &x->nd[src];
    if (q->inj_busy) {
        m->inj_next = -1;
        if (q->inj_tail >= 0)
            x->m[q->inj_tail].inj_next = mi;
        else
            q->inj_head = mi;
        q->inj_tail = mi;
        return BB_OK;
    }
    q->inj_busy = 1;
    m->injecting = 1;
    return transmit(x, mi);
}

/* exec_injected: message mi's last byte has left its node: the next waiting
 * message of the node goes. */
int
exec_injected(bbs_exec_state *x, int mi)
{
    msg *m = &x->m[mi];
    node_st *q = &x->nd[m->src_node];
    int nx;

    if (!m->injecting)
        return BB_OK;
    m->injecting = 0;
    nx = q->inj_head;
    if (nx < 0) {
        q->inj_busy = 0;
        return BB_OK;
    }
    q->inj_head = x->m[nx].inj_next;
    if (q->inj_head < 0)
        q->inj_tail = -1;
    x->m[nx].inj_next = -1;
    x->m[nx].injecting = 1;
    return transmit(x, nx);
}

int
exec_on_flow_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    bbs_exec_state *x = ctx;
    int mi = (int)info->tag, rc;
    msg *m = &x->m[mi];
    double t_arr = bbs_engine_now(e) + info->delay_s + m->qdelay;
    if (all_pieces(x, m)) {
        m->xfer_left -= info->bytes;
        if (m->xfer_left > 1e-9 * m->bytes) /* the rounding of the sum */
            return BB_OK; /* other pieces still on their way */
    } else if (m->xfer_left > 0) {
        return exec_send_piece(x, mi);
    }
    x->jb[m->job].hops += info->router_hops;
    x->jb[m->job].hopn++;
    if ((rc = exec_injected(x, mi)) != BB_OK)
        return rc;
    if (m->kind == M_P2P) {
        if ((rc = exec_sched(x, t_arr, EV_ARRIVE, 0, mi, NULL)) != BB_OK)
            return rc;
        return exec_local_send_done(x, mi);
    }
    if (m->kind == M_IOW)
        return exec_sched(x, t_arr, EV_DEVIN, 0, mi, NULL);
    return exec_sched(x, t_arr, EV_ARRIVE, 0, mi, NULL);
}
