#!/bin/sh
# bench/traces.sh: speed of the trace-driven workload models: size-table
# sampling, plain VEF parse, DCNW/FLOWS/HOROVOD/Graph500 generation, and a
# Graph500 run on graph500-72.  Prints figures; asserts nothing.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
: "${BBSIZE:?BBSIZE must name the bbsize binary}"
SRC=${BBSIZE_TOP_SRCDIR:-.}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "== size-table sampling (10^7 draws each)"
"${BENCH_DIR:-bench}/b_traces" "$SRC/data/vef" 10000000
echo "== plain VEF parse: 10^6 messages on 256 tasks, each after the previous one's receive"
awk 'BEGIN { n = 1000000; print "VEF3 256", n, "0 0 0 TRUE";
  print 0, 0, 1, 4096, "INDEPENDENT", 100, -1;
  for (i = 1; i < n; i++) { s = i % 256; d = (i + 1) % 256; if (s == d) d = (d + 1) % 256;
    print i, s, d, 4096, "INDEPENDENT", 100, -1 } }' > "$T/big.vef"
ls -l "$T/big.vef" | awk '{ printf "file size %.1f MB\n", $5 / 1e6 }'
"$BBSIZE" trace "$T/big.vef" 2>&1 >/dev/null
echo "== DCNW (Listing 3), 2,000,000 messages"
"$BBSIZE" trace "$SRC/data/traces/dcnw-google.vef" 2>&1 >/dev/null
echo "== FLOWS (Listing 6), 2,000,000 flows"
"$BBSIZE" trace "$SRC/data/traces/flows.vef" 2>&1 >/dev/null
echo "== HOROVOD (Listing 8, AlexNet, 98 ranks)"
"$BBSIZE" trace "$SRC/data/traces/horovod-alexnet.vef" 2>&1 >/dev/null
for s in 22 26; do
  echo "== Graph500 plan, scale $s, 72 processes"
  /usr/bin/time -f "%e s wall, %M KB" "$BBSIZE" trace --model graph500 --scale $s --csv 2>&1
done
echo "== Graph500 model against real Kronecker graphs (scale 18, edgefactor 16, 64 BFS roots)"
echo "   (levels with >= 5% of 2E; ratios model/measured; scales 17-22: docs/traces.md)"
"${BENCH_DIR:-bench}/b_kronecker" 18 16 64 | awk -F, '/^#/ || NR == 2 || $7 >= 0.05'
echo "== Graph500 scale 16 on graph500-72 (72 processes, Altamira)"
"$BBSIZE" trace --model graph500 --scale 16 --topology graph500-72 2>&1 | grep -E "generated|elapsed|simulation"
echo "== Graph500 scale 20 as operation streams (72 processes)"
/usr/bin/time -f "%e s wall, %M KB" "$BBSIZE" trace --model graph500 --scale 20 2>&1 | grep -E "generated|wall"
