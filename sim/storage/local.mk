# SPDX-License-Identifier: GPL-3.0-or-later
# sim/storage: device models, microbenchmark, failures (libbbsstor).
noinst_LIBRARIES += sim/storage/libbbsstor.a
sim_storage_libbbsstor_a_SOURCES = \
	sim/storage/device.c sim/storage/device.h sim/storage/dev_int.h \
	sim/storage/hdd.c \
	sim/storage/failure.c sim/storage/failure.h \
	sim/storage/devq.c sim/storage/devq.h \
	sim/storage/bbnode.c sim/storage/bbnode.h \
	sim/storage/bench.c sim/storage/bench.h \
	sim/storage/arch.c sim/storage/arch.h \
	sim/storage/arch_net.c sim/storage/arch_net.h \
	sim/storage/arch_dfly.c sim/storage/arch_dfly.h \
	sim/storage/rngstream.c sim/storage/rngstream.h

src_bbsize_SOURCES += src/cmd_device.c
src_bbsize_LDADD += sim/storage/libbbsstor.a sim/libbbsim.a $(GSL_LIBS)

devicesdir = $(pkgdatadir)/devices
dist_devices_DATA = data/devices/seagate-st2000nx0253.dev \
	data/devices/intel-d3-s4510.dev data/devices/mfnetsim-bb.dev \
	data/devices/codes-histogram-example.dev

dist_man_MANS += man/bbsize-device.1 man/bbsize-device.5 man/bbsize-bbarch.1

STOR_TEST_LIBS = sim/storage/libbbsstor.a sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
check_PROGRAMS += tests/t_storage_dev
tests_t_storage_dev_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_storage_dev_LDADD = src/formats/libbbformats.a $(STOR_TEST_LIBS)
check_PROGRAMS += tests/t_storage_fail
tests_t_storage_fail_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_storage_fail_LDADD = $(STOR_TEST_LIBS)
check_PROGRAMS += tests/t_storage_arch
tests_t_storage_arch_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_storage_arch_LDADD = sim/storage/libbbsstor.a sim/network/libbbsnet.a $(STOR_TEST_LIBS)
TESTS += tests/t_storage_dev tests/t_storage_fail tests/t_storage_arch tests/cli_device.sh \
	tests/cli_bbarch.sh
EXTRA_DIST += tests/cli_device.sh tests/cli_bbarch.sh tests/storage_cli.sh tests/storage_test.h

# Speed of the device models (make bench-storage; not part of make check).
EXTRA_DIST += bench/storage.sh
bench-storage: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize $(SHELL) $(top_srcdir)/bench/storage.sh
.PHONY: bench-storage
