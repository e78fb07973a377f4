#!/bin/sh
# cli_fluidsim.sh: `bbsize simulate --mode fluid` from the command line:
# the JSON keys, determinism over threads, how bursts and memoryless
# applications enter (units, the time unit), horizon and warm-up in
# seconds and their defaults, hand-worked values through the command
# (S = 0, a constant source), and every bad input with its message and
# exit status.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
: "${BBSIZE:?BBSIZE must name the bbsize binary}"
: "${BBSIZE_TOP_SRCDIR:?BBSIZE_TOP_SRCDIR must name the source tree}"
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"

# One ON/OFF source, rate 2 while ON, Pr(ON) = 0.3, bursts of 1 s, PFS 1:
# at S = 0 the writer waits: its ON periods (volumes) advance at B/b = 1/2,
# so it is ON p (b/B) / (p (b/B) + 1 - p) = 6/13 of the time and loses half
# of it: idle 3/13 (= 1 - X/E with X = B Pr(ON)).
cat >"$T/one.csv" <<'CSV'
#@ pfs-bw = 1
name,p,bw,burst
a,0.3,2,1
CSV
# The README's three applications (bursts in minutes).
cat >"$T/ex.csv" <<'CSV'
#@ pfs-bw = 1TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
# Memoryless applications at a 60 s time unit, and the same with their
# bursts written out: 1/(1 - p) time units (plain) or seconds.
cat >"$T/ml.csv" <<'CSV'
#@ pfs-bw = 10
#@ time-unit = 60s
name,p,bw
a,0.5,8
b,0.2,6
CSV
cat >"$T/ml_tu.csv" <<'CSV'
#@ pfs-bw = 10
#@ time-unit = 60s
name,p,bw,burst
a,0.5,8,2
b,0.2,6,1.25
CSV
cat >"$T/ml_s.csv" <<'CSV'
#@ pfs-bw = 10
#@ time-unit = 60s
name,p,bw,burst
a,0.5,8,120s
b,0.2,6,75s
CSV
# A constant source (p = 1) of 3 into S = 10 at PFS 1: full from t = 5 s,
# then stalled (3 - 1)/3 of the time; no events.
cat >"$T/const.csv" <<'CSV'
#@ pfs-bw = 1
name,p,bw
c,1,3
CSV

F="--mode fluid --replications 6 --quiet"
sim() { "$BBSIZE" simulate "$@"; }

sim "$T/ex.csv" --bb-size 1PB $F --seed 5 --json >"$T/a.json"
missing=""
for k in idle_fraction idle_fraction_low idle_fraction_high quiet_fraction \
         quiet_fraction_low quiet_fraction_high p_full p_full_low p_full_high \
         p_empty p_empty_low p_empty_high mean_occupancy_bytes \
         mean_occupancy_bytes_low mean_occupancy_bytes_high bb_write_bytes_per_s \
         bb_write_bytes_per_s_low bb_write_bytes_per_s_high replications seed \
         horizon_s warmup_s events; do
    grep -q "\"$k\":" "$T/a.json" || missing="$missing $k"
done
check "--json has every key of the brief (missing:$missing)" '[ -z "$missing" ]'
check "JSON records mode, seed and replications" \
    'grep -q "\"mode\": \"fluid\"" "$T/a.json" && grep -q "\"seed\": 5," "$T/a.json" && grep -q "\"replications\": 6," "$T/a.json"'
# Defaults: the slowest mean cycle is ckpt-b's 180 s / 0.05 = 3600 s; 10^4
# of them, a tenth of that as warm-up (E < B).
t_close "default horizon: 10^4 cycles of the slowest source" "$(json_num horizon_s "$T/a.json")" 36000000 1e-3
t_close "default warm-up: a tenth of the horizon" "$(json_num warmup_s "$T/a.json")" 3600000 1e-3
lo=$(json_num idle_fraction_low "$T/a.json")
hi=$(json_num idle_fraction_high "$T/a.json")
m=$(json_num idle_fraction "$T/a.json")
check "the interval brackets the mean ($lo <= $m <= $hi)" \
    'awk -v l="$lo" -v m="$m" -v h="$hi" "BEGIN { exit !(l > 0 && l <= m && m <= h && h < 1) }"'
sim "$T/ex.csv" --bb-size 1PB $F --seed 5 --json --threads 1 >"$T/b.json"
sim "$T/ex.csv" --bb-size 1PB $F --seed 5 --json --threads 3 >"$T/c.json"
check "same seed, same bytes (1, 3 and all threads)" 'cmp -s "$T/a.json" "$T/b.json" && cmp -s "$T/a.json" "$T/c.json"'
sim "$T/ex.csv" --bb-size 1PB $F --seed 6 --json >"$T/d.json"
check "another seed gives other draws" '! cmp -s "$T/a.json" "$T/d.json"'

