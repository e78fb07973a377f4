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
