#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cli_hostile.sh: hostile inputs, by class of issue 15.
#   2  no crash, no memory error (exit statuses below 128: no signal);
#   3  no hang: every run is bounded before it starts (status 2, the size in
#      events or memory and the option to change), and the bound can be
#      raised on purpose;
#   4  no silent wrong answer: a value is accepted with its documented
#      meaning or refused with file:line:field (65) or the option (64);
#   5  honest numbers: intervals inside [0, 1] and >= 0, three verdicts,
#      the time unit in the answer and its precedence, a BOM reads as absent.
# Each run has a timeout, so a regression that hangs fails instead of
# blocking the suite.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
SRC=$SRCDIR
B=$BBSIZE
TO="timeout $((60 * ${BBSIZE_TIME_SCALE:-1}))"   # an ASan build scales it (Makefile.am)

# t_st DESC STATUS PATTERN CMD...: status and stderr pattern, with a timeout.
t_st() {
  _d=$1; _w=$2; _p=$3; shift 3
  _g=0
  $TO "$@" >"$T/out" 2>"$T/err" || _g=$?
  if [ "$_g" -eq "$_w" ] && grep -Eq -- "$_p" "$T/err"; then t_ok "$_d"
  else t_fail "$_d (exit $_g, expected $_w and /$_p/)" "$T/err"; fi
}

# ---- class 2: no crash -------------------------------------------------
mkdir -p "$T/dd/systems"
cp "$SRC/data/systems/cori.conf" "$SRC/data/systems/trinity.conf" "$T/dd/systems/"
ln -s "$T/nowhere.conf" "$T/dd/systems/ghost.conf"
mkdir "$T/dd/systems/adir.conf"
rc=0; BBSIZE_DATADIR=$T/dd $TO "$B" systems >"$T/out" 2>"$T/err" || rc=$?
check "systems with a dangling link and a directory among presets: no signal (status $rc)" \
  '[ "$rc" -gt 0 ] && [ "$rc" -lt 128 ]'
check "systems still lists the good presets" 'grep -q "^cori " "$T/out" && grep -q "^trinity " "$T/out"'
check "systems names the dangling link as such" 'grep -q "ghost.conf.*dangling symbolic link" "$T/err"'
BBSIZE_DATADIR=$T/dd t_st "--system naming a dangling link: 66, no recursion" 66 "dangling" \
  "$B" size --system ghost
BBSIZE_DATADIR=$T/dd t_st "--system GHOST (case-insensitive) too" 66 "dangling" \
  "$B" size --system GHOST
BBSIZE_DATADIR=$T/dd t_st "--system naming a directory: no signal" 66 "adir.conf" \
  "$B" size --system adir
t_st "sweep --policy foo names foo (no freed memory in the message)" 64 \
  "option '--policy': 'foo' is not greedy or lazy" "$B" sweep --policy foo
t_st "sweep --policy greedy,bogus names bogus" 64 "'bogus' is not greedy or lazy" \
  "$B" sweep --policy greedy,bogus

# ---- class 3: bounded before it starts -----------------------------------
t_st "simulate --d-min 1e-300: refused with the events and --max-events" 2 \
  "about [0-9.e+]+ events.*--max-events" "$B" simulate --mode periodic --d-min 1e-300 --bb-size 1TB
t_st "simulate --horizon 1e11: refused" 2 "events.*--horizon" \
  "$B" simulate --bb-size 1TB --horizon 1e11
t_st "simulate over --max-events 1000: refused" 2 "bound of 1000" \
  "$B" simulate --bb-size 1TB --horizon 1000 --replications 2 --max-events 1000
t_run "simulate: --max-events raises the bound on purpose" 0 \
  "$B" simulate --bb-size 1TB --horizon 1000 --replications 2 --max-events 1e4
t_st "bbarch with 1 ns MTTF and MTTR: refused" 2 "events.*--mttf" \
  "$B" bbarch --mttf 1ns --mttr 1ns
