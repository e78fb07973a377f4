/* replicate.c: the runner of independent units (replicate.h): the one
 * place that chooses between the MPI runner (bbmpi.h) and threads over a
 * unit pool (pool.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bb_error.h"
#include "bbmpi.h"
#include "pool.h"
#include "replicate.h"

int
bbs_replicate_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n >= 1 ? (int)(n > 256 ? 256 : n) : 1;
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
