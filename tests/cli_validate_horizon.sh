#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# validate's default horizon in the discrete modes (issue 35): sized from
# the predictions and the stalls' runs by the one rule of sim/crosscheck.h
# (that of report --validate too), bounded by the run's budget, and a run
# that saw no stall never disagrees unless the runs it held could have
# shown one.  The chain's cost estimate counts
# the level walk (issue 38).
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e

# Two ON/OFF applications with 10- and 5-unit bursts at E/B = 0.5: stalls
# at the chain's size come in runs of about 160 units, so the old default
# (15 x 1,000 units) sees none and judged "gap -100%".  By hand, in quanta
# of 10 (B = 10): b = 30 and 10, E = 0.1 x 30 + 0.2 x 10 = 5, mu = 5;
# sigma^2 = 900 x 0.1 x 0.9 x (2 x 10 x 0.9 - 1) + 100 x 0.2 x 0.8 x
# (2 x 5 x 0.8 - 1) = 1377 + 112 = 1489; kappa = 2 x 1489 / 25 + 10 x
# 40 / 10 = 159.12.  The rule's horizon at the prediction x over 15
# replications: t_{14, 0.975}^2 kappa / ((ln 1.5 / 2)^2 x (1 - x)) / 15,
# t = 2.144787 (a printed t table).
cat >"$T/w.csv" <<'CSV'
#@ pfs-bw = 100
#@ time-unit = 1 s
#@ resolution = 10
name,p,bw,burst
a,0.1,300,10
b,0.2,100,5
CSV
t_run "the chain's size" 0 "$BBSIZE" size "$T/w.csv" --model chain --json
S=$(json_num bb_size_bytes "$T/out")
t_run "validate at it, default horizon" 0 "$BBSIZE" validate "$T/w.csv" --mode onoff \
    --model chain --bb-size "$S" --json
t_match "it agrees" '"agree": 1,' "$T/out"
t_match "the horizon was chosen" '"horizon_chosen": true' "$T/out"
H=$(json_num horizon_units "$T/out")
check "longer than the old 1,000 units ($H)" '[ "${H%.*}" -gt 1000 ]'
K=$(json_num stall_cluster_units "$T/out")
check "the clustering is the hand-worked 159.12 ($K)" \
  'awk -v k="$K" "BEGIN { exit !(k > 159.1199 && k < 159.1201) }"'
X=$(json_num idle_fraction "$T/out")
HR=$(awk -v x="$X" 'BEGIN { h = log(1.5) / 2; t = 2.144787; printf "%.1f", t * t * 159.12 / (h * h * x * (1 - x)) / 15 }')
check "the horizon is the rule's at x = $X, $HR units by hand ($H)" \
  'awk -v a="$H" -v b="$HR" "BEGIN { exit !(a - b > -2 && a - b < 2) }"'
t_run "the old horizon" 0 "$BBSIZE" validate "$T/w.csv" --mode onoff --model chain \
    --bb-size "$S" --horizon 1000
t_match "no stall seen: below resolution, not a gap" 'inconclusive \(below resolution\)' "$T/out"
t_match "the independent chances are counted" 'about [0-9]+ independent ones \(stalls come in runs' "$T/out"
check "never a disagreement" '! grep -q "gap -100" "$T/out"'
t_run "a budget too small for the prediction" 0 "$BBSIZE" validate "$T/w.csv" --mode onoff \
    --model chain --bb-size "$S" --max-events 20000
t_match "runs the whole budget" \
    'horizon: 1[0-9]{3} time units per replication, the budget.s \(no prediction.s length fits it\)' "$T/out"
t_match "... and says what a conclusive run needs, the rule's length at the clustering" \
    "1 row still inconclusive, the longest needing about 1.19e\\+06 time units each \\(about [0-9.e+]+ s of CPU, beyond the budget\\): give --horizon ${H%.*} to run it" "$T/out"
t_run "one replication" 0 "$BBSIZE" validate "$T/w.csv" --mode onoff --model chain \
    --bb-size "$S" --replications 1
t_match "runs the least: no length concludes with one replication" \
    'horizon: 1000 time units per replication, the least \(no length concludes\)' "$T/out"
t_match "... and says why" 'no length concludes it \(one replication has no interval' "$T/out"

# The fluid model's first run is its simulator's own length; two
# replications leave the interval at 1.2 PB too wide, and the run is
# repeated once at the rule's length at the dispersion it measured.  The
# command's two paths to the fluid simulation (--mode fluid, and none
# with a bursty workload) take the same step.
cat >"$T/f.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
t_run "fluid, two replications" 0 "$BBSIZE" validate "$T/f.csv" --mode fluid \
    --bb-size 1.2PB,1.631PB --replications 2
t_match "run again at the rule's length after the simulator's own" \
    'horizon: [0-9.e+]+ s per replication, run again after a first run of [0-9.e+]+ s \(the simulator.s own\) left a row inconclusive' "$T/out"
cp "$T/out" "$T/fluid1"
t_run "the same without --mode" 0 "$BBSIZE" validate "$T/f.csv" --bb-size 1.2PB,1.631PB \
    --replications 2
check "... prints the same but for the wall time" \
  'test "$(sed "s/seed 1, [0-9.]* s$//" "$T/out")" = "$(sed "s/seed 1, [0-9.]* s$//" "$T/fluid1")"'

# The seed-2 workload of issue 38: its chain search relaxes the buffer's
# level walk over hundreds of units, and ran over 10 minutes against an
# estimate of 47 s; now it is costed with the walk and refused at the
# default bound, and at once at --max-ops 1.
"$BBSIZE" generate --apps 3 --burst 10 --load 0.7 --p-max 0.3 --seed 2 -o "$T/r2.csv"
t_err "the seed-2 chain search is refused by the default bound" 2 \
    "power steps to relax the buffer level's walk over [0-9.]+ time units" \
    "$BBSIZE" size "$T/r2.csv" --model chain
t_err "and at once with --max-ops 1" 2 "more than the bound of 1:" \
    "$BBSIZE" size "$T/r2.csv" --model chain --max-ops 1
t_done