t_st "bbarch --horizon 1e308: refused" 2 "events" "$B" bbarch --horizon 1e308
t_st "bbarch, drives of 1 ns Weibull scale: refused" 2 "events" \
  "$B" bbarch --drive-scale 1ns --mttr 1ns
t_st "bbarch keeping 4e8 iostat rows: refused for memory" 2 "of memory.*--max-memory" \
  "$B" bbarch --horizon 100 --interval 1us --iostat "$T/io.csv"
check "the refused bbarch wrote no iostat file" '[ ! -e "$T/io.csv" ]'
t_st "bbarch over --max-events 10: refused" 2 "bound of 10" \
  "$B" bbarch --horizon 10s --max-events 10
t_run "bbarch: a short run within the bounds runs" 0 \
  "$B" bbarch --horizon 1ms --mttf 1ns --mttr 1ns
t_st "netload --duration 1e308: refused" 2 "events.*--duration" \
  "$B" netload --duration 1e308
t_st "netload over --max-memory 1kB: the topology is refused" 2 "memory.*--max-memory" \
  "$B" netload --max-memory 1kB --describe
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "A { "; for (i = 0; i < 100000; i++) printf "} "; print "" }' \
  >"$T/nest.conf"
t_st "a .conf with 100,000 nested sections: 65, no stack overflow" 65 "nested deeper than 32" \
  "$B" netload --topology "$T/nest.conf" --describe
sed -e 's/num_groups="9"/num_groups="10001"/' "$SRC/data/network/dfdally_72.conf" >"$T/g.conf"
t_st "a 10,001-group .conf: 65 naming the field" 65 "g.conf:[0-9]+: field 'num_groups'" \
  "$B" netload --topology "$T/g.conf" --describe
t_st "trace: Graph500 on a million processes, refused before drawing" 2 "Graph500 trace.*events.*--nodes" \
  "$B" trace --model graph500 --nodes 1000000
t_st "trace: Graph500 at scale 40, refused before drawing (was 11 GB in a minute)" 2 \
  "1.37e\+11 messages" "$B" trace --model graph500 --scale 40
t_st "trace: 10^8 files in 1 GB: refused for memory" 2 "memory.*--files" \
  "$B" trace --model fileload --files 100000000 --max-memory 1GB
# An endless input (a device node of our own when root, else /dev/zero
# itself, only read) stops at the first NUL byte instead of filling memory.
Z=/dev/zero
if [ "$(id -u)" -eq 0 ] && mknod "$T/zero" c 1 5 2>/dev/null; then Z=$T/zero; fi
t_st "a workload of endless NUL bytes: 65 at once" 65 "binary data, not a text file" "$B" size "$Z"
t_st "darshan text of endless NUL bytes: 65 at once" 65 "binary data, not a text file" "$B" fit darshan "$Z"
t_st "a CODES .conf of endless NUL bytes: 65 at once" 65 "binary data, not a text file" \
  "$B" netload --topology "$Z" --describe
t_st "a device file of endless NUL bytes: 65 at once" 65 "binary data, not a text file" \
  "$B" device --device "$Z" --pattern seqread
t_st "a VEF trace of endless NUL bytes: 65 at once" 65 "binary data, not a text file" "$B" trace "$Z"
t_st "wiring files of endless zeros: refused at 64 MiB" 65 "larger than" \
  "$B" netload --intra "$Z" --inter "$Z" --describe
t_st "--max-events 0x10: hexadecimal refused" 64 "hexadecimal" \
  "$B" simulate --bb-size 1TB --max-events 0x10

# ---- class 4: no silent wrong answer ------------------------------------
t_st "--time-unit 1e308: the quantum overflows, refused (was 'inf EB')" 64 "overflows" \
  "$B" size --time-unit 1e308
