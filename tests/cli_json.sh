#!/bin/sh
# cli_json.sh: every command's --json against its documented schema
# (docs/json/*.schema.json, checked by tests/jschema): each variant of the
# answer (Bernoulli, fluid, infeasible, bandwidth-bound, lazy, a preset)
# carries exactly the keys its schema documents, with their types, and
# the keys every command shares (workload, model, platform).  The checker
# itself is tested first on documents that must fail, so a schema check
# that cannot fail would be caught.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
JS=${JSCHEMA:-$(dirname "$BBSIZE")/../tests/jschema}
D=$SRCDIR/docs/json

cp "$SRCDIR/tests/bursts3.csv" "$T/w.csv"
cat >"$T/b.csv" <<'CSV'
#@ pfs-bw = 1 TB/s
#@ time-unit = 60 s
name,p,bw
a,0.1,2TB/s
b,0.2,1TB/s
CSV

# conforms DESC SCHEMA CMD...: CMD's standard output satisfies SCHEMA.
conforms() {
  _d=$1 _s=$2
  shift 2
  _rc=0
  "$@" >"$T/doc.json" 2>"$T/err" || _rc=$?
  if [ "$_rc" -gt 1 ]; then t_fail "$_d (exit $_rc)" "$T/err"; return; fi
  if "$JS" "$D/$_s.schema.json" "$T/doc.json" 2>"$T/js"; then t_ok "$_d"
  else t_fail "$_d" "$T/js"; fi
}

# The checker: a document with a key the schema lacks, without a required
# key, or with a wrong type fails; an unsupported schema keyword is an error.
"$BBSIZE" size "$T/b.csv" --json >"$T/ok.json"
sed 's/^{$/{ "undocumented": 1,/' "$T/ok.json" >"$T/extra.json"
grep -v '"target_idle"' "$T/ok.json" >"$T/missing.json"
sed 's/"feasible": true/"feasible": 1/' "$T/ok.json" >"$T/type.json"
printf '{"type": "object", "patternProperties": {}}\n' >"$T/bad.schema.json"
if "$JS" "$D/size.schema.json" "$T/ok.json"; then t_ok "checker: size's own output passes"
else t_fail "checker: size's own output passes"; fi
for f in extra missing type; do
  if "$JS" "$D/size.schema.json" "$T/$f.json" 2>"$T/js"; then t_fail "checker: a document with a $f key fails"
  else t_ok "checker: a document with a $f key fails"; fi
done
_rc=0; "$JS" "$T/bad.schema.json" "$T/ok.json" 2>"$T/js" || _rc=$?
if [ "$_rc" -eq 1 ] && grep -q 'not supported' "$T/js"; then t_ok "checker: an unsupported keyword is an error"
else t_fail "checker: an unsupported keyword is an error" "$T/js"; fi

conforms "size, Bernoulli (built-in workload)" size "$BBSIZE" size --json
grep -v 'time-unit' "$T/b.csv" >"$T/nounit.csv"
conforms "size, Bernoulli, no time unit (warning)" size "$BBSIZE" size "$T/nounit.csv" --json
if grep -q '"bb_size_bytes_at_double_time_unit": [0-9]' "$T/doc.json"; then
  t_ok "size without a time unit: the size at twice the unit is a number"
else t_fail "size without a time unit: the size at twice the unit is a number" "$T/doc.json"; fi
conforms "size, fluid" size "$BBSIZE" size "$T/w.csv" --json
conforms "size, lazy" size "$BBSIZE" size --json --policy lazy --threshold 0.5
conforms "size, infeasible (E >= B)" size "$BBSIZE" size "$T/b.csv" --json --pfs-bw 300GB/s
conforms "size, bandwidth-bound (Cori)" size "$BBSIZE" size --system cori --json
conforms "size, fluid, bandwidth-bound" size "$BBSIZE" size "$T/w.csv" --json --bb-bw 500GB/s
conforms "size, chain" size "$BBSIZE" size "$T/w.csv" --json --model chain --time-unit 60s --resolution 20
conforms "idle, Bernoulli" idle "$BBSIZE" idle --bb-size 100TB --json
conforms "idle, below the double range" idle "$BBSIZE" idle --bb-size 1PB --json
conforms "idle, fluid, lazy" idle "$BBSIZE" idle "$T/w.csv" --bb-size 1PB --policy lazy --threshold 0.3 --json
conforms "dist" dist "$BBSIZE" dist --json
conforms "dist with a buffer bandwidth" dist "$BBSIZE" dist --json --bb-bw 1TB/s
conforms "threshold, Bernoulli" threshold "$BBSIZE" threshold --bb-size 200TB --json
conforms "threshold, fluid" threshold "$BBSIZE" threshold "$T/w.csv" --bb-size 1.3PB --json
conforms "sweep, Bernoulli, two policies" sweep "$BBSIZE" sweep --bb-size 0:200TB:100TB --threshold 0,0.5 --json
conforms "sweep, fluid" sweep "$BBSIZE" sweep "$T/w.csv" --bb-size 0:2PB:1PB --json
conforms "simulate, Bernoulli" simulate "$BBSIZE" simulate --bb-size 200TB --replications 2 --horizon 200 --json
conforms "simulate, periodic" simulate "$BBSIZE" simulate --bb-size 200TB --mode periodic --d-min 5 --replications 2 --horizon 200 --json
conforms "simulate, fluid" simulate "$BBSIZE" simulate "$T/w.csv" --mode fluid --bb-size 1PB --horizon 1e5 --replications 3 --json
conforms "validate, Bernoulli" validate "$BBSIZE" validate --bb-size 0:200TB:100TB --replications 3 --horizon 300 --json
conforms "validate, fluid" validate "$BBSIZE" validate "$T/w.csv" --bb-size 1PB --replications 3 --horizon 1e5 --json

