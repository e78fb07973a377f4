#!/bin/sh
# fuzz/run.sh SRCDIR OUTDIR "NAMES" SECONDS: run each harness OUTDIR/bin/fz_NAME
# for SECONDS on its corpus OUTDIR/corpus/NAME (seeded from data/ and
# tests/fuzz/NAME), one after the other; logs in OUTDIR/logs/NAME.log, a crash
# or hang in OUTDIR/artifacts/NAME-*.  Prints one line per harness (time,
# executions, corpus size, result) and fails if any harness found something:
# then copy the artifact into tests/fuzz/NAME/ and fix the parser.
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
srcdir=$1 out=$2 names=$3 secs=$4
. "$srcdir/fuzz/seeds.sh"
mkdir -p "$out/logs" "$out/artifacts"
status=0
for n in $names; do
  c=$out/corpus/$n
  mkdir -p "$c"
  for f in $(fuzz_seeds "$srcdir" "$n") "$srcdir"/tests/fuzz/"$n"/*; do
    [ -f "$f" ] && cp "$f" "$c/seed-$(basename "$f")"
  done
  rc=0
  "$out/bin/fz_$n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$n-" "$c" \
    >"$out/logs/$n.log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/logs/$n.log" | tail -n 1)
  ncorp=$(ls "$c" | wc -l)
  if [ "$rc" -eq 0 ]; then res="nothing found"; else
    res="FOUND (exit $rc): $(ls "$out/artifacts/$n-"* 2>/dev/null | tail -n 1)"
    status=1
  fi
  echo "fuzz $n: ${secs}s requested, ${execs:-?} executions, $ncorp corpus inputs, $res"
done
exit $status