check "... and nothing printed" '[ ! -s "$T/out" ]'
t_st "--bb-bw 1e300EB/s overflows" 64 "overflows" "$B" size --bb-bw 1e300EB/s
"$B" dist --bb-bw 1e12EB/s --json >"$T/d.json" 2>/dev/null
check "--bb-bw 1e12EB/s: Pr(load > B + B_BB) = 0 (was 1)" \
  "awk -v p=\"\$(json_num p_exceed_pfs_bb '$T/d.json')\" 'BEGIN { exit !(p != \"\" && p == 0) }'"
"$B" dist --bb-bw 1TB/s --json >"$T/d2.json" 2>/dev/null
check "--bb-bw 1TB/s: 0 < Pr(load > B + B_BB) < Pr(load > B)" \
  "awk -v a=\"\$(json_num p_exceed_pfs_bb \"$T/d2.json\")\" -v b=\"\$(json_num p_exceed_pfs \"$T/d2.json\")\" 'BEGIN { exit !(a > 0 && a < b) }'"
for v in 0x10 inf nan 1e999 -1; do
  t_st "--time-unit $v refused (64)" 64 "time-unit" "$B" size --time-unit "$v"
done
t_st "--pfs-bw 0x10GB/s: hexadecimal" 64 "hexadecimal" "$B" size --pfs-bw 0x10GB/s
t_st "--target-idle 0x1p-3: hexadecimal" 64 "hexadecimal" "$B" size --target-idle 0x1p-3
t_st "--bb-bw 0 (silently 'none'): refused" 64 "positive" "$B" size --bb-bw 0
t_st "--resolution 0 (silently the default): refused" 64 "resolution" "$B" size --resolution 0
for o in drive-scale interval mttr interarrival; do
  t_st "bbarch --$o 0 (none, or nonsense): refused" 64 "--$o': '0' is not positive" \
    "$B" bbarch --horizon 10 "--$o" 0
done

printf 'name,p,bw\na,0x1,10GB/s\n' >"$T/hex.csv"
t_st "workload p = 0x1: 65 with file:line:field" 65 "hex.csv:2: field 'p'.*hexadecimal" \
  "$B" size --pfs-bw 100GB/s "$T/hex.csv"
printf 'name,p,bw\na,nan,10GB/s\n' >"$T/nan.csv"
t_st "workload p = nan: 65 naming NaN" 65 "nan.csv:2: field 'p'.*NaN" \
  "$B" size --pfs-bw 100GB/s "$T/nan.csv"
printf 'name,p,bw\na,0.1,1e999GB/s\n' >"$T/ovf.csv"
t_st "workload bw = 1e999GB/s: overflow named" 65 "ovf.csv:2: field 'bw'.*overflows" \
  "$B" size --pfs-bw 100GB/s "$T/ovf.csv"
printf '#@ pfs-bw = 100GB/s\nname,p,bw\na,0.1,10GB/s\nb,0.2,20\n' >"$T/mix.csv"
t_st "a unitless bandwidth among rows with units: 65 at its line" 65 \
  "mix.csv:4: field 'bw': '20' has no unit, but line 3 has one" "$B" size "$T/mix.csv"
printf '#@ pfs-bw = 100GB/s\nname,p,bw\nb,0.2,20\na,0.1,10GB/s\n' >"$T/mix2.csv"
t_st "... and the reverse order" 65 "mix2.csv:4: field 'bw': '10GB/s' has a unit" \
  "$B" size "$T/mix2.csv"
printf '#@ pfs-bw = 100GB/s\n#@ pfs-bw = 200GB/s\nname,p,bw\na,0.1,10GB/s\n' >"$T/dup.csv"
t_st "a '#@' key twice: 65 with both lines" 65 "dup.csv:2: directive 'pfs-bw' given twice \\(first at line 1\\)" \
  "$B" size "$T/dup.csv"
printf '#@ pfs-bw = 100GB/s\n#@ bb-bw = 0GB/s\nname,p,bw\na,0.1,10GB/s\n' >"$T/bb0.csv"
t_st "'#@ bb-bw = 0' (silently none): refused" 65 "bb0.csv:2: directive 'bb-bw'.*not positive" \
  "$B" size "$T/bb0.csv"
