# SPDX-License-Identifier: GPL-3.0-or-later
# Round four, the remaining classes (issue 38): a scenario's failures
# refused before they start, a NaN occupancy, a generated workload too
# large to size, the chain's setup on many identical applications, and
# --max-ops 1 on every analytic command.  Sourced by
# tests/cli_hostile_corpus.sh.

# 1. Failure laws over jobs with no compute: the run was costed at
# start + iterations x compute = 0 s, so no failure was counted and it ran
# into the engine's bound (minutes).  Its I/O alone, 4 GB over 8 ranks at
# graph500-72's 5 GB/s terminal links, lasts 0.1 s: 9 buffer nodes
# failing every 1 ns and repaired in 1 ns make 9 x 2 x 0.1 / 2e-9 = 9e8
# events, refused at a bound of 1e8 before anything is built.
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[storage]\ncapacity = 4GB\npfs_bandwidth = 2GB/s\n[failures]\nmttf = 1ns\nmttr = 1ns\n[job a]\nmodel = checkpoint\nranks = 8\niterations = 1\ncompute = 0\ntotal_bytes = 4GB\n' \
  >"$T/f0.ini"
hnew
hcase "scenario, failures over compute-0 jobs: refused before the run (2)" 2 \
  "would execute about 9e\+08 events \(9e\+08 node failures and repairs over 0\.1 s \(\[failures\] mttf\)\).*\[failures\] mttf or mttr" - \
  "$B" simulate --max-events 1e8 "$T/f0.ini"

# 2. A buffer of 1e300 B on the fluid model: the mean occupancy's first
# moment of a group below the double range was NaN ("-nan B", and a JSON
# that died as "out of memory").  No NaN in any format; the JSON builds.
hnew
hcase "idle --bb-size 1e300B --model fluid: no nan in the text" 0 \
  "^idle 10\^-[0-9.e+]+ \(of the time\).*mean occupancy ([0-9.]+ [kMGTPE]?B|unknown \(not a finite number\)); 416 phases" - \
  sh -c '"$1" idle --bb-size 1e300B --model fluid 2>&1 | grep -v -i nan' sh "$B"
hnew
hcase "... nor in its JSON, which builds" 0 '"mean_occupancy_bytes": ' - \
  sh -c '"$1" idle --bb-size 1e300B --model fluid --json 2>/dev/null | grep -v -i nan' sh "$B"

# 3. A generated workload of 100,000 applications at a load of 1e6 B is
# written (it reads back), and size costs it before anything is
# allocated: 100,000 applications over 2e9 loads refused at once, in a
# process allowed 2 GB of address space (the distribution alone is 16 GB).
"$B" generate --apps 100000 --load 1e6 -o "$T/big.csv" 2>/dev/null
hnew
hcase "size on a generated 100,000-application workload: refused at once (2)" 2 \
  "the load distribution would take about 2e\+14 operations \(100000 applications over 2e\+09 loads\)" - \
  sh -c '[ -n "$BBSIZE_SANITIZED" ] || ulimit -v 2000000; exec "$1" size "$2"' sh "$B" "$T/big.csv"
hnew
hcase "... with the operation bound raised, refused on memory, not allocated (2)" 2 \
  "the load distribution has 1998280248 entries \(16 GB\), over the memory limit" - \
  sh -c '[ -n "$BBSIZE_SANITIZED" ] || ulimit -v 2000000; exec "$1" size "$2" --max-ops 1e20 --max-memory 1GB' sh "$B" "$T/big.csv"

# 4. The chain on 3,000 identical applications: its setup built the
# class kernel, C(3003, 3) = 4.5e9 terms of two binomial pmfs each, for
# models that never use it (over a minute before any bound acted); now
# the bound refuses it at once, in a process allowed 1 s of CPU.
awk 'BEGIN { print "name,p,bw,burst"; for (i = 1; i <= 3000; i++) print "a" i ",0.005,1GB/s,10" }' \
  >"$T/w3k.csv"
hnew
hcase "chain, 3,000 identical applications: its solve refused at once (2)" 2 \
  "the solve would take about .* operations \(1 solve of the ON/OFF chain.*--max-ops" - \
  sh -c 'ulimit -t 1; exec "$1" idle "$2" --model chain --pfs-bw 150GB/s --bb-size 10TB --max-ops 1e8' \
  sh "$B" "$T/w3k.csv"

# 5. --max-ops 1 refuses every analytic command at once (status 2),
# the built-in workload and a bursty one (fluid) alike.
printf '#@ pfs-bw = 1 TB/s\nname,p,bw,burst,group\nckpt-a,0.10,1.5TB/s,5min,x\nckpt-b,0.05,2TB/s,3min,y\n' \
  >"$T/wb.csv"
for c in "size" "idle --bb-size 1PB" "dist" "threshold --bb-size 1PB" \
  "sweep --bb-size 0:1PB:100TB" "frontier" "report -o r.md" "validate --bb-size 100TB" \
  "simulate --bb-size 100TB" "size $T/wb.csv" "idle $T/wb.csv --bb-size 1PB" \
  "frontier $T/wb.csv" "partition $T/wb.csv" "idle $T/wb.csv --model chain --bb-size 1PB" \
  "design --pfs-bw 0.8TB/s:3TB/s:0.1TB/s" "design $T/wb.csv --pfs-bw 1TB/s,2TB/s"; do
  hnew
  # shellcheck disable=SC2086
  hcase "$(echo "$c" | sed "s|$T/||") --max-ops 1: refused at once (2)" 2 \
    "would take about [0-9.e+]+ operations .*more than the bound of 1" - \
    sh -c 'ulimit -t 2; exec "$@"' sh "$B" $c --max-ops 1
