/* replicate.c: a pthread pool over independent units, results by index
 * (replicate.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bb_error.h"
#include "bbmpi.h"
#include "replicate.h"
#include "replicate_int.h"

int
bbs_replicate_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n >= 1 ? (int)(n > 256 ? 256 : n) : 1;
}

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

int
bbs_replicate_run(size_t n_units, size_t result_size, void *results,
                  bbs_unit_fn fn, const void *ctx, int n_threads,
                  bbs_progress_fn progress, void *pctx, char *err)
{
    bbs_pool p;
    pthread_t *tids = NULL;
    int started = 0, rc;

    if (n_units == 0)
        return BB_OK;
    if (results == NULL || fn == NULL)
        return bb_seterr(err, BB_EINVAL, "replication runner needs results and a unit function");
    memset(results, 0, n_units * result_size);
    /* Started by an MPI launcher on several ranks: every rank is here with
     * the same arguments, and the units go to the ranks (bbmpi.h); units
     * of a unit stay on its rank. */
    if (bbs_mpi_size() > 1 && !bbs_mpi_in_run())
        return bbs_mpi_replicate_run(n_units, result_size, results, fn, ctx, progress, pctx,
                                     err);
    rc = bbs_pool_init(&p, n_units, result_size, results, fn, ctx, progress, pctx, err);
    if (rc != BB_OK)
        return rc;
    if (n_threads <= 0)
        n_threads = bbs_replicate_threads();
    if ((size_t)n_threads > n_units)
        n_threads = (int)n_units;
    if (n_threads > 1) {
        tids = malloc((size_t)n_threads * sizeof *tids);
        if (tids)
            for (; started < n_threads; started++)
                if (pthread_create(&tids[started], NULL, bbs_pool_worker, &p) != 0)
                    break;
    }
    /* With one thread, or if no thread could start, work here. */
    if (started == 0)
        bbs_pool_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    return bbs_pool_finish(&p, err);
}
