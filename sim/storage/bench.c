/* bench.c: the fio-style device microbenchmark (bench.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "bench.h"
#include "rngstream.h"

const double bbs_bench_pct[BBS_BENCH_NPCT] = { 1, 50, 90, 99, 99.9, 99.99 };

static const char *pat_names[] = { "seqread", "seqwrite", "randread", "randwrite" };

int
bbs_bench_pattern_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, pat_names[i]) == 0)
            return i;
    return -1;
}

const char *
bbs_bench_pattern_name(bbs_pattern p)
{
    return (unsigned)p < 4 ? pat_names[p] : "?";
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The closed FIFO loop: request i is submitted when request i - qd
 * completes (time 0 for the first qd), starts when it reaches the head of
 * the queue (after request i - 1 completes) and completes when the device
 * says.  Because the server is FIFO, completions come in submission order,
 * so a ring of the last qd completion times is the whole event list. */
static int
run_closed_fifo(bbs_dev *dev, const bbs_bench_opts *o, const uint32_t *perm, uint64_t n,
                gsl_rng *rdev, double *lat, double *end_s, char *err)
{
    double *ring = NULL, prev_done = 0;
    int rc = BB_OK, rnd = o->pattern == BBS_PAT_RANDREAD || o->pattern == BBS_PAT_RANDWRITE;
    bbs_io io;

    ring = calloc((size_t)o->qd, sizeof *ring);
    if (!ring)
        return bb_seterr(err, BB_ENOMEM, "out of memory (queue of %d)", o->qd);
    io.op = (o->pattern == BBS_PAT_SEQREAD || o->pattern == BBS_PAT_RANDREAD) ? BBS_IO_READ
                                                                             : BBS_IO_WRITE;
    io.object = 0;
    io.size_bytes = o->bs_bytes;
    for (uint64_t i = 0; i < n; i++) {
        double submit = i < (uint64_t)o->qd ? 0 : ring[i % (uint64_t)o->qd];
        double start = submit > prev_done ? submit : prev_done, done;
        uint64_t blk = rnd ? perm[i] : i;
        io.offset_bytes = o->offset_bytes + blk * o->bs_bytes;
        if ((rc = bbs_dev_serve(dev, start, &io, rdev, &done, err)) != BB_OK)
            goto out;
        lat[i] = done - submit;
        ring[i % (uint64_t)o->qd] = done;
        prev_done = done;
    }
    *end_s = prev_done;
out:
    free(ring);
    return rc;
}

int
bbs_storage_bench(const bbs_dev_params *p, const bbs_bench_opts *o, bbs_bench_result *r,
                  char *err)
{
    bbs_dev *dev = NULL;
    gsl_rng *rwl = NULL, *rdev = NULL;
    uint32_t *perm = NULL;
    double *lat = NULL, end_s = 0, sum = 0;
    uint64_t n;
    int rc;

    memset(r, 0, sizeof *r);
    if (o->bs_bytes == 0 || o->size_bytes == 0 || o->size_bytes % o->bs_bytes != 0)
        return bb_seterr(err, BB_EINVAL, "file size %llu B is not a positive multiple of the "
                         "block size %llu B", (unsigned long long)o->size_bytes,
                         (unsigned long long)o->bs_bytes);
    if (o->qd < 1)
        return bb_seterr(err, BB_EINVAL, "queue depth %d is not >= 1", o->qd);
    if ((unsigned)o->pattern > BBS_PAT_RANDWRITE)
        return bb_seterr(err, BB_EINVAL, "unknown pattern %d", (int)o->pattern);
    n = o->size_bytes / o->bs_bytes;
    if (n > UINT32_MAX)
        return bb_seterr(err, BB_EINVAL, "%llu blocks: at most 2^32 - 1 per run",
                         (unsigned long long)n);
    if (p->kind != BBS_DEV_TABLE
        && (double)o->offset_bytes + (double)o->size_bytes > p->capacity_bytes)
        return bb_seterr(err, BB_EINVAL, "the file (%llu B at %llu B) does not fit on the "
                         "device (%.0f B)", (unsigned long long)o->size_bytes,
                         (unsigned long long)o->offset_bytes, p->capacity_bytes);
    if ((rc = bbs_dev_new(&dev, p, err)) != BB_OK)
        return rc;
    rc = BB_ENOMEM;
    lat = malloc((size_t)n * sizeof *lat);
    rwl = bbs_storage_rng_new(o->seed, 0, 0);
    rdev = bbs_storage_rng_new(o->seed, 0, 1);
    if (!lat || !rwl || !rdev)
        goto nomem;
    if (o->pattern == BBS_PAT_RANDREAD || o->pattern == BBS_PAT_RANDWRITE) {
        perm = malloc((size_t)n * sizeof *perm);
        if (!perm)
            goto nomem;
        for (uint64_t i = 0; i < n; i++)
            perm[i] = (uint32_t)i;
        gsl_ran_shuffle(rwl, perm, (size_t)n, sizeof *perm);
    }
    if ((rc = run_closed_fifo(dev, o, perm, n, rdev, lat, &end_s, err)) != BB_OK)
        goto out;

    r->ios = n;
    r->bytes = o->size_bytes;
    r->elapsed_s = end_s;
    r->MBps = (double)r->bytes / end_s / 1e6;
    r->MiBps = (double)r->bytes / end_s / 1048576.0;
    r->iops = (double)n / end_s;
    for (uint64_t i = 0; i < n; i++)
        sum += lat[i];
    r->lat_mean_s = sum / (double)n;
    qsort(lat, (size_t)n, sizeof *lat, cmp_double);
    r->lat_min_s = lat[0];
    r->lat_max_s = lat[n - 1];
    for (int k = 0; k < BBS_BENCH_NPCT; k++) {
        double rank = ceil(bbs_bench_pct[k] / 100.0 * (double)n);
        uint64_t idx = rank < 1 ? 0 : (uint64_t)rank - 1;
        r->lat_pct_s[k] = lat[idx < n ? idx : n - 1];
    }
    rc = BB_OK;
    goto out;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory for a benchmark of %llu requests",
                   (unsigned long long)n);
out:
    free(perm);
    free(lat);
    gsl_rng_free(rwl);
    gsl_rng_free(rdev);
    bbs_dev_free(dev);
    return rc;
}
