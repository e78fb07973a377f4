/* mpi_units: drive bbs_replicate_run with synthetic units of uneven cost,
 * under mpirun or not, for tests/cli_mpi.sh and bench/b_mpi.sh.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   mpi_units [-t THREADS] [-s MICROSECONDS] [-q] [-v] [-n] N [FAIL...]
 *
 * Unit u busy-waits s microseconds (20 s for every u % 5 == 3, so costs
 * differ by 20x), fails with BB_EDATA "bad unit u" if u is listed in FAIL,
 * and otherwise stores (u, splitmix64(u), u / 3.0).  Rank 0 prints every
 * result, the last progress count and the status; every rank checks its own
 * copy of the results against the formula and exits 99 on a mismatch, else
 * with the runner's status.  -q prints one line: units, seconds and
 * microseconds per unit; -n makes each unit run 3 sub-units of its own
 * through bbs_replicate_run (which must stay on its rank); -v says on stderr how many units each rank
 * computed (with one thread per rank only).  Without an MPI launcher this is the thread
 * runner, the reference the MPI runs must match byte for byte. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bb_error.h"
#include "bbmpi.h"
#include "mpistart.h"
#include "replicate.h"

typedef struct {
    uint64_t unit, hash;
    double x;
} result;

typedef struct {
    long spin_us;
    int nested;
    const size_t *fail;
    size_t nfail;
} job;

static size_t computed_here; /* units this rank computed (not thread-safe: -v only) */

static uint64_t
splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static double
now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int
sub_fn(size_t k, void *res, const void *vctx, char *err)
{
    (void)err;
    *(uint64_t *)res = splitmix64(*(const size_t *)vctx * 3 + k + 1000003);
    return BB_OK;
}

static uint64_t
expected_hash(size_t u, int nested)
{
    uint64_t h = splitmix64(u);

    if (nested)
        h ^= splitmix64(u * 3 + 1000003) + splitmix64(u * 3 + 1000004)
             + splitmix64(u * 3 + 1000005);
    return h;
}

static int
unit_fn(size_t u, void *res, const void *vctx, char *err)
{
    const job *j = vctx;
    result *r = res;
    double us = (double)j->spin_us * (u % 5 == 3 ? 20 : 1), t0 = now();

    while ((now() - t0) * 1e6 < us)
        ;
    for (size_t k = 0; k < j->nfail; k++)
        if (j->fail[k] == u)
            return bb_seterr(err, BB_EDATA, "bad unit %zu", u);
    computed_here++;
    r->unit = u;
    r->hash = splitmix64(u);
    if (j->nested) {
        /* Units of a unit: 3 sub-units on 2 threads, folded into the hash. */
        uint64_t sub[3];
        int rc = bbs_replicate_run(3, sizeof sub[0], sub, sub_fn, &u, 2, NULL, NULL, err);

        if (rc != BB_OK)
            return rc;
        r->hash ^= sub[0] + sub[1] + sub[2];
    }
    r->x = (double)u / 3.0;
    return BB_OK;
}

static void
on_progress(void *pctx, size_t done, size_t total)
{
    size_t *last = pctx;

    (void)total;
    if (done > *last)
        *last = done;
}

int
main(int argc, char **argv)
{
    job j = { 0, 0, NULL, 0 };
    int threads = 0, quiet = 0, verbose = 0, c, rc, rank;
    size_t n, last = 0, *fail;
    result *res;
    char err[BB_ERRLEN] = "";
    double t0;

    bb_mpi_start(&argc, &argv);
    rank = bbs_mpi_rank();
    while ((c = getopt(argc, argv, "t:s:qvn")) != -1)
        switch (c) {
        case 't': threads = atoi(optarg); break;
        case 's': j.spin_us = atol(optarg); break;
        case 'q': quiet = 1; break;
        case 'v': verbose = 1; break;
        case 'n': j.nested = 1; break;
        default: return 64;
        }
    if (optind >= argc) {
        fprintf(stderr, "usage: mpi_units [-t THREADS] [-s US] [-q] [-v] [-n] N [FAIL...]\n");
        return 64;
    }
    n = (size_t)strtoul(argv[optind++], NULL, 10);
    fail = calloc((size_t)argc, sizeof *fail);
    res = malloc((n ? n : 1) * sizeof *res);
    if (!fail || !res)
        return 70;
    for (; optind < argc; optind++)
        fail[j.nfail++] = (size_t)strtoul(argv[optind], NULL, 10);
    j.fail = fail;
    t0 = now();
    rc = bbs_replicate_run(n, sizeof *res, res, unit_fn, &j, threads, on_progress, &last, err);
    t0 = now() - t0;
    if (rc == BB_OK)
        for (size_t u = 0; u < n; u++)
            if (res[u].unit != u || res[u].hash != expected_hash(u, j.nested) || res[u].x != (double)u / 3.0) {
                fprintf(stderr, "rank %d: unit %zu differs\n", rank, u);
                rc = 99;
            }
    if (verbose)
        fprintf(stderr, "rank %d computed %zu units\n", rank, computed_here);
    if (rank == 0) {
        if (quiet)
            printf("%zu units in %.6f s: %.2f us per unit\n", n, t0, 1e6 * t0 / (double)n);
        else {
            if (rc == BB_OK)
                for (size_t u = 0; u < n; u++)
                    printf("%zu %016llx %.17g\n", u, (unsigned long long)res[u].hash, res[u].x);
            if (rc == BB_OK)
                printf("progress %zu of %zu\n", last, n);
            printf("status %d: %s\n", rc, rc == BB_OK ? "ok" : err);
        }
    }
    free(fail);
    free(res);
    return rc;
}
