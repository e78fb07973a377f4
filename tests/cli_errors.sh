#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every bad input gets its message (file, line, field) and exit status, and
# no crash.  Statuses: 64 usage, 65 bad data, 66 unreadable, 2 too big.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
t_plan 47

w() { printf '%s\n' "$@" >"$T/w.csv"; }
B="--pfs-bw 100"

t_err "missing file" 66 "nope\.csv: cannot open" "$BBSIZE" idle "$T/nope.csv" $B --bb-size 10
: >"$T/empty.csv"
t_err "empty file" 65 "empty\.csv: empty workload" "$BBSIZE" idle "$T/empty.csv" $B --bb-size 10
w "a,0.1,10"
t_err "no header" 65 "w\.csv:1: no header row" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p" "a,0.1"
t_err "missing column" 65 "w\.csv:1: the header has no column 'bw'" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,abc,10"
t_err "non-numeric p" 65 "w\.csv:2: field 'p': 'abc' is not a number" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,nan,10"
t_err "NaN p" 65 "w\.csv:2: field 'p'" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,0.1,10" "b,1.5,10"
t_err "p above 1" 65 "w\.csv:3: field 'p': 1\.5 is not in \[0, 1\]" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,-0.1,10"
t_err "negative p" 65 "w\.csv:2: field 'p'" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,0.1,-10"
t_err "negative bandwidth" 65 "w\.csv:2: field 'bw': '-10' is negative" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,0.1,10Gb/s"
t_err "unknown unit" 65 "w\.csv:2: field 'bw': unknown size unit 'Gb'" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,0.1,10GB/fortnight"
t_err "unknown time unit" 65 "w\.csv:2: field 'bw': unknown time unit 'fortnight'" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "# only a comment" "name,p,bw"
t_err "zero applications" 65 "w\.csv: the workload has no application" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,0.1,10,extra"
t_err "row with too many fields" 65 "w\.csv:2: 4 fields, but the header has 3" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw,owner" "a,0.1,10,alice"
t_err "an unknown column is refused, named" 65 "w\.csv:1: unknown column 'owner'" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10
w "name,p,bw" "a,0.1,10"
t_err "zero PFS bandwidth" 64 "--pfs-bw.*positive" "$BBSIZE" idle "$T/w.csv" --pfs-bw 0 --bb-size 10
t_err "negative PFS bandwidth" 64 "--pfs-bw.*negative" "$BBSIZE" idle "$T/w.csv" --pfs-bw -5 --bb-size 10
t_err "zero resolution" 64 "--resolution.*not in \[1," "$BBSIZE" idle "$T/w.csv" $B --resolution 0 --bb-size 10
t_err "no PFS bandwidth at all" 64 "no PFS bandwidth" "$BBSIZE" idle "$T/w.csv" --bb-size 10
t_err "target above 1" 64 "--target-idle.*not in \(0, 1\)" "$BBSIZE" size "$T/w.csv" $B --target-idle 1.5
t_err "target 0" 64 "--target-idle.*not in \(0, 1\)" "$BBSIZE" size "$T/w.csv" $B --target-idle 0
t_err "threshold above 1" 64 "--threshold.*not in \[0, 1\]" "$BBSIZE" idle "$T/w.csv" $B --bb-size 10 --threshold 1.2
t_err "buffer too large for memory" 2 "would have [0-9]+ states.*GB" "$BBSIZE" idle "$T/w.csv" $B --bb-size 1e12
t_err "bad directive" 65 "w\.csv:1: directive 'pfs-bw'" sh -c "printf '#@ pfs-bw = fast\nname,p,bw\na,0.1,10\n' >'$T/w.csv'; exec '$BBSIZE' idle '$T/w.csv' --bb-size 10"
t_err "unknown command" 64 "unknown command 'sizes'" "$BBSIZE" sizes

