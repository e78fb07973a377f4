#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The discrete ON/OFF chain (--model chain) as a user meets it: the
# workload's burst column, its refusals, the hand-worked modulated chain
# through idle, the model and time unit named in every one-line answer,
# simulate --mode onoff and validate against it.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
M="--model chain"

# The hand-worked chain of t_onoff.c: b = 150, p = 1/2, B = 100, S = 50,
# mean burst 4 units, the writer waiting through its stall of half a unit
# (the 50 quanta of excess over B): idle 3/19, quiet 14/19 (at burst 2,
# the memoryless 1/(1 - p), the model is the paper's Bernoulli chain,
# whose whole stall unit gives 1/7).
cat >"$T/h4.csv" <<'CSV'
#@ pfs-bw = 100
#@ time-unit = 1 s
name,p,bw,burst
only,0.5,150,4
CSV
sed 's/,4$/,4s/' "$T/h4.csv" >"$T/h4s.csv"
sed 's/,4$/,2/' "$T/h4.csv" >"$T/h2.csv"
sed 's/,4$/,0.5/' "$T/h4.csv" >"$T/short.csv"
sed 's/,4$/,0/' "$T/h4.csv" >"$T/zero.csv"
printf '#@ pfs-bw = 100\nname,p,bw,burst\nbusy,0.8,50,3\n' >"$T/gap.csv"

t_run "idle with a burst column" 0 "$BBSIZE" idle $M "$T/h4.csv" --bb-size 50 --json
t_close "idle is 3/19 (hand-worked modulated chain)" "$(json_num idle_fraction "$T/out")" 0.157894736842105 1e-11
t_close "quiet is 14/19" "$(json_num quiet_fraction "$T/out")" 0.736842105263158 1e-11
t_match "JSON names the bursts model" '"model": "chain"' "$T/out"
t_run "a burst as a duration" 0 "$BBSIZE" idle $M "$T/h4s.csv" --bb-size 50 --json
t_close "4s at a 1 s time unit is 4 units" "$(json_num idle_fraction "$T/out")" 0.157894736842105 1e-11
t_run "idle one line" 0 "$BBSIZE" idle $M "$T/h4.csv" --bb-size 50
t_match "idle line names the model and time unit" 'model chain \(1 burst class, 2 phases\), time unit 1 s$' "$T/out"
t_run "the memoryless burst is today's model" 0 "$BBSIZE" idle $M "$T/h2.csv" --bb-size 50 --json
t_close "burst 1/(1-p) gives 1/7" "$(json_num idle_fraction "$T/out")" 0.142857142857143 1e-12
t_match "and is called Bernoulli" '"model": "Bernoulli"' "$T/out"
t_err "a burst shorter than one unit is refused" 65 'burst 0.5 s is 0.5 time units, shorter than max\(1, p/\(1-p\)\) = 1 time units: an I/O phase lasts at least one time unit' "$BBSIZE" idle $M "$T/short.csv" --bb-size 50
t_err "a burst shorter than p/(1-p) is refused, saying why" 65 'shorter than max\(1, p/\(1-p\)\) = 4 time units: with this p the gaps' "$BBSIZE" size $M "$T/gap.csv"
t_err "a zero burst is refused with its line" 65 'zero.csv:4: field .burst.: .0. is not positive' "$BBSIZE" idle $M "$T/zero.csv" --bb-size 50
t_run "size with bursts" 0 "$BBSIZE" size $M "$T/h4.csv" --target-idle 0.01
t_match "size line names the model and time unit" '^burst buffer .*; model chain \(1 burst class, 2 phases\), time unit 1 s$' "$T/out"
t_run "size without bursts" 0 "$BBSIZE" size
t_match "and names Bernoulli and 1 min" '; model Bernoulli, time unit 1 min; [0-9.]* drive writes a day$' "$T/out"
t_run "threshold with bursts" 0 "$BBSIZE" threshold $M "$T/h4.csv" --bb-size 400 --target-idle 0.1
t_match "threshold line names the model" 'model chain' "$T/out"

