#!/bin/sh
# cli_sweep.sh: `bbsize sweep`: grid order, agreement with `bbsize idle`,
# load scaling against a scaled file, thread independence, bad ranges.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
echo 1..30

run "$BBSIZE" sweep --bb-size 0:20TB:5TB --threshold 0.2,0.6 --policy greedy,lazy \
  --load-scale 1,1.3 --pfs-bw 1.45TB/s,2TB/s --csv --resolution 100
status_is 0 "a five-dimensional sweep exits 0"
cp "$T/out" "$T/grid.csv"
# 2 scales x 2 PFS x (1 greedy + 2 lazy thresholds) x 5 sizes = 60 rows.
check_cmd "one row per point (60) plus the header" test "$(wc -l < "$T/grid.csv")" -eq 61
check_cmd "the CSV header names the units" \
  grep -q '^load_scale,pfs_bw_bytes_per_s,policy,threshold_fraction,threshold_bytes,bb_size_bytes,' "$T/grid.csv"
# Grid order: load scale, PFS, policy, threshold, size innermost.
awk -F, 'NR > 1 { print $1 "/" $2 "/" $3 "/" $4 }' "$T/grid.csv" | uniq -c |
  awk '{ print $1 }' | sort -u > "$T/runs"
check_cmd "sizes are the innermost dimension (runs of 5)" test "$(cat "$T/runs")" = 5
awk -F, 'NR > 1 { print $1 }' "$T/grid.csv" | uniq > "$T/scales"
check_cmd "load scale is the outermost dimension" test "$(paste -sd' ' "$T/scales")" = "1 1.3"

# Each row equals `bbsize idle` for the same inputs (4 significant digits
# as idle prints them).
agree=0
for spec in "1 1450000000000 greedy 0 3 10TB" "1.3 2000000000000 lazy 0.6 4 15TB" "1 2000000000000 lazy 0.2 2 5TB"; do
  set -- $spec
  want=$(awk -F, -v s="$1" -v b="$2" -v p="$3" -v t="$4" -v k="$5" \
    'NR > 1 && $1 == s && $2 == b && $3 == p && $4 == t { if (++n == k) printf "%.4g", $8 }' "$T/grid.csv")
  # The workload with every bandwidth scaled by hand.
  awk -F, -v s="$1" 'BEGIN { OFS = "," } /^#/ || /^name/ { print; next }
    { sub(/GB\/s$/, "", $3); $3 = ($3 * s) "GB/s"; print }' \
    "$SRCDIR/data/workloads/default.csv" > "$T/scaled.csv"
  pol="--policy $3"; [ "$3" = lazy ] && pol="--policy lazy --threshold $4"
  # (each scaled file would settle its own resolution: both at 100 here)
  got=$("$BBSIZE" idle --bb-size "$6" --pfs-bw "${2}B/s" --resolution 100 $pol "$T/scaled.csv" | sed 's/^idle \([^ ]*\) .*/\1/')
  if [ "$want" = "$got" ]; then agree=$((agree + 1)); else echo "# $spec: sweep $want, idle $got"; fi
done
check_cmd "sweep rows equal bbsize idle on a scaled workload file (3 points)" test "$agree" -eq 3

# Idle never grows with the buffer (greedy, Theorem 3 with a larger S).
awk -F, 'NR > 1 && $3 == "greedy" { key = $1 "/" $2
  if (key == last && $8 > prev + 1e-12) bad = 1; last = key; prev = $8 } END { exit bad }' "$T/grid.csv"
check_cmd "greedy idle is non-increasing in the size" test $? -eq 0

