/* bbmpi.c: the MPI back end: launcher detection, and the master/worker
 * runner over the ranks (bbmpi.h).  Compiled only with --with-mpi.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <mpi.h>

#include "bb_error.h"
#include "bbmpi.h"
#include "pool.h"

/* Our own communicator, so that our messages never meet anyone else's. */
static MPI_Comm comm = MPI_COMM_NULL;
static int started, finished, rank, size = 1, funneled;
/* Set on every rank while a distributed run is on: a unit that itself
 * calls bbs_replicate_run (on any thread) must run it locally, as only
 * this rank is there. */
static _Atomic int in_run;

enum { TAG_HDR = 1, TAG_DATA, TAG_WORK, TAG_FAILED };
#define NO_UNIT UINT64_MAX
/* Results are broadcast in pieces of at most this many bytes (MPI counts
 * are ints). */
#define BCAST_CHUNK ((size_t)1 << 30)

/* What a worker sends after each unit (and once, with NO_UNIT, to ask for
 * its first): the unit, its status and message; result bytes follow in a
 * TAG_DATA message when the status is BB_OK. */
typedef struct {
    uint64_t unit;
    int32_t status;
    char msg[BB_ERRLEN];
} unit_hdr;

static double
now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The status of the last distributed run, which every rank received. */
static int agreed_failure;
/* bbs_mpi_init's settings. */
static int queue_depth = 2, master_works = 1;

int
bbs_mpi_agreed_failure(void)
{
    return agreed_failure;
}

void
bbs_mpi_announce_failure(int status)
{
    static int32_t st;

    if (rank != 0 || !started || finished)
        return;
    /* Four bytes to each other rank, sent eagerly; never wait for them. */
    st = status;
    for (int r = 1; r < size; r++) {
        MPI_Request req;

        MPI_Isend(&st, 1, MPI_INT32_T, r, TAG_FAILED, comm, &req);
        MPI_Request_free(&req);
    }
    for (int k = 0; k < 100; k++) { /* let the messages leave */
        int flag;

        MPI_Iprobe(MPI_ANY_SOURCE, TAG_FAILED, comm, &flag, MPI_STATUS_IGNORE);
    }
}

int
bbs_mpi_init(int *argc, char ***argv, const bbs_mpi_config *cfg)
{
    int provided;

    if (!cfg->launched || started)
        return started;
    queue_depth = cfg->queue_depth < 1 ? 1 : cfg->queue_depth > 16 ? 16 : cfg->queue_depth;
    master_works = cfg->master_works;
#ifdef PR_SET_TIMERSLACK
    /* wait_req sleeps a few microseconds at a time: without this, Linux
     * may stretch each sleep by its default 50 us of timer slack. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
#endif
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    started = 1;
    /* Only the main thread calls MPI; rank 0's helper thread computes
     * units only if MPI allows other threads to exist. */
    funneled = provided >= MPI_THREAD_FUNNELED;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    return 1;
}

