#!/bin/sh
# cli_fluid_approx.sh: the fluid model beyond exact reach through the
# front door: the paper's workload (20 distinct applications, 2^20
# phases) is answered by the folded model (analytic/fluid_approx.h), says
# so, and brackets its answer; size and idle agree; an exact workload has
# a zero-width interval.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
: "${BBSIZE:?BBSIZE must name the bbsize binary}"
: "${BBSIZE_TOP_SRCDIR:?BBSIZE_TOP_SRCDIR must name the source tree}"
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"

"$BBSIZE" generate --burst 10 --seed 3 >"$T/paper.csv"

run "$BBSIZE" size "$T/paper.csv"
status_is 0 "size: the folded model answers 2^20 phases"
t_match "size: the answer says it is approximate and how" \
  'model fluid, approximate \(1\.05e\+06 phases: [0-9]+ of 20 classes exact' "$T/out"
t_match "size: the answer gives the interval" 'idle fraction in \[[0-9.e-]+, [0-9.e-]+\], size for the target in \[' "$T/out"

run "$BBSIZE" size "$T/paper.csv" --json
status_is 0 "size --json"
cp "$T/out" "$T/size.json"
S=$(json_num bb_size_bytes "$T/size.json")
check "size --json: not exact" 'grep -q "\"exact\": false" "$T/size.json"'
check "size --json: idle_fraction_low <= idle_fraction <= idle_fraction_high, a real width" \
  'awk -v l="$(json_num idle_fraction_low "$T/size.json")" -v i="$(json_num idle_fraction "$T/size.json")" \
     -v h="$(json_num idle_fraction_high "$T/size.json")" "BEGIN { exit !(l < i && i < h && h < 2 * l) }"'
check "size --json: bb_size_bytes_low <= bb_size_bytes <= bb_size_bytes_high" \
  'awk -v l="$(json_num bb_size_bytes_low "$T/size.json")" -v s="$S" \
     -v h="$(json_num bb_size_bytes_high "$T/size.json")" "BEGIN { exit !(l < s && s < h) }"'

# idle at the size found: the same model, the target met, the same interval
run "$BBSIZE" idle "$T/paper.csv" --bb-size "$S" --json
status_is 0 "idle at that size"
t_close "idle at the size meets the target" "$(json_num idle_fraction "$T/out")" 0.001 1e-6
t_close "idle's interval is size's" "$(json_num idle_fraction_high "$T/out")" \
  "$(json_num idle_fraction_high "$T/size.json")" 1e-8

# Exact below 4,096 phases: the interval is the point.
cat >"$T/ex.csv" <<'CSV'
#@ pfs-bw = 1TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
run "$BBSIZE" size "$T/ex.csv" --json
status_is 0 "size, exact workload"
check "exact: idle_fraction_low = idle_fraction = idle_fraction_high, sizes too" \
  '[ "$(json_num idle_fraction_low "$T/out")" = "$(json_num idle_fraction "$T/out")" ] &&
   [ "$(json_num idle_fraction_high "$T/out")" = "$(json_num idle_fraction "$T/out")" ] &&
   [ "$(json_num bb_size_bytes_low "$T/out")" = "$(json_num bb_size_bytes "$T/out")" ] &&
   grep -q "\"exact\": true" "$T/out"'
t_done
