/* pool.h: a pool of independent units of work (replications, sweep
 * points), handed out by index, shared by the thread runner (replicate.c)
 * and the MPI runner (bbmpi.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A unit is a self-contained function of (unit index, shared read-only
 * context) that writes its own result slot.  A pool hands out unit
 * indices in increasing order under a mutex, stores nothing itself and
 * remembers the lowest-numbered failed unit.  Once a unit has failed no
 * further unit is handed out.  Any number of threads may claim and
 * complete units.  Cost: one mutex lock per claim and per completion. */
#ifndef BBSIZE_SIM_POOL_H
#define BBSIZE_SIM_POOL_H

#include <pthread.h>
#include <stddef.h>

#include "bb_error.h"

/* A unit: compute unit number `unit` into result (result_size bytes, zeroed
 * beforehand).  Return BB_OK or a status with a message in err
 * (BB_ERRLEN bytes).  ctx is shared by all threads: read-only. */
typedef int (*bbs_unit_fn)(size_t unit, void *result, const void *ctx, char *err);

/* Progress: called under the runner's lock after each unit completes, with
 * the number done so far (from any thread; keep it short). */
typedef void (*bbs_progress_fn)(void *pctx, size_t done, size_t total);

typedef struct {
    pthread_mutex_t lock;
    size_t next, done, n;
    size_t result_size;
    char *results;
    bbs_unit_fn fn;
    const void *ctx;
    bbs_progress_fn progress;
    void *pctx;
    /* The lowest failed unit so far (n: none), its status and message. */
    size_t failed_unit;
    int failed_rc;
    char failed_err[BB_ERRLEN];
} bbs_pool;

/* bbs_pool_init: a pool over units 0 .. n-1 (results already zeroed by the
 * caller).  Errors: BB_ENOMEM (no mutex). */
int bbs_pool_init(bbs_pool *p, size_t n, size_t result_size, void *results, bbs_unit_fn fn,
                  const void *ctx, bbs_progress_fn progress, void *pctx, char *err);

/* bbs_pool_claim: the next unit into *u and 1, or 0 when every unit has
 * been handed out or one has failed. */
int bbs_pool_claim(bbs_pool *p, size_t *u);

/* bbs_pool_done: unit u finished with status rc and message uerr (may be
 * empty): record a failure if it is the lowest so far, count it, report
 * progress on success. */
void bbs_pool_done(bbs_pool *p, size_t u, int rc, const char *uerr);

/* bbs_pool_worker: claim and run units until none is left (a pthread
 * start routine; arg is the pool). */
void *bbs_pool_worker(void *arg);

/* bbs_pool_finish: release the pool; BB_OK, or the lowest failed unit's
 * status with "unit N: message" in err. */
int bbs_pool_finish(bbs_pool *p, char *err);

#endif
