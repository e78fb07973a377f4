#!/bin/sh
# cli_design.sh: `bbsize design` and `bbsize frontier`: every point is what
# `bbsize size` says for its PFS and burst-buffer bandwidths (endurance
# included), costs are the prices times the quantities, the cheapest is the
# least cost, the bandwidth rules (given, half the idle budget, cheapest
# share), infeasible PFS bandwidths, thread independence, bad options.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"

PR="--cost-tb 100000 --cost-gbs 30000 --cost-pfs-gbs 20000"

# size_of PFS BBW [ARGS...]: the size `bbsize size` answers (bytes; "" when none).
size_of() {
  _p=$1 _b=$2; shift 2
  if [ -z "$_b" ]; then   # an empty bandwidth: unlimited
    "$BBSIZE" size --pfs-bw "${_p}B/s" "$@" --json 2>/dev/null > "$T/s.json" || true
  else
    "$BBSIZE" size --pfs-bw "${_p}B/s" --bb-bw "${_b}B/s" "$@" --json 2>/dev/null > "$T/s.json" || true
  fi
  json_num bb_size_bytes "$T/s.json"
}

# agree FILE ARGS...: every feasible row of a design CSV equals `size`.
agree() {
  _f=$1; shift
  _rows=0 _bad=0
  while IFS=, read -r pfs feas sz bbw share idle binds rest; do
    [ "$pfs" = pfs_bw_bytes_per_s ] && continue
    _rows=$((_rows + 1))
    got=$(size_of "$pfs" "$bbw" "$@")
    if [ "$feas" = 1 ]; then
      w=$(awk -v a="$sz" 'BEGIN { printf "%.17g", a }')
      g=$(awk -v a="$got" 'BEGIN { printf "%.17g", a }')
      [ "$w" = "$g" ] || { echo "# PFS $pfs BB_BW $bbw: design $sz, size $got"; _bad=$((_bad + 1)); }
    else
      [ -z "$got" ] || { echo "# PFS $pfs: design infeasible, size $got"; _bad=$((_bad + 1)); }
    fi
  done < "$_f"
  [ "$_rows" -gt 0 ] && [ "$_bad" -eq 0 ]
}

# 1. Half the idle budget to throttling (no bandwidth price, no B_BB).
run "$BBSIZE" design --pfs-bw 0.5TB/s,0.8TB/s,1.6TB/s,2.4TB/s --cost-tb 100000 --cost-pfs-gbs 20000 --csv
status_is 0 "design over four PFS bandwidths exits 0"
cp "$T/out" "$T/half.csv"
check_cmd "one row per PFS bandwidth plus the header" test "$(wc -l < "$T/half.csv")" -eq 5
check "0.5 TB/s is below the expected load (544 GB/s): no design" \
  'awk -F, "NR == 2 { exit !(\$2 == 0) }" "$T/half.csv"'
check_cmd "every design equals bbsize size at its PFS and buffer bandwidth" agree "$T/half.csv"
check "throttling takes half the idle budget: bandwidth idle = target / 2 at most" \
  '(for r in 3 4 5; do b=$(awk -F, -v r=$r "NR == r { print \$4 }" "$T/half.csv"); p=$(awk -F, -v r=$r "NR == r { print \$1 }" "$T/half.csv");
     "$BBSIZE" size --pfs-bw "${p}B/s" --bb-bw "${b}B/s" --json 2>/dev/null > "$T/b.json";
     awk -v x="$(json_num bandwidth_idle_fraction "$T/b.json")" "BEGIN { exit !(x <= 0.0005 && x > 0.0004) }" || exit 1; done)'
check "cost = 100000 per TB + 20000 per PFS GB/s (the buffer bandwidth unpriced)" \
  'awk -F, "NR > 2 { c = 100000 * \$3 / 1e12 + 20000 * \$1 / 1e9; d = c - \$10; if (d < 0) d = -d; if (d > 1e-6 * c) exit 1 }" "$T/half.csv"'
check "the cheapest is the least cost" \
  'awk -F, "NR > 2 { if (min == \"\" || \$10 < min) { min = \$10; at = NR } } NR > 1 && \$11 == 1 { c = NR } END { exit !(c == at) }" "$T/half.csv"'