# How bursts enter: no burst = time unit / (1 - p); a plain burst is in
# time units; the three files are the same sources.
for f in ml ml_tu ml_s; do
    sim "$T/$f.csv" --bb-size 20 $F --json 2>"$T/$f.err" | grep -v '"workload"' >"$T/$f.json"
done
check "memoryless = burst of 1/(1 - p) time units = the same in seconds" \
    'cmp -s "$T/ml.json" "$T/ml_tu.json" && cmp -s "$T/ml.json" "$T/ml_s.json"'
check "no warning when the time unit is stated" '[ ! -s "$T/ml.err" ]'
grep -v time-unit "$T/ml.csv" >"$T/ml_notu.csv"
run sim "$T/ml_notu.csv" --bb-size 20 $F --horizon 100
status_is 0 "memoryless applications at the default time unit run"
err_has "2 applications without a burst enter as memoryless" "... with a warning naming the time unit used"
sim "$T/ml.csv" --bb-size 20 $F --horizon 100 --json >"$T/ml100.json"
run sim "$T/ml_notu.csv" --bb-size 20 $F --horizon 100 --time-unit 60s --json
check "--time-unit silences it and gives the file's results" \
    '[ ! -s "$T/err" ] && [ "$(json_num idle_fraction "$T/out")" = "$(json_num idle_fraction "$T/ml100.json")" ]'

# Horizon and warm-up are seconds, even with a time unit of 60 s.
sim "$T/ml.csv" --bb-size 20 $F --horizon 1000 --warmup 0 --json >"$T/h.json"
check "--horizon 1000 is 1000 s and --warmup 0 is none" \
    '[ "$(json_num horizon_s "$T/h.json")" = "1000.0" ] && [ "$(json_num warmup_s "$T/h.json")" = "0.0" ]'
sim "$T/ml.csv" --bb-size 20 $F --horizon 2h --json >"$T/h2.json"
check "--horizon 2h is 7200 s with a warm-up of a tenth" \
    '[ "$(json_num horizon_s "$T/h2.json")" = "7200.0" ] && [ "$(json_num warmup_s "$T/h2.json")" = "720.0" ]'

# Hand-worked values through the command.
sim "$T/one.csv" --bb-size 0 $F --confidence 0.999 --json >"$T/s0.json"
lo=$(json_num idle_fraction_low "$T/s0.json")
hi=$(json_num idle_fraction_high "$T/s0.json")
check "S = 0: the 99.9% interval [$lo, $hi] covers p (b - B)/(p b + (1 - p) B) = 3/13" \
    'awk -v l="$lo" -v h="$hi" "BEGIN { x = 3 / 13; exit !(l <= x && x <= h && h - l < x / 15) }"'
check "S = 0: no occupancy" '[ "$(json_num mean_occupancy_bytes "$T/s0.json")" = "0.0" ]'
# S large, E < B: the buffer never fills; the buffer's bandwidth 0.5 alone
# throttles the writer to a share c = (1 + 0.5)/2 = 3/4, so its ON periods
# last 4/3 as long: ON a fraction (p/c)/(p/c + 1 - p) = 4/11 of the time,
# losing 1 - c of it: idle 1/11.
sim "$T/one.csv" --bb-size 1000 $F --bb-bw 0.5 --confidence 0.999 --json >"$T/bw.json"
lo=$(json_num idle_fraction_low "$T/bw.json")
hi=$(json_num idle_fraction_high "$T/bw.json")
check "--bb-bw binds: the 99.9% interval [$lo, $hi] covers 1/11" \
    'awk -v l="$lo" -v h="$hi" "BEGIN { x = 1 / 11; exit !(l <= x && x <= h && h - l < x / 7.5) }"'
sim "$T/const.csv" --bb-size 10 --mode fluid --replications 2 --horizon 100 --warmup 10 \
    --json --quiet >"$T/k.json"
t_close "a constant source: idle (3 - 1)/3 exactly" "$(json_num idle_fraction "$T/k.json")" 0.6666666667 1e-9
check "a constant source: no events, always full" \
    '[ "$(json_num events "$T/k.json")" = 0 ] && [ "$(json_num p_full "$T/k.json")" = "1.0" ]'
# Lazy with the buffer's bandwidth: the volumes balance.
sim "$T/ex.csv" --bb-size 1PB $F --policy lazy --threshold 300TB --bb-bw 300GB/s >"$T/lazy"
check "text: lazy threshold, EPS and B_BB named" \
    'grep -q "lazy draining (threshold 300 TB, EPS 0.01)" "$T/lazy" && grep -q "buffer bandwidth 300 GB/s" "$T/lazy"'
check "text: written = to PFS + left, with its error" 'grep -q "^  written .* = to PFS .* + left in buffer .*(conservation error" "$T/lazy"'
sim "$T/ex.csv" --bb-size 1PB --mode fluid --replications 6 --policy lazy --threshold 300TB \
    --bb-bw 300GB/s --threads 1 2>"$T/lazy1.err" >"$T/lazy1"
