#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/approx_truth.sh: the truth for bench/approx.sh: the fluid
# simulator (`bbsize simulate --mode fluid`, seed 1, THREADS threads,
# default 1: the figures are the same on any number; REPS = 15
# replications) at the grid sizes of bench/b_fluid_approx's workloads
# (frozen in bench/approx_grid.txt: GRID=FILE; GRID= makes it afresh with
# `b_fluid_approx grid SEED COUNT`), each run's 95% interval aimed at a
# half-width of HW (default 3.5%) of its estimate and kept under 10/7 HW
# (5%).  Writes "I S idle low high horizon_s events" lines to OUT
# (default bench/approx_truth.txt, the cache).
# The horizon of a point is sized from the idle fraction the front door
# predicts there (`b_fluid_approx predict`): a run of PILOT (1,250) mean
# cycles of the slowest application gives a squared relative half-width
# of about CK / idle (CK = 1.5e-5, the largest measured on such runs of
# workloads 0 to 2, at every grid size), so a half-width HW asks PILOT CK
# / (HW^2 idle) cycles (PILOT without a prediction; at least MINC = 25,
# at most 7,840 / HW^2: 640,000 at 3.5%).  A run whose half-width is above
# 9/7 HW is run again with its horizon scaled by (half-width / HW)^2 (at
# most 128 times), twice at most; one still above 10/7 HW is written
# "#wide ..." (not used).  A point whose planned run exceeds MAXEV
# events (default 2e9, a few minutes of one core; the simulator's own
# bound is 4e9) is written "#skip I S idle low high horizon_s events MAXEV" (the
# last run's figures, or the prediction and the planned run's) and not
# used; a run with a larger MAXEV retries it.
# Workloads of at most EXACT phases (default 6,000: the exact solver takes
# seconds a point up to 5,040 phases, over 4 minutes of CPU at 6,480) take
# the exact solver without its phase cap ("... 0 0 exact" lines), and so
# does size 0 of workloads of at most EXACT0 phases (default 12,000: a
# bufferless point takes seconds there); a point the exact solver refuses
# is simulated.
# It runs in pieces: points in OUT are skipped (an interrupted run resumes),
# and STRETCH=SECONDS starts no new point (or exact workload) after that
# many seconds.  The points run in passes over the grid's columns (every
# workload's size 0, then every 0.6, ...), each pass in the order of its
# planned events, the cheap ones first.  Each point (each exact workload)
# holds $LOCK (/tmp/bbsize-heavy.lock); LOCK= (empty) takes none, for a
# caller that holds it:
#   flock /tmp/bbsize-heavy.lock nice -n 5 env LOCK= STRETCH=480 THREADS=2 \
#     timeout 900 sh bench/approx_truth.sh
set -eu
: "${BAPPROX:=$(pwd)/bench/b_fluid_approx}"
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${SEED:=1}"
: "${COUNT:=50}"
: "${OUT:=bench/approx_truth.txt}"
: "${LOCK=/tmp/bbsize-heavy.lock}"
: "${GRID=$(dirname "$0")/approx_grid.txt}"
: "${STRETCH:=0}"
: "${MAXEV:=2e9}"
: "${PILOT:=1250}"
: "${EXACT:=6000}"
: "${EXACT0:=12000}"
: "${HW:=0.035}"
: "${THREADS:=1}"
: "${CK:=1.5e-5}"
: "${MINC:=25}"
: "${REPS:=15}"
start=$(date +%s)
export BBSIZE OUT MAXEV PILOT CK MINC REPS HW THREADS
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-truth.XXXXXX")
trap 'rm -rf "$T"' EXIT

if [ -n "${GRID:-}" ]; then cp "$GRID" "$T/grid"; else "$BAPPROX" grid "$SEED" "$COUNT" >"$T/grid"; fi
[ -s "$OUT" ] || echo "# bench/approx_truth.sh SEED=$SEED COUNT=$COUNT: I S idle low high horizon_s events" >"$OUT"
# one point: I S W.csv PRED (the front door's idle fraction there, or nan)
cat >"$T/one.sh" <<'ONE'
set -eu
jnum() { sed -n "s/^ *\"$1\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$2" | head -n 1; }
i=$1 S=$2 w=$3 pred=$4 d=$(dirname "$3")
# the slowest application's mean cycle L / p (s) and the expected events
# per second of a run of REPS replications, REPS sum 2 N p / L (an upper
# bound: the simulator's bbs_fluid_event_rate)
set -- $(awk -F, -v R="$REPS" 'NR > 2 && $2 > 0 && $2 < 1 { sub(/s$/, "", $4); c = $4 / $2; if (c > m) m = c
    r += R * 2 * $5 * $2 / $4 } END { printf "%.17g %.17g", m, r }' "$w")
