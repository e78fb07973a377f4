#!/bin/sh
# b_mpi.sh: what the MPI back end costs: start-up of a plain run (no
# launcher: MPI is not started) against a run that starts MPI, the per-unit
# overhead of handing units over MPI (many tiny units, every one sent to
# another rank) against the thread runner, and a simulate study on 2 ranks
# against 2 threads.  On a shared 2-core machine only the per-unit figures
# mean much; scaling belongs on a cluster (docs/mpi.md, data/slurm/).
# Usage: make bench-mpi   (or BBSIZE=src/bbsize MPI_UNITS=tests/mpi_units sh bench/b_mpi.sh;
# BBSIZE_PLAIN=path/to/a/bbsize/built/without/mpi adds it to the start-up lines)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
: "${BBSIZE:=src/bbsize}"
: "${MPI_UNITS:=tests/mpi_units}"
if ! "$BBSIZE" --version | grep -q '(MPI)'; then
  echo "b_mpi: $BBSIZE was built without --with-mpi; nothing to measure" >&2
  exit 0
fi
OMPI_ALLOW_RUN_AS_ROOT=1; OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
OVER=""
mpirun --version 2>&1 | grep -q 'Open MPI' && OVER=--oversubscribe
now() { date +%s.%N; }
# per_run N CMD...: mean wall milliseconds of N runs of CMD
per_run() {
  _n=$1; shift
  _t0=$(now); _i=0
  while [ $_i -lt "$_n" ]; do "$@" >/dev/null 2>&1 || :; _i=$((_i + 1)); done
  awk -v a="$_t0" -v b="$(now)" -v n="$_n" 'BEGIN { printf "%.1f", 1000 * (b - a) / n }'
}
us_per_unit() { sed -n 's/.*: \([0-9.]*\) us per unit$/\1/p'; }

echo "== start-up (ms per run, mean of 20; machine load $(cut -d' ' -f1 /proc/loadavg))"
plain=$(per_run 20 "$BBSIZE" --version)
forced=$(per_run 5 env OMPI_COMM_WORLD_SIZE=1 "$BBSIZE" --version)
size=$(per_run 20 "$BBSIZE" size)
launched=$(per_run 3 mpirun $OVER -np 1 "$BBSIZE" --version)
if [ -n "${BBSIZE_PLAIN:-}" ]; then # a build without --with-mpi, for comparison
  printf '  %-52s %8s ms\n' "bbsize --version, built without MPI" "$(per_run 20 "$BBSIZE_PLAIN" --version)"
fi
printf '  %-52s %8s ms\n' "bbsize --version, no launcher (MPI not started)" "$plain" \
  "bbsize --version, MPI_Init as a singleton" "$forced" \
  "bbsize size, no launcher" "$size" \
  "mpirun -np 1 bbsize --version (launcher + init)" "$launched"

echo "== per-unit overhead: 100000 empty units (us per unit, best of 3)"
best() { sort -n | head -n 1; }
thr=$(for i in 1 2 3; do "$MPI_UNITS" -q -t 1 100000 | us_per_unit; done | best)
printf '  %-52s %8s us\n' "thread runner, 1 thread" "$thr"
for q in 1 2; do
  m=$(for i in 1 2 3; do mpirun $OVER -np 2 -x BBSIZE_MPI_MASTER_WORKS=no -x BBSIZE_MPI_QUEUE=$q \
        "$MPI_UNITS" -q 100000 | us_per_unit; done | best)
  printf '  %-52s %8s us\n' "-np 2, every unit to rank 1, queue $q" "$m"
done
m=$(for i in 1 2 3; do mpirun $OVER -np 3 -x BBSIZE_MPI_MASTER_WORKS=no \
      "$MPI_UNITS" -q 100000 | us_per_unit; done | best)
printf '  %-52s %8s us\n' "-np 3 (oversubscribed), ranks 1-2, queue 2" "$m"

echo "== uneven units: 2000 units of 100 us (every 5th 2 ms), 2 workers"
t2=$("$MPI_UNITS" -q -t 2 -s 100 2000 | us_per_unit)
m2=$(mpirun $OVER -np 2 "$MPI_UNITS" -q -s 100 2000 | us_per_unit)
printf '  %-52s %8s us\n' "2 threads" "$t2" "-np 2 (rank 0 computes too)" "$m2"

echo "== simulate, 64 replications x 20000 time units (ms, mpirun start-up included)"
SIM="simulate --bb-size 2TB --replications 64 --horizon 20000 --json"
st=$(per_run 1 "$BBSIZE" $SIM --threads 2)
sm=$(per_run 1 mpirun $OVER -np 2 "$BBSIZE" $SIM)
printf '  %-52s %8s ms\n' "2 threads" "$st" "mpirun -np 2" "$sm"
