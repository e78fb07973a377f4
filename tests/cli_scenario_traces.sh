#!/bin/sh
# cli_scenario_traces.sh: trace models as scenario jobs (graph500,
# fileload, vef): the shipped example runs, volumes against closed forms
# and against `bbsize trace`, and the bad-input paths.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e
EX=$SRCDIR/data/scenarios/traces-small.ini
t_run "the shipped trace scenario runs (csv)" 0 "$BBSIZE" simulate --csv --quiet "$EX"
cp "$T/out" "$T/ex.csv"
col() { awk -F, -v j="$1" -v c="$2" '$1 == j { print $c; exit }' "$T/ex.csv"; }
t_match "every job has its model name" '^bfs,graph500,16,' "$T/ex.csv"
t_close "fileload: written bytes = bbsize trace's for the same seed and parameters" \
    "$(col files 10)" "$("$BBSIZE" trace --model fileload --files 20 --file-size 64MB:256MB \
        --pause 10ms:100ms --ranks 8 --seed 1 --json 2>/dev/null | json_num write_bytes /dev/stdin)" 0
# mpi-ring.vef: 4 x 1 MiB + 4 x 4 KiB point-to-point, a 64 KiB broadcast
# to one other task, and an 8-B allreduce over 4 tasks (recursive
# doubling: 2 rounds x 4 sends of 8 B); the barrier carries nothing.
t_close "vef: bytes sent = the trace's closed form" "$(col ring 9)" \
    $((4 * 1048576 + 4 * 4096 + 65536 + 2 * 4 * 8)) 0
t_close "graph500: its messages are sent" "$(awk -v m="$(col bfs 12)" 'BEGIN { print (m > 0) }')" 1 0

# fixed sizes: written = files x size, read as well with mode = read
cat >"$T/fl.ini" <<EOT
[topology]
preset = graph500-72
bb_per_group = 1
[job w]
model = fileload
ranks = 3
files = 7
file_size = 5MB
start = 2ms
[job r]
model = fileload
ranks = 2
files = 4
file_size = 1MiB
mode = read
EOT
t_run "fileload jobs run" 0 "$BBSIZE" simulate --csv --quiet "$T/fl.ini"
cp "$T/out" "$T/ex.csv"
t_close "written = 7 x 5 MB" "$(col w 10)" 35000000 0
t_close "read = 4 x 1 MiB" "$(col r 11)" 4194304 0
# one job: start = 2 ms ends the run exactly 2 ms later than start = 0
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[job w]\nmodel = fileload\nranks = 3\nfiles = 7\nfile_size = 5MB\n' >"$T/s0.ini"
{ cat "$T/s0.ini"; printf 'start = 2ms\n'; } >"$T/s2.ini"
"$BBSIZE" simulate --json --quiet "$T/s0.ini" >"$T/j0" 2>/dev/null
"$BBSIZE" simulate --json --quiet "$T/s2.ini" >"$T/j2" 2>/dev/null
t_close "a trace job's start time delays it" \
    "$(awk -v a="$(json_num simulated_s "$T/j2")" -v b="$(json_num simulated_s "$T/j0")" 'BEGIN { printf "%.9f", a - b }')" 0.002 1e-9

# bad input
printf '[job a]\nmodel = graph501\nranks = 4\n' >"$T/b1.ini"
expect_fail "unknown model lists all (65)" 65 "known: milc, nekbone, checkpoint, cosmoflow, graph500, fileload, vef" \
    "$BBSIZE" simulate "$T/b1.ini"
printf '[job a]\nmodel = graph500\nranks = 4\nfiles = 3\n' >"$T/b2.ini"
expect_fail "a fileload key in a graph500 job names file, line and the known keys (65)" 65 \
    "b2.ini:4: \\[job a\\] unknown key 'files' for graph500 (known:" "$BBSIZE" simulate "$T/b2.ini"
printf '[job a]\nmodel = vef\nranks = 4\n' >"$T/b3.ini"
expect_fail "vef without trace (65)" 65 "model vef needs 'trace = FILE'" \
    "$BBSIZE" simulate "$T/b3.ini"
printf '[job a]\nmodel = vef\nranks = 4\ntrace = nowhere.vef\n' >"$T/b4.ini"
expect_fail "vef trace missing (66)" 66 "trace 'nowhere.vef': no such file" \
    "$BBSIZE" simulate "$T/b4.ini"
cp "$SRCDIR/data/traces/mpi-ring.vef" "$T/ring.vef"
printf '[job a]\nmodel = vef\nranks = 5\ntrace = ring.vef\n' >"$T/b5.ini"
expect_fail "vef ranks differ from the trace's tasks (65)" 65 "ranks = 5 but trace .*ring.vef has 4 tasks" \
    "$BBSIZE" simulate "$T/b5.ini"
printf 'VEF3 2 1 1 0 1 TRUE 1000\n0 0 1 10 INDEPENDENT 0 0\n1 0 1 10 BOGUS 0 0\n' >"$T/bad.vef"
printf '[job a]\nmodel = vef\nranks = 2\ntrace = bad.vef\n' >"$T/b6.ini"
expect_fail "a bad trace names its file and line (65)" 65 "bad.vef:" \
    "$BBSIZE" simulate "$T/b6.ini"
printf '[job a]\nmodel = fileload\nranks = 2\nfile_size = 0\n' >"$T/b7.ini"
expect_fail "a bad fileload value names the key (65)" 65 "key 'file_size'" \
    "$BBSIZE" simulate "$T/b7.ini"
t_done
