#!/bin/sh
# cli_mkscenarios.sh: data/scenarios/mkscenarios.sh writes every shipped
# MFNetSim scenario byte for byte, so no scenario carries a constant the
# generator does not (one set of constants for all 24 runs).
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e
S="$BBSIZE_TOP_SRCDIR/data/scenarios"
mkdir "$T/scenarios"
cp "$S/mkscenarios.sh" "$T/scenarios/"
rc=0
sh "$T/scenarios/mkscenarios.sh" 2>"$T/err" || rc=$?
n=0; bad=""
for f in "$T"/scenarios/mfnetsim-*.ini; do
    n=$((n + 1))
    cmp -s "$f" "$S/$(basename "$f")" || bad="$bad $(basename "$f")"
done
shipped=$(ls "$S"/mfnetsim-*.ini | wc -l)
if [ "$rc" -eq 0 ] && [ "$n" -eq 24 ] && [ "$shipped" -eq 24 ] && [ -z "$bad" ]; then
    t_ok "mkscenarios.sh regenerates the 24 shipped scenarios byte for byte"
else
    t_fail "mkscenarios.sh regenerates the 24 scenarios (exit $rc, $n written, $shipped shipped, differ:$bad)" "$T/err"
fi
t_done
