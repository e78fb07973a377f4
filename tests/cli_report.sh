#!/bin/sh
# cli_report.sh: `bbsize report`: XHTML and SVG parse as XML, sections in
# order with their plots and series, numbers equal to size/idle/dist/
# threshold, Markdown output, no plot key over a curve or a label (from the
# SVG geometry, tests/svg_key.awk), the solver named as run, headless
# Chromium render, bad input.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
echo 1..92
X() { xmllint --xpath "$1" "$2" 2>/dev/null; }
# bought FILE: the buffer bandwidth the headline buys, exact, as
# "--bb-bw NB/s" from the inputs table ("" when none is bought)
bought() { X "string(//*[@id='platform']/*[local-name()='tr'][*[local-name()='td'][1]='burst-buffer bandwidth']/*[local-name()='td'][2])" "$1" | sed -n 's/.*(\([0-9.e+]*\) B\/s)$/--bb-bw \1B\/s/p'; }
# up4 BYTES SUFFIX: BYTES rounded UP to 4 significant digits with an SI
# prefix ("at least" must not be below the answer), computed here
up4() { awk -v b="$1" -v u="$2" 'BEGIN { split("k M G T P E", P, " "); k = 0; x = b;
  while (x >= 1000 && k < 6) { x /= 1000; k++ }
  e = int(log(x) / log(10) + 1e-9); d = 10 ^ (e - 3); y = x / d * (1 - 1e-12);
  y = (y == int(y) ? y : int(y) + 1) * d;
  if (y >= 1000 && k < 6) { y /= 1000; k++ }
  printf "%.4g %s%s", y, (k ? P[k] : ""), u }'; }

run "$BBSIZE" report -o "$T/r.html" --system trinity --cost-tb 100 --cost-gbs 2000 --points 11
status_is 0 "report exits 0"
check_cmd "the HTML parses as XML (xmllint)" xmllint --noout "$T/r.html"
X "//*[local-name()='section']/@id" "$T/r.html" | tr -d ' ' | tr '\n' ' ' > "$T/ids"
check_cmd "sections come in the issue's order" test "$(cat "$T/ids")" = \
  'id="recommendation" id="idle-vs-size" id="load-distribution" id="greedy-vs-lazy" id="inputs" id="validation" '
