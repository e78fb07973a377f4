/* bench.c: the fio-style device microbenchmark (bench.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "bench.h"
#include "devq.h"
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

/* The closed loop on the engine: qd requests are submitted at time 0, and
 * each completion submits the next one; the device queue (devq.h) serves
 * them FIFO. */
typedef struct {
    bbs_devq *q;
    const uint32_t *perm;
    uint64_t n, next, bs, base, done, step;
    double *lat, end_s;
    bbs_io io;
    const bbs_bench_opts *o;
} bench_ctx;

static int
submit_next(bench_ctx *c, char *err)
{
    uint64_t blk;

    if (c->next >= c->n)
        return BB_OK;
    blk = c->perm ? c->perm[c->next] : c->next;
    c->io.offset_bytes = c->base + blk * c->bs;
    return bbs_devq_submit(c->q, &c->io, c->next++, err);
}

static int
on_complete(bbs_engine *e, bbs_devq *q, const bbs_io *io, uint64_t tag, double t_submit,
            void *ctx)
{
    bench_ctx *c = ctx;
    char msg[BB_ERRLEN];
    int rc;

    (void)q;
    (void)io;
    c->end_s = bbs_engine_now(e);
    c->lat[tag] = c->end_s - t_submit;
    if (c->o->progress_fn && (++c->done % c->step == 0 || c->done == c->n))
        c->o->progress_fn(c->o->progress_ctx, (size_t)c->done, (size_t)c->n);
    if ((rc = submit_next(c, msg)) != BB_OK)
        return bbs_engine_fail(e, rc, "%s", msg);
    return BB_OK;
}

static int
run_closed_loop(bbs_dev *dev, const bbs_bench_opts *o, const uint32_t *perm, uint64_t n,
                gsl_rng *rdev, double *lat, double *end_s, char *err)
{
    bbs_engine *e = NULL;
    bench_ctx c;
    int rc, kind;

    memset(&c, 0, sizeof c);
    if ((rc = bbs_engine_new(&e, (size_t)o->qd + 4, err)) != BB_OK)
        return rc;
    if ((rc = bbs_devq_register_kind(e, &kind)) != BB_OK
        || (rc = bbs_devq_new(&c.q, e, kind, 0, dev, rdev, on_complete, &c, err)) != BB_OK)
        goto out;
    c.perm = perm;
    c.n = n;
    c.bs = o->bs_bytes;
    c.base = o->offset_bytes;
    c.lat = lat;
    c.o = o;
    c.step = n / 100 > 0 ? n / 100 : 1;
    c.io.op = (o->pattern == BBS_PAT_SEQREAD || o->pattern == BBS_PAT_RANDREAD) ? BBS_IO_READ
                                                                              : BBS_IO_WRITE;
    c.io.size_bytes = o->bs_bytes;
    for (int i = 0; i < o->qd && rc == BB_OK; i++)
        rc = submit_next(&c, err);
    if (rc == BB_OK)
        rc = bbs_engine_run(e, INFINITY);
    *end_s = c.end_s;
out:
    bbs_devq_free(c.q);
    bbs_engine_free(e);
    return rc;
}

int
bbs_storage_bench_check(const bbs_dev_params *p, const bbs_bench_opts *o, char *err)
{
    uint64_t n;

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
    if (bbs_dev_addressed(p)
        && (double)o->offset_bytes + (double)o->size_bytes > p->capacity_bytes)
        return bb_seterr(err, BB_EINVAL, "the file (%llu B at %llu B) does not fit on the "
                         "device (%.0f B)", (unsigned long long)o->size_bytes,
                         (unsigned long long)o->offset_bytes, p->capacity_bytes);
    return BB_OK;
}

void
bbs_storage_bench_estimate(const bbs_bench_opts *o, double *requests, double *bytes)
{
    double n = o->bs_bytes > 0 ? (double)(o->size_bytes / o->bs_bytes) : 0;

    int random = o->pattern == BBS_PAT_RANDREAD || o->pattern == BBS_PAT_RANDWRITE;

    *requests = n;
    *bytes = n * (double)(sizeof(double) + (random ? sizeof(uint32_t) : 0));   /* lat, perm */
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
    if ((rc = bbs_storage_bench_check(p, o, err)) != BB_OK)
        return rc;
    n = o->size_bytes / o->bs_bytes;
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
    if ((rc = run_closed_loop(dev, o, perm, n, rdev, lat, &end_s, err)) != BB_OK)
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