cyc=$1 rate=$2
# the horizon for a half-width HW: PILOT cycles give a squared relative
# half-width of about CK / idle (CK measured on pilots of workloads 0 to
# 2, its largest), so PILOT CK / (HW^2 pred) cycles; PILOT without a
# prediction; at least MINC cycles, at most 7,840 / HW^2
n=$(awk -v p="$pred" -v k="$PILOT" -v c="$CK" -v m="$MINC" -v w="$HW" 'BEGIN { n = (p + 0 > 0) ? k * c / (w * w * p) : k
    if (p !~ /^[-+0-9.eE]+$/) n = k; if (n < m) n = m; if (n > 7840 / (w * w)) n = 7840 / (w * w); printf "%.6g", n }')
run() {   # run H_seconds: the JSON in $d/s.json; $line its truth line
  "$BBSIZE" simulate "$w" --mode fluid --bb-size "${S}B" --seed 1 --threads "$THREADS" --json \
    --replications "$REPS" --horizon "$1s" --warmup "$(awk -v h="$1" 'BEGIN { printf "%.0f", h / 10 }')s" \
    --max-events "$MAXEV" >"$d/s.json" 2>/dev/null
  line="$i $S $(jnum idle_fraction "$d/s.json") $(jnum idle_fraction_low "$d/s.json") $(jnum idle_fraction_high "$d/s.json") $(jnum horizon_s "$d/s.json") $(jnum events "$d/s.json")"
}
# the relative half-width of the last run (8 when its idle is 0)
hw() { awk -v i="$(jnum idle_fraction "$d/s.json")" -v l="$(jnum idle_fraction_low "$d/s.json")" \
  -v u="$(jnum idle_fraction_high "$d/s.json")" 'BEGIN { print (i > 0 ? (u - l) / 2 / i : 8) }'; }
k=0
while :; do
  H=$(awk -v n="$n" -v c="$cyc" 'BEGIN { printf "%.0f", n * c }')
  ev=$(awk -v H="$H" -v r="$rate" 'BEGIN { printf "%.4g", 1.1 * H * r }')
  if awk -v e="$ev" -v m="$MAXEV" 'BEGIN { exit !(e > m) }'; then
    # beyond the bound: the planned run's figures (or the last run's)
    [ "$k" -gt 0 ] || line="$i $S $pred nan nan $H $ev"
    echo "#skip $line $MAXEV" >>"$OUT"
    exit 0
  fi
  run "$H"
  r=$(hw)
  # within 9/7 HW, or a third run already: the truth (under 10/7 HW or marked)
  if awk -v r="$r" -v w="$HW" 'BEGIN { exit !(r <= w * 9 / 7) }'; then break; fi
  if [ "$k" -ge 2 ]; then
    awk -v r="$r" -v w="$HW" 'BEGIN { exit !(r > w * 10 / 7) }' && line="#wide $line"
    break
  fi
  n=$(awk -v n="$n" -v r="$r" -v w="$HW" 'BEGIN { s = (r / w)^2; if (s > 128) s = 128; n *= s
    if (n > 7840 / (w * w)) n = 7840 / (w * w); printf "%.6g", n }')
  k=$((k + 1))
