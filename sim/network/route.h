/* route.h: paths through the dragonfly: minimal, Valiant and UGAL-style
 * adaptive routing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A path is a list of link ids from the source's injection link to the
 * destination's ejection link.  Minimal: at most local, global, local
 * (3 router-to-router hops).  Valiant (Valiant & Brebner; Kim et al.
 * Sec. 4.2): minimal to a random intermediate group, then minimal to the
 * destination, at most 5 router-to-router hops; inside one group, through a
 * random intermediate router of the group (2 local hops).  Adaptive
 * (UGAL-L at the source, Singh's UGAL as used by Kim et al. and CODES'
 * adaptive modes): cost = router hops x max over the path's router links of
 * (flows on the link + 1) / capacity; the minimal path is taken when
 * cost_min <= (1 + bias) x the best of `candidates` Valiant costs.
 * When several global links join two groups one is picked at random.
 * Random draws use the caller's GSL stream; the number of draws per call is
 * not fixed (it depends on the topology and on the choice). */
#ifndef BBSIZE_SIM_NETWORK_ROUTE_H
#define BBSIZE_SIM_NETWORK_ROUTE_H

#include <gsl/gsl_rng.h>

#include "topo.h"

#define BBS_NET_MAX_PATH 8

enum bbs_net_routing {
    BBS_NET_ROUTE_MIN = 0,
    BBS_NET_ROUTE_VAL = 1,
    BBS_NET_ROUTE_ADAPTIVE = 2
};

typedef struct {
    int kind;              /* enum bbs_net_routing */
    double bias;           /* adaptive: >= 0, favours the minimal path */
    int candidates;        /* adaptive: Valiant paths compared, >= 1 */
} bbs_net_route_opts;

/* bbs_net_route_parse: "min"/"minimal", "val"/"valiant"/"nonminimal",
 * "adaptive"/"ugal"/"prog-adaptive"/"par" (CODES' names included).
 * BB_EINVAL with the accepted names otherwise. */
int bbs_net_route_parse(const char *name, int *kind, char *err);
const char *bbs_net_route_name(int kind);

/* bbs_net_route: write the path from node src to node dst (src != dst)
 * into path[BBS_NET_MAX_PATH]; returns its length.  link_flows (may be
 * NULL: then adaptive routing acts as minimal) gives the number of flows on
 * each link now.  *took_min (may be NULL) says whether the path is minimal. */
int bbs_net_route(const bbs_net_topo *t, const bbs_net_route_opts *o, int src, int dst,
                  gsl_rng *r, const int *link_flows, int *path, int *took_min);

/* bbs_net_link_vc_bytes: the virtual-channel buffer a packet enters
 * when it has crossed link l (0 for a link into a terminal, or unknown). */
double bbs_net_link_vc_bytes(const bbs_net_topo *t, int l);

/* bbs_net_path_router_hops: router-to-router links in a path. */
int bbs_net_path_router_hops(const bbs_net_topo *t, const int *path, int len);

/* How packets get their virtual channel on each link (bbs_net_path_vc). */
enum bbs_net_vc_scheme {
    /* CODES' dragonfly-dally on the kronos-union branch MFNetSim builds
     * (router_packet_receive, since 2020): the channel of a hop leaving a
     * router is the number of local hops the packet made so far while in
     * its source group (1 once a non-minimal route was chosen, which, on a
     * 1-D dragonfly, caps it at 1), 2 in an intermediate group, 3 in the
     * destination group; the hop into the terminal counts as the router's;
     * the terminal's link into its router has one channel, 0. */
    BBS_NET_VC_GROUP = 0,
    /* the scheme that code replaced (kept there as a comment): a global
     * link gets the number of global links before it; a local link 0
     * before any global link, 1 right after the first, 2 after a local hop
     * in an intermediate group, 3 after the second; terminal links 0 */
    BBS_NET_VC_LEGACY = 1
};

/* bbs_net_vc_scheme_parse: "group" (also "kronos-union") or "legacy".
 * BB_EINVAL naming them otherwise. */
int bbs_net_vc_scheme_parse(const char *name, int *scheme, char *err);
const char *bbs_net_vc_scheme_name(int scheme);

/* bbs_net_path_vc: the virtual channel a packet uses on each link of a
 * path under scheme (enum bbs_net_vc_scheme).  A router's output port
 * serves its channels lowest first (fabric.h's vc_priority). */
void bbs_net_path_vc(const bbs_net_topo *t, const int *path, int len, int scheme,
                     unsigned char *vc);

/* bbs_net_path_delay_s: per-hop router and link delays of a path. */
double bbs_net_path_delay_s(const bbs_net_topo *t, const int *path, int len);

#endif
