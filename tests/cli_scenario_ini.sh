#!/bin/sh
# cli_scenario_ini.sh: the INI syntax of scenario files as libinih reads it
# (src/formats/scenario_ini.c): what reads the same as the plain file
# (byte-order mark, CRLF, comments after values, indentation) and every
# refusal with its file:line, section and key.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e
base() {
    printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[run]\nseed = 3\n'
    printf '[job a]\nmodel = checkpoint\nranks = 4\ntotal_bytes = 40MB\n'
}
mkdir "$T/plain" "$T/dressed" "$T/long"
base >"$T/plain/s.ini"
rc=0
(cd "$T/plain" && "$BBSIZE" simulate s.ini >"$T/plain.out" 2>"$T/err") || rc=$?
if [ "$rc" -eq 0 ] && [ -s "$T/plain.out" ]; then t_ok "the plain scenario runs"
else t_fail "the plain scenario runs (exit $rc)" "$T/err"; fi

# The same scenario with a UTF-8 byte-order mark, CRLF line ends, comments
# after values ('#' and ';' after white space), indented keys, blank and
# comment lines: the same answer, byte for byte.
{ printf '\357\273\277; a spreadsheet wrote this\r\n'
  printf '[topology]   # the network\r\n  preset = graph500-72 ; a preset\r\n'
  printf '\tbb_per_group = 1\r\n\r\n[run]\r\nseed = 3 # fixed\r\n'
  printf '# the job\r\n[job a]\r\nmodel = checkpoint\r\nranks = 4\r\ntotal_bytes = 40MB\r\n'
} >"$T/dressed/s.ini"
rc=0
(cd "$T/dressed" && "$BBSIZE" simulate s.ini >"$T/dressed.out" 2>"$T/err") || rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$T/plain.out" "$T/dressed.out"; then
  t_ok "BOM, CRLF, trailing comments and indentation read as the plain file"
else t_fail "BOM, CRLF, trailing comments and indentation read as the plain file (exit $rc)" "$T/err"; fi

bad() { printf '%b' "$1" >"$T/$2"; }
bad '[topology]\npreset = graph500-72\nrouting = minimal\nrouting = adaptive\n[job a]\nmodel = checkpoint\nranks = 4\n' d1.ini
expect_fail_fixed "a key twice in a section names both lines (65)" 65 \
  "d1.ini:4: [topology] key 'routing' given twice (first at line 3)" "$BBSIZE" simulate "$T/d1.ini"
bad '[run]\nseed = 1\n[job a]\nmodel = checkpoint\nranks = 4\n[run]\nseed = 2\n' d2.ini
expect_fail_fixed "a key twice in a repeated section (65)" 65 \
  "d2.ini:7: [run] key 'seed' given twice (first at line 2)" "$BBSIZE" simulate "$T/d2.ini"
bad '[job a]\nmodel = checkpoint\nranks = 4\nranks = 8\n' d3.ini
expect_fail_fixed "a job key twice (65)" 65 \
  "d3.ini:4: [job a] key 'ranks' given twice (first at line 3)" "$BBSIZE" simulate "$T/d3.ini"
bad '[topology]\npreset = graph500-72\ncodes = x.conf\n[job a]\nmodel = checkpoint\nranks = 4\n' d4.ini
expect_fail_fixed "preset and codes together (65)" 65 \
  "d4.ini:3: [topology] 'preset' (line 2) and 'codes' (line 3): give one of them" \
  "$BBSIZE" simulate "$T/d4.ini"
bad '[placement]\npolicy = random-node\nfile = alloc\n[job a]\nmodel = checkpoint\nranks = 4\n' d5.ini
expect_fail_fixed "a placement file with another policy (65)" 65 \
  "d5.ini:3: [placement] 'file' (line 3) with a policy other than 'file' (line 2)" \
  "$BBSIZE" simulate "$T/d5.ini"
bad '[storage]\nachitecture = node-local\n[job a]\nmodel = checkpoint\nranks = 4\n' u1.ini
expect_fail_fixed "an unknown key lists the known ones (65)" 65 \
  "u1.ini:2: [storage] unknown key 'achitecture' (known: architecture" "$BBSIZE" simulate "$T/u1.ini"
