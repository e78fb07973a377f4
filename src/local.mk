# SPDX-License-Identifier: GPL-3.0-or-later
# src/: the bbsize command, and src/formats/ (libbbformats): the readers of
# input formats, one file per format and the one unit parser, pure text ->
# struct, linked by bbsize, the tests and the fuzzers.  Each one's sources
# are listed here and nowhere else.
noinst_LIBRARIES += src/formats/libbbformats.a
AM_CPPFLAGS += -I$(top_srcdir)/src/formats
# The readers see the structs they fill (sim/, analytic/) and base/ (bb_error.h),
# never src/: they return BB_* statuses, and src/ alone maps them to exit
# statuses (src/status.h), so an include of src/exitcodes.h fails to build.
src_formats_libbbformats_a_CPPFLAGS = -I$(top_srcdir)/src/formats \
	-I$(top_srcdir)/sim $(ANALYTIC_INC) -I$(top_srcdir)/base $(GSL_CFLAGS) \
	$(INIH_CFLAGS)
src_formats_libbbformats_a_SOURCES = \
	src/formats/units.c src/formats/units.h \
	src/formats/readfile.c src/formats/readfile.h \
	src/formats/workload_csv.c src/formats/workload_csv.h \
	src/formats/systems.c src/formats/systems.h \
	src/formats/darshan.c src/formats/darshan.h \
	src/formats/dxt.c src/formats/dxt.h \
	src/formats/scenario_ini.c src/formats/scenario_ini.h \
	src/formats/scenario_keys.c src/formats/scenario_keys.h \
	src/formats/job_keys.c src/formats/job_keys.h \
	src/formats/device_file.c src/formats/device_file.h \
	src/formats/codesconf.c src/formats/codesconf.h \
	src/formats/wiring.c src/formats/wiring.h \
	src/formats/vef_file.c src/formats/vef_file.h src/formats/vef_int.h src/formats/vef_lex.c \
	src/formats/vef_ext.c src/formats/vef_mpi.c \
	src/formats/sizedist_file.c src/formats/sizedist_file.h \
	src/formats/alloc_file.c src/formats/alloc_file.h
nodist_src_formats_libbbformats_a_SOURCES = src/default_workload.c

bin_PROGRAMS += src/bbsize
src_bbsize_SOURCES = \
	src/main.c src/mpistart.c src/mpistart.h src/commands.h src/exitcodes.h \
	src/cli.c src/cli.h src/cli_answer.c src/cli_answer.h src/cli_files.c src/cli_files.h \
	src/cli_limits.c src/cli_limits.h src/cli_out.c src/cli_out.h src/cli_progress.c src/cli_progress.h \
	src/cmdspec.c src/cmdspec.h src/usage.c src/usage.h src/csvout.c src/csvout.h src/datadir.c src/datadir.h src/options.c src/options_cost.c src/options.h src/outfile.c src/outfile.h \
	src/devload.c src/devload.h src/topoload.c src/topoload.h \
	src/progress.c src/progress.h src/execmeter.c src/execmeter.h src/status.c src/status.h src/simcli.c src/simcli.h src/simfluid.c src/valrun.c src/valrun.h \
	src/scnrun.c src/scnrun.h src/scnmode.h \
	src/sweeprun.c src/sweeprun.h src/designrun.c src/designrun.h src/grid.c src/grid.h src/plot.c src/plot.h \
	src/cmd_dist.c src/cmd_idle.c src/cmd_size.c src/cmd_threshold.c src/cmd_generate.c \
	src/cmd_simulate.c src/cmd_validate.c src/cmd_validate_scn.c \
	src/cmd_systems.c src/cmd_sweep.c src/cmd_frontier.c src/cmd_design.c src/cmd_partition.c src/cmd_fit.c src/fitlogs.c src/fitlogs.h src/cmd_report.c \
	src/cmd_device.c src/cmd_bbarch.c src/cmd_netload.c src/cmd_trace.c src/cmd_scenario.c \
	src/report/doc.c src/report/doc.h src/report/report.h \
	src/report/compute.c src/report/committee.c src/report/estimate.c src/report/figures.c src/report/sec_results.c src/report/sec_inputs.c \
	src/report/validate.c
# Layers from the top down: a static library comes before the ones it uses.
src_bbsize_LDADD = src/formats/libbbformats.a sim/workload/libbbswl.a \
	sim/storage/libbbsstor.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
	sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a \
	$(UMFPACK_LIBS) $(GSL_LIBS) $(JANSSON_LIBS) $(INIH_LIBS) -lpthread

# The default workload is compiled in, so `bbsize size` works anywhere.
BUILT_SOURCES += src/default_workload.c
CLEANFILES += src/default_workload.c
src/default_workload.c: $(top_srcdir)/data/workloads/default.csv
	$(AM_V_GEN)$(MKDIR_P) src && { \
	  echo '/* generated from data/workloads/default.csv; do not edit */'; \
	  echo 'const char bb_default_workload_csv[] ='; \
	  $(SED) -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@
