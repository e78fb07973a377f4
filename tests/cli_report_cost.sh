#!/bin/sh
# cli_report_cost.sh: what a committee reads in `bbsize report`: the cost
# plot over PFS bandwidths equals `bbsize design` point by point and in
# its cheapest design; the answer is marked, with its value and unit, on
# every plot; prices carry the currency and thousands separators; sources
# are named relative to the data directory; the walk is bounded before it
# runs.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
X() { xmllint --xpath "$1" "$2" 2>/dev/null; }
# cell FILE TABLE ROW COL: the text of a cell (ROW 1 is the header)
cell() { X "string(//*[@id='$2']/*[local-name()='tr'][$3]/*[local-name()='td'][$4])" "$1"; }
rows() { X "count(//*[@id='$2']/*[local-name()='tr'])" "$1"; }
# svgtext FILE FIGURE: the texts of a figure's plot, one a line
svgtext() { X "//*[local-name()='figure'][@id='$2']//*[local-name()='text']" "$1" | sed 's/<[^>]*>/\n/g' | sed '/^ *$/d'; }
series() { X "//*[local-name()='figure'][@id='$2']//*[@class='series']/*[local-name()='title']/text()" "$1"; }

G=$SRCDIR/data/workloads/groups.csv
PRICES="--cost-tb 100000 --cost-gbs 30000 --cost-pfs-gbs 20000 --currency $"
WALK=1.74TB/s:2.9TB/s:0.29TB/s

