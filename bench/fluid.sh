#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/fluid.sh: speed of the fluid model (analytic/fluid/fluid.h), whole
# process (bench/b_fluid, one piece of work per process), best of REPS
# runs, against the targets of docs/fluid.md and against a reference run:
# the discrete ON/OFF chain's size on the same example at a 60 s time unit
# (bbsize size --model chain --time-unit 60s), what the fluid model replaces.  Then how
# far exact goes: size for (N + 1)^3 phases, time and peak memory.
# Usage: BFLUID=bench/b_fluid BBSIZE=src/bbsize sh bench/fluid.sh
#   (about a minute; run it through flock /tmp/bbsize-heavy.lock)
set -eu
: "${BFLUID:=$(pwd)/bench/b_fluid}"
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${REPS:=3}"
: "${NMAX:=19}"
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-fluid.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/best.sh"

cat >"$T/example.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
ref=$(REPS=1 best "$BBSIZE" size "$T/example.csv" --model chain --time-unit 60s)
echo "reference: discrete chain at 60 s, bbsize size: ${ref} s"
echo "   $(cat "$T/out")"
echo
echo "| work | phases | time | target | time/target | reference/time | answer |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
row() { # label target args...
  label=$1 target=$2
  shift 2
  t=$(best "$BFLUID" "$@")
  ans=$(cat "$T/out")
  ph=$(echo "$ans" | sed -n 's/^phases \([0-9]*\):.*/\1/p')
  awk -v l="$label" -v t="$t" -v g="$target" -v r="$ref" -v a="$ans" -v p="${ph:-8}" \
    'BEGIN { printf "| %s | %s | %.3f s | < %s s | %.2f | %.2g | %s |\n", l, p, t, g, t / g, r / t, a }'
}
row "size, README example" 0.05 example
row "idle at one size, 3 classes of 5" 0.05 idle 5
row "size, 3 classes of 9" 0.5 size 9
row "size, 3 classes of 15" 5 size 15
row "threshold search, README example" 0.5 threshold
row "100 sizes, README example" 0.5 sweep
echo
echo "the same work through bbsize (whole process: reading the file, the front"
echo "door, printing; the workloads of b_fluid written as CSV files)"
echo "| work | time | target | time/target | answer |"
echo "| --- | --- | --- | --- | --- |"
# wl N: the example with each application replaced by N of 2/N of its rate
wl() {
  awk -v n="$1" 'BEGIN { k = n > 1 ? 2 / n : 1
    print "#@ pfs-bw = 1 TB/s"; print "name,p,bw,burst"
    for (i = 1; i <= n; i++) {
      printf "a%d,0.10,%.17gB/s,300s\n", i, k * 1.5e12
      printf "b%d,0.05,%.17gB/s,180s\n", i, k * 2.0e12
      printf "c%d,0.20,%.17gB/s,120s\n", i, k * 0.6e12 } }' >"$T/w$1.csv"
}
for n in 1 5 9 15; do wl $n; done
brow() { # label target args...
  label=$1 target=$2
  shift 2
  t=$(best "$@")
  awk -v l="$label" -v t="$t" -v g="$target" -v a="$(head -c 160 "$T/out" | tr '\n' ' ')" \
    'BEGIN { printf "| %s | %.3f s | < %s s | %.2f | %s |\n", l, t, g, t / g, a }'
}
brow "size, README example" 0.05 "$BBSIZE" size "$T/w1.csv"
brow "idle at 1 PB, 3 classes of 5 (216 phases)" 0.05 "$BBSIZE" idle "$T/w5.csv" --bb-size 1PB
brow "size, 3 classes of 9 (1,000 phases)" 0.5 "$BBSIZE" size "$T/w9.csv"
brow "size, 3 classes of 15 (4,096 phases)" 2 "$BBSIZE" size "$T/w15.csv"
# issue 36's site workloads: 11 distinct bursty sources (2^11 phases);
# 500 identical applications and 50 classes of 200 (count column)
awk 'BEGIN { print "#@ pfs-bw = 1 TB/s"; print "name,p,bw,burst"
  for (i = 0; i < 11; i++)
    printf "s%d,%.3f,%.3gTB/s,%ds\n", i, 0.02 + 0.01 * i, 0.2 + 0.05 * i, 60 + 20 * i }' >"$T/d11.csv"
printf '#@ pfs-bw = 1 TB/s\nname,p,bw,burst,count\na,0.05,30GB/s,60s,500\n' >"$T/id500.csv"
awk 'BEGIN { print "#@ pfs-bw = 1 TB/s"; print "name,p,bw,burst,count"
  for (i = 0; i < 50; i++) { p = 0.01 + 0.04 * i / 49
    printf "k%d,%.4f,%.4gGB/s,%ds,200\n", i, p, 0.07 / p, 30 + 6 * i } }' >"$T/c50.csv"
# a refusal is an answer here (its status and message in the table)
try() { "$@" 2>&1 || echo "(exit $?)"; }
brow "idle at 1 PB, 11 distinct sources (2,048 phases)" 0.15 try "$BBSIZE" idle "$T/d11.csv" \
  --bb-size 1PB
brow "size, 500 identical applications (count 500)" 0.5 try "$BBSIZE" size "$T/id500.csv"
brow "size, 50 classes of 200 applications (count 200)" 2 try "$BBSIZE" size "$T/c50.csv"
brow "threshold at 1.6 PB, README example" 0.5 "$BBSIZE" threshold "$T/w1.csv" --bb-size 1.6PB
brow "sweep of 100 sizes, README example" 0.5 "$BBSIZE" sweep "$T/w1.csv" --bb-size 30TB:3PB:30TB
echo
echo "how far exact goes: size for 3 classes of N ((N + 1)^3 phases), one run"
echo "| N | phases | time | peak memory | answer |"
echo "| --- | --- | --- | --- | --- |"
for n in 9 12 15 17 $NMAX; do
  t0=$(now)
  /usr/bin/time -f "%M" -o "$T/mem" "$BFLUID" size "$n" >"$T/out"
  t1=$(now)
  awk -v n="$n" -v t0="$t0" -v t1="$t1" -v m="$(tail -1 "$T/mem")" -v a="$(cat "$T/out")" \
    'BEGIN { printf "| %d | %d | %.2f s | %.2f GB | %s |\n", n, (n + 1) ^ 3, t1 - t0, m * 1024 / 1e9, a }'
done
