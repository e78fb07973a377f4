/* arch.h: the three burst-buffer architectures of MFNetSim Section 3 on the
 * event engine: node-local buffers, a compute-side global buffer (buffer
 * nodes as network endpoints) and a storage-side buffer (I/O nodes with an
 * SSD for small requests and an HDD for the rest), with capacity accounted
 * per buffer node, draining to the PFS (greedy or lazy, as the analytic
 * model), and buffer-node failures (failure.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workload: every client writes requests of req_bytes with exponential
 * inter-arrival times (mean mean_interarrival_s, its own random stream)
 * until horizon_s.  A request crosses the network (none for node-local
 * buffers) through the interface of arch_net.h: the simple network of
 * this header by default (net_latency_s, then its node's ingress link, a
 * FIFO at net_bw_Bps shared by the node's clients), or any other
 * implementation given in net/net_params (the dragonfly, arch_dfly.h).
 * It is then admitted by its buffer node when the node has room and
 * serves (else it waits: the stall), is written by the node's device (a
 * devq.h FIFO server, through the storage server of bbnode.h: in pieces
 * of piece_bytes, pieces_in_flight issued, in turn over the requests
 * present) and then counts as written.  Each client writes its own file
 * (object = the client, offsets growing by a request), so a table device
 * charges its seek whenever the next piece is another client's.  The
 * node, its admission, draining and losses are the shared model of
 * bbnode.h.  Storage-side: a request
 * under ssd_threshold_bytes goes to the I/O node's SSD (the buffer); the
 * others go to its HDD (waiting only while the node does not serve) and
 * are on the PFS when written.
 *
 * Draining: each node keeps at most one chunk (up to drain_chunk_bytes) in
 * the PFS's FIFO queue; the PFS serves chunks one at a time at pfs_bw_Bps
 * (its aggregate bandwidth); chunks whose node failed or lost its
 * controller while they queued are dropped unserved.  Greedy drains
 * whenever data is stored; lazy (Algorithm 4) drains while the stored
 * bytes are at or above the threshold and, below it, starts a chunk with
 * probability eps at each check (every lazy_check_s).
 *
 * Failures: four components per buffer node, each with its own law, its
 * own repair law and its own random stream (failure.h for the states):
 * - the node's electronics (fail, Arrhenius under temp): LOST;
 * - its drive, the buffer device (drive, Weibull from drive_age0_s; the
 *   repair puts in a new drive): LOST;
 *   a LOST node or drive loses what the node stored and had not yet on the
 *   PFS (bytes and files counted as lost, including the chunk being
 *   drained and writes that complete on the dead node); the node serves
 *   nothing until the repair;
 * - its controller (ctrl_fail, Arrhenius): BAD: the node's devices are
 *   unreachable: no admission, no draining (a chunk being drained is
 *   abandoned and its bytes stay stored, to be drained again), requests
 *   wait; requests already handed to a device complete; nothing is lost
 *   (unless the node or drive itself is LOST meanwhile);
 * - its ingress link (link_fail, Arrhenius; not for node-local buffers):
 *   MISSED: requests for the node wait at their clients until the repair,
 *   or, with link_failover, go to the next node (k+1, k+2, ... mod
 *   n_nodes) whose link works and are stored there (when no link works
 *   they wait, and go as soon as any link is repaired); transfers already
 *   on the link complete.
 * A node serves (admits, drains, writes its HDD) when its electronics,
 * drive and controller are OK.  The accounting identity
 *     bytes_written = bytes_on_pfs + bytes_in_buffers + bytes_lost
 * is checked after every event (max_identity_error, identity_checks).
 *
 * Sizes: events O(requests + chunks + failures), memory O(nodes +
 * clients) at about 6 KB a node; an event's cost grows with the nodes
 * once their state outgrows the caches (bbs_arch_estimate). */
#ifndef BBSIZE_SIM_STORAGE_ARCH_H
#define BBSIZE_SIM_STORAGE_ARCH_H

#include <stdint.h>

#include "arch_net.h"
#include "bbnode.h"
#include "device.h"
#include "failure.h"
#include "pool.h"

