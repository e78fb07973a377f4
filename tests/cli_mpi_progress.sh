#!/bin/sh
# cli_mpi_progress.sh: `validate --scenario --progress` under mpirun -np 2
# and 3: rank 0 shows the operations of every rank's runs as each run
# ends, never decreasing, in whole runs, ending at DONE = TOTAL = 3 runs x
# the scenario's operations as `simulate` counts them; the other ranks
# print nothing (one estimate, one summary); stdout is the same bytes as
# one process's.  A TAP skip when bbsize was built without --with-mpi or
# no mpirun is on PATH.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
NP="2 3"
PLAN=10
t_plan $PLAN

if ! "$BBSIZE" --version | grep -q '(MPI)'; then
  i=0; while [ $i -lt $PLAN ]; do t_skip "MPI" "bbsize built without --with-mpi"; i=$((i + 1)); done
  exit 0
fi
if ! command -v mpirun >/dev/null 2>&1; then
  i=0; while [ $i -lt $PLAN ]; do t_skip "MPI" "no mpirun on PATH"; i=$((i + 1)); done
  exit 0
fi
# as tests/cli_mpi.sh: Open MPI refuses root and oversubscription without
# these; the references run without a launcher
OMPI_ALLOW_RUN_AS_ROOT=1; OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
OVER=""
mpirun --version 2>&1 | grep -q 'Open MPI' && OVER=--oversubscribe
unset OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_SIZE MPI_LOCALNRANKS 2>/dev/null || :
mpi() { _np=$1; shift; timeout 120 mpirun $OVER -np "$_np" "$@"; }
# every update shown (progress.h), not only after 2 s
BBSIZE_PROGRESS_INTERVAL=0
export BBSIZE_PROGRESS_INTERVAL

cat >"$T/mix.ini" <<'EOT'
[topology]
preset = graph500-72
bb_per_group = 1
routing = adaptive
[placement]
policy = random-node
[storage]
capacity = 1GB
pfs_bandwidth = 1GB/s
[run]
seed = 7
[job milc]
model = milc
ranks = 16
dims = 2x2x2x2
iterations = 2
[job checkpoint]
model = checkpoint
ranks = 16
total_bytes = 160MB
EOT
# the scenario's operations, as simulate counts them (its last line's total)
"$BBSIZE" simulate --progress --csv "$T/mix.ini" >/dev/null 2>"$T/sim"
ops=$(sed -n 's/^bbsize simulate: [0-9]*\/\([0-9]*\) ops.*/\1/p' "$T/sim" | tail -n 1)
VAL="validate --scenario $T/mix.ini --replications 2 --csv"
"$BBSIZE" $VAL >"$T/ref" 2>/dev/null

for np in $NP; do
  mpi "$np" "$BBSIZE" $VAL --progress >"$T/out" 2>"$T/err"
  check "np $np: stdout is one process's bytes" 'cmp -s "$T/ref" "$T/out"'
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
mpi 2 "$BBSIZE" $VAL >"$T/out" 2>"$T/err"
check "np 2: no progress off a terminal without --progress" '! grep -q " ops" "$T/err"'
mpi 2 "$BBSIZE" $VAL --progress --quiet >"$T/out" 2>"$T/err"
check "np 2: --quiet wins over --progress" '[ ! -s "$T/err" ]'
exit "$_failed"
