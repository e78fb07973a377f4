#!/bin/sh
# cli_mpi.sh: the MPI back end under mpirun -np 1, 2 and 3: the runner on
# synthetic units of uneven cost, `bbsize simulate --json` and `bbsize
# validate --csv` give the same bytes as the thread runner (a plain run);
# a failing unit stops every rank with the message naming the lowest failed
# unit and the documented status, within a timeout; `validate --scenario
# --progress` shows on rank 0 alone every rank's runs as they end.  A TAP skip when bbsize
# was built without --with-mpi or no mpirun is on PATH.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
: "${BBSIZE_TOP_BUILDDIR:=$(dirname "$(dirname "$BBSIZE")")}"
UNITS=$BBSIZE_TOP_BUILDDIR/tests/mpi_units
NP="1 2 3"
PLAN=41
t_plan $PLAN

if ! "$BBSIZE" --version | grep -q '(MPI)'; then
  i=0; while [ $i -lt $PLAN ]; do t_skip "MPI" "bbsize built without --with-mpi"; i=$((i + 1)); done
  exit 0
fi
if ! command -v mpirun >/dev/null 2>&1; then
  i=0; while [ $i -lt $PLAN ]; do t_skip "MPI" "no mpirun on PATH"; i=$((i + 1)); done
  exit 0
fi
# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe (MPICH's mpirun needs neither and knows neither).
OMPI_ALLOW_RUN_AS_ROOT=1; OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
OVER=""
mpirun --version 2>&1 | grep -q 'Open MPI' && OVER=--oversubscribe
# The references below run without a launcher: no MPI, the thread runner.
unset OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_SIZE MPI_LOCALNRANKS 2>/dev/null || :

# mpi NP CMD...: CMD on NP ranks, never more than 120 s.
mpi() { _np=$1; shift; timeout 120 mpirun $OVER -np "$_np" "$@"; }

# t_same DESC WANT_STATUS REF CMD...: CMD exits with WANT_STATUS and its
# stdout equals the file REF byte for byte.
t_same() {
  _desc=$1; _want=$2; _ref=$3; shift 3
  _got=0
  "$@" >"$T/out" 2>"$T/err" || _got=$?
  if [ "$_got" -eq "$_want" ] && cmp -s "$_ref" "$T/out"; then t_ok "$_desc"
  else t_fail "$_desc (exit $_got, expected $_want; output vs $_ref)" "$T/out" "$T/err"; fi
}

t_match "--version says the MPI back end is built" '\(MPI\)' /dev/stdin <<EOF2
$("$BBSIZE" --version)
EOF2

# Units 3, 8, 13, ... cost 20x the others; units 13, 3 and 38 fail.
"$UNITS" -t 2 -s 200 40 >"$T/units.ref"
"$UNITS" -t 2 -s 200 40 13 3 38 >"$T/units_fail.ref" || :
grep -q '^status 2: unit 3: bad unit 3$' "$T/units_fail.ref" || t_fail "reference failure line" "$T/units_fail.ref"

SIM="simulate --bb-size 2TB --replications 7 --horizon 3000 --seed 11 --json"
VAL="validate --bb-size 1TB:4TB:1TB --replications 4 --horizon 2000 --seed 5 --csv"
"$BBSIZE" $SIM >"$T/sim.ref"
"$BBSIZE" $VAL >"$T/val.ref"
: >"$T/empty"

for np in $NP; do
  t_same "np $np: runner, uneven units, same bytes as threads" 0 "$T/units.ref" \
    mpi "$np" "$UNITS" -s 200 40
  t_same "np $np: runner, units 13, 3, 38 fail: unit 3 reported, status 2" 2 \
    "$T/units_fail.ref" mpi "$np" "$UNITS" -s 200 40 13 3 38
  t_same "np $np: simulate --json, same bytes as one process" 0 "$T/sim.ref" \
    mpi "$np" "$BBSIZE" $SIM
  t_same "np $np: validate --csv, same bytes as one process" 0 "$T/val.ref" \
    mpi "$np" "$BBSIZE" $VAL
  # Sizes 0, 1PB, 2PB under a 10 MB budget: only the 2PB row (unit 2) is
  # too big for the banded solver (the FFT solver needs less than 10 MB at
  # either size); every rank stops with status 2 and nothing on stdout.
  t_err "np $np: validate, one row too big: 'unit 2', status 2" 2 \
    '^bbsize: unit 2: the chain would have .*limit 0.01 GB' \
    mpi "$np" "$BBSIZE" validate --bb-size 0:2PB:1PB --max-memory 10MB --replications 2 --horizon 100 --solver banded
done
if [ -s "$T/out" ]; then t_fail "np 3: the failed validate wrote nothing on stdout" "$T/out"
else t_ok "np 3: the failed validate wrote nothing on stdout"; fi
# Rank 0 only hands out: every unit runs on rank 1, same bytes.
t_same "np 2, rank 0 not computing: same bytes" 0 "$T/units.ref" \
  mpi 2 -x BBSIZE_MPI_MASTER_WORKS=no "$UNITS" -v -s 200 40