check_cmd "five inline SVG plots (the cost plot with prices)" test "$(X "count(//*[local-name()='svg'])" "$T/r.html")" -eq 5
series() { X "//*[local-name()='figure'][@id='$1']//*[@class='series']/*[local-name()='title']/text()" "$T/r.html"; }
series fig-idle-vs-size > "$T/s1"
check_cmd "idle-vs-size has the three load scenarios and the target" \
  test "$(grep -c '^load x1 \|^load x1.2 \|^load x1.5 \|^target idle fraction 0.001$' "$T/s1")" -eq 4
series fig-load-distribution > "$T/s2"
check_cmd "the distribution plot has the exact CDF and both Chernoff bounds" \
  test "$(grep -c '^exact CDF\|^Chernoff lower bound\|^Chernoff upper bound' "$T/s2")" -eq 3
check_cmd "the lazy idle plot has lazy and greedy series" test "$(series fig-lazy-idle | grep -c 'draining$')" -eq 2
check_cmd "the lazy quiet plot has lazy and greedy series" test "$(series fig-lazy-quiet | grep -c 'draining$')" -eq 2
check_cmd "plots have titles and axis labels with units" \
  grep -q '<text>burst-buffer size (TB)</text>' "$T/r.html"
check_cmd "no id is used twice in the page" test -z "$(grep -o "id=[\"'][^\"']*[\"']" "$T/r.html" | sort | uniq -d)"
check_cmd "self-contained: no URL but XML namespaces" \
  test -z "$(grep -o 'https\?://[^"'"'"' )]*' "$T/r.html" | grep -v '^http://www.w3.org/')"
check_cmd "no external resource reference" test -z "$(grep -o '\(src\|href\)=["'"'"'][^#][^"'"'"']*' "$T/r.html")"

# Numbers equal those of size, idle, dist and threshold for the same inputs
# (one front door: every command settles the resolution on the same question).
"$BBSIZE" size --system trinity | head -n 1 > "$T/size.txt"
printf '%s\n' "$(X "string(//*[@id='answer'])" "$T/r.html")" > "$T/answer.txt"
check_cmd "the recommendation equals bbsize size" cmp -s "$T/size.txt" "$T/answer.txt"
# The same for a workload with bursts (the continuous-time model answers).
cat > "$T/bursts.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
name,p,bw,burst
ckpt-a,0.10,1.5TB/s,5min
ckpt-b,0.05,2TB/s,3min
out-c,0.20,0.6TB/s,2min
CSV
"$BBSIZE" report "$T/bursts.csv" -o "$T/b.html" --quiet
# the answer is at the buffer bandwidth the headline buys (one answer)
"$BBSIZE" size "$T/bursts.csv" $(bought "$T/b.html") | head -n 1 > "$T/bsize.txt"
printf '%s\n' "$(X "string(//*[@id='answer'])" "$T/b.html")" > "$T/banswer.txt"
check_cmd "fluid: the recommendation equals bbsize size" cmp -s "$T/bsize.txt" "$T/banswer.txt"
# 1.42025 PB: "at least 1.42 PB" would be below the answer
bbytes=$("$BBSIZE" size "$T/bursts.csv" $(bought "$T/b.html") --json | sed -n 's/ *"bb_size_bytes": \([0-9.e+]*\),/\1/p')
check "fluid: the headline rounds the size up ($(up4 "$bbytes" B))" \
  'X "string(//*[@id='"'"'headline'"'"'])" "$T/b.html" | grep -qF "Buy at least $(up4 "$bbytes" B) of burst buffer"'
check_cmd "fluid: no time unit, quanta or one-time-unit stall in the page" \
  test "$(grep -c 'time unit\|quanta\|stalls for one' "$T/b.html")" -eq 0
same=0
for k in 2 6 11; do
  bytes=$(X "string(//*[@id='idle-table']/*[local-name()='tr'][$k + 1]/*[local-name()='td'][2])" "$T/r.html")
  want=$(X "string(//*[@id='idle-table']/*[local-name()='tr'][$k + 1]/*[local-name()='td'][4])" "$T/r.html")
  got=$("$BBSIZE" idle --system trinity --bb-size "${bytes}B" | sed 's/^idle \([^ ]*\) .*/\1/')
  [ "$want" = "$got" ] && same=$((same + 1)) || echo "# ${bytes} B: report $want, idle $got"
done
check_cmd "idle-table rows equal bbsize idle (3 sizes)" test "$same" -eq 3
"$BBSIZE" dist --system trinity | sed -n 3p > "$T/dist3"
X "string(//*[@id='load-distribution']/*[local-name()='p'])" "$T/r.html" > "$T/rdist"
check_cmd "the load probabilities equal bbsize dist" grep -qF "$(cat "$T/dist3")" "$T/rdist"
sbytes=$("$BBSIZE" size --system trinity --json | sed -n 's/ *"bb_size_bytes": \([0-9.e+]*\),/\1/p')
"$BBSIZE" threshold --system trinity --bb-size "${sbytes}B" | sed -e "s/.*: \\(quiet .*\\)/\\1/" -e "s/; model .*//" > "$T/thr"
X "string(//*[@id='best-threshold'])" "$T/r.html" > "$T/rthr"
check_cmd "the best threshold equals bbsize threshold" grep -qF "$(cat "$T/thr")" "$T/rthr"
want=$(awk -v b="$sbytes" 'BEGIN { printf "%.2f", b / 1e12 * 100 }')
check_cmd "capacity cost = size (bbsize size) x price per TB" \
  test "$(X "string(//*[@id='cost']/*[local-name()='tr'][2]/*[local-name()='td'][4])" "$T/r.html" | tr -d ,)" = "$want"

# What a committee reads first: the headline's pair is what `bbsize design`
# chooses at the platform's PFS bandwidth (half the idle budget to
# throttling), the growth table's x1 row is the answer, the partitions'
# total is `bbsize partition`'s, and the lazy lever is called out.
G=$SRCDIR/data/workloads/groups.csv
run "$BBSIZE" report -o "$T/c.html" --points 5 --load-scale 1,1.2 "$G"
status_is 0 "a report on a workload with groups exits 0"
"$BBSIZE" design --pfs-bw 1.45TB/s --csv "$G" 2>/dev/null | sed -n 2p > "$T/design.txt"
dsz=$(up4 "$(cut -d, -f3 "$T/design.txt")" B)
dbw=$(up4 "$(cut -d, -f4 "$T/design.txt")" B/s)
X "string(//*[@id='headline'])" "$T/c.html" > "$T/headline.txt"
check "the headline buys what bbsize design chooses at 1.45 TB/s, rounded up ($dsz, $dbw)" \
  'grep -qF "Buy at least $dsz of burst buffer and $dbw of burst-buffer bandwidth" "$T/headline.txt"'
check_cmd "the inputs table gives the bought bandwidth exactly (design's)" \
  test "$(bought "$T/c.html")" = "--bb-bw $(cut -d, -f4 "$T/design.txt")B/s"
check "the headline says the wait in minutes a day" 'grep -q "minutes a day" "$T/headline.txt"'
asz=$("$BBSIZE" size "$G" $(bought "$T/c.html") | sed -n 's/^burst buffer \([^(]*\) (.*/\1/p')
usz=$("$BBSIZE" size "$G" | sed -n 's/^burst buffer \([^(]*\) (.*/\1/p')
check "the growth table's x1 row is the headline's size ($dsz)" \
  'test "$(X "string(//*[@id='"'"'growth-table'"'"']/*[local-name()='"'"'tr'"'"'][2]/*[local-name()='"'"'td'"'"'][3])" "$T/c.html")" = "$dsz"'
check "the answer line is bbsize size at the bought bandwidth ($asz)" \
  'X "string(//*[@id='"'"'answer'"'"'])" "$T/c.html" | grep -q "^burst buffer $asz ("'
check "the growth table's x1 row has the headline's bandwidth ($dbw)" \
  'test "$(X "string(//*[@id='"'"'growth-table'"'"']/*[local-name()='"'"'tr'"'"'][2]/*[local-name()='"'"'td'"'"'][4])" "$T/c.html")" = "$dbw"'
check "the growth table has a row per load scale" \
  'test "$(X "count(//*[@id='"'"'growth-table'"'"']/*[local-name()='"'"'tr'"'"'])" "$T/c.html")" -eq 3'
ptot=$("$BBSIZE" partition "$G" | sed -n 's/^total \([^ ]* [^ ]*\) in .*/\1/p')
check "the partitions' total is bbsize partition's" \
  'X "string(//*[@id='"'"'partitions'"'"'])" "$T/c.html" | grep -qF "$ptot in total against"'
check "the endurance line gives drive writes per day" \
  'X "string(//*[@id='"'"'endurance'"'"'])" "$T/c.html" | grep -q "drive writes per day"'
# the lever is said exactly when the best threshold gains less than 0.01
gain=$(X "string(//*[@id='best-threshold'])" "$T/c.html" | sed -n 's/.*quiet \([0-9.e-]*\) (greedy \([0-9.e-]*\)).*/\1 \2/p' | awk '{ print ($1 - $2 < 0.01) }')
check "lazy draining gaining nothing is said exactly when it gains < 0.01 quiet" \
  'test "$(X "count(//*[@id='"'"'lever-lazy'"'"'])" "$T/c.html")" = "$gain"'
check "the best threshold is at the headline's size ($dsz)" \
  'X "string(//*[@id='"'"'best-threshold'"'"'])" "$T/c.html" | grep -q "for a $dsz buffer"'
check "the answer is marked on the idle-versus-size plot at the headline's design" 'grep -q "the answer: $dsz (buffer bandwidth $dbw)" "$T/c.html"'
check "the unlimited-bandwidth size is named as such ($usz)" 'grep -q "unlimited buffer bandwidth would need $usz" "$T/c.html"'
check "the partitions' shared buffer is named unlimited" \
  'X "string(//*[@id='"'"'partitions'"'"'])" "$T/c.html" | grep -q "against $usz for one shared.*unlimited\|unlimited.*against $usz for one shared"'
# The requirements are the headline's design: capacity and bandwidth its
# figures, the acceptance test writes that capacity at that bandwidth, and
# the endurance row the drive writes a day design gives at it (no WAF).
req() { X "string(//*[@id='requirements']/*[local-name()='tr'][$1]/*[local-name()='td'][$2])" "$T/c.html"; }
check "requirements: the capacity target is the headline's ($dsz)" 'test "$(req 2 2)" = "at least $dsz usable"'
check "requirements: the bandwidth target is the headline's ($dbw)" \
  'test "$(req 3 2)" = "at least $dbw aggregate write, beside the PFS'"'"'s own"'
check "requirements: the vendor writes the capacity at the bandwidth" 'req 3 3 | grep -qF "write $dsz at $dbw or more, sustained"'
dwd=$(awk -F, '{ printf "%.3g", $9 }' "$T/design.txt")
check "requirements: endurance is design's $dwd drive writes a day at the capacity" \
  'req 4 2 | grep -q "^$dwd drive writes a day at the capacity (.* a day, write amplification 1) for 5 years"'
check "requirements: the endurance line under it agrees ($dwd)" \
  'X "string(//*[@id='"'"'endurance'"'"'])" "$T/c.html" | grep -qF "$dwd drive writes per day"'
# --policy lazy through the report: the answer line is size's lazy answer at
# the bandwidth bought, and the inputs table names the draining.
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.1,2TB/s\nb,0.2,0.8TB/s\nc,0.05,3TB/s\n' > "$T/lz.csv"
run "$BBSIZE" report -o "$T/lz.html" --points 3 --load-scale 1 --resolution 200 --policy lazy --threshold 0.3 "$T/lz.csv"
status_is 0 "report --policy lazy --threshold 0.3 exits 0"
lsz=$("$BBSIZE" size "$T/lz.csv" --resolution 200 $(bought "$T/lz.html") --policy lazy --threshold 0.3 | sed -n 's/^burst buffer \([^(]*\) (.*/\1/p')
check "... the answer line is size --policy lazy at the bought bandwidth ($lsz)" \
  'X "string(//*[@id='"'"'answer'"'"'])" "$T/lz.html" | grep -q "^burst buffer $lsz (.*with lazy draining"'
check "... the inputs table names lazy draining at 0.3" 'grep -q "lazy, threshold 0.3 of the buffer" "$T/lz.html"'

# No size suffices (E > B): the report says what `bbsize size` says.
PR=$SRCDIR/data/workloads/paper-random.csv
run "$BBSIZE" report -o "$T/inf.html" --pfs-bw 70 --resolution 20 --points 5 "$PR"
status_is 0 "a report on an overloaded platform exits 0"
"$BBSIZE" size --pfs-bw 70 --resolution 20 "$PR" > "$T/inf-size.txt" || true
printf '%s\n' "$(X "string(//*[@id='answer'])" "$T/inf.html")" > "$T/inf-answer.txt"
check_cmd "the infeasible answer equals bbsize size's" cmp -s "$T/inf-size.txt" "$T/inf-answer.txt"

# Markdown: one file plus the plots as separate SVG files.
mkdir -p "$T/md"
run "$BBSIZE" report -o "$T/md/r.md" --format md --points 5
status_is 0 "report --format md exits 0"
n=0
for f in idle-vs-size load-distribution lazy-idle lazy-quiet; do
  xmllint --noout "$T/md/r-$f.svg" 2>/dev/null && grep -q "](r-$f.svg)" "$T/md/r.md" && n=$((n + 1))
done
check_cmd "four SVG files, each valid XML and linked from the Markdown" test "$n" -eq 4
check_cmd "the Markdown has the six sections" test "$(grep -c '^## [1-6]\. ' "$T/md/r.md")" -eq 6

# No key (legend) covers a curve or a label: for each plot of the same
# report as SVG files, the key box lies outside the plot area, no point of
# a curve falls in it and no label's box meets it (tests/svg_key.awk).
mkdir -p "$T/keys"
run "$BBSIZE" report -o "$T/keys/r.md" --format md --system trinity --points 11
for f in idle-vs-size load-distribution lazy-idle lazy-quiet; do
  tr '\n\t' '  ' < "$T/keys/r-$f.svg" | sed 's/</\n</g' > "$T/keys/$f.lines"
  if awk -f "$SRCDIR/tests/svg_key.awk" "$T/keys/$f.lines" > "$T/keys/$f.found"; then
    ok "the $f key covers no curve and no label"
  else
    notok "the $f key covers no curve and no label"; sed 's/^/# /' "$T/keys/$f.found" | head -n 5
  fi
done

# The inputs table names the solver that ran, from bba_solver_name.
solver_row() { X "string(//*[local-name()='tr'][*[local-name()='td'][1]='stationary solver']/*[local-name()='td'][2])" "$1"; }
check_cmd "the inputs table names the default solver (FFT Wiener-Hopf, and its fallback)" test "$(solver_row "$T/r.html")" = "FFT Wiener-Hopf (banded GTH where GMRES does not converge)"
# banded GTH: costed at about 1.1e12 multiply-adds (2 min of CPU), just
# over the default --max-ops
run "$BBSIZE" report -o "$T/gth.html" --points 5 --solver banded --resolution 100
check_cmd "the inputs table names banded GTH under --solver banded" test "$(solver_row "$T/gth.html")" = "banded GTH"
run "$BBSIZE" report -o "$T/umf.html" --points 5 --solver umfpack --resolution 100
check_cmd "the inputs table names UMFPACK under --solver umfpack" test "$(solver_row "$T/umf.html")" = "UMFPACK (sparse LU)"
run "$BBSIZE" report -o "$T/gs.html" --points 5 --solver gauss-seidel
check_cmd "the inputs table names Gauss-Seidel under --solver gauss-seidel" test "$(solver_row "$T/gs.html")" = "Gauss-Seidel"

# Headless Chromium (Debian's chromium, installed by ./quickstart.sh check)
# loads the page as XHTML without a parse error, builds the four plots, and
# renders it to a non-blank PNG.
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then
  t_skip "headless Chromium DOM" "chromium is not installed: ./quickstart.sh check installs it"
  t_skip "headless Chromium render" "chromium is not installed: ./quickstart.sh check installs it"
else
  "$CHROME" --headless --no-sandbox --disable-gpu --dump-dom "file://$T/r.html" \
    >"$T/dom.html" 2>/dev/null || true
  check_cmd "Chromium parses the page (no parsererror) and builds its five SVG plots" \
    test "$(grep -c parsererror "$T/dom.html")" -eq 0 -a "$(grep -o '<svg' "$T/dom.html" | wc -l)" -eq 5
  "$CHROME" --headless --no-sandbox --disable-gpu --window-size=1000,3400 \
    --screenshot="$T/shot.png" "file://$T/r.html" >/dev/null 2>&1 || true
  # A blank page compresses to almost nothing; the plots do not.
  check_cmd "headless Chromium renders a non-blank PNG" test "$(wc -c < "$T/shot.png" 2>/dev/null || echo 0)" -gt 20000
fi

# --validate runs `bbsize validate`'s code in-process at 0, S/2, ..., 2S:
# every row has one of the three verdicts, and the table is the command's
# own at those sizes with no --horizon (same defaults, seed 1, the same
# rule for the length: sim/crosscheck.h).
run "$BBSIZE" report -o "$T/v.html" --validate --points 5
status_is 0 "report --validate exits 0"
VT="//*[@id='validation-table']/*[local-name()='tr']"
check_cmd "the validation section has the simulated intervals" \
  test "$(X "count($VT)" "$T/v.html")" -ge 2
check_cmd "every validation row has one of the three verdicts" \
  test "$(X "count($VT/*[local-name()='td'][5][.='agrees' or .='disagrees' or .='inconclusive'])" "$T/v.html")" \
    -eq "$(X "count($VT[*[local-name()='td']])" "$T/v.html")"
# the sizes simulated, in bytes (the idle plot's data table)
vsz=$(X "//*[@id='idle-sim-table']/*[local-name()='tr'][*[local-name()='td']]/*[local-name()='td'][2]" "$T/v.html" \
  | sed 's/<[^>]*>/ /g' | awk '{ for (i = 1; i <= NF; i++) printf "%s%sB", (n++ ? "," : ""), $i }')
"$BBSIZE" validate --bb-size "$vsz" $(bought "$T/v.html") --csv --quiet >"$T/v0.csv" 2>"$T/err" || true
X "$VT[*[local-name()='td']]" "$T/v.html" | sed 's/<[^>]*>/ /g' | awk '{ print $3, $4, $7 }' > "$T/v0.page"
check_cmd "the report's table is bbsize validate --bb-size $vsz with no --horizon, row for row" \
  test -s "$T/v0.page" -a "$(cat "$T/v0.page")" = "$(awk -F, 'NR > 1 { printf "%.4g %.4g %s\n", $3, $4, $11 }' "$T/v0.csv")"
check_cmd "... and the page says the length is validate's rule" \
  grep -q "The length is the rule of bbsize validate (sim/crosscheck.h).*a first run of 15 x [0-9]* time units" "$T/v.html"
check_cmd "at the recommended size (the third row) the verdict is conclusive" \
  test "$(X "string($VT[4]/*[local-name()='td'][5])" "$T/v.html")" != inconclusive
# --replications and --horizon are validate's: the size-0 row again
run "$BBSIZE" report -o "$T/v2.html" --validate --points 3 --load-scale 1 --replications 3 --horizon 5000
status_is 0 "report --validate --replications 3 --horizon 5000 exits 0"
"$BBSIZE" validate --bb-size 0 $(bought "$T/v2.html") --replications 3 --horizon 5000 --csv --quiet >"$T/v2.csv" 2>"$T/err" || true
check_cmd "... its size-0 row is validate --replications 3 --horizon 5000's" \
  test "$(X "string($VT[2]/*[local-name()='td'][2])" "$T/v2.html") $(X "string($VT[2]/*[local-name()='td'][3])" "$T/v2.html")" \
    = "$(awk -F, 'NR == 2 { printf "%.4g %.4g", $3, $4 }' "$T/v2.csv")"

# The length is validate's rule, and the idle plot draws the simulated
# points with their intervals.  A workload at E/B 0.9 whose idle units
# come in runs (the workload's clustering is about 129 units).
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.3,1TB/s\nb,0.3,1TB/s\nc,0.3,1TB/s\n' > "$T/runs.csv"
mkdir "$T/vmd"
run "$BBSIZE" report "$T/runs.csv" -o "$T/vmd/r.md" --format md --validate --seed 2 --points 9
status_is 0 "report --validate --format md exits 0"
sed -n '/^## 6\./,$p' "$T/vmd/r.md" | sed -n 's/^| \([0-9.]* [kMGTP]*B\) | [^|]* | \([^ ]*\) | \[\([^,]*\), \([^]]*\)\] | [a-z]* |$/\2 \3 \4/p' > "$T/vmd/table"
awk '/^# [0-9]+ x y ylow yhigh$/ { on = 1; next } /^#/ { on = 0 } on && NF == 4 { printf "%.4g %.4g %.4g\n", $2, $3, $4 }' "$T/vmd/r-idle-vs-size.dat" > "$T/vmd/plotted"
check_cmd "the idle plot's data file holds the simulated points and intervals of section 6 ($(wc -l < "$T/vmd/table") rows)" \
  test -s "$T/vmd/table" -a "$(cat "$T/vmd/plotted")" = "$(cat "$T/vmd/table")"
check_cmd "... the SVG has their series, its title naming them" \
  grep -q "class=\"series\"><title>simulated, load x1: mean and 95% interval (section 6)</title>" "$T/vmd/r-idle-vs-size.svg"
check_cmd "... and the page says the plot draws them" grep -q "idle plot of section 2 draws these simulated points" "$T/vmd/r.md"
# the verdict in the third row of a markdown page's section 6 (size S)
verdict_at_S() { sed -n '/^## 6\./,$p' "$1" | grep '^| [0-9]' | sed -n 3p | awk -F'|' '{ print $6 }' | tr -d ' '; }
check_cmd "at the rule's length the verdict at S is conclusive" test "$(verdict_at_S "$T/vmd/r.md")" != inconclusive
# The one re-run: at --max-events 1e7 the first run resolves only the
# predictions down to that at 0 B; with seed 3 it leaves a row
# inconclusive, and the run is repeated once at the rule's length at the
# dispersion it measured, within the same budget: S concludes.
run "$BBSIZE" report "$T/runs.csv" -o "$T/vmd/x.md" --format md --validate --seed 3 --points 9 --max-events 1e7
status_is 0 "report --validate --max-events 1e7 exits 0"
check_cmd "the first run left a row inconclusive: the page says so and ran the rule's length again" \
  grep -q "a first run of 15 x [0-9]* time units.*budget of 1e+07 events.*; it left a row inconclusive, so the run below is the length the rule asks at the dispersion measured, 15 x [0-9]* time units" "$T/vmd/x.md"
check_cmd "... and the verdict at S is then conclusive" test "$(verdict_at_S "$T/vmd/x.md")" != inconclusive
# Beyond the budget: --max-events 2e5 affords only the least length (1000
# units); the verdict at S stays inconclusive, and the warning and the
# page give the options that would run the rule's length, which do.
run "$BBSIZE" report "$T/runs.csv" -o "$T/vmd/m.html" --validate --seed 2 --points 9 --max-events 2e5
status_is 0 "a conclusive length beyond --max-events: the report still exits 0"
check_cmd "... warns with the length, its CPU time and the options that would run it" \
  grep -q "the verdict at the recommended size is inconclusive; a conclusive one needs about [0-9]* time units a replication (about [0-9.e+]* s of CPU): run .bbsize report --validate --horizon [0-9]* --max-events [0-9]*. to have it" "$T/err"
check_cmd "... and the page names that length, beyond the budget" \
  grep -q "A conclusive verdict there needs about [0-9.]* time units a replication (about [0-9.e+]* s of CPU estimated), beyond the budget: rerun with --horizon [0-9]* --max-events [0-9]* to have it" "$T/vmd/m.html"
vopt=$(sed -n 's/.*run .bbsize report --validate \(--horizon [0-9]* --max-events [0-9]*\). to have it.*/\1/p' "$T/err")
run "$BBSIZE" report "$T/runs.csv" -o "$T/vmd/h.md" --format md --validate --seed 2 --points 9 $vopt
# A conclusive length makes a conclusive verdict likely, not certain (the
# mean is random): what the options must deliver is that length, and an
# interval at S narrower than the +-50% tolerance.
hs=$(echo "$vopt" | awk '{ print $2 }')
hw=$(sed -n '/^## 6\./,$p' "$T/vmd/h.md" | grep '^| [0-9]' | sed -n 3p |
  awk -F'|' '{ m = $4 + 0; gsub(/[][ ]/, "", $5); split($5, b, ","); print (b[2] - b[1]) / 2 / m }')
check "... and with them ($vopt) it simulates that length, its half-width at S ($hw of the mean) within the tolerance" \
  'grep -q "15 replications x $hs time units" "$T/vmd/h.md" && awk -v h="$hw" "BEGIN { exit !(h > 0 && h < 0.5) }"'
check_cmd "the HTML names the simulated series on the idle plot" \
  grep -q "<title>simulated, load x1: mean and 95% interval (section 6)</title>" "$T/vmd/m.html"
ST="//*[@id='idle-sim-table']/*[local-name()='tr'][*[local-name()='td']]"
X "$ST" "$T/vmd/m.html" | sed 's/<[^>]*>/ /g' | awk '{ print $4, $5, $6 }' > "$T/vmd/simdata"
X "$VT[*[local-name()='td']]" "$T/vmd/m.html" | sed 's/<[^>]*>/ /g; s/\[//; s/,//; s/\]//' | awk '{ print $4, $5, $6 }' > "$T/vmd/simtab"
check_cmd "... and the plot's data table holds the points and intervals of section 6" \
  test -s "$T/vmd/simdata" -a "$(cat "$T/vmd/simdata")" = "$(cat "$T/vmd/simtab")"

# Bad input: nothing partial is ever left behind.
mkdir "$T/empty"
run "$BBSIZE" report -o "$T/empty/r.html" --system atlantis
status_is 64 "an unknown system exits 64"
err_has "known: aurora, cori," "the unknown-system message lists the known ones"
run "$BBSIZE" report -o "$T/nodir/r.html"
status_is 73 "an output in a missing directory exits 73"
: > "$T/afile"
run "$BBSIZE" report -o "$T/afile/r.html"
status_is 73 "an output under a regular file exits 73"
if [ "$(id -u)" -eq 0 ]; then
  t_skip "non-writable directory" "root can write anywhere"
else
  mkdir "$T/ro"; chmod 555 "$T/ro"
  run "$BBSIZE" report -o "$T/ro/r.html"
  status_is 73 "a non-writable directory exits 73"
  chmod 755 "$T/ro"
fi
run "$BBSIZE" report -o "$T/empty/r.html" --cost-tb -5
status_is 64 "a negative price exits 64"
err_has "option '--cost-tb': '-5' is not in [0, inf]" "the negative-price message names the option"
run "$BBSIZE" report -o "$T/empty/r.html" --cost-gbs ten
err_has "option '--cost-gbs': 'ten' is not a finite number" "a non-numeric price is refused"
run "$BBSIZE" report -o "$T/empty/r.html" --cost-tb 1 "$SRCDIR/data/workloads/paper-random.csv"
status_is 64 "prices on a workload in data units exit 64"
PATH=/nonexistent run "$BBSIZE" report -o "$T/empty/r.html"
status_is 70 "without gnuplot on PATH the report exits 70"
err_has "gnuplot not found on PATH" "the message says gnuplot is missing"
check_cmd "no file is left behind by the failures" test -z "$(ls -A "$T/empty")"
