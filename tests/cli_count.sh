#!/bin/sh
# cli_count.sh: the workload's count column (bbsize-workload(5)): a row of
# count N answers exactly as the same row written out N times, in every
# model (Bernoulli, fluid, the ON/OFF chain, the simulators with a seed)
# and command; tables show the row once with its count; bad counts and
# unknown columns are refused with file:line:field.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"

# $1: the file with counts; $2: the same rows written out (awk expands the
# count column, the last one, and drops it: an independent writer).
expand() {
  awk -F, '/^#/ || NF == 0 { print; next }
           !h { h = 1; sub(/,count$/, ""); print; next }
           { n = $NF; sub(/,[^,]*$/, ""); for (i = 0; i < n; i++) print }' "$1" > "$2"
}

# The Bernoulli mix: three kinds, counts 3, 1, 2 (interleaved groups).
cat > "$T/b.csv" <<'EOF'
#@ pfs-bw = 100GB/s
#@ time-unit = 1min
name,p,bw,group,count
ckpt,0.05,30GB/s,big,3
viz,0.2,10GB/s,small,1
ana,0.1,12GB/s,small,2
EOF
expand "$T/b.csv" "$T/be.csv"
check "the writer expanded 6 rows" 'test "$(grep -c ,big "$T/be.csv")" -eq 3 && test "$(grep -c ,small "$T/be.csv")" -eq 3'

# Bursty: the fluid model and (at a time unit) the ON/OFF chain.
cat > "$T/f.csv" <<'EOF'
#@ pfs-bw = 100GB/s
#@ time-unit = 10s
name,p,bw,burst,count
a,0.05,30GB/s,60s,4
b,0.2,10GB/s,30s,2
c,0.1,40GB/s,40s,1
EOF
expand "$T/f.csv" "$T/fe.csv"

# same DESC CMD...: the command's stdout on the counted file equals its
# stdout on the written-out one (the file name replaced by one word).
same() {
  _d=$1; _f=$2; _e=$3; shift 3
  rc1=0; rc2=0
  # (the run's own wall time aside)
  "$@" "$_f" 2>/dev/null | sed "s|$_f|W|g; /\"wall_s\"/d" > "$T/o1" || rc1=$?
  "$@" "$_e" 2>/dev/null | sed "s|$_e|W|g; /\"wall_s\"/d" > "$T/o2" || rc2=$?
  if [ "$rc1" = "$rc2" ] && [ -s "$T/o1" ] && cmp -s "$T/o1" "$T/o2"; then t_ok "$_d"
  else { echo "exit $rc1 vs $rc2"; diff "$T/o1" "$T/o2" | head -20; } > "$T/err"; t_fail "$_d" "$T/err"; fi
}

B=$T/b.csv; BE=$T/be.csv; F=$T/f.csv; FE=$T/fe.csv
same "Bernoulli size" "$B" "$BE" "$BBSIZE" size --json
same "Bernoulli idle" "$B" "$BE" "$BBSIZE" idle --bb-size 200GB --json
same "Bernoulli idle, lazy" "$B" "$BE" "$BBSIZE" idle --bb-size 200GB --policy lazy --threshold 0.3
same "dist" "$B" "$BE" "$BBSIZE" dist --json
same "sweep" "$B" "$BE" "$BBSIZE" sweep --bb-size 0,100GB,300GB --csv
same "threshold" "$B" "$BE" "$BBSIZE" threshold --bb-size 300GB --target-idle 0.01 --json
same "design" "$B" "$BE" "$BBSIZE" design --pfs-bw 60GB/s:100GB/s:20GB/s --json
same "frontier" "$B" "$BE" "$BBSIZE" frontier --bb-bw 50GB/s,100GB/s --csv
same "partition" "$B" "$BE" "$BBSIZE" partition --json
same "partition, simulated" "$B" "$BE" "$BBSIZE" partition --validate --seed 3 --horizon 2000 --replications 2 --json
same "simulate, Bernoulli, seeded" "$B" "$BE" "$BBSIZE" simulate --bb-size 200GB --seed 7 --horizon 5000 --replications 2 --json
same "validate, Bernoulli, seeded" "$B" "$BE" "$BBSIZE" validate --bb-size 200GB --seed 7 --horizon 5000 --replications 2 --json
same "fluid size" "$F" "$FE" "$BBSIZE" size --json
same "fluid idle, lazy" "$F" "$FE" "$BBSIZE" idle --bb-size 100GB --policy lazy --threshold 0.5 --json
same "fluid threshold" "$F" "$FE" "$BBSIZE" threshold --bb-size 300GB --target-idle 0.01 --json
same "ON/OFF chain size" "$F" "$FE" "$BBSIZE" size --model chain --json
same "ON/OFF chain idle" "$F" "$FE" "$BBSIZE" idle --model chain --bb-size 100GB --json
same "simulate, ON/OFF, seeded" "$F" "$FE" "$BBSIZE" simulate --mode onoff --bb-size 100GB --seed 5 --horizon 5000 --replications 2 --json
same "simulate, fluid, seeded" "$F" "$FE" "$BBSIZE" simulate --mode fluid --bb-size 100GB --seed 5 --horizon 20000s --replications 2 --json
same "validate, fluid, seeded" "$F" "$FE" "$BBSIZE" validate --bb-size 100GB --seed 5 --horizon 20000s --replications 2 --json

