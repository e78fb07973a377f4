# SPDX-License-Identifier: GPL-3.0-or-later
# base/: libbbbase, the layer under analytic/ and sim/ that every layer
# uses: the status codes and the error buffer (bb_error), the one number
# reader of every parser (bb_num) and the draining policy (drain).  Its
# sources are listed here and nowhere else; its tests are in tests/local.mk.
noinst_LIBRARIES += base/libbbbase.a
# The lowest layer: its own headers and the C library only.
base_libbbbase_a_CPPFLAGS = -I$(top_srcdir)/base
base_libbbbase_a_SOURCES = \
	base/bb_error.c base/bb_error.h \
	base/bb_num.c base/bb_num.h \
	base/drain.c base/drain.h