# 2. A given burst-buffer bandwidth stays; endurance through the front door.
run "$BBSIZE" design --pfs-bw 1TB/s:2TB/s:0.5TB/s --bb-bw 2TB/s --dwpd 3 --waf 2 $PR --csv
status_is 0 "design with a given bandwidth and a drive rating exits 0"
cp "$T/out" "$T/fixed.csv"
check "the given bandwidth (2 TB/s) at every PFS bandwidth" \
  'awk -F, "NR > 1 && \$4 != 2000000000000 { exit 1 }" "$T/fixed.csv"'
check "endurance sets the size (26 drive writes a day against 3 x 5/5 / 2)" \
  'awk -F, "NR > 1 && \$7 != \"endurance\" { exit 1 }" "$T/fixed.csv"'
check_cmd "every design equals bbsize size --dwpd 3 --waf 2" agree "$T/fixed.csv" --dwpd 3 --waf 2
check "the drives last: writes a day x waf <= 3 x size" \
  'awk -F, "NR > 1 && \$8 * 2 > 3 * \$3 * (1 + 1e-9) { exit 1 }" "$T/fixed.csv"'

# 3. The cheapest share of the idle budget when bandwidth has a price.
run "$BBSIZE" design --pfs-bw 1TB/s,1.6TB/s $PR --csv --threads 2
status_is 0 "design with a bandwidth price exits 0"
cp "$T/out" "$T/priced.csv"
check_cmd "the priced designs equal bbsize size at their bandwidth" agree "$T/priced.csv"
# No share of the frontier at 1 TB/s is cheaper than the one chosen (the
# frontier's own shares, settled, priced the same way).
"$BBSIZE" frontier --pfs-bw 1TB/s $PR --csv 2>/dev/null > "$T/front.csv"
check "the chosen share is no dearer than any point of the frontier (1 TB/s)" \
  'c=$(awk -F, "NR == 2 { print \$10 }" "$T/priced.csv");
   awk -F, -v c="$c" "NR > 1 && \$3 == 1 && \$9 != \"\" && \$9 < c * (1 - 1e-3) { exit 1 }" "$T/front.csv"'
run "$BBSIZE" design --pfs-bw 1TB/s,1.6TB/s $PR --csv --threads 1
check_cmd "the same output on one thread" cmp -s "$T/out" "$T/priced.csv"

# 4. The frontier: every point is `size --bb-bw`, capacity falls as the
# bandwidth grows, the bandwidth's own idle is the share of the target.
run "$BBSIZE" frontier --csv
status_is 0 "frontier exits 0"
cp "$T/out" "$T/fr.csv"
check_cmd "eight points (seven shares and unlimited) plus the header" test "$(wc -l < "$T/fr.csv")" -eq 9
n=0 bad=0
while IFS=, read -r bbw share feas sz rest; do
  [ "$bbw" = bb_bw_bytes_per_s ] && continue
  got=$(size_of 1450000000000 "$bbw")
  [ "$(awk -v a="$sz" 'BEGIN { printf "%.17g", a }')" = "$(awk -v a="$got" 'BEGIN { printf "%.17g", a }')" ] || bad=$((bad + 1))
  n=$((n + 1))
done < "$T/fr.csv"
check_cmd "every frontier point equals bbsize size --bb-bw (8 points)" test "$n" -eq 8 -a "$bad" -eq 0
check "capacity does not grow with bandwidth" \
  'awk -F, "NR > 1 { if (NR > 2 && \$4 > prev) exit 1; prev = \$4 }" "$T/fr.csv"'
check "throttling idles at most its share of the target" \
  'awk -F, "NR > 1 && \$2 != \"nan\" && \$6 > \$2 * 0.001 * (1 + 1e-9) { exit 1 }" "$T/fr.csv"'
run "$BBSIZE" frontier --bb-bw 1TB/s,1.5TB/s --json
status_is 0 "frontier at given bandwidths exits 0"
check "below the least bandwidth (1.0875 TB/s) no capacity suffices" \
  'grep -q "\"feasible\": false" "$T/out" && grep -q "\"feasible\": true" "$T/out"'
check "the least bandwidth any capacity needs is reported (1.087 TB/s rounded up to 1% of B)" \
  'test "$(json_num bb_bw_min_bytes_per_s "$T/out")" = 1087500000000.0'

