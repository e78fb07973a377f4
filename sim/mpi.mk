# SPDX-License-Identifier: GPL-3.0-or-later
# The optional MPI back end (./configure --with-mpi): sim/bbmpi.c joins
# libbbsim; without it sim/bbmpi.h's inline no-ops stand in.  MPI_LIBS is
# in LIBS (configure.ac), so every program linking libbbsim.a gets it.
sim_libbbsim_a_SOURCES += sim/bbmpi.h
if WITH_MPI
sim_libbbsim_a_SOURCES += sim/bbmpi.c
AM_CPPFLAGS += $(MPI_CFLAGS)
endif

# The distributed runner against the thread runner, and the commands under
# mpirun -np 1, 2, 3 (a TAP skip without --with-mpi).
check_PROGRAMS += tests/mpi_units
tests_mpi_units_SOURCES = tests/mpi_units.c src/mpistart.c src/mpistart.h
tests_mpi_units_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) -lpthread
TESTS += tests/cli_mpi.sh
EXTRA_DIST += tests/cli_mpi.sh

# Per-unit overhead of the MPI layer (never run by make check).
EXTRA_DIST += bench/b_mpi.sh data/slurm/bbsize-sweep.sbatch
bench-mpi: src/bbsize$(EXEEXT) tests/mpi_units$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize MPI_UNITS=$(abs_top_builddir)/tests/mpi_units \
	  $(SHELL) $(top_srcdir)/bench/b_mpi.sh
.PHONY: bench-mpi

dist_man_MANS += man/bbsize-mpi.7