done

# 6. design's whole walk is costed before its first design: each point
# passed its own front at --max-ops 1e6 and 1e10, then every one was
# "left out" (status 0, a table of nothing); now the walk is refused at
# once, stdout empty, naming the walk's options.
hnew
hcase "design, a walk beyond --max-ops: refused before a design, nothing printed (2)" 2 \
  "^stdout:\[\] .*the walk of 23 PFS bandwidths would take about [0-9.e+]+ operations, more than the bound of 1e\+06.*\(--pfs-bw, --resolution, --max-ops\)" - \
  sh -c 'out=$("$1" design --pfs-bw 0.8TB/s:3TB/s:0.1TB/s --max-ops 1e6 2>"$2"); s=$?
    printf "stdout:[%s] " "$out"; cat "$2"; exit $s' sh "$B" "$T/design.err"
# frontier printed its table's header on stdout before the refusal.
hnew
hcase "frontier beyond --max-ops: refused with nothing on stdout (2)" 2 \
  "^stdout:\[\] .*more than the bound of 1" - \
  sh -c 'out=$("$1" frontier --max-ops 1 2>"$2"); s=$?
    printf "stdout:[%s] " "$out"; cat "$2"; exit $s' sh "$B" "$T/frontier.err"

# 7. The round's classes on commands the rounds had not covered.
# Messages: a whole offset past 64 bits was "not a whole number of bytes".
hnew
hcase "device --offset 1e19B: refused as too large, not as fractional (64)" 64 \
  "option '--offset': '1e19B' is not at most 9e18 bytes" - \
  "$B" device --preset seagate-st2000nx0253 --pattern randread --offset 1e19B
# Messages and statuses: a request larger than the buffer was costed
# first and refused as a run of 4.5e12 events (2, "--horizon, --clients").
hnew
hcase "bbarch --request 1EB: the request named (64), not an event bound" 64 \
  "request size 1e\+18 B is not a whole number in \(0, capacity\]" - \
  "$B" bbarch --horizon 10s --request 1EB
# Silent acceptance: '# nprocs: 0' (or -5, or text) read as absent, a
# class of '?' processes written as a workload.
sed 's/# nprocs: 2/# nprocs: 0/' "$SRC/tests/fuzz/heatmap/widths-modules.txt" >"$T/np0.txt"
hnew
hcase "fit darshan, '# nprocs: 0': refused by line and field, nothing written (65)" 65 \
  "np0\.txt:3: field 'nprocs': '0' is not a process count" - \
  "$B" fit darshan "$T/np0.txt" -o w.csv
# Not an answer: an endurance need past every double printed as a buffer
# of "inf bytes" and a solve of 4611686018427392555 states.
hnew
hcase "size --dwpd 1e-300: no size, said as such (2), no inf" 2 \
  "^bbsize: the drives' rating needs a buffer larger than any size \([0-9.e+]+ B/s written into it at 1e-300 drive writes per day.*\(--dwpd\)$" - \
  "$B" size --dwpd 1e-300
# Messages: a checkpoint or CosmoFlow job moving 0 bytes was read, then
# failed in the run as "a request of 0 B" with no line or key.
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[storage]\ncapacity = 4GB\npfs_bandwidth = 2GB/s\n[job a]\nmodel = checkpoint\nranks = 8\niterations = 1\ncompute = 1s\ntotal_bytes = 0B\n' \
  >"$T/tb0.ini"
hnew
hcase "scenario, total_bytes = 0B: refused at its line and key (65)" 65 \
  "tb0\.ini:12: \[job a\] parameter 'total_bytes': '0B' is not a size > 0" - \
  "$B" simulate "$T/tb0.ini"
sed 's/model = checkpoint/model = cosmoflow/; s/total_bytes/read_bytes/' "$T/tb0.ini" >"$T/rb0.ini"
hnew
hcase "... read_bytes = 0B of a CosmoFlow job too (65)" 65 \
  "rb0\.ini:12: \[job a\] parameter 'read_bytes': '0B' is not a size > 0" - \
  "$B" simulate "$T/rb0.ini"
# Not an answer: one replica's slowdown printed "+- 0.000", a spread
# that one value does not have; its sd is now absent (text, CSV, JSON).
sed 's/total_bytes = 0B/total_bytes = 1GB/' "$T/tb0.ini" >"$T/tb1.ini"
hnew
hcase "compare --replicas 1: no standard deviation of one value" 0 \
  "^a +checkpoint +1  1\.000 \(one replica: no sd\) " - \
  "$B" compare -q --replicas 1 "$T/tb1.ini" "$T/tb1.ini"
hnew
hcase "... in CSV an empty sd" 0 "^a,checkpoint,1,([^,]*,){6}1,,1,1," - \
  "$B" compare -q --csv --replicas 1 "$T/tb1.ini" "$T/tb1.ini"
