#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/solver.sh: the stationary solve of issue 11 (`make bench-solver`).
# Whole-process wall times of bbsize with the FFT Wiener-Hopf solver
# (default) against banded GTH (--solver banded) in the same script, and
# one solve of the identical chain by Octave's backslash (UMFPACK) and
# SciPy's spsolve when they are installed (skipped otherwise).
# BENCH_FULL=1 adds the banded runs that take minutes and gigabytes
# (R = 1000).  Run under nice on a shared machine.
set -eu
: "${BBSIZE:?}" "${BENCH_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# wall N CMD...: median wall time of N runs, seconds
wall() {
  n=$1; shift
  i=0
  while [ "$i" -lt "$n" ]; do
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'
    i=$((i + 1))
  done | median
}
# rss CMD...: peak resident memory, MB (GNU time), or "?"
rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.0f", $1 / 1024 }'
  else echo "?"; fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

"$BBSIZE" generate --seed 1 -o "$T/paper.csv"   # the paper's setting, R = 100
echo "# issue 11: FFT Wiener-Hopf solver (default) vs banded GTH; whole process, median of 5"
echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %9s %9s %7s\n' "work" "fft" "banded" "ratio"
row() {
  label=$1; shift
  f=$(wall 5 "$BBSIZE" "$@")
  b=$(wall 3 "$BBSIZE" "$@" --solver banded)
  printf '%-44s %8ss %8ss %7s\n' "$label" "$f" "$b" "$(ratio "$b" "$f")"
}
row "idle --bb-size 3000 (paper setting)" idle "$T/paper.csv" --bb-size 3000
row "size --target-idle 1e-3 (paper setting)" size "$T/paper.csv" --target-idle 1e-3 --quiet
row "threshold, docs/whatif.md's Cori example" threshold "$BBSIZE_SRCDIR/data/workloads/mixed.csv" \
  --system cori --bb-size 1.8PB --target-idle 1e-4 --quiet
f=$(wall 3 "$BBSIZE" size --quiet)
line=$("$BBSIZE" size --quiet | sed 's/.*resolution \([0-9]*\).*moves the size by \([^)]*\)).*/R = \1, doubling moves it by \2/')
printf '%-44s %8ss %9s %7s  %s\n' "size, default workload, R chosen" "$f" "-" "-" "$line"

echo
echo "# resolution: one solve of the same 3000-unit buffer (S = 30 R quanta)"
for R in 1000 10000; do
  f=$(wall 1 "$BBSIZE" idle "$T/paper.csv" --bb-size 3000 --resolution $R)
  m=$(rss "$BBSIZE" idle "$T/paper.csv" --bb-size 3000 --resolution $R)
  line=$("$BBSIZE" idle "$T/paper.csv" --bb-size 3000 --resolution $R | cut -d';' -f1)
  printf 'R = %-5s fft %8ss %6s MB   %s\n' "$R" "$f" "$m" "$line"
done
if [ "${BENCH_FULL:-0}" = 1 ]; then
  b=$(wall 1 "$BBSIZE" idle "$T/paper.csv" --bb-size 3000 --resolution 1000 --solver banded)
  m=$(rss "$BBSIZE" idle "$T/paper.csv" --bb-size 3000 --resolution 1000 --solver banded)
  printf 'R = 1000  banded %8ss %6s MB\n' "$b" "$m"
else
  echo "(banded at R = 1000: BENCH_FULL=1; about a minute and 4.5 GB)"
fi
f=$(wall 1 "$BBSIZE" sweep "$T/paper.csv" --bb-size 30:3000:30 --resolution 1000 --csv)
echo "sweep of 100 sizes at R = 1000 (30..3000 units): $f s"

echo
echo "# the identical chain (paper setting, S = 3000 quanta) in other tools"
"$BENCH_DIR/b_export" 100 3000 "$T/chain.txt" >"$T/inproc.txt"
awk '{ printf "in process: %-7s %8.4f s  idle %s\n", $1, $2, $3 }' "$T/inproc.txt"
fft_s=$(awk '$1 == "fft" { print $2 }' "$T/inproc.txt")
if command -v octave >/dev/null 2>&1; then
  cat >"$T/solve.m" <<'EOF'
fid = fopen(getenv('CHAIN'), 'r'); h = fscanf(fid, '%d', 3); t = fscanf(fid, '%f', [3, h(2)]); fclose(fid);
n = h(1); S = h(3); A = sparse(t(1, :), t(2, :), t(3, :), n, n); b = zeros(n, 1); b(n) = 1;
x = A \ b; tic; for k = 1:3, x = A \ b; end; el = toc / 3;
printf('%.4f %.12e\n', el, sum(x(S + 2:end)) / sum(x));
EOF
  o=$(CHAIN="$T/chain.txt" octave -q --no-gui --eval "run('$T/solve.m')" 2>/dev/null | tail -1)
  set -- $o
  echo "Octave backslash (UMFPACK), solve alone: $1 s  idle $2  (fft in process is $(ratio "$1" "$fft_s") faster)"
else
  echo "Octave: not installed, skipped"
fi
PY=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import scipy.sparse.linalg' 2>/dev/null; then PY=$p; break; fi
done
if [ -n "$PY" ]; then
  o=$(CHAIN="$T/chain.txt" "$PY" - <<'EOF'
import os, time, numpy as np, scipy.sparse as sp, scipy.sparse.linalg as la
with open(os.environ["CHAIN"]) as f:
    n, nnz, S = map(int, f.readline().split())
    t = np.loadtxt(f)
A = sp.csc_matrix((t[:, 2], (t[:, 0].astype(int) - 1, t[:, 1].astype(int) - 1)), shape=(n, n))
b = np.zeros(n); b[-1] = 1
x = la.spsolve(A, b); t0 = time.perf_counter()
for _ in range(3): x = la.spsolve(A, b)
el = (time.perf_counter() - t0) / 3
print("%.4f %.12e" % (el, x[S + 1:].sum() / x.sum()))
EOF
)
  set -- $o
  echo "SciPy spsolve (SuperLU), solve alone: $1 s  idle $2  (fft in process is $(ratio "$1" "$fft_s") faster)"
else
  echo "SciPy: not installed, skipped"
fi
