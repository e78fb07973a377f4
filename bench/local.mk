# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmarks: built and run by `make bench`, never by `make check`.
EXTRA_PROGRAMS = bench/b_analytic bench/b_export bench/b_onoff bench/b_traces bench/b_kronecker \
	bench/b_fluid bench/b_fluid_approx
bench_b_onoff_SOURCES = bench/b_onoff.c
bench_b_onoff_LDADD = analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS)
bench_b_fluid_SOURCES = bench/b_fluid.c
bench_b_fluid_approx_SOURCES = bench/b_fluid_approx.c
bench_b_fluid_approx_LDADD = analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) -lpthread
bench_b_fluid_LDADD = analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) -lpthread
bench_b_analytic_SOURCES = bench/b_analytic.c
bench_b_analytic_LDADD = analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS)
bench_b_export_SOURCES = bench/b_export.c
bench_b_export_LDADD = analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS)
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += bench/run.sh bench/solver.sh bench/onoff.sh bench/b_sim.sh bench/sweep.sh \
	bench/storage.sh bench/netload.sh bench/traces.sh bench/validate_scn.sh bench/b_mpi.sh \
	bench/hybrid.sh bench/mechanisms.sh bench/ensemble.sh bench/fluidsim.sh bench/fit.sh bench/fit_accuracy.sh \
	bench/fluid.sh bench/approx.sh bench/approx_truth.sh bench/approx_truth.txt bench/approx_grid.txt bench/approx_bufferless.py bench/best.sh bench/walks.sh bench/walk.py bench/compare.sh bench/committee.sh \
	bench/estimate.sh

bench: bench/b_analytic$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  $(SHELL) $(top_srcdir)/bench/run.sh
.PHONY: bench

# The FFT Wiener-Hopf solver against banded GTH, Octave and SciPy.
bench-solver: bench/b_export$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  BBSIZE_SRCDIR=$(abs_top_srcdir) nice -n 5 $(SHELL) $(top_srcdir)/bench/solver.sh
.PHONY: bench-solver

# Every benchmark, one after the other (several minutes).
bench-all: bench bench-solver bench-onoff bench-fluid bench-approx bench-sim bench-fluidsim bench-storage bench-net bench-sweep \
	bench-traces bench-hybrid bench-ensemble bench-mechanisms bench-validate-scn bench-mpi bench-fit
.PHONY: bench-all

# The discrete bursts model: time-unit convergence, quasi-periodic
# comparison, speed (a few minutes).
bench-onoff: src/bbsize$(EXEEXT) bench/b_onoff$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/onoff.sh
	bench/b_onoff 5 4 3
	bench/b_onoff 10 5 3
	bench/b_onoff many
.PHONY: bench-onoff

# The files a question walks through from the analytic front door to the
# solver, and its route from the command (docs/hacking.md), recorded by gdb.
bench-walks: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  nice -n 5 $(SHELL) $(top_srcdir)/bench/walks.sh
.PHONY: bench-walks

# The estimate scenario runs print before they start against the runs:
# events, CPU seconds, ratios, the rate constant (BENCH_FULL=1: five
# MFNetSim runs too, about a minute of CPU).
bench-estimate: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  nice -n 5 $(SHELL) $(top_srcdir)/bench/estimate.sh
.PHONY: bench-estimate

# This build against another (BBSIZE_REF=.../src/bbsize) on the analytic
# commands: user time and ratio.
bench-compare: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  BBSIZE_REF=$(BBSIZE_REF) nice -n 5 $(SHELL) $(top_srcdir)/bench/compare.sh
.PHONY: bench-compare

# The fluid model: speed against its targets, how far exact goes.
bench-fluid: bench/b_fluid$(EXEEXT) src/bbsize$(EXEEXT)
	BFLUID=$(abs_top_builddir)/bench/b_fluid BBSIZE=$(abs_top_builddir)/src/bbsize \
	  $(SHELL) $(top_srcdir)/bench/fluid.sh
.PHONY: bench-fluid

