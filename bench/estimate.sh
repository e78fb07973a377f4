#!/bin/sh
# bench/estimate.sh: the estimate scenario runs print before they start
# ("bbsize: this run is estimated at about T (N events)") against the run:
# per scenario its estimated events and seconds, its engine events and
# CPU seconds (user + system: the machine is shared, so CPU rather than
# wall time), the ratios estimate / actual, and the seconds per estimated
# event and topology node it implies; then the median of those, the value
# BB_EXEC_S_PER_EVENT_NODE (src/execmeter.h) is set from.  By default the
# small scenarios (a few seconds); BENCH_FULL=1 adds five MFNetSim runs at
# full scale (about a minute of CPU: run it through the shared lock).
# Then the other simulations (the default workload, one thread): their
# estimate against their CPU time, and the seconds per event implied
# (BB_SIM_S_PER_EVENT, BB_FLUID_S_PER_EVENT in src/simcli.h).
# Usage: BBSIZE=src/bbsize sh bench/estimate.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
S=$TOP/data/scenarios
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-estimate.XXXXXX")
trap 'rm -rf "$T"' EXIT
# a small mix of the tests (cli_scenario_progress.sh), adaptive routing
cat >"$T/mix.ini" <<'EOT'
[topology]
preset = graph500-72
bb_per_group = 1
routing = adaptive
[placement]
policy = random-node
[storage]
capacity = 1GB
pfs_bandwidth = 1GB/s
[job milc]
model = milc
ranks = 16
dims = 2x2x2x2
iterations = 20
[job checkpoint]
model = checkpoint
ranks = 16
total_bytes = 1600MB
iterations = 4
EOT
list="$T/mix.ini $S/validate-small.ini $S/traces-small.ini"
if [ "${BENCH_FULL:-0}" = 1 ]; then
    for f in milc-alone-rand-min cosmoflow-alone-rand-adp checkpoint-alone-cont-min \
             nekbone-alone-rand-min w1-mix-rand-adp; do
        list="$list $S/mfnetsim-$f.ini"
    done
fi
# estimate_of FILE: "SECONDS EVENTS" of the estimate line in FILE
# ("... estimated at about 1 min 5 s (2.3e+06 events)")
estimate_of() {
    awk '/estimated at about/ {
        s = $0; sub(/.*estimated at about /, "", s); n = split(s, w, " ")
        for (i = 1; i < n; i++) {
            if (w[i + 1] == "h") est += 3600 * w[i]
            else if (w[i + 1] == "min") est += 60 * w[i]
            else if (w[i + 1] == "s") est += w[i]
        }
        ee = w[n - 1]; sub(/^\(/, "", ee)
    } END { print est + 0, ee + 0 }' "$1"
}
# --progress: the estimate whatever the run's length; no progress lines
BBSIZE_PROGRESS_INTERVAL=1000000
export BBSIZE_PROGRESS_INTERVAL
printf "%-36s %10s %10s %9s %9s %8s %8s %10s\n" scenario est_events events est_s cpu_s \
    ev_ratio s_ratio s/ev/node
for f in $list; do
    b=$(basename "$f" .ini)
    /usr/bin/env time -f "%U %S" -o "$T/cpu" "$BBSIZE" simulate --json --progress "$f" \
        >"$T/j" 2>"$T/e"
    estimate_of "$T/e" >"$T/est"
    awk -v b="$b" '
        FILENAME ~ /est$/ { est = $1; ee = $2 }
        FILENAME ~ /j$/ && /"nodes":/ && !nodes { v = $2; gsub(/[^0-9]/, "", v); nodes = v }
        FILENAME ~ /j$/ && /"events":/ { v = $2; gsub(/[^0-9]/, "", v); ev = v }
        FILENAME ~ /cpu$/ { cpu = $1 + $2 }
        END {
            printf "%-36s %10.3g %10.3g %9.3g %9.3g %8.2f %8.2f %10.3g\n", b, ee, ev, est, cpu,
                   ee / ev, (cpu > 0 ? est / cpu : 0), (ee > 0 ? cpu / (ee * nodes) : 0)
        }' "$T/est" "$T/j" "$T/cpu" | tee -a "$T/rows"
done
sort -g -k 8 "$T/rows" | awk '{ r[NR] = $8 } END {
    printf "median seconds per estimated event and node: %.3g (of %d scenarios)\n",
           (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2), NR }'
echo
printf "%-66s %10s %9s %9s %8s %10s\n" command est_events est_s cpu_s s_ratio s/event
while IFS='|' read -r args; do
    [ -n "$args" ] || continue
    # shellcheck disable=SC2086
    /usr/bin/env time -f "%U %S" -o "$T/cpu" "$BBSIZE" $args --threads 1 --progress \
        >/dev/null 2>"$T/e"
    estimate_of "$T/e" >"$T/est"
    awk -v a="$args" '
        FILENAME ~ /est$/ { est = $1; ee = $2 }
        FILENAME ~ /cpu$/ { cpu = $1 + $2 }
        END { printf "%-66s %10.3g %9.3g %9.3g %8.2f %10.3g\n", a, ee, est, cpu,
                     (cpu > 0 ? est / cpu : 0), (ee > 0 ? cpu / ee : 0) }' "$T/est" "$T/cpu"
done <<'LIST'
simulate --bb-size 100TB --horizon 200000
validate --bb-size 100TB,200TB --horizon 100000
simulate --bb-size 100TB --mode periodic --d-min 5 --horizon 50000
simulate --bb-size 100TB --mode fluid --horizon 1e6s
validate --bb-size 100TB,200TB --model fluid
LIST
