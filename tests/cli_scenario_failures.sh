#!/bin/sh
# cli_scenario_failures.sh: [failures] in scenarios: conservation of every
# job's written bytes, failure counts against the renewal-process
# expectation (Arrhenius factor, Weibull with shape 1), lost writes in a
# hand-worked case, and the bad-input paths.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e
hdr() {
    printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[storage]\ncapacity = 4GB\npfs_bandwidth = %s\n' "$1"
}
# 1. conservation with many failures: two checkpointing jobs, random placement
{ hdr 2GB/s; printf '[placement]\npolicy = random-node\n[failures]\nmttf = 2s\ntemperature = 35\nmttr = 100ms\ndrive_shape = 1.5\ndrive_scale = 5s\n'
  printf '[job a]\nmodel = checkpoint\nranks = 16\niterations = 10\ncompute = 300ms\ntotal_bytes = 4GB\n'
  printf '[job b]\nmodel = checkpoint\nranks = 8\niterations = 6\ncompute = 500ms\ntotal_bytes = 3GB\n'; } >"$T/c.ini"
t_run "a scenario with failures runs (csv)" 0 "$BBSIZE" simulate --csv --quiet "$T/c.ini"
# fate JOB COLUMN: the job's value in the named column of the CSV table
fate() { awk -F, -v j="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } k && $1 == j { print $k; exit }' "$T/out"; }
for j in a b; do
  t_close "job $j: written = on PFS + in buffer + lost" "$(fate $j bytes_written)" \
      "$(awk -v p="$(fate $j bytes_on_pfs)" -v b="$(fate $j bytes_in_buffer)" -v l="$(fate $j bytes_lost)" 'BEGIN { printf "%.0f", p + b + l }')" 1
done
t_close "job a: some bytes lost" "$(awk -v l="$(fate a bytes_lost)" -v w="$(fate a writes_lost)" 'BEGIN { print (l > 0 && w > 0) }')" 1 0
t_run "failures: the text table" 0 "$BBSIZE" simulate --quiet "$T/c.ini"
t_match "text: lost bytes per job and failure counts" "^failures: [0-9]+ node \\(Arrhenius\\), [0-9]+ drive" "$T/out"
t_run "same seed, same bytes" 0 "$BBSIZE" simulate --json --quiet "$T/c.ini"
cp "$T/out" "$T/j1"
"$BBSIZE" simulate --json --quiet "$T/c.ini" >"$T/j2" 2>/dev/null
# (the wall time and events per second are the only machine-dependent fields)
grep -v -e '"wall_s"' -e '"events_per_s"' "$T/j1" >"$T/k1"
grep -v -e '"wall_s"' -e '"events_per_s"' "$T/j2" >"$T/k2"
if cmp -s "$T/k1" "$T/k2"; then t_ok "json identical across runs"; else t_fail "json identical across runs"; fi

# 2. failure counts: one writer whose run lasts ~2000 s (two pauses of
# 1000 s); the node alternates exponential up times of mean
# mttf / factor and fixed repairs of 1 s, so about span / (mttf / factor
# + 1) failures, sd sqrt(span var / mean^3); tolerance 5 sd.
count() {  # KIND PARAM TEMP -> "observed expected tolerance"
  { hdr 1GB/s; printf '[failures]\n%s\ntemperature = %s\nmttr = 1s\n' "$1" "$2"
    printf '[job f]\nmodel = fileload\nranks = 1\nfiles = 2\nfile_size = 1MB\npause = 1000s\n'; } >"$T/n.ini"
  "$BBSIZE" simulate --json --quiet "$T/n.ini" >"$T/n.json" 2>/dev/null
  span=$(json_num simulated_s "$T/n.json")
  obs=$(json_num "$3" "$T/n.json")
  awk -v s="$span" -v o="$obs" -v t="$2" -v mt=10 'BEGIN {
      f = exp(0.38 / 8.617333262e-5 * (1 / 298.15 - 1 / (t + 273.15)))
      m = mt / f + 1; v = (mt / f) ^ 2
      printf "%s %.3f %.3f\n", o, s / m, 5 * sqrt(s * v / m ^ 3) }'
}
set -- $(count "mttf = 10s" 25 node_failures)
t_close "node failures at 25 C: $1 ~ $2" "$1" "$2" "$3"
set -- $(count "mttf = 10s" 45 node_failures)
t_close "node failures at 45 C (Arrhenius x2.53): $1 ~ $2" "$1" "$2" "$3"
set -- $(count "drive_scale = 10s
drive_shape = 1" 25 drive_failures)
t_close "Weibull shape 1 drive failures: $1 ~ $2" "$1" "$2" "$3"

# 3. no drain: 3 files of 1 MB 1000 s apart, mttf 10 s: each of the first
# two is lost before the next is written (P(no failure in 1000 s) = e^-100),
# the last stays in the buffer (failures stop with the last rank).
{ hdr 0; printf '[failures]\nmttf = 10s\nmttr = 1s\n'
  printf '[job f]\nmodel = fileload\nranks = 1\nfiles = 3\nfile_size = 1MB\npause = 1000s\n'; } >"$T/l.ini"
t_run "no drain, failures: runs" 0 "$BBSIZE" simulate --csv --quiet "$T/l.ini"
t_close "2 writes lost" "$(fate f writes_lost)" 2 0
t_close "2 MB lost" "$(fate f bytes_lost)" 2000000 0
t_close "1 MB left in the buffer" "$(fate f bytes_in_buffer)" 1000000 0
t_close "nothing on the PFS" "$(fate f bytes_on_pfs)" 0 0

# 4. without [failures] nothing is lost
{ hdr 2GB/s; printf '[job a]\nmodel = checkpoint\nranks = 4\ntotal_bytes = 1GB\n'; } >"$T/z.ini"
t_run "no failures: runs" 0 "$BBSIZE" simulate --json --quiet "$T/z.ini"
t_match "no failures: nothing lost" '"bytes_lost": 0' "$T/out"
t_close "no failures: everything drained" "$(json_num bytes_on_pfs "$T/out")" 1000000000 0

# 4. refused before it starts: a checkpoint job with no compute still
# lasts its I/O, 10 x 4 GB over 16 ranks at graph500-72's 5 GB/s
# terminal links = 0.5 s; the 9 buffer nodes each fail about
# T / (mttf + mttr) = 0.5 / 2e-6 = 2.5e5 times, two events each:
# 9 x 2 x 2.5e5 = 4.5e6 events (and some pieces), over a bound of 1e6
# (the run length was start + iterations x compute = 0: never refused)
{ hdr 2GB/s; printf '[failures]\nmttf = 1us\nmttr = 1us\n'
  printf '[job a]\nmodel = checkpoint\nranks = 16\niterations = 10\ncompute = 0\ntotal_bytes = 4GB\n'; } >"$T/r.ini"
expect_fail "failures over the I/O time of a compute-0 job: refused at once (2)" 2 \
    "about 4\.5[0-9]*e+06 events (4\.5e+06 node failures and repairs over 0\.5 s (\[failures\] mttf)).*bound of 1e+06" \
    "$BBSIZE" simulate --max-events 1e6 "$T/r.ini"

# bad input
{ hdr 1GB/s; printf '[failures]\nmttf = 10s\n[job a]\nmodel = checkpoint\nranks = 2\n'; } >"$T/b1.ini"
expect_fail "failures without mttr (65)" 65 "b1.ini:7: \\[failures\\] needs 'mttr'" "$BBSIZE" simulate "$T/b1.ini"
{ hdr 1GB/s; printf '[failures]\nmttf = soon\n[job a]\nmodel = checkpoint\nranks = 2\n'; } >"$T/b2.ini"
expect_fail "a bad time names file, line and key (65)" 65 "b2.ini:8: \\[failures\\] mttf 'soon'" "$BBSIZE" simulate "$T/b2.ini"
{ hdr 1GB/s; printf '[failures]\nmtbf = 3s\n[job a]\nmodel = checkpoint\nranks = 2\n'; } >"$T/b3.ini"
expect_fail "an unknown key lists the known ones (65)" 65 "unknown key 'mtbf' (known: mttf," "$BBSIZE" simulate "$T/b3.ini"
{ hdr 1GB/s; printf '[failures]\ntemperature = -300\n[job a]\nmodel = checkpoint\nranks = 2\n'; } >"$T/b4.ini"
expect_fail "a temperature below absolute zero (65)" 65 "above -273.15" "$BBSIZE" simulate "$T/b4.ini"
{ hdr 1GB/s; printf '[failures]\nrepair = sometimes\n[job a]\nmodel = checkpoint\nranks = 2\n'; } >"$T/b5.ini"
expect_fail "an unknown repair law (65)" 65 "known: fixed, exponential" "$BBSIZE" simulate "$T/b5.ini"
t_done
