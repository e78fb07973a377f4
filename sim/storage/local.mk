# SPDX-License-Identifier: GPL-3.0-or-later
# sim/storage/: libbbsstor, device models, the shared burst-buffer node,
# the three burst-buffer architectures, failures, the microbenchmark.
# Its sources are listed here and nowhere else.  Link before
# sim/network/libbbsnet.a (arch_dfly) and sim/libbbsim.a.
noinst_LIBRARIES += sim/storage/libbbsstor.a
sim_storage_libbbsstor_a_CPPFLAGS = $(SIM_LIB_CPPFLAGS)
sim_storage_libbbsstor_a_SOURCES = \
	sim/storage/device.c sim/storage/device.h sim/storage/dev_int.h \
	sim/storage/devreg.c sim/storage/dev_table.c sim/storage/hdd.c sim/storage/dev_ssd.c \
	sim/storage/failure.c sim/storage/failure.h \
	sim/storage/devq.c sim/storage/devq.h \
	sim/storage/bbnode.c sim/storage/bbnode.h \
	sim/storage/bench.c sim/storage/bench.h \
	sim/storage/arch.c sim/storage/arch.h \
	sim/storage/arch_net.c sim/storage/arch_net.h \
	sim/storage/arch_dfly.c sim/storage/arch_dfly.h \
	sim/storage/rngstream.c sim/storage/rngstream.h