# Same bytes whatever the number of threads.
"$BBSIZE" sweep --bb-size 0:60TB:2TB --threshold 0:1:0.25 --load-scale 1,1.5 --csv --threads 1 > "$T/t1.csv"
"$BBSIZE" sweep --bb-size 0:60TB:2TB --threshold 0:1:0.25 --load-scale 1,1.5 --csv --threads 2 > "$T/t2.csv"
"$BBSIZE" sweep --bb-size 0:60TB:2TB --threshold 0:1:0.25 --load-scale 1,1.5 --csv --threads 5 > "$T/t5.csv"
check_cmd "CSV identical with 1 and 2 threads" cmp -s "$T/t1.csv" "$T/t2.csv"
check_cmd "CSV identical with 1 and 5 threads" cmp -s "$T/t1.csv" "$T/t5.csv"
"$BBSIZE" sweep --bb-size 1TB,50TB --json --threads 1 > "$T/j1"
"$BBSIZE" sweep --bb-size 1TB,50TB --json --threads 2 > "$T/j2"
check_cmd "JSON identical with 1 and 2 threads" cmp -s "$T/j1" "$T/j2"
check_cmd "JSON has one row object per point" test "$(grep -c '"idle_fraction"' "$T/j1")" -eq 2

run "$BBSIZE" sweep --bb-size 0:10TB:5TB
check_cmd "text output has units" grep -q '1.45 TB/s .* 4.894 TB ' "$T/out"

# One front door: at the size `size` answers, sweep and idle print the same
# idle fraction (to the last digit), and it meets the target; for the
# Bernoulli model, the fluid model (a workload with bursts) and lazy
# draining alike.
cat > "$T/bursts.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
for w in "" "$T/bursts.csv" "--policy lazy --threshold 0.4"; do
  # shellcheck disable=SC2086
  "$BBSIZE" size $w --json > "$T/size.json"
  szb=$(json_num bb_size_bytes "$T/size.json")
  # shellcheck disable=SC2086
  "$BBSIZE" sweep $w --bb-size "${szb}B" --csv > "$T/one.csv"
  # shellcheck disable=SC2086
  "$BBSIZE" idle $w --bb-size "${szb}B" --json > "$T/idle.json"
  sw=$(awk -F, 'NR == 2 { print $8 }' "$T/one.csv")
  id=$(json_num idle_fraction "$T/idle.json")
  m=$(sed -n 's/^  "model": "\(.*\)",$/\1/p' "$T/idle.json")
  check_cmd "$m${w:+ ($(basename -- "$w"))}: sweep at size's answer prints idle's idle fraction ($sw, $id)" \
    awk -v a="$sw" -v b="$id" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }'
  check_cmd "$m: which meets the target" awk -v a="$id" 'BEGIN { exit !(a != "" && a <= 0.001) }'
  check_cmd "$m: size's own idle fraction is that one" \
    awk -v a="$(json_num idle_fraction "$T/size.json")" -v b="$id" 'BEGIN { exit !(a + 0 == b + 0) }'
done

# Bad input.
run "$BBSIZE" sweep --bb-size 0:4TB:0GB
status_is 64 "a zero step exits 64"
err_has "'0:4TB:0GB': the step of a range A:B:STEP must be positive" "the zero-step message names the range"
run "$BBSIZE" sweep --bb-size 0:4TB:-100GB
status_is 64 "a negative step exits 64"
err_has "'-100GB' is negative" "the negative-step message names the value"
run "$BBSIZE" sweep --bb-size 4TB:1TB:1TB
err_has "end of a range A:B:STEP is below its start" "a decreasing range is refused"
run "$BBSIZE" sweep --bb-size 1TB --threshold 0,1.5
status_is 64 "a threshold above 1 exits 64"
run "$BBSIZE" sweep --bb-size 1TB --load-scale 1,x
err_has "option '--load-scale': '1,x' is not a number" "a non-numeric load scale is refused"
run "$BBSIZE" sweep --threshold 0.2
err_has "option '--bb-size' is required (SIZES" "--bb-size is required"
run "$BBSIZE" sweep --bb-size 1TB --csv --json
status_is 64 "--csv with --json exits 64"
