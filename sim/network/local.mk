# SPDX-License-Identifier: GPL-3.0-or-later
# sim/network/: libbbsnet, the dragonfly network at flow level (topology,
# placement, routing, max-min sharing, synthetic load; CODES .conf files are
# read by src/formats/codesconf.c).  Runs on the engine of libbbsim: link
# sim/network/libbbsnet.a before sim/libbbsim.a.  Its sources are listed
# here and nowhere else.
noinst_LIBRARIES += sim/network/libbbsnet.a
sim_network_libbbsnet_a_CPPFLAGS = $(SIM_LIB_CPPFLAGS)
sim_network_libbbsnet_a_SOURCES = \
	sim/network/bbsnet.h \
	sim/network/topo.c sim/network/topo.h \
	sim/network/place.c sim/network/place.h \
	sim/network/route.c sim/network/route.h \
	sim/network/maxmin.c sim/network/maxmin.h \
	sim/network/fabric.c sim/network/fabric.h \
	sim/network/netload.c sim/network/netload.h
