# SPDX-License-Identifier: GPL-3.0-or-later
# analytic/: libbbanalytic, the analytic front end (pure functions, no I/O).
# Its sources are listed here and nowhere else; its tests are in tests/local.mk.
noinst_LIBRARIES += analytic/libbbanalytic.a
# Its folders by family (front, chain, onoff, fluid, num, questions): one
# include path, so a header is named without its folder.
ANALYTIC_INC = -I$(top_srcdir)/analytic -I$(top_srcdir)/analytic/front \
	-I$(top_srcdir)/analytic/chain -I$(top_srcdir)/analytic/onoff \
	-I$(top_srcdir)/analytic/fluid -I$(top_srcdir)/analytic/num \
	-I$(top_srcdir)/analytic/questions
# Above base/ only: its own headers, base/'s and its numerical libraries.
analytic_libbbanalytic_a_CPPFLAGS = $(ANALYTIC_INC) -I$(top_srcdir)/base \
	$(GSL_CFLAGS) $(UMFPACK_CFLAGS)
analytic_libbbanalytic_a_SOURCES = \
	analytic/bbanalytic.h \
	analytic/front/answer.c analytic/front/answer_endure.c analytic/front/answer.h \
	analytic/front/front.h analytic/front/front_discrete.c \
	analytic/front/fluid_apps.c analytic/front/fluid_apps.h \
	analytic/chain/workload.c analytic/chain/workload.h \
	analytic/chain/dist.c analytic/chain/dist.h \
	analytic/chain/chain.c analytic/chain/chain.h \
	analytic/chain/stationary.c analytic/chain/stationary.h \
	analytic/chain/fftwh.c analytic/chain/fftwh_kern.c analytic/chain/fftwh.h analytic/chain/fftwh_int.h \
	analytic/chain/measures.c analytic/chain/measures.h \
	analytic/chain/bbbw.c analytic/chain/bbbw.h \
	analytic/chain/quanta.c analytic/chain/quanta.h \
	analytic/onoff/onoff.c analytic/onoff/onoff_step.c analytic/onoff/onoff_krylov.c analytic/onoff/onoff_solve.c \
	analytic/onoff/onoff_dense.c analytic/onoff/onoff.h analytic/onoff/onoff_int.h \
	analytic/onoff/effbw.c analytic/onoff/effbw.h \
	analytic/fluid/fluid.c analytic/fluid/fluid_meas.c analytic/fluid/fluid_spec.c analytic/fluid/fluid_solve.c \
	analytic/fluid/fluid_fast.c analytic/fluid/fluid_near.c analytic/fluid/fluid_resid.c analytic/fluid/fluid_size.c \
	analytic/fluid/fluid_top.c analytic/fluid/fluid_gen.c analytic/fluid/fluid_fact.c analytic/fluid/fluid_far.c \
	analytic/fluid/fluid_class.c analytic/fluid/fluid_ma.c \
	analytic/fluid/fluid.h analytic/fluid/fluid_int.h \
	analytic/fluid/fluid_approx.c analytic/fluid/fluid_approx.h \
	analytic/fluid/fluid_bufferless.c analytic/fluid/fluid_bufferless.h \
	analytic/fluid/fluid_classes.c analytic/fluid/fluid_classes.h \
	analytic/fluid/fluid_span.c analytic/fluid/fluid_span.h \
	analytic/num/bigalloc.c analytic/num/bigalloc.h \
	analytic/num/parfor.c analytic/num/parfor.h \
	analytic/num/krylov.c analytic/num/krylov.h \
	analytic/num/fftconv.c analytic/num/fftconv.h \
	analytic/num/lapackf.h \
	analytic/questions/sizing.c analytic/questions/sizing.h \
	analytic/questions/cost.c analytic/questions/cost.h \
	analytic/questions/generate.c analytic/questions/generate.h \
	analytic/questions/sweep.c analytic/questions/sweep.h \
	analytic/questions/endurance.c analytic/questions/endurance.h \
	analytic/questions/design.c analytic/questions/design.h \
	analytic/questions/partition.c analytic/questions/partition.h \
	analytic/questions/timeline.c analytic/questions/timeline.h \
	analytic/questions/fitjob.c analytic/questions/fitjob.h
