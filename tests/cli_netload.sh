#!/bin/sh
# cli_netload.sh: `bbsize netload` from the command line: topology from
# presets and CODES files, wiring written byte-equal to MFNetSim's, output
# formats, determinism, link statistics, and every bad-input path with its
# message and exit status.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
: "${BBSIZE:?BBSIZE must name the bbsize binary}"
: "${BBSIZE_TOP_SRCDIR:?BBSIZE_TOP_SRCDIR must name the source tree}"
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
D=$BBSIZE_TOP_SRCDIR/data/network
Q="--topology graph500-72 --duration 0.3ms --msg-size 64KiB --quiet"

check "--help exits 0 and lists --topology" \
    '"$BBSIZE" netload --help >"$T/h" && grep -q -- "--topology" "$T/h"'

"$BBSIZE" netload --describe >"$T/d"
check "preset mfnetsim-1056 described with its shape and GiB/s" \
    'grep -q "33 groups x 8 routers x 4 nodes, 4 global" "$T/d" && grep -q "global 4.7 GiB/s" "$T/d" && grep -q "990 compute, 66 burst-buffer" "$T/d"'

cp "$D/dally-1056-min.conf" "$D/dally-1056-intra" "$D/dally-1056-inter" "$T/"
"$BBSIZE" netload --topology "$T/dally-1056-min.conf" --describe >"$T/d2"
check "CODES .conf read with its wiring files found beside it" \
    'grep -q "wiring: $T/dally-1056-intra" "$T/d2" && grep -q "routing in file: minimal" "$T/d2"'

"$BBSIZE" netload --topology mfnetsim-1056 --write-wiring "$T/gen"
check "generated wiring equals MFNetSim's dally-1056-intra byte for byte" \
    'cmp -s "$T/gen-intra" "$D/dally-1056-intra"'
check "generated wiring equals MFNetSim's dally-1056-inter byte for byte" \
    'cmp -s "$T/gen-inter" "$D/dally-1056-inter"'

# shellcheck disable=SC2086
"$BBSIZE" netload $Q --load 0.2,0.4 >"$T/txt"
check "text output: header with units and one row per load" \
    'grep -q "GiB/s" "$T/txt" && test "$(grep -vc "^#" "$T/txt")" -eq 3'
# shellcheck disable=SC2086
"$BBSIZE" netload $Q --load 0.2:0.4:0.1 --csv >"$T/a.csv"
# shellcheck disable=SC2086
"$BBSIZE" netload $Q --load 0.2:0.4:0.1 --csv >"$T/b.csv"
check "CSV: header and three rows for 0.2:0.4:0.1" \
    'head -1 "$T/a.csv" | grep -q "^offered_load_target,offered_load,accepted_load,accepted_GiB_per_s_per_node" && test "$(wc -l <"$T/a.csv")" -eq 4'
check "same seed, same bytes" 'cmp -s "$T/a.csv" "$T/b.csv"'
# shellcheck disable=SC2086
"$BBSIZE" netload $Q --load 0.2:0.4:0.1 --csv --seed 2 >"$T/c.csv"
check "another seed, other numbers" '! cmp -s "$T/a.csv" "$T/c.csv"'
# shellcheck disable=SC2086
"$BBSIZE" netload $Q --load 0.3 --routing adaptive --json >"$T/j"
check "JSON has accepted load, latency box plot, per-class link stats" \
    'grep -q "\"accepted_load\"" "$T/j" && grep -q "\"whisker_hi\"" "$T/j" && grep -q "\"saturated_fraction\"" "$T/j" && grep -q "\"comm_time_per_rank_s\"" "$T/j"'
# shellcheck disable=SC2086
"$BBSIZE" netload $Q --load 0.3,0.6 --link-stats "$T/links.csv" >/dev/null
# 72 nodes: 72 injection + 72 ejection + 9*12 local + 72 global = 324 links
check "link statistics: header and 324 links per load" \
    'test "$(wc -l <"$T/links.csv")" -eq 649 && grep -q ",global," "$T/links.csv"'
"$BBSIZE" netload --topology mfnetsim-1056 --alloc "$D/cont-1d-1056-mixwkld.conf" \
    --load 0.05 --duration 0.2ms --quiet --csv >"$T/alloc.csv"
check "MFNetSim allocation file accepted" 'test "$(wc -l <"$T/alloc.csv")" -eq 2'

# bad input
expect_fail "unknown routing: 64" 64 "unknown routing 'ecmp'" \
    "$BBSIZE" netload --routing ecmp