# ---- the cost plot: bbsize design's walk, point by point -------------------
run "$BBSIZE" report -o "$T/c.html" --points 5 --load-scale 1,1.2 $PRICES --pfs-bw-walk "$WALK" "$G"
status_is 0 "a priced report with --pfs-bw-walk exits 0"
check_cmd "the page has the cost plot" test "$(X "count(//*[local-name()='figure'][@id='fig-cost'])" "$T/c.html")" -eq 1
"$BBSIZE" design --pfs-bw "$WALK" $PRICES "$G" 2>/dev/null > "$T/design.txt"
# design's table: PFS_BW (2 words) BB_SIZE (2) BB_BW (2) IDLE BINDS WRITES COST [*]
awk 'NR > 1 && !/^cheapest/ { print $1 " " $2 "|" $3 " " $4 "|" $5 " " $6 "|" $10 "|" ($11 == "*" ? "*" : "") }' \
  "$T/design.txt" > "$T/want"
n=$(rows "$T/c.html" cost-table)
: > "$T/got"
k=2
while [ "$k" -le "$n" ]; do
  echo "$(cell "$T/c.html" cost-table $k 1)|$(cell "$T/c.html" cost-table $k 2)|$(cell "$T/c.html" cost-table $k 3)|$(cell "$T/c.html" cost-table $k 5)|$(cell "$T/c.html" cost-table $k 6)" >> "$T/got"
  k=$((k + 1))
done
check_cmd "the walk has the 5 PFS bandwidths asked" test "$(wc -l < "$T/got")" -eq 5
if cmp -s "$T/want" "$T/got"; then ok "every point of the cost plot is bbsize design's (PFS, size, bandwidth, cost, cheapest)"
else notok "every point of the cost plot is bbsize design's (PFS, size, bandwidth, cost, cheapest)"; diff "$T/want" "$T/got" | sed 's/^/# /'; fi
cheap=$(sed -n 's/^cheapest (\*): PFS \(.*\); buffer bandwidth.*/\1/p' "$T/design.txt")
pb=${cheap%% with a *}
rest=${cheap#* with a }
want="a PFS of $pb with a $rest in all"
X "string(//*[@id='cheapest'])" "$T/c.html" > "$T/cheap.txt"
check "the report's cheapest design is bbsize design's ($cheap)" 'grep -qF "$want" "$T/cheap.txt"'
check_cmd "the cheapest is inside the walk, not at its end (an interior optimum)" \
  test "$(tail -n 1 "$T/want" | cut -d'|' -f5)$(head -n 1 "$T/want" | cut -d'|' -f5)" = ""
svgtext "$T/c.html" fig-cost > "$T/cost.txt"
check "the cost plot marks the cheapest point with its cost and PFS bandwidth" \
  'grep -q "^cheapest: \\$[0-9.]* million at $pb\$" "$T/cost.txt"'
check "the cost plot's y axis names the currency and the scale" 'grep -qF "cost (millions of \$)" "$T/cost.txt"'
check "the cost plot's x axis carries its unit" 'grep -qF "PFS bandwidth (TB/s)" "$T/cost.txt"'

# ---- currency and thousands separators ------------------------------------------
bad=0
k=2
n=$(rows "$T/c.html" cost)
while [ "$k" -le "$n" ]; do
  v=$(cell "$T/c.html" cost $k 4)
  echo "$v" | grep -Eq '^\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$' || { bad=$((bad + 1)); echo "# cost cell '$v'"; }
  k=$((k + 1))
done
check_cmd "every cost is \$ with thousands separators and cents" test "$bad" -eq 0
check_cmd "the cost table prices the PFS bandwidth too (capacity, bandwidth, PFS, total)" test "$n" -eq 5
"$BBSIZE" design --pfs-bw 1.45TB/s $PRICES "$G" 2>/dev/null | awk 'NR == 2 { print $10 }' > "$T/d145"
check "the total is bbsize design's cost at the platform's 1.45 TB/s" \
  'test "$(cell "$T/c.html" cost 5 4)" = "$(cat "$T/d145")"'

# ---- the answer marked on every plot ----------------------------------------------
svgtext "$T/c.html" fig-idle-vs-size > "$T/idle.txt"
# the headline buys a bandwidth: each growth row is its own design (size
# and bandwidth), so no growth is marked on curves at the headline's
check "idle-vs-size marks no load growth (each growth has its own bandwidth)" \
  '! grep -q "^load x1.2: " "$T/idle.txt"'
check "the growth row for x1.2 has its own buffer bandwidth" \
  'cell "$T/c.html" growth-table 3 4 | grep -q "B/s$"'
"$BBSIZE" design --pfs-bw 1.45TB/s $PRICES --csv "$G" 2>/dev/null | sed -n 2p > "$T/d.csv"
# the headline's size (rounded up, as it says "at least")
asz=$(X "string(//*[@id='headline'])" "$T/c.html" | sed -n 's/^Buy at least \([0-9.]* [kMGTP]*B\) of burst buffer.*/\1/p')
check "idle-vs-size marks the answer with the headline's size ($asz)" 'test -n "$asz" && series "$T/c.html" fig-idle-vs-size | grep -q "^the answer: $asz (buffer bandwidth"'
check "the answer line is bbsize size at the bought bandwidth" \
  'test "$(X "string(//*[@id='"'"'answer'"'"'])" "$T/c.html")" = "$("$BBSIZE" size "$G" --bb-bw "$(cut -d, -f4 "$T/d.csv")B/s" 2>/dev/null | head -n 1)"'
"$BBSIZE" design --pfs-bw 1.45TB/s $PRICES --json "$G" 2>/dev/null > "$T/d.json"
bbbw=$(json_num bb_bw_bytes_per_s "$T/d.json")
marked=$(series "$T/c.html" fig-load-distribution | sed -n 's/^B + buffer bandwidth bought: \([0-9.]*\) TB\/s$/\1/p')
t_close "the load distribution marks B + the buffer bandwidth bought (TB/s, 4 digits)" \
  "$marked" "$(awk -v b="$bbbw" 'BEGIN { print (1.45e12 + b) / 1e12 }')" 0.001
thr=$(X "string(//*[@id='best-threshold'])" "$T/c.html" | sed -n 's/.*buffer: \([0-9.]* [kMGTP]*B\) (.*/\1/p')
for f in fig-lazy-idle fig-lazy-quiet; do
  check "$f marks the best threshold with its size ($thr)" \
    'svgtext "$T/c.html" $f | grep -q "^best threshold [0-9.]* ($thr)\$"'
done

# ---- the default walk: 0.5 to 2 times the platform's PFS bandwidth -------------------
# (no price per GB/s of buffer bandwidth: half the idle budget to throttling)
run "$BBSIZE" report -o "$T/d.html" --points 3 --load-scale 1 --cost-tb 100000 --cost-pfs-gbs 20000 "$G"
status_is 0 "a report priced per TB and per PFS GB/s exits 0"
check_cmd "the default walk has 16 PFS bandwidths" test "$(rows "$T/d.html" cost-table)" -eq 17
check "it runs from 0.5 to 2 times 1.45 TB/s" \
  'test "$(cell "$T/d.html" cost-table 2 1) $(cell "$T/d.html" cost-table 17 1)" = "725 GB/s 2.9 TB/s"'
"$BBSIZE" design --pfs-bw 0.725TB/s:2.9TB/s:0.145TB/s --cost-tb 100000 --cost-pfs-gbs 20000 "$G" 2>/dev/null |
  awk 'NR > 1 && !/^cheapest/ { print $1 " " $2 "|" $3 " " $4 "|" $10 }' > "$T/want16"
k=2
: > "$T/got16"
while [ "$k" -le 17 ]; do
  echo "$(cell "$T/d.html" cost-table $k 1)|$(cell "$T/d.html" cost-table $k 2)|$(cell "$T/d.html" cost-table $k 5)" >> "$T/got16"
  k=$((k + 1))
done
check_cmd "the default walk's points are bbsize design's" cmp -s "$T/want16" "$T/got16"

# ---- the buffer's bandwidth binds at the platform's PFS bandwidth ----------------------
# Cori's preset gives 1.7 TB/s of buffer bandwidth: no capacity meets the
# target at 700 GB/s (E/B = 0.776 < 1, so not for lack of PFS bandwidth);
# the headline says what bandwidth would, and the cost plot still shows
# the PFS bandwidths where a design exists.
run "$BBSIZE" report -o "$T/cori.html" --points 3 --load-scale 1 --system cori --cost-tb 100000 --cost-pfs-gbs 20000
status_is 0 "a report where the buffer's bandwidth binds exits 0"
least=$("$BBSIZE" size --system cori 2>/dev/null | sed -n 's/.*bandwidth of at least \([0-9.]* [kMGTP]*B\/s\) would allow it.*/\1/p')
X "string(//*[@id='headline'])" "$T/cori.html" > "$T/cori-head.txt"
check "the headline blames the buffer's bandwidth and buys bbsize size's least one ($least)" \
  'grep -q "^No burst-buffer capacity meets the target with a burst-buffer bandwidth of 1.7 TB/s.*Buy at least $least of burst-buffer bandwidth" "$T/cori-head.txt"'
check "the headline does not blame the PFS's mean load" '! grep -q "write more on average" "$T/cori-head.txt"'
check "the cost plot is there, with its cheapest design" \
  'test "$(X "count(//*[local-name()='"'"'figure'"'"'][@id='"'"'fig-cost'"'"'])" "$T/cori.html")" -eq 1 &&
   X "string(//*[@id='"'"'cheapest'"'"'])" "$T/cori.html" | grep -q "^The cheapest design of the plot: a PFS of "' 

# ---- bounded before it runs; bad input --------------------------------------------------
mkdir "$T/empty"
run "$BBSIZE" report -o "$T/empty/r.html" --points 3 --load-scale 1 $PRICES --max-ops 1e10 "$G"
status_is 2 "a walk beyond --max-ops exits 2 before solving it"
err_has "the cost plot's designs at 16 PFS bandwidths" "the message names the walk"
run "$BBSIZE" report -o "$T/empty/r.html" --pfs-bw-walk 1TB/s:2TB/s:0.5TB/s
status_is 64 "--pfs-bw-walk without prices exits 64"
err_has "give prices" "the message says what it needs"
run "$BBSIZE" report -o "$T/empty/r.html" --cost-tb 1 --pfs-bw-walk 2TB/s:1TB/s:0.1TB/s
status_is 64 "a walk running backwards exits 64"
run "$BBSIZE" report -o "$T/empty/r.html" --cost-tb 1 --pfs-bw-walk 1TB/s:3TB/s:0.001TB/s
status_is 64 "a walk of more than 200 PFS bandwidths exits 64"
err_has "at most 200" "the message gives the bound"
run "$BBSIZE" report -o "$T/empty/r.html" --cost-tb 1 --currency '<b>'
status_is 64 "a currency with markup exits 64"
check_cmd "no file is left behind by the failures" test -z "$(ls -A "$T/empty")"

# ---- sources relative to the data directory -------------------------------------------
cat > "$T/w.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
name,p,bw
a,0.2,1.5TB/s
b,0.1,2TB/s
c,0.3,0.6TB/s
CSV
srcrow() { X "string(//*[local-name()='tr'][*[local-name()='td'][1]='PFS bandwidth B']/*[local-name()='td'][3])" "$1"; }
preamble() { X "string((//*[local-name()='p'])[1])" "$1" | sed -n 's/^Workload \(.*\) ([0-9]* applications).*/\1/p'; }
run "$BBSIZE" report -o "$T/s1.html" --points 3 --load-scale 1 "$G"
check "a shipped workload given by its absolute path is named workloads/groups.csv" \
  'test "$(preamble "$T/s1.html")|$(srcrow "$T/s1.html")" = "workloads/groups.csv|workloads/groups.csv"'
check "no absolute path of the tree appears in the page" '! grep -qF "$SRCDIR" "$T/s1.html"'
mkdir -p "$T/mine/workloads"
cp "$T/w.csv" "$T/mine/workloads/w.csv"
BBSIZE_DATADIR=$T/mine run "$BBSIZE" report -o "$T/s2.html" --points 3 --load-scale 1 "$T/mine/workloads/w.csv"
check "a workload in \$BBSIZE_DATADIR is named relative to it" \
  'test "$(preamble "$T/s2.html")|$(srcrow "$T/s2.html")" = "workloads/w.csv|workloads/w.csv"'
check "no path of the scratch directory appears in that page" '! grep -qF "$T" "$T/s2.html"'
mkdir -p "$T/elsewhere"
cp "$T/w.csv" "$T/elsewhere/w.csv"
(cd "$T" && run "$BBSIZE" report -o "$T/s3.html" --points 3 --load-scale 1 elsewhere/w.csv)
check "a user's file is named as given" 'test "$(preamble "$T/s3.html")" = "elsewhere/w.csv"'
run "$BBSIZE" report -o "$T/s4.html" --points 3 --load-scale 1 --system cori
check "the built-in workload is the shipped file it is, the preset relative to the data directory" \
  'test "$(preamble "$T/s4.html")|$(srcrow "$T/s4.html")" = "workloads/default.csv (built in)|systems/cori.conf"'
# A walk where no PFS bandwidth has a design (E = 0.68 TB/s): no plot, said.
run "$BBSIZE" report -o "$T/none.html" --points 3 --load-scale 1 --cost-tb 1 --pfs-bw-walk 0.3TB/s,0.5TB/s "$T/w.csv"
check "a walk below the expected load has no cost plot and says why" \
  'test "$rc" -eq 0 && test "$(X "count(//*[local-name()='"'"'svg'"'"'])" "$T/none.html")" -eq 4 &&
   X "string(//*[@id='"'"'cheapest'"'"'])" "$T/none.html" | grep -q "^No PFS bandwidth of the walk (2 from 300 GB/s"'
t_done
