#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/walks.sh: the walks of docs/hacking.md, measured (`make bench-walks`):
# which source files a question goes through on its way to the solver, from
# the call of the analytic front door (answer.h) to the solver's start,
# recorded by gdb (bench/walk.py: every function of src/ and analytic/ is
# a breakpoint that logs and goes on).  For each walk: the files entered
# in time order (a file entered again after another counts again), the
# distinct files, whether src/ is entered again once in the library, and
# the call stack at the end.  The model is built by bba_front_new: the
# burst column's walks end when the command's code runs again.
# BBSIZE (default src/bbsize, built with -g, as configure's default CFLAGS
# are) may be another build, to measure a branch against another.
set -eu
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${BBSIZE_TOP_SRCDIR:=$(pwd)}"
if ! command -v gdb >/dev/null 2>&1; then
  echo "bench/walks.sh: needs gdb (apt-get install gdb)" >&2
  exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-walks.XXXXXX")
trap 'rm -rf "$T"' EXIT
PY="$BBSIZE_TOP_SRCDIR/bench/walk.py"

# Four applications of the default workload with 5-minute bursts (the
# chain, solved exactly: 16 phases), and seven burst classes (128 phases:
# the approximation), as tests/cli_onoff.sh; --model chain, the discrete
# ON/OFF chain (a burst column otherwise selects the fluid model).
(grep '^#@' "$BBSIZE_TOP_SRCDIR/data/workloads/default.csv"; echo "name,p,bw,burst"
 sed -n '/^name,p,bw/,$p' "$BBSIZE_TOP_SRCDIR/data/workloads/default.csv" | tail -n +2 |
   awk 'NR <= 4 { print $0 ",5min"; next } { print $0 "," }') >"$T/bursts.csv"
{ echo '#@ pfs-bw = 100 B/s'; echo '#@ time-unit = 1 s'; echo 'name,p,bw,burst'
  for i in 1 2 3 4 5 6 7; do echo "app$i,0.0$i,$((40 + 10 * i)) B/s,$((2 + i))"; done; } >"$T/many.csv"

# walk LABEL START STOP MODE ARGS...: one walk, printed as a block; MODE
# "stack" prints the stack at the end only (the walk crosses a solve).
walk() {
  label=$1 start=$2 stop=$3 mode=$4
  shift 4
  WALK_OUT="$T/log" WALK_START="$start" WALK_STOP="$stop" \
    gdb -q -batch -x "$PY" --args "$BBSIZE" "$@" >/dev/null 2>"$T/gdb.err" || true
  if ! grep -q '^# stop' "$T/log" 2>/dev/null; then
    echo "## $label: the run did not reach $stop"; sed 's/^/#   /' "$T/gdb.err" | tail -5
    return 0
  fi
  echo "## $label"
  echo "\$ bbsize $*" | sed "s|$T/||g"
  awk -v start="$start" -v mode="$mode" '
    $1 == "#" { if ($2 == "stack:") { $1 = ""; $2 = ""; stack = substr($0, 3) } next }
    $2 == start { on = 1 }
    !on { next }
    $1 != last { seq = seq (seq == "" ? "" : " > ") $1; n++; last = $1
                 if (!($1 in seen)) { seen[$1] = 1; d++ }
                 if ($1 ~ /^src\//) src++ }
    END { if (mode != "stack")
            printf "walk (%d files entered, %d distinct, %d in src/): %s\n", n, d, src, seq
          printf "stack at the end: %s\n", stack }' "$T/log"
  echo
}

echo "# walks from the front door to the solver ($(basename "$BBSIZE"), $(date +%Y-%m-%d))"
walk "idle --bb-size, Bernoulli" bba_front_idle "bba_fftwh_eval bba_stationary_solve" walk \
  idle --bb-size 100TB --resolution 800
walk "idle --bb-size, ON/OFF chain (16 phases)" bba_front_idle bba_onoff_eval walk \
  idle "$T/bursts.csv" --bb-size 132TB --resolution 100 --model chain
walk "the burst column: the chain built (16 phases)" bba_front_new src/ walk \
  idle "$T/bursts.csv" --bb-size 132TB --resolution 100 --model chain
walk "the burst column: the approximation built (128 phases)" bba_front_new src/ walk \
  idle "$T/many.csv" --bb-size 100 --resolution 10 --model chain
walk "the approximation's correction of an answer" bba_front_idle \
  "bba_effbw_approx_factor bba_effbw_ms_factor" stack idle "$T/many.csv" --bb-size 100 --resolution 10 --model chain
