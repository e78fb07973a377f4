# SPDX-License-Identifier: GPL-3.0-or-later
# TAP tests: C programs (cmocka) and POSIX sh scripts sharing tests/setup.sh.
ANALYTIC_TEST_LIBS = analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/t_dist tests/t_chain tests/t_stationary tests/t_sizing tests/t_fftwh tests/t_onoff
tests_t_onoff_SOURCES = tests/t_onoff.c tests/testutil.h
tests_t_onoff_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_onoff_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_dist_SOURCES = tests/t_dist.c tests/testutil.h
tests_t_dist_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_dist_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_chain_SOURCES = tests/t_chain.c tests/testutil.h
tests_t_chain_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_chain_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_stationary_SOURCES = tests/t_stationary.c tests/testutil.h
tests_t_stationary_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_stationary_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_sizing_SOURCES = tests/t_sizing.c tests/testutil.h
tests_t_sizing_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_sizing_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_fftwh_SOURCES = tests/t_fftwh.c tests/testutil.h
tests_t_fftwh_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fftwh_LDADD = $(ANALYTIC_TEST_LIBS)
TESTS += tests/t_dist tests/t_chain tests/t_stationary tests/t_sizing tests/t_fftwh tests/t_onoff \
	tests/cli_analytic.sh tests/cli_options.sh tests/cli_errors.sh tests/cli_man.sh tests/cli_output.sh tests/cli_onoff.sh \
	tests/cli_hostile.sh tests/cli_overload.sh tests/zz_devices.sh
EXTRA_DIST += tests/setup.sh tests/cli_analytic.sh tests/cli_options.sh tests/cli_errors.sh tests/cli_man.sh tests/cli_output.sh tests/cli_onoff.sh \
	tests/cli_hostile.sh tests/cli_overload.sh tests/zz_devices.sh tests/vg-run.sh tests/vg-bbsize.sh tests/valgrind.supp

# The shared mechanisms of issue 15 below src/: numbers, intervals, verdicts,
# engine bounds.
check_PROGRAMS += tests/t_bounds
tests_t_bounds_SOURCES = tests/t_bounds.c
tests_t_bounds_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bounds_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_bounds

# Sizes in quanta (analytic/quanta.h) and the rules of `bbsize validate`
# (sim/crosscheck.h).
check_PROGRAMS += tests/t_quanta tests/t_crosscheck
tests_t_quanta_SOURCES = tests/t_quanta.c
tests_t_quanta_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_quanta_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_crosscheck_SOURCES = tests/t_crosscheck.c
tests_t_crosscheck_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_crosscheck_LDADD = sim/libbbsim.a analytic/libbbanalytic.a $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_quanta tests/t_crosscheck

# A scenario made runnable (sim/workload/scnbuild.h).
check_PROGRAMS += tests/t_scnbuild
tests_t_scnbuild_SOURCES = tests/t_scnbuild.c
tests_t_scnbuild_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_scnbuild_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_scnbuild

# The one unit table (src/formats/units.h) on the command line and in the
# file formats' keys.
check_PROGRAMS += tests/t_units
tests_t_units_SOURCES = tests/t_units.c
tests_t_units_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_units_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_units
TESTS += tests/layers.sh
EXTRA_DIST += tests/layers.sh
