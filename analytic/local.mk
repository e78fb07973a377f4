# SPDX-License-Identifier: GPL-3.0-or-later
# analytic/: libbbanalytic, the analytic front end (pure functions, no I/O).
# Its sources are listed here and nowhere else; its tests are in tests/local.mk.
noinst_LIBRARIES += analytic/libbbanalytic.a
# Above base/ only: its own headers, base/'s and its numerical libraries.
analytic_libbbanalytic_a_CPPFLAGS = -I$(top_srcdir)/analytic -I$(top_srcdir)/base \
	$(GSL_CFLAGS) $(UMFPACK_CFLAGS)
analytic_libbbanalytic_a_SOURCES = \
	analytic/bbanalytic.h \
	analytic/bigalloc.c analytic/bigalloc.h \
	analytic/workload.c analytic/workload.h \
	analytic/dist.c analytic/dist.h \
	analytic/chain.c analytic/chain.h \
	analytic/stationary.c analytic/stationary.h \
	analytic/krylov.c analytic/krylov.h \
	analytic/fftconv.c analytic/fftconv.h \
	analytic/fftwh.c analytic/fftwh_kern.c analytic/fftwh.h analytic/fftwh_int.h \
	analytic/measures.c analytic/measures.h \
	analytic/bbbw.c analytic/bbbw.h \
	analytic/sizing.c analytic/sizing.h \
	analytic/cost.c analytic/cost.h \
	analytic/quanta.c analytic/quanta.h \
	analytic/generate.c analytic/generate.h \
	analytic/sweep.c analytic/sweep.h \
	analytic/onoff.c analytic/onoff_step.c analytic/onoff_krylov.c analytic/onoff_solve.c \
	analytic/onoff_dense.c analytic/onoff.h analytic/onoff_int.h \
	analytic/effbw.c analytic/effbw.h \
	analytic/answer.c analytic/answer_endure.c analytic/answer.h \
	analytic/front.h analytic/front_discrete.c \
	analytic/endurance.c analytic/endurance.h \
	analytic/design.c analytic/design.h \
	analytic/partition.c analytic/partition.h \
	analytic/lapackf.h \
	analytic/fluid.c analytic/fluid_meas.c analytic/fluid_spec.c analytic/fluid_solve.c \
	analytic/fluid_fast.c analytic/fluid_near.c analytic/fluid_resid.c analytic/fluid_size.c \
	analytic/fluid_top.c analytic/fluid_gen.c analytic/fluid_fact.c analytic/fluid_far.c \
	analytic/fluid_class.c analytic/fluid_ma.c \
	analytic/fluid.h analytic/fluid_int.h \
	analytic/fluid_approx.c analytic/fluid_approx.h \
	analytic/fluid_bufferless.c analytic/fluid_bufferless.h \
	analytic/fluid_classes.c analytic/fluid_classes.h \
	analytic/fluid_span.c analytic/fluid_span.h \
	analytic/timeline.c analytic/timeline.h
