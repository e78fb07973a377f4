#!/bin/sh
# cli_systems.sh: platform presets: `bbsize systems`, --system NAME and
# its precedence, the search path, bad presets.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
echo 1..20
unset BBSIZE_DATADIR || true

ls "$SRCDIR/data/systems" | sed -n 's/\.conf$//p' | sort > "$T/expected"
run "$BBSIZE" systems
status_is 0 "systems exits 0"
awk 'NR > 1 { print $1 }' "$T/out" | sort > "$T/listed"
check_cmd "systems lists every data/systems/*.conf" cmp -s "$T/expected" "$T/listed"
run "$BBSIZE" systems --json
check_cmd "systems --json gives one object per preset" \
  test "$(grep -c '"name":' "$T/out")" -eq "$(wc -l < "$T/expected")"
grep -A3 '"name": "trinity"' "$T/out" > /dev/null && \
grep -q '"pfs_bw_bytes_per_s": 1450000000000' "$T/out"
check_cmd "systems --json has Trinity's PFS bandwidth in bytes/s" test $? -eq 0

# Every value in a preset carries its source in a comment just above it,
# with a [Q], [D] or [R] mark.
bad=""
for f in "$SRCDIR"/data/systems/*.conf; do
  awk -v f="$f" '
    /^[a-z-]+ *=/ { key = $1
      if (key != "title" && key != "bb-kind" && key != "bb-nodes" && key != "time-unit" &&
          !(prev ~ /^#/)) print f ": " key " has no source comment"
      if (key != "title" && key != "bb-kind" && key != "time-unit" && key != "bb-nodes" &&
          !(block ~ /\[[QDR]/)) print f ": " key " has no [Q]/[D]/[R] mark" }
    /^#/ { block = (prev ~ /^#/) ? block $0 : $0 }
    { prev = $0 }' "$f" >> "$T/nosrc"
done
check_cmd "every preset value has a sourced comment" test ! -s "$T/nosrc"

# --system sets the platform: Cori's PFS is 700 GB/s.
run "$BBSIZE" dist --system cori --json
check_cmd "--system cori: PFS bandwidth 700 GB/s" grep -q '"pfs_bw_bytes_per_s": 700000000000' "$T/out"
check_cmd "--system cori: JSON names the system" grep -q '"system": "cori"' "$T/out"
run "$BBSIZE" dist --system CORI --json
check_cmd "--system is case-insensitive" grep -q '"system": "cori"' "$T/out"
# Precedence: option > --system > #@ lines.
run "$BBSIZE" dist --system cori --pfs-bw 1TB/s --json
check_cmd "--pfs-bw overrides the preset" grep -q '"pfs_bw_bytes_per_s": 1000000000000' "$T/out"
printf '#@ pfs-bw = 3 TB/s\n#@ time-unit = 10 s\nname,p,bw\na,0.1,1TB/s\n' > "$T/w.csv"
run "$BBSIZE" dist --system cori --json "$T/w.csv"
check_cmd "the preset overrides the file's #@ pfs-bw" grep -q '"pfs_bw_bytes_per_s": 700000000000' "$T/out"
# The time unit belongs to the workload (issue 15): the file's beats the preset's.
check_cmd "the file's time unit overrides the preset's" grep -q '"time_unit_s": 10' "$T/out"
check_cmd "stderr names the time unit used and both sources" \
  grep -q "time unit 10 s from .*w.csv:2 ('#@ time-unit') overrides 1 min from .*cori.conf" "$T/err"
run "$BBSIZE" dist --json "$T/w.csv"
check_cmd "without --system the #@ line is used" grep -q '"pfs_bw_bytes_per_s": 3000000000000' "$T/out"

run "$BBSIZE" size --system atlantis
status_is 64 "unknown system exits 64"
err_has "unknown system 'atlantis'; known: $(paste -sd, "$T/expected" | sed 's/,/, /g')" \
  "unknown system lists every known name"

# $BBSIZE_DATADIR comes first in the search path.
mkdir -p "$T/dd/systems"
printf '# test preset\n# [Q] made up\npfs-bw = 2 TB/s\n# [Q] made up\nbb-size = 1 PB\n' > "$T/dd/systems/mine.conf"
BBSIZE_DATADIR=$T/dd run "$BBSIZE" dist --system mine --json
check_cmd "BBSIZE_DATADIR presets are found" grep -q '"pfs_bw_bytes_per_s": 2000000000000' "$T/out"
BBSIZE_DATADIR=$T/dd run "$BBSIZE" systems
check_cmd "systems lists BBSIZE_DATADIR presets with the others" \
  test "$(grep -c '^mine \|^trinity ' "$T/out")" -eq 2

printf 'pfs-bw = 2 TB/s\nbb-sise = 1 PB\n' > "$T/dd/systems/typo.conf"
BBSIZE_DATADIR=$T/dd run "$BBSIZE" size --system typo
status_is 65 "a preset with an unknown key exits 65"
err_has "typo.conf:2: unknown key 'bb-sise'" "the message names file, line and key"
printf 'pfs-bw = 2000\n' > "$T/dd/systems/nounit.conf"
BBSIZE_DATADIR=$T/dd run "$BBSIZE" size --system nounit
err_has "key 'pfs-bw': '2000' needs a unit" "a preset rate without a unit is refused"
