#!/bin/sh
# netload.sh: speed of the flow-level dragonfly (bbsize netload): the issue's
# bar (MFNetSim 1,056 nodes, uniform random, 50% load, 10 ms simulated in
# under 10 s), flows per second, and how the cost grows with concurrent
# flows (window), with system size (16K preset) and with exact recomputation.
# Prints figures and ratios; run by hand: BBSIZE=src/bbsize sh bench/netload.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
: "${BBSIZE:=src/bbsize}"

# run LABEL ARGS...: wall time, flows, updates, flows touched per update
run() {
    label=$1
    shift
    t0=$(date +%s.%N)
    "$BBSIZE" netload --quiet --json --fixed "$@" >/tmp/bench-netload.$$.json
    t1=$(date +%s.%N)
    awk -v label="$label" -v t0="$t0" -v t1="$t1" '
        /"accepted_load"/ { gsub(/[,]/, ""); acc = $2 }
        /"flows_started"/ { gsub(/[,]/, ""); fl = $2 }
        /"rate_updates"/ { gsub(/[,]/, ""); up = $2 }
        /"exact_updates"/ { gsub(/[,]/, ""); ex = $2 }
        /"flows_touched"/ { gsub(/[,]/, ""); tou = $2 }
        /"in_flight_at_end"/ { gsub(/[,]/, ""); inf = $2 }
        END {
            w = t1 - t0
            printf "%-44s %7.2f s %8d flows %9.0f flows/s  accepted %.4f  %7.1f flows/update  %5.1f%% exact  %6d in flight\n",
                   label, w, fl, fl / w, acc, tou / (up > 0 ? up : 1), 100 * ex / (up > 0 ? up : 1), inf
        }' /tmp/bench-netload.$$.json
    rm -f /tmp/bench-netload.$$.json
}

echo "# bar: mfnetsim-1056, uniform, min, 50% load, 10 ms simulated (< 10 s)"
run "1056 uniform 0.5 10ms 1MiB w16 (default)" --topology mfnetsim-1056 --load 0.5 --duration 10ms
run "1056 uniform 0.5 10ms 256KiB w16" --topology mfnetsim-1056 --load 0.5 --duration 10ms --msg-size 256KiB
echo "# cost versus concurrent flows (window per sender), 2 ms"
for w in 1 4 16 64; do
    run "1056 uniform 0.5 2ms 1MiB window $w" --topology mfnetsim-1056 --load 0.5 --duration 2ms --window "$w"
done
echo "# exact (whole component) versus local recomputation, 1 ms"
run "1056 uniform 0.5 1ms exact-limit -1" --topology mfnetsim-1056 --load 0.5 --duration 1ms --exact-limit -1
run "1056 uniform 0.5 1ms exact-limit 0" --topology mfnetsim-1056 --load 0.5 --duration 1ms --exact-limit 0
echo "# system size: 72, 1,056, 16,512 nodes, uniform 0.5, 1 ms"
run "72 uniform 0.5 1ms" --topology graph500-72 --load 0.5 --duration 1ms
run "1056 uniform 0.5 1ms" --topology mfnetsim-1056 --load 0.5 --duration 1ms
run "16512 uniform 0.5 1ms" --topology balanced-16k --load 0.5 --duration 1ms
