/* bbnode.h: one burst-buffer node on the event engine, and the PFS its
 * nodes drain to: the storage model shared by the scenario executor
 * (sim/workload/exec.h) and the architectures of bbarch (arch.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A system (bbs_bbsys) is a set of nodes on one engine with one PFS: a
 * FIFO server of chunks at pfs_bw_Bps (its aggregate bandwidth; 0: no
 * draining).  A node has a buffer device (bb_dev) and, storage-side, an
 * HDD (hdd_dev); requests of at least ssd_threshold_bytes go to the HDD
 * when there is one.
 *
 * Requests (bbs_bbnode_submit, at the engine's current time):
 * - a buffer WRITE is admitted when the node serves (no failure) and
 *   used + bytes <= capacity_bytes, where used counts the bytes admitted
 *   and not yet drained or lost; else it waits in the node's stall queue,
 *   FIFO (head of line: a large write blocks smaller ones behind it).  The
 *   waits of every request are added to stall_s; the system counts the
 *   time during which at least one request waits anywhere (stall_busy_s).  Written, its bytes are
 *   stored: they join the node's FIFO of stored writes (job, bytes) and
 *   become drainable;
 * - an HDD write or any READ waits only while the node does not serve; an
 *   HDD write is on the PFS once written.
 * - The storage server cuts every admitted request into pieces of
 *   piece_bytes (0: whole requests) and keeps at most pieces_in_flight of
 *   them issued to the device (a devq.h FIFO server); pieces are chosen
 *   when a request reaches an idle device (up to pieces_in_flight of them)
 *   and whenever a piece completes (the next from the next request
 *   present, in turn: round robin over the requests with pieces left), so
 *   requests present together interleave (MFNetSim's storage server:
 *   1 MiB, 4 in flight).  A request reaching a busy device waits for the
 *   next completion to be chosen.
 *   A piece is addressed as its file: table devices get (object, offset +
 *   the piece's place), so the table model charges its seek whenever a
 *   piece comes from another file than the one served before it (or jumps
 *   past seq_window_bytes): interleaved clients pay a seek per piece
 *   (MFNetSim's per-file seek rule, 2.5 ms on its burst-buffer device).
 *   HDD and SSD devices are logs: consecutive pieces get consecutive
 *   addresses (back to 0 at the end of the device).
 * - Threads (piece_threads > 0, MFNetSim's codes-store: req_threads
 *   per request, thread_buf_sz pieces): instead of the server's turn
 *   above, every admitted request gets piece_threads threads, each moving
 *   one piece at a time: a write's thread takes the next piece of the
 *   request, has it moved from the client (the move hook: the front end
 *   carries it over its network and calls bbs_bbnode_piece_moved), hands
 *   it to the device, and takes the next piece when the device has
 *   written it; a read's thread has the device read its piece, then has
 *   it moved to the client, then takes the next.  The device serves the
 *   pieces FIFO as they reach it (no pieces_in_flight limit), so the
 *   pieces a request's threads moved together are served one after the
 *   other and pay one seek.  Without a move hook a piece moves at once.
 *
 * Draining: a node has at most one chunk (min(stored, drain_chunk_bytes))
 * in the PFS's FIFO.  Greedy: whenever data is stored; lazy (the analytic
 * model's Algorithm 4): while stored >= drain.threshold, and below it
 * with probability drain.eps at each check (every lazy_check_s from time
 * lazy_check_s, one uniform per check from the node's lazy stream, until
 * horizon_s or bbs_bbsys_quiesce).  Drained bytes leave the stored writes
 * oldest first (drained callback, per job).
 *
 * Failures (bbs_bbnode_fail / bbs_bbnode_repair; the front end draws
 * them): while a node has a failed component it admits nothing, drains
 * nothing and issues no request that waits.  A LOSING failure (the node's
 * electronics or drive) loses what the node stores, the chunk being
 * drained included (lost callback, per job and write); writes in the
 * device complete and are lost.  A HOLDING failure (a controller)
 * abandons the chunk being drained (its bytes stay stored, drained again
 * after the repair) and loses nothing.
 *
 * Accounting: every byte of a completed buffer write is stored, on the
 * PFS or lost; bytes_in_buffers (the system's) is the stored sum.
 *
 * Costs: O(1) per piece and chunk besides the engine's O(log events);
 * memory O(requests present + stored writes). */
#ifndef BBSIZE_SIM_STORAGE_BBNODE_H
#define BBSIZE_SIM_STORAGE_BBNODE_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "device.h"
#include "drain.h"
#include "devq.h"
#include "engine.h"