t_match "np 2, rank 0 not computing: rank 1 computed all 40 units" '^rank 1 computed 40 units$' "$T/err"
# bbsize sweep: one unit per grid point.
SWEEP="sweep --bb-size 0:300TB:100TB --load-scale 1,1.3 --policy greedy,lazy --threshold 0.5 --csv"
if "$BBSIZE" sweep --help >/dev/null 2>&1; then
  "$BBSIZE" $SWEEP >"$T/sweep.ref"
  for np in $NP; do
    t_same "np $np: sweep --csv, same bytes as one process" 0 "$T/sweep.ref" \
      mpi "$np" "$BBSIZE" $SWEEP
  done
  # EPS = 0 with threshold 1 cannot drain: some points fail, not all.
  BAD="sweep --bb-size 0,50TB,100TB --threshold 0,1 --empty-prob 0 --csv"
  "$BBSIZE" $BAD >/dev/null 2>"$T/bad.ref" || :
  msg=$(head -n 1 "$T/bad.ref")
  for np in 2 3; do
    rc=0; mpi "$np" "$BBSIZE" $BAD >"$T/out" 2>"$T/err" || rc=$?
    if [ "$rc" -eq 65 ] && grep -Fxq "$msg" "$T/err" && [ ! -s "$T/out" ]; then
      t_ok "np $np: sweep, points that cannot be solved: 65, '$msg'"
    else t_fail "np $np: sweep, points that cannot be solved (exit $rc)" "$T/err"; fi
  done
else
  for i in 1 2 3 4 5; do t_skip "sweep under MPI" "no sweep command in this build"; done
fi
# Bad input fails on every rank before any unit; rank 0 prints the message.
t_err "np 3: unreadable workload: status 66 and the message" 66 \
  '^bbsize: /nonexistent/w.csv: cannot open' mpi 3 "$BBSIZE" simulate /nonexistent/w.csv --bb-size 2TB
if [ "$(grep -c 'cannot open' "$T/err")" -eq 1 ]; then t_ok "np 3: unreadable workload: the message once"
else t_fail "np 3: unreadable workload: the message once" "$T/err"; fi
# A rank that fails alone (its input missing, as on a node without the
# file) must end the job with its status, not leave the others waiting.
ALONE='r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}; f=; [ "$r" = 1 ] && f=/nonexistent/w.csv
exec "$0" simulate $f --bb-size 2TB --replications 40 --horizon 20000 --json'
t_err "np 2: rank 1 alone cannot read its input: 66, its message shown" 66 \
  '^bbsize \(rank 1\): /nonexistent/w.csv: cannot open' mpi 2 sh -c "$ALONE" "$BBSIZE"
t_err "np 3: rank 1 alone cannot read its input: 66, its message shown" 66 \
  '^bbsize \(rank 1\): /nonexistent/w.csv: cannot open' mpi 3 sh -c "$ALONE" "$BBSIZE"
# Units that run units of their own (on their own rank, never over MPI).
"$UNITS" -n -s 0 30 >"$T/nested.ref"
t_same "np 3: units with nested units, same bytes" 0 "$T/nested.ref" mpi 3 "$UNITS" -n -s 0 30
# The first and the last unit failing.
"$UNITS" -s 0 40 0 >"$T/u0.ref" || :
"$UNITS" -s 0 40 39 >"$T/u39.ref" || :
t_same "np 3: runner, unit 0 fails" 2 "$T/u0.ref" mpi 3 "$UNITS" -s 0 40 0
t_same "np 3: runner, the last unit fails" 2 "$T/u39.ref" mpi 3 "$UNITS" -s 0 40 39

# validate --scenario --progress: rank 0 shows the operations of every
# rank's runs as each ends, never decreasing, in whole runs, ending at
# DONE = TOTAL = 3 runs x the scenario's operations as simulate counts
# them; the other ranks print nothing (one estimate, one summary).
BBSIZE_PROGRESS_INTERVAL=0   # every update shown (progress.h)
export BBSIZE_PROGRESS_INTERVAL
MIX=$BBSIZE_TOP_SRCDIR/tests/mix.ini
"$BBSIZE" simulate --progress --csv "$MIX" >/dev/null 2>"$T/sim"
ops=$(sed -n 's/^bbsize simulate: [0-9]*\/\([0-9]*\) ops.*/\1/p' "$T/sim" | tail -n 1)
VSC="validate --scenario $MIX --replications 2 --csv"
"$BBSIZE" $VSC >"$T/vsc.ref" 2>/dev/null
for np in 2 3; do
  mpi "$np" "$BBSIZE" $VSC --progress >"$T/out" 2>"$T/err"
  check "np $np: validate --scenario --progress, stdout one process's bytes" \
    'cmp -s "$T/vsc.ref" "$T/out"'
  sed -n 's/^bbsize validate: \([0-9]*\)\/\([0-9]*\) ops.*/\1 \2/p' "$T/err" >"$T/lines"
  check "np $np: progress lines, done never decreasing, whole runs of $ops ops" \
    'awk -v o="$ops" "NR > 1 && \$1 < p { bad = 1 } \$1 % o { bad = 1 } { p = \$1; n++ }
         END { exit !(n > 0 && o > 0 && !bad) }" "$T/lines"'
  check "np $np: the last line is DONE = TOTAL = 3 runs x $ops ops" \
    '[ "$(tail -n 1 "$T/lines")" = "$((3 * ops)) $((3 * ops))" ]'
  check "np $np: the other ranks print nothing: one estimate, one summary" \
    '[ "$(grep -c "this run is estimated" "$T/err")" -eq 1 ] &&
     [ "$(grep -c "3 runs, wall" "$T/err")" -eq 1 ]'
done
mpi 2 "$BBSIZE" $VSC >"$T/out" 2>"$T/err"
check "np 2: validate --scenario, no progress off a terminal without --progress" \
  '! grep -q " ops" "$T/err"'
mpi 2 "$BBSIZE" $VSC --progress --quiet >"$T/out" 2>"$T/err"
check "np 2: validate --scenario, --quiet wins over --progress" '[ ! -s "$T/err" ]'
