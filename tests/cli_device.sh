#!/bin/sh
# cli_device.sh: `bbsize device`: Table 1 runs, output formats, seeds and
# every bad-input path with its message and exit status.
# SPDX-License-Identifier: GPL-3.0-or-later
CMD=device
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
. "$BBSIZE_TOP_SRCDIR/tests/storage_cli.sh"

echo 1..21

if "$BBSIZE" device --help | grep -q -- "--pattern"; then ok "--help"; else no "--help"; fi

# SSD random read at QD 1: one page, R_page = 118 us -> 8474.58 IOPS (paper's model column)
out=$("$BBSIZE" device --preset intel-d3-s4510 --pattern randread --bs 4KiB --size 4MiB)
case $out in *"8474.58 IOPS"*) ok "SSD randread 8474.58 IOPS";; *) no "SSD randread: $out";; esac

# table model: 64 sequential 1 MiB writes at 5700 MiB/s + 20 us each, and
# one 2500 us seek for the first: IOPS = 64 / (64 (1/5700 s + 20 us) + 2500 us)
out=$("$BBSIZE" device --preset mfnetsim-bb --pattern seqwrite --bs 1MiB --size 64MiB --csv)
iops=$(echo "$out" | awk -F, 'NR == 2 { print $11 }')
if awk -v x="$iops" 'BEGIN { e = 64 / (64 * (1 / 5700 + 20e-6) + 2500e-6); exit !(x > 0.9999 * e && x < 1.0001 * e) }'; then
  ok "table seqwrite IOPS = 64 / (64 (1/5700 s + 20 us) + 2.5 ms)"
else no "table seqwrite IOPS $iops"; fi

"$BBSIZE" device --preset seagate-st2000nx0253 --pattern randread --size 8MiB --seed 5 --json >"$tmp/a"
"$BBSIZE" device --preset seagate-st2000nx0253 --pattern randread --size 8MiB --seed 5 --json >"$tmp/b"
"$BBSIZE" device --preset seagate-st2000nx0253 --pattern randread --size 8MiB --seed 6 --json >"$tmp/c"
if cmp -s "$tmp/a" "$tmp/b"; then ok "same seed, same bytes"; else no "same seed differs"; fi
if cmp -s "$tmp/a" "$tmp/c"; then no "seeds 5 and 6 give the same run"; else ok "another seed, another run"; fi
# --progress: a line at each hundredth of the 2048 requests (20 of them)
# and the end, the last 2048/2048; the run is the same.
BBSIZE_PROGRESS_INTERVAL=0 "$BBSIZE" device --preset seagate-st2000nx0253 --pattern randread \
  --size 8MiB --seed 5 --json --progress >"$tmp/p" 2>"$tmp/p.err"
if cmp -s "$tmp/a" "$tmp/p"; then ok "--progress: the same run"; else no "--progress changes the run"; fi
if [ "$(grep -c '^bbsize device: [0-9]*/2048 requests' "$tmp/p.err")" -eq 103 ] \
   && tail -1 "$tmp/p.err" | grep -q '^bbsize device: 2048/2048 requests'; then
  ok "--progress: 103 lines (every 20 of 2048, and the last), ending 2048/2048"
else no "--progress: $(grep -c . "$tmp/p.err") lines"; fi
if grep -q '"iops"' "$tmp/a" && grep -q '"lat_percentiles_ms"' "$tmp/a"; then ok "--json fields"; else no "--json fields"; fi

expect 64 "seagate-st2000nx0253" "unknown preset lists the presets" -- --preset nope --pattern randread
expect 64 "option '--pattern': 'sideways' is not seqread" "bad pattern" -- --preset intel-d3-s4510 --pattern sideways
expect 64 "not a positive multiple" "size not a multiple of bs" -- --preset intel-d3-s4510 --pattern randread --bs 4KiB --size 5000
# Bounded before it starts: 4 GiB in 4 KiB requests are 1048576 requests,
# 12 B each (a latency and an offset) = 12582912 B > 1 MB; 10 requests
# of the 8 MiB run are fewer than its 2048.
expect 2 "about 0.01258 GB of memory (1048576 requests of 4096 B)" "memory bound" -- \
  --preset intel-d3-s4510 --pattern randwrite --bs 4KiB --size 4GiB --max-memory 1MB
expect 2 "about 2.05e+03 events (2048 requests of 4096 B), more than the bound of 10" "event bound" -- \
  --preset seagate-st2000nx0253 --pattern randread --size 8MiB --max-events 10
if [ ! -s "$tmp/out" ]; then ok "a refused run prints nothing on stdout"; else no "refused run wrote stdout"; fi
expect 64 "--bs" "bs of zero" -- --preset intel-d3-s4510 --pattern randread --bs 0
expect 64 "one of options '--preset' and '--device' is required" "no device" -- --pattern randread
expect 66 "cannot read" "unreadable device file" -- --device "$tmp/missing.dev" --pattern randread

printf 'model = hdd\nname = x\nrpm = 0\n' >"$tmp/zero.dev"
expect 65 "zero.dev:3: field 'rpm': 0 is not a positive number" "zero RPM" -- --device "$tmp/zero.dev" --pattern randread
printf 'model = ssd\ncapacity_bytes = 1e12\npage_bytes = -4096\n' >"$tmp/neg.dev"
expect 65 "neg.dev:3: field 'page_bytes'" "negative page size" -- --device "$tmp/neg.dev" --pattern randread
printf 'model = table\ncapacity_bytes = 1e12\nrequest_sizes_bytes = 0\nread_rates_MiBps = 0\n' >"$tmp/rate.dev"
expect 65 "rate.dev:4: field 'read_rates_MiBps': 0 is not a positive number" "zero rate" -- --device "$tmp/rate.dev" --pattern randread
expect 64 "does not fit" "file beyond the device" -- --preset intel-d3-s4510 --pattern randread --offset 480GB

