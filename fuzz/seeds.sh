# fuzz/seeds.sh: the seed inputs of each harness, from data/ (sourced by
# fuzz/run.sh and tests/fuzz_replay.sh).  Besides these, tests/fuzz/NAME/
# holds seeds that data/ has no file for and every input that once crashed
# or hung a parser.
# SPDX-License-Identifier: GPL-3.0-or-later

# fuzz_seeds SRCDIR NAME: the data files seeding harness NAME, one a line.
fuzz_seeds() {
  case $2 in
    workload) ls "$1"/data/workloads/*.csv ;;
    scenario) ls "$1"/data/scenarios/*.ini ;;
    vef) ls "$1"/data/traces/*.vef ;;
    sizedist) ls "$1"/data/vef/*.txt "$1"/data/vef/*.csv ;;
    codes) ls "$1"/data/network/*.conf ;;
    device) ls "$1"/data/devices/*.dev ;;
    system) ls "$1"/data/systems/*.conf ;;
    darshan) ls "$1"/data/darshan/*.darshan-parser.txt ;;
    dxt) ls "$1"/data/darshan/*.dxt-parser.txt ;;
    heatmap) ls "$1"/data/darshan/*.darshan-parser.txt ;;   # and tests/fuzz/heatmap
    *) : ;;   # units, wiring, alloc: tests/fuzz/NAME only
  esac
}
