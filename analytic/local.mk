# SPDX-License-Identifier: GPL-3.0-or-later
# analytic/: libbbanalytic, the analytic front end (pure functions, no I/O).
# Its sources are listed here and nowhere else; its tests are in tests/local.mk.
noinst_LIBRARIES += analytic/libbbanalytic.a
analytic_libbbanalytic_a_SOURCES = \
	analytic/bbanalytic.h \
	analytic/bb_error.c analytic/bb_error.h \
	analytic/bb_num.c analytic/bb_num.h \
	analytic/bigalloc.c analytic/bigalloc.h \
	analytic/workload.c analytic/workload.h \
	analytic/dist.c analytic/dist.h \
	analytic/chain.c analytic/chain.h \
	analytic/stationary.c analytic/stationary.h \
	analytic/fftwh.c analytic/fftwh.h \
	analytic/measures.c analytic/measures.h \
	analytic/bbbw.c analytic/bbbw.h \
	analytic/sizing.c analytic/sizing.h \
	analytic/cost.c analytic/cost.h \
	analytic/quanta.c analytic/quanta.h \
	analytic/generate.c analytic/generate.h \
	analytic/sweep.c analytic/sweep.h \
	analytic/onoff.c analytic/onoff_dense.c analytic/onoff.h \
	analytic/effbw.c analytic/effbw.h \
	analytic/answer.c analytic/answer.h \
	analytic/lapackf.h \
	analytic/fluid.c analytic/fluid_spec.c analytic/fluid_solve.c analytic/fluid_size.c \
	analytic/fluid.h analytic/fluid_int.h
