# SPDX-License-Identifier: GPL-3.0-or-later
# libbbswl: operation streams (ops.h), their executor on the dragonfly and
# the burst-buffer devices (exec.h), the MFNetSim application models
# (models.h) and scenario files (scenario.h).  Link before
# sim/network/libbbsnet.a sim/storage/libbbsstor.a sim/libbbsim.a.
noinst_LIBRARIES += sim/workload/libbbswl.a
sim_workload_libbbswl_a_SOURCES = \
	sim/workload/ops.c sim/workload/ops.h sim/workload/wl_int.h \
	sim/workload/exec.c sim/workload/exec.h
WL_LIBS = sim/workload/libbbswl.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
	sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)

check_PROGRAMS += tests/t_wl_exec
tests_t_wl_exec_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_exec_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_wl_exec

sim_workload_libbbswl_a_SOURCES += \
	sim/workload/models.c sim/workload/models.h \
	sim/workload/scenario.c sim/workload/scenario.h

src_bbsize_SOURCES += src/cmd_scenario.c
src_bbsize_LDADD += sim/workload/libbbswl.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
	sim/libbbsim.a $(GSL_LIBS)
