# SPDX-License-Identifier: GPL-3.0-or-later
# What-if studies: platform presets (`bbsize systems`, --system), sweeps,
# Darshan fits and the report with gnuplot plots.
analytic_libbbanalytic_a_SOURCES += analytic/sweep.c analytic/sweep.h
src_bbsize_SOURCES += src/sweeprun.c src/sweeprun.h \
	src/cmd_systems.c \
	src/grid.c src/grid.h src/cmd_sweep.c \
	src/cmd_fit.c \
	src/plot.c src/plot.h src/cmd_report.c

# Installed as $(pkgdatadir)/systems, /workloads, /darshan: where
# src/formats/systems.c and the README look for them.
systemsdir = $(pkgdatadir)/systems
dist_systems_DATA = \
	data/systems/aurora.conf data/systems/cori.conf data/systems/frontier.conf \
	data/systems/mfnetsim.conf data/systems/oakforest-pacs.conf \
	data/systems/perlmutter.conf data/systems/summit.conf data/systems/theta.conf \
	data/systems/trinity.conf
dist_workloads_DATA += \
	data/workloads/paper-random.csv data/workloads/checkpoint-heavy.csv \
	data/workloads/read-heavy.csv data/workloads/mixed.csv
darshandir = $(pkgdatadir)/darshan
dist_darshan_DATA = \
	data/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt data/darshan/LICENSE \
	data/darshan/README

dist_man_MANS += man/bbsize-sweep.1 man/bbsize-report.1 man/bbsize-fit.1 \
	man/bbsize-systems.1 man/bbsize-system.5

check_PROGRAMS += tests/t_sweep
tests_t_sweep_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_sweep_SOURCES = tests/t_sweep.c src/sweeprun.c src/sweeprun.h
tests_t_sweep_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_sweep tests/cli_systems.sh tests/cli_sweep.sh tests/cli_fit.sh \
	tests/cli_report.sh
EXTRA_DIST += tests/cli_systems.sh tests/cli_sweep.sh tests/cli_fit.sh tests/cli_report.sh tests/svg_key.awk \
	bench/sweep.sh

# `make bench-sweep`: the sweep speed bar (100 sizes under 2 s).
bench-sweep: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/sweep.sh
.PHONY: bench-sweep