enum { BBS_BBNODE_MAX_INFLIGHT = 64 };

typedef struct bbs_bbsys bbs_bbsys;
typedef struct bbs_bbnode bbs_bbnode;

/* One request, as the front end hands it over (copied). */
typedef struct {
    uint64_t tag;               /* the front end's */
    int job;                    /* attribution of stored bytes, >= 0 */
    int write;                  /* 1 write, 0 read */
    double bytes;               /* > 0 */
    uint64_t object, offset;    /* its file, and its offset in the file */
    double t_issue;             /* when the front end issued it (passed back) */
} bbs_bbnode_req;

/* One piece of a request in the threads mode, as the move hook hands it
 * to the front end (opaque: hand it back as it is). */
typedef struct bbs_bbnode_piece {
    int req;                    /* the node's request */
    double bytes;
    uint64_t place;             /* its offset in the request */
} bbs_bbnode_piece;

/* Callbacks into the front end (any may be NULL but done).
 * done: request rq is complete (read served, write stored or on the PFS
 *   (hdd), or lost = 1: written on a node that lost its data meanwhile);
 *   return BB_OK or a status that stops the run.
 * drained: bytes of job reached the PFS from a buffer.
 * lost: bytes of job were lost; files: 1 when it is that write's first
 *   loss (a write partly drained and then lost counts once).
 * after: the end of every event the system handles (devices, PFS, lazy
 *   checks), for the front end's checks. */
typedef struct {
    int (*done)(void *ctx, bbs_bbnode *n, const bbs_bbnode_req *rq, int hdd, int lost);
    void (*drained)(void *ctx, bbs_bbnode *n, int job, double bytes);
    void (*lost)(void *ctx, bbs_bbnode *n, int job, double bytes, int files);
    void (*after)(void *ctx);
    void *ctx;
    /* move (threads only; NULL: pieces move at once): piece pc of rq must
     * cross the front end's network (a write's: client to node, before the
     * device; a read's: node to client, after it); the front end calls
     * bbs_bbnode_piece_moved(n, pc) when it has. */
    int (*move)(void *ctx, bbs_bbnode *n, const bbs_bbnode_req *rq,
                const struct bbs_bbnode_piece *pc);
} bbs_bbsys_hooks;

typedef void (*bbs_bbsys_drain_fn)(void *ctx, double t_s, int node, double bytes);

/* The parameters of a system: one list, so that the front ends' configs
 * (arch.h, exec.h) carry them as they are (BBS_BBSYS_PARAMS_MEMBER) and
 * hand them over whole. */
#define BBS_BBSYS_PARAM_FIELDS                                                  \
    double pfs_bw_Bps;          /* aggregate, >= 0 (0: no draining) */         \
    bb_drain drain;             /* per node: threshold in bytes (BB_DRAIN_BYTES), \
                                 * >= 0; EPS in [0, 1] */                     \
    double lazy_check_s;        /* > 0 when lazy */                             \
    double drain_chunk_bytes;   /* > 0 */                                       \
    double piece_bytes;         /* >= 0 (0: whole requests) */                  \
    int pieces_in_flight;       /* 1 to BBS_BBNODE_MAX_INFLIGHT */              \
    int piece_threads;          /* 0 (the server's turn), or threads per      \
                                 * request, 1 to BBS_BBNODE_MAX_INFLIGHT */   \
    double ssd_threshold_bytes; /* requests this large go to the HDD, if any */ \
    double horizon_s;           /* lazy checks stop there (INFINITY: never) */  \
    /* the drain trace (may be NULL): a chunk of bytes from node reached     \
     * the PFS at t_s */                                                        \
    bbs_bbsys_drain_fn drain_fn;                                                \
    void *drain_ctx;

typedef struct {
    BBS_BBSYS_PARAM_FIELDS
} bbs_bbsys_params;

/* BBS_BBSYS_PARAMS_MEMBER: a member of a front end's config holding the
 * system's parameters, reachable both field by field (c->pfs_bw_Bps) and
 * whole (c->node, a bbs_bbsys_params: the same members in the same order). */
#define BBS_BBSYS_PARAMS_MEMBER                                                 \
    union {                                                                     \
        bbs_bbsys_params node;                                                  \
        struct {                                                                \
            BBS_BBSYS_PARAM_FIELDS                                              \
        };                                                                      \
    }

