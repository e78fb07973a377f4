#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/approx_truth.sh: the truth for bench/approx.sh: the fluid
# simulator (`bbsize simulate --mode fluid`, seed 1, one thread) at the
# grid sizes of bench/b_fluid_approx's workloads (`b_fluid_approx grid
# SEED COUNT`), each run's 95% interval under 10% of its estimate: a
# pilot of PILOT (default 1,250: an eighth of the simulator's default)
# mean cycles of the slowest application, run again with its horizon
# scaled by (half-width / 7%)^2 (to at most 160,000 cycles) when its
# half-width is above 9%.  Writes "I S idle low high horizon_s events"
# lines to OUT.  The runs of one point hold $LOCK
# (/tmp/bbsize-heavy.lock) together (one heavy process at a time on the
# shared machine); LOCK= (empty) takes no lock, for a caller that
# holds it: flock /tmp/bbsize-heavy.lock nice -n 5 env LOCK= sh ....
# The grid is frozen in bench/approx_grid.txt (GRID=FILE; GRID= makes it
# afresh with b_fluid_approx), so that the truth does not move with the
# model.  Regenerate the cache with
#   SEED=1 COUNT=50 OUT=bench/approx_truth.txt sh bench/approx_truth.sh
# Workloads of at most EXACT phases (default 10,000) take the exact
# solver without its phase cap as their truth ("... 0 0 exact"), the
# others the simulator.  It runs in pieces: workloads whose points are all in OUT are skipped
# (an interrupted run resumes, keeping the points already there), and
# STRETCH=SECONDS starts no new workload after that many seconds, so
# that a run of about half an hour of one core can be split into
# stretches that each hold the lock for at most ~20 minutes.  The points
# run in passes over the grid's columns (every workload's size 0, then
# every 0.6, ...), the cheap ones first.  A point whose rerun would take
# more than MAXEV simulated events (default 4e9, the simulator's bound)
# is written as "#skip I S idle low high horizon_s events MAXEV" (the
# pilot's figures) and not used; a run with a larger MAXEV retries it.
set -eu
: "${BAPPROX:=$(pwd)/bench/b_fluid_approx}"
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${SEED:=1}"
: "${COUNT:=50}"
: "${OUT:=bench/approx_truth.txt}"
: "${LOCK=/tmp/bbsize-heavy.lock}"
: "${GRID=$(dirname "$0")/approx_grid.txt}"
: "${STRETCH:=0}"
: "${MAXEV:=4e9}"
: "${PILOT:=1250}"
: "${EXACT:=10000}"
start=$(date +%s)
export BBSIZE OUT MAXEV PILOT
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-truth.XXXXXX")
trap 'rm -rf "$T"' EXIT

if [ -n "${GRID:-}" ]; then cp "$GRID" "$T/grid"; else "$BAPPROX" grid "$SEED" "$COUNT" >"$T/grid"; fi
[ -s "$OUT" ] || echo "# bench/approx_truth.sh SEED=$SEED COUNT=$COUNT: I S idle low high horizon_s events" >"$OUT"
# one point: I S W.csv
cat >"$T/one.sh" <<'ONE'
set -eu
jnum() { sed -n "s/^ *\"$1\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$2" | head -n 1; }
i=$1 S=$2 w=$3 d=$(dirname "$3")
# the pilot: PILOT mean cycles L / p of the slowest application (the
# simulator's default horizon is 10^4), a tenth of it as warm-up
h=$(awk -F, -v k="$PILOT" 'NR > 2 && $2 > 0 && $2 < 1 { sub(/s$/, "", $4); c = $4 / $2; if (c > m) m = c }
  END { printf "%.0f", k * m }' "$w")
"$BBSIZE" simulate "$w" --mode fluid --bb-size "${S}B" --seed 1 --threads 1 --json \
  --horizon "${h}s" --warmup "$((h / 10))s" >"$d/s.json" 2>/dev/null
scale=$(awk -v k="$PILOT" -v i="$(jnum idle_fraction "$d/s.json")" -v l="$(jnum idle_fraction_low "$d/s.json")" \
  -v u="$(jnum idle_fraction_high "$d/s.json")" 'BEGIN { r = i > 0 ? (u - l) / 2 / i : 8
    s = (r / 0.07)^2; c = 160000 / k; print (r > 0.09 ? (s > c ? c : s) : 0) }')
line="$i $S $(jnum idle_fraction "$d/s.json") $(jnum idle_fraction_low "$d/s.json") $(jnum idle_fraction_high "$d/s.json") $(jnum horizon_s "$d/s.json") $(jnum events "$d/s.json")"
if [ "$scale" != 0 ]; then
  if awk -v e="$(jnum events "$d/s.json")" -v s="$scale" -v m="$MAXEV" 'BEGIN { exit !(e * s * 1.2 > m) }'; then
    echo "#skip $line $MAXEV" >>"$OUT"
    exit 0
  fi
  h2=$(awk -v h="$h" -v s="$scale" 'BEGIN { printf "%.0f", h * s }')
  "$BBSIZE" simulate "$w" --mode fluid --bb-size "${S}B" --seed 1 --threads 1 --json \
    --horizon "${h2}s" --warmup "$((h / 10))s" --max-events "$MAXEV" >"$d/s.json" 2>/dev/null
  line="$i $S $(jnum idle_fraction "$d/s.json") $(jnum idle_fraction_low "$d/s.json") $(jnum idle_fraction_high "$d/s.json") $(jnum horizon_s "$d/s.json") $(jnum events "$d/s.json")"
fi
echo "$line" >>"$OUT"
ONE
# the points to do, column by column: "I S"
todo() {
  awk -v M="$MAXEV" 'NR == FNR { if ($1 !~ /^#/ || ($1 == "#skip" && $NF + 0 >= M + 0))
      done[($1 == "#skip" ? $2 : $1) " " ($1 == "#skip" ? $3 : $2)] = 1; next }
    { k = ($1 == last) ? k + 1 : 0; last = $1; if (!(($1 " " $2) in done)) print k, $1, $2 }' \
    "$OUT" "$T/grid" | sort -k1,1n -k2,2n -s | cut -d' ' -f2- >"$T/todo"
}
# first the exact solver without its phase cap where the whole model has
# at most EXACT phases (a few seconds a point; "... 0 0 exact" lines)
todo
if [ "$EXACT" -gt 0 ] && [ -s "$T/todo" ]; then
  sort -k1,1n -s "$T/todo" >"$T/todo.g"
  if [ -n "$LOCK" ]; then flock "$LOCK" "$BAPPROX" exact "$SEED" "$COUNT" "$T/todo.g" "$EXACT" >>"$OUT"
  else "$BAPPROX" exact "$SEED" "$COUNT" "$T/todo.g" "$EXACT" >>"$OUT"; fi
  todo
fi
while read -r i S; do
  if [ "$STRETCH" -gt 0 ] && [ $(($(date +%s) - start)) -ge "$STRETCH" ]; then
    echo "approx_truth.sh: stretch of ${STRETCH}s over before workload $i at $S B; run again to go on" >&2
    exit 0
  fi
  [ -s "$T/w$i.csv" ] || "$BAPPROX" csv "$SEED" "$i" >"$T/w$i.csv"
  mkdir -p "$T/$i" && cp "$T/w$i.csv" "$T/$i/w.csv"
  if [ -n "$LOCK" ]; then flock "$LOCK" sh "$T/one.sh" "$i" "$S" "$T/$i/w.csv"
  else sh "$T/one.sh" "$i" "$S" "$T/$i/w.csv"; fi
done <"$T/todo"
