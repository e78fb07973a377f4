# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmarks: built and run by `make bench`, never by `make check`.
EXTRA_PROGRAMS = bench/b_analytic bench/b_onoff
bench_b_onoff_SOURCES = bench/b_onoff.c
bench_b_onoff_LDADD = analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)
bench_b_analytic_SOURCES = bench/b_analytic.c
bench_b_analytic_LDADD = analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += bench/run.sh bench/onoff.sh

bench: bench/b_analytic$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  $(SHELL) $(top_srcdir)/bench/run.sh
.PHONY: bench

# Every benchmark, one after the other (several minutes).
bench-all: bench bench-sim bench-storage bench-net bench-sweep bench-traces bench-hybrid bench-mpi
.PHONY: bench-all

# The bursts model (issue 13): time-unit convergence, quasi-periodic
# comparison, speed (a few minutes).
bench-onoff: src/bbsize$(EXEEXT) bench/b_onoff$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/onoff.sh
	bench/b_onoff 5 4 3
	bench/b_onoff 10 5 3
	bench/b_onoff many
.PHONY: bench-onoff