done
echo "$line" >>"$OUT"
ONE
# the points to do, column by column: "I S" (a grid point written twice,
# as a workload whose reference size is 0 has, once)
todo() {
  awk -v M="$MAXEV" 'NR == FNR { if ($1 !~ /^#/ || $1 == "#wide" || ($1 == "#skip" && $NF + 0 >= M + 0))
      done[($1 ~ /^#/ ? $2 : $1) " " ($1 ~ /^#/ ? $3 : $2)] = 1; next }
    { k = ($1 == last) ? k + 1 : 0; last = $1; if (!(($1 " " $2) in done) && !(($1 " " $2) in seen)) print k, $1, $2
      seen[$1 " " $2] = 1 }' \
    "$OUT" "$T/grid" | sort -k1,1n -k2,2n -s >"$T/todo.k"
  cut -d' ' -f2- "$T/todo.k" >"$T/todo"
}
stretch_over() {
  if [ "$STRETCH" -gt 0 ] && [ $(($(date +%s) - start)) -ge "$STRETCH" ]; then
    echo "approx_truth.sh: stretch of ${STRETCH}s over before $1; run again to go on" >&2
    return 0
  fi
  return 1
}
# first the exact solver without its phase cap where the whole model has
# at most EXACT phases ("... 0 0 exact" lines), a workload at a time
todo
if [ "$EXACT" -gt 0 ] && [ -s "$T/todo" ]; then
  for i in $(cut -d' ' -f1 "$T/todo" | sort -n -u); do
    stretch_over "the exact solver of workload $i" && exit 0
    awk -v i="$i" '$1 == i' "$T/todo" >"$T/todo.g"
    if [ -n "$LOCK" ]; then flock "$LOCK" "$BAPPROX" exact "$SEED" "$COUNT" "$T/todo.g" "$EXACT" >>"$OUT"
    else "$BAPPROX" exact "$SEED" "$COUNT" "$T/todo.g" "$EXACT" >>"$OUT"; fi
  done
  todo
fi
# then size 0 up to EXACT0 phases, all workloads at once
if [ "$EXACT0" -gt 0 ] && awk '$2 == 0 { f = 1 } END { exit !f }' "$T/todo"; then
  if ! stretch_over "the exact solver at size 0"; then
    awk '$2 == 0' "$T/todo" >"$T/todo.g"
    if [ -n "$LOCK" ]; then flock "$LOCK" "$BAPPROX" exact "$SEED" "$COUNT" "$T/todo.g" "$EXACT0" >>"$OUT" 2>/dev/null
    else "$BAPPROX" exact "$SEED" "$COUNT" "$T/todo.g" "$EXACT0" >>"$OUT" 2>/dev/null; fi
    todo
  fi
fi
# the front door's idle fraction at each point, to size its horizon, and
# the points of each column in the order of their planned events
sort -k1,1n -s "$T/todo" >"$T/todo.g"
"$BAPPROX" predict "$SEED" "$COUNT" "$T/todo.g" >"$T/pred" 2>/dev/null || :
for i in $(cut -d' ' -f1 "$T/todo" | sort -n -u); do
  "$BAPPROX" csv "$SEED" "$i" >"$T/w$i.csv"
  awk -F, -v i="$i" -v R="$REPS" 'NR > 2 && $2 > 0 && $2 < 1 { sub(/s$/, "", $4); c = $4 / $2; if (c > m) m = c
      r += R * 2 * $5 * $2 / $4 } END { print i, m * r }' "$T/w$i.csv"
done >"$T/cost"
awk -v k="$PILOT" -v c="$CK" -v m="$MINC" -v w="$HW" 'FILENAME == ARGV[1] { e[$1] = $2; next }
  FILENAME == ARGV[2] { p[$1 " " $2] = $3; next }
  { x = p[$2 " " $3] + 0; n = x > 0 ? k * c / (w * w * x) : k; if (n < m) n = m; if (n > 7840 / (w * w)) n = 7840 / (w * w)
    printf "%d %.6g %s %s\n", $1, n * e[$2], $2, $3 }' "$T/cost" "$T/pred" "$T/todo.k" |
  sort -k1,1n -k2,2g -s | cut -d' ' -f3- >"$T/todo"
while read -r i S; do
  stretch_over "workload $i at $S B" && exit 0
  mkdir -p "$T/$i" && cp "$T/w$i.csv" "$T/$i/w.csv"
  p=$(awk -v i="$i" -v S="$S" '$1 == i && $2 == S { print $3; exit }' "$T/pred")
  if [ -n "$LOCK" ]; then flock "$LOCK" sh "$T/one.sh" "$i" "$S" "$T/$i/w.csv" "${p:-nan}"
  else sh "$T/one.sh" "$i" "$S" "$T/$i/w.csv" "${p:-nan}"; fi
done <"$T/todo"
