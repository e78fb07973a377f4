#!/bin/sh
# cli_options.sh: the shared options (src/options.h, src/topoload.h) have
# one range and one meaning in every command: each command accepts and
# refuses the same values of --seed, --threads, --replications, --horizon,
# --target-idle, --csv with --json, with exit status 64 for a refusal;
# seeds are read exactly; --scenario is an option of simulate and
# validate; every command that builds a dragonfly reads the same
# topologies.
#
# A value is "accepted" when the command goes on to its input and fails
# there with that input's status (66: a missing file), which keeps every
# case fast; a refusal must come first, with 64 and the option's name.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
: "${BBSIZE:?BBSIZE must name the bbsize binary}"
: "${BBSIZE_TOP_SRCDIR:?BBSIZE_TOP_SRCDIR must name the source tree}"
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
D=$BBSIZE_TOP_SRCDIR/data
NO=$T/missing          # never created: reading it fails with 66

# status CMD...: the exit status of CMD (output discarded).
status() { _s=0; "$@" >"$T/out" 2>"$T/err" || _s=$?; echo "$_s"; }

# Each command with --seed, as a prefix that fails with 66 once the
# options are accepted.
seed_cmds() {
  cat <<EOF
simulate --bb-size 100 $NO.csv
validate --bb-size 100 $NO.csv
simulate --scenario $NO.ini
validate --scenario $NO.ini
compare $NO-a.ini $NO-b.ini
generate -o $NO/dir/x.csv
device --device $NO.dev --pattern randread
bbarch --temperature $NO.csv
netload --topology $NO.conf
trace -q $NO.vef
EOF
}

# generate writes to a missing directory: 73 (cannot create), not 66.
want_for() { case $1 in generate*) echo 73 ;; *) echo 66 ;; esac; }

# accepts CMDS OPT VALUE: every command that CMDS lists goes past --OPT VALUE
# to its input (the status of want_for).
accepts() {
  "$1" | while read -r cmd; do
    w=$(want_for "$cmd")
    # shellcheck disable=SC2086
    s=$(status "$BBSIZE" $cmd "--$2" "$3")
    if [ "$s" -eq "$w" ]; then echo ok; else echo "not ok: bbsize $cmd --$2 '$3': exit $s, expected $w"; fi
  done >"$T/r"
  check "--$2 '$3' accepted by every command" '! grep -q "^not ok" "$T/r" || { sed "s/^/# /" "$T/r"; false; }'
}

# refuses CMDS OPT VALUE: every command that CMDS lists refuses --OPT VALUE
# first, with 64 and the option's name.
refuses() {
  "$1" | while read -r cmd; do
    # shellcheck disable=SC2086
    s=$(status "$BBSIZE" $cmd "--$2" "$3")
    if [ "$s" -eq 64 ] && grep -q "option '--$2'" "$T/err"; then echo ok
    else echo "not ok: bbsize $cmd --$2 '$3': exit $s, expected 64 naming --$2"; fi
  done >"$T/r"
  check "--$2 '$3' refused (64) by every command" '! grep -q "^not ok" "$T/r" || { sed "s/^/# /" "$T/r"; false; }'
}

for v in 0 1 9007199254740993 18446744073709551615; do accepts seed_cmds seed "$v"; done
for v in -1 1.5 1e3 abc "" 18446744073709551616 " 7"; do refuses seed_cmds seed "$v"; done

# Seeds are exact: 2^53 and 2^53 + 1 are different seeds (through a
# double they were the same), the same seed gives the same streams.
run_trace() {
  "$BBSIZE" trace -q --model fileload --files 8 --file-size 1GB:9GB --ranks 2 --json \
      --seed "$1" | grep -v '"seed"\|"generation_s"'
}
run_trace 9007199254740992 >"$T/s0"
run_trace 9007199254740993 >"$T/s1"
run_trace 9007199254740993 >"$T/s2"
check "trace: seeds 2^53 and 2^53+1 give different file sizes" '! cmp -s "$T/s0" "$T/s1"'
check "trace: the same seed gives the same streams" 'cmp -s "$T/s1" "$T/s2"'
"$BBSIZE" simulate --bb-size 100 --replications 2 --horizon 20 --json \
    --seed 18446744073709551615 >"$T/sim.json"
t_match "simulate --json: the largest seed as an exact decimal string" \
    '"seed": "18446744073709551615"' "$T/sim.json"