bad 'seed = 1\n[job a]\nmodel = checkpoint\nranks = 4\n' u2.ini
expect_fail_fixed "a key before any section (65)" 65 "u2.ini:1: key 'seed' outside any section" \
  "$BBSIZE" simulate "$T/u2.ini"
bad '[job a]  extra\nmodel = checkpoint\nranks = 4\n' s1.ini
expect_fail_fixed "text after a section header (65)" 65 "s1.ini:1: section header '[job a]  extra' is not '[name]'" \
  "$BBSIZE" simulate "$T/s1.ini"
bad '[job a\nmodel = checkpoint\n' s2.ini
expect_fail_fixed "a section header without ']' (65)" 65 "s2.ini:1: section header '[job a' is not '[name]'" \
  "$BBSIZE" simulate "$T/s2.ini"
bad '[job a]\nmodel = checkpoint\nranks 4\n' s3.ini
expect_fail_fixed "a line without '=' (65)" 65 "s3.ini:3: 'ranks 4' is not 'key = value'" \
  "$BBSIZE" simulate "$T/s3.ini"
bad '[job a]\nmodel = checkpoint\nranks =\n' s4.ini
expect_fail_fixed "an empty value (65)" 65 "s4.ini:3: empty value in 'ranks = '" "$BBSIZE" simulate "$T/s4.ini"
bad '[job a]\nmodel = checkpoint\nranks = 4\n[job b]\n' s5.ini
expect_fail_fixed "an empty job section (65)" 65 "s5.ini:4: [job b] has no 'model'" "$BBSIZE" simulate "$T/s5.ini"
bad '[bogus]\n[job a]\nmodel = checkpoint\nranks = 4\n' s6.ini
expect_fail_fixed "an empty unknown section (65)" 65 "s6.ini:1: unknown section '[bogus]'" \
  "$BBSIZE" simulate "$T/s6.ini"
long() { i=0; while [ $i -lt 20 ]; do printf 'xxxxxxxxxx'; i=$((i + 1)); done; }
{ printf '[job a]\nmodel = checkpoint\nranks = 4\ntrace = '; long; printf '\n'; } >"$T/l1.ini"
expect_fail_fixed "a line longer than libinih reads whole (65)" 65 "l1.ini:4: line longer than 198 bytes" \
  "$BBSIZE" simulate "$T/l1.ini"
{ printf '# '; long; printf '\n'; base; printf '   ; '; long; printf '\n'; } >"$T/long/s.ini"
rc=0
(cd "$T/long" && "$BBSIZE" simulate s.ini >"$T/l2.out" 2>"$T/err") || rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$T/plain.out" "$T/l2.out"; then t_ok "comment lines of any length are comments"
else t_fail "comment lines of any length are comments (exit $rc)" "$T/err"; fi
printf '[job a]\nmodel = checkpoint\nranks = 4\000\n' >"$T/n1.ini"
expect_fail_fixed "a NUL byte (65)" 65 "n1.ini:3: a NUL byte" "$BBSIZE" simulate "$T/n1.ini"
# The keys take the command line's unit table (units.h): PB and d, which
# the scenario format did not know before issue 12, read as 1000 TB and
# 86400 s, byte for byte; a bit unit is refused with the table.
mkdir "$T/u1" "$T/u2"
{ base; printf '[storage]\ncapacity = 1 PB\n[failures]\nmttr = 1 d\n'; } >"$T/u1/s.ini"
{ base; printf '[storage]\ncapacity = 1000 TB\n[failures]\nmttr = 86400 s\n'; } >"$T/u2/s.ini"
rc=0
(cd "$T/u1" && "$BBSIZE" simulate s.ini >"$T/u1.out" 2>"$T/err") || rc=$?
(cd "$T/u2" && "$BBSIZE" simulate s.ini >"$T/u2.out" 2>>"$T/err") || rc=$?
if [ "$rc" -eq 0 ] && [ -s "$T/u1.out" ] && cmp -s "$T/u1.out" "$T/u2.out"; then
  t_ok "1 PB and 1 d read as 1000 TB and 86400 s"
