/* bbmpi.h: the optional MPI back end: start-up, rank and size, and the
 * distributed runner behind bbs_replicate_run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Named bbmpi.h, not mpi.h, so that <mpi.h> still finds the MPI library's
 * header through the -I of this directory.
 *
 * Built with `./configure --with-mpi` (HAVE_MPI): bbs_mpi_init starts MPI
 * only when the process was launched by an MPI launcher (mpirun, mpiexec,
 * srun: the program tells it, bbs_mpi_config.launched), so a plain
 * `bbsize size` never pays MPI start-up.
 * Without HAVE_MPI every function is an inline no-op: one rank of one, and
 * no MPI symbol anywhere.
 *
 * The runner (bbs_mpi_replicate_run) is SPMD: every rank calls it with the
 * same arguments, in the same order as every other collective call.  Rank 0
 * is the master: its main thread hands unit indices one at a time to the
 * other ranks as they ask (dynamic load balancing), while one helper thread
 * of rank 0 computes units too (unless master_works is 0: for many
 * ranks, or to measure); the other ranks compute one unit at a time
 * into their own copy of the results and send back (unit, status, message,
 * result bytes).  After the first failure no unit is handed out; units
 * already out are drained; the lowest-numbered failed unit is reported as
 * the thread runner reports it ("unit N: ...").  Every path ends with rank
 * 0 broadcasting the status, the message and (on success) the whole
 * results array, so every rank returns the same status, message and bytes
 * as a one-rank run.  Waits poll with a sleep that grows with the time
 * already waited (at most 1/8 of it, at most 200 us), so idle ranks do not
 * burn the cores that busy ranks need.
 *
 * Results must be plain bytes (no pointers): they cross address spaces.
 * Ranks are assumed homogeneous (same binary, same byte order). */
#ifndef BBSIZE_SIM_BBMPI_H
#define BBSIZE_SIM_BBMPI_H

#include <stddef.h>

#include "bb_error.h"
#include "pool.h"

/* How to start: filled by the program (src/mpistart.c reads the
 * environment; the library reads none). */
typedef struct {
    int launched;     /* started by an MPI launcher: start MPI */
    int queue_depth;  /* units in flight per worker rank (1 to 16; 2) */
    int master_works; /* rank 0 computes units too (1) or only hands out */
} bbs_mpi_config;

#ifdef HAVE_MPI

/* bbs_mpi_init: start MPI (MPI_THREAD_FUNNELED) if cfg->launched, else
 * nothing.  Returns 1 if MPI was started, 0 if not.  Any MPI failure
 * aborts the job (MPI's default error handler), as a launcher expects.
 * The program's exit path decides how MPI ends: after exit status 0, or a
 * failure of a distributed run (bbs_mpi_agreed_failure, which every rank
 * shares), bbs_mpi_finalize; after any other failure no MPI_Finalize, so
 * that the launcher ends every rank with that status (a rank failing
 * alone never leaves the others waiting for it), and on rank 0
 * bbs_mpi_announce_failure first. */
int bbs_mpi_init(int *argc, char ***argv, const bbs_mpi_config *cfg);

/* bbs_mpi_announce_failure: on rank 0, tell the other ranks (without
 * waiting) that rank 0 is failing with status; see bbs_mpi_rank0_failed.
 * Nothing elsewhere or when MPI is not running. */
void bbs_mpi_announce_failure(int status);

/* bbs_mpi_rank, bbs_mpi_size: this process's rank and the number of
 * ranks; 0 and 1 when MPI was not started. */
int bbs_mpi_rank(void);
int bbs_mpi_size(void);

/* bbs_mpi_in_run: 1 while this rank is inside bbs_mpi_replicate_run (on
 * any of its threads): a unit that runs units of its own runs them on its
 * own rank (bbs_replicate_run checks this), never over MPI. */
int bbs_mpi_in_run(void);

/* bbs_mpi_agreed_failure: 1 if the last distributed run failed, a status
 * every rank received; exiting on it is collective, not a rank alone. */
int bbs_mpi_agreed_failure(void);

/* bbs_mpi_rank0_failed: on a rank other than 0 that is exiting on a
 * failure of its own: 1 if rank 0 said within wait_s seconds that it is
 * failing too (bbs_mpi_announce_failure), so that only rank 0's message need be shown; 0 otherwise. */
int bbs_mpi_rank0_failed(double wait_s);

/* bbs_mpi_finalize: finish MPI if it was started and not yet finished
 * (safe to call twice). */
void bbs_mpi_finalize(void);

/* bbs_mpi_replicate_run: bbs_replicate_run over the ranks (see above);
 * results zeroed by the caller.  Errors: a unit's status, "unit N: ...";
 * BB_EINVAL (result_size above INT_MAX bytes). */
int bbs_mpi_replicate_run(size_t n_units, size_t result_size, void *results, bbs_unit_fn fn,
                          const void *ctx, bbs_progress_fn progress, void *pctx, char *err);

#else

static inline int
bbs_mpi_init(int *argc, char ***argv, const bbs_mpi_config *cfg)
{
    (void)argc; (void)argv; (void)cfg;
    return 0;
}
static inline void bbs_mpi_announce_failure(int status) { (void)status; }
static inline int bbs_mpi_rank(void) { return 0; }
static inline int bbs_mpi_size(void) { return 1; }
static inline int bbs_mpi_in_run(void) { return 0; }
static inline int bbs_mpi_agreed_failure(void) { return 0; }
static inline int bbs_mpi_rank0_failed(double wait_s) { (void)wait_s; return 0; }
static inline void bbs_mpi_finalize(void) { }
static inline int
bbs_mpi_replicate_run(size_t n_units, size_t result_size, void *results, bbs_unit_fn fn,
                      const void *ctx, bbs_progress_fn progress, void *pctx, char *err)
{
    (void)n_units; (void)result_size; (void)results; (void)fn; (void)ctx;
    (void)progress; (void)pctx; (void)err;
    return BB_EINVAL; /* never called: bbs_mpi_size() is 1 */
}

#endif
#endif
