#!/bin/sh
# validate_scn.sh: the system-level cross-check (`bbsize validate
# --scenario`) on the small shipped scenarios over a PFS-bandwidth and a
# capacity sweep, then on the 8 MFNetSim mixes (BENCH_MIX=0 skips them;
# they have no PFS: --pfs-bw 100GB/s, and --capacity 1GB to make the
# checkpoint stall).  Prints predicted idle beside the simulated stall
# fraction and its interval, and each run's wall time.
# Usage: BBSIZE=src/bbsize sh bench/validate_scn.sh
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
S=$TOP/data/scenarios
REPS=${BENCH_REPS:-10}
now() { date +%s.%N; }
row() {  # LABEL FILE OPTIONS...
    label=$1 f=$2
    shift 2
    t0=$(now)
    # the scenario's figures are columns 11 on of every job row
    line=$("$BBSIZE" validate --scenario "$f" --csv --quiet "$@" | sed -n 2p | cut -d, -f11-)
    t1=$(now)
    echo "$line" | awk -F, -v l="$label" -v t0="$t0" -v t1="$t1" \
        '{ printf "| %s | %.3f | %.4f | %.4f [%.4f, %.4f] | %s | %.1f |\n",
           l, $7, $8, $9, $10, $11, $13 ? "agrees" : $8 < 5e-5 ? "gap (analytic 0)" : sprintf("%+.0f%%", 100 * $14), t1 - t0 }'
}
echo "| scenario | E/B | predicted idle | simulated stall [95% CI] | verdict | wall (s) |"
echo "|---|---:|---:|---|---|---:|"
# E/B = 1 near B = 2.3 GB/s: the checkpoints' 1 MB pieces pay a seek each
# on mfnetsim-bb, so the jobs write at about 2.3 GB/s on average
for bw in 1.5 2 2.3 2.6 3 4 8; do
    row "validate-small, B = $bw GB/s" "$S/validate-small.ini" --pfs-bw "${bw}GB/s" --replications "$REPS"
done
for c in 2GB 8GB 16GB; do
    row "validate-small, B = 2.3 GB/s, $c per node" "$S/validate-small.ini" --pfs-bw 2.3GB/s \
        --capacity "$c" --replications "$REPS"
done
row "traces-small, 300 MB per node" "$S/traces-small.ini" --capacity 300MB --replications "$REPS"
if [ "${BENCH_MIX:-1}" != 0 ]; then
    for f in "$S"/mfnetsim-w*-mix-*.ini; do
        row "$(basename "$f" .ini), 1 GB per node" "$f" --pfs-bw 100GB/s --capacity 1GB --replications 2
    done
fi
