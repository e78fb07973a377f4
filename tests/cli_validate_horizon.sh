#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# validate's default horizon in the discrete modes (issue 35): sized from
# the predictions and the stalls' runs (sim/crosscheck.h), bounded by the
# run's budget, and a run that saw no stall never disagrees unless the
# runs it held could have shown one.  The chain's cost estimate counts
# the level walk (issue 38).
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e

# Two ON/OFF applications with 10- and 5-unit bursts at E/B = 0.5: stalls
# at the chain's size come in runs of about 160 units, so the old default
# (15 x 1,000 units) sees none and judged "gap -100%".
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
t_run "the old horizon" 0 "$BBSIZE" validate "$T/w.csv" --mode onoff --model chain \
    --bb-size "$S" --horizon 1000
t_match "no stall seen: below resolution, not a gap" 'inconclusive \(below resolution\)' "$T/out"
t_match "the independent chances are counted" 'about [0-9]+ independent ones \(stalls come in runs' "$T/out"
check "never a disagreement" '! grep -q "gap -100" "$T/out"'
t_run "a budget too small for the prediction" 0 "$BBSIZE" validate "$T/w.csv" --mode onoff \
    --model chain --bb-size "$S" --max-events 20000
t_match "runs the least and says what a conclusive run needs" \
    'horizon: 1000 time units per replication, the least .*give --horizon [0-9]+ to run it' "$T/out"

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
