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
 * Progressive adaptive (PAR, CODES' dragonfly-dally `prog-adaptive`, the
 * routing MFNetSim's runs use): the choice between the minimal and a
 * non-minimal next hop is taken again at every router of the source
 * group, on the occupancy of the candidate output ports
 * (bbs_net_route_par).  When several global links join two groups one is
 * picked at random (PAR: the least occupied of `candidates` polled).
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
    BBS_NET_ROUTE_ADAPTIVE = 2,
    BBS_NET_ROUTE_PAR = 3
};

/* A chunk, bytes: what a flow passing a router's output port holds there
 * (CODES' chunk_size in MFNetSim's configuration). */
#define BBS_NET_CHUNK_BYTES 4096.0

typedef struct {
    int kind;              /* enum bbs_net_routing */
    double bias;           /* adaptive: >= 0, favours the minimal path;
                              par: the minimal port is taken while its
                              occupancy is at most 2 (1 + bias) times the
                              non-minimal one's (CODES' 2:1 with bias 0) */
    int candidates;        /* adaptive: Valiant paths compared; par: global
                              links polled (CODES' global_k_picks); >= 1 */
} bbs_net_route_opts;

/* bbs_net_route_parse: "min"/"minimal", "val"/"valiant"/"nonminimal",
 * "adaptive"/"ugal", "par"/"prog-adaptive" (CODES' names included).
 * BB_EINVAL with the accepted names otherwise. */
int bbs_net_route_parse(const char *name, int *kind, char *err);
const char *bbs_net_route_name(int kind);
/* bbs_net_route_is_adaptive: the routing decides on the network's load
 * (adaptive, par): messages go in route pieces. */
int bbs_net_route_is_adaptive(int kind);

/* bbs_net_route: write the path from node src to node dst (src != dst)
 * into path[BBS_NET_MAX_PATH]; returns its length.  link_flows (may be
 * NULL: then adaptive routing acts as minimal) gives the number of flows on
 * each link now.  par needs port occupancies (bbs_net_route_par): here it
 * acts as minimal.  *took_min (may be NULL) says whether the path is
 * minimal. */
int bbs_net_route(const bbs_net_topo *t, const bbs_net_route_opts *o, int src, int dst,
                  gsl_rng *r, const int *link_flows, int *path, int *took_min);

/* The occupancy, bytes, of the output port that sends on router link l
 * now (fabric.h's bbs_net_fabric_port_occupancy). */
typedef double (*bbs_net_port_occ_fn)(int l, void *ctx);

/* bbs_net_route_par: progressive adaptive routing as dragonfly-dally on
 * the kronos-union branch does it per packet (dfdally_prog_adaptive_routing),
 * for one route piece.  At the source router an intermediate group is
 * drawn (any but the source's and the destination's).  At each router of
 * the source group, while the route is minimal, the best minimal next hop
 * (a global link to the destination group, or a local link to a router
 * that has one) is set against the best non-minimal one (a global link to
 * the intermediate group, or at the source router a local link to a router
 * that has one; at a later router without such a link, a new intermediate
 * group among those its own global links reach): the minimal one is taken
 * when its occupancy is at most 2 (1 + o->bias) times
 * the non-minimal one's, else the route turns non-minimal and goes on to
 * the intermediate group.  "Best": the least occupied of the candidate
 * local links, or of `candidates` global links polled at random; ties at
 * random.  Beyond the source group the route is minimal (best ports
 * likewise).  Inside one group, or with fewer than 3 groups: minimal.
 * occ (may be NULL: every port empty, so minimal) gives occupancies; r
 * must not be NULL.  Returns the length; *took_min (may be NULL) is 0 when
 * the route turned non-minimal.  O(a + h + g) port looks. */
int bbs_net_route_par(const bbs_net_topo *t, const bbs_net_route_opts *o, int src, int dst,
                      gsl_rng *r, bbs_net_port_occ_fn occ, void *ctx, int *path, int *took_min);

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

/* bbs_net_path_delay_s: the latency of a path: each link's delay (cn,
 * local, global) plus router_delay_s for every router it enters (router
 * hops + 1): a router's delay is a chunk's pipeline latency, once per
 * router, not time on its ports (bbs_net_params' port_chunk_bytes). */
double bbs_net_path_delay_s(const bbs_net_topo *t, const int *path, int len);

#endif
