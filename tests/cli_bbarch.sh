#!/bin/sh
# cli_bbarch.sh: `bbsize bbarch`: the byte accounting, the iostat series
# (CSV and JSON, atomic), every failure type and the failure log, the
# dragonfly network, seeds and every bad-input path.
# SPDX-License-Identifier: GPL-3.0-or-later
CMD=bbarch
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
. "$BBSIZE_TOP_SRCDIR/tests/storage_cli.sh"
# field NAME FILE: a number from the indented JSON of bb_json_print
field() { sed -n "s/^ *\"$1\": \([-0-9.e+]*\),*$/\1/p" "$2"; }

echo 1..35

run="--arch compute --clients 30 --nodes 2 --capacity 256MiB --pfs-bw 200MB/s --request 8MiB --horizon 200s --mttf 40s --mttr 5s"
"$BBSIZE" bbarch $run --json >"$tmp/a.json"
w=$(field bytes_written "$tmp/a.json"); p=$(field bytes_on_pfs "$tmp/a.json")
b=$(field bytes_in_buffers "$tmp/a.json"); l=$(field bytes_lost "$tmp/a.json")
if awk -v w="$w" -v p="$p" -v b="$b" -v l="$l" 'BEGIN { d = w - p - b - l; if (d < 0) d = -d; exit !(w > 0 && l > 0 && d <= 1e-9 * w) }'; then
  ok "written = on PFS + in buffers + lost, with failures"
else no "accounting: $w vs $p + $b + $l"; fi

"$BBSIZE" bbarch $run --json >"$tmp/b.json"
"$BBSIZE" bbarch $run --json --seed 2 >"$tmp/c.json"
if cmp -s "$tmp/a.json" "$tmp/b.json"; then ok "same seed, same bytes"; else no "same seed differs"; fi
if cmp -s "$tmp/a.json" "$tmp/c.json"; then no "seed 2 gives seed 1's run"; else ok "another seed, another run"; fi
# --progress: the run resumed at each hundredth of the horizon is the same
# run (failures and repairs included), and the meter counts 1 to 100.
BBSIZE_PROGRESS_INTERVAL=0 "$BBSIZE" bbarch $run --json --progress >"$tmp/p.json" 2>"$tmp/p.err"
if cmp -s "$tmp/a.json" "$tmp/p.json"; then ok "--progress: the same run"; else no "--progress changes the run"; fi
if [ "$(grep -c '^bbsize bbarch: [0-9]*/100 hundredths of the horizon' "$tmp/p.err")" -eq 100 ] \
   && tail -1 "$tmp/p.err" | grep -q '^bbsize bbarch: 100/100 '; then
  ok "--progress: 100 lines, the last 100/100"
else no "--progress lines: $(wc -l <"$tmp/p.err")"; fi

"$BBSIZE" bbarch $run --interval 20s --iostat "$tmp/io.csv" >/dev/null
rows=$(($(wc -l <"$tmp/io.csv") - 1))
if [ "$rows" -eq 20 ] && head -1 "$tmp/io.csv" | grep -q '^t_s,node,device,r_kBps,w_kBps,r_iops,w_iops,r_await_ms,w_await_ms,avgqu_sz,util_pct,used_bytes,capacity_bytes,health$'; then
  ok "iostat CSV: 2 nodes x 10 intervals"
else no "iostat CSV: $rows rows"; fi
"$BBSIZE" bbarch $run --interval 20s --iostat "$tmp/io.json" >/dev/null
if [ "$(grep -c '"health"' "$tmp/io.json")" -eq 20 ]; then ok "iostat JSON rows"; else no "iostat JSON"; fi

expect 64 "needs a unit" "threshold that is not a size" -- --arch storage --threshold 100
expect 64 "option '--threshold'" "threshold that is not a number" -- --arch storage --threshold fast
: >"$tmp/empty.csv"
expect 65 "temperature series is empty" "empty temperature series" -- --mttf 1h --temperature "$tmp/empty.csv"
printf '0,25\n10,hot\n' >"$tmp/bad.csv"
expect 65 "bad.csv:2: field" "bad temperature line" -- --mttf 1h --temperature "$tmp/bad.csv"
expect 64 "option '--iostat' needs option '--interval'" "--iostat without --interval" -- --iostat "$tmp/x.csv"
expect 64 "capacity 0 B is not > 0" "zero capacity" -- --capacity 0B
expect 64 "intel-d3-s4510" "unknown buffer device preset" -- --device nope

