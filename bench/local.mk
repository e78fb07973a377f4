# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmarks: built and run by `make bench`, never by `make check`.
EXTRA_PROGRAMS = bench/b_analytic bench/b_export bench/b_onoff
bench_b_onoff_SOURCES = bench/b_onoff.c
bench_b_onoff_LDADD = analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)
bench_b_analytic_SOURCES = bench/b_analytic.c
bench_b_analytic_LDADD = analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)
bench_b_export_SOURCES = bench/b_export.c
bench_b_export_LDADD = analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS)
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += bench/run.sh bench/solver.sh bench/onoff.sh

bench: bench/b_analytic$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  $(SHELL) $(top_srcdir)/bench/run.sh
.PHONY: bench

# Issue 11: the FFT Wiener-Hopf solver against banded GTH, Octave and SciPy.
bench-solver: bench/b_export$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  BBSIZE_SRCDIR=$(abs_top_srcdir) nice -n 5 $(SHELL) $(top_srcdir)/bench/solver.sh
.PHONY: bench-solver

# Every benchmark, one after the other (several minutes).
bench-all: bench bench-solver bench-sim bench-storage bench-net bench-sweep bench-traces bench-hybrid bench-mpi
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
