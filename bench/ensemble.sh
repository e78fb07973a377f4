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
#   BENCH_PLACEMENTS="rand" runs one placement only, BENCH_ROUTINGS="adp"
#   one routing, BENCH_WORKLOADS="w2" one workload (chunks of the ensemble
#   for a shared machine: the CSVs accumulate in BENCH_OUT); --table N
#   prints the table of the CSVs already in BENCH_OUT without running
#   anything.  --plain N runs, for the chunks selected, the plain runs
#   (copies of the scenarios with jitter = 0, seed 1: one compare each)
#   and prints each of their slowdowns beside the ensemble's [min, max]
#   in BENCH_OUT: inside, or by how much outside.
# Heavy (2,323 s of wall time on 2 cores, docs/mfnetsim.md "Speed"; the
# contiguous w2 adaptive compare, the heaviest, 682 s): run it
# through the shared lock, a compare at a time,
#   flock /tmp/bbsize-heavy.lock nice -n 5 sh bench/ensemble.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
S=$TOP/data/scenarios
TABLE_ONLY=0
PLAIN=0
if [ "${1:-}" = --table ]; then TABLE_ONLY=1; shift; fi
if [ "${1:-}" = --plain ]; then PLAIN=1; shift; fi
N=${1:-8}
PLACEMENTS=${BENCH_PLACEMENTS:-cont rand}
ROUTINGS=${BENCH_ROUTINGS:-min adp}
WORKLOADS=${BENCH_WORKLOADS:-w1 w2}
JOBS=${BENCH_JOBS:-0}
OUT=${BENCH_OUT:-/tmp/bbsize-ensemble}
mkdir -p "$OUT"
now() { date +%s.%N; }
app_of() { case $1 in w1) echo milc ;; *) echo nekbone ;; esac; }
if [ $PLAIN = 1 ]; then
    # The scenarios name their placement files as ../network/...: keep that.
    T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-plain.XXXXXX")
    trap 'rm -rf "$T"' EXIT
    mkdir "$T/scenarios"
    ln -s "$(cd "$TOP/data/network" && pwd)" "$T/network"
    for f in "$S"/mfnetsim-*.ini; do
        sed 's/^jitter = .*/jitter = 0/' "$f" >"$T/scenarios/$(basename "$f")"
    done
    echo "Plain runs (jitter = 0) against the ensemble of $N replicas: slowdown, [min, max], outside by"
    echo
    echo "| app | mix | elapsed | communication | I/O |"
    echo "|---|---|---|---|---|"
    for pl in $PLACEMENTS; do for rt in $ROUTINGS; do for w in $WORKLOADS; do
        a=$(app_of "$w")
        P=$T/scenarios
        "$BBSIZE" compare --quiet --csv "$P/mfnetsim-$a-alone-$pl-$rt.ini" \
            "$P/mfnetsim-checkpoint-alone-$pl-$rt.ini" "$P/mfnetsim-cosmoflow-alone-$pl-$rt.ini" \
            "$P/mfnetsim-$w-mix-$pl-$rt.ini" >"$OUT/$w-$pl-$rt-plain.csv"
        [ -f "$OUT/$w-$pl-$rt.csv" ] || continue
        # plain: elapsed, comm, io slowdowns in columns 5, 8, 11; the
        # ensemble's min and max in 12-13, 16-17, 20-21
        awk -F, -v c="$w $pl-$rt" '
            function cell(x, lo, hi) {
                if (x == "" || lo == "" || x == "nan" || x == "-nan") return "-"
                if (x < lo) return sprintf("%.3f [%.3f, %.3f] below by %.3f", x, lo, hi, lo - x)
                if (x > hi) return sprintf("%.3f [%.3f, %.3f] above by %.3f", x, lo, hi, x - hi)
                return sprintf("%.3f [%.3f, %.3f] inside", x, lo, hi)
            }
            FNR == 1 { f++; next }
            f == 1 { e[$1] = $5; c0[$1] = $8; io[$1] = $11; next }
            { printf "| %s | %s | %s | %s | %s |\n", $1, c, cell(e[$1], $12, $13),
                     cell(c0[$1], $16, $17), cell(io[$1], $20, $21) }' \
            "$OUT/$w-$pl-$rt-plain.csv" "$OUT/$w-$pl-$rt.csv"
    done; done; done
    exit 0
fi
if [ $TABLE_ONLY = 0 ]; then
T0=$(now)
for pl in $PLACEMENTS; do for rt in $ROUTINGS; do
    for w in $WORKLOADS; do
        a=$(app_of "$w")
        t0=$(now)
        # stderr: each scenario's wall time summed over its replicas
        "$BBSIZE" compare --csv --replicas "$N" --threads "$JOBS" \
            "$S/mfnetsim-$a-alone-$pl-$rt.ini" "$S/mfnetsim-checkpoint-alone-$pl-$rt.ini" \
            "$S/mfnetsim-cosmoflow-alone-$pl-$rt.ini" "$S/mfnetsim-$w-mix-$pl-$rt.ini" \
            > "$OUT/$w-$pl-$rt.csv" 2> "$OUT/$w-$pl-$rt.err" || { cat "$OUT/$w-$pl-$rt.err" >&2; exit 1; }
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
echo "| app | mix | alone elapsed (s) | elapsed slowdown | communication slowdown | I/O slowdown | largest latency growth |"
echo "|---|---|---:|---|---|---|---|"
for w in w1 w2; do for pl in cont rand; do for rt in min adp; do
    [ -f "$OUT/$w-$pl-$rt.csv" ] || continue
    awk -F, -v c="$w $pl-$rt" '
        function cell(m, s, lo, hi) {
            if (m == "") return "-"
            return sprintf("%.3f +- %.3f [%.3f, %.3f]", m, s, lo, hi)
        }
        NR > 1 { printf "| %s | %s | %.3f | %s | %s | %s | %s |\n", $1, c, $4,
                 cell($10, $11, $12, $13), cell($14, $15, $16, $17), cell($18, $19, $20, $21),
                 cell($26, $27, $28, $29) }' \
        "$OUT/$w-$pl-$rt.csv"
done; done; done
