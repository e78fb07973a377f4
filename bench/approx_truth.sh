#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/approx_truth.sh: the truth for bench/approx.sh: the fluid
# simulator (`bbsize simulate --mode fluid`, seed 1, one thread) at the
# grid sizes of bench/b_fluid_approx's workloads (`b_fluid_approx grid
# SEED COUNT`), each run's 95% interval under 10% of its estimate: a
# pilot of 1,250 mean cycles of the slowest application (an eighth of the
# simulator's default), run again with its horizon scaled by
# (half-width / 7%)^2 (at most 128 times) when its half-width is above 9%.  Writes "I S idle low high horizon_s
# events" lines to OUT.  The runs of one workload hold
# /tmp/bbsize-heavy.lock together (one heavy process at a time on the
# shared machine).  Regenerate the cache with
#   SEED=1 COUNT=50 OUT=bench/approx_truth.txt sh bench/approx_truth.sh
# (GRID=FILE takes the grid from FILE; an interrupted run resumes, keeping
# the points already in OUT; about half an hour of one core).
set -eu
: "${BAPPROX:=$(pwd)/bench/b_fluid_approx}"
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${SEED:=1}"
: "${COUNT:=50}"
: "${OUT:=bench/approx_truth.txt}"
: "${LOCK:=/tmp/bbsize-heavy.lock}"
export BBSIZE OUT
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-truth.XXXXXX")
trap 'rm -rf "$T"' EXIT

if [ -n "${GRID:-}" ]; then cp "$GRID" "$T/grid"; else "$BAPPROX" grid "$SEED" "$COUNT" >"$T/grid"; fi
[ -s "$OUT" ] || echo "# bench/approx_truth.sh SEED=$SEED COUNT=$COUNT: I S idle low high horizon_s events" >"$OUT"
# one workload's points: I W.csv, then "S" lines on standard input
cat >"$T/one.sh" <<'ONE'
set -eu
jnum() { sed -n "s/^ *\"$1\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$2" | head -n 1; }
i=$1 w=$2 d=$(dirname "$2")
# the pilot: an eighth of the simulator's default horizon (10^4 mean
# cycles L / p of the slowest application), a tenth of it as warm-up
h=$(awk -F, 'NR > 2 && $2 > 0 && $2 < 1 { sub(/s$/, "", $4); c = $4 / $2; if (c > m) m = c }
  END { printf "%.0f", 1250 * m }' "$w")
while read -r S; do
  "$BBSIZE" simulate "$w" --mode fluid --bb-size "${S}B" --seed 1 --threads 1 --json \
    --horizon "${h}s" --warmup "$((h / 10))s" >"$d/s.json" 2>/dev/null
  scale=$(awk -v i="$(jnum idle_fraction "$d/s.json")" -v l="$(jnum idle_fraction_low "$d/s.json")" \
    -v u="$(jnum idle_fraction_high "$d/s.json")" 'BEGIN { r = i > 0 ? (u - l) / 2 / i : 8
      s = (r / 0.07)^2; print (r > 0.09 ? (s > 128 ? 128 : s) : 0) }')
  if [ "$scale" != 0 ]; then
    h2=$(awk -v h="$h" -v s="$scale" 'BEGIN { printf "%.0f", h * s }')
    "$BBSIZE" simulate "$w" --mode fluid --bb-size "${S}B" --seed 1 --threads 1 --json \
      --horizon "${h2}s" --warmup "$((h / 10))s" --max-events 4e9 >"$d/s.json" 2>/dev/null
  fi
  echo "$i $S $(jnum idle_fraction "$d/s.json") $(jnum idle_fraction_low "$d/s.json") $(jnum idle_fraction_high "$d/s.json") $(jnum horizon_s "$d/s.json") $(jnum events "$d/s.json")" >>"$OUT"
done
ONE
for i in $(awk '{ print $1 }' "$T/grid" | uniq); do
  awk -v i="$i" 'NR == FNR { if ($1 == i) done[$2] = 1; next } $1 == i && !($2 in done) { print $2 }' \
    "$OUT" "$T/grid" >"$T/todo"
  [ -s "$T/todo" ] || continue
  "$BAPPROX" csv "$SEED" "$i" >"$T/w.csv"
  flock "$LOCK" sh "$T/one.sh" "$i" "$T/w.csv" <"$T/todo"
done
