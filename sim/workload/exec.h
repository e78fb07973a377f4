/* exec.h: run a workload's operation streams (ops.h) on the event engine
 * over the dragonfly fabric and the burst-buffer storage; per-application
 * and per-link-type metrics.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Network: every message is one flow (fabric.h) from the sender's node to
 * the receiver's, routed at its start (minimal or adaptive, route.h), so
 * its transfer shares links max-min with every other flow; its latency is
 * the transfer time plus the path's router and link delays plus the
 * queueing its first packet meets on loaded links (packet_bytes: an M/D/1
 * wait at each link's utilisation, at most a packet time per flow on the
 * link; with backpressure, at most the link's virtual-channel buffer per
 * flow, which credit-based flow control lets each flow fill).  A node's
 * network interface sends its messages (and I/O
 * transfers) first come, first served, one after the other (inject_fcfs,
 * CODES' fcfs scheduler): a node with k messages to send takes their sum,
 * not the longest.  Under adaptive routing a message goes in pieces of
 * route_piece_bytes, one after the other, each routed on the loads of its
 * start (CODES routes every packet).  A P2P message of at most small_bytes is routed but is
 * no flow (it is sent at the path's slowest link).  Messages between ranks
 * on one node do not use the network (complete at once).  A P2P message
 * reaches its node's interface (or, on one node, its receiver)
 * send_overhead_s + copy_s_per_byte x bytes after its send (MFNetSim's
 * client, every message eager: self_overhead 10 ns + soft_delay_mpi
 * 2,500 ns + nic_delay 1,000 ns, and copy_per_byte_eager 0.55 ns/B);
 * sends issued together wait out their delays side by side.
 *
 * Storage: the burst-buffer nodes are the BB terminals of the topology
 * (bb_per_group first terminals of each group).  A rank's node is mapped
 * to a buffer node by static blocks over the compute terminals (compute
 * terminal i of C -> buffer node floor(i * B / C): MFNetSim's 15 clients per
 * node on the 1,056-node system, each in its own group).  As MFNetSim's
 * storage server (piece_threads > 0, its req_threads), a request reaches
 * its node at once and piece_threads threads move it in pieces of
 * piece_bytes: a write's thread pulls its piece from the client (a flow,
 * through the client's injection queue), has the device write it and
 * pulls the next; a read's thread has the device read its piece and
 * sends it to the client (a flow) before taking the next.  The device (a
 * FIFO server, device.h) serves pieces as they reach it and charges its
 * seek whenever a piece does not continue the previous one (table model:
 * another object, or a jump past seq_window_bytes).  With piece_threads
 * 0, a WRITE is one flow to the buffer node, then the node's server cuts
 * it into pieces of piece_bytes, keeps pieces_in_flight of them issued
 * and issues the next from the next request present, in turn (so clients
 * writing at once pay a seek per piece); a READ is the device request,
 * then one flow back.  Node-local buffers: the device is on the rank's
 * node and no flow is made.
 * Storage-side: requests under ssd_threshold_bytes go to the node's SSD
 * (bb_dev), the others to its HDD (hdd_dev).  Stored bytes drain to the
 * PFS (greedy: one chunk at a time per node into a FIFO PFS of aggregate
 * pfs_bw_Bps; lazy: while a node holds at least drain.threshold, and
 * below it with probability drain.eps at each check, every lazy_check_s);
 * a write waits (the stall) while its node is full.  The buffer node
 * (admission, stall queue, pieces, draining, losses) is the shared model
 * of storage/bbnode.h, the one bbarch runs; lazy checks and failures stop
 * once every rank has ended and the PFS is idle.
 *
 * Metrics per job: elapsed (job start to last rank end), and per rank the
 * communication time (the union of the intervals during which at least one
 * SEND, RECV or COLL of the rank is between issue and completion, so
 * overlapping non-blocking ops count once: MFNetSim's "portion of process
 * runtime used for sending and receiving"), the I/O time (the same for READ
 * and WRITE) and the compute time, as the mean and the maximum over ranks;
 * every message's latency (its send to its arrival at the receiver's node,
 * whether a receive is posted or not; messages only, I/O transfers are in
 * the I/O time: MFNetSim's client reports "avg msg time" so) in an exact
 * sample (percentiles by sorting, linear interpolation between order
 * statistics); and per rank, the mean latency of the messages it sent
 * (MFNetSim's per-rank "avg msg time", which its client divides by the
 * receives the rank posted: the same count for every model here, whose
 * exchanges are symmetric), averaged and maximised over the ranks that
 * sent any.  Per link
 * kind (injection, ejection, local, global): bytes carried and the summed,
 * mean and maximum per-link saturated time.
 *
 * Determinism: every random draw (adaptive routing, HDD rotation) comes
 * from GSL streams seeded from (seed, unit): same inputs, same bytes. */