# every failure type, fail-over and the failure log
acct() { # acct FILE: written = pfs + buffers + lost, written > 0
  w=$(field bytes_written "$1"); p=$(field bytes_on_pfs "$1")
  b=$(field bytes_in_buffers "$1"); l=$(field bytes_lost "$1")
  awk -v w="$w" -v p="$p" -v b="$b" -v l="$l" 'BEGIN { d = w - p - b - l; if (d < 0) d = -d; exit !(w > 0 && d <= 1e-9 * w) }'
}
all="--clients 30 --nodes 4 --capacity 256MiB --pfs-bw 200MB/s --horizon 200s --mttf 100s --drive-scale 200s --ctrl-mttf 50s --link-mttf 50s --mttr 5s --failover"
"$BBSIZE" bbarch $all --json --failures "$tmp/f1.csv" >"$tmp/all.json"
if acct "$tmp/all.json" && [ "$(field controller_failures "$tmp/all.json")" -gt 0 ] \
   && [ "$(field link_failures "$tmp/all.json")" -gt 0 ] && [ "$(field failovers "$tmp/all.json")" -gt 0 ]; then
  ok "all four failure types: accounting holds, fail-over used"
else no "all failures: $(cat "$tmp/all.json")"; fi
# each failure row has its class's state; failures = repairs + still failed
if awk -F, 'NR == 1 { next }
  $3 == "controller" && $4 != "BAD" && $4 != "OK" { bad = 1 }
  $3 == "link" && $4 != "MISSED" && $4 != "OK" { bad = 1 }
  ($3 == "node" || $3 == "drive") && $4 != "LOST" && $4 != "OK" { bad = 1 }
  $1 < last { bad = 1 } { last = $1 }
  END { exit bad }' "$tmp/f1.csv" \
   && [ "$(grep -c ',controller,BAD$' "$tmp/f1.csv")" -eq "$(field controller_failures "$tmp/all.json")" ] \
   && [ "$(grep -c ',link,MISSED$' "$tmp/f1.csv")" -eq "$(field link_failures "$tmp/all.json")" ]; then
  ok "failure log: states by component, in time order, one row per failure"
else no "failure log: $(head -5 "$tmp/f1.csv")"; fi
"$BBSIZE" bbarch $all --json --failures "$tmp/f2.csv" >/dev/null
"$BBSIZE" bbarch $all --json --failures "$tmp/f3.csv" --seed 2 >/dev/null
if cmp -s "$tmp/f1.csv" "$tmp/f2.csv" && ! cmp -s "$tmp/f1.csv" "$tmp/f3.csv"; then
  ok "same seed, same failure times; another seed, others"
else no "failure times and seeds"; fi

# the dragonfly behind the same interface: the same requests, conserved bytes
dfly="--clients 54 --nodes 18 --capacity 256MiB --pfs-bw 2GB/s --horizon 60s"
"$BBSIZE" bbarch $dfly --json >"$tmp/s.json"
"$BBSIZE" bbarch $dfly --json --topology graph500-72 --bb-per-group 2 --routing adaptive >"$tmp/d.json"
if acct "$tmp/d.json" && grep -q '"network": "graph500-72"' "$tmp/d.json" \
   && [ "$(field requests "$tmp/s.json")" -eq "$(field requests "$tmp/d.json")" ]; then
  ok "dragonfly run: same requests as the simple network, bytes conserved"
else no "dragonfly run: $(cat "$tmp/d.json")"; fi

