#!/bin/sh
# hybrid.sh: wall time and events/s of the MFNetSim hybrid matrix
# (data/scenarios/mfnetsim-w*-mix-*.ini: 2 workloads x 2 placements x 2
# routings), then the applications alone (BENCH_ALONE=0 skips them), and
# the alone-vs-mix slowdowns (BENCH_COMPARE=0 skips them; compare runs
# the scenarios again: each mix once with its three applications alone).  The runs go BENCH_JOBS at a time (default: the
# online cores; 1: one after the other); each run's wall time and CPU time
# are its own.
# Usage: BBSIZE=src/bbsize sh bench/hybrid.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
S=$TOP/data/scenarios
OUT=${BENCH_OUT:-/tmp/bbsize-hybrid}
mkdir -p "$OUT"
now() { date +%s.%N; }
# run: one scenario; its wall time and the CPU time it used (user + system,
# from /usr/bin/time: what it takes on a core of its own when the machine
# is shared)
run() {
    f=$1
    b=$(basename "$f" .ini)
    t0=$(now)
    /usr/bin/time -f "%U %S" -o "$OUT/$b.cpu" "$BBSIZE" simulate --json "$f" > "$OUT/$b.json" \
        2> "$OUT/$b.err"
    t1=$(now)
    awk -v b="$b" -v t0="$t0" -v t1="$t1" '
        FNR == 1 { f++ }
        f == 1 && /"events":/ { gsub(/[^0-9]/, "", $2); ev = $2 }
        f == 2 { cpu = $1 + $2 }
        END { w = t1 - t0; printf "%-36s %8.2f s wall %8.2f s CPU %11d events %10.0f events/s of CPU\n",
              b, w, cpu, ev, ev / cpu }' "$OUT/$b.json" "$OUT/$b.cpu"
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
cp "$OUT/lines" "$OUT/lines1"
T1=$(now)
awk -v a="$T0" -v b="$T1" 'BEGIN { printf "matrix total: %.1f s (bar: 600 s, ratio %.2f)\n", b - a, (b - a) / 600 }'
[ "${BENCH_ALONE:-1}" = 0 ] && exit 0
echo "== the applications alone ($JOBS at a time)"
runs "$S"/mfnetsim-*-alone-*.ini
T2=$(now)
awk -v a="$T0" -v b="$T2" 'BEGIN { printf "24-run total: %.1f s (bar: 600 s, ratio %.2f)\n", b - a, (b - a) / 600 }'
awk '{ t += $1 + $2 } END { printf "24-run CPU (user + system, summed): %.1f s (bar: 600 s, ratio %.2f)\n", t, t / 600 }' "$OUT"/mfnetsim-*.cpu
awk '/wall/ { t += $2 } END { printf "24-run wall times summed: %.1f s\n", t }' "$OUT/lines" "$OUT/lines1"
[ "${BENCH_COMPARE:-1}" = 0 ] && exit 0
echo "== slowdown in the mix (mix / alone; each mix with its applications alone)"
for pl in cont rand; do for rt in min adp; do
    for w in w1 w2; do
        case $w in w1) a=milc ;; *) a=nekbone ;; esac
        "$BBSIZE" compare --quiet --csv "$S/mfnetsim-$a-alone-$pl-$rt.ini" \
            "$S/mfnetsim-checkpoint-alone-$pl-$rt.ini" "$S/mfnetsim-cosmoflow-alone-$pl-$rt.ini" \
            "$S/mfnetsim-$w-mix-$pl-$rt.ini" | sed 1d | sed "s/^/$w $pl-$rt /"
    done
done; done
