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
"$BAPPROX" 0 "$NW" >"$T/part1"
grep -v '^raw' "$T/part1"
echo
# The calibration (fluid_approx.h): half-width h = max(ln spread, C folded);
# C is the smallest multiple of 0.025 covering 95% of the calibration
# half's points; then both halves at that C and with the spread alone.
awk '/^raw [01] / { n++; h[n] = $2; e[n] = $3 < 0 ? -$3 : $3; s[n] = $4; f[n] = $5 }
  function cov(C, half,   i, k, m) { k = m = 0
    for (i = 1; i <= n; i++) if (h[i] == half) { m++; x = s[i] > C * f[i] ? s[i] : C * f[i]; k += e[i] <= x }
    return k / m }
  END { for (j = 1; j <= 40; j++) if (cov(0.025 * j, 0) >= 0.95) break
        C = 0.025 * j
        printf "calibration: C = %.3f (the smallest multiple of 0.025 covering >= 95%% of the calibration half: %.1f%%); ", C, 100 * cov(C, 0)
        printf "validation half at that C: %.1f%%; the spread alone (C = 0): calibration %.1f%%, validation %.1f%%\n", 100 * cov(C, 1), 100 * cov(0, 0), 100 * cov(0, 1) }' "$T/part1"
echo

echo "## 2. Against the fluid simulator (20 applications)"
echo
echo "| workload | size (approx) | size interval | idle approx [interval] | simulated idle [95% CI] | covered |"
echo "| --- | --- | --- | --- | --- | --- |"
# jnum KEY FILE: the number after "KEY": in pretty-printed JSON
jnum() { sed -n "s/^ *\"$1\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$2" | head -n 1; }
n=0 c=0
for spec in "1 0.8 0.1 10" "2 0.8 0.1 60" "3 0.5 0.1 10" "4 0.65 0.3 10" "5 0.9 0.1 10" \
            "6 0.8 0.5 10" "7 0.5 0.5 60" "8 0.9 0.3 1"; do
  set -- $spec
  "$BBSIZE" generate --seed "$1" --load "$2" --p-max "$3" --burst "$4" >"$T/w.csv"
  "$BBSIZE" size "$T/w.csv" --json >"$T/size.json"
  S=$(jnum bb_size_bytes "$T/size.json")
  # horizon: about 2e5 ON periods of one application per replication
  "$BBSIZE" simulate "$T/w.csv" --bb-size "$S" --mode fluid --horizon $((200000 * $4)) \
    --replications 100 --seed 1 --json >"$T/sim.json" 2>/dev/null
  row=$(awk -v w="seed $1, load $2, p<$3, burst $4" -v S="$S" \
    -v i="$(jnum idle_fraction "$T/size.json")" -v lo="$(jnum idle_fraction_low "$T/size.json")" \
    -v hi="$(jnum idle_fraction_high "$T/size.json")" -v slo="$(jnum bb_size_bytes_low "$T/size.json")" \
    -v shi="$(jnum bb_size_bytes_high "$T/size.json")" -v si="$(jnum idle_fraction "$T/sim.json")" \
    -v sl="$(jnum idle_fraction_low "$T/sim.json")" -v sh="$(jnum idle_fraction_high "$T/sim.json")" \
    'BEGIN { cov = si + 0 >= lo + 0 && si + 0 <= hi + 0
             printf "%d|| %s | %.6g | [%.6g, %.6g] | %.4g [%.4g, %.4g] | %.4g [%.4g, %.4g] | %s |\n",
               cov, w, S, slo, shi, i, lo, hi, si, sl, sh, cov ? "yes" : "**no**" }')
  echo "|${row#*||}"
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
