#!/bin/sh
# ensemble.sh: the MFNetSim slowdowns with their spread.  For each
# placement (cont, rand) and routing (min, adp), `bbsize compare
# --replicas N` runs each workload's mix and its three applications alone
# N times (replica i: the random streams of unit i, adaptive routing's
# draws and the scenarios' 1-ps send jitter), and the findings table gives
# each slowdown (mix / alone, per-rank means) as mean, standard deviation
# and [min, max] over the replicas.  Then the wall time of the whole
# ensemble (the compares run one after the other, each N x 4 runs on
# BENCH_JOBS threads) against the bar of an hour.
# Usage: BBSIZE=src/bbsize sh bench/ensemble.sh [N]   (default 8)
#   BENCH_PLACEMENTS="rand" runs one placement only; --table N prints the
#   table of the CSVs already in BENCH_OUT without running anything.
# Heavy (about half an hour on 2 cores): run it through the shared lock,
#   flock /tmp/bbsize-heavy.lock nice -n 5 sh bench/ensemble.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
S=$TOP/data/scenarios
TABLE_ONLY=0
if [ "${1:-}" = --table ]; then TABLE_ONLY=1; shift; fi
N=${1:-8}
PLACEMENTS=${BENCH_PLACEMENTS:-cont rand}
JOBS=${BENCH_JOBS:-0}
OUT=${BENCH_OUT:-/tmp/bbsize-ensemble}
mkdir -p "$OUT"
now() { date +%s.%N; }
if [ $TABLE_ONLY = 0 ]; then
T0=$(now)
for pl in $PLACEMENTS; do for rt in min adp; do
    for w in w1 w2; do
        case $w in w1) a=milc ;; *) a=nekbone ;; esac
        t0=$(now)
        "$BBSIZE" compare --quiet --csv --replicas "$N" --threads "$JOBS" \
            "$S/mfnetsim-$a-alone-$pl-$rt.ini" "$S/mfnetsim-checkpoint-alone-$pl-$rt.ini" \
            "$S/mfnetsim-cosmoflow-alone-$pl-$rt.ini" "$S/mfnetsim-$w-mix-$pl-$rt.ini" \
            > "$OUT/$w-$pl-$rt.csv"
        t1=$(now)
        awk -v c="$w-$pl-$rt" -v t0="$t0" -v t1="$t1" -v n="$N" \
            'BEGIN { printf "%-12s %4d replicas x 4 runs %8.1f s\n", c, n, t1 - t0 }'
    done
done; done
T1=$(now)
awk -v a="$T0" -v b="$T1" \
    'BEGIN { printf "ensemble total: %.1f s (bar: 3600 s, ratio %.2f)\n", b - a, (b - a) / 3600 }'
fi
echo
echo "Findings over $N replicas: slowdown = mix / alone, mean +- sd [min, max]"
echo
echo "| app | mix | elapsed | communication | I/O |"
echo "|---|---|---|---|---|"
for w in w1 w2; do for pl in cont rand; do for rt in min adp; do
    [ -f "$OUT/$w-$pl-$rt.csv" ] || continue
    awk -F, -v c="$w $pl-$rt" '
        function cell(m, s, lo, hi) {
            if (m == "") return "-"
            return sprintf("%.3f +- %.3f [%.3f, %.3f]", m, s, lo, hi)
        }
        NR > 1 { printf "| %s | %s | %s | %s | %s |\n", $1, c, cell($10, $11, $12, $13),
                 cell($14, $15, $16, $17), cell($18, $19, $20, $21) }' \
        "$OUT/$w-$pl-$rt.csv"
done; done; done
