# SPDX-License-Identifier: GPL-3.0-or-later
# sim/workload/: libbbswl, operation streams (ops.h), their executor on the
# dragonfly and the burst-buffer nodes (exec.h, split by purpose), the
# collective schedules (coll.h), the MFNetSim application models (models.h),
# scenarios (scenario.h, scnbuild.h) and the trace emitters.  Link before
# sim/network/libbbsnet.a sim/storage/libbbsstor.a sim/libbbsim.a.  The
# trace models that need only the engine (vef, g500, ...) are in libbbsim
# (sim/local.mk).  Its sources are listed here and nowhere else.
noinst_LIBRARIES += sim/workload/libbbswl.a
sim_workload_libbbswl_a_CPPFLAGS = $(SIM_LIB_CPPFLAGS)
sim_workload_libbbswl_a_SOURCES = \
	sim/workload/ops.c sim/workload/ops.h sim/workload/wl_int.h \
	sim/workload/coll.c sim/workload/coll.h \
	sim/workload/exec.c sim/workload/exec.h \
	sim/workload/exec_int.h sim/workload/exec_match.c sim/workload/exec_net.c \
	sim/workload/exec_io.c sim/workload/exec_stats.c \
	sim/workload/models.c sim/workload/models.h \
	sim/workload/scenario.c sim/workload/scenario.h \
	sim/workload/scnbuild.c sim/workload/scnbuild.h \
	sim/workload/tracegen.c sim/workload/tracegen.h \
	sim/workload/tracejob.c sim/workload/tracejob.h
