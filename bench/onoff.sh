#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/onoff.sh: the bursts model as docs/model.md reports it:
# 1. convergence as the time unit shrinks with bursts fixed in seconds;
# 2. validate against quasi-periodic applications, Bernoulli chain beside
#    the bursts model (burst = p d);
# 3. speed of size and idle with bursts.
# Usage: BBSIZE=src/bbsize sh bench/onoff.sh   (a few minutes, 1 core)
set -eu
: "${BBSIZE:=$(pwd)/src/bbsize}"
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-onoff.XXXXXX")
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }

echo "## 1. time unit (bursts 5, 3 and 2 min; size for idle <= 1e-3; R = 20)"
cat >"$T/tu.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
#@ time-unit = 60 s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
prev=""
for tu in 60s 30s 15s 7.5s; do
  t0=$(now)
  line=$("$BBSIZE" size "$T/tu.csv" --time-unit $tu --resolution 20 --json)
  t1=$(now)
  b=$(echo "$line" | sed -n 's/ *"bb_size_bytes": \([0-9.e+]*\),/\1/p')
  ch=$(awk -v a="$b" -v p="$prev" 'BEGIN { if (p == "") print "-"; else printf "%+.2f%%", 100 * (a - p) / p }')
  awk -v tu=$tu -v b="$b" -v ch="$ch" -v t0=$t0 -v t1=$t1 \
    'BEGIN { printf "| %s | %.4g PB | %s | %.2f s |\n", tu, b / 1e15, ch, t1 - t0 }'
  prev=$b
done
t0=$(now)
"$BBSIZE" size "$T/tu.csv" --resolution 20
t1=$(now)
awk -v t0=$t0 -v t1=$t1 'BEGIN { printf "automatic time unit: %.2f s\n", t1 - t0 }'

echo "## 2. validate: quasi-periodic simulation (period d, u = 0) vs the chains"
for d in 20 40 100; do
  {
    echo "#@ pfs-bw = 100"
    echo "#@ time-unit = 1 s"
    echo "name,p,bw,period,burst"
    for a in "a 0.10 120" "b 0.20 60" "c 0.15 80" "d 0.05 200"; do
      set -- $a
      awk -v n=$1 -v p=$2 -v b=$3 -v d=$d 'BEGIN { printf "%s,%s,%s,%s,%g\n", n, p, b, d, p * d }'
    done
  } >"$T/q.csv"
  sed 's/,period,burst/,period/; s/,[0-9.]*$//' "$T/q.csv" >"$T/qb.csv"
  for f in qb q; do
    echo "d = $d, $f:"
    # the bursts file through the ON/OFF chain (auto would pick the fluid model)
    m=""; [ "$f" = q ] && m="--model chain"
    "$BBSIZE" validate "$T/$f.csv" $m --bb-size 0:400:100 --mode periodic --replications 15 \
      --horizon 5000 --csv
  done
done

echo "## 3. speed"
(grep '^#@' "${BBSIZE_TOP_SRCDIR:-.}/data/workloads/default.csv"; echo "name,p,bw,burst"
 sed -n '/^name,p,bw/,$p' "${BBSIZE_TOP_SRCDIR:-.}/data/workloads/default.csv" | tail -n +2 |
   awk 'NR <= 4 { print $0 ",5min"; next } { print $0 "," }') >"$T/def4.csv"
for args in "size $T/def4.csv --time-unit 60s" "idle $T/def4.csv --time-unit 60s --bb-size 132TB" \
            "size --time-unit 60s"; do
  t0=$(now)
  "$BBSIZE" $args >/dev/null
  t1=$(now)
  awk -v a="$args" -v t0=$t0 -v t1=$t1 'BEGIN { printf "%-60s %.2f s\n", a, t1 - t0 }' | sed "s|$T/||"
done

echo "## 4. the paper's workload (the default one), every burst 10 units: size, then simulate --mode onoff at it"
(grep '^#@' "${BBSIZE_TOP_SRCDIR:-.}/data/workloads/default.csv"; echo "name,p,bw,burst"
 sed -n '/^name,p,bw/,$p' "${BBSIZE_TOP_SRCDIR:-.}/data/workloads/default.csv" | tail -n +2 |
   awk '{ print $0 ",10" }') >"$T/paper10.csv"
t0=$(now)
"$BBSIZE" size "$T/paper10.csv"
t1=$(now)
awk -v t0=$t0 -v t1=$t1 'BEGIN { printf "size, bursts of 10 units: %.2f s (wall)\n", t1 - t0 }'
/usr/bin/env time -f "size, bursts of 10 units: %U s user" "$BBSIZE" size "$T/paper10.csv" >/dev/null 2>"$T/time" || true
cat "$T/time"
b=$("$BBSIZE" size "$T/paper10.csv" --json | sed -n 's/ *"bb_size_bytes": \([0-9.e+]*\),/\1/p')
for f in 0.96 1 1.04; do
  s=$(awk -v b="$b" -v f=$f 'BEGIN { printf "%.6gTB", b * f / 1e12 }')
  echo "simulate at $f x the answer ($s):"
  "$BBSIZE" simulate "$T/paper10.csv" --mode onoff --bb-size "$s" --horizon 1000000 \
    --replications 20 --seed 11 | head -1
done

echo "## 5. lazy draining with a positive threshold on the same workload"
/usr/bin/env time -f "size --threshold 0.5: %U s user" "$BBSIZE" size "$T/paper10.csv" --threshold 0.5 \
  2>"$T/time" | cut -c1-120 || true
cat "$T/time"
/usr/bin/env time -f "threshold --bb-size 2PB: %U s user" "$BBSIZE" threshold "$T/paper10.csv" \
  --bb-size 2PB 2>"$T/time" | cut -c1-120 || true
cat "$T/time"
b=$("$BBSIZE" size "$T/paper10.csv" --threshold 0.5 --json | sed -n 's/ *"bb_size_bytes": \([0-9.e+]*\),/\1/p')
s=$(awk -v b="$b" 'BEGIN { printf "%.6gTB", b / 1e12 }')
echo "simulate lazy (threshold 0.5) at the answer ($s):"
"$BBSIZE" simulate "$T/paper10.csv" --mode onoff --policy lazy --threshold 0.5 --bb-size "$s" \
  --horizon 1000000 --replications 20 --seed 11 | head -1