# The design commands, the static partitions (data/workloads/groups.csv)
G=$SRCDIR/data/workloads/groups.csv
printf 'name,p,bw,burst,group\nckpt-a,0.10,1.5TB/s,5min,x\nckpt-b,0.05,2TB/s,3min,y\nout-c,0.20,0.6TB/s,2min,y\n' >"$T/wg.csv"
sed -n '/^#@/p' "$T/w.csv" >>"$T/wg.csv"
conforms "frontier" frontier "$BBSIZE" frontier --json
conforms "frontier, priced, at a given PFS bandwidth" frontier "$BBSIZE" frontier --pfs-bw 1TB/s --cost-tb 100000 --cost-gbs 30000 --json
conforms "frontier, fluid" frontier "$BBSIZE" frontier "$T/w.csv" --json
conforms "design, an infeasible PFS bandwidth among them" design "$BBSIZE" design --pfs-bw 0.5TB/s,1TB/s,2TB/s --json
conforms "design, priced, with a drive rating and a currency" design "$BBSIZE" design --pfs-bw 0.5TB/s,1TB/s \
    --cost-tb 100000 --cost-pfs-gbs 20000 --cost-gbs 30000 --currency '$' --dwpd 3 --json
conforms "design, a given buffer bandwidth" design "$BBSIZE" design --pfs-bw 1TB/s --bb-bw 2TB/s --json
conforms "design, fluid" design "$BBSIZE" design "$T/w.csv" --pfs-bw 1TB/s,2TB/s --json
conforms "partition" partition "$BBSIZE" partition "$G" --json
conforms "partition --validate" partition "$BBSIZE" partition "$G" --validate --steps 20 --replications 2 --horizon 2000 --json
conforms "partition, fluid" partition "$BBSIZE" partition "$T/wg.csv" --json
conforms "partition, infeasible" partition "$BBSIZE" partition "$G" --pfs-bw 500GB/s --json
conforms "systems" systems "$BBSIZE" systems --json
DA=$SRCDIR/data/darshan
conforms "fit, counters and DXT of one job" fit "$BBSIZE" fit darshan "$DA/bbthemis-namd2-tacc-32p.darshan-parser.txt" \
    "$DA/bbthemis-namd2-tacc-32p.dxt-parser.txt" --json -q
conforms "fit, counters only (no burst)" fit "$BBSIZE" fit darshan "$DA/bbthemis-namd2-tacc-32p.darshan-parser.txt" --json -q
conforms "fit --skip-bad, a given gap" fit "$BBSIZE" fit darshan --skip-bad --gap 1s "$DA" --json -q
# fit --json gives the values the workload's row rounds (%.6g): p agrees
"$BBSIZE" fit darshan "$DA/bbthemis-namd2-tacc-32p.dxt-parser.txt" -q >"$T/fit.csv" 2>/dev/null
"$BBSIZE" fit darshan "$DA/bbthemis-namd2-tacc-32p.dxt-parser.txt" -q --json >"$T/fit.json" 2>/dev/null
t_close "fit: the JSON's p is the workload row's" "$(json_num p "$T/fit.json")" \
    "$(awk -F, '$1 == "namd2-32p" { print $2 }' "$T/fit.csv")" 1e-8
# The simulators of devices, architectures, networks, traces and scenarios
S=$SRCDIR/data/scenarios
conforms "device, a table preset" device "$BBSIZE" device --preset mfnetsim-bb --pattern seqwrite --bs 1MiB --size 64MiB --json
conforms "device, a disk" device "$BBSIZE" device --preset seagate-st2000nx0253 --pattern randread --bs 4KiB --size 4MiB --json
conforms "bbarch" bbarch "$BBSIZE" bbarch --horizon 5s --json
conforms "bbarch with failures" bbarch "$BBSIZE" bbarch --horizon 5s --mttf 1h --json
conforms "netload, steady state" netload "$BBSIZE" netload --topology graph500-72 --load 0.1 --duration 2ms --json
conforms "netload --fixed" netload "$BBSIZE" netload --topology graph500-72 --load 0.5 --fixed --warmup 0.2ms --duration 1ms --json
conforms "trace, a VEF file" trace "$BBSIZE" trace "$SRCDIR/data/traces/mpi-ring.vef" --json
conforms "trace, graph500" trace "$BBSIZE" trace --model graph500 --json
conforms "trace, fileload" trace "$BBSIZE" trace --model fileload --files 4 --file-size 1MB --ranks 2 --json
conforms "trace, run on a topology" trace "$BBSIZE" trace "$SRCDIR/data/traces/mpi-ring.vef" --topology graph500-72 --json
conforms "simulate SCENARIO.ini" simulate-scenario "$BBSIZE" simulate "$S/validate-small.ini" --quiet --json
{ sed '/^\[placement\]/,$d' "$S/validate-small.ini"
  printf '[failures]\nmttf = 20s\nmttr = 100ms\n'
  sed -n '/^\[job ckpt-a\]/,/^total_bytes/p' "$S/validate-small.ini"; } >"$T/f.ini"
conforms "simulate SCENARIO.ini with [failures]" simulate-scenario "$BBSIZE" simulate "$T/f.ini" --quiet --json
conforms "validate --scenario" validate-scenario "$BBSIZE" validate --scenario "$S/validate-small.ini" --replications 2 --quiet --json
conforms "compare" compare "$BBSIZE" compare "$S/validate-small.ini" "$S/validate-small.ini" --quiet --json
conforms "compare --replicas 2" compare "$BBSIZE" compare "$S/validate-small.ini" "$S/validate-small.ini" --replicas 2 --quiet --json
t_done
