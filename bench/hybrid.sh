#!/bin/sh
# hybrid.sh: wall time and events/s of the MFNetSim hybrid matrix
# (data/scenarios/mfnetsim-w*-mix-*.ini: 2 workloads x 2 placements x 2
# routings), then the applications alone (BENCH_ALONE=0 skips them), and
# the alone-vs-mix slowdowns (BENCH_COMPARE=0 skips them; compare runs
# both scenarios again).  The runs go BENCH_JOBS at a time (default: the
# online cores; 1: one after the other); each run's wall time is its own.
# Usage: BBSIZE=src/bbsize sh bench/hybrid.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
S=$TOP/data/scenarios
OUT=${BENCH_OUT:-/tmp/bbsize-hybrid}
mkdir -p "$OUT"
now() { date +%s.%N; }
run() {
    f=$1
    b=$(basename "$f" .ini)
    t0=$(now)
    "$BBSIZE" simulate --json "$f" > "$OUT/$b.json" 2> "$OUT/$b.err"
    t1=$(now)
    awk -v b="$b" -v t0="$t0" -v t1="$t1" '
        /"events":/ { gsub(/[^0-9]/, "", $2); ev = $2 }
        END { w = t1 - t0; printf "%-36s %8.2f s %11d events %10.0f events/s\n", b, w, ev, ev / w }' \
        "$OUT/$b.json"
}
if [ "${1:-}" = --run ]; then run "$2"; exit 0; fi
JOBS=${BENCH_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
# runs: the given scenarios, JOBS at a time; their lines sorted by name
runs() {
    printf "%s\n" "$@" | xargs -P "$JOBS" -I {} sh "$0" --run {} > "$OUT/lines"
    sort "$OUT/lines"
}
echo "== the 8-run hybrid matrix ($JOBS at a time)"
T0=$(now)
runs "$S"/mfnetsim-w1-mix-*.ini "$S"/mfnetsim-w2-mix-*.ini
T1=$(now)
awk -v a="$T0" -v b="$T1" 'BEGIN { printf "matrix total: %.1f s (bar: 600 s, ratio %.2f)\n", b - a, (b - a) / 600 }'
[ "${BENCH_ALONE:-1}" = 0 ] && exit 0
echo "== the applications alone ($JOBS at a time)"
runs "$S"/mfnetsim-*-alone-*.ini
T2=$(now)
awk -v a="$T0" -v b="$T2" 'BEGIN { printf "24-run total: %.1f s (bar: 600 s, ratio %.2f)\n", b - a, (b - a) / 600 }'
awk '/"wall_s":/ { gsub(/[^0-9.e+-]/, "", $2); t += $2 } END { printf "24-run CPU (the runs wall times summed): %.1f s\n", t }' "$OUT"/mfnetsim-*.json
[ "${BENCH_COMPARE:-1}" = 0 ] && exit 0
echo "== slowdown in the mix (mix / alone)"
for pl in cont rand; do for rt in min adp; do
    for app in milc checkpoint cosmoflow; do
        printf '%s %s-%s ' "$app" "$pl" "$rt"
        "$BBSIZE" compare --quiet --csv "$S/mfnetsim-$app-alone-$pl-$rt.ini" \
            "$S/mfnetsim-w1-mix-$pl-$rt.ini" | tail -n 1
    done
    for app in nekbone checkpoint cosmoflow; do
        printf '%s %s-%s w2 ' "$app" "$pl" "$rt"
        "$BBSIZE" compare --quiet --csv "$S/mfnetsim-$app-alone-$pl-$rt.ini" \
            "$S/mfnetsim-w2-mix-$pl-$rt.ini" | tail -n 1
    done
done; done