else t_fail "1 PB and 1 d read as 1000 TB and 86400 s (exit $rc)" "$T/err"; fi
{ base | sed 's/40MB/40 Mb/'; } >"$T/u3.ini"
expect_fail_fixed "a bit unit is refused, listing the units (65)" 65 \
  "u3.ini:9: [job a] parameter 'total_bytes': '40 Mb' is not a size > 0 (B, kB, MB, GB, TB, PB, EB, KiB, MiB, GiB, TiB, PiB, EiB; a request of 0 B moves nothing)" \
  "$BBSIZE" simulate "$T/u3.ini"
# the keys of issue 14's mechanisms: a value out of its domain names the
# file, line, section and key
bad '[topology]\nbackpressure = maybe\n[job a]\nmodel = checkpoint\nranks = 4\n' k1.ini
expect_fail_fixed "backpressure is on or off (65)" 65 \
  "k1.ini:2: [topology] backpressure 'maybe': not on or off" "$BBSIZE" simulate "$T/k1.ini"
bad '[topology]\ncopy_per_byte = -1ns\n[job a]\nmodel = checkpoint\nranks = 4\n' k2.ini
expect_fail_fixed "a negative copy time per byte (65)" 65 \
  "k2.ini:2: [topology] copy_per_byte '-1ns': not a duration per byte >= 0" \
  "$BBSIZE" simulate "$T/k2.ini"
bad '[topology]\nsend_overhead = 3 furlongs\n[job a]\nmodel = checkpoint\nranks = 4\n' k3.ini
expect_fail_fixed "a send overhead that is no duration (65)" 65 \
  "k3.ini:2: [topology] send_overhead '3 furlongs': not a duration >= 0" \
  "$BBSIZE" simulate "$T/k3.ini"
bad '[storage]\npiece_threads = 65\n[job a]\nmodel = checkpoint\nranks = 4\n' k4.ini
expect_fail_fixed "more than 64 piece threads (65)" 65 \
  "k4.ini:2: [storage] piece_threads '65': not an integer in 0..64" "$BBSIZE" simulate "$T/k4.ini"
# the terminal layout and link latencies (CODES' LP mapping, its default
# link delays)
bad '[topology]\nstore_forward = sometimes\n[job a]\nmodel = checkpoint\nranks = 4\n' k8.ini
expect_fail_fixed "store_forward is on or off (65)" 65 \
  "k8.ini:2: [topology] store_forward 'sometimes': not on or off" "$BBSIZE" simulate "$T/k8.ini"
bad '[topology]\nvc_priority = strict\n[job a]\nmodel = checkpoint\nranks = 4\n' k9.ini
expect_fail_fixed "vc_priority is on or off (65)" 65 \
  "k9.ini:2: [topology] vc_priority 'strict': not on or off" "$BBSIZE" simulate "$T/k9.ini"
bad '[topology]\ncompute_per_group = -1\n[job a]\nmodel = checkpoint\nranks = 4\n' k5.ini
expect_fail_fixed "a negative number of compute nodes per group (65)" 65 \
  "k5.ini:2: [topology] compute_per_group '-1': not an integer >= 0" "$BBSIZE" simulate "$T/k5.ini"
bad '[topology]\nglobal_delay = 2s\n[job a]\nmodel = checkpoint\nranks = 4\n' k6.ini
expect_fail_fixed "a link delay of seconds (65)" 65 \
  "k6.ini:2: [topology] global_delay '2s': not a duration >= 0 (e.g. 727ns)" \
  "$BBSIZE" simulate "$T/k6.ini"
bad '[topology]\ncompute_per_group = 33\n[job a]\nmodel = checkpoint\nranks = 4\n' k7.ini
expect_fail_fixed "more compute nodes per group than terminals, by file (65)" 65 \
  "k7.ini: [topology] mfnetsim-1056: 33 compute nodes per group: need 0 <= k <= a*p = 32" \
  "$BBSIZE" simulate "$T/k7.ini"
# a dangling symbolic link is named as one, with its target (the one
# bounded reader, src/formats/readfile.c, says it for every format)
ln -s "$T/no-such-dir/s.ini" "$T/dangling.ini"
expect_fail_fixed "a dangling link names its target (66)" 66 \
  "dangling.ini: cannot open: a dangling symbolic link (to '$T/no-such-dir/s.ini', which does not exist)" \
  "$BBSIZE" simulate "$T/dangling.ini"
t_done
