#!/bin/sh
# cli_bbarch.sh: `bbsize bbarch`: the byte accounting, the iostat series
# (CSV and JSON, atomic), seeds and every bad-input path.
# SPDX-License-Identifier: GPL-3.0-or-later
CMD=bbarch
. "$BBSIZE_TOP_SRCDIR/tests/storage_cli.sh"
# field NAME FILE: a number from the indented JSON of bb_json_print
field() { sed -n "s/^ *\"$1\": \([-0-9.e+]*\),*$/\1/p" "$2"; }

echo 1..13

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
expect 64 "needs --interval" "--iostat without --interval" -- --iostat "$tmp/x.csv"
expect 64 "capacity 0 B is not > 0" "zero capacity" -- --capacity 0B
expect 64 "intel-d3-s4510" "unknown buffer device preset" -- --device nope

# the EXAMPLES of bbsize-bbarch(1) run and succeed
man_examples 2
