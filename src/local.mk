# SPDX-License-Identifier: GPL-3.0-or-later
# The bbsize command.
bin_PROGRAMS += src/bbsize
# The readers of input formats, src/formats/: one file per format and the
# one unit parser, pure text -> struct, linked by bbsize, the tests and the
# fuzzers.  Its sources are listed here and nowhere else.
noinst_LIBRARIES += src/formats/libbbformats.a
AM_CPPFLAGS += -I$(top_srcdir)/src/formats
src_formats_libbbformats_a_SOURCES = \
	src/formats/units.c src/formats/units.h \
	src/formats/readfile.c src/formats/readfile.h \
	src/formats/workload_csv.c src/formats/workload_csv.h \
	src/formats/systems.c src/formats/systems.h \
	src/formats/darshan.c src/formats/darshan.h \
	src/formats/scenario_ini.c src/formats/scenario_ini.h \
	src/formats/scenario_keys.c src/formats/scenario_keys.h \
	src/formats/job_keys.c src/formats/job_keys.h \
	src/formats/device_file.c src/formats/device_file.h \
	src/formats/codesconf.c src/formats/codesconf.h \
	src/formats/wiring.c src/formats/wiring.h \
	src/formats/vef_file.c src/formats/vef_file.h src/formats/vef_int.h \
	src/formats/vef_ext.c src/formats/vef_mpi.c \
	src/formats/sizedist_file.c src/formats/sizedist_file.h \
	src/formats/alloc_file.c src/formats/alloc_file.h
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
# What the commands share beyond options: the validation run (validate,
# report --validate).
src_bbsize_SOURCES += src/valrun.c src/valrun.h
# `bbsize report`: the command (options, order) in cmd_report.c; what it
# computes, its figures and one function per section in src/report/, the
# XHTML/Markdown writer in src/report/doc.[ch].
src_bbsize_SOURCES += src/report/doc.c src/report/doc.h src/report/report.h \
	src/report/compute.c src/report/figures.c src/report/sec_results.c src/report/sec_inputs.c
