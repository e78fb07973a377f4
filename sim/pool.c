/* pool.c: the unit pool (pool.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "bb_error.h"
#include "pool.h"

int
bbs_pool_init(bbs_pool *p, size_t n, size_t result_size, void *results, bbs_unit_fn fn,
              const void *ctx, bbs_progress_fn progress, void *pctx, char *err)
{
    memset(p, 0, sizeof *p);
    if (pthread_mutex_init(&p->lock, NULL) != 0)
        return bb_seterr(err, BB_ENOMEM, "cannot create a mutex");
    p->n = n;
    p->result_size = result_size;
    p->results = results;
    p->fn = fn;
    p->ctx = ctx;
    p->progress = progress;
    p->pctx = pctx;
    p->failed_unit = n;
    return BB_OK;
}

int
bbs_pool_claim(bbs_pool *p, size_t *u)
{
    int got;

    pthread_mutex_lock(&p->lock);
    got = p->next < p->n && p->failed_unit >= p->n;
    if (got)
        *u = p->next++;
    pthread_mutex_unlock(&p->lock);
    return got;
}

void
bbs_pool_done(bbs_pool *p, size_t u, int rc, const char *uerr)
{
    pthread_mutex_lock(&p->lock);
    if (rc != BB_OK && u < p->failed_unit) {
        p->failed_unit = u;
        p->failed_rc = rc;
        snprintf(p->failed_err, sizeof p->failed_err, "unit %zu: %s", u,
                 uerr[0] ? uerr : bb_strstatus(rc));
    }
    p->done++;
    if (rc == BB_OK && p->progress)
        p->progress(p->pctx, p->done, p->n);
    pthread_mutex_unlock(&p->lock);
}

void *
bbs_pool_worker(void *arg)
{
    bbs_pool *p = arg;
    char err[BB_ERRLEN];
    size_t u;

    while (bbs_pool_claim(p, &u)) {
        int rc;

        err[0] = '\0';
        rc = p->fn(u, p->results + u * p->result_size, p->ctx, err);
        bbs_pool_done(p, u, rc, err);
    }
    return NULL;
}

int
bbs_pool_finish(bbs_pool *p, char *err)
{
    pthread_mutex_destroy(&p->lock);
    if (p->failed_unit < p->n) {
        if (err)
            snprintf(err, BB_ERRLEN, "%s", p->failed_err);
        return p->failed_rc;
    }
    return BB_OK;
}