typedef enum {
    BBS_ARCH_NODE_LOCAL = 0, BBS_ARCH_COMPUTE_GLOBAL, BBS_ARCH_STORAGE_SIDE
} bbs_arch_kind;

/* Client -> buffer-node maps (compute-side global and storage-side). */
typedef enum {
    BBS_MAP_STATIC_BLOCK = 0, /* client i -> node floor(i n_nodes / n_clients): the
                                 nearest block, as MFNetSim (15 clients per node) */
    BBS_MAP_ROUND_ROBIN,      /* client i -> node i mod n_nodes */
    BBS_MAP_RANDOM,           /* uniform, drawn once per client (stream SETUP) */
    BBS_MAP_EXPLICIT          /* explicit_map[i]; every entry must name a node */
} bbs_map_kind;

/* One iostat-like row: a device of a buffer node over the last interval
 * (SANgo Table 3's drive metrics). */
typedef struct {
    double t_s;                    /* end of the interval */
    int node;
    const char *device;            /* "bb" (the buffer device) or "hdd" */
    double r_kBps, w_kBps;         /* kB = 1000 B */
    double r_iops, w_iops;
    double r_await_ms, w_await_ms; /* mean completion - submission; 0 if none */
    double avgqu_sz;               /* time-average requests in the device's system */
    double util_pct;               /* busy time / interval */
    double used_bytes, capacity_bytes;  /* the buffer's (0 for the HDD) */
    bbs_health health;
} bbs_arch_sample;

/* Sample callback: return BB_OK, or a status that stops the run. */
typedef int (*bbs_arch_sample_fn)(void *ctx, const bbs_arch_sample *row);

/* Failure log: every failure (health MISSED, BAD or LOST) and repair
 * (health OK) of a component of a node, in time order. */
typedef int (*bbs_arch_fail_fn)(void *ctx, double t_s, int node, bbs_comp_class cls,
                                bbs_health health);

typedef struct {
    bbs_arch_kind kind;
    int n_clients;                 /* > 0 */
    int n_nodes;                   /* buffer (or I/O) nodes; node-local: ignored */
    bbs_map_kind map;
    const int *explicit_map;       /* n_clients entries for BBS_MAP_EXPLICIT */
    bbs_dev_params bb_dev;         /* the buffer device (an SSD, or a table) */
    bbs_dev_params hdd_dev;        /* storage-side: the I/O node's HDD */
    double capacity_bytes;         /* per buffer node, > 0 (<= device capacity) */
    double net_latency_s;          /* simple network: per request, >= 0 */
    double net_bw_Bps;             /* simple network: per link, > 0 */
    /* another network (NULL: the simple one): a class and its parameters */
    const bbs_arch_net_class *net;
    const void *net_params;
    /* the buffer nodes and the PFS (bbnode.h's parameters): pfs_bw_Bps > 0;
     * drain.threshold in [0, capacity]; horizon_s > 0 (no default);
     * ssd_threshold_bytes (storage-side) 65536, drain_chunk_bytes 64 MiB,
     * piece_bytes 0 (whole requests), pieces_in_flight 1, drain.eps 0.01,
     * lazy_check_s 1; drain_fn, the drain trace, may be NULL */
    BBS_BBSYS_PARAMS_MEMBER;
    double req_bytes;              /* > 0 */
    double mean_interarrival_s;    /* > 0, per client */
    /* failures of buffer nodes (off when fail_rate_per_s == 0) */
    bbs_arrhenius fail;            /* rate at the reference temperature */
    bbs_temp_series temp;          /* ambient temperature (needed when failing) */
    bbs_repair repair;             /* for both node and drive failures */
    /* drive failures (off when drive.scale_s == 0): Weibull lifetimes from
     * age drive_age0_s; a failed drive is replaced new */
    bbs_weibull drive;
    double drive_age0_s;
    /* controller failures (off when ctrl_fail.rate_per_s == 0) */
    bbs_arrhenius ctrl_fail;
    bbs_repair ctrl_repair;
    /* ingress-link failures (off when link_fail.rate_per_s == 0) */
    bbs_arrhenius link_fail;
    bbs_repair link_repair;
    int link_failover;             /* 1: redirect requests of a MISSED link */
    bbs_arch_fail_fn fail_fn;      /* may be NULL */
    void *fail_ctx;
    uint64_t seed, unit;
    /* iostat-like series: every sample_interval_s (0: none) one row per
     * device, in node order */
    double sample_interval_s;
    bbs_arch_sample_fn sample_fn;
    void *sample_ctx;
    /* Progress (may be NULL): called at each hundredth of horizon_s
     * simulated, done of 100 (pool.h); the run goes on in the same events
     * (bbs_engine_run resumed, nothing scheduled for it). */
    bbs_progress_fn progress_fn;
    void *progress_ctx;
} bbs_arch_config;

