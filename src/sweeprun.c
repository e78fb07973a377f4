/* sweeprun.c: grid points on the unit runner (sweeprun.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "replicate.h"
#include "sweeprun.h"

/* OpenBLAS (Debian's default BLAS, under UMFPACK) runs its own thread pool;
 * with our points already one per core its threads only contend: a sweep
 * of 100 sizes took 2.2 s on 2 threads with it and 0.55 s without
 * (bench/sweep.sh).  The symbol is weak: absent with another BLAS. */
extern void openblas_set_num_threads(int) __attribute__((weak));

typedef struct {
    const bba_sweep_point *pts;
} sweep_ctx;

/* A unit never fails: a point's failure is part of its result, so the
 * other points go on (the report leaves failed points out of its plots). */
static int
point_unit(size_t unit, void *result, const void *ctx, char *err)
{
    const sweep_ctx *c = ctx;

    (void)err;
    bba_sweep_eval_point(&c->pts[unit], result);
    return BB_OK;
}

int
bb_sweep_run(const bba_sweep_point *pts, size_t n, int nthreads, bb_sweep_progress_fn cb, void *cb_ctx,
             bba_sweep_out *out, char *err)
{
    sweep_ctx c = { pts };
    int rc;

    if (nthreads < 1)
        return bb_seterr(err, BB_EINVAL, "a sweep needs at least one thread (%d)", nthreads);
    if (openblas_set_num_threads != NULL)
        openblas_set_num_threads(1);
    rc = bbs_replicate_run(n, sizeof *out, out, point_unit, &c, nthreads, cb, cb_ctx, err);
    if (rc != BB_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (out[i].status != BB_OK)
            return bb_seterr(err, out[i].status, "point %zu: %s", i + 1, out[i].err);
    return BB_OK;
}
