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
	sim/replicate.c sim/replicate.h \
	sim/bb.c sim/bb.h