expect 64 "graph500-72" "unknown topology (names listed)" -- --topology nope
expect 64 "option '--topology' needs option '--bb-per-group'" "topology without burst-buffer terminals" -- --topology graph500-72
expect 64 "54 compute terminals" "more clients than compute terminals" -- --topology graph500-72 --bb-per-group 2 --clients 55
expect 64 "describe the simple network" "--net-bw with --topology" -- --topology mfnetsim-1056 --net-bw 1GB/s
expect 64 "use no network" "--topology with node-local buffers" -- --arch local --topology mfnetsim-1056
expect 64 "no network link" "link failures of node-local buffers" -- --arch local --link-mttf 1h
expect 64 "option '--ctrl-mttf': must be > 0" "zero controller MTTF" -- --ctrl-mttf 0s
expect 64 "option '--routing'" "unknown routing" -- --topology mfnetsim-1056 --routing sideways
expect 73 "f.csv" "failure log in a missing directory" -- --horizon 1s --failures "$tmp/none/f.csv"

# pieces and the per-file seek rule (mfnetsim-bb: a table device, 2.5 ms
# seek, 20 us overhead per access).  One client: its 8 pieces of 1 MiB come
# from one file in order, so they seek no more than the whole request and
# each of the 7 extra pieces adds only the overhead: +140 us.  Eight
# clients whose requests overlap: pieces of different files alternate, so
# pieces seek more often and the mean write time must grow by more than a
# seek.
one="--device mfnetsim-bb --nodes 1 --request 8MiB --horizon 60s --clients 1 --interarrival 1s"
"$BBSIZE" bbarch $one --json >"$tmp/p1w.json"
"$BBSIZE" bbarch $one --piece 1MiB --pieces-in-flight 4 --json >"$tmp/p1p.json"
lw=$(field mean_write_latency_s "$tmp/p1w.json"); lp=$(field mean_write_latency_s "$tmp/p1p.json")
if awk -v w="$lw" -v p="$lp" 'BEGIN { d = p - w - 7 * 20e-6; exit !(d < 1e-7 && d > -1e-7) }'; then
  ok "one client in pieces: no extra seek, 7 x 20 us more overhead"
else no "one client: whole $lw s, pieces $lp s"; fi
many="--device mfnetsim-bb --nodes 1 --request 8MiB --horizon 60s --clients 8 --interarrival 200ms"
"$BBSIZE" bbarch $many --json >"$tmp/p8w.json"
"$BBSIZE" bbarch $many --piece 1MiB --pieces-in-flight 4 --json >"$tmp/p8p.json"
lw=$(field mean_write_latency_s "$tmp/p8w.json"); lp=$(field mean_write_latency_s "$tmp/p8p.json")
if [ "$(field requests "$tmp/p8w.json")" -eq "$(field requests "$tmp/p8p.json")" ] \
   && awk -v w="$lw" -v p="$lp" 'BEGIN { exit !(p > w + 2.5e-3) }'; then
  ok "interleaved clients in pieces: a seek per piece, slower writes"
else no "eight clients: whole $lw s, pieces $lp s"; fi
# Threads (MFNetSim's codes-store, 4 per request): a request's 4 pieces
# reach the device together and pay one seek, so writes are slower than
# whole requests but faster than the server's turn (a seek per piece) and
# than one thread per request (its pieces alternate with the others').
"$BBSIZE" bbarch $many --piece 1MiB --piece-threads 4 --json >"$tmp/p8t4.json"
"$BBSIZE" bbarch $many --piece 1MiB --piece-threads 1 --json >"$tmp/p8t1.json"
l4=$(field mean_write_latency_s "$tmp/p8t4.json"); l1=$(field mean_write_latency_s "$tmp/p8t1.json")
if awk -v w="$lw" -v p="$lp" -v a="$l4" -v b="$l1" 'BEGIN { exit !(w < a && a < p && a < b) }'; then
  ok "threads: 4 per request between whole requests and the server's turn"
else no "eight clients: whole $lw, turn $lp, 4 threads $l4, 1 thread $l1 s"; fi
expect 64 "piece-threads" "more than 64 threads" -- --piece-threads 65
expect 64 "option '--piece'" "a piece under 512 B" -- --piece 100B
expect 64 "option '--piece'" "a piece without a unit" -- --piece 4096
expect 64 "pieces-in-flight" "no piece in flight" -- --pieces-in-flight 0
expect 64 "pieces-in-flight" "more than 64 pieces in flight" -- --pieces-in-flight 65

