/* topo.h: the 1-D dragonfly of the network simulator: parameters, CODES
 * wiring (generated or read), links, terminal kinds and presets.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A 1-D dragonfly (Kim, Dally et al., ISCA'08) has g groups of a routers;
 * each router has p terminals and h global channels; inside a group the
 * routers are all-to-all.  The global links follow the rule CODES'
 * dragonfly-dally generator uses (see bbs_net_wiring_generate), so that the
 * 1,056-node system of MFNetSim (paper 001, Table 2) is wired byte for byte
 * as its published dally-1056-intra/inter files.
 *
 * Links are directed and numbered: node n's injection link is n, its
 * ejection link N + n, then local router-to-router links, then global ones.
 * Parallel links between one pair of routers are merged into one link whose
 * capacity is the sum (mult > 1).  Sizes: up to ~10^5 nodes and ~10^6 links;
 * the hot operations are bbs_net_topo_local_link and bbs_net_topo_global_links
 * (O(1) table look-ups). */
#ifndef BBSIZE_SIM_NETWORK_TOPO_H
#define BBSIZE_SIM_NETWORK_TOPO_H

#include <stddef.h>

enum bbs_net_link_kind {
    BBS_NET_LINK_INJ = 0,    /* terminal -> its router */
    BBS_NET_LINK_EJ = 1,     /* router -> terminal */
    BBS_NET_LINK_LOCAL = 2,  /* router -> router in the same group */
    BBS_NET_LINK_GLOBAL = 3  /* router -> router in another group */
};

/* What a terminal is (bits: under CODES' LP mapping one terminal can be
 * both a compute node and a burst-buffer node). */
enum bbs_net_node_kind {
    BBS_NET_NODE_COMPUTE = 1,
    BBS_NET_NODE_BB = 2      /* burst-buffer / I/O node */
};

/* Shape, bandwidths (bytes/s) and delays (s) of a dragonfly. */
typedef struct {
    int g, a, p, h;                /* groups, routers/group, nodes/router,
                                      global channels/router */
    double cn_bw_Bps;              /* terminal <-> router, each direction */
    double local_bw_Bps;           /* router -> router, same group */
    double global_bw_Bps;          /* router -> router, other group */
    double router_delay_s;         /* per router traversed */
    double cn_delay_s, local_delay_s, global_delay_s; /* per link traversed */
    int bb_per_group;              /* the first bb_per_group terminals of
                                      each group are burst-buffer nodes */
    int compute_per_group;         /* 0: every other terminal is a compute
                                      node; k > 0: the first k terminals of
                                      each group are (CODES' group-modulo LP
                                      mapping puts the n-th client and the
                                      n-th server of a repetition on its n-th
                                      terminal: the first bb_per_group
                                      compute nodes share their terminal with
                                      a buffer node, the last a*p - k
                                      terminals carry nothing) */
    /* input buffer of one virtual channel at a link's far end (bytes; 0:
     * not known): terminal -> router, router -> router in a group, across
     * groups (CODES' cn_vc_size, local_vc_size, global_vc_size) */
    double cn_vc_bytes, local_vc_bytes, global_vc_bytes;
    /* > 0: the chunk a router's output port sends (dragonfly-dally's
     * chunk_size); 0: not given.  It takes no bandwidth: in
     * router_packet_send the artifact adds router_delay to a chunk's
     * arrival at the next router and takes it off the port's next free
     * time again, so a port sends chunks back to back at its wires'
     * bandwidth (link_cap_Bps = bw x multiplicity whatever this is) and the
     * router delay is pipeline latency, charged once per router on a path
     * (bbs_net_path_delay_s). */
    double port_chunk_bytes;
} bbs_net_params;

/* Wiring records as in CODES' binary files (little-endian int32):
 * intra {src_local_router, dst_local_router, type}, inter {src_global_router,
 * dst_global_router}.  Owned by the struct; free with bbs_net_wiring_free. */
typedef struct {
    size_t nintra, ninter;
    int (*intra)[3];
    int (*inter)[2];
} bbs_net_wiring;

typedef struct {
    bbs_net_params par;
    int nodes, routers, nlinks;
    int nlocal, nglobal;           /* directed router-to-router links */
    int *link_src, *link_dst;      /* routers (-1 - node for a terminal end) */
    unsigned char *link_kind;      /* enum bbs_net_link_kind */
    int *link_mult;                /* parallel physical links merged */
    double *link_cap_Bps;          /* bytes/s: the wires' bandwidth x multiplicity */
    int *local_link;               /* [r * a + j]: link r -> local router j, or -1 */
    int *gl_off;                   /* CSR over group pairs x * g + y ... */
    int *gl_link;                  /* ... global links from group x to group y */
    unsigned char *node_kind;      /* enum bbs_net_node_kind */
    int ncompute;
    int *compute_nodes;            /* node ids of the compute terminals, ascending */
} bbs_net_topo;