expect_fail "unknown pattern: 64" 64 "unknown pattern 'tornado'" \
    "$BBSIZE" netload --pattern tornado
expect_fail "load 0: 64" 64 "0 is outside (0, 1]" "$BBSIZE" netload --load 0
expect_fail "load 1.5: 64" 64 "1.5 is outside (0, 1]" "$BBSIZE" netload --load 0.5,1.5
expect_fail "load range beyond 1: 64" 64 "outside (0, 1]" "$BBSIZE" netload --load 0.5:1.2:0.5
expect_fail "unknown preset: 64" 64 "unknown topology preset 'torus'" \
    "$BBSIZE" netload --topology torus
expect_fail "missing .conf: 66" 66 "cannot open" \
    "$BBSIZE" netload --topology "$T/none.conf"
grep -v num_global_channels "$T/dally-1056-min.conf" >"$T/noh.conf"
expect_fail "missing num_global_channels refused: 65" 65 "no 'num_global_channels'" \
    "$BBSIZE" netload --topology "$T/noh.conf" --describe
sed 's/num_global_channels="4"/num_global_channels="3"/' "$T/dally-1056-min.conf" >"$T/h3.conf"
expect_fail "h inconsistent with the wiring: 65" 65 "expected g\*a\*h" \
    "$BBSIZE" netload --topology "$T/h3.conf" --describe
head -c 100 "$D/dally-1056-inter" >"$T/short-inter"
expect_fail "wiring file of the wrong size: 65" 65 "100 bytes is not a whole number of 8-byte records" \
    "$BBSIZE" netload --intra "$D/dally-1056-intra" --inter "$T/short-inter" --describe
# router 264 in the first record (routers are 0..263)
{ printf '\010\001\000\000'; tail -c +5 "$D/dally-1056-inter"; } >"$T/bad-inter"
expect_fail "wiring with an out-of-range router: 65" 65 "out of range 0..263" \
    "$BBSIZE" netload --intra "$D/dally-1056-intra" --inter "$T/bad-inter" --describe
expect_fail "missing wiring file: 66" 66 "cannot open" \
    "$BBSIZE" netload --intra "$T/nope" --inter "$D/dally-1056-inter" --describe
expect_fail "placement larger than the machine: 65" 65 "991 nodes but the topology has 990" \
    "$BBSIZE" netload --jobs 500,491
printf '0 1 2\n3 2\n' >"$T/rep.alloc"
expect_fail "allocation repeating a node: 65" 65 "rep.alloc:2: field 2: node index 2 repeats" \
    "$BBSIZE" netload --alloc "$T/rep.alloc"
# shellcheck disable=SC2086
expect_fail "unwritable link-stats file: 73, nothing left behind" 73 "cannot create" \
    "$BBSIZE" netload $Q --load 0.2 --link-stats "$T/no/dir/links.csv"
expect_fail "bb-io without burst-buffer nodes: 64" 64 "needs burst-buffer nodes" \
    "$BBSIZE" netload --topology graph500-72 --pattern bb-io --duration 0.1ms
expect_fail "more burst-buffer nodes than a group has: 65" 65 "need 0 <= k < a\*p = 8" \
    "$BBSIZE" netload --topology graph500-72 --bb-per-group 8 --describe

# steady state (the default): a run too short to settle says so on stderr
# and still answers; --fixed measures exactly the window it is given
"$BBSIZE" netload --topology graph500-72 --load 1.0 --duration 2ms --csv >"$T/st.csv" 2>"$T/st.err"
check "too short to settle: a warning naming --duration, and a row" \
    'grep -q "raise --duration" "$T/st.err" && test "$(wc -l <"$T/st.csv")" -eq 2'
check "CSV ends with the interval, warm-up and measured time" \
    'head -1 "$T/st.csv" | grep -q ",accepted_load_ci95_half,warmup_s,window_s$"'
"$BBSIZE" netload --topology graph500-72 --load 0.5 --fixed --warmup 0.2ms --duration 1ms --csv >"$T/fx.csv"
check "--fixed measures exactly [warmup, duration]" \
    'tail -1 "$T/fx.csv" | awk -F, "{ exit !(\$14 == 0.0002 && \$15 == 0.0008 && \$13 == \"\") }"'
expect_fail "--batch with --fixed: 64" 64 "options '--batch' and '--fixed' exclude each other" "$BBSIZE" netload --fixed --batch 1ms
expect_fail "--precision 0: 64" 64 "precision" "$BBSIZE" netload --precision 0
t_done