# 5. Bad input.
run "$BBSIZE" design --cost-tb 1
status_is 64 "design without --pfs-bw: usage error"
err_has "option '--pfs-bw' is required (RATES" "... naming the option"
run "$BBSIZE" design --pfs-bw 1TB/s --cost-tb -5
status_is 64 "a negative price: usage error"
err_has "cost-tb" "... naming the option"
run "$BBSIZE" design --pfs-bw 1TB/s --currency '<b>'
status_is 64 "markup as a currency: usage error"
printf '#@ pfs-bw = 100\nname,p,bw\na,0.1,50\nb,0.2,40\n' > "$T/plain.csv"
run "$BBSIZE" design "$T/plain.csv" --pfs-bw 100:200:50 --cost-tb 5
status_is 64 "a price on a workload in data units: usage error"
err_has "options '--cost-*': the workload and platform are in data units" "... saying why"
run "$BBSIZE" report "$T/plain.csv" --cost-gbs 5 -o "$T/plain.html"
status_is 64 "report: a price on a workload in data units: usage error"
err_has "options '--cost-*': the workload and platform are in data units" "... in the same words"
if [ ! -e "$T/plain.html" ]; then t_ok "... and writes no report"; else t_fail "... and writes no report"; fi
run "$BBSIZE" size --dwpd 0
status_is 64 "--dwpd 0: usage error"
run "$BBSIZE" size --dwpd 1 --waf 0.5
status_is 64 "--waf below 1: usage error"
run "$BBSIZE" frontier --pfs-bw 0.5TB/s
status_is 1 "frontier with E >= B: status 1"
err_has "no capacity suffices" "... saying why"

# 6. A walk is not an override: design and sweep walk --pfs-bw RATES,
# frontier --bb-bw RATES, and the platform's value (here the built-in
# workload's 1.45 TB/s) is replaced, not overridden; the platform option
# itself still says when it overrides.
run "$BBSIZE" design --pfs-bw 0.8TB/s:3.25TB/s:0.05TB/s -q
status_is 0 "design walking --pfs-bw over the built-in workload exits 0"
check "... and says nothing of an override" '! grep -q overrides "$T/err"'
run "$BBSIZE" sweep --bb-size 0:100TB:50TB --pfs-bw 1TB/s,2TB/s -q
status_is 0 "sweep walking --pfs-bw exits 0"
check "... and says nothing of an override" '! grep -q overrides "$T/err"'
run "$BBSIZE" size --pfs-bw 2TB/s -q
check "size --pfs-bw 2TB/s says it overrides the file's 1.45 TB/s" \
  'grep -q "PFS bandwidth 2 TB/s from --pfs-bw overrides 1.45 TB/s" "$T/err"'
# 7. Answers that are answers (issue 38).  An infeasible PFS bandwidth
# (E >= B) prints the limit `bbsize size` gives, not 0.
G=$SRCDIR/data/workloads/groups.csv
"$BBSIZE" size --pfs-bw 0.5TB/s "$G" --json 2>/dev/null > "$T/lim.json" || true
want=$(json_num idle_fraction_limit "$T/lim.json")
"$BBSIZE" design --pfs-bw 0.5TB/s "$G" --csv 2>/dev/null > "$T/lim.csv"
t_close "design's idle limit at 0.5 TB/s is size's ($want)" \
  "$(awk -F, 'NR == 2 { print $12 }' "$T/lim.csv")" "$want" "$(awk -v w="$want" 'BEGIN { print w * 1e-3 }')"
"$BBSIZE" design --pfs-bw 0.5TB/s "$G" 2>/dev/null | awk 'NR == 2 { print $5 }' > "$T/lim.txt"
check "... and its table prints it to 3 digits" \
  'test "$(cat "$T/lim.txt")" = "$(awk -v w="$want" "BEGIN { printf \"%.3g\", w }")"'
# ... and says why that row has no size, the limit to 4 digits (as size does).
"$BBSIZE" design --pfs-bw 0.5TB/s,1.45TB/s "$G" > "$T/lim2.txt" 2> "$T/lim2.err"
check "... and says on stderr why the 500 GB/s row has no size, not the 1.45 TB/s one" \
  'grep -q "PFS bandwidth 500 GB/s: no burst-buffer size suffices: the idle fraction only falls to $(awk -v w="$want" "BEGIN { printf \"%.4g\", w }")" "$T/lim2.err" &&
   ! grep -q "1.45 TB/s: no burst" "$T/lim2.err"'
