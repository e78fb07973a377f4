/* arch_net.h: the network interface of the burst-buffer architectures
 * (arch.h): start a transfer of N bytes from client c to buffer node k,
 * get a callback when its last byte has arrived; the simple network
 * (latency, then a FIFO ingress link per node) is one implementation, the
 * flow-level dragonfly (arch_dfly.h) another.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Contract of an implementation (a bbs_arch_net_class):
 * - open: builds an instance on engine e (borrowed; the instance may
 *   register its own event kinds) for clients 0..n_clients-1 and buffer
 *   nodes 0..n_nodes-1; params are the implementation's (borrowed for the
 *   instance's life).  Random draws, if any, come from streams of (seed,
 *   unit) only.  BB_EINVAL (the network cannot hold that many clients or
 *   nodes, bad parameters: named), BB_ENOMEM.
 * - start: at the engine's current time, a transfer of bytes (> 0) from
 *   client to node, carrying the caller's tag.  It must not call deliver
 *   before returning.  Errors stop the run.
 * - deliver (the caller's): called from an engine event, exactly once per
 *   started transfer, at the time its last byte reaches the node, with the
 *   client, node, bytes and tag given to start.  Its status stops the run
 *   when not BB_OK.
 * - close: frees the instance (NULL is a no-op); transfers not yet
 *   delivered are dropped silently (the run is over).
 *
 * The interface knows nothing of failures: a failed link is the
 * architecture's business (it holds or redirects transfers before start). */
#ifndef BBSIZE_SIM_STORAGE_ARCH_NET_H
#define BBSIZE_SIM_STORAGE_ARCH_NET_H

#include <stdint.h>

#include "engine.h"

typedef int (*bbs_arch_net_deliver_fn)(void *ctx, int client, int node, double bytes,
                                       int64_t tag);

typedef struct bbs_arch_net_class {
    const char *name;
    int (*open)(void **impl, const void *params, bbs_engine *e, int n_clients, int n_nodes,
                uint64_t seed, uint64_t unit, bbs_arch_net_deliver_fn deliver, void *ctx,
                char *err);
    int (*start)(void *impl, int client, int node, double bytes, int64_t tag, char *err);
    void (*close)(void *impl);
} bbs_arch_net_class;

/* The simple network: a transfer waits latency_s, then crosses its node's
 * ingress link, a FIFO at bw_Bps shared by every client of the node, so it
 * arrives at max(now + latency, link free) + bytes / bw.  Clients' own
 * links and the core are not modelled (infinitely fast). */
typedef struct {
    double latency_s;   /* >= 0 */
    double bw_Bps;      /* > 0 */
} bbs_arch_simple_net;

extern const bbs_arch_net_class bbs_arch_net_simple;

/* ---- for implementations: a pool of transfers awaiting delivery -------- */

typedef struct {
    int client, node;
    double bytes;
    int64_t tag;
} bbs_arch_xfer;

typedef struct {
    bbs_arch_xfer *v;
    int *free_ids;
    int n, nfree;
    size_t capv, capf;             /* grow.h */
} bbs_arch_xfer_pool;

/* bbs_arch_xfer_put: store x, return its id (>= 0) or -1 when out of
 * memory.  bbs_arch_xfer_take: copy and release id.  O(1) amortised. */
int bbs_arch_xfer_put(bbs_arch_xfer_pool *p, const bbs_arch_xfer *x);
bbs_arch_xfer bbs_arch_xfer_take(bbs_arch_xfer_pool *p, int id);
void bbs_arch_xfer_pool_free(bbs_arch_xfer_pool *p);

#endif