#ifndef BBSIZE_SIM_WORKLOAD_EXEC_H
#define BBSIZE_SIM_WORKLOAD_EXEC_H

#include <stdint.h>

#include "network/place.h"
#include "network/route.h"
#include "network/topo.h"
#include "storage/arch.h"
#include "storage/device.h"
#include "workload/coll.h"
#include "workload/ops.h"


/* Failures of the buffer nodes in use (failure.h): electronics after
 * Arrhenius (rate 1 / node_mttf_s at tref_C, scaled by the factor of the
 * constant temperature temp_C with activation energy ea_eV) and a drive
 * after Weibull (drive_shape, drive_scale_s, age drive_age_s at time 0);
 * either failure loses what the node stores (the chunk being drained
 * included) and takes the node down for a repair of mttr_s (fixed, or
 * exponential with that mean), during which requests to it wait (stalls).
 * Requests already accepted by the device complete; writes among them are
 * lost (bbnode.h).  Failures
 * stop once every rank has ended and no drain is queued.  Draws: stream
 * (seed, unit, BBS_ECLASS_FAILURE node).  Off when node_mttf_s and
 * drive_scale_s are 0. */
typedef struct {
    double node_mttf_s, temp_C, tref_C, ea_eV;
    double drive_shape, drive_scale_s, drive_age_s;
    double mttr_s;
    int repair_exponential;
    double zero_s;                     /* 0: the start of the temperature series */
} bbs_exec_failures;

typedef struct {
    const bbs_net_topo *topo;          /* borrowed */
    const bbs_net_placement *place;    /* borrowed: node of every rank of every job */
    bbs_net_route_opts route;
    int exact_limit;                   /* bbs_net_fabric_set_exact_limit (-1 exact) */
    double small_bytes;                /* messages of at most this size are not flows (0) */
    int inject_fcfs;                   /* a node's messages leave one after the other (1) */
    int backpressure;                  /* head-of-line waits behind flows held further
                                          on (0; the MFNetSim scenarios: 1) */
    int store_forward;                 /* a message's first packet is received whole
                                          at every hop (packet_bytes; 0; the
                                          MFNetSim scenarios: 1) */
    int vc_priority;                   /* links serve their virtual channels in
                                          strict priority (bbs_net_fabric_set_vc_priority;
                                          0; the scenarios' key vc_priority: on) */
    int vc_scheme;                     /* how packets get their channels
                                          (route.h; BBS_NET_VC_GROUP) */
    double send_overhead_s;            /* a message enters its node's interface this long */
    double copy_s_per_byte;            /* plus this per byte after its send (0, 0; the
                                          MFNetSim scenarios: 3.51 us, 0.55 ns/B) */
    double jitter_s;                   /* plus U(0, jitter_s): one uniform, from stream
                                          (seed, unit, NETWORK 2), per rank and instant
                                          at which it sends (its sends of that instant
                                          keep their program order): replicas that
                                          differ by seed only in timing (0: none) */
    double packet_bytes;               /* queueing delay per loaded link, in packets of
                                          this size (4096); 0: none */
    int queue_per_flow;                /* 0: the M/D/1 wait per port and channel, at
                                          most a channel buffer; 1: at the link's
                                          utilisation, at most a packet (or buffer)
                                          per flow (the earlier model) */
    double route_piece_bytes;          /* adaptive routing decides per piece of this
                                          size (256 KiB; 0: per message) */
    int allreduce_algo;                /* BBS_ALGO_* (coll.h), unless the job sets one */
    /* storage */
    bbs_arch_kind arch;
    bbs_dev_params bb_dev;             /* buffer device (SSD or table) */
    bbs_dev_params hdd_dev;            /* storage-side HDD */
    double capacity_bytes;             /* per buffer node; 0 = the device's */
    /* the buffer nodes and the PFS (bbnode.h's parameters, its defaults but
     * MFNetSim's pieces: 1 MB, 4 threads per request, or 4 in flight
     * without threads): ssd_threshold_bytes (storage-side)
     * 65536; pfs_bw_Bps 0 = no draining; drain.eps, the chance of draining
     * below the threshold at each check (0.01), every lazy_check_s (1 s);
     * drain_chunk_bytes 64 MiB; horizon_s: stop there (INFINITY: run to
     * the end); drain_fn, the drain trace, may be NULL */
    BBS_BBSYS_PARAMS_MEMBER;
    uint64_t seed, unit;
    bbs_exec_failures fail;            /* buffer-node failures (off by default) */
    /* progress (NULL: none): progress(progress_ctx, done, total) with the
     * ops completed so far and the ops of every rank's stream, every
     * progress_ops completed ops (0: 4096) and once when the run ends
     * (done == total when every rank reached its end; less at a horizon);
     * done never decreases.  Called on the run's thread, between events:
     * it must not call the executor. */
    void (*progress)(void *progress_ctx, int64_t done, int64_t total);
    void *progress_ctx;
    int64_t progress_ops;
} bbs_exec_config;

