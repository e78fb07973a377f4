#!/bin/sh
# b_sim.sh: simulator benchmark: events per second in both modes, the wall
# time of the paper's Figure 4 protocol (20 applications, 15 replications,
# T_max = 1000, 30 buffer sizes, analytic + simulation), and the table of
# quasi-periodic versus chain idle fractions as d_min varies (Section 6.3).
# Usage: BBSIZE=src/bbsize sh bench/b_sim.sh   (or `make bench-sim`)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
: "${BBSIZE:=src/bbsize}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The paper's generator (Sections 4.3, 5.3, 6.3): p_i ~ U(0, p_max),
# b_i ~ U(0, 1) scaled so that sum p_i b_i = alpha B, d_i ~ U(d_min, 2 d_min);
# B = 100 data units per time unit, R = 100 (one quantum = one data unit).
gen() { # seed n p_max alpha d_min
    awk -v seed="$1" -v n="$2" -v pmax="$3" -v alpha="$4" -v dmin="$5" 'BEGIN {
        srand(seed); sum = 0
        for (i = 1; i <= n; i++) { p[i] = rand() * pmax; b[i] = rand(); d[i] = dmin * (1 + rand()); sum += p[i] * b[i] }
        print "#@ pfs-bw = 100"; print "#@ resolution = 100"; print "name,p,bw,period"
        for (i = 1; i <= n; i++) printf "app%d,%.6f,%.6f,%.6f\n", i, p[i], b[i] * alpha * 100 / sum, d[i]
    }'
}
now() { date +%s.%N; }
cpu() { awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat 2>/dev/null || echo 0; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
events() { sed -n 's/.*"events": \([0-9]*\),.*/\1/p' "$1"; }

PMAX=0.2
ALPHA=0.8
gen 1 20 $PMAX $ALPHA 5 >"$T/w.csv"
echo "# bbsize simulator benchmark ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "workload: 20 applications, p_max = $PMAX, E/B = $ALPHA, B = 100 quanta per time unit"
echo

echo "## Events per second"
echo
echo "| mode | events | wall s | events/s |"
echo "|---|---:|---:|---:|"
t0=$(now)
"$BBSIZE" simulate "$T/w.csv" --bb-size 200 --horizon 1000000 --replications 8 --json --quiet >"$T/b.json"
t1=$(now)
e=$(events "$T/b.json")
echo "| bernoulli (8 x 10^6 time units) | $e | $(elapsed "$t0" "$t1") | $(awk -v e="$e" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3g", e / (b - a) }') |"
t0=$(now)
"$BBSIZE" simulate "$T/w.csv" --bb-size 200 --horizon 100000 --replications 8 --mode periodic \
    --d-min 0.5 --noise 0.1 --json --quiet >"$T/p.json"
t1=$(now)
e=$(events "$T/p.json")
echo "| periodic, d_min = 0.5 (8 x 10^5 time units) | $e | $(elapsed "$t0" "$t1") | $(awk -v e="$e" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3g", e / (b - a) }') |"
echo

echo "## Figure 4 protocol: 30 sizes x 15 replications x T_max = 1000, analytic + simulated"
echo
echo "| mode | wall s | sizes agreeing |"
echo "|---|---:|---:|"
for mode in bernoulli periodic; do
    extra=""
    [ "$mode" = periodic ] && extra="--d-min 10 --noise 0.1"
    t0=$(now)
    # shellcheck disable=SC2086
    "$BBSIZE" validate "$T/w.csv" --bb-size 0:580:20 --replications 15 --horizon 1000 \
        --mode $mode $extra --csv --quiet >"$T/f4.csv"
    t1=$(now)
    agree=$(awk -F, 'NR > 1 { a += $7 } END { print a "/" NR - 1 }' "$T/f4.csv")
    echo "| $mode | $(elapsed "$t0" "$t1") | $agree |"
done
echo

echo "## Quasi-periodic applications against the chain (Section 6.3, Figure 4)"
echo
echo "Idle fraction, analytic (chain) and simulated (Algorithm 3, noise u = 0.1, 15 x 1000"
echo "time units, 95% interval); 1/p_max = $(awk -v p=$PMAX 'BEGIN { print 1 / p }') time units."
echo
echo "| d_min | S = 0 | S = 100 | S = 200 | S = 400 |"
echo "|---|---|---|---|---|"
"$BBSIZE" validate "$T/w.csv" --bb-size 0:400:100 --replications 15 --horizon 1000 --csv --quiet \
    >"$T/chain.csv"
awk -F, 'NR > 1 && ($1 % 200 == 0 || $1 == 100) { printf " %.4f |", $3 }
    BEGIN { printf "| chain (analytic) |" } END { print "" }' "$T/chain.csv"
for f in 0.1 0.4 1 2 4 10 40; do
    d=$(awk -v f=$f -v p=$PMAX 'BEGIN { print f / p }')
    "$BBSIZE" validate "$T/w.csv" --bb-size 0:400:100 --replications 15 --horizon 1000 \
        --mode periodic --d-min "$d" --noise 0.1 --csv --quiet >"$T/per.csv"
    awk -F, -v f=$f 'NR > 1 && ($1 % 200 == 0 || $1 == 100) {
            g = $3 > 0 ? sprintf("%+.0f%%", 100 * ($4 - $3) / $3) : "";
            printf " %.4f [%.4f, %.4f] %s |", $4, $5, $6, g }
        BEGIN { printf "| %s/p_max |", f } END { print "" }' "$T/per.csv"
done
