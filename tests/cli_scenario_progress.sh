#!/bin/sh
# cli_scenario_progress.sh: progress and the estimate of scenario runs
# (simulate SCENARIO.ini, compare, validate --scenario): --progress writes
# progress lines on stderr ending at DONE = TOTAL, stdout is byte-identical
# with and without it, nothing off a terminal without it or with --quiet;
# a run estimated over 10 s says so before it starts.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e
# every update shown (progress.h), not only after 2 s
BBSIZE_PROGRESS_INTERVAL=0
export BBSIZE_PROGRESS_INTERVAL
S=$BBSIZE_TOP_SRCDIR/data/scenarios
cp "$BBSIZE_TOP_SRCDIR/tests/mix.ini" "$T/mix.ini"
sed '/^\[job checkpoint\]/,$d' "$T/mix.ini" >"$T/alone.ini"

# last_ops WHAT FILE: "DONE TOTAL" of the last progress line of WHAT
last_ops() {
    sed -n "s/^bbsize $1: \([0-9]*\)\/\([0-9]*\) ops.*/\1 \2/p" "$2" | tail -n 1
}
# monotone WHAT FILE: the progress lines' DONE never decreases
monotone() {
    sed -n "s/^bbsize $1: \([0-9]*\)\/.*/\1/p" "$2" |
        awk 'NR > 1 && $1 < p { bad = 1 } { p = $1; n++ } END { exit !(n > 0 && !bad) }'
}
# ends_at_total WHAT FILE [TOTAL]: the last line has DONE = its TOTAL
# (and = TOTAL when given)
ends_at_total() {
    _l=$(last_ops "$1" "$2")
    _d=${_l% *} _t=${_l#* }
    [ -n "$_l" ] && [ "$_d" -gt 0 ] && [ "$_d" -eq "$_t" ] && [ "$_t" -eq "${3:-$_t}" ]
}
# same_stdout NAME ARGS...: stdout with --progress is stdout without
same_stdout() {
    _name=$1; shift
    "$BBSIZE" "$@" >"$T/a" 2>"$T/ea"
    "$BBSIZE" "$@" --progress >"$T/b" 2>"$T/eb" || true
    if cmp -s "$T/a" "$T/b"; then t_ok "$_name: stdout identical with --progress"
    else t_fail "$_name: stdout identical with --progress" "$T/eb"; fi
}

t_plan 14
same_stdout "simulate --csv" simulate --csv "$T/mix.ini"
check "simulate: progress lines on stderr, done never decreases" 'monotone simulate "$T/eb"'
check "simulate: the last line is DONE = TOTAL" 'ends_at_total simulate "$T/eb"'
check "simulate: no progress off a terminal without --progress" \
    '! grep -q " ops" "$T/ea"'
same_stdout "simulate (text)" simulate "$T/mix.ini"
mix_ops=$(last_ops simulate "$T/eb" | cut -d' ' -f2)
"$BBSIZE" simulate --quiet --progress --csv "$T/mix.ini" >"$T/q" 2>"$T/eq"
check "--quiet wins over --progress: stderr empty" '[ ! -s "$T/eq" ]'
"$BBSIZE" simulate --progress --csv "$T/alone.ini" >/dev/null 2>"$T/ealone"
alone_ops=$(last_ops simulate "$T/ealone" | cut -d' ' -f2)
same_stdout "compare --csv" compare --csv --replicas 2 "$T/alone.ini" "$T/mix.ini"
check "compare: progress lines, done never decreases" 'monotone compare "$T/eb"'
# compare's total: 2 replicas of the alone and the mix scenarios
check "compare: ends at DONE = TOTAL = 2 x (alone ops + mix ops), as simulate counts them" \
    'ends_at_total compare "$T/eb" $((2 * (alone_ops + mix_ops)))'
same_stdout "validate --scenario --csv" validate --scenario "$T/mix.ini" --replications 2 --csv
check "validate --scenario: progress ends at DONE = TOTAL = 3 runs x mix ops" \
    'monotone validate "$T/eb" && ends_at_total validate "$T/eb" $((3 * mix_ops))'
# the estimate: printed as the run starts (stopped after 2 s)
rc=0
timeout 2 "$BBSIZE" simulate --csv "$S/mfnetsim-w1-mix-rand-adp.ini" >/dev/null 2>"$T/est" || rc=$?
check "a run estimated over 10 s says so first" \
    'head -n 1 "$T/est" | grep -Eq "^bbsize: this run is estimated at about [0-9]+ s \([0-9.e+]+ events\)$"'
rc=0
timeout 2 "$BBSIZE" simulate --quiet --csv "$S/mfnetsim-w1-mix-rand-adp.ini" >/dev/null 2>"$T/estq" || rc=$?
check "--quiet: no estimate" '! grep -q estimated "$T/estq"'
"$BBSIZE" simulate --csv "$T/mix.ini" >/dev/null 2>"$T/small"
check "a short run gives no estimate" '! grep -q estimated "$T/small"'