int
bbs_mpi_rank0_failed(double wait_s)
{
    double t0 = now();
    int flag = 0;

    if (!started || finished || rank == 0)
        return 0;
    while (!flag && now() - t0 < wait_s) {
        struct timespec ts = { 0, 1000000L };

        MPI_Iprobe(0, TAG_FAILED, comm, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            nanosleep(&ts, NULL);
    }
    return flag;
}

int
bbs_mpi_rank(void)
{
    return rank;
}

int
bbs_mpi_size(void)
{
    return size;
}

int
bbs_mpi_in_run(void)
{
    return in_run;
}

void
bbs_mpi_finalize(void)
{
    if (!started || finished)
        return;
    finished = 1;
    MPI_Comm_free(&comm);
    MPI_Finalize();
}


/* wait_req: complete *req without spinning a core for long: poll freely
 * for 20 us, then sleep between polls for 1/8 of the time waited so far,
 * at most 200 us, so the added latency stays within 1/8 of the wait (plus
 * 200 us).  MPI_Wait would spin at 100% in Open MPI, taking the core that
 * rank 0's helper thread or an oversubscribed rank needs. */
static void
wait_req(MPI_Request *req, MPI_Status *st)
{
    double t0 = now();
    int flag = 0;

    for (;;) {
        double w;

        MPI_Test(req, &flag, st);
        if (flag)
            return;
        w = now() - t0;
        if (w > 20e-6) {
            double s = w / 8 > 200e-6 ? 200e-6 : w / 8;
            struct timespec ts = { 0, (long)(s * 1e9) };

            nanosleep(&ts, NULL);
        }
    }
}

static void
bcast_wait(void *buf, size_t bytes)
{
    for (size_t off = 0; off < bytes; off += BCAST_CHUNK) {
        size_t k = bytes - off < BCAST_CHUNK ? bytes - off : BCAST_CHUNK;
        MPI_Request req;

        MPI_Ibcast((char *)buf + off, (int)k, MPI_BYTE, 0, comm, &req);
        wait_req(&req, MPI_STATUS_IGNORE);
    }
}

/* Rank 0: serve unit indices to the other ranks, to each a stream of
 * units ended by one NO_UNIT, until every rank has been stopped and has
 * returned every unit it was given; meanwhile a helper thread computes
 * units from the same pool.  out[r]: units given to rank r and not yet
 * returned; stopped[r]: NO_UNIT sent to r. */
static void
master(bbs_pool *p, int *out, char *stopped)
{
    pthread_t helper;
    int helping = funneled && master_works
                  && pthread_create(&helper, NULL, bbs_pool_worker, p) == 0;
    int depth = queue_depth, active = size - 1;
    unit_hdr h;
    MPI_Request req;
    MPI_Status st;

    MPI_Irecv(&h, (int)sizeof h, MPI_BYTE, MPI_ANY_SOURCE, TAG_HDR, comm, &req);
    while (active > 0) {
        int src, give = depth; /* a rank's first message: fill its queue */

        wait_req(&req, &st);
        src = st.MPI_SOURCE;
        if (h.unit != NO_UNIT) {
            size_t u = (size_t)h.unit;

            h.msg[sizeof h.msg - 1] = '\0';
            if (h.status == BB_OK)
                MPI_Recv(p->results + u * p->result_size, (int)p->result_size, MPI_BYTE, src,
                         TAG_DATA, comm, MPI_STATUS_IGNORE);
            bbs_pool_done(p, u, h.status, h.msg);
            out[src]--;
            give = 1;
        }
        /* After a failure bbs_pool_claim gives nothing: drain. */
        for (; give > 0 && !stopped[src]; give--) {
            size_t u;
            uint64_t next = NO_UNIT;

            if (bbs_pool_claim(p, &u)) {
                next = (uint64_t)u;
                out[src]++;
            } else
                stopped[src] = 1;
            MPI_Send(&next, 1, MPI_UINT64_T, src, TAG_WORK, comm);
        }
        /* A stopped rank with nothing out sends nothing more. */
        if (stopped[src] && out[src] == 0)
            active--;
        if (active > 0)
            MPI_Irecv(&h, (int)sizeof h, MPI_BYTE, MPI_ANY_SOURCE, TAG_HDR, comm, &req);
    }
    if (helping)
        pthread_join(helper, NULL);
}

/* Other ranks: say hello, then run the stream of units sent by rank 0,
 * returning each, until NO_UNIT.  The next unit's receive is posted
 * before computing, so it is waiting when the result goes back. */
static void
worker(size_t result_size, char *results, bbs_unit_fn fn, const void *ctx)
{
    unit_hdr h;
    uint64_t u, next;
    MPI_Request req;

    memset(&h, 0, sizeof h);
    h.unit = NO_UNIT;
    MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_HDR, comm);
    MPI_Irecv(&u, 1, MPI_UINT64_T, 0, TAG_WORK, comm, &req);
    wait_req(&req, MPI_STATUS_IGNORE);
    while (u != NO_UNIT) {
        MPI_Irecv(&next, 1, MPI_UINT64_T, 0, TAG_WORK, comm, &req);
        h.unit = u;
        h.msg[0] = '\0';
        h.status = fn((size_t)u, results + u * result_size, ctx, h.msg);
        MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_HDR, comm);
        if (h.status == BB_OK)
            MPI_Send(results + u * result_size, (int)result_size, MPI_BYTE, 0, TAG_DATA, comm);
        wait_req(&req, MPI_STATUS_IGNORE);
        u = next;
    }
}

int
bbs_mpi_replicate_run(size_t n_units, size_t result_size, void *results, bbs_unit_fn fn,
                      const void *ctx, bbs_progress_fn progress, void *pctx, char *err)
{
    struct {
        int32_t status;
        char msg[BB_ERRLEN];
    } fin;

    /* The same test on every rank, so every rank returns here together. */
    if (result_size > INT_MAX)
        return bb_seterr(err, BB_EINVAL, "a unit result of %zu bytes is too large for MPI",
                         result_size);
    memset(&fin, 0, sizeof fin);
    in_run = 1;
    if (rank == 0) {
        bbs_pool p;
        int *out = calloc((size_t)size, sizeof *out);
        char *stopped = calloc((size_t)size, 1);
        int rc = out && stopped ? BB_OK
                 : bb_seterr(fin.msg, BB_ENOMEM, "out of memory for %d ranks", size);

        if (rc == BB_OK)
            rc = bbs_pool_init(&p, n_units, result_size, results, fn, ctx, progress, pctx,
                               fin.msg);
        if (rc == BB_OK) {
            master(&p, out, stopped);
            rc = bbs_pool_finish(&p, fin.msg);
        } else {
            /* Cannot start: still answer every rank's hello with a stop,
             * so nobody hangs. */
            for (int k = 1; k < size; k++) {
                unit_hdr h;
                MPI_Status st;
                uint64_t stop = NO_UNIT;

                MPI_Recv(&h, (int)sizeof h, MPI_BYTE, MPI_ANY_SOURCE, TAG_HDR, comm, &st);
                MPI_Send(&stop, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_WORK, comm);
            }
        }
        free(out);
        free(stopped);
        fin.status = rc;
    } else
        worker(result_size, results, fn, ctx);
    in_run = 0;
    bcast_wait(&fin, sizeof fin);
    agreed_failure = fin.status != BB_OK;
    fin.msg[sizeof fin.msg - 1] = '\0';
    if (fin.status != BB_OK) {
        if (err)
            snprintf(err, BB_ERRLEN, "%s", fin.msg);
        return fin.status;
    }
    bcast_wait(results, n_units * result_size);
    return BB_OK;
}
