#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/fit.sh: `bbsize fit darshan` on many synthetic logs (tests/gen_darshan
# --many: a third each DXT, heatmap + counters and counters only, 8
# applications on 4 or 8 ranks, an hour each), against a reference run in
# the same script that only reads the same files (cat > /dev/null): the
# time, logs per second, MB per second, peak memory (/usr/bin/time), and
# the ratio to the reference.  The bar: 10,000 logs in under a minute.
# Usage: BBSIZE=src/bbsize GEN=tests/gen_darshan sh bench/fit.sh [N]
#        (default N = 10000; heavy: run under flock /tmp/bbsize-heavy.lock)
set -eu
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${GEN:=$(pwd)/tests/gen_darshan}"
N=${1:-10000}
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-fit.XXXXXX")
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }

mkdir "$T/logs"
t0=$(now)
"$GEN" --many "$N" "$T/logs" --seed 1
t1=$(now)
bytes=$(du -sb "$T/logs" | cut -f1)
t2=$(now)
find "$T/logs" -type f -exec cat {} + >/dev/null
t3=$(now)
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%M' -o "$T/rss" "$BBSIZE" fit darshan "$T/logs" -o "$T/w.csv" 2>"$T/err"
else
  "$BBSIZE" fit darshan "$T/logs" -o "$T/w.csv" 2>"$T/err"
  echo '?' >"$T/rss"
fi
t4=$(now)
rows=$(grep -v '^#' "$T/w.csv" | sed 1d | wc -l)
awk -v n="$N" -v b="$bytes" -v g0="$t0" -v g1="$t1" -v c0="$t2" -v c1="$t3" -v f1="$t4" \
    -v rss="$(cat "$T/rss")" -v rows="$rows" 'BEGIN {
  gen = g1 - g0; ref = c1 - c0; fit = f1 - c1
  printf "logs: %d (%.1f MB of text), written in %.1f s by gen_darshan\n", n, b / 1e6, gen
  printf "reference (cat, read only): %.2f s\n", ref
  printf "fit darshan: %.2f s (%.0f logs/s, %.1f MB/s), %s kB peak RSS, %d rows\n",
         fit, n / fit, b / 1e6 / fit, rss, rows
  printf "ratio fit / reference: %.1f\n", fit / ref
  printf "bar: 10,000 logs in under 60 s: %s\n", (n >= 10000 && fit < 60) ? "met" : \
         (n < 10000 ? "not measured (fewer logs)" : "MISSED") }'
tail -n 1 "$T/err"
