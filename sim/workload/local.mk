# SPDX-License-Identifier: GPL-3.0-or-later
# libbbswl: operation streams (ops.h), their executor on the dragonfly and
# the burst-buffer devices (exec.h), the MFNetSim application models
# (models.h) and scenario files (scenario.h).  Link before
# sim/network/libbbsnet.a sim/storage/libbbsstor.a sim/libbbsim.a.
noinst_LIBRARIES += sim/workload/libbbswl.a
sim_workload_libbbswl_a_SOURCES = \
	sim/workload/ops.c sim/workload/ops.h sim/workload/wl_int.h \
	sim/workload/coll.c sim/workload/coll.h \
	sim/workload/exec.c sim/workload/exec.h \
	sim/workload/exec_int.h sim/workload/exec_match.c sim/workload/exec_net.c \
	sim/workload/exec_io.c sim/workload/exec_stats.c
WL_LIBS = src/formats/libbbformats.a sim/workload/libbbswl.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
	sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)

check_PROGRAMS += tests/t_wl_exec
tests_t_wl_exec_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_exec_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_wl_exec
check_PROGRAMS += tests/t_wl_models
tests_t_wl_models_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_models_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_wl_models
check_PROGRAMS += tests/t_wl_coll
tests_t_wl_coll_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_coll_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_wl_coll

sim_workload_libbbswl_a_SOURCES += \
	sim/workload/models.c sim/workload/models.h \
	sim/workload/scenario.c sim/workload/scenario.h \
	sim/workload/scnbuild.c sim/workload/scnbuild.h

src_bbsize_SOURCES += src/cmd_scenario.c src/scnrun.c
src_bbsize_LDADD += sim/workload/libbbswl.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
	sim/libbbsim.a $(GSL_LIBS)

dist_man_MANS += man/bbsize-scenario.5 man/bbsize-compare.1
scenariosdir = $(pkgdatadir)/scenarios
dist_scenarios_DATA = \
	data/scenarios/mfnetsim-checkpoint-alone-cont-adp.ini \
	data/scenarios/mfnetsim-checkpoint-alone-cont-min.ini \
	data/scenarios/mfnetsim-checkpoint-alone-rand-adp.ini \
	data/scenarios/mfnetsim-checkpoint-alone-rand-min.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-cont-adp.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-cont-min.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-rand-adp.ini \
	data/scenarios/mfnetsim-cosmoflow-alone-rand-min.ini \
	data/scenarios/mfnetsim-milc-alone-cont-adp.ini \
	data/scenarios/mfnetsim-milc-alone-cont-min.ini \
	data/scenarios/mfnetsim-milc-alone-rand-adp.ini \
	data/scenarios/mfnetsim-milc-alone-rand-min.ini \
	data/scenarios/mfnetsim-nekbone-alone-cont-adp.ini \
	data/scenarios/mfnetsim-nekbone-alone-cont-min.ini \
	data/scenarios/mfnetsim-nekbone-alone-rand-adp.ini \
	data/scenarios/mfnetsim-nekbone-alone-rand-min.ini \
	data/scenarios/mfnetsim-w1-mix-cont-adp.ini \
	data/scenarios/mfnetsim-w1-mix-cont-min.ini \
	data/scenarios/mfnetsim-w1-mix-rand-adp.ini \
	data/scenarios/mfnetsim-w1-mix-rand-min.ini \
	data/scenarios/mfnetsim-w2-mix-cont-adp.ini \
	data/scenarios/mfnetsim-w2-mix-cont-min.ini \
	data/scenarios/mfnetsim-w2-mix-rand-adp.ini \
	data/scenarios/mfnetsim-w2-mix-rand-min.ini
EXTRA_DIST += data/scenarios/mkscenarios.sh bench/hybrid.sh tests/cli_scenario.sh
TESTS += tests/cli_scenario.sh tests/cli_scenario_ini.sh
EXTRA_DIST += tests/cli_scenario_ini.sh

# The hybrid matrix benchmark (never run by make check).
bench-hybrid: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/hybrid.sh
.PHONY: bench-hybrid

# What each network and storage mechanism changes (never run by make check).
EXTRA_DIST += bench/mechanisms.sh
bench-mechanisms: src/bbsize$(EXEEXT)
	for w in w1 w2; do for r in min adp; do \
	  BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	    $(SHELL) $(top_srcdir)/bench/mechanisms.sh $$w $$r || exit 1; done; done
.PHONY: bench-mechanisms