# The fluid model beyond exact reach: coverage of its intervals against
# the exact solver and the simulator, and its speed (a few minutes).
bench-approx: bench/b_fluid_approx$(EXEEXT) src/bbsize$(EXEEXT)
	BAPPROX=$(abs_top_builddir)/bench/b_fluid_approx BBSIZE=$(abs_top_builddir)/src/bbsize \
	  $(SHELL) $(top_srcdir)/bench/approx.sh
.PHONY: bench-approx
# the simulated truth of bench-approx, cached in bench/approx_truth.txt
# (about half an hour of one core; the runs hold /tmp/bbsize-heavy.lock)
bench-approx-truth: bench/b_fluid_approx$(EXEEXT) src/bbsize$(EXEEXT)
	BAPPROX=$(abs_top_builddir)/bench/b_fluid_approx BBSIZE=$(abs_top_builddir)/src/bbsize \
	  OUT=$(top_srcdir)/bench/approx_truth.txt $(SHELL) $(top_srcdir)/bench/approx_truth.sh
.PHONY: bench-approx-truth

# The simulator (the paper's Figure 4 protocol).
bench-sim: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/b_sim.sh
.PHONY: bench-sim

# The fluid simulator: ns per event against the discrete ON/OFF simulation.
bench-fluidsim: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/fluidsim.sh
.PHONY: bench-fluidsim

# The sweep speed bar (100 sizes under 2 s).
bench-sweep: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/sweep.sh
.PHONY: bench-sweep

# Speed of the device models.
bench-storage: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/storage.sh
.PHONY: bench-storage

# The network's synthetic load.
bench-net: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/netload.sh
.PHONY: bench-net

# The trace models, and Graph500 levels against BFS on Kronecker graphs.
bench_b_traces_SOURCES = bench/b_traces.c
bench_b_traces_LDADD = src/formats/libbbformats.a sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(GSL_LIBS)
bench_b_kronecker_SOURCES = bench/b_kronecker.c
bench_b_kronecker_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(GSL_LIBS)
bench-traces: bench/b_traces$(EXEEXT) bench/b_kronecker$(EXEEXT) src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BENCH_DIR=$(abs_top_builddir)/bench \
	  BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) $(SHELL) $(top_srcdir)/bench/traces.sh
.PHONY: bench-traces

# validate --scenario on the shipped scenarios.
bench-validate-scn: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/validate_scn.sh
.PHONY: bench-validate-scn

# Per-unit overhead of the MPI layer.
bench-mpi: src/bbsize$(EXEEXT) tests/mpi_units$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize MPI_UNITS=$(abs_top_builddir)/tests/mpi_units \
	  $(SHELL) $(top_srcdir)/bench/b_mpi.sh
.PHONY: bench-mpi

# The MFNetSim matrix.
bench-hybrid: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/hybrid.sh
.PHONY: bench-hybrid

# The MFNetSim slowdowns over 8 replicas each (about half an hour on 2
# cores; through the shared lock on a shared machine).
bench-ensemble: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/ensemble.sh
.PHONY: bench-ensemble

# What each network and storage mechanism changes.
bench-mechanisms: src/bbsize$(EXEEXT)
	for w in w1 w2; do for r in min adp; do \
	  BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	    $(SHELL) $(top_srcdir)/bench/mechanisms.sh $$w $$r || exit 1; done; done
.PHONY: bench-mechanisms

# fit darshan on 10,000 synthetic logs (the bar: under a minute), and how
# well it recovers known processes (50 seeds of four kinds).
bench-fit: src/bbsize$(EXEEXT) tests/gen_darshan$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize GEN=$(abs_top_builddir)/tests/gen_darshan \
	  $(SHELL) $(top_srcdir)/bench/fit.sh
	BBSIZE=$(abs_top_builddir)/src/bbsize GEN=$(abs_top_builddir)/tests/gen_darshan \
	  $(SHELL) $(top_srcdir)/bench/fit_accuracy.sh 50
.PHONY: bench-fit