# Prices whose totals overflow: inf, and no cheapest among infinite costs.
run "$BBSIZE" design --pfs-bw 1TB/s,2TB/s --cost-tb 1e308 -q
status_is 0 "design with a price of 1e308 exits 0"
check "... prints no garbage integer" '! grep -q "9223372036854775808" "$T/out"'
check "... prints the infinite costs as inf" 'test "$(grep -c " inf$" "$T/out")" -eq 2'
check "... and marks no cheapest" '! grep -q " \*$" "$T/out" && grep -q "^no cheapest" "$T/out"'
# frontier prints no nan (an infeasible row has no idle fraction: -).
run "$BBSIZE" frontier -q
status_is 0 "frontier exits 0"
check "frontier prints no nan" '! grep -qi nan "$T/out"'
# The cheapest at an end of the walk is warned about; inside it is not.
"$BBSIZE" design --pfs-bw 1TB/s,1.2TB/s $PR -q > "$T/e.txt" 2> "$T/e.err"
star=$(awk 'NR > 1 && / \*$/ { print NR - 1 }' "$T/e.txt")
check "design warns when the cheapest ($star of 2) is at an end of the walk" \
  'test -n "$star" && grep -q "at the .* end of the walk" "$T/e.err"'
# A buffer of 0 B buys no bandwidth: every 0 B row has none, at no price.
"$BBSIZE" design --pfs-bw 2TB/s,4TB/s,8TB/s,16TB/s $PR --csv -q > "$T/z.csv"
check "no design of 0 B prices a buffer bandwidth" \
  'test "$(awk -F, '"'"'NR > 1 && $3 == 0 && $4 != "" { n++ } END { print n + 0 }'"'"' "$T/z.csv")" -eq 0'
# 8. The size search does not give up where a size exists: an 8-class
# bursty workload whose buffer bandwidth leaves the idle fraction falling
# slowly (the fluid search's own steps did not bracket it: exit 70).
cat > "$T/nova.csv" <<'CSV'
#@ pfs-bw = 2 TB/s
name,p,bw,burst
ckpt-a,0.05,4TB/s,10min
ckpt-b,0.04,3TB/s,8min
ckpt-c,0.08,1.5TB/s,5min
out-d,0.10,1TB/s,3min
out-e,0.15,0.6TB/s,2min
io-f,0.20,0.4TB/s,1min
io-g,0.25,0.3TB/s,30s
io-h,0.30,0.2TB/s,20s
CSV
NV="$T/nova.csv --pfs-bw 5TB/s --bb-bw 800GB/s -q"
run "$BBSIZE" size $NV --json
status_is 0 "size on the bursty workload at 5 TB/s and 800 GB/s answers (no exit 70)"
nb=$(json_num bb_size_bytes "$T/out")
# the answer meets the target, and 0.1% less does not (idle, independently)
idle_at() { "$BBSIZE" idle $NV --bb-size "$1B" --json 2>/dev/null | sed -n 's/ *"idle_fraction": \([0-9.e+-]*\),*/\1/p' | head -n 1; }
a1=$(idle_at "$nb")
a0=$(idle_at "$(awk -v b="$nb" 'BEGIN { printf "%.17g", b * 0.999 }')")
check "idle at the answer is <= 0.001 ($a1) and above it 0.1% below ($a0)" \
  'awk -v a="$a1" -v b="$a0" "BEGIN { exit !(a <= 0.001 && b > 0.001) }"'
# sweep's crossing brackets it
"$BBSIZE" sweep $NV --bb-size 0:600TB:20TB --csv > "$T/nsw.csv"
# the last size of the sweep above the target and the first at or below it
cross=$(awk -F, 'NR > 1 { if ($8 > 0.001) lo = $6; else if (hi == "") hi = $6 } END { print lo, hi }' "$T/nsw.csv")
check "the answer lies where sweep's idle fraction crosses 0.001 ($cross)" \
  'awk -v s="$nb" -v c="$cross" "BEGIN { split(c, x, \" \"); exit !(x[2] != \"\" && s > x[1] && s <= x[2]) }"'
