/* wlsink.h: the callbacks through which the trace-driven generators
 * (DCNW/CDCNW/FLOWS, HOROVOD, file loads) emit their operations, so that
 * the same walk feeds an operation stream (tracegen.h) or a counter.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every callback returns BB_OK or a status that stops the walk (which then
 * returns it).  A NULL callback is skipped. */
#ifndef BBSIZE_SIM_WORKLOAD_WLSINK_H
#define BBSIZE_SIM_WORKLOAD_WLSINK_H

#include <stdint.h>

typedef struct {
    /* rank computes for s seconds (program order) */
    int (*compute)(void *ctx, int rank, double s);
    /* rank's part of a collective on the world: kind is a bbs_coll_kind of
     * ops.h, root a rank (-1 for rootless kinds), bytes its contribution */
    int (*coll)(void *ctx, int rank, int kind, int root, double bytes);
    /* an independent message sent at absolute time t_s (s since the start)
     * from src to dst; id = 0, 1, 2... */
    int (*msg)(void *ctx, double t_s, int src, int dst, double bytes, int64_t id);
    /* rank writes (write = 1) or reads bytes of file `object`, after
     * pausing pause_s seconds */
    int (*io)(void *ctx, int rank, double pause_s, int write, double bytes, uint64_t object);
    void *ctx;
} bbs_wl_sink;

#endif
