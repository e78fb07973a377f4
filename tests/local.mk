# SPDX-License-Identifier: GPL-3.0-or-later
# TAP tests: C programs (cmocka) and POSIX sh scripts sharing tests/setup.sh.
ANALYTIC_TEST_LIBS = analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/t_dist tests/t_chain tests/t_stationary tests/t_sizing tests/t_fftwh tests/t_onoff \
	tests/t_bbbw
tests_t_bbbw_SOURCES = tests/t_bbbw.c tests/testutil.h
tests_t_bbbw_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bbbw_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_onoff_SOURCES = tests/t_onoff.c tests/testutil.h
tests_t_onoff_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_onoff_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
tests_t_dist_SOURCES = tests/t_dist.c tests/testutil.h
tests_t_dist_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_dist_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_chain_SOURCES = tests/t_chain.c tests/testutil.h
tests_t_chain_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_chain_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_stationary_SOURCES = tests/t_stationary.c tests/testutil.h
tests_t_stationary_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_stationary_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_sizing_SOURCES = tests/t_sizing.c tests/testutil.h
tests_t_sizing_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_sizing_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_fftwh_SOURCES = tests/t_fftwh.c tests/testutil.h
tests_t_fftwh_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fftwh_LDADD = $(ANALYTIC_TEST_LIBS)
TESTS += tests/t_dist tests/t_chain tests/t_stationary tests/t_sizing tests/t_fftwh tests/t_onoff tests/t_bbbw \
	tests/cli_analytic.sh tests/cli_options.sh tests/cli_errors.sh tests/cli_output.sh tests/cli_onoff.sh tests/cli_validate_horizon.sh tests/cli_datadir.sh tests/cli_helpman.sh \
	tests/cli_hostile.sh tests/cli_overload.sh tests/cli_estimate.sh tests/cli_search_progress.sh \
	tests/examples.sh tests/zz_devices.sh
EXTRA_DIST += tests/setup.sh tests/cli_analytic.sh tests/cli_options.sh tests/cli_errors.sh tests/cli_output.sh tests/cli_onoff.sh tests/cli_validate_horizon.sh tests/cli_datadir.sh tests/cli_helpman.sh \
	tests/cli_hostile.sh tests/cli_overload.sh tests/cli_estimate.sh tests/cli_search_progress.sh \
	tests/zz_devices.sh tests/vg-run.sh tests/vg-bbsize.sh tests/valgrind.supp \
	tests/help_opts.awk tests/man_opts.awk tests/examples.sh tests/examples.awk tests/examples_match.awk

# The numerical building blocks: restarted GMRES (analytic/num/krylov.h) and
# the FFT engine (analytic/num/fftconv.h).
check_PROGRAMS += tests/t_krylov tests/t_fftconv
tests_t_krylov_SOURCES = tests/t_krylov.c
tests_t_krylov_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_krylov_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_fftconv_SOURCES = tests/t_fftconv.c
tests_t_fftconv_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fftconv_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_krylov tests/t_fftconv

# The continuous-time fluid model (analytic/fluid/fluid.h).
check_PROGRAMS += tests/t_fluid
tests_t_fluid_SOURCES = tests/t_fluid.c tests/testutil.h
tests_t_fluid_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid
# Its phase laws by blocked state reduction (analytic/fluid/fluid_top.c).
check_PROGRAMS += tests/t_parfor
tests_t_parfor_SOURCES = tests/t_parfor.c tests/testutil.h
tests_t_parfor_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_parfor_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_parfor
check_PROGRAMS += tests/t_fluid_law
tests_t_fluid_law_SOURCES = tests/t_fluid_law.c tests/testutil.h
tests_t_fluid_law_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_law_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid_law
# Its separable modes' residual from the Kronecker structure (fluid_resid.c).
check_PROGRAMS += tests/t_fluid_resid
tests_t_fluid_resid_SOURCES = tests/t_fluid_resid.c tests/testutil.h
tests_t_fluid_resid_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_resid_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid_resid
# Its far boundary block reduced through the atoms (fluid_far.c).
check_PROGRAMS += tests/t_fluid_far
tests_t_fluid_far_SOURCES = tests/t_fluid_far.c tests/testutil.h
tests_t_fluid_far_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_far_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid_far
# Large classes of the fluid model: a discretisation, written-out rows.
check_PROGRAMS += tests/t_fluid_class
tests_t_fluid_class_SOURCES = tests/t_fluid_class.c tests/testutil.h
tests_t_fluid_class_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_class_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid_class tests/cli_fluid_class.sh
EXTRA_DIST += tests/cli_fluid_class.sh

# The shared mechanisms below src/: numbers, intervals, verdicts,
# engine bounds.
check_PROGRAMS += tests/t_bounds
tests_t_bounds_SOURCES = tests/t_bounds.c
tests_t_bounds_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bounds_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_bounds

