#!/bin/sh
# cli_fit_site.sh: from a site's logs to its answer in one line (issue
# 36): `bbsize fit darshan DIR -o site.csv && bbsize size site.csv` on the
# logs of many overlapping jobs of one class (tests/gen_darshan.c) sizes
# for the concurrency the logs show: the row's count is the concurrency
# rounded, and the model's expected load is the bytes the jobs moved over
# their span (from the generator's truth, not bbsize's code).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
GEN=${BBSIZE_TOP_BUILDDIR:-.}/tests/gen_darshan

# 12 Markov jobs of one class (cfd on 4 ranks), an hour each, one starting
# every 300 s: sum of run times 43200 s over a span of 11 x 300 + 3600 =
# 6900 s, 6.26 at once on average.
mkdir "$T/logs" "$T/truth"
i=0
while [ $i -lt 12 ]; do
  "$GEN" --format dxt --exe cfd --jobid $((500 + i)) --seed $((11 + i)) --markov --burst 20 \
    --off 200 --bw 2e9 --run 3600 --start $((1700000000 + 300 * i)) \
    --truth "$T/truth/$i" -o "$T/logs/j$i.txt"
  i=$((i + 1))
done
run "$BBSIZE" fit darshan "$T/logs" -o "$T/site.csv"
status_is 0 "fit darshan on 12 overlapping jobs exits 0"
conc=$(awk 'BEGIN { print 12 * 3600 / (11 * 300 + 3600) }')
check "the comment gives the concurrency, 6.26" 'grep -q "concurrency: 6.26 jobs" "$T/site.csv"'
check_cmd "the header has a count column" grep -q '^name,p,bw,burst,count$' "$T/site.csv"
row=$(grep -v '^#' "$T/site.csv" | sed 1d)
count=$(echo "$row" | cut -d, -f5)
check "the count is the concurrency rounded ($conc -> 6)" \
  '[ "$count" = "$(awk -v c="$conc" "BEGIN { printf \"%d\", c + 0.5 }")" ]'
# The mean load: count x p x bw = bytes / span, the bytes from the truth
# (p x run x bw of each job, computed by the generator from its phases).
bytes=$(cat "$T"/truth/* | awk '$1 == "p" { p = $2 } $1 == "bw" { s += p * 3600 * $2 } END { printf "%.9g", s }')
load=$(echo "$row" | awk -F, '{ bw = $3; sub(/MB\/s$/, "", bw); printf "%.9g", $5 * $2 * bw * 1e6 }')
close_rel() {
  if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t * b) }'
  then t_ok "$1"; else echo "# $2 vs $3" >"$T/err"; t_fail "$1" "$T/err"; fi
}
close_rel "count x p x bw is the bytes moved over the span (1e-5)" "$load" \
  "$(awk -v b="$bytes" 'BEGIN { print b / 6900 }')" 1e-5
# The one line: size answers for the concurrency, E = bytes / span.
run sh -c "\"$BBSIZE\" fit darshan \"$T/logs\" -o \"$T/site2.csv\" 2>/dev/null && \"$BBSIZE\" size \"$T/site2.csv\" --pfs-bw 3GB/s --json"
status_is 0 "fit darshan DIR -o site.csv && bbsize size site.csv exits 0"
E=$(json_num load_ratio "$T/out")
close_rel "size's E/B is the logs' mean load over B (1e-5)" "$E" \
  "$(awk -v b="$bytes" 'BEGIN { print b / 6900 / 3e9 }')" 1e-5
S=$(json_num bb_size_bytes "$T/out")
sed 's/,6$/,1/' "$T/site.csv" >"$T/one.csv"
"$BBSIZE" size "$T/one.csv" --pfs-bw 3GB/s --json >"$T/one.json"
check "one instance of the class needs no buffer at 3 GB/s; the concurrency does" \
  'awk -v s="$S" -v o="$(json_num bb_size_bytes "$T/one.json")" "BEGIN { exit !(o == 0 && s > 1e9) }"'

# A class whose jobs never overlap: count 1, p scaled down by the
# concurrency (the mean load kept).
mkdir "$T/seq"
i=0
while [ $i -lt 3 ]; do
  "$GEN" --format dxt --exe post --jobid $((700 + i)) --seed $((41 + i)) --markov --burst 20 \
    --off 200 --bw 1e9 --run 1000 --start $((1700000000 + 2000 * i)) -o "$T/seq/j$i.txt"
  i=$((i + 1))
done
"$BBSIZE" fit darshan "$T/seq" -o "$T/seq.csv" 2>/dev/null
check "jobs one after another: count 1, p = pooled p x 3000/5000" \
  'grep -v "^#" "$T/seq.csv" | sed 1d | awk -F, -v p="$(sed -n "s/^#   p \([0-9.e-]*\) = .*/\1/p" "$T/seq.csv")" \
     "{ exit !(\$5 == 1 && \$2 / (p * 0.6) > 1 - 1e-5 && \$2 / (p * 0.6) < 1 + 1e-5) }"'
t_done
