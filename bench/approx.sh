#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/approx.sh: the folded fluid model beyond exact reach
# (analytic/fluid/fluid_approx.h) against the fluid simulator.
# 1. bench/b_fluid_approx eval SEED COUNT TRUTH: COUNT workloads past the
#    exact limit (seed SEED, kinds in b_fluid_approx.c), answered through
#    the front door as `bbsize` answers; the truth is TRUTH (default the
#    cache bench/approx_truth.txt, made by bench/approx_truth.sh with the
#    same seed: simulations whose 95% intervals are aimed at a half-width
#    of 3.5% and kept under 5%; the exact solver where it reaches).  The
#    table, the coverage of the printed intervals (idle at each grid size,
#    the size for idle 1e-3) per half, the median half-width.
# 2. The calibration of C (fluid_approx.h) from the raw lines: for each
#    rule of width (the folded share of the effect, of the load, the
#    larger of the two: the rule fluid_approx.h uses), the
#    smallest multiple of 0.025 covering >= 95% of the calibration half's
#    idle points, then the validation half at that C.
# 3. Speed: `bbsize size` on 600 distinct bursty applications and on
#    10,000 applications in 50 classes (count column), best of REPS.
# Usage: BAPPROX=bench/b_fluid_approx BBSIZE=src/bbsize sh bench/approx.sh
set -eu
: "${BAPPROX:=$(pwd)/bench/b_fluid_approx}"
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${SEED:=1}"
: "${COUNT:=50}"
: "${TRUTH:=$(dirname "$0")/approx_truth.txt}"
: "${REPS:=3}"
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-approx.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "## 1. Against the fluid simulator ($BAPPROX eval $SEED $COUNT, truth $(basename "$TRUTH"))"
echo
"$BAPPROX" eval "$SEED" "$COUNT" "$TRUTH" >"$T/part1"
grep -v '^raw' "$T/part1"
echo

echo "## 2. Calibration"
echo
# raw: half, workload, truth, truth_low, idle, hull_lo, hull_hi, folded, folded_load,
# the bufferless upper bound at S = 0 (0 elsewhere; HI is at least it times g),
# the prefactor rho (fluid_approx.h)
awk '/^raw [01] / { n++; h[n] = $2; t[n] = $4; x[n] = $6; l[n] = $7; u[n] = $8; w[1, n] = $9; w[2, n] = $10; w[3, n] = $9 > $10 ? $9 : $10; z[n] = $11; rho[n] = $12 }
  # the interval of rule r (width) and form f at C: f = 1 [min(lo, x / g), max(hi, rho x g)]
  # (fluid_approx.h), f = 2 the hull widened, [lo / g, rho hi g]; g = exp(C w)
  function ends(r, f, C, i,   g) { g = exp(C * w[r, i])
    if (f == 1) { LO = l[i] < x[i] / g ? l[i] : x[i] / g; HI = u[i] > rho[i] * x[i] * g ? u[i] : rho[i] * x[i] * g }
    else { LO = l[i] / g; HI = rho[i] * u[i] * g }
    if (HI < z[i] * g) HI = z[i] * g
    if (HI > 1) HI = 1 }
  function cov(r, f, C, half,   i, k, m) { k = m = 0
    for (i = 1; i <= n; i++) if (h[i] == half) { m++; ends(r, f, C, i); k += t[i] >= LO && t[i] <= HI }
    return m ? k / m : 0 }
  function mhw(r, f, C,   i, m, v, j, tmp) { m = 0
    for (i = 1; i <= n; i++) if (x[i] > 0) { ends(r, f, C, i); v[++m] = (HI - LO) / 2 / x[i] }
    for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { tmp = v[j]; v[j] = v[j - 1]; v[j - 1] = tmp }
    return m ? (m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2) : 0 }
  END { split("the folded share of the effect,the folded share of the load,the larger of the two", name, ",")
        split("[min(lo, idle/g), max(hi, idle g)];[lo/g, hi g]", form, ";")
        for (f = 1; f <= 2; f++) for (r = 1; r <= 3; r++) {
          for (j = 0; j <= 80; j++) if (cov(r, f, 0.025 * j, 0) >= 0.95) break
          C = 0.025 * j
          printf "%s, w %s: C = %.3f (calibration half %.1f%%), validation half %.1f%%, median half-width %.1f%%\n", form[f], name[r], C, 100 * cov(r, f, C, 0), 100 * cov(r, f, C, 1), 100 * mhw(r, f, C) }
        printf "the variants alone (C = 0): calibration %.1f%%, validation %.1f%%; idle points: calibration %d, validation %d\n", 100 * cov(3, 2, 0, 0), 100 * cov(3, 2, 0, 1), nh(0), nh(1) }
  function nh(half,   i, m) { m = 0; for (i = 1; i <= n; i++) m += h[i] == half; return m }' "$T/part1"
echo

echo "## 3. Speed"
echo
. "$(dirname "$0")/best.sh"
"$BBSIZE" generate --apps 600 --burst 10 --seed 5 >"$T/d600.csv"
# the workload of bench/fluid.sh and docs/fluid.md (E/B 0.70)
awk 'BEGIN { print "#@ pfs-bw = 1 TB/s"; print "name,p,bw,burst,count"
  for (i = 0; i < 50; i++) { p = 0.01 + 0.04 * i / 49
    printf "k%d,%.4f,%.4gGB/s,%ds,200\n", i, p, 0.07 / p, 30 + 6 * i } }' >"$T/c50.csv"
t1=$(best "$BBSIZE" size "$T/d600.csv")
t2=$(best "$BBSIZE" size "$T/c50.csv")
"$BBSIZE" size "$T/d600.csv" | sed 's/^/    /'
"$BBSIZE" size "$T/c50.csv" | sed 's/^/    /'
awk -v a="$t1" -v b="$t2" 'BEGIN { printf "600 distinct bursty applications (generate --apps 600 --burst 10 --seed 5), bbsize size: %.3f s (target < 10 s); 10,000 applications in 50 classes of 200 (count column), bbsize size: %.3f s (target < 2 s)\n", a, b }'
echo "    load: $(uptime | sed 's/.*load average: //')"
