#!/bin/sh
# cli_datadir.sh: a copied or installed tree reads its own data
# (src/datadir.h): bbsize looks for ../data and ../share/bbsize beside the
# executable before the directories compiled in, puts $BBSIZE_DATADIR
# first, and shows what it read relative to the data directory, never the
# absolute path of the tree it was built in.  Each copy's preset is changed
# so that the answer says which file was read.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
real=${BBSIZE_VG_REAL:-$BBSIZE}   # the binary itself, also under check-valgrind
build=$(cd "$(dirname "$real")/.." && pwd)

# A copy of the built tree (program and data), and an installed layout.
mkdir -p "$T/tree/src" "$T/inst/bin" "$T/inst/share"
cp "$real" "$T/tree/src/bbsize"
cp -R "$SRCDIR/data" "$T/tree/data"
cp "$real" "$T/inst/bin/bbsize"
cp -R "$SRCDIR/data" "$T/inst/share/bbsize"
sed 's/^pfs-bw = .*/pfs-bw = 123 GB\/s/' "$SRCDIR/data/systems/cori.conf" >"$T/tree/data/systems/cori.conf"
sed 's/^pfs-bw = .*/pfs-bw = 321 GB\/s/' "$SRCDIR/data/systems/cori.conf" >"$T/inst/share/bbsize/systems/cori.conf"
printf 'title = a lab machine\npfs-bw = 77 GB/s\n' >"$T/lab.conf"
mkdir -p "$T/mine/systems"
cp "$T/lab.conf" "$T/mine/systems/lab.conf"
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.1,100GB/s\nb,0.2,50GB/s\n' >"$T/w.csv"

# leaks FILE: FILE names the build tree, the source tree or the scratch
# directory (where the copies are) by absolute path.
leaks() { grep -qF -e "$build/" -e "$SRCDIR/" -e "$T/" "$1"; }

cd "$T"
run "$T/tree/src/bbsize" idle w.csv --system cori --bb-size 1TB --json
status_is 0 "a copy of the build tree answers with a preset"
check "the copy reads its own data/systems/cori.conf (123 GB/s)" \
  '[ "$(json_num pfs_bw_bytes_per_s "$T/out")" = 123000000000.0 ]'
err_has "PFS bandwidth 123 GB/s from systems/cori.conf overrides" \
  "the override message names the preset relative to the data directory"
check "no absolute path of a tree in its messages" '! leaks "$T/err"'

run "$T/inst/bin/bbsize" idle w.csv --system cori --bb-size 1TB --json
status_is 0 "an installed layout (bin/, share/bbsize/) answers with a preset"
check "bin/bbsize reads ../share/bbsize/systems/cori.conf (321 GB/s)" \
  '[ "$(json_num pfs_bw_bytes_per_s "$T/out")" = 321000000000.0 ]'

run "$T/tree/src/bbsize" systems --json
status_is 0 "systems --json from the copy"
check "the data directory is the copy's" \
  'grep -qF "\"data_directory\": \"$T/tree/data\"" "$T/out"'
check "each preset's file is relative to it" \
  'grep -qF "\"file\": \"systems/cori.conf\"" "$T/out" && ! grep -q "\"file\": \"/" "$T/out"'

run "$T/tree/src/bbsize" report w.csv --system cori --format md -o r.md
status_is 0 "a report from the copy"
check "the report names the preset as systems/cori.conf" 'grep -qF "systems/cori.conf" r.md'
check "no absolute path of a tree in the report" '! leaks r.md'

BBSIZE_DATADIR=$T/mine
export BBSIZE_DATADIR
run "$T/tree/src/bbsize" systems
status_is 0 "systems with \$BBSIZE_DATADIR"
check "\$BBSIZE_DATADIR's presets come with the shipped ones" \
  'grep -q "^lab " "$T/out" && grep -q "^cori " "$T/out"'
run "$T/tree/src/bbsize" idle w.csv --system lab --bb-size 1TB --json
status_is 0 "a preset of \$BBSIZE_DATADIR"
check "read from \$BBSIZE_DATADIR/systems/lab.conf (77 GB/s)" \
  '[ "$(json_num pfs_bw_bytes_per_s "$T/out")" = 77000000000.0 ]'
cp "$T/lab.conf" "$T/mine/systems/cori.conf"
run "$T/tree/src/bbsize" idle w.csv --system cori --bb-size 1TB --json
check "\$BBSIZE_DATADIR comes before the shipped data" \
  '[ "$(json_num pfs_bw_bytes_per_s "$T/out")" = 77000000000.0 ]'
unset BBSIZE_DATADIR

# Device presets and size tables come from the same directory.
cp "$SRCDIR/data/devices/intel-d3-s4510.dev" "$T/tree/data/devices/copy-only.dev"
run "$T/tree/src/bbsize" device --list-presets
check "device presets from the copy's data/devices" 'grep -q copy-only "$T/out"'
t_done
