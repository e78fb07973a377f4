/* netload.h: synthetic traffic on the flow-level dragonfly: accepted
 * versus offered load, message latency, hops, per-rank communication time
 * and link statistics.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every sender generates messages of a fixed size as a Poisson process
 * whose mean rate is load x its injection bandwidth; a sender keeps at most
 * `window` messages in the network (like a NIC's injection buffers: paper
 * 002 Table IV has 3) and queues the rest in FIFO order.  Accepted load is
 * the bytes delivered during [warmup, duration] over senders x injection
 * bandwidth x that time.
 *
 * Steady mode (steady = 1), as cycle-level network simulators run: the
 * run goes in intervals of batch_s; the accepted load of each interval
 * (ejected bytes over senders x injection bandwidth x batch_s) forms a
 * series.  The warm-up ends at the first interval boundary, not before
 * warmup_s, where MSER (steady.h) puts the truncation point of the series
 * so far before its middle (at least 10 intervals), or at duration_s / 2
 * if it never does (settled = 0).  Measurement then runs until the 95%
 * batch-means interval of the accepted load (10 groups, at least 20
 * intervals) is within rel_half of its mean (precise = 1), or until
 * duration_s.  Latencies, hops, link statistics and the accepted load are
 * those of the measured window, as in the fixed mode.  One run is one unit of the engine: its random
 * streams are (seed, unit, BBS_ENTITY(BBS_ECLASS_NETWORK, 2 n + k)) for
 * sender n, k = 0 arrivals and destinations, k = 1 routing; the random
 * permutation pattern draws from entity 2 N. */
#ifndef BBSIZE_SIM_NETWORK_NETLOAD_H
#define BBSIZE_SIM_NETWORK_NETLOAD_H

#include <stdint.h>

#include "fabric.h"
#include "route.h"
#include "topo.h"

enum bbs_net_pattern {
    BBS_NET_PAT_UNIFORM = 0,     /* a uniformly random other sender */
    BBS_NET_PAT_GROUP_SHIFT = 1, /* node n -> n + a*p: group i to group i+1 */
    BBS_NET_PAT_RANDOM_PERM = 2, /* a fixed random cyclic permutation */
    BBS_NET_PAT_BB_IO = 3        /* compute node -> a burst-buffer node of its
                                    group (index mod bb_per_group) */
};

int bbs_net_pattern_parse(const char *name, int *kind, char *err);
const char *bbs_net_pattern_name(int kind);

typedef struct {
    int pattern;
    bbs_net_route_opts route;
    double load;             /* (0, 1]: fraction of injection bandwidth */
    double msg_bytes;        /* > 0 */
    double duration_s;       /* > warmup_s */
    double warmup_s;         /* >= 0 */
    int window;              /* >= 1 messages in flight per sender */
    int compute_only;        /* senders: 1 compute nodes, 0 every node */
    const int *job_nodes;    /* optional placement (place.h): senders are
                                these nodes, job j = job_off[j]..job_off[j+1]-1,
                                and uniform traffic stays inside each job */
    const int *job_off;
    int njobs;
    uint64_t seed, unit;
    int keep_links;          /* fill link_bytes / link_sat_s */
    int exact_limit;         /* bbs_net_fabric_set_exact_limit (-1 exact) */
    int steady;              /* 0: measure exactly [warmup_s, duration_s];
                                1: steady mode (above): warmup_s is the least
                                warm-up, duration_s the most simulated time */
    double batch_s;          /* steady: interval (0: ten mean gaps between a
                                sender's messages, 10 msg_bytes / (load x
                                injection bandwidth), at most duration_s / 40) */
    double rel_half;         /* steady: target half-width over mean (0: 0.02) */
} bbs_net_load_opts;

/* Five-number summary with Tukey whiskers (the most extreme values within
 * 1.5 IQR of the quartiles) and the mean; quantiles interpolate linearly
 * between order statistics (Hyndman & Fan type 7).  NAN fields when n = 0. */
typedef struct {
    uint64_t n;
    double mean, min, q1, median, q3, p99, max, whisker_lo, whisker_hi;
} bbs_net_summary;

/* bbs_net_summarize: sorts v in place.  O(n log n). */
void bbs_net_summarize(double *v, size_t n, bbs_net_summary *s);

typedef struct {
    int nsenders;
    double offered, accepted;            /* fractions of injection bandwidth */
    double offered_Bps, accepted_Bps;    /* per sender */
    uint64_t generated, delivered, minimal, nonminimal;
    uint64_t queued_at_end, inflight_at_end;
    bbs_net_summary latency_s;           /* creation to arrival */
    bbs_net_summary hops;                /* router-to-router hops */
    bbs_net_summary comm_time_s;         /* per sender: time with messages out */
    /* per link kind (enum bbs_net_link_kind): counts and the measured window */
    int class_links[4];
    double class_bytes[4];
    double class_sat_s[4];               /* summed over links */
    bbs_net_summary class_util[4];       /* per link: bytes / (cap x window) */
    bbs_net_summary class_sat_frac[4];   /* per link: saturated time / window */
    bbs_net_fabric_cost cost;
    uint64_t events;
    double warmup_s;                     /* where the measured window starts */
    double window_s;                     /* its length */
    /* steady mode: intervals run, whether MSER found the warm-up's end,
     * whether the interval reached rel_half, and the 95% half-width of
     * accepted (a fraction of injection bandwidth; inf when too few
     * intervals) */
    int batches, settled, precise;
    double accepted_half;
    double *link_bytes, *link_sat_s;     /* nlinks each when keep_links */
} bbs_net_load_result;

/* bbs_net_load_run: simulate one load point.  BB_EINVAL for options out of
 * range (load outside (0, 1], a pattern the topology cannot carry such as
 * bb-io without burst-buffer nodes, ...), BB_ENOMEM.  res is owned by the
 * caller (bbs_net_load_result_free). */
int bbs_net_load_run(const bbs_net_topo *t, const bbs_net_load_opts *o, bbs_net_load_result *res,
                     char *err);
void bbs_net_load_result_free(bbs_net_load_result *res);

/* bbs_net_load_estimate: the size of one load point before it runs:
 * *events (about four per message: arrival, start, rate changes, end;
 * messages = senders x duration x load x injection bandwidth / message
 * size, senders at most every node) and *bytes (a record per message,
 * the links' state).  O(1).  Callers refuse points beyond their bounds. */
void bbs_net_load_estimate(const bbs_net_topo *t, const bbs_net_load_opts *o, double *events,
                           double *bytes);

#endif
