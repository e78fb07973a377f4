#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/approx.sh: the folded fluid model (analytic/fluid_approx.h).
# 1. Against the exact solver: bench/b_fluid_approx on NW workloads that
#    fit exactly, the approximation forced by a small phase budget; the
#    table, the coverage of the printed intervals per half (calibration,
#    validation), widths and errors.
# 2. Against the fluid simulator: the paper's generator (20 applications)
#    at several loads, p_max and bursts, beyond exact reach: `bbsize size`
#    (the front door's approximation), then `bbsize simulate --mode fluid`
#    at that size; covered when the simulated idle fraction lies in the
#    printed interval.
# 3. Speed: `bbsize size` on the paper's workload (generate defaults,
#    10-unit bursts), best of REPS, against the 2 s target and against a
#    reference run in the same script: the exact fluid model's size on
#    the README example (8 phases).
# Usage: BAPPROX=bench/b_fluid_approx BBSIZE=src/bbsize sh bench/approx.sh
#   (a few minutes of CPU: run it through flock /tmp/bbsize-heavy.lock)
set -eu
: "${BAPPROX:=$(pwd)/bench/b_fluid_approx}"
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${NW:=48}"
: "${REPS:=3}"
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-approx.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "## 1. Against the exact solver ($BAPPROX 0 $NW)"
echo
"$BAPPROX" 0 "$NW" | grep -v '^raw'
echo

echo "## 2. Against the fluid simulator (20 applications)"
echo
echo "| workload | size (approx) | size interval | idle approx [interval] | simulated idle [95% CI] | covered |"
echo "| --- | --- | --- | --- | --- | --- |"
n=0 c=0
for spec in "1 0.8 0.1 10" "2 0.8 0.1 60" "3 0.5 0.1 10" "4 0.65 0.3 10" "5 0.9 0.1 10" \
            "6 0.8 0.5 10" "7 0.5 0.5 60" "8 0.9 0.3 1"; do
  set -- $spec
  "$BBSIZE" generate --seed "$1" --load "$2" --p-max "$3" --burst "$4" >"$T/w.csv"
  "$BBSIZE" size "$T/w.csv" --json >"$T/size.json"
  set -- "$@" $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(repr(d["bb_size_bytes"]), d["idle_fraction"], d["idle_fraction_low"], d["idle_fraction_high"],
      d["bb_size_bytes_low"], d["bb_size_bytes_high"])' "$T/size.json")
  # horizon: about 2e5 ON periods of one application per replication
  "$BBSIZE" simulate "$T/w.csv" --bb-size "$5" --mode fluid --horizon $((200000 * $4)) \
    --replications 40 --seed 1 --json >"$T/sim.json" 2>/dev/null
  row=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); a=sys.argv[2:]
S,idle,lo,hi,slo,shi=map(float,a[4:10])
i=d["idle_fraction"]
v=[d["idle_fraction_ci_low"], d["idle_fraction_ci_high"]]
cov=lo<=i<=hi
print("%d||seed %s, load %s, p<%s, burst %s | %.6g | [%.6g, %.6g] | %.4g [%.4g, %.4g] | %.4g [%.4g, %.4g] | %s |"
      % (cov, a[0], a[1], a[2], a[3], S, slo, shi, idle, lo, hi, i, v[0], v[1], "yes" if cov else "**no**"))' \
      "$T/sim.json" "$@")
  echo "| ${row#*||}"
  n=$((n + 1))
  c=$((c + ${row%%||*}))
done
echo
echo "coverage against the simulator: $c of $n"
echo

echo "## 3. Speed"
echo
. "$(dirname "$0")/best.sh"
cat >"$T/example.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
ref=$(best "$BBSIZE" size "$T/example.csv")
"$BBSIZE" generate --burst 10 >"$T/paper.csv"
t=$(best "$BBSIZE" size "$T/paper.csv")
awk -v t="$t" -v r="$ref" 'BEGIN { printf "paper workload (generate --burst 10), bbsize size: %.3f s (target < 2 s: %.2f of it); reference (README example, exact, 8 phases): %.3f s; ratio %.1f\n", t, t / 2, r, t / r }'
echo "   $(cat "$T/out")"
