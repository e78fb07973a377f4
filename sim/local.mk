# SPDX-License-Identifier: GPL-3.0-or-later
# sim/: libbbsim, the validation simulator.  The generic engine first
# (engine, rng, stats, replication: nothing about burst buffers), then the
# paper's platform and the trace-driven workload models (sim/workload/*.c
# that need only the engine).  Its sources are listed here and nowhere else.
noinst_LIBRARIES += sim/libbbsim.a
# The simulator's libraries see sim/ (their headers are named from there:
# "network/topo.h"), analytic/ (the chains) and base/ (bb_error.h, the
# draining policy), not src/.
SIM_LIB_CPPFLAGS = -I$(top_srcdir)/sim $(ANALYTIC_INC) -I$(top_srcdir)/base $(GSL_CFLAGS)
sim_libbbsim_a_CPPFLAGS = $(SIM_LIB_CPPFLAGS)
sim_libbbsim_a_SOURCES = \
	sim/bbsim.h \
	sim/engine.c sim/engine.h \
	sim/rng.c sim/rng.h \
	sim/stats.c sim/stats.h \
	sim/crosscheck.c sim/crosscheck.h \
	sim/steady.c sim/steady.h \
	sim/pool.c sim/pool.h \
	sim/replicate.c sim/replicate.h \
	sim/bb.c sim/bb.h \
	sim/bbpart.c sim/bbpart.h \
	sim/bbstep.c sim/bbstep.h \
	sim/fluidpath.c sim/fluidpath.h \
	sim/fluidsim.c sim/fluidsim.h \
	sim/fluidplat.c sim/fluidplat.h \
	sim/grow.h \
	sim/bbmpi.h \
	sim/workload/vefdist.c sim/workload/vefdist.h \
	sim/workload/vef.c sim/workload/vef.h \
	sim/workload/g500.c sim/workload/g500.h \
	sim/workload/wlsink.h \
	sim/workload/horovod.c sim/workload/horovod.h \
	sim/workload/dcnw.c sim/workload/dcnw.h \
	sim/workload/fileload.c sim/workload/fileload.h

# The optional MPI back end (./configure --with-mpi): sim/bbmpi.c joins
# libbbsim; without it sim/bbmpi.h's inline no-ops stand in.  MPI_LIBS is
# in LIBS (configure.ac), so every program linking libbbsim.a gets it.
if WITH_MPI
sim_libbbsim_a_SOURCES += sim/bbmpi.c
sim_libbbsim_a_CPPFLAGS += $(MPI_CFLAGS)
AM_CPPFLAGS += $(MPI_CFLAGS)
endif