t_run "sweep with bursts" 0 "$BBSIZE" sweep $M "$T/h4.csv" --bb-size 0:100:50 --csv --threads 1
t_close "sweep's S = 50 row is 3/19" "$(awk -F, '$7 == 50 { print $8 }' "$T/out")" 0.157894736842105 1e-11
t_run "report with bursts" 0 "$BBSIZE" report $M "$T/h4.csv" -o "$T/r.html"
t_match "the report names the model and time unit" 'comes from the model chain \(1 burst class, 2 phases\), time unit 1 s' "$T/r.html"

# simulate --mode onoff is the modulated chain with waiting writers: a
# long run covers its idle, worked here by hand.  Over the normal units
# the states are (phase, load): A = (ON, 0) writes 150, 50 into the buffer
# -> (ON, 50) 3/4, (OFF, 50) 1/4; (ON, 50) overflows by 50, a stall of
# 50/100 = half a unit (the held data alone; the buffer stays at 50)
# during which the writer waits ON, then the normal step: -> (ON, 50) 3/4,
# (OFF, 50) 1/4; an OFF state drains to 0 and turns ON with 1/4.  So the
# level is 50 exactly after an ON unit: stationary A 1/8, (ON, 50) 3/8,
# (OFF, 0) 3/8, (OFF, 50) 1/8; stalled time 3/16 per normal unit, so idle
# = (3/16)/(19/16) = 3/19 (= 1 - X/E: X = 150 (1/2)/(19/16) = 75 (16/19)).
# A 99.9% interval: one seed's 95% interval misses 1 time in 20 (seed 3's
# [0.1564, 0.1575] does), and 3/17 stays far outside either.
t_run "simulate --mode onoff" 0 "$BBSIZE" simulate "$T/h4.csv" --bb-size 50 --mode onoff --horizon 50000 --replications 10 --seed 3 --confidence 0.999 --json
lo=$(json_num idle_fraction_low "$T/out"); hi=$(json_num idle_fraction_high "$T/out")
awk -v l="$lo" -v h="$hi" 'BEGIN { x = 3 / 19; exit !(l != "" && l <= x && x <= h) }' \
  && t_ok "its interval [$lo, $hi] covers 3/19" || t_fail "its interval [$lo, $hi] covers 3/19" "$T/out"
awk -v l="$lo" -v h="$hi" 'BEGIN { x = 3 / 17; exit !(l != "" && !(l <= x && x <= h)) }' \
  && t_ok "and not the whole stall unit's 3/17" || t_fail "and not the whole stall unit's 3/17" "$T/out"
t_run "validate --mode onoff" 0 "$BBSIZE" validate $M "$T/h4.csv" --bb-size 0:100:50 --mode onoff --horizon 20000 --replications 10
t_match "validate names the analytic model" 'analytic model chain, onoff applications simulated' "$T/out"
# Beyond 64 phases: the approximation, which says so and gives no interval
# it has not measured.
{ echo '#@ pfs-bw = 100 B/s'; echo '#@ time-unit = 1 s'; echo 'name,p,bw,burst'
  for i in 1 2 3 4 5 6 7; do echo "app$i,0.0$i,$((40 + 10 * i)) B/s,$((2 + i))"; done; } >"$T/many.csv"
t_run "idle with 7 burst classes (128 phases)" 0 "$BBSIZE" idle $M "$T/many.csv" --bb-size 100 --resolution 10
t_match "is approximate and says so" 'model chain approximate \(7 burst classes, 128 phases: [0-9] kept exact in [0-9]+ phases' "$T/out"
t_run "its JSON" 0 "$BBSIZE" idle $M "$T/many.csv" --bb-size 100 --resolution 10 --json
t_match "is not exact" '"exact": false' "$T/out"
t_match "and has no interval" '"idle_fraction_low": null' "$T/out"

# generate writes bursts that the readers take.
t_run "generate --burst" 0 "$BBSIZE" generate --apps 3 --burst 5 --seed 2 -o "$T/g.csv"
t_match "with a burst column" '^name,p,bw,burst$' "$T/g.csv"
t_run "idle on the generated bursts" 0 "$BBSIZE" idle $M "$T/g.csv" --bb-size 100
t_match "solved as bursts" 'model chain \(3 burst classes, 8 phases\)' "$T/out"
t_err "generate --burst pd needs periods" 64 "option '--burst' needs option '--d-min'" "$BBSIZE" generate --burst pd
t_done
