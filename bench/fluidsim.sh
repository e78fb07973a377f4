#!/bin/sh
# fluidsim.sh: the fluid simulator's speed (simulate --mode fluid): one
# replication of about 10^6 phase changes on one thread, for 3 and 20
# applications, against the discrete ON/OFF simulation of the same
# workload over 10^6 time units (one event each) as the reference; then
# the default run (15 replications, every core) on the README's three
# applications.  Wall times are the median of 3.
# Usage: BBSIZE=src/bbsize sh bench/fluidsim.sh   (or `make bench-fluidsim`)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
: "${BBSIZE:=src/bbsize}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cat >"$T/ex.csv" <<'CSV'
#@ pfs-bw = 1TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
# 20 applications, bursts of 1 to 20 time units of 60 s, load 0.8.
"$BBSIZE" generate --seed 1 -o "$T/g.csv"
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { print $0 ",burst"; h = 1; next } { n++; print $0, 1 + (n * 7) % 20 }' "$T/g.csv" >"$T/w20.csv"
grep -q time-unit "$T/w20.csv" || sed -i '1i #@ time-unit = 60s' "$T/w20.csv"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# wall3 OUT CMD...: the median wall time of 3 runs; OUT keeps the last JSON.
wall3() {
    out=$1
    shift
    for i in 1 2 3; do
        s=$(date +%s.%N)
        "$@" >"$out"
        e=$(date +%s.%N)
        awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
    done | median
}
num() { sed -n "s/^ *\"$1\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$2" | head -n 1; }

echo "# bbsize fluid simulator benchmark ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "## One replication of about 10^6 events, one thread"
echo
echo "| workload | fluid events | fluid s | ns/event | onoff (10^6 units) s | ns/event | fluid / onoff per event |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for w in ex w20; do
    f="$T/$w.csv"
    # the horizon of 10^6 expected phase changes: events/s from a short run
    "$BBSIZE" simulate "$f" --bb-size 1PB --mode fluid --replications 1 --horizon 1e6 \
        --warmup 0 --json --quiet >"$T/r.json" 2>/dev/null
    rate=$(num events "$T/r.json")
    h=$(awk -v r="$rate" 'BEGIN { printf "%.6g", 1e6 * 1e6 / r }')
    tf=$(wall3 "$T/f.json" "$BBSIZE" simulate "$f" --bb-size 1PB --mode fluid --replications 1 \
        --threads 1 --horizon "$h" --warmup 0 --json --quiet)
    ef=$(num events "$T/f.json")
    to=$(wall3 "$T/o.json" "$BBSIZE" simulate "$f" --bb-size 1PB --mode onoff --replications 1 \
        --threads 1 --horizon 1000000 --json --quiet)
    eo=$(num events "$T/o.json")
    awk -v w="$w" -v ef="$ef" -v tf="$tf" -v eo="$eo" -v to="$to" 'BEGIN {
        printf "| %s | %d | %.3f | %.0f | %.3f | %.0f | %.2f |\n", w, ef, tf, 1e9 * tf / ef,
            to, 1e9 * to / eo, (tf / ef) / (to / eo) }'
done
echo
echo "## The default run on the README's three applications (15 replications)"
echo
t=$(wall3 "$T/d.json" "$BBSIZE" simulate "$T/ex.csv" --bb-size 1.631PB --mode fluid --json --quiet)
echo "bbsize simulate ex.csv --bb-size 1.631PB --mode fluid: $t s, $(num events "$T/d.json") events," \
    "idle $(num idle_fraction "$T/d.json") [$(num idle_fraction_low "$T/d.json"), $(num idle_fraction_high "$T/d.json")]"
