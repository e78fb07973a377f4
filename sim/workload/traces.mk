# SPDX-License-Identifier: GPL-3.0-or-later
# Workload models beyond MFNetSim's four (issue 7): VEF trace reader (plain
# MPI and EXT DCNW/CDCNW/FLOWS/HOROVOD), the DCN size and destination laws,
# Graph500 (CCPE model), HOROVOD and SANgo-style file loads.
sim_libbbsim_a_SOURCES += \
	sim/workload/vefdist.c sim/workload/vefdist.h \
	sim/workload/vef.c sim/workload/vef.h \
	sim/workload/g500.c sim/workload/g500.h \
	sim/workload/wlsink.h \
	sim/workload/horovod.c sim/workload/horovod.h \
	sim/workload/dcnw.c sim/workload/dcnw.h \
	sim/workload/fileload.c sim/workload/fileload.h

# Installed as $(pkgdatadir)/vef, where src/cmd_trace.c looks for the tables.
vefdir = $(pkgdatadir)/vef
dist_vef_DATA = \
	data/vef/README.md \
	data/vef/homasim_DCTCP_MsgSizeDist.txt \
	data/vef/homasim_DCTCP_MsgSizeDist_Original.txt \
	data/vef/homasim_FacebookKeyValueMsgSizeDist.txt \
	data/vef/homasim_Facebook_CacheFollowerDist_IntraCluster.txt \
	data/vef/homasim_Facebook_HadoopDist_All.txt \
	data/vef/homasim_Facebook_WebServerDist_IntraCluster.txt \
	data/vef/homasim_Google_AllRPC.txt \
	data/vef/homasim_Google_SearchRPC.txt \
	data/vef/homamodule_w1.csv data/vef/homamodule_w2.csv data/vef/homamodule_w3.csv \
	data/vef/homamodule_w4.csv data/vef/homamodule_w5.csv

check_PROGRAMS += tests/t_traces
tests_t_traces_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_traces_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_traces

# The emitters onto operation streams live beside ops.c in libbbswl
# (sim/workload/local.mk, included before this fragment).
sim_workload_libbbswl_a_SOURCES += sim/workload/tracegen.c sim/workload/tracegen.h \
	sim/workload/tracejob.c sim/workload/tracejob.h

# bbsize trace (libbbswl and its dependencies come with sim/workload/local.mk)
src_bbsize_SOURCES += src/cmd_trace.c

TESTS += tests/cli_trace.sh
EXTRA_DIST += tests/cli_trace.sh data/traces/mpi-ring.vef data/traces/dcnw-google.vef \
	data/traces/flows.vef data/traces/horovod-alexnet.vef data/traces/horovod-small.vef
dist_man_MANS += man/bbsize-trace.1 man/bbsize-vef.5

# Benchmark of the trace models (never run by make check): make bench-traces
EXTRA_PROGRAMS += bench/b_traces bench/b_kronecker
bench_b_traces_SOURCES = bench/b_traces.c
bench_b_traces_LDADD = src/formats/libbbformats.a sim/libbbsim.a analytic/libbbanalytic.a $(GSL_LIBS)
bench_b_kronecker_SOURCES = bench/b_kronecker.c
bench_b_kronecker_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(GSL_LIBS)
EXTRA_DIST += bench/traces.sh
bench-traces: bench/b_traces$(EXEEXT) bench/b_kronecker$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) $(SHELL) $(top_srcdir)/bench/traces.sh
.PHONY: bench-traces
