# SPDX-License-Identifier: GPL-3.0-or-later
# libbbsnet: the dragonfly network at flow level (topology, placement,
# routing, max-min sharing, synthetic load; CODES .conf files are read by
# src/formats/codesconf.c).  Runs on the engine of libbbsim: link
# sim/network/libbbsnet.a before sim/libbbsim.a.
noinst_LIBRARIES += sim/network/libbbsnet.a
sim_network_libbbsnet_a_SOURCES = \
	sim/network/bbsnet.h \
	sim/network/topo.c sim/network/topo.h \
	sim/network/place.c sim/network/place.h \
	sim/network/route.c sim/network/route.h \
	sim/network/maxmin.c sim/network/maxmin.h \
	sim/network/fabric.c sim/network/fabric.h \
	sim/network/netload.c sim/network/netload.h
NET_LIBS = sim/network/libbbsnet.a sim/libbbsim.a analytic/libbbanalytic.a \
	$(UMFPACK_LIBS) $(GSL_LIBS)

src_bbsize_SOURCES += src/cmd_netload.c
src_bbsize_LDADD += sim/network/libbbsnet.a sim/libbbsim.a $(GSL_LIBS)
dist_man_MANS += man/bbsize-netload.1 man/bbsize-topology.5

check_PROGRAMS += tests/t_net_topo tests/t_net_maxmin tests/t_net_load
tests_t_net_topo_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_topo_LDADD = src/formats/libbbformats.a $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_net_maxmin_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_maxmin_LDADD = $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_net_load_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_load_LDADD = $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_net_topo tests/t_net_maxmin tests/t_net_load tests/cli_netload.sh
EXTRA_DIST += tests/cli_netload.sh

networkdatadir = $(pkgdatadir)/network
dist_networkdata_DATA = data/network/README \
	data/network/dally-1056-intra data/network/dally-1056-inter \
	data/network/dally-1056-min.conf data/network/dally-1056-par.conf \
	data/network/dfdally_72.conf data/network/cont-1d-1056-mixwkld.conf \
	data/network/rand_node0-1d-1056-mixwkld.conf
EXTRA_DIST += bench/netload.sh

# Network benchmark (never run by make check).
bench-net: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/netload.sh
.PHONY: bench-net