"$BBSIZE" generate --apps 2 --seed 4294967297 >"$T/g1" 2>"$T/g1.err"
"$BBSIZE" generate --apps 2 --seed 1 >"$T/g2"
check "generate: a seed above 2^32 says it is the workload of seed mod 2^32" \
    'grep -q "workload of seed 1" "$T/g1.err" && sed 1d "$T/g1" | cmp -s - "$(sed 1d "$T/g2" >"$T/g2b"; echo "$T/g2b")"'

# --threads: [0, 1024] everywhere (0: every core).
thr_cmds() {
  cat <<EOF
simulate --bb-size 100 $NO.csv
validate --bb-size 100 $NO.csv
validate --scenario $NO.ini
sweep --bb-size 0:100:10 $NO.csv
report -o $T/r.html $NO.csv
EOF
}
for v in 0 1 1024; do accepts thr_cmds threads "$v"; done
for v in -1 1025 2.5 x; do refuses thr_cmds threads "$v"; done

# --replications: [1, 10^6].
rep_cmds() {
  cat <<EOF
simulate --bb-size 100 $NO.csv
validate --bb-size 100 $NO.csv
validate --scenario $NO.ini
EOF
}
for v in 1 1000000; do accepts rep_cmds replications "$v"; done
for v in 0 1000001 -3; do refuses rep_cmds replications "$v"; done

# --horizon: a positive duration, or a plain number of the command's time unit.
hor_cmds() {
  cat <<EOF
simulate --bb-size 100 $NO.csv
validate --bb-size 100 $NO.csv
bbarch --temperature $NO.csv
EOF
}
for v in 10 2d 600s; do accepts hor_cmds horizon "$v"; done
for v in 0 -5s abc 3parsecs; do refuses hor_cmds horizon "$v"; done
"$BBSIZE" bbarch --horizon 2s --json >"$T/b2.json"
check "bbarch --horizon 2 (plain: seconds) is --horizon 2s" \
    '"$BBSIZE" bbarch --horizon 2 --json | cmp -s - "$T/b2.json"'
t_match "bbarch --horizon 2s simulates 2 s" '"horizon_s": 2' "$T/b2.json"

# --target-idle: (0, 1).
for cmd in "size $NO.csv" "threshold --bb-size 100 $NO.csv" "report -o $T/r.html $NO.csv"; do
  # shellcheck disable=SC2086
  s1=$(status "$BBSIZE" $cmd --target-idle 0.5)
  # shellcheck disable=SC2086
  s2=$(status "$BBSIZE" $cmd --target-idle 1)
  # shellcheck disable=SC2086
  s3=$(status "$BBSIZE" $cmd --target-idle 0)
  check "${cmd%% *}: --target-idle 0.5 accepted, 1 and 0 refused (64)" \
      "[ $s1 -eq 66 ] && [ $s2 -eq 64 ] && [ $s3 -eq 64 ]"
done

# --csv with --json: refused alike (64) wherever both exist.
for cmd in "dist" "sweep --bb-size 0:100:10" "validate --bb-size 100" \
    "device --preset intel-d3-s4510 --pattern randread" "netload" "trace -q --model fileload" \
    "simulate --scenario $NO.ini" "validate --scenario $NO.ini"; do
  # shellcheck disable=SC2086
  expect_fail "${cmd%% *}: --csv with --json refused (64)" 64 "exclude each other" \
      "$BBSIZE" $cmd --csv --json
done
expect_fail "the output child's -o names its option on a missing argument" 64 "requires an argument" \
    "$BBSIZE" generate -o

# --scenario: a real option of simulate and validate (either spelling),
# and the options of the other mode are refused by name.
expect_fail "simulate --scenario=FILE (missing): 66" 66 "cannot open" \
    "$BBSIZE" simulate --scenario="$NO.ini"
expect_fail "simulate FILE.ini (missing): 66" 66 "cannot open" "$BBSIZE" simulate "$NO.ini"
expect_fail "simulate: --mode with a scenario refused (64)" 64 "option '--mode' does not apply to a scenario" \
    "$BBSIZE" simulate --scenario "$NO.ini" --mode periodic
expect_fail "simulate: --bb-size with a scenario refused (64)" 64 "option '--bb-size' does not apply to a scenario" \
    "$BBSIZE" simulate "$NO.ini" --bb-size 1TB
