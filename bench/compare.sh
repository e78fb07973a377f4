#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/compare.sh: this build against another on the analytic commands
# (`make bench-compare BBSIZE_REF=/path/to/other/src/bbsize`): user CPU
# seconds, median of BENCH_N runs (default 3), of each command with the
# reference build and with this one, run alternately, and their ratio
# (this / reference; below 1 is faster).  User time rather than wall time:
# the machine is shared.  The Bernoulli rows exercise the FFT Wiener-Hopf
# solver, the others the discrete ON/OFF chain (exact, then the
# effective-bandwidth approximation, greedy and lazy).
set -eu
: "${BBSIZE:?}" "${BBSIZE_REF:?set BBSIZE_REF to the reference build}"
: "${BBSIZE_TOP_SRCDIR:=$(pwd)}"
N=${BENCH_N:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT
W=$BBSIZE_TOP_SRCDIR/data/workloads/default.csv
# the default workload, every burst 10 units; and 4 of its applications
# with 5-minute bursts (16 phases: exact)
(grep '^#@' "$W"; echo "name,p,bw,burst"
 sed -n '/^name,p,bw/,$p' "$W" | tail -n +2 | awk '{ print $0 ",10" }') >"$T/paper10.csv"
(grep '^#@' "$W"; echo "name,p,bw,burst"
 sed -n '/^name,p,bw/,$p' "$W" | tail -n +2 |
   awk 'NR <= 4 { print $0 ",5min"; next } { print $0 "," }') >"$T/def4.csv"
cd "$T"
ut() { /usr/bin/env time -f '%U' "$@" 2>&1 >/dev/null | tail -1; }
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "# user s, median of $N; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| command | reference | this | ratio |"
echo "| --- | --- | --- | --- |"
while IFS='|' read -r args; do
  [ -n "$args" ] || continue
  : >"$T/r"; : >"$T/t"
  i=0
  while [ "$i" -lt "$N" ]; do
    # shellcheck disable=SC2086
    ut "$BBSIZE_REF" $args >>"$T/r"; ut "$BBSIZE" $args >>"$T/t"
    i=$((i + 1))
  done
  awk -v a="$args" -v r="$(med <"$T/r")" -v t="$(med <"$T/t")" \
    'BEGIN { printf "| %s | %.2f | %.2f | %s |\n", a, r, t, (r > 0 ? sprintf("%.2f", t / r) : "-") }'
done <<'LIST'
size --resolution 1000
size --resolution 10000
idle --bb-size 100TB --resolution 1000
size def4.csv --time-unit 60s --model chain
size paper10.csv --model chain
size paper10.csv --threshold 0.5 --model chain
threshold paper10.csv --bb-size 2PB --model chain
LIST
