#!/bin/sh
# sweep.sh: time `bbsize sweep` over 100 buffer sizes of the default
# workload (the issue's bar: under 2 s), on 1 thread and on every core.
# Usage: BBSIZE=src/bbsize sh bench/sweep.sh   (or `make bench-sweep`)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
BBSIZE=${BBSIZE:-src/bbsize}
REPS=${REPS:-3}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# best-of-REPS wall time of "$@", in seconds
best() {
  b=""
  i=0
  while [ "$i" -lt "$REPS" ]; do
    s=$(date +%s.%N)
    "$@" > /dev/null
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" -eq 1 ]; then b=$t; fi
    i=$((i + 1))
  done
  printf '%.3f' "$b"
}

echo "bench: bbsize sweep, default workload, best of $REPS runs, $cores cores"
echo "bench: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
for range in 0:198TB:2TB 0:396TB:4TB; do
  n=$("$BBSIZE" sweep --bb-size "$range" --csv | sed 1d | wc -l)
  t1=$(best "$BBSIZE" sweep --bb-size "$range" --csv --threads 1)
  tn=$(best "$BBSIZE" sweep --bb-size "$range" --csv --threads "$cores")
  # CPU seconds (user + system) of one run: less sensitive to other load.
  cpu=$( { /usr/bin/time -f '%U %S' "$BBSIZE" sweep --bb-size "$range" --csv --threads 1 > /dev/null; } 2>&1 |
         awk '{ printf "%.3f", $1 + $2 }')
  printf 'bench: sweep --bb-size %-13s %4d sizes: 1 thread %6.3f s (%s s CPU), %d threads %6.3f s, speed-up %.2f, bar 2 s: %s\n' \
    "$range" "$n" "$t1" "$cpu" "$cores" "$tn" "$(echo "$t1 / $tn" | bc -l)" \
    "$([ "$(echo "$tn < 2" | bc -l)" -eq 1 ] && echo met || echo MISSED)"
done
