/* mpistart.h: start the MPI back end from the environment, and end it
 * from the exit path (the library reads no environment and installs no
 * exit hook; the programs do, through this).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The environment read:
 *   OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_SIZE, MPI_LOCALNRANKS
 *                               set by an MPI launcher (Open MPI's mpirun,
 *                               PMIx launchers, MPICH's hydra, srun): start
 *                               MPI; otherwise never;
 *   BBSIZE_MPI_QUEUE=D          units in flight per worker rank (1 to 16,
 *                               default 2);
 *   BBSIZE_MPI_MASTER_WORKS=no  rank 0 only hands out units.
 * See bbsize-mpi(7). */
#ifndef BBSIZE_SRC_MPISTART_H
#define BBSIZE_SRC_MPISTART_H

/* bb_mpi_start: bbs_mpi_init with the settings above, and an exit hook
 * that ends MPI as bbmpi.h prescribes (finalize after success or an
 * agreed failure; otherwise announce rank 0's failure and leave without
 * finalizing).  Returns 1 if MPI was started. */
int bb_mpi_start(int *argc, char ***argv);

#endif