expect_fail "simulate: two scenarios refused (64)" 64 "a second scenario after" \
    "$BBSIZE" simulate --scenario "$NO-a.ini" "$NO-b.ini"
expect_fail "simulate: --csv without a scenario refused (64)" 64 "option '--csv' does not apply without a scenario" \
    "$BBSIZE" simulate --bb-size 100 --csv
expect_fail "validate --scenario: --tolerance refused (64)" 64 "option '--tolerance' does not apply to a scenario" \
    "$BBSIZE" validate --scenario "$NO.ini" --tolerance 0.1
expect_fail "validate: --capacity without --scenario refused (64)" 64 "option '--capacity' does not apply without a scenario" \
    "$BBSIZE" validate --bb-size 100 --capacity 1TB
"$BBSIZE" simulate --help >"$T/h"
t_match "simulate --help lists --scenario" '--scenario=FILE' "$T/h"

# One topology loader: trace and bbarch read a CODES .conf as netload does.
cp "$D/network/dfdally_72.conf" "$T/"
"$BBSIZE" netload --topology "$T/dfdally_72.conf" --generate-wiring --describe >"$T/nd"
t_match "netload: the .conf is a 9 x 4 x 2 dragonfly" '9 groups x 4 routers x 2 nodes' "$T/nd"
"$BBSIZE" trace -q --model fileload --files 4 --file-size 1GB --ranks 2 --json \
    --topology "$T/dfdally_72.conf" --generate-wiring >"$T/tr.json"
t_match "trace runs on a CODES .conf (was: presets only)" "\"topology\": \"$T/dfdally_72.conf\"" "$T/tr.json"
"$BBSIZE" bbarch --horizon 5s --json --topology "$T/dfdally_72.conf" --generate-wiring \
    --bb-per-group 2 >"$T/ba.json"
t_match "bbarch runs on a CODES .conf (was: presets only)" "\"network\": \"$T/dfdally_72.conf\"" "$T/ba.json"
sed 's/routing="minimal"/routing="prog-adaptive"/' "$T/dfdally_72.conf" >"$T/par.conf"
"$BBSIZE" trace --model fileload --files 2 --topology "$T/par.conf" --generate-wiring \
    >"$T/tra" 2>/dev/null
t_match "trace routes as the .conf says when --routing is not given (as netload)" \
    'par routing' "$T/tra"
"$BBSIZE" trace --model fileload --files 2 --topology "$T/par.conf" --generate-wiring \
    --routing min >"$T/trm" 2>/dev/null
t_match "trace: --routing overrides the .conf's" 'min(imal)? routing' "$T/trm"
t_err "trace: the .conf's missing wiring files named (66)" 66 "wiring file" \
    "$BBSIZE" trace -q --model fileload --topology "$T/dfdally_72.conf"
expect_fail "bbarch: --intra without --inter refused (64)" 64 "go together" \
    "$BBSIZE" bbarch --topology graph500-72 --intra "$T/x"
t_err "trace: an unknown preset lists the names (64)" 64 "graph500-72" \
    "$BBSIZE" trace -q --model fileload --topology torus

# One device reader: every command that names a device takes a preset
# name or a .dev file, and an unknown name lists the presets (64).
"$BBSIZE" bbarch --horizon 2s --json >"$T/bd0.json"
"$BBSIZE" bbarch --horizon 2s --json --device "$D/devices/intel-d3-s4510.dev" >"$T/bd1.json"
check "bbarch --device FILE is the preset of the same file (was: refused)" 'cmp -s "$T/bd0.json" "$T/bd1.json"'
"$BBSIZE" device --preset "$D/devices/seagate-st2000nx0253.dev" --pattern randread --size 4MiB >"$T/dv1"
"$BBSIZE" device --preset seagate-st2000nx0253 --pattern randread --size 4MiB >"$T/dv2"
check "device --preset FILE.dev reads the file" 'sed 1d "$T/dv1" | cmp -s - "$(sed 1d "$T/dv2" >"$T/dv2b"; echo "$T/dv2b")"'
for cmd in "device --pattern randread --preset" "bbarch --device" "trace -q --model fileload --topology graph500-72 --device"; do
  # shellcheck disable=SC2086
  t_err "${cmd%% *}: an unknown device name lists the presets (64)" 64 "option '--(device|preset)': '[^']*' is not a device preset \(.*intel-d3-s4510" \
      "$BBSIZE" $cmd nosuchdevice
done

t_done