printf '#@ pfs-bw = 100GB/s\nname,p,bw,period\na,0.1,10GB/s,0s\n' >"$T/per0.csv"
t_st "period 0 (silently none): refused" 65 "per0.csv:3: field 'period'.*not positive" \
  "$B" size "$T/per0.csv"
printf '#@ pfs-bw = 100GB/s\nname,p,bw\nbig,0.1,40GB/s\ntiny,0.5,1MB/s\n' >"$T/tiny.csv"
t_run "an application rounding to 0 quanta still answers" 0 "$B" size "$T/tiny.csv"
check "... and stderr names it and the vanished share of the load" \
  'grep -q "'"'"'tiny'"'"' .* rounds to 0 quanta" "$T/err" && grep -Eq "vanished: [0-9.e-]+% of the expected load" "$T/err"'
"$B" size "$T/tiny.csv" --resolution 100000 >/dev/null 2>"$T/err2" || true
check "... and not once the resolution keeps it" '! grep -q vanished "$T/err2"'

printf 'title = a\ntitle = b\npfs-bw = 1TB/s\n' >"$T/dd/systems/twice.conf"
BBSIZE_DATADIR=$T/dd t_st "a preset key twice: 65 with both lines" 65 \
  "twice.conf:2: key 'title' given twice \\(first at line 1\\)" "$B" size --system twice
printf 'pfs-bw = 0x10GB/s\n' >"$T/dd/systems/hexp.conf"
BBSIZE_DATADIR=$T/dd t_st "a preset rate in hexadecimal: 65" 65 "hexp.conf:1:.*hexadecimal" \
  "$B" size --system hexp
rm -f "$T/dd/systems/twice.conf" "$T/dd/systems/hexp.conf"

dev=$SRC/data/devices/intel-d3-s4510.dev
DV="--pattern seqread --size 1MiB"
{ cat "$dev"; echo "page_bytes = 4096"; } >"$T/twice.dev"
t_st "a device file key twice: 65" 65 "twice.dev:[0-9]+: field 'page_bytes' given twice" \
  "$B" device --device "$T/twice.dev" $DV
sed "s/^page_bytes *=.*/page_bytes = 0x1000/" "$dev" >"$T/hex.dev"
t_st "a device file value in hexadecimal: 65 naming it" 65 "hex.dev:[0-9]+: field 'page_bytes'.*hexadecimal" \
  "$B" device --device "$T/hex.dev" $DV

sed 's/routing="minimal"/routing="teleport"/' "$SRC/data/network/dfdally_72.conf" >"$T/tele.conf"
t_st "routing=\"teleport\": 65 with file:line:field (was read as minimal)" 65 \
  "tele.conf:[0-9]+: field 'routing': unknown routing 'teleport'" \
  "$B" netload --topology "$T/tele.conf" --describe
sed 's/num_groups="9";/num_groups="9";\n   num_groups="10";/' "$SRC/data/network/dfdally_72.conf" >"$T/dupk.conf"
t_st "a .conf key twice in a section: 65" 65 "dupk.conf:[0-9]+: key 'num_groups' given twice" \
  "$B" netload --topology "$T/dupk.conf" --describe
sed 's/cn_bandwidth="2.0"/cn_bandwidth="inf"/' "$SRC/data/network/dfdally_72.conf" >"$T/inf.conf"
t_st "a .conf value 'inf': 65 naming it" 65 "inf.conf:[0-9]+: field 'cn_bandwidth'.*infinite" \
  "$B" netload --topology "$T/inf.conf" --describe

D=$SRC/data/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt
for rt in 0 -5 nan 0x10; do
  sed "s/^# run time: .*/# run time: $rt/" "$D" >"$T/d.txt"
  t_st "darshan run time '$rt': 65 with file:line:field" 65 "d.txt:[0-9]+: field 'run time'" \
    "$B" fit darshan "$T/d.txt"
