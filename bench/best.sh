# SPDX-License-Identifier: GPL-3.0-or-later
# bench/best.sh: sourced by the timing scripts (fluid.sh, approx.sh).
# best CMD...: the best wall time (s) of $REPS runs of CMD, its stdout of
# the last run kept in $T/out.
now() { date +%s.%N; }
best() {
  b=""
  i=0
  while [ $i -lt "$REPS" ]; do
    t0=$(now)
    "$@" >"$T/out"
    t1=$(now)
    b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { d = z - a; if (b == "" || d < b) b = d; printf "%.4f", b }')
    i=$((i + 1))
  done
  echo "$b"
}
