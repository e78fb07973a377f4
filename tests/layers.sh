#!/bin/sh
# tests/layers.sh: the layers go one way (ARCHITECTURE.md): src/formats/
# reads text into the structs of sim/ and analytic/, never the other way,
# and base/ (errors, numbers, the draining policy) is under them all.
# Checked three ways: each library's own compile command (its _CPPFLAGS,
# from tests/layerflags) finds its own headers and none of a layer above
# it (base/ sees only itself; analytic/ itself and base/; sim/ sim/,
# analytic/ and base/; libbbformats those and src/formats/, not src/), and
# no library names a header by a path around that (#include "../src/cli.h"); no file below sim/ or
# analytic/ includes a header of src/formats/; and no symbol that the built
# libraries of sim/ and analytic/ leave undefined is defined by
# libbbformats.a, nor one that base/ leaves undefined by a library above.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
B=${BBSIZE_TOP_BUILDDIR:-$(pwd)}
t_plan 12

# probe HEADER: compile "config.h" then HEADER with $cmd, from the build
# directory (the flags name the source tree relative to it); 0: it
# compiles, 1: HEADER is not found, 2: another failure (in $T/perr).
probe() {
  printf '#include "config.h"\n#include "%s"\n' "$1" >"$T/probe.c"
  # shellcheck disable=SC2086
  if (cd "$B" && $cmd -fsyntax-only "$T/probe.c") >"$T/perr" 2>&1; then return 0; fi
  grep -q "$1: No such file" "$T/perr" && return 1
  return 2
}
# The layers above each library: src/ (the command), src/formats/, sim/.
above() {
  case $1 in
    base/*) echo "workload.h answer.h chain.h cli.h options.h exitcodes.h units.h readfile.h engine.h" ;;
    analytic/*) echo "cli.h options.h exitcodes.h units.h readfile.h engine.h workload/exec.h" ;;
    sim/*) echo "cli.h options.h exitcodes.h units.h readfile.h" ;;
    src/formats/*) echo "cli.h options.h exitcodes.h" ;;
  esac
}
if [ ! -s "$B/tests/layerflags" ]; then
  for i in 1 2 3 4 5 6 7; do t_skip "a library's include path" "no tests/layerflags (make check builds it)"; done
else
  while IFS='|' read -r lib own cmd; do
    : >"$T/seen"
    probe "$own"; rc=$?
    if [ "$rc" -ne 0 ]; then
      t_fail "$lib: its compile command finds its own $own" "$T/perr"
      continue
    fi
    for h in $(above "$lib"); do
      probe "$h"; rc=$?
      [ "$rc" -eq 1 ] || echo "$h ($([ "$rc" -eq 0 ] && echo found || echo 'another error'))" >>"$T/seen"
    done
    what="$lib: sees its own headers, none of $(above "$lib" | sed 's/ /, /g')"
    if [ ! -s "$T/seen" ]; then t_ok "$what"
    else t_fail "$what" "$T/seen"; fi
  done <"$B/tests/layerflags"
fi

# A path around the include path: no library names a header by a folder
# above its own (base/ and analytic/ by any folder at all).
{ grep -Hn '^#include "[^"]*/' "$SRCDIR"/base/*.[ch] "$SRCDIR"/analytic/*.[ch] "$SRCDIR"/analytic/*/*.[ch]
  grep -Hn '^#include "\(\.\./\|src/\|sim/\|analytic/\|formats/\)' \
    "$SRCDIR"/sim/*.[ch] "$SRCDIR"/sim/*/*.[ch]
  grep -Hn '^#include "\(\.\./\|src/\|sim/\|analytic/\|formats/\)' "$SRCDIR"/src/formats/*.[ch]
} >"$T/paths" 2>/dev/null
if [ -s "$T/paths" ]; then t_fail "no library includes a header by a path above its folder" "$T/paths"
else t_ok "no library includes a header by a path above its folder"; fi

: >"$T/inc"
for h in "$SRCDIR"/src/formats/*.h; do
  n=$(basename "$h")
  grep -ln "^#include \"\(formats/\)\{0,1\}$n\"" \
    "$SRCDIR"/sim/*.[ch] "$SRCDIR"/sim/*/*.[ch] "$SRCDIR"/analytic/*.[ch] "$SRCDIR"/analytic/*/*.[ch] "$SRCDIR"/base/*.[ch] \
    >>"$T/inc" 2>/dev/null
done
if [ -s "$T/inc" ]; then t_fail "sim/ and analytic/ include no header of src/formats/" "$T/inc"
else t_ok "sim/ and analytic/ include no header of src/formats/"; fi

if ! command -v nm >/dev/null 2>&1; then
  t_skip "the libraries below src/ need no symbol of libbbformats.a" "no nm"
  t_skip "libbbformats.a defines the parsers moved out of sim/" "no nm"
  t_skip "base/libbbbase.a needs no symbol of a library above it" "no nm"
  exit 0
fi
nm -g --defined-only "$B/src/formats/libbbformats.a" 2>/dev/null | awk 'NF == 3 { print $3 }' \
  | sort -u >"$T/formats"
for l in sim/libbbsim.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
         sim/workload/libbbswl.a analytic/libbbanalytic.a base/libbbbase.a; do
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
# base/ is under everything: nothing it leaves undefined is defined above.
for l in analytic/libbbanalytic.a sim/libbbsim.a sim/network/libbbsnet.a sim/storage/libbbsstor.a \
         sim/workload/libbbswl.a src/formats/libbbformats.a; do
  nm -g --defined-only "$B/$l" 2>/dev/null | awk 'NF == 3 { print $3 }'
done | sort -u >"$T/above"
nm -u "$B/base/libbbbase.a" 2>/dev/null | awk '{ print $NF }' | sort -u >"$T/bundef"
comm -12 "$T/above" "$T/bundef" >"$T/both"
if [ -s "$T/above" ] && [ ! -s "$T/both" ]; then
  t_ok "base/libbbbase.a needs no symbol of a library above it"
else
  t_fail "base/libbbbase.a needs no symbol of a library above it" "$T/both"
fi
