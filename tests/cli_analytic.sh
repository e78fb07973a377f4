#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The analytic commands as a user runs them: default workload, units,
# exactness in the paper's setting, JSON keys, --help, exit statuses.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
t_plan 36

t_run "size on the built-in default workload" 0 "$BBSIZE" size
t_match "size answers in one line with units" '^burst buffer [0-9.]+ (TB|PB|GB) \([0-9]+ quanta\): idle fraction' "$T/out"
[ "$(wc -l <"$T/out")" -eq 1 ] && t_ok "size prints exactly one line" || t_fail "size prints exactly one line" "$T/out"

for c in size idle dist threshold generate; do
  t_run "$c --help exits 0" 0 "$BBSIZE" $c --help
done
t_run "bbsize --version" 0 "$BBSIZE" --version
t_match "--version names the package" '^bbsize [0-9]' "$T/out"

# The paper's setting: B = R = 100, integer bandwidths: one quantum is one
# data unit.  A tiny workload solved by hand: one application b = 150,
# p = 0.5, B = 100, S = 50: states 0..100 (51..100 overflow).  From 0 a
# burst goes to 50; from 50 to 100 (overflow), which drains to 0.
# pi(0) = 1/2 pi(0) + 1/2 pi(50) + pi(100), pi(50) = pi(0)/2,
# pi(100) = pi(50)/2  =>  pi = (4, 2, 1)/7: idle 1/7, quiet 5/7.
cat >"$T/hand.csv" <<'CSV'
name,p,bw
only,0.5,150
CSV
t_run "idle on the hand-worked chain" 0 "$BBSIZE" idle "$T/hand.csv" --pfs-bw 100 --resolution 100 --time-unit 1 --bb-size 50 --json
t_close "idle fraction is exactly 1/7" "$(json_num idle_fraction "$T/out")" 0.142857142857142857 1e-14
t_close "quiet fraction is exactly 5/7" "$(json_num quiet_fraction "$T/out")" 0.714285714285714285 1e-14
t_close "one quantum is one data unit" "$(json_num quantum_bytes "$T/out")" 1 0
for k in idle_fraction quiet_fraction states bb_size_quanta load_ratio residual; do
  grep -q "\"$k\":" "$T/out" || { t_fail "idle JSON has key $k" "$T/out"; continue; }
  t_ok "idle JSON has key $k"
done
for s in umfpack gauss-seidel banded fft; do
  "$BBSIZE" idle "$T/hand.csv" --pfs-bw 100 --bb-size 50 --json --solver $s >"$T/s.json" 2>"$T/err"
  t_close "--solver $s gives 1/7 too" "$(json_num idle_fraction "$T/s.json")" 0.142857142857142857 1e-12
done
# Below the double range (issue 11): the hand chain (b = 3, B = 2 quanta at
# R = 2) has an idle fraction decaying by the golden ratio per quantum; at
# 2000 quanta it is 10^-418.76.
"$BBSIZE" idle "$T/hand.csv" --pfs-bw 100 --resolution 2 --bb-size 100000 --json >"$T/tiny.json"
t_close "idle below 1e-308 is given as log10" "$(json_num log10_idle_fraction "$T/tiny.json")" -418.7627760544 1e-9
"$BBSIZE" idle "$T/hand.csv" --pfs-bw 100 --resolution 2 --bb-size 100000 >"$T/tiny.txt"
t_match "idle prints 10^x below the double range" "^idle 10\^-418\.76" "$T/tiny.txt"
# Without a resolution, idle doubles it until the answer settles and says by how much.
"$BBSIZE" idle --bb-size 2TB >"$T/auto.txt"
t_match "idle reports the measured change of doubling R" "resolution [0-9]+ \(doubling it moves the size for the target by" "$T/auto.txt"

# size agrees with idle: the answer meets the target and one quantum less does not.
"$BBSIZE" generate --seed 7 -o "$T/paper.csv"
"$BBSIZE" size "$T/paper.csv" --target-idle 1e-4 --json >"$T/size.json"
S=$(json_num bb_size_quanta "$T/size.json")
"$BBSIZE" idle "$T/paper.csv" --bb-size "$S" --json >"$T/a.json"
"$BBSIZE" idle "$T/paper.csv" --bb-size "$((S - 1))" --json >"$T/b.json"
awk -v a="$(json_num idle_fraction "$T/a.json")" -v b="$(json_num idle_fraction "$T/b.json")" \
  'BEGIN { exit !(a <= 1e-4 && b > 1e-4) }' && t_ok "size is the smallest size meeting the target" ||
  t_fail "size is the smallest size meeting the target ($S)" "$T/a.json" "$T/b.json"

# generate is a pure function of its seed.
"$BBSIZE" generate --seed 7 >"$T/g2.csv"
cmp -s "$T/paper.csv" "$T/g2.csv" && t_ok "generate: same seed, same bytes" || t_fail "generate: same seed, same bytes"
"$BBSIZE" generate --seed 8 >"$T/g3.csv"
cmp -s "$T/paper.csv" "$T/g3.csv" && t_fail "generate: another seed, other draws" || t_ok "generate: another seed, other draws"

# Infeasible: E >= B exits 1 and states the limit 1 - B/E.
cat >"$T/over.csv" <<'CSV'
name,p,bw
a,0.75,100
b,0.5,100
CSV
t_run "E > B: exit status 1" 1 "$BBSIZE" size "$T/over.csv" --pfs-bw 100
t_match "E > B: the limit 1 - B/E = 0.2 is stated" '1 - B/E = 0\.2(,| |$)' "$T/out"
# The same with bursts (the fluid model, two applications, E/B = 1.25): no
# size suffices for a target below the limit, exit status 1.
sed -e 's/^name,p,bw$/name,p,bw,burst/' -e 's/^a,0.75,100$/a,0.75,100,20/' \
    -e 's/^b,0.5,100$/b,0.5,100,10/' "$T/over.csv" >"$T/overb.csv"
t_run "E > B, fluid: exit status 1" 1 "$BBSIZE" size --model fluid "$T/overb.csv" --pfs-bw 100
t_match "E > B, fluid: no size suffices" 'no burst-buffer size suffices' "$T/out"

# dist: CSV rows and the PFS tail.
t_run "dist --csv" 0 "$BBSIZE" dist "$T/hand.csv" --pfs-bw 100 --csv
t_match "dist --csv: load 150 has probability 0.5" '^150,150,0\.5,1,' "$T/out"