# Every usage error has the one form (usage.h), whichever parser finds
# it: "bbsize CMD: option '--OPT': ..." and the line pointing at the
# command's help; status 64.
usage_form() {
  _d=$1 _cmd=$2 _opt=$3; shift 3
  _rc=0
  "$BBSIZE" "$_cmd" "$@" >"$T/out" 2>"$T/err" || _rc=$?
  if [ "$_rc" -eq 64 ] && head -n 1 "$T/err" | grep -q "^bbsize $_cmd: option '--$_opt': " \
     && grep -q "^Try \`bbsize $_cmd --help' or \`bbsize $_cmd --usage'" "$T/err"; then
    t_ok "usage form: $_d"
  else
    t_fail "usage form: $_d (exit $_rc)" "$T/err"
  fi
}
usage_form "a whole number out of range" idle resolution --bb-size 10 --resolution 0
usage_form "a size without a known unit" idle bb-size --bb-size 1XB
usage_form "a threshold above the buffer" idle threshold --bb-size 1TB --threshold 5PB
# checked with the options, before any model is built: a model over the
# memory limit (exit 2 alone) does not hide it
t_err "a threshold above the buffer, before the model" 64 \
  "option '--threshold': 5 PB is larger than the buffer \(1 TB\)" \
  "$BBSIZE" idle --bb-size 1TB --threshold 5PB --max-memory 1KB
usage_form "a platform rate" idle pfs-bw --bb-size 1TB --pfs-bw 0
usage_form "a seed" simulate seed --bb-size 1TB --seed -1
usage_form "a range of sizes" sweep bb-size --bb-size 1:0:1
usage_form "a duration in time units" simulate warmup --bb-size 1TB --warmup 5parsecs
usage_form "a list of loads" netload load --load 2
usage_form "a device option" device bs --preset intel-d3-s4510 --pattern randread --bs 0
t_err "an unknown device preset names the command and the presets" 64 \
  "^bbsize device: option '--preset': 'nosuch' is not a device preset \\(" \
  "$BBSIZE" device --preset nosuch --pattern randread

# One wording per kind of mistake, whichever command makes it (usage.h):
# the whole first line, the help line, status 64.
usage_line() {
  _d=$1 _want=$2; shift 2
  _rc=0
  "$BBSIZE" "$@" >"$T/out" 2>"$T/err" || _rc=$?
  if [ "$_rc" -eq 64 ] && [ "$(head -n 1 "$T/err")" = "$_want" ] \
     && sed -n 2p "$T/err" | grep -q "^Try \`bbsize $1 --help' or \`bbsize $1 --usage' for more information\.$"
  then t_ok "usage wording: $_d"
  else t_fail "usage wording: $_d (exit $_rc)" "$T/err"; fi
}
usage_line "a bad value" "bbsize generate: option '--load': 'x' is not a positive number (at most 1e6)" \
  generate --load x
usage_line "a required option" "bbsize device: option '--pattern' is required" \
  device --preset intel-d3-s4510
usage_line "a required -o" "bbsize report: option '-o' is required (the report's FILE)" report
usage_line "one of two options" "bbsize device: one of options '--preset' and '--device' is required" \
  device --pattern randread
usage_line "an option that needs another" \
  "bbsize generate: option '--burst' needs option '--d-min' (--burst pd draws the bursts from the periods d_i)" \
  generate --burst pd
usage_line "options in conflict" "bbsize netload: options '--jobs' and '--alloc' exclude each other" \
  netload --jobs 2 --alloc x
usage_line "options that go together" "bbsize bbarch: options '--intra' and '--inter' go together" \
  bbarch --intra x
usage_line "an option out of place" \
  "bbsize validate: option '--capacity' does not apply without a scenario" \
  validate --bb-size 100 --capacity 1TB
usage_line "a stray argument" "bbsize systems: unexpected argument 'foo'" systems foo
usage_line "a second workload file" \
  "bbsize idle: unexpected argument 'b.csv' (a second workload file after 'a.csv')" \
  idle a.csv b.csv
usage_line "a missing argument" \
  "bbsize trace: missing argument FILE (a VEF trace, or --model graph500 or fileload)" trace
usage_line "a run the library refuses, built from the command line alone" \
  "bbsize device: 24414062500 blocks: at most 2^32 - 1 per run" \
  device --preset intel-d3-s4510 --pattern randread --size 100TB