done
grep -v '^# run time\|^# start_time\|^# end_time' "$D" >"$T/d.txt"
t_st "darshan without any run time: 65" 65 "no '# run time:'" "$B" fit darshan "$T/d.txt"
head -c 5000 "$D" >"$T/d.txt"
t_st "darshan text cut short: 65 'truncated'" 65 "d.txt:[0-9]+: truncated" "$B" fit darshan "$T/d.txt"
sed '/^# run time/p' "$D" >"$T/d.txt"
t_st "darshan run time twice: 65" 65 "given twice" "$B" fit darshan "$T/d.txt"

# ---- a UTF-8 BOM reads as absent, in every format --------------------------
bom() { printf '\357\273\277'; cat "$1"; }
printf '#@ pfs-bw = 100GB/s\nname,p,bw\na,0.1,30GB/s\nb,0.2,40GB/s\n' >"$T/w.csv"
bom "$T/w.csv" >"$T/wb.csv"
"$B" size "$T/w.csv" >"$T/a1" 2>/dev/null
"$B" size "$T/wb.csv" >"$T/a2" 2>"$T/err"
check "a workload with a BOM gives the same answer" 'cmp -s "$T/a1" "$T/a2" && [ -s "$T/a1" ]'
bom "$SRC/data/systems/cori.conf" >"$T/dd/systems/bomcori.conf"
BBSIZE_DATADIR=$T/dd "$B" dist --system bomcori --json >"$T/o" 2>/dev/null
check "a preset with a BOM reads" 'grep -q "\"pfs_bw_bytes_per_s\": 700000000000" "$T/o"'
rm -f "$T/dd/systems/bomcori.conf"
bom "$dev" >"$T/bom.dev"
"$B" device --device "$dev" $DV --json >"$T/o1" 2>/dev/null
"$B" device --device "$T/bom.dev" $DV --json >"$T/o2" 2>/dev/null
check "a device file with a BOM gives the same result" 'cmp -s "$T/o1" "$T/o2" && [ -s "$T/o1" ]'
bom "$SRC/data/network/dfdally_72.conf" >"$T/bom.conf"
t_run "a CODES .conf with a BOM reads" 0 "$B" netload --topology "$T/bom.conf" --generate-wiring --describe
bom "$D" >"$T/bom.txt"
"$B" fit darshan "$D" >"$T/f1" 2>/dev/null
"$B" fit darshan "$T/bom.txt" >"$T/f2" 2>/dev/null
check "darshan text with a BOM gives the same workload" \
  '[ -s "$T/f1" ] && diff "$T/f1" "$T/f2" | grep -v "^[<>] #\|^---\|^[0-9]" | wc -l | grep -qx 0'

printf '\377\376n\000a\000' >"$T/u16.csv"
t_st "a UTF-16 workload: the message names UTF-16, not 'binary'" 65 "UTF-16 text" "$B" size "$T/u16.csv"

# ---- class 5: honest numbers ---------------------------------------------
"$B" simulate --bb-size 100TB --horizon 10000 --replications 2 --json >"$T/s.json" 2>/dev/null
lo=$(json_num idle_fraction_low "$T/s.json"); hi=$(json_num idle_fraction_high "$T/s.json")
m=$(json_num idle_fraction "$T/s.json")
check "2 replications: the idle interval is inside [0, 1] and holds the mean ($lo, $m, $hi)" \
  "awk -v l=$lo -v m=$m -v h=$hi 'BEGIN { exit !(l >= 0 && l <= m && m <= h && h <= 1) }'"
ol=$(json_num mean_occupancy_bytes_low "$T/s.json")
check "the occupancy interval is at or above 0 ($ol)" "awk -v l=$ol 'BEGIN { exit !(l >= 0) }'"
"$B" simulate --bb-size 2PB --json >"$T/s2.json" 2>/dev/null
check "no stall simulated: the interval is [0, u] with 0 < u < 1 (Clopper-Pearson)" \
  "awk -v l=$(json_num idle_fraction_low "$T/s2.json") -v h=$(json_num idle_fraction_high "$T/s2.json") 'BEGIN { exit !(l == 0 && h > 0 && h < 1) }'"
