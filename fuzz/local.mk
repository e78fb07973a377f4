# SPDX-License-Identifier: GPL-3.0-or-later
# Parser fuzzing: one libFuzzer harness per input format, fuzz/fz_NAME.c.
#   make check         builds every harness with fuzz/replay.c (any compiler,
#                      no libFuzzer) and replays tests/fuzz/NAME/: the seeds and
#                      every input that once crashed or hung a parser
#   make fuzz          builds them with clang -fsanitize=fuzzer,address,undefined
#                      (fuzz/build.sh) and runs each for FUZZ_SECONDS (fuzz/run.sh);
#                      corpora grow in fuzz/corpus/NAME, crashes land in
#                      fuzz/artifacts/
FUZZ_NAMES = workload units scenario vef sizedist codes wiring device system darshan alloc dxt heatmap
FUZZ_SECONDS = 60
FUZZ_LIBS = src/formats/libbbformats.a sim/workload/libbbswl.a sim/network/libbbsnet.a \
	sim/storage/libbbsstor.a sim/libbbsim.a analytic/libbbanalytic.a base/libbbbase.a \
	$(UMFPACK_LIBS) $(GSL_LIBS) $(JANSSON_LIBS) $(INIH_LIBS) -lpthread -lm

check_PROGRAMS += fuzz/replay_workload fuzz/replay_units fuzz/replay_scenario \
	fuzz/replay_vef fuzz/replay_sizedist fuzz/replay_codes fuzz/replay_wiring \
	fuzz/replay_device fuzz/replay_system fuzz/replay_darshan fuzz/replay_alloc \
	fuzz/replay_dxt fuzz/replay_heatmap
fuzz_replay_workload_SOURCES = fuzz/fz_workload.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_workload_LDADD = $(FUZZ_LIBS)
fuzz_replay_units_SOURCES = fuzz/fz_units.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_units_LDADD = $(FUZZ_LIBS)
fuzz_replay_scenario_SOURCES = fuzz/fz_scenario.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_scenario_LDADD = $(FUZZ_LIBS)
fuzz_replay_vef_SOURCES = fuzz/fz_vef.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_vef_LDADD = $(FUZZ_LIBS)
fuzz_replay_sizedist_SOURCES = fuzz/fz_sizedist.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_sizedist_LDADD = $(FUZZ_LIBS)
fuzz_replay_codes_SOURCES = fuzz/fz_codes.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_codes_LDADD = $(FUZZ_LIBS)
fuzz_replay_wiring_SOURCES = fuzz/fz_wiring.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_wiring_LDADD = $(FUZZ_LIBS)
fuzz_replay_device_SOURCES = fuzz/fz_device.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_device_LDADD = $(FUZZ_LIBS)
fuzz_replay_system_SOURCES = fuzz/fz_system.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_system_LDADD = $(FUZZ_LIBS)
fuzz_replay_darshan_SOURCES = fuzz/fz_darshan.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_darshan_LDADD = $(FUZZ_LIBS)
fuzz_replay_alloc_SOURCES = fuzz/fz_alloc.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_alloc_LDADD = $(FUZZ_LIBS)
fuzz_replay_dxt_SOURCES = fuzz/fz_dxt.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_dxt_LDADD = $(FUZZ_LIBS)
fuzz_replay_heatmap_SOURCES = fuzz/fz_heatmap.c fuzz/replay.c fuzz/fuzz.h
fuzz_replay_heatmap_LDADD = $(FUZZ_LIBS)

TESTS += tests/fuzz_replay.sh
EXTRA_DIST += tests/fuzz_replay.sh fuzz/build.sh fuzz/run.sh fuzz/seeds.sh tests/fuzz

# The sources every harness may need, compiled again by clang with the
# fuzzer's instrumentation (fuzz/build.sh keeps the objects in fuzz/obj).
FUZZ_LIBSRC = $(src_formats_libbbformats_a_SOURCES) $(sim_workload_libbbswl_a_SOURCES) \
	$(sim_network_libbbsnet_a_SOURCES) $(sim_storage_libbbsstor_a_SOURCES) \
	$(sim_libbbsim_a_SOURCES) $(analytic_libbbanalytic_a_SOURCES) $(base_libbbbase_a_SOURCES)

fuzz-build: src/default_workload.c
	@FUZZ_CC='$(FUZZ_CC)' \
	  LIBS='$(UMFPACK_LIBS) $(GSL_LIBS) $(JANSSON_LIBS) $(INIH_LIBS) $(LIBS) -lpthread -lm' \
	  $(SHELL) $(top_srcdir)/fuzz/build.sh $(top_srcdir) fuzz '$(FUZZ_NAMES)' \
	  src/default_workload.c $(FUZZ_LIBSRC) -- \
	  -I$(top_builddir) -I$(top_builddir)/src $(AM_CPPFLAGS) $(MPI_CFLAGS) $(CPPFLAGS)

fuzz: fuzz-build
	$(SHELL) $(top_srcdir)/fuzz/run.sh $(top_srcdir) fuzz '$(FUZZ_NAMES)' $(FUZZ_SECONDS)

clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz/obj fuzz/bin
.PHONY: fuzz fuzz-build clean-fuzz
