# SPDX-License-Identifier: GPL-3.0-or-later
# Scenarios part 2: `bbsize validate --scenario` (the system-level
# cross-check), trace models as scenario jobs.
src_bbsize_SOURCES += src/cmd_validate_scn.c src/scnrun.h
TESTS += tests/cli_validate_scn.sh
EXTRA_DIST += tests/cli_validate_scn.sh
dist_scenarios_DATA += data/scenarios/validate-small.ini
dist_scenarios_DATA += data/scenarios/traces-small.ini
TESTS += tests/cli_scenario_traces.sh
EXTRA_DIST += tests/cli_scenario_traces.sh
TESTS += tests/cli_scenario_failures.sh
EXTRA_DIST += tests/cli_scenario_failures.sh
EXTRA_DIST += bench/validate_scn.sh
# The cross-check on the shipped scenarios (never run by make check).
bench-validate-scn: src/bbsize$(EXEEXT)
	BBSIZE=$(abs_top_builddir)/src/bbsize BBSIZE_TOP_SRCDIR=$(abs_top_srcdir) \
	  $(SHELL) $(top_srcdir)/bench/validate_scn.sh
.PHONY: bench-validate-scn
