#!/bin/sh
# cli_validate_scn.sh: `bbsize validate --scenario`: the implied (p, b) of a
# hand-built scenario and its simulated stall fraction against their closed
# forms, a small dragonfly scenario end to end (formats, thread count
# invariance), and every bad-input path with its message and status.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e

# A device of exactly RATE MiB/s, no seek, no overhead.
RATE=1000
cat >"$T/flat.dev" <<EOT
model = table
name = flat
capacity_bytes = 100000000000
request_sizes_bytes = 0
read_rates_MiBps = $RATE
write_rates_MiBps = $RATE
read_seeks_us = 0
write_seeks_us = 0
read_overheads_us = 0
write_overheads_us = 0
seq_window_bytes = 512
EOT
# One rank, node-local buffer: K checkpoints, each I of compute then V bytes
# written at RATE MiB/s (w = V / rate).  Closed forms: elapsed K (I + w),
# p = w / (I + w), b = rate, K bursts of w, time unit = w.
K=4 I=0.3 V=1000000000
cat >"$T/cf.ini" <<EOT
[topology]
preset = graph500-72
bb_per_group = 1
[storage]
architecture = node-local
device = flat.dev
pfs_bandwidth = 500MB/s
chunk = 1GB
[job ckpt]
model = checkpoint
ranks = 1
iterations = $K
compute = ${I}s
total_bytes = $V
EOT
t_run "a hand-built scenario runs (csv)" 0 "$BBSIZE" validate --scenario "$T/cf.ini" \
    --replications 3 --csv --quiet
cp "$T/out" "$T/cf.csv"
row=$(sed -n 2p "$T/cf.csv")
sum=$(sed -n 2p "$T/cf.csv" | cut -d, -f11-)
f() { echo "$1" | cut -d, -f"$2"; }
w=$(awk -v v=$V -v r=$RATE 'BEGIN { printf "%.12g", v / (r * 1048576) }')
t_close "elapsed = K (I + w)" "$(f "$row" 4)" "$(awk -v k=$K -v i=$I -v w="$w" 'BEGIN { printf "%.12g", k * (i + w) }')" 1e-6
t_close "write time = K w" "$(f "$row" 5)" "$(awk -v k=$K -v w="$w" 'BEGIN { printf "%.12g", k * w }')" 1e-6
t_close "K write bursts" "$(f "$row" 7)" "$K" 0
t_close "p = w / (I + w)" "$(f "$row" 8)" "$(awk -v i=$I -v w="$w" 'BEGIN { printf "%.12g", w / (i + w) }')" 1e-6
t_close "b = the device rate" "$(f "$row" 9)" "$(awk -v r=$RATE 'BEGIN { print r * 1048576 }')" 1
t_close "time unit = the median burst = w" "$(f "$sum" 4)" "$w" 1e-8
t_close "S = the node's capacity" "$(f "$sum" 2)" 100000000000 0
t_close "no stall when every write fits" "$(f "$sum" 9)" 0 0
# E/B = p b / B > 1: the chain's idle fraction is at least 1 - B/E
t_close "analytic idle >= 1 - B/E" "$(awk -v e="$(f "$sum" 7)" -v x="$(f "$sum" 8)" \
    'BEGIN { print (x >= 1 - 1 / e - 1e-9) }')" 1 0
# Capacity 1.5 GB and 1 GB drain chunks at 0.5 GB/s: write k+1 waits
# until write k is drained (2 s after it ends), a stall of 2 - I for each
# of checkpoints 2..K; the jobs' span is I + w + (K - 1)(2 + w).
t_run "a stalling scenario runs" 0 "$BBSIZE" validate --scenario "$T/cf.ini" \
    --replications 3 --capacity 1.5GB --csv --quiet
sum=$(sed -n 2p "$T/out" | cut -d, -f11-)
t_close "stall fraction = (K - 1)(2 - I) / span" "$(f "$sum" 9)" \
    "$(awk -v k=$K -v i=$I -v w="$w" 'BEGIN { printf "%.12g", (k - 1) * (2 - i) / (i + w + (k - 1) * (2 + w)) }')" 1e-6
t_close "implied (p, b) do not depend on the capacity (demand run)" \
    "$(sed -n 2p "$T/out" | cut -d, -f8)" "$(f "$row" 8)" 0

# With [failures] the demand run still has none: the same (p, b)
{ cat "$T/cf.ini"; printf '[failures]\nmttf = 2s\nmttr = 500ms\n'; } >"$T/cff.ini"
t_run "a scenario with failures validates" 0 "$BBSIZE" validate --scenario "$T/cff.ini" \
    --replications 3 --capacity 1.5GB --csv --quiet
t_close "failures leave the implied p at its closed form" "$(sed -n 2p "$T/out" | cut -d, -f8)" \
    "$(awk -v i=$I -v w="$w" 'BEGIN { printf "%.12g", w / (i + w) }')" 1e-6

# Lazy draining: the chain drains below the threshold with EPS per time
# unit, so the replications' executor checks once per time unit too.  With
# the threshold at the capacity, write k+1 (1 GB into 1.5 GB) waits for a
# check that drains: about 1/EPS checks, so the stall grows with the time
# unit; greedy draining has no checks and does not depend on it.
{ cat "$T/cf.ini"; printf '[storage]\ncapacity = 1.5GB\ndrain = lazy\nlazy_threshold = 1.5GB\n'; } >"$T/lz.ini"
for tu in 50ms 5s; do
  t_run "lazy scenario, time unit $tu" 0 "$BBSIZE" validate --scenario "$T/lz.ini" \
      --replications 8 --time-unit $tu --csv --quiet
  sed -n 2p "$T/out" | cut -d, -f11- >"$T/lz-$tu"
