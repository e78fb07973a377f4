#!/bin/sh
# cli_csv.sh: every command's --csv stream is one table (docs/json.md): a
# header of unique names and rows of as many fields, no second table, no
# "nan" (csv_table.awk); the second table of a scenario goes to the file
# --csv-links names.  The checker is tested first on tables that must fail.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
A=$SRCDIR/tests/csv_table.awk
S=$SRCDIR/data/scenarios

# table DESC FILE: FILE is one CSV table
table() {
  if awk -f "$A" "$2" >"$T/why" 2>&1; then t_ok "$1"; else t_fail "$1" "$T/why"; fi
}
# csv DESC STATUS CMD...: CMD exits with STATUS and its stdout is one table
csv() {
  _d=$1 _w=$2
  shift 2
  _rc=0
  "$@" >"$T/out.csv" 2>"$T/err" || _rc=$?
  if [ "$_rc" -ne "$_w" ]; then t_fail "$_d (exit $_rc, expected $_w)" "$T/err"; return; fi
  table "$_d" "$T/out.csv"
}

# The checker refuses two tables, a short row, a nan, a repeated name.
printf 'a,b\n1,2\n\nc\n3\n' >"$T/two.csv"
printf 'a,b\n1,2\n3\n' >"$T/short.csv"
printf 'a,b\n1,nan\n' >"$T/nan.csv"
printf 'a,a\n1,2\n' >"$T/dup.csv"
printf 'a,b\n"x,y",2\n' >"$T/quoted.csv"
for f in two short nan dup; do
  if awk -f "$A" "$T/$f.csv" >/dev/null 2>&1; then t_fail "checker: a $f table fails"
  else t_ok "checker: a $f table fails"; fi
done
table "checker: a quoted comma is one field" "$T/quoted.csv"

cp "$SRCDIR/tests/bursts3.csv" "$T/w.csv"
csv "size" 0 "$BBSIZE" size --csv
csv "size, fluid" 0 "$BBSIZE" size "$T/w.csv" --csv
csv "size, infeasible" 1 "$BBSIZE" size --csv --pfs-bw 500GB/s
csv "idle" 0 "$BBSIZE" idle --bb-size 100TB --csv
csv "dist" 0 "$BBSIZE" dist --csv
csv "sweep, two policies" 0 "$BBSIZE" sweep --bb-size 0:200TB:100TB --threshold 0,0.5 --csv
csv "sweep, fluid" 0 "$BBSIZE" sweep "$T/w.csv" --bb-size 0:2PB:1PB --csv
csv "frontier, priced" 0 "$BBSIZE" frontier --csv --cost-tb 100000 --cost-gbs 30000
csv "design, priced" 0 "$BBSIZE" design --pfs-bw 0.5TB/s,1TB/s,2TB/s --cost-tb 100000 --cost-pfs-gbs 20000 --csv
csv "partition" 0 "$BBSIZE" partition "$SRCDIR/data/workloads/groups.csv" --csv
csv "partition --validate" 0 "$BBSIZE" partition "$SRCDIR/data/workloads/groups.csv" --csv \
    --validate --steps 20 --replications 2 --horizon 2000
csv "validate" 0 "$BBSIZE" validate --bb-size 0:200TB:100TB --replications 3 --horizon 300 --csv
csv "validate, fluid" 0 "$BBSIZE" validate "$T/w.csv" --bb-size 1PB --replications 3 --horizon 1e5 --csv
csv "validate --scenario" 0 "$BBSIZE" validate --scenario "$S/validate-small.ini" --replications 2 --csv --quiet
csv "simulate SCENARIO.ini, with --csv-links" 0 "$BBSIZE" simulate "$S/validate-small.ini" --csv --quiet \
    --csv-links "$T/links.csv"
table "simulate --csv-links FILE: the link table" "$T/links.csv"
if [ "$(sed 1d "$T/links.csv" | cut -d, -f1 | tr '\n' ' ')" = "injection ejection local global " ] \
   && [ "$(sed 1d "$T/out.csv" | wc -l)" -eq 3 ]; then
  t_ok "simulate: three jobs on standard output, four link kinds in the file"
else t_fail "simulate: three jobs on standard output, four link kinds in the file" "$T/out.csv" "$T/links.csv"; fi
_rc=0
"$BBSIZE" simulate "$S/validate-small.ini" --csv --quiet --csv-links "$T/none/links.csv" \
    >"$T/out.csv" 2>"$T/err" || _rc=$?
if [ "$_rc" -eq 73 ] && [ ! -s "$T/out.csv" ] && [ ! -e "$T/none" ] && grep -q 'none/links.csv' "$T/err"; then
  t_ok "simulate --csv-links into a missing directory: 73 before the run, nothing written"
else t_fail "simulate --csv-links into a missing directory: 73 before the run, nothing written (exit $_rc)" "$T/err"; fi
# a scenario with failures: the fate of the written bytes is in the same table
{ sed '/^\[placement\]/,$d' "$S/validate-small.ini"
  printf '[failures]\nmttf = 20s\nmttr = 100ms\n'
  sed -n '/^\[job ckpt-a\]/,/^total_bytes/p' "$S/validate-small.ini"; } >"$T/f.ini"
csv "simulate SCENARIO.ini with [failures]" 0 "$BBSIZE" simulate "$T/f.ini" --csv --quiet
if head -n 1 "$T/out.csv" | grep -q ',bytes_lost,writes_lost,node_failures,drive_failures$'; then
  t_ok "simulate with [failures]: the bytes' fate and the failures are columns"
else t_fail "simulate with [failures]: the bytes' fate and the failures are columns" "$T/out.csv"; fi
csv "compare" 0 "$BBSIZE" compare "$S/validate-small.ini" "$S/validate-small.ini" --csv --quiet
csv "compare --replicas 2" 0 "$BBSIZE" compare "$S/validate-small.ini" "$S/validate-small.ini" \
    --replicas 2 --csv --quiet
csv "device" 0 "$BBSIZE" device --preset mfnetsim-bb --pattern seqwrite --bs 1MiB --size 64MiB --csv
csv "netload" 0 "$BBSIZE" netload --topology graph500-72 --load 0.1,0.2 --duration 2ms --csv --quiet
csv "trace, graph500 levels" 0 "$BBSIZE" trace --model graph500 --csv
t_done