# Sizes in quanta (analytic/chain/quanta.h) and the rules of `bbsize validate`
# (sim/crosscheck.h).
check_PROGRAMS += tests/t_quanta tests/t_crosscheck
tests_t_quanta_SOURCES = tests/t_quanta.c
tests_t_quanta_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_quanta_LDADD = $(ANALYTIC_TEST_LIBS)
tests_t_crosscheck_SOURCES = tests/t_crosscheck.c
tests_t_crosscheck_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_crosscheck_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_quanta tests/t_crosscheck

# A scenario made runnable (sim/workload/scnbuild.h).
check_PROGRAMS += tests/t_scnbuild
tests_t_scnbuild_SOURCES = tests/t_scnbuild.c
tests_t_scnbuild_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_scnbuild_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_scnbuild

# The one unit table (src/formats/units.h) on the command line and in the
# file formats' keys.
check_PROGRAMS += tests/t_units
tests_t_units_SOURCES = tests/t_units.c
tests_t_units_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_units_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_units
TESTS += tests/layers.sh tests/circles.sh
EXTRA_DIST += tests/layers.sh tests/circles.sh tests/circles.awk
# Each library's compile command as this Makefile runs it (its own
# _CPPFLAGS), one line each: "library|a header of its own|command", for
# tests/layers.sh to compile probe includes with.
check_DATA = tests/layerflags tests/srcobjs
CLEANFILES += tests/layerflags tests/srcobjs
# tests/circles.sh: the command's own objects (src/), one a line.
tests/srcobjs: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests && { \
	  for o in $(src_bbsize_OBJECTS); do echo "$$o"; done; \
	} >$@.tmp && mv $@.tmp $@