"$B" simulate --bb-size 1TB --replications 3 --horizon 50 --json >"$T/s3.json" 2>/dev/null
check "quiet fraction near 1: its interval stays <= 1" \
  "awk -v h=$(json_num quiet_fraction_high "$T/s3.json") 'BEGIN { exit !(h <= 1) }'"

# at the paper's 15 x 1,000 units (the default horizon would resolve 300 TB)
"$B" validate --bb-size 0:300TB:100TB --horizon 1000 --csv >"$T/v.csv" 2>/dev/null
check "validate --csv: a verdict per row, one of the three" \
  '[ "$(awk -F, '"'"'NR > 1 && $11 !~ /^(agrees|disagrees|inconclusive)$/'"'"' "$T/v.csv" | wc -l)" -eq 0 ] && [ "$(wc -l <"$T/v.csv")" -eq 5 ]'
check "validate: at 300 TB the prediction is below resolution, inconclusive, with more units" \
  "awk -F, 'NR == 5 { exit !(\$11 == \"inconclusive\" && \$13 == 1 && \$15 > 0 && \$12 == 1 && \$7 == \"\") }' '$T/v.csv'"
check "validate: at S = 0 (many stalls) the rows agree" \
  "awk -F, 'NR == 2 { exit !(\$11 == \"agrees\") }' '$T/v.csv'"
"$B" validate --bb-size 0:300TB:100TB --horizon 1000 >"$T/v.txt" 2>/dev/null
check "validate text explains 'below resolution' under the table" \
  'grep -q "^below resolution: no idle unit in 15000 simulated units" "$T/v.txt"'
check "validate text counts the three verdicts" 'grep -Eq "agree, [0-9]+ disagree, [0-9]+ inconclusive" "$T/v.txt"'
"$B" validate --bb-size 0 --tolerance 0.001 --csv >"$T/vt.csv" 2>/dev/null
check "validate --tolerance 0.001: an interval that wide is inconclusive, saying how many more" \
  "awk -F, 'NR == 2 { exit !(\$11 == \"inconclusive\" && \$14 > 0) }' '$T/vt.csv'"

"$B" size >"$T/one" 2>/dev/null
check "the one-line answer states its time unit" 'grep -q "time unit 1 min" "$T/one"'
"$B" size --time-unit 10s >"$T/one" 2>/dev/null
check "... the one given" 'grep -q "time unit 10 s" "$T/one"'
printf '#@ time-unit = 10 s\n#@ pfs-bw = 3 TB/s\nname,p,bw\na,0.1,1TB/s\n' >"$T/tu.csv"
"$B" dist --system cori --json "$T/tu.csv" >"$T/o" 2>"$T/err"
check "the workload's time unit beats the preset's" 'grep -q "\"time_unit_s\": 10" "$T/o"'
check "... and stderr says which was used and where both came from" \
  "grep -q \"time unit 10 s from .*tu.csv:1 ('#@ time-unit') overrides 1 min from .*cori.conf\" '$T/err'"
check "the preset's PFS bandwidth beats the file's, saying so" \
  "grep -q \"PFS bandwidth 700 GB/s from .*cori.conf overrides 3 TB/s from .*tu.csv:2\" '$T/err'"
"$B" dist --system cori --time-unit 5s --json "$T/tu.csv" >"$T/o" 2>"$T/err"
check "--time-unit beats both" 'grep -q "\"time_unit_s\": 5" "$T/o" && grep -q "time unit 5 s from --time-unit overrides 10 s" "$T/err"'
"$B" dist --json "$T/tu.csv" >"$T/o" 2>"$T/err"
check "no override, no message" '[ ! -s "$T/err" ]'

t_done