/* The kinds of communication a job's time is broken down by
 * (bbs_exec_job_result.kind_mean_s): point-to-point messages (SEND, RECV),
 * then each collective kind (1 + bbs_coll_kind). */
enum { BBS_EXEC_P2P = 0, BBS_EXEC_NKINDS = 1 + BBS_COLL_NKINDS };

typedef struct {
    double start_s, end_s, elapsed_s;
    double comm_mean_s, comm_max_s;    /* per-rank communication time */
    double io_mean_s, io_max_s;        /* per-rank I/O time */
    double compute_mean_s;
    double kind_mean_s[BBS_EXEC_NKINDS]; /* per rank, the time with an op of
                                        * the kind in progress (the union,
                                        * as comm_mean_s) */
    double bytes_sent, bytes_written, bytes_read;
    uint64_t messages;
    double hops_mean;                  /* router-to-router hops per network
                                        * message or I/O transfer (flows and
                                        * small messages; same-node ones
                                        * excluded) */
    double lat_mean_s, lat_p50_s, lat_p90_s, lat_p99_s, lat_max_s;
    double lat_rank_mean_s, lat_rank_max_s;   /* per-rank mean latency: mean
                                               * and maximum over ranks */
    int finished;                      /* every rank reached the end of its stream */
    /* write bursts: maximal intervals during which at least one WRITE of
     * the job is between issue and completion at the device (stalls
     * included); write_s is their total */
    double write_s;
    /* the fate of its written bytes (buffer-side writes; storage-side HDD
     * writes count as on the PFS): written = on PFS + in buffer + lost (+
     * in flight at a horizon); writes_lost: writes with a lost byte */
    double bytes_on_pfs, bytes_in_buffer, bytes_lost;
    uint64_t writes_lost;
    int nbursts;
    double *bursts_s;                  /* nbursts durations, s, in order (owned) */
} bbs_exec_job_result;

enum { BBS_EXEC_NLINKKINDS = 4 };      /* enum bbs_net_link_kind */

typedef struct {
    int nlinks;
    double bytes;                      /* carried by links of this kind (flows) */
    double small_bytes;                /* of small messages (not flows), not in bytes */
    double saturated_s;                /* summed over the links */
    double saturated_max_s;            /* the most saturated link */
} bbs_exec_link_result;

typedef struct {
    int njobs;
    bbs_exec_job_result *jobs;         /* njobs entries (owned) */
    bbs_exec_link_result links[BBS_EXEC_NLINKKINDS];
    double end_s;                      /* simulated time at the end */
    uint64_t events;                   /* engine events executed */
    uint64_t flows;
    double stall_s;                    /* requests waiting for room (or a repair), summed */
    double stall_busy_s;               /* time with at least one request waiting */
    double bytes_on_pfs;
    int nbb_used;                      /* buffer nodes serving at least one rank */
    uint64_t node_failures, drive_failures;
    double capacity_total_bytes;       /* their capacity, summed */
} bbs_exec_result;

/* bbs_exec_config_init: defaults (minimal routing, exact rates, auto
 * allreduce, compute-side global buffer, greedy drain without PFS, 64 MiB
 * chunks, lazy EPS 0.01 every 1 s, 64 KiB SSD threshold, no horizon). */
void bbs_exec_config_init(bbs_exec_config *c);

/* bbs_exec_run: run w to the end (or the horizon).  Errors: BB_EINVAL (a
 * job without placement, placement of another size, no buffer node while a
 * stream does I/O), BB_EDATA (collective participants that disagree, a
 * receive never matched: the deadlock names the first blocked rank and
 * op), BB_ENOMEM.  r is filled on success; free with bbs_exec_result_free. */
int bbs_exec_run(const bbs_wl *w, const bbs_exec_config *c, bbs_exec_result *r, char *err);
void bbs_exec_result_free(bbs_exec_result *r);

#endif
