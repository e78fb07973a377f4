#!/bin/sh
# tests/fuzz_replay.sh: every parser harness (fuzz/fz_NAME.c), built without
# libFuzzer as fuzz/replay_NAME, replays its seeds (data/) and the inputs
# kept in tests/fuzz/NAME/ (every crash or hang a fuzzing campaign found).
# A crash, a sanitizer report (in an --enable-asan build) or a run longer
# than 60 s (600 s under a wrapper) fails.  FUZZ_REPLAY_WRAP, when set, is a
# command to run each driver under (make check-valgrind sets valgrind).
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
. "$SRCDIR/fuzz/seeds.sh"
B=${BBSIZE_TOP_BUILDDIR:-.}
for n in workload units scenario vef sizedist codes wiring device system darshan alloc dxt heatmap; do
  set --
  for f in $(fuzz_seeds "$SRCDIR" "$n"); do set -- "$@" "$f"; done
  [ -d "$SRCDIR/tests/fuzz/$n" ] && set -- "$@" "$SRCDIR/tests/fuzz/$n"
  if [ $# -eq 0 ]; then t_fail "$n: no inputs to replay"; continue; fi
  rc=0
  lim=60
  [ -n "${FUZZ_REPLAY_WRAP:-}" ] && lim=600
  if command -v timeout >/dev/null 2>&1; then
    timeout $lim ${FUZZ_REPLAY_WRAP:-} "$B/fuzz/replay_$n" "$@" >"$T/$n.out" 2>&1 || rc=$?
  else
    ${FUZZ_REPLAY_WRAP:-} "$B/fuzz/replay_$n" "$@" >"$T/$n.out" 2>&1 || rc=$?
  fi
  k=$(grep -c '^ok ' "$T/$n.out" || true)
  if [ "$rc" -eq 0 ] && [ "$k" -gt 0 ]; then t_ok "$n: $k inputs replayed"
  else t_fail "$n: replay exited $rc after $k inputs" "$T/$n.out"; fi
done
t_done
