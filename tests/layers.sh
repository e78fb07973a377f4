#!/bin/sh
# tests/layers.sh: the layers go one way (ARCHITECTURE.md): src/formats/
# reads text into the structs of sim/ and analytic/, never the other way.
# Checked twice: no file below sim/ or analytic/ includes a header of
# src/formats/, and no symbol that the built libraries of sim/ and analytic/
# leave undefined is defined by libbbformats.a.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
B=${BBSIZE_TOP_BUILDDIR:-$(pwd)}
t_plan 3

: >"$T/inc"
for h in "$SRCDIR"/src/formats/*.h; do
  n=$(basename "$h")
  grep -ln "^#include \"\(formats/\)\{0,1\}$n\"" \
    "$SRCDIR"/sim/*.[ch] "$SRCDIR"/sim/*/*.[ch] "$SRCDIR"/analytic/*.[ch] >>"$T/inc" 2>/dev/null
done
if [ -s "$T/inc" ]; then t_fail "sim/ and analytic/ include no header of src/formats/" "$T/inc"
else t_ok "sim/ and analytic/ include no header of src/formats/"; fi

if ! command -v nm >/dev/null 2>&1; then
  t_skip "the libraries below src/ need no symbol of libbbformats.a" "no nm"
  t_skip "libbbformats.a defines the parsers moved out of sim/" "no nm"
  exit 0
fi
nm -g --defined-only "$B/src/formats/libbbformats.a" 2>/dev/null | awk 'NF == 3 { print $3 }' \
  | sort -u >"$T/formats"
for l in sim/libbbsim.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
         sim/workload/libbbswl.a analytic/libbbanalytic.a; do
  nm -u "$B/$l" 2>/dev/null | awk '{ print $NF }'
done | sort -u >"$T/undef"
comm -12 "$T/formats" "$T/undef" >"$T/both"
if [ -s "$T/formats" ] && [ ! -s "$T/both" ]; then
  t_ok "the libraries below src/ need no symbol of libbbformats.a"
else
  t_fail "the libraries below src/ need no symbol of libbbformats.a" "$T/both"
fi
# The readers that left sim/ are in the formats library (and only there).
missing=""
for f in bbs_vef_parse bbs_sizedist_parse bbs_net_conf_parse bbs_net_wiring_parse_intra \
         bbs_dev_params_parse bbs_net_alloc_parse bbs_model_set bbs_tracejob_set bbs_scenario_set bb_unit_bytes; do
  grep -qx "$f" "$T/formats" || missing="$missing $f"
done
if [ -z "$missing" ]; then t_ok "libbbformats.a defines the parsers moved out of sim/"
else echo "# missing:$missing"; t_fail "libbbformats.a defines the parsers moved out of sim/"; fi