tests/layerflags: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests && { \
	  echo 'base/libbbbase.a|bb_error.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(base_libbbbase_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	  echo 'analytic/libbbanalytic.a|workload.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(analytic_libbbanalytic_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	  echo 'sim/libbbsim.a|engine.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(sim_libbbsim_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	  echo 'sim/network/libbbsnet.a|network/topo.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(sim_network_libbbsnet_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	  echo 'sim/storage/libbbsstor.a|storage/device.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(sim_storage_libbbsstor_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	  echo 'sim/workload/libbbswl.a|workload/exec.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(sim_workload_libbbswl_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	  echo 'src/formats/libbbformats.a|units.h|$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(src_formats_libbbformats_a_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; \
	} >$@.tmp && mv $@.tmp $@

# One error convention: the readers' BB_* statuses, the one status -> exit
# map and the options appended to a library's quantities (src/status.h);
# nothing below src/ names an exit status or an option.
check_PROGRAMS += tests/t_status
tests_t_status_SOURCES = tests/t_status.c src/status.c src/status.h src/usage.c src/usage.h
tests_t_status_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_status_LDADD = $(WL_LIBS) $(INIH_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_status tests/lib_errors.sh
EXTRA_DIST += tests/lib_errors.sh

# The shared burst-buffer node (sim/storage/bbnode.h) by hand, and through
# both of its front ends (bbarch and the scenario executor).
check_PROGRAMS += tests/t_bbnode
tests_t_bbnode_SOURCES = tests/t_bbnode.c
tests_t_bbnode_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bbnode_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_bbnode

# Libraries a test links, from the top layer down.
NET_LIBS = sim/network/libbbsnet.a sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a \
	$(UMFPACK_LIBS) $(GSL_LIBS)
STOR_TEST_LIBS = sim/storage/libbbsstor.a sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
WL_LIBS = src/formats/libbbformats.a sim/workload/libbbswl.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
	sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS)

# The engine, the paper's platform (sim/bb.c), steady-state detection.
check_PROGRAMS += tests/t_engine tests/t_bbsim tests/t_steady
tests_t_steady_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_steady_LDADD = sim/libbbsim.a $(GSL_LIBS) $(CMOCKA_LIBS)
tests_t_engine_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_engine_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_bbsim_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bbsim_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_engine tests/t_bbsim tests/t_steady tests/cli_simulate.sh
# The simulator's entry for simulate and validate (sim/replicate.h).
check_PROGRAMS += tests/t_platrun
tests_t_platrun_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_platrun_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_platrun
EXTRA_DIST += tests/cli_simulate.sh

# The fluid (continuous-time) simulator (sim/fluidpath, sim/fluid) and its
# command line (simulate --mode fluid).
check_PROGRAMS += tests/t_fluidsim
tests_t_fluidsim_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluidsim_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_fluidsim tests/cli_fluidsim.sh
check_PROGRAMS += tests/t_fluidplat
tests_t_fluidplat_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluidplat_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_fluidplat
EXTRA_DIST += tests/cli_fluidsim.sh
# validate's fluid model in the simulator's entry (sim/replicate.h).
check_PROGRAMS += tests/t_fluidval
tests_t_fluidval_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluidval_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_fluidval

# What-if studies: presets, sweeps, Darshan fits, the report.
check_PROGRAMS += tests/t_sweep
tests_t_sweep_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_sweep_SOURCES = tests/t_sweep.c src/sweeprun.c src/sweeprun.h
tests_t_sweep_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_sweep tests/cli_systems.sh tests/cli_sweep.sh tests/cli_fit.sh \
	tests/cli_report.sh tests/cli_report_cost.sh
EXTRA_DIST += tests/cli_systems.sh tests/cli_sweep.sh tests/cli_fit.sh tests/cli_report.sh \
	tests/cli_report_cost.sh tests/svg_key.awk

# Storage: devices, failures, the architectures; bbsize device and bbarch.
check_PROGRAMS += tests/t_storage_dev tests/t_storage_fail tests/t_storage_arch
tests_t_storage_dev_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_storage_dev_LDADD = src/formats/libbbformats.a $(STOR_TEST_LIBS)
tests_t_storage_fail_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_storage_fail_LDADD = $(STOR_TEST_LIBS)
tests_t_storage_arch_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_storage_arch_LDADD = sim/storage/libbbsstor.a sim/network/libbbsnet.a $(STOR_TEST_LIBS)
TESTS += tests/t_storage_dev tests/t_storage_fail tests/t_storage_arch tests/cli_device.sh \
	tests/cli_bbarch.sh
EXTRA_DIST += tests/cli_device.sh tests/cli_bbarch.sh tests/storage_cli.sh tests/storage_test.h

# The network: topology, max-min sharing, synthetic load; bbsize netload.
check_PROGRAMS += tests/t_net_topo tests/t_net_maxmin tests/t_net_load tests/t_net_par
tests_t_net_topo_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_topo_LDADD = src/formats/libbbformats.a $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_net_maxmin_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_maxmin_LDADD = $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_net_load_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_load_LDADD = $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
tests_t_net_par_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_net_par_LDADD = $(NET_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_net_topo tests/t_net_maxmin tests/t_net_load tests/t_net_par \
	tests/cli_netload.sh
EXTRA_DIST += tests/cli_netload.sh

# Workloads: the executor, the application models, collectives, traces,
# scenarios and their cross-check.
check_PROGRAMS += tests/t_wl_exec tests/t_wl_exec_net tests/t_wl_models tests/t_wl_coll tests/t_traces
tests_t_wl_exec_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_exec_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
tests_t_wl_exec_net_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_exec_net_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
tests_t_wl_models_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_models_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
tests_t_wl_coll_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wl_coll_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
tests_t_traces_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_traces_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
TESTS += tests/t_wl_exec tests/t_wl_exec_net tests/t_wl_models tests/t_wl_coll tests/t_traces \
	tests/cli_trace.sh tests/cli_scenario.sh tests/cli_scenario_ini.sh tests/cli_mkscenarios.sh \
	tests/cli_validate_scn.sh tests/cli_scenario_traces.sh tests/cli_scenario_failures.sh \
	tests/cli_scenario_progress.sh
EXTRA_DIST += tests/wl_exec_test.h tests/cli_trace.sh tests/cli_scenario.sh tests/cli_scenario_ini.sh tests/cli_mkscenarios.sh \
	tests/cli_validate_scn.sh tests/cli_scenario_traces.sh tests/cli_scenario_failures.sh \
	tests/cli_scenario_progress.sh

# The distributed runner against the thread runner, and the commands under
# mpirun -np 1, 2, 3 (a TAP skip without --with-mpi).
check_PROGRAMS += tests/mpi_units
tests_mpi_units_SOURCES = tests/mpi_units.c src/mpistart.c src/mpistart.h
tests_mpi_units_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) -lpthread
TESTS += tests/cli_mpi.sh
EXTRA_DIST += tests/cli_mpi.sh tests/mix.ini

# `bbsize fit darshan`: the timeline of a job (analytic/questions/timeline.h), one
# job's estimate and a class's pooling (analytic/questions/fitjob.h) with the
# workload writer's quoting, and the generator of synthetic Darshan logs
# that tests/cli_fit.sh and bench/fit.sh use.
check_PROGRAMS += tests/t_timeline tests/t_fitjob tests/gen_darshan
tests_t_timeline_SOURCES = tests/t_timeline.c
tests_t_timeline_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_timeline_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
tests_t_fitjob_SOURCES = tests/t_fitjob.c
tests_t_fitjob_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fitjob_LDADD = $(WL_LIBS) $(CMOCKA_LIBS) -lpthread -lm
tests_gen_darshan_SOURCES = tests/gen_darshan.c
tests_gen_darshan_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(GSL_LIBS) -lm
TESTS += tests/t_timeline tests/t_fitjob

# The hostile-input corpus: one file per class of problem (docs/bounds.md).
HOSTILE_CASES = tests/hostile/unbounded.sh tests/hostile/nonanswer.sh \
	tests/hostile/written.sh tests/hostile/silent.sh tests/hostile/readonce.sh \
	tests/hostile/messages.sh tests/hostile/round4_runs.sh tests/hostile/round4_inputs.sh \
	tests/hostile/round4_rest.sh tests/hostile/round5.sh
TESTS += tests/cli_hostile_corpus.sh tests/cli_property.sh
EXTRA_DIST += tests/cli_hostile_corpus.sh tests/cli_property.sh $(HOSTILE_CASES)

# Every command's --json against its documented schema (docs/json/).
check_PROGRAMS += tests/jschema
tests_jschema_SOURCES = tests/jschema.c
tests_jschema_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_jschema_LDADD = $(JANSSON_LIBS)
TESTS += tests/cli_json.sh
EXTRA_DIST += tests/cli_json.sh docs/json/size.schema.json docs/json/idle.schema.json \
	docs/json/dist.schema.json docs/json/threshold.schema.json docs/json/sweep.schema.json \
	docs/json/simulate.schema.json docs/json/validate.schema.json \
	docs/json/simulate-scenario.schema.json docs/json/validate-scenario.schema.json \
	docs/json/frontier.schema.json docs/json/design.schema.json docs/json/partition.schema.json \
	docs/json/systems.schema.json docs/json/compare.schema.json docs/json/device.schema.json \
	docs/json/bbarch.schema.json docs/json/netload.schema.json docs/json/trace.schema.json \
	docs/json/fit.schema.json
# The CSV writer every command shares (src/csvout.c), and every command's
# --csv stream as one table.
check_PROGRAMS += tests/t_csvout
tests_t_csvout_SOURCES = tests/t_csvout.c src/csvout.c src/csvout.h
tests_t_csvout_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_t_csvout_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_csvout_LDADD = $(CMOCKA_LIBS)
TESTS += tests/t_csvout tests/cli_csv.sh
EXTRA_DIST += tests/cli_csv.sh tests/csv_table.awk tests/bursts3.csv
# The volume into the buffer and the endurance size (analytic/questions/endurance.h).
# The fluid model's precision rule (analytic/fluid/fluid_span.h).
check_PROGRAMS += tests/t_fluid_span
tests_t_fluid_span_SOURCES = tests/t_fluid_span.c tests/testutil.h
tests_t_fluid_span_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_span_LDADD = $(ANALYTIC_TEST_LIBS)
TESTS += tests/t_fluid_span

check_PROGRAMS += tests/t_endurance
tests_t_endurance_SOURCES = tests/t_endurance.c tests/testutil.h
tests_t_endurance_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_endurance_LDADD = $(ANALYTIC_TEST_LIBS)
TESTS += tests/t_endurance

# The capacity-bandwidth frontier and the cheapest design (analytic/questions/design.h).
TESTS += tests/cli_design.sh
EXTRA_DIST += tests/cli_design.sh

# Static partitions against the shared buffer, and the partitioned
# simulator (analytic/questions/partition.h, sim/bbpart.h).
check_PROGRAMS += tests/t_partition
tests_t_partition_SOURCES = tests/t_partition.c tests/testutil.h
tests_t_partition_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_partition_LDADD = sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a $(UMFPACK_LIBS) $(GSL_LIBS) $(CMOCKA_LIBS) -lpthread
TESTS += tests/t_partition tests/cli_partition.sh
EXTRA_DIST += tests/cli_partition.sh

check_PROGRAMS += tests/t_fluid_approx
tests_t_fluid_approx_SOURCES = tests/t_fluid_approx.c tests/testutil.h
tests_t_fluid_approx_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_approx_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid_approx tests/cli_fluid_approx.sh
EXTRA_DIST += tests/cli_fluid_approx.sh

# the bufferless stall bounds (analytic/fluid/fluid_bufferless.h)
check_PROGRAMS += tests/t_fluid_bufferless
tests_t_fluid_bufferless_SOURCES = tests/t_fluid_bufferless.c tests/testutil.h
tests_t_fluid_bufferless_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_fluid_bufferless_LDADD = $(ANALYTIC_TEST_LIBS) -lpthread
TESTS += tests/t_fluid_bufferless

# the workload count column (issue 36)
TESTS += tests/cli_count.sh
EXTRA_DIST += tests/cli_count.sh
TESTS += tests/cli_fit_site.sh
EXTRA_DIST += tests/cli_fit_site.sh