run "$BBSIZE" design $T/nova.csv --bb-bw 800GB/s --pfs-bw 4TB/s:8TB/s:1TB/s $PR -q
status_is 0 "a priced design walk over the bursty workload exits 0"
check "... with a row per PFS bandwidth" 'test "$(grep -c "^[0-9.]* TB/s " "$T/out")" -eq 5'
# The walk's one estimate is its five designs' (each `size`'s own at that
# bandwidth), not its first front's build: Nova's said 0.1 s for 1.8 s.
ops_of() { sed -n 's/.*estimated at about .* (\([0-9.e+]*\) multiply-adds).*/\1/p' "$1" | head -n 1; }
"$BBSIZE" design $T/nova.csv --bb-bw 800GB/s --pfs-bw 4TB/s:8TB/s:1TB/s $PR --progress >/dev/null 2>"$T/dest"
sum=0
for b in 4 5 6 7 8; do
  "$BBSIZE" size $T/nova.csv --bb-bw 800GB/s --pfs-bw ${b}TB/s --progress >/dev/null 2>"$T/sest" || true
  sum=$(awk -v s="$sum" -v o="$(ops_of "$T/sest")" 'BEGIN { printf "%.17g", s + o }')
done
check "the fluid walk's estimate, $(ops_of "$T/dest"), is the sum of its designs' own ($sum)" \
  'awk -v d="$(ops_of "$T/dest")" -v s="$sum" "BEGIN { exit !(d > 0 && d / s > 0.99 && d / s < 1.01) }"'
# 9. size --load-scale: each line is `size` on the workload with every
# bandwidth scaled (written out here), at the same resolution.
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.1,2TB/s\nb,0.2,0.8TB/s\nc,0.05,3TB/s\n' > "$T/ls1.csv"
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.1,2.4TB/s\nb,0.2,0.96TB/s\nc,0.05,3.6TB/s\n' > "$T/ls12.csv"
run "$BBSIZE" size "$T/ls1.csv" --resolution 200 --load-scale 1,1.2 -q
status_is 0 "size --load-scale 1,1.2 exits 0"
check "... one line per load" 'test "$(grep -c "^load x" "$T/out")" -eq 2'
check "... x1 is plain size" 'test "$(sed -n "s/^load x1: //p" "$T/out")" = "$("$BBSIZE" size "$T/ls1.csv" --resolution 200 -q)"'
check "... x1.2 is size on the scaled workload" 'test "$(sed -n "s/^load x1.2: //p" "$T/out")" = "$("$BBSIZE" size "$T/ls12.csv" --resolution 200 -q)"'
run "$BBSIZE" size --load-scale 1.2 --json
status_is 64 "size --load-scale with --json is refused (64)"
# 10. --load-scale on idle, design and frontier (cmdspec.h bb_cmd_each_load):
# each load's line or rows are the command's own on the workload with every
# bandwidth scaled (ls12.csv, written out above), x1 the plain command's.
run "$BBSIZE" idle "$T/ls1.csv" --resolution 200 --bb-size 5TB --load-scale 1,1.2 -q
status_is 0 "idle --load-scale 1,1.2 exits 0"
check "... x1 is plain idle" 'test "$(sed -n "s/^load x1: //p" "$T/out")" = "$("$BBSIZE" idle "$T/ls1.csv" --resolution 200 --bb-size 5TB -q)"'
check "... x1.2 is idle on the scaled workload" 'test "$(sed -n "s/^load x1.2: //p" "$T/out")" = "$("$BBSIZE" idle "$T/ls12.csv" --resolution 200 --bb-size 5TB -q)"'
DW="--resolution 200 --pfs-bw 1TB/s:2TB/s:0.5TB/s --cost-tb 1000"
run "$BBSIZE" design "$T/ls1.csv" $DW --load-scale 1,1.2 -q
status_is 0 "design --load-scale 1,1.2 exits 0"
check "... a row per load and PFS bandwidth" 'test "$(grep -c "^x1\.2 *[0-9.]* TB/s " "$T/out")" -eq 3 && test "$(grep -c "^x1 *[0-9.]* TB/s " "$T/out")" -eq 3'
"$BBSIZE" design "$T/ls12.csv" $DW -q > "$T/d12.txt"
check "... x1.2's rows are design's on the scaled workload" 'test "$(sed -n "s/^x1\.2 *//p" "$T/out")" = "$(grep "^[0-9.]* TB/s " "$T/d12.txt")"'
check "... x1.2's cheapest line too" 'test "$(sed -n "s/^load x1.2: //p" "$T/out")" = "$(grep "^cheapest" "$T/d12.txt")"'
"$BBSIZE" design "$T/ls1.csv" $DW -q > "$T/d1.txt"
check "... x1's rows are plain design's" 'test "$(sed -n "s/^x1  *//p" "$T/out")" = "$(grep "^[0-9.]* TB/s " "$T/d1.txt")"'
run "$BBSIZE" frontier "$T/ls1.csv" --resolution 200 --load-scale 1.2,9 -q
status_is 1 "frontier --load-scale with a load above the PFS exits 1"
check "... that load says why on its line" 'grep -q "^load x9: no capacity suffices" "$T/out"'
"$BBSIZE" frontier "$T/ls12.csv" --resolution 200 -q > "$T/f12.txt"
check "... x1.2's rows are frontier's on the scaled workload" 'test "$(sed -n "s/^x1\.2 *//p" "$T/out")" = "$(sed -n "/^[0-9u]/p" "$T/f12.txt" | grep -v "^any")"'
run "$BBSIZE" design --pfs-bw 1TB/s --load-scale 1.2 --csv
status_is 64 "design --load-scale with --csv is refused (64)"
# 11. --policy lazy through frontier: each point is size's lazy answer at its
# bandwidth; a lazy buffer holding 30% before it drains is never smaller.
"$BBSIZE" frontier "$T/ls1.csv" --resolution 200 --bb-bw 4TB/s,5TB/s --json -q > "$T/fg.json"
run "$BBSIZE" frontier "$T/ls1.csv" --resolution 200 --bb-bw 4TB/s,5TB/s --policy lazy --threshold 0.3 --json -q
status_is 0 "frontier --policy lazy --threshold 0.3 exits 0"
bad=0
for bw in 4 5; do
  "$BBSIZE" size "$T/ls1.csv" --resolution 200 --bb-bw ${bw}TB/s --policy lazy --threshold 0.3 --json -q > "$T/sl.json"
  want=$(json_num bb_size_bytes "$T/sl.json")
  grep -q "\"bb_size_bytes\": $want" "$T/out" || { echo "# $bw TB/s: size says $want"; bad=1; }
