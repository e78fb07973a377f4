#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/fit_accuracy.sh: how well `bbsize fit darshan` recovers known ON/OFF
# processes (tests/gen_darshan), over seeds 1..S for four kinds of logs:
#   dxt-periodic   DXT, a 30 s phase every 300 s (jitter +-5 s), 1 h
#   dxt-markov     DXT, exponential ON 30 s and OFF 270 s, 2 h
#   heat-periodic  heatmap + counters, a 60 s phase every 600 s (+-20 s), 2 h
#   heat-markov    heatmap + counters, exponential ON 60 s and OFF 540 s, 2 h
# For each: the largest relative error over the seeds of p, bw and burst
# against what the generator drew (its --truth), of the period against the
# nominal one (for the Markov logs: how many were called periodic), and
# the phases found against those drawn.  For the heatmap
# the truths are what the counters can give: p = the slowest rank's
# transfer time / run time, burst = that time / phases drawn.
# Usage: BBSIZE=src/bbsize GEN=tests/gen_darshan sh bench/fit_accuracy.sh [S]
#        (default S = 8; a few seconds)
set -eu
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${GEN:=$(pwd)/tests/gen_darshan}"
S=${1:-8}
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-fitacc.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "| logs | seeds | max err p | max err bw | max err burst | max err period | phases found / drawn |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for kind in dxt-periodic dxt-markov heat-periodic heat-markov; do
  : >"$T/rows"
  s=1
  while [ "$s" -le "$S" ]; do
    case $kind in
      dxt-periodic) "$GEN" --format dxt --seed $s --run 3600 --period 300 --burst 30 --jitter 5 \
                      --truth "$T/t" -o "$T/l.txt" ;;
      dxt-markov) "$GEN" --format dxt --markov --seed $s --run 7200 --burst 30 --off 270 \
                    --truth "$T/t" -o "$T/l.txt" ;;
      heat-periodic) "$GEN" --format heatmap --seed $s --run 7200 --period 600 --burst 60 \
                       --jitter 20 --truth "$T/t" -o "$T/l.txt" ;;
      heat-markov) "$GEN" --format heatmap --markov --seed $s --run 7200 --burst 60 --off 540 \
                     --truth "$T/t" -o "$T/l.txt" ;;
    esac
    "$BBSIZE" fit darshan -q "$T/l.txt" -o "$T/w.csv"
    row=$(grep -v '^#' "$T/w.csv" | sed 1d)
    per=$(sed -n 's/.*, period \([0-9.]*\) s (autocorrelation.*/\1/p' "$T/w.csv")
    ph=$(sed -n 's/.* \([0-9]*\) phases of.*/\1/p' "$T/w.csv" | head -n 1)
    awk -v row="$row" -v per="${per:-nan}" -v ph="${ph:-0}" -v kind=$kind '
      $1 == "phases" { n = $2 } $1 == "p" { p = $2 } $1 == "bw" { bw = $2 }
      $1 == "burst" { b = $2 } $1 == "slowest" { sl = $2 } $1 == "period" { P = $2 }
      END {
        split(row, f, ","); sub(/MB\/s$/, "", f[3]); sub(/s$/, "", f[4])
        if (kind ~ /^heat/) { bytes = bw * p * 7200; p = sl / 7200; b = sl / n; bw = bytes / sl }
        e1 = (f[2] - p) / p; e2 = (f[3] * 1e6 - bw) / bw; e3 = (f[4] - b) / b
        e4 = P == "nan" ? (per == "nan" ? "-" : "false") : (per == "nan" ? "missed" : (per - P) / P)
        print e1, e2, e3, e4, ph, n }' "$T/t" >>"$T/rows"
    s=$((s + 1))
  done
  awk -v kind=$kind -v S="$S" '
    function a(x) { return x < 0 ? -x : x }
    { for (i = 1; i <= 3; i++) if (a($i) > m[i]) m[i] = a($i)
      if ($4 == "-" || $4 == "false") { aper = 1; fals += $4 == "false" }
      else if ($4 == "missed") miss++
      else if (a($4) > m[4]) m[4] = a($4)
      fp += $5; dp += $6 }
    END { if (aper) per = sprintf("aperiodic: %d called periodic", fals)
          else per = sprintf("%.2g%s", m[4], miss ? sprintf(" (%d missed)", miss) : "")
          printf "| %s | %d | %.2g | %.2g | %.2g | %s | %d / %d |\n", kind, S, m[1], m[2], m[3], per, fp, dp }' "$T/rows"
done
