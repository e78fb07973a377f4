/* bench.h: the fio-style microbenchmark of MFNetSim's Table 1 on a device
 * model: one job, a closed loop of qd outstanding requests served FIFO.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Like fio with direct=1 and its default random map, a run touches every
 * block of the file exactly once: sequential patterns in address order,
 * random patterns in a random permutation of the blocks.  Requests are
 * issued with no think time: at time 0 the first qd, then one at each
 * completion.  Hot loop: size / bs requests (131,072 for 512 MiB of 4 KiB);
 * memory: one double per request (latencies, for exact percentiles) and
 * one 32-bit block index per request for random patterns. */
#ifndef BBSIZE_SIM_STORAGE_BENCH_H
#define BBSIZE_SIM_STORAGE_BENCH_H

#include <stdint.h>

#include "device.h"
#include "pool.h"

typedef enum {
    BBS_PAT_SEQREAD = 0, BBS_PAT_SEQWRITE, BBS_PAT_RANDREAD, BBS_PAT_RANDWRITE
} bbs_pattern;

typedef struct {
    bbs_pattern pattern;
    uint64_t bs_bytes;      /* block size, > 0 */
    uint64_t size_bytes;    /* file size, a multiple of bs_bytes */
    uint64_t offset_bytes;  /* where the file starts on the device */
    int qd;                 /* outstanding requests, >= 1 */
    uint64_t seed;          /* random offsets and rotational latencies */
    /* Progress (may be NULL): the requests completed, at each hundredth
     * of them and at the end; it changes nothing of the run. */
    bbs_progress_fn progress_fn;   /* pool.h */
    void *progress_ctx;
} bbs_bench_opts;

#define BBS_BENCH_NPCT 6
/* The percentiles reported: 1, 50, 90, 99, 99.9, 99.99. */
extern const double bbs_bench_pct[BBS_BENCH_NPCT];

typedef struct {
    uint64_t ios, bytes;
    double elapsed_s;       /* first submission to last completion */
    double MBps;            /* 10^6 B/s, as in the paper's Table 1 */
    double MiBps;           /* 2^20 B/s */
    double iops;
    double lat_mean_s, lat_min_s, lat_max_s;
    double lat_pct_s[BBS_BENCH_NPCT]; /* nearest rank: the ceil(q n)-th smallest */
} bbs_bench_result;

/* bbs_bench_pattern_parse: "seqread" ... "randwrite"; -1 if unknown. */
int bbs_bench_pattern_parse(const char *s);
const char *bbs_bench_pattern_name(bbs_pattern p);

/* bbs_storage_bench: run the benchmark on a fresh device built from p.
 * Random streams: (seed, unit 0, entity 0) for the offsets, (seed, 0, 1)
 * for the device.  Time O(n log n) for n = size / bs requests (the sort of
 * latencies), memory O(n).  Errors: BB_EINVAL (bs 0, size not a multiple
 * of bs, file beyond the device, qd < 1, more than 2^32 blocks),
 * BB_ENOMEM. */
int bbs_storage_bench(const bbs_dev_params *p, const bbs_bench_opts *o, bbs_bench_result *r,
                      char *err);

/* bbs_storage_bench_check: the errors BB_EINVAL of bbs_storage_bench,
 * before anything is built (so that a command refuses a bad value before
 * it bounds the run). */
int bbs_storage_bench_check(const bbs_dev_params *p, const bbs_bench_opts *o, char *err);

/* bbs_storage_bench_estimate: the requests of the run and the bytes it
 * keeps (a latency per request, and an offset for random patterns). */
void bbs_storage_bench_estimate(const bbs_bench_opts *o, double *requests, double *bytes);

#endif