typedef struct {
    double bytes_written;          /* completed writes (buffer or HDD) */
    double bytes_on_pfs;
    double bytes_in_buffers;       /* stored, not yet on the PFS, at the end */
    double bytes_lost;
    uint64_t files_lost;           /* requests whose data was (partly) lost */
    uint64_t requests, writes_done, writes_ssd, writes_hdd;
    double stall_s;                /* total time requests waited for room or repair */
    double mean_write_latency_s;   /* issue to written */
    double max_used_fraction;      /* largest used / capacity seen on any node */
    double min_used_bytes;         /* smallest used seen on any node (>= 0) */
    double max_identity_error;     /* largest |written - pfs - buffers - lost| seen */
    uint64_t identity_checks;      /* events after which it was checked */
    uint64_t node_failures;        /* electronics (Arrhenius) */
    uint64_t drive_failures;       /* drives (Weibull) */
    uint64_t ctrl_failures;        /* controllers (Arrhenius) */
    uint64_t link_failures;        /* ingress links (Arrhenius) */
    uint64_t failovers;            /* requests sent to another node (link down) */
    uint64_t requests_in_flight;   /* at the end: issued, not yet written */
} bbs_arch_result;

/* bbs_arch_config_init: defaults (greedy, 64 KiB threshold, 64 MiB chunks,
 * whole requests (piece 0, 1 in flight),
 * lazy eps 0.01, check 1 s, static-block map, the simple network, no
 * failures; repairs exponential with mean 1 h; Ea 0.38 eV at 25 C). */
void bbs_arch_config_init(bbs_arch_config *c);

/* bbs_arch_map: the buffer node of every client (map[n_clients]).
 * Errors: BB_EINVAL (a client without a node: explicit entry out of range,
 * no nodes). */
int bbs_arch_map(const bbs_arch_config *c, int *map, char *err);


/* bbs_arch_check: BB_OK, or BB_EINVAL naming the first parameter of c out
 * of its domain (what bbs_arch_run refuses first), so that a caller
 * refuses a bad value before it estimates a run on it.  O(devices). */
int bbs_arch_check(const bbs_arch_config *c, char *err);

/* bbs_arch_estimate: the size of a run before it starts: *events (about
 * six per request, one per drain chunk, one per lazy check, two per
 * failure and repair of each component, one per sample and device),
 * *bytes (per node its record, streams, devices (their parameters and an
 * HDD's write-cache ring), buffer node, queues and their first blocks;
 * per client its stream and pending events; the iostat rows kept when a
 * sample function is set) and *work, the run's cost in events of a run
 * whose state stays in the processor's caches: every event touches one
 * node's and one client's state at random, so past a cache (512 KiB, 32
 * MiB) that share of its touches miss, and an event of a run of 10^6
 * nodes (6 GB) costs about 35 of those; setting up the bytes counts too.
 * Upper-side estimates, O(1) beyond the temperature series, meaningful
 * on a config bbs_arch_check accepts.  Callers bound *work by their
 * event bound and *bytes by their memory bound, and time *work at the
 * cost of a cached event (6e-8 s measured: docs/bounds.md). */
void bbs_arch_estimate(const bbs_arch_config *c, double *events, double *bytes, double *work);

/* bbs_arch_run: simulate until horizon_s.  Errors: BB_EINVAL (a parameter
 * out of its domain, named; the network refuses the clients or nodes),
 * BB_ENOMEM, or a callback's status. */
int bbs_arch_run(const bbs_arch_config *c, bbs_arch_result *r, char *err);

#endif
