#!/bin/sh
# committee.sh: the speed bars of what a committee asks: `bbsize design`
# over 50 PFS bandwidths of the default workload (bar 2 s), `bbsize
# partition` of 4 groups (bar 2 s), and endurance adding no solve (the
# evaluations of `size --dwpd` against `size` when the stall size lasts).
# Each printed with a reference run in the same script: `bbsize size` of
# the default workload, and the ratio against it.
# Usage: BBSIZE=src/bbsize sh bench/committee.sh   (heavy: run under the
# shared lock, flock /tmp/bbsize-heavy.lock nice -n 5 ...)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
BBSIZE=${BBSIZE:-src/bbsize}
DATA=${DATA:-$(dirname "$0")/../data}
REPS=${REPS:-3}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# best-of-REPS wall time of "$@", in seconds
best() {
  b=""
  i=0
  while [ "$i" -lt "$REPS" ]; do
    s=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" -eq 1 ]; then b=$t; fi
    i=$((i + 1))
  done
  printf '%.3f' "$b"
}
# CPU seconds (user + system) of one run of "$@"
cpu() { { /usr/bin/time -f '%U %S' "$@" > /dev/null 2>/dev/null; } 2>&1 | tail -n 1 | awk '{ printf "%.3f", $1 + $2 }'; }
bar() { [ "$(echo "$1 < $2" | bc -l)" -eq 1 ] && echo met || echo MISSED; }

echo "bench: committee, best of $REPS runs, $cores cores"
echo "bench: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
ref=$(best "$BBSIZE" size)
printf 'bench: reference: bbsize size (default workload) %.3f s\n' "$ref"

t=$(best "$BBSIZE" design --pfs-bw 0.8TB/s:3.25TB/s:0.05TB/s --csv)
n=$("$BBSIZE" design --pfs-bw 0.8TB/s:3.25TB/s:0.05TB/s --csv | sed 1d | wc -l)
printf 'bench: design, %d PFS bandwidths, half-budget rule: %.3f s (%s s CPU), %.1f x size, bar 2 s: %s\n' \
  "$n" "$t" "$(cpu "$BBSIZE" design --pfs-bw 0.8TB/s:3.25TB/s:0.05TB/s --csv --threads 1)" \
  "$(echo "$t / $ref" | bc -l)" "$(bar "$t" 2)"
t=$(best "$BBSIZE" frontier --csv)
printf 'bench: frontier, default bandwidths: %.3f s, %.1f x size\n' "$t" "$(echo "$t / $ref" | bc -l)"

# four groups: the default workload's, data merged into chemistry
sed 's/,data$/,chemistry/' "$DATA/workloads/groups.csv" > "$T/g4.csv"
for k in 100 20; do
  t=$(best "$BBSIZE" partition "$T/g4.csv" --steps "$k")
  printf 'bench: partition, 4 groups, %3d steps: %.3f s (%s s CPU on 1 thread), %.1f x size, bar 2 s: %s\n' \
    "$k" "$t" "$(cpu "$BBSIZE" partition "$T/g4.csv" --steps "$k" --threads 1)" \
    "$(echo "$t / $ref" | bc -l)" "$(bar "$t" 2)"
done

e0=$("$BBSIZE" size --json | sed -n 's/^ *"evaluations": *\([0-9]*\).*/\1/p')
e1=$("$BBSIZE" size --json --dwpd 30 --lifetime 5 --rated-years 5 --waf 1 | sed -n 's/^ *"evaluations": *\([0-9]*\).*/\1/p')
e2=$("$BBSIZE" size --json --dwpd 3 --lifetime 5 --rated-years 5 --waf 2 | sed -n 's/^ *"evaluations": *\([0-9]*\).*/\1/p')
printf 'bench: endurance: size %s solves; with a rating the stall size meets (30 a day) %s; one that sets the size (3 a day, waf 2) %s\n' \
  "$e0" "$e1" "$e2"
