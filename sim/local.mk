# SPDX-License-Identifier: GPL-3.0-or-later
# libbbsim: the validation simulator.  Generic engine first (engine, rng,
# stats, replicate: nothing about burst buffers), then the models.  Other
# models append with `sim_libbbsim_a_SOURCES += ...`.
noinst_LIBRARIES += sim/libbbsim.a
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
	sim/grow.h

# Tests of the engine and of the platform model, and the CLI script.
check_PROGRAMS += tests/t_engine tests/t_bbsim tests/t_steady
tests_t_steady_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_steady_LDADD = sim/libbbsim.a $(GSL_LIBS) $(CMOCKA_LIBS)
tests_t_engine_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_engine_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_bbsim_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bbsim_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_engine tests/t_bbsim tests/t_steady tests/cli_simulate.sh
EXTRA_DIST += tests/cli_simulate.sh

# Simulator benchmark (never run by make check).
EXTRA_DIST += bench/b_sim.sh
bench-sim: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/b_sim.sh
.PHONY: bench-sim

dist_man_MANS += man/bbsize-simulate.1 man/bbsize-validate.1
