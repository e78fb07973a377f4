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
# burst column's walks end when the command's code runs again or the
# front door is asked for the answer (bba_front_idle), whichever comes
# first.
# Then the routes from the command (route below): the files a question
# crosses from the command to its solver, and how often it comes back to
# src/ once in a library.
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
walk "the burst column: the chain built (16 phases)" bba_front_new "src/ ^bba_front_idle" walk \
  idle "$T/bursts.csv" --bb-size 132TB --resolution 100 --model chain
walk "the burst column: the approximation built (128 phases)" bba_front_new "src/ ^bba_front_idle" walk \
  idle "$T/many.csv" --bb-size 100 --resolution 10 --model chain
walk "the approximation's correction of an answer" bba_front_idle \
  "bba_effbw_approx_factor bba_effbw_ms_factor" stack idle "$T/many.csv" --bb-size 100 --resolution 10 --model chain

# route LABEL FROM STOP ARGS...: from the command to STOP (every function
# of src/, analytic/ and sim/ a breakpoint).  The path: the files of the
# call stack at STOP's first entry (consecutive repeats merged); with FROM
# (not "-") the path runs from FROM's first entry up to the frame its
# stack shares with STOP's, then down to STOP (how a value read by FROM
# reaches STOP).  Callbacks: src/ frames (src/formats/ is a library) below
# a library frame on the path.  Returns: in time order, from the command's
# work after its options (ROUTE_START: bb_ctx_load, or bb_ctx_read where
# the command has no front door) to STOP, each time control enters
# src/ again after the first entry into analytic/ or sim/ (a run of src/
# files between two library entries is one return), named by the first
# function entered, when the command's own code calls it; when a library
# frame calls it (a function the command passed, e.g. progress) it is a
# callback on the way, counted apart; leaf helpers that call nothing back
# (bb_num.c, bb_error.c, units.c) are not counted.
route() {
  label=$1 from=$2 stop=$3
  shift 3
  : >"$T/from"
  if [ "$from" != - ]; then
    WALK_OUT="$T/flog" WALK_START=main WALK_STOP="$from" WALK_DIRS="src/ analytic/ sim/" \
      gdb -q -batch -x "$PY" --args "$BBSIZE" "$@" >/dev/null 2>"$T/gdb.err" || true
    sed -n 's/^# stack: //p' "$T/flog" >"$T/from"
  fi
  WALK_OUT="$T/log" WALK_START="$ROUTE_START" WALK_STOP="$stop" WALK_DIRS="src/ analytic/ sim/" \
    gdb -q -batch -x "$PY" --args "$BBSIZE" "$@" >/dev/null 2>"$T/gdb.err" || true
  if ! grep -q '^# stop' "$T/log" 2>/dev/null || { [ "$from" != - ] && [ ! -s "$T/from" ]; }; then
    echo "## $label: the run did not reach $from or $stop"; sed 's/^/#   /' "$T/gdb.err" | tail -5
    return 0
  fi
  echo "## $label"
  echo "\$ bbsize $*" | sed "s|$T/||g"
  awk -v from="$(cat "$T/from")" -v rstart="$ROUTE_START" '
    function cmd(f) { return f ~ /^src\// && f !~ /^src\/formats\// }
    $1 == "#" { if ($2 == "stack:") { $1 = ""; $2 = ""; to = substr($0, 3) } next }
    $1 ~ /(bb_num|bb_error|units)\.c$/ { next }
    $2 == rstart { on = 1 }
    !on || $1 == last { next }
    { last = $1 }
    !cmd($1) { inseg = 0 }
    $1 ~ /^(analytic|sim)\// { lib = 1 }
    lib && cmd($1) && !inseg {
      inseg = 1
      if ($3 ~ /^(analytic|sim|src\/formats)\//) { cbw++; k = $1 " (" $2 ")"; if (!(k in ncb)) ocb[++nk] = k; ncb[k]++ }
      else { ret++; rets = rets (rets == "" ? "" : ", ") $1 " (" $2 ")" }
    }
    END {
      nt = split(to, t, " ")
      nf = split(from, f, " ")
      c = 0
      while (c < nf && c < nt && f[c + 1] == t[c + 1]) c++
      path = ""
      n = 0
      if (nf > 0) {
        for (i = nf; i > c; i--) { path = path (n ? " < " : "") f[i]; n++ }
        path = path " < " t[c]; n++
        for (i = c + 1; i <= nt; i++) { path = path " > " t[i]; n++ }
      } else {
        for (i = 1; i <= nt; i++) { path = path (n ? " > " : "") t[i]; n++ }
      }
      inlib = 0; cb = 0
      for (i = 1; i <= nt; i++) {
        if (!cmd(t[i])) inlib = 1
        else if (inlib) cb++
      }
      printf "path (%d files, %d callbacks into src/): %s\n", n, cb, path
      printf "returns to src/ once in analytic/ or sim/: %d%s\n", ret, (ret ? ": " rets : "")
      cbws = ""
      for (i = 1; i <= nk; i++) cbws = cbws (i > 1 ? ", " : ": ") ncb[ocb[i]] " x " ocb[i]
      printf "callbacks into src/ on the way (a library calls a function the command passed): %d%s\n", cbw, cbws
    }' "$T/log"
  echo
}

ROUTE_START=bb_ctx_load
echo "# routes from the command to the solver ($(basename "$BBSIZE"), $(date +%Y-%m-%d))"
route "idle --bb-size, Bernoulli" - "bba_fftwh_eval bba_stationary_solve" \
  idle --bb-size 100TB --resolution 800
route "simulate --bb-size (one thread, to the first replication)" - bbs_bb_run \
  simulate --bb-size 100TB --replications 2 --horizon 1000 --threads 1
# simulate --mode fluid reads the workload with bb_ctx_read (no front door)
ROUTE_START=bb_ctx_read
route "simulate --mode fluid --bb-size (one thread, to the first replication)" - bbs_fluid_run \
  simulate "$T/bursts.csv" --mode fluid --bb-size 132TB --replications 2 --horizon 1d --threads 1
ROUTE_START=bb_ctx_load
route "validate --mode fluid (one thread, to the first replication)" - bbs_fluid_run \
  validate "$T/bursts.csv" --model fluid --mode fluid --bb-size 132TB --replications 2 \
  --horizon 1d --threads 1
route "the burst column, from the CSV reader to the chain" bb_workload_parse bba_onoff_init \
  idle "$T/bursts.csv" --bb-size 132TB --resolution 100 --model chain
