# SPDX-License-Identifier: GPL-3.0-or-later
# The bbsize command.
bin_PROGRAMS += src/bbsize
# The readers of input formats (src/formats/ and the older ones still in
# src/): pure text -> struct, linked by bbsize, the tests and the fuzzers.
noinst_LIBRARIES += src/formats/libbbformats.a
src_formats_libbbformats_a_SOURCES = src/units.c src/units.h src/readfile.c src/readfile.h \
	src/workload_csv.c src/workload_csv.h \
	src/systems.c src/systems.h src/darshan.c src/darshan.h \
	src/formats/scenario_ini.c src/formats/scenario_ini.h
nodist_src_formats_libbbformats_a_SOURCES = src/default_workload.c
src_bbsize_SOURCES = src/main.c src/mpistart.c src/mpistart.h src/commands.h src/exitcodes.h \
	src/cli.c src/cli.h src/options.c src/options.h src/outfile.c src/outfile.h \
	src/devload.c src/devload.h src/topoload.c src/topoload.h src/cmd_bbarch.c src/scnmode.h \
	src/cmd_dist.c src/cmd_idle.c src/cmd_size.c src/cmd_threshold.c \
	src/cmd_generate.c
src_bbsize_LDADD = src/formats/libbbformats.a sim/libbbsim.a analytic/libbbanalytic.a $(UMFPACK_LIBS) $(GSL_LIBS) $(JANSSON_LIBS) $(INIH_LIBS) -lpthread
BUILT_SOURCES += src/default_workload.c
CLEANFILES += src/default_workload.c
workloadsdir = $(pkgdatadir)/workloads
dist_workloads_DATA = data/workloads/default.csv

# The default workload is compiled in, so `bbsize size` works anywhere.
src/default_workload.c: $(top_srcdir)/data/workloads/default.csv
	$(AM_V_GEN)$(MKDIR_P) src && { \
	  echo '/* generated from data/workloads/default.csv; do not edit */'; \
	  echo 'const char bb_default_workload_csv[] ='; \
	  $(SED) -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@
dist_man_MANS += man/bbsize.1 man/bbsize-workload.5
src_bbsize_SOURCES += src/simcli.c src/simcli.h src/cmd_simulate.c src/cmd_validate.c