/* Accessors (no checks). */
#define BBS_NET_NODE_ROUTER(t, n) ((n) / (t)->par.p)
#define BBS_NET_ROUTER_GROUP(t, r) ((r) / (t)->par.a)
#define BBS_NET_NODE_GROUP(t, n) ((n) / ((t)->par.p * (t)->par.a))
#define BBS_NET_INJ(t, n) (n)
#define BBS_NET_EJ(t, n) ((t)->nodes + (n))

/* bbs_net_params_check: shape positive, bandwidths > 0, delays >= 0,
 * 0 <= bb_per_group < a*p, 0 <= compute_per_group <= a*p, and the counts
 * fit in int.  BB_OK or BB_EINVAL. */
int bbs_net_params_check(const bbs_net_params *par, char *err);

/* bbs_net_wiring_generate: CODES' rule for a 1-D dragonfly with c links
 * per group pair: intra all-to-all (i, j, 0) for i != j in order; for group
 * gi the other groups are listed rotated to start after gi; its gl-th global
 * link (gl = 0..a*h-1) goes to other[gl % (g-1)], from local router
 * (i / h) % a where i is the running link index over all groups, to local
 * router a-1-src there.  Needs a*h to be a multiple of g-1 (otherwise the
 * links are not symmetric): BB_EINVAL.  O(g*a*h + a^2); BB_ENOMEM. */
int bbs_net_wiring_generate(int g, int a, int h, bbs_net_wiring *w, char *err);

/* The wiring's files are read and written by src/formats/wiring.h. */
void bbs_net_wiring_free(bbs_net_wiring *w);

/* bbs_net_topo_estimate: the memory, bytes, of building and routing on
 * the topology for par (links, the g x g group tables, the wiring),
 * before any of it is allocated.  O(1).  Callers refuse shapes beyond
 * their memory bound (a 10,001-group dragonfly needs gigabytes). */
double bbs_net_topo_estimate(const bbs_net_params *par);

/* The most groups a topology may have (bbs_net_params_check): the largest
 * dragonflies built have a few hundred; the g x g tables of 10,001 groups
 * alone take 800 MB. */
#define BBS_NET_MAX_GROUPS 10000

/* bbs_net_topo_build: the topology for par wired by w (NULL: generate with
 * CODES' rule).  Refuses (BB_EDATA, naming the record) a wiring that does not
 * make par a 1-D dragonfly: routers out of range, a self link, intra links
 * that are not all-to-all inside a group, a router without exactly h global
 * channels, global links that are not symmetric or join a group to itself,
 * or a pair of groups left unconnected.  O(links).  On success *out is owned
 * by the caller (bbs_net_topo_free). */
int bbs_net_topo_build(const bbs_net_params *par, const bbs_net_wiring *w,
                       bbs_net_topo **out, char *err);
void bbs_net_topo_free(bbs_net_topo *t);

/* Global links from group x to group y (count, then ids). */
static inline int
bbs_net_topo_nglobal(const bbs_net_topo *t, int x, int y)
{
    return t->gl_off[x * t->par.g + y + 1] - t->gl_off[x * t->par.g + y];
}
static inline const int *
bbs_net_topo_global_links(const bbs_net_topo *t, int x, int y)
{
    return t->gl_link + t->gl_off[x * t->par.g + y];
}

/* Presets.  Names: "graph500-72" (paper 002 Table IV: 9 groups x 4
 * routers x 2 nodes, h = 2, 40 Gb/s links, latencies 50/500/200 cycles at
 * an assumed 1 GHz), "mfnetsim-1056" (paper 001 Table 2 with the CODES file's
 * bandwidths: terminal 16, local 5.25, global 4.7 GiB/s, link latencies of
 * one 4,096-B chunk on the link as dragonfly-dally computes them; first 2
 * nodes per group burst-buffer nodes), "balanced-16k" (a = 2p = 2h = 16, g = 129,
 * 16,512 nodes, all links 16 GiB/s).  BB_OK, or BB_EINVAL for an unknown
 * name (the message lists the names). */
int bbs_net_preset(const char *name, bbs_net_params *par, char *err);
/* bbs_net_preset_names: a NULL-terminated list. */
const char *const *bbs_net_preset_names(void);

const char *bbs_net_link_kind_name(int kind);

/* bbs_net_link_wire_Bps: the bandwidth of link l's wires (its kind's
 * bandwidth times its multiplicity), = link_cap_Bps[l] (a router's delay
 * is latency, not port time: bbs_net_params' port_chunk_bytes).  O(1). */
double bbs_net_link_wire_Bps(const bbs_net_topo *t, int l);

#endif
