#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/run.sh: the benchmarks of `make bench`.  Prints figures and ratios
# against reference runs in the same process or script.
set -eu
: "${BBSIZE:?}" "${BENCH_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

"$BENCH_DIR/b_analytic" ${BENCH_QUICK:+quick}

# Whole-command wall times, median of 5, on the issue's setting.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
wall() {
  for i in 1 2 3 4 5; do
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    echo "$e - $s" | bc -l 2>/dev/null || awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
  done | median
}
"$BBSIZE" generate --seed 1 -o "$T/paper.csv"
echo
echo "## bbsize commands (wall time, median of 5)"
echo "bbsize idle --bb-size 3000:        $(wall "$BBSIZE" idle "$T/paper.csv" --bb-size 3000) s"
echo "bbsize size --target-idle 1e-3:    $(wall "$BBSIZE" size "$T/paper.csv" --target-idle 1e-3 --quiet) s"
echo "bbsize size (default workload):    $(wall "$BBSIZE" size --quiet) s"