/* bbs_bbsys_params_init: greedy, no PFS, 64 MiB chunks, whole requests,
 * 1 in flight, lazy EPS 0.01 checked every 1 s, 64 KiB SSD threshold, no
 * horizon. */
void bbs_bbsys_params_init(bbs_bbsys_params *p);

/* bbs_bbsys_new: a system on e (registers three event kinds: device
 * completions, PFS completions, lazy checks).  Copies p and h.  Errors:
 * BB_EINVAL (a parameter out of its domain, named), BB_ENOMEM. */
int bbs_bbsys_new(bbs_bbsys **out, bbs_engine *e, const bbs_bbsys_params *p,
                  const bbs_bbsys_hooks *h, char *err);
/* bbs_bbsys_free: frees the system and its nodes (NULL: no-op). */
void bbs_bbsys_free(bbs_bbsys *s);

/* bbs_bbnode_new: node idx of s, of capacity_bytes (> 0) on a new device
 * of bb (and of hdd, or NULL), drawing device times from rng_dev (HDD:
 * rng_hdd) and lazy checks from rng_lazy (borrowed; rng_lazy may be NULL
 * when greedy).  Schedules its first lazy check.  Errors: BB_EINVAL,
 * BB_ENOMEM. */
int bbs_bbnode_new(bbs_bbsys *s, int idx, double capacity_bytes, const bbs_dev_params *bb,
                   const bbs_dev_params *hdd, gsl_rng *rng_dev, gsl_rng *rng_hdd,
                   gsl_rng *rng_lazy, bbs_bbnode **out, char *err);

/* bbs_bbnode_submit: request rq reaches node n now (copied).  Errors:
 * BB_EINVAL (a buffer write larger than the capacity, a size <= 0),
 * BB_ENOMEM, a device error; the engine's failure is set. */
int bbs_bbnode_submit(bbs_bbnode *n, const bbs_bbnode_req *rq);

/* bbs_bbnode_piece_moved: the front end has moved piece pc (threads
 * mode; pc as the move hook gave it).  Errors: a device error. */
int bbs_bbnode_piece_moved(bbs_bbnode *n, const bbs_bbnode_piece *pc);

/* bbs_bbnode_fail: a component of n fails now; lose: its stored data is
 * lost (electronics, drive) or held (controller).  Failures nest: the
 * node serves again when every failed component is repaired. */
int bbs_bbnode_fail(bbs_bbnode *n, int lose);
/* bbs_bbnode_repair: one failed component of n is repaired now. */
int bbs_bbnode_repair(bbs_bbnode *n);

/* bbs_bbsys_quiesce: stop the lazy checks (pending ones are cancelled). */
void bbs_bbsys_quiesce(bbs_bbsys *s);
/* bbs_bbsys_pfs_idle: 1 when no chunk is queued or in service. */
int bbs_bbsys_pfs_idle(const bbs_bbsys *s);

/* Per-node state, read-only. */
typedef struct {
    double used;                /* admitted, not yet drained or lost */
    double stored;              /* written, not yet drained or lost */
    double capacity;
    int serving;                /* no failed component */
    uint64_t waiting;           /* requests waiting (room or repair) */
    uint64_t present;           /* admitted requests not yet complete */
    uint64_t files;             /* stored writes (the FIFO) */
} bbs_bbnode_state;
void bbs_bbnode_get_state(const bbs_bbnode *n, bbs_bbnode_state *st);
/* bbs_bbnode_each_stored: calls fn(ctx, job, bytes) for each stored write,
 * oldest first. */
void bbs_bbnode_each_stored(const bbs_bbnode *n, void (*fn)(void *ctx, int job, double bytes),
                            void *ctx);
/* The devices' queues (iostat counters); hdd NULL without one. */
bbs_devq *bbs_bbnode_devq(const bbs_bbnode *n, int hdd);
int bbs_bbnode_index(const bbs_bbnode *n);

/* System totals. */
typedef struct {
    double bytes_on_pfs;        /* drained, and HDD writes */
    double bytes_in_buffers;    /* stored in every node */
    double bytes_lost;
    uint64_t files_lost;
    double stall_s;             /* waits of admitted requests, summed */
    double stall_busy_s;        /* time with a request waiting (for room, or for
                                   a repair), up to now when one still waits */
    uint64_t chunks;            /* chunks drained */
    double max_used_fraction;   /* largest used / capacity seen on any node */
    double min_used_bytes;      /* smallest used seen on any node (0 if none) */
} bbs_bbsys_totals;
void bbs_bbsys_get_totals(const bbs_bbsys *s, bbs_bbsys_totals *t);

#endif