done
t_close "lazy: EPS per time unit, so a shorter unit stalls less (disjoint intervals)" \
    "$(awk -F, -v a="$(cat "$T/lz-50ms")" -v b="$(cat "$T/lz-5s")" 'BEGIN {
        split(a, x, ","); split(b, y, ","); print (x[11] < y[10]) }')" 1 0
for tu in 50ms 5s; do
  "$BBSIZE" validate --scenario "$T/cf.ini" --replications 3 --capacity 1.5GB --time-unit $tu \
      --csv --quiet | sed -n 2p | cut -d, -f19 >"$T/gr-$tu"
done
t_close "greedy: the stall does not depend on the time unit" "$(cat "$T/gr-50ms")" \
    "$(cat "$T/gr-5s")" 0

# A small dragonfly: 8 checkpoint ranks and 4 cosmoflow ranks, random
# placement, adaptive routing, through the compute-side buffer nodes.
cat >"$T/small.ini" <<EOT
[topology]
preset = graph500-72
bb_per_group = 1
routing = adaptive
[storage]
capacity = 2GB
pfs_bandwidth = 2GB/s
[placement]
policy = random-node
[job ckpt]
model = checkpoint
ranks = 8
iterations = 3
compute = 200ms
total_bytes = 4GB
[job cosmo]
model = cosmoflow
ranks = 4
iterations = 2
read_bytes = 1MiB
batch_op = read
allreduce_bytes = 1MB
EOT
t_run "small scenario: text" 0 "$BBSIZE" validate --scenario "$T/small.ini" --replications 4
t_match "text: predicted beside simulated with its interval" \
    "predicted idle fraction [0-9.e-]+; simulated stall fraction [0-9.e-]+, 95% CI" "$T/out"
t_run "small scenario: json, 1 thread" 0 "$BBSIZE" validate --scenario "$T/small.ini" \
    --replications 4 --json --threads 1 --quiet
cp "$T/out" "$T/j1"
t_run "small scenario: json, 2 threads" 0 "$BBSIZE" validate --scenario "$T/small.ini" \
    --replications 4 --json --threads 2 --quiet
if cmp -s "$T/out" "$T/j1"; then t_ok "same bytes for 1 and 2 threads"
else t_fail "same bytes for 1 and 2 threads" "$T/out" "$T/j1"; fi
lo=$(json_num simulated_idle_fraction_low "$T/j1") hi=$(json_num simulated_idle_fraction_high "$T/j1")
mean=$(json_num simulated_idle_fraction "$T/j1") pred=$(json_num idle_fraction "$T/j1")
t_close "lo <= mean <= hi, all in [0, 1]" "$(awk -v l="$lo" -v m="$mean" -v h="$hi" -v p="$pred" \
    'BEGIN { print (0 <= l && l <= m && m <= h && h <= 1 && 0 <= p && p <= 1) }')" 1 0
# the cosmoflow job only reads: p = 0, b = 0
t_match "a job that only reads has p = 0" '"p": 0(\.0)?,' "$T/j1"

t_run "the shipped example runs" 0 "$BBSIZE" validate \
    --scenario "$SRCDIR/data/scenarios/validate-small.ini" --replications 2 --csv --quiet
t_close "its S is 9 buffer nodes x 4 GB" "$(sed -n 2p "$T/out" | cut -d, -f12)" 36000000000 0

# trace jobs redraw their streams per replication: the file load's random
# sizes and pauses make the replications differ (a real interval)
t_run "trace scenario: json" 0 "$BBSIZE" validate --scenario "$SRCDIR/data/scenarios/traces-small.ini" \
    --replications 4 --capacity 300MB --json --quiet
t_close "trace scenario: replications differ" "$(awk -v l="$(json_num simulated_idle_fraction_low "$T/out")" \
    -v h="$(json_num simulated_idle_fraction_high "$T/out")" 'BEGIN { print (h > l) }')" 1 0

# bad input
printf '[job c]\nmodel = checkpoint\nranks = 2\n' >"$T/nopfs.ini"
expect_fail "no PFS bandwidth (65)" 65 "needs a PFS bandwidth" \
    "$BBSIZE" validate --scenario "$T/nopfs.ini"
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[storage]\npfs_bandwidth = 1GB/s\n[job c]\nmodel = cosmoflow\nranks = 4\nbatch_op = read\n' >"$T/nowrite.ini"
expect_fail "no job writes (65)" 65 "no job writes" \
    "$BBSIZE" validate --scenario "$T/nowrite.ini"
expect_fail "no such scenario (66)" 66 "cannot open" \
    "$BBSIZE" validate --scenario "$T/none.ini"
expect_fail "csv with json (64)" 64 "exclude each other" \
    "$BBSIZE" validate --scenario "$T/cf.ini" --csv --json
expect_fail "a bad --pfs-bw (64)" 64 "pfs-bw" \
    "$BBSIZE" validate --scenario "$T/cf.ini" --pfs-bw 3furlongs
expect_fail "zero replications (64)" 64 "replications" \
    "$BBSIZE" validate --scenario "$T/cf.ini" --replications 0
printf '[job c]\nmodel = checkpoint\nranks = 2\nbogus = 1\n' >"$T/bad.ini"
expect_fail "a bad scenario names file and line (65)" 65 "bad.ini:4" \
    "$BBSIZE" validate --scenario "$T/bad.ini"
t_done