done
check "... every point is size --policy lazy --threshold 0.3 at its bandwidth" 'test $bad -eq 0'
grep -o '"bb_size_bytes": [0-9.e+]*' "$T/fg.json" | cut -d' ' -f2 > "$T/fg.txt"
grep -o '"bb_size_bytes": [0-9.e+]*' "$T/out" | cut -d' ' -f2 > "$T/fl.txt"
check "... each lazy size is at least the greedy one" \
  'paste "$T/fg.txt" "$T/fl.txt" | awk "{ n++; if (!(\$2 + 0 >= \$1 + 0)) bad = 1 } END { exit !(n == 2 && !bad) }"'
run "$BBSIZE" frontier --threshold 10TB
status_is 64 "frontier --threshold as a size is refused (64): the size is searched"
# 12. size prints the drive writes a day on its line: JSON's figure, which
# is the volume a day over the size; none when no buffer is needed.
"$BBSIZE" size "$T/ls1.csv" --resolution 200 --json -q > "$T/dw.json"
dw=$(json_num drive_writes_per_day "$T/dw.json")
vol=$(json_num bb_write_bytes_per_day "$T/dw.json")
sz=$(json_num bb_size_bytes "$T/dw.json")
t_close "JSON's drive writes a day are its volume a day over the size" "$dw" "$(awk -v v="$vol" -v s="$sz" 'BEGIN { printf "%.17g", v / s }')" 1e-9
run "$BBSIZE" size "$T/ls1.csv" --resolution 200 -q
check "... and the line ends with them (%.3g)" 'grep -q "; $(awk -v d="$dw" "BEGIN { printf \"%.3g\", d }") drive writes a day\$" "$T/out"'
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.5,0.5TB/s\n' > "$T/nobb.csv"
run "$BBSIZE" size "$T/nobb.csv" -q
check "no load above the PFS: no buffer and no drive writes on the line" 'grep -q "^burst buffer 0 B" "$T/out" && ! grep -q "drive writes" "$T/out"'
t_done
