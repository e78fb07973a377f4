/* fileload.c: SANgo-style file loads.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "bb_error.h"
#include "rng.h"
#include "workload/fileload.h"

void
bbs_fileload_init(bbs_fileload *f)
{
    f->files = 10;
    f->size_min = f->size_max = 10e9;
    f->pause_min = f->pause_max = 0;
    f->write = 1;
    f->ranks = 1;
    f->first_object = 0;
}

int
bbs_fileload_walk(const bbs_fileload *f, uint64_t seed, uint64_t unit, const bbs_wl_sink *sink,
                  double *bytes, char *err)
{
    gsl_rng **r;
    double total = 0;
    int rc = BB_OK;

    if (bytes)
        *bytes = 0;
    if (f->files < 0)
        return bb_seterr(err, BB_EINVAL, "number of files must be >= 0 (got %ld)", f->files);
    if (!(f->size_min > 0) || !(f->size_max >= f->size_min) || !isfinite(f->size_max))
        return bb_seterr(err, BB_EINVAL, "file sizes need 0 < min <= max (got %g..%g B)",
                         f->size_min, f->size_max);
    if (!(f->pause_min >= 0) || !(f->pause_max >= f->pause_min) || !isfinite(f->pause_max))
        return bb_seterr(err, BB_EINVAL, "pauses need 0 <= min <= max (got %g..%g s)",
                         f->pause_min, f->pause_max);
    if (f->ranks < 1)
        return bb_seterr(err, BB_EINVAL, "file loads need at least one client (got %d)", f->ranks);
    r = calloc((size_t)f->ranks, sizeof *r);
    if (!r)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    for (int i = 0; i < f->ranks; i++)
        if (!(r[i] = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_WORKLOAD, i)))) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
    for (long k = 0; k < f->files; k++) {
        int c = (int)(k % f->ranks);
        double size = round(bbs_rng_uniform_ab(r[c], f->size_min, f->size_max));
        double pause = bbs_rng_uniform_ab(r[c], f->pause_min, f->pause_max);

        if (size < 1)
            size = 1;
        total += size;
        if (sink->io && (rc = sink->io(sink->ctx, c, pause, f->write, size,
                                       f->first_object + (uint64_t)k)))
            goto done;
    }
done:
    for (int i = 0; i < f->ranks; i++)
        if (r[i])
            gsl_rng_free(r[i]);
    free(r);
    if (bytes)
        *bytes = total;
    return rc;
}