check "text: the same bytes on 1 thread, the wall time on stderr" \
    'cmp -s "$T/lazy" "$T/lazy1" && grep -q "wall .* s, .* events" "$T/lazy1.err"'
run sim --bb-size 100TB --mode fluid --threshold 0.3 --bb-bw 400GB/s --horizon 30d --quiet
check "the man page's example runs" '[ "$rc" -eq 0 ] && grep -q "lazy draining (threshold 30 TB" "$T/out" && [ ! -s "$T/err" ]'

# Bad input: options (64), data (65 with file, line, field), bounds (2).
S1="$BBSIZE simulate $T/ex.csv --bb-size 1PB --mode fluid"
expect_fail "--noise is periodic only" 64 "option '--noise' does not apply to --mode fluid" $S1 --noise 0.1
expect_fail "--d-min is periodic only" 64 "option '--d-min' does not apply" $S1 --d-min 5
expect_fail "--resolution has no meaning without quanta" 64 "option '--resolution' does not apply" $S1 --resolution 50
expect_fail "--solver has no meaning here" 64 "option '--solver' does not apply" $S1 --solver banded
expect_fail "EPS 0 never drains" 64 "'--empty-prob'" $S1 --policy lazy --empty-prob 0
expect_fail "a threshold above the size" 64 "larger than the buffer" $S1 --threshold 2PB
expect_fail "a negative warm-up" 64 "warmup" $S1 --warmup -5
expect_fail "a warm-up that is no duration" 64 "warmup" $S1 --warmup 5GB
expect_fail "horizon 0" 64 "horizon" $S1 --horizon 0
expect_fail "--bb-size is required" 64 "option '--bb-size' is required" $BBSIZE simulate "$T/ex.csv" --mode fluid
expect_fail "validate --mode fluid on a workload the Bernoulli model answers" 64 \
    "give --model fluid" $BBSIZE validate --bb-size 1PB --mode fluid
expect_fail "a run beyond --max-events is refused before it starts" 2 "would execute about" \
    $S1 --horizon 1e12
printf '#@ pfs-bw = 1\nname,p,bw,burst\na,0.3,2,1\nb,1.5,2,1\n' >"$T/badp.csv"
expect_fail "p = 1.5: file, line and field" 65 "badp.csv:4: field 'p'" \
    $BBSIZE simulate "$T/badp.csv" --bb-size 1 --mode fluid
printf '#@ pfs-bw = 1\nname,p,bw,burst\na,0.3,2,0\n' >"$T/badb.csv"
expect_fail "a burst of 0: file, line and field" 65 "badb.csv:3: field 'burst'" \
    $BBSIZE simulate "$T/badb.csv" --bb-size 1 --mode fluid
printf '#@ pfs-bw = 1\n#@ time-unit = 1d\nname,p,bw,burst\na,0.3,2,1\nb,0.3,2,1e305\n' >"$T/bigb.csv"
expect_fail "a burst that overflows in seconds: file, line and field" 65 \
    "bigb.csv:5: field 'burst'" $BBSIZE simulate "$T/bigb.csv" --bb-size 1 --mode fluid
expect_fail "a missing workload file" 66 "nosuch.csv" \
    $BBSIZE simulate "$T/nosuch.csv" --bb-size 1 --mode fluid
# A run too short to mix.  One source of 2 at p = 1/2, bursts of 1 s, into
# PFS 1: no drift, variance rate 1, so a buffer of 10^4 takes about
# 2 10^8 / pi^2 = 2e7 s to forget its empty start, against a default
# horizon of 2e4 s: the content still climbs (stationary mean 5000, the
# run sees under 200), and both commands say so; with PFS 1.5 the content
# stays near empty and nothing is said.
printf '#@ pfs-bw = 1\nname,p,bw,burst\na,0.5,2,1\n' >"$T/walk.csv"
run sim "$T/walk.csv" --bb-size 10000 $F --replications 8
status_is 0 "a run too short to mix still answers"
err_has "forget its empty start" "... and warns that the content has not mixed"
err_has "2.03e+07 s" "... with the relaxation time 2 S^2 / (pi^2 variance)"
err_has "(--horizon)" "... naming the option that lengthens it"
run "$BBSIZE" validate "$T/walk.csv" --bb-size 10000 --replications 8 --quiet
err_has "forget its empty start" "validate warns of the same run"
sed 's/pfs-bw = 1$/pfs-bw = 1.5/' "$T/walk.csv" >"$T/drift.csv"
run sim "$T/drift.csv" --bb-size 10000 $F --replications 8
check "a drifting content mixes: no warning" '[ "$rc" -eq 0 ] && [ ! -s "$T/err" ]'
t_done
