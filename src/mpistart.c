/* mpistart.c: the MPI back end's start from the environment and its end
 * at exit (mpistart.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bbmpi.h"
#include "mpistart.h"

static const char *const launcher_vars[] = {
    "OMPI_COMM_WORLD_SIZE", /* Open MPI's mpirun */
    "PMIX_RANK",            /* PMIx launchers (Open MPI 5, srun --mpi=pmix) */
    "PMI_SIZE",             /* MPICH's hydra, srun --mpi=pmi2 */
    "MPI_LOCALNRANKS",      /* MPICH's hydra */
};

#ifdef HAVE_ON_EXIT
static void
end_mpi(int status, void *arg)
{
    (void)arg;
    if (status == 0 || bbs_mpi_agreed_failure())
        bbs_mpi_finalize();
    else
        bbs_mpi_announce_failure(status);
}
#else
static void
end_mpi(void)
{
    bbs_mpi_finalize();
}
#endif

int
bb_mpi_start(int *argc, char ***argv)
{
    bbs_mpi_config cfg = { 0, 2, 1 };
    const char *q = getenv("BBSIZE_MPI_QUEUE");
    const char *mw = getenv("BBSIZE_MPI_MASTER_WORKS");

    for (size_t i = 0; i < sizeof launcher_vars / sizeof launcher_vars[0]; i++)
        if (getenv(launcher_vars[i]))
            cfg.launched = 1;
    if (q != NULL)
        cfg.queue_depth = atoi(q);
    if (mw != NULL && strcmp(mw, "no") == 0)
        cfg.master_works = 0;
    if (!bbs_mpi_init(argc, argv, &cfg))
        return 0;
#ifdef HAVE_ON_EXIT
    on_exit(end_mpi, NULL);
#else
    atexit(end_mpi);
#endif
    return 1;
}