# The report: answers alike; its applications table shows each row once
# with its count.
"$BBSIZE" report --format md --points 4 -o "$T/r1.md" "$B" 2>/dev/null
"$BBSIZE" report --format md --points 4 -o "$T/r2.md" "$BE" 2>/dev/null
check "report: one table row per file row, with its count" \
  'grep -q "ckpt | 3 |" "$T/r1.md" && test "$(grep -c "^| ckpt" "$T/r1.md")" -eq 1 && test "$(grep -c "^| ckpt" "$T/r2.md")" -eq 3'
check "report: the recommendation is the same" \
  'test "$(grep -i -m1 "recommend" "$T/r1.md" | sed "s|$B|W|g")" = "$(grep -i -m1 "recommend" "$T/r2.md" | sed "s|$BE|W|g")"'

# 200 copies as one fluid class: N + 1 phases, and the same as written out.
printf '#@ pfs-bw = 1TB/s\nname,p,bw,burst,count\nj,0.01,30GB/s,30s,200\n' > "$T/c200.csv"
expand "$T/c200.csv" "$T/c200e.csv"
run "$BBSIZE" size "$T/c200.csv"
check "200 copies: one class of 201 phases" 'grep -q "1 class, 201 phases" "$T/out"'
same "200 copies: size as written out" "$T/c200.csv" "$T/c200e.csv" "$BBSIZE" size --json

# Bad counts: file, line, field; status 65.
w() { printf '%s\n' "$@" > "$T/w.csv"; }
P="--pfs-bw 100"
w "name,p,bw,count" "a,0.1,10,2" "b,0.1,10,0"
t_err "count 0" 65 "w\.csv:3: field 'count': '0' is not at least 1" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.1,10,-3"
t_err "negative count" 65 "w\.csv:2: field 'count': '-3' is not at least 1" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.1,10,2.5"
t_err "fractional count" 65 "w\.csv:2: field 'count': '2\.5' is not a whole number" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.1,10,abc"
t_err "non-numeric count" 65 "w\.csv:2: field 'count': 'abc' is not a whole number" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.1,10,"
t_err "empty count" 65 "w\.csv:2: field 'count': empty" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.1,10,99999999999999999999999"
t_err "count that overflows" 65 "w\.csv:2: field 'count': .* above the most applications a row stands for, 1000000" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.1,10,1000001"
t_err "count above the row maximum" 65 "w\.csv:2: field 'count': '1000001' is above" "$BBSIZE" size "$T/w.csv" $P
w "name,p,bw,count" "a,0.0001,1,600000" "b,0.0001,1,400000" "c,0.0001,1,1"
t_err "counts above the total maximum" 65 "w\.csv:4: field 'count': 1 brings the workload above 1000000 applications" "$BBSIZE" size "$T/w.csv" $P
# (p = 0 for the big row: DIST is O(n M), and this checks the reader; the
# cost bound counts every row, so it is raised)
w "name,p,bw,count" "idle,0,10,999999" "a,0.1,10,1"
run "$BBSIZE" dist "$T/w.csv" $P --resolution 100 --max-ops 1e14
check "the maximum total is read (dist: 1000000 applications)" \
  'test "$rc" -eq 0 && grep -q "1000000 applications" "$T/out"'
w "name,p,bw,cuont" "a,0.1,10,2"
t_err "a misspelt count is an unknown column" 65 "w\.csv:1: unknown column 'cuont'" "$BBSIZE" size "$T/w.csv" $P
t_done
