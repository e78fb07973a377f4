#!/bin/sh
# cli_estimate.sh: before an analytic run estimated over 10 s of CPU the
# command says so on stderr, once, with the multiply-adds the cost bound
# (--max-ops) admits; a short run says nothing unless --progress asks,
# and --quiet silences it.  The estimate is the one the refusal prints:
# the same question under a lower --max-ops names the same operation count;
# a fluid model of 2,048 phases that runs in 0.15 s says nothing.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"

# banded GTH at resolution 1600: about 1.6e12 multiply-adds, minutes;
# stopped after 3 s, when the line has long been written
timeout 3 "$BBSIZE" size --solver banded --resolution 1600 --max-ops 1e13 >"$T/out" 2>"$T/err"
n=$(grep -c 'this run is estimated' "$T/err")
t_match "a run of minutes says so before it starts" \
  '^bbsize: this run is estimated at about [0-9]+ min( [0-9]+ s)? \([0-9.e+]+ multiply-adds\)$' "$T/err"
check "it says so once ($n lines)" '[ "$n" -eq 1 ]'
est=$(sed -n 's/.*(\([0-9.e+]*\) multiply-adds).*/\1/p' "$T/err" | head -n 1)
# (at --max-ops 1e6: the load distribution, 2.2e5, is admitted first)
"$BBSIZE" size --solver banded --resolution 1600 --max-ops 1e6 >/dev/null 2>"$T/err2"
ref=$(sed -n 's/.*would take about \([0-9.e+]*\) operations.*/\1/p' "$T/err2")
check "the estimate is the refusal's operation count ($est, $ref)" \
  "awk -v a='$est' -v b='$ref' 'BEGIN { exit !(a > 0 && b > 0 && a / b > 0.95 && a / b < 1.05) }'"

"$BBSIZE" size >"$T/plain" 2>"$T/err"
check "a short run says nothing" '! grep -q "estimated" "$T/err"'
"$BBSIZE" size --progress >"$T/prog" 2>"$T/err"
check "--progress prints the estimate of a short run, stdout unchanged" \
  'grep -q "this run is estimated at about .* s (.* multiply-adds)" "$T/err" && cmp -s "$T/plain" "$T/prog"'
timeout 3 "$BBSIZE" size --solver banded --resolution 1600 --max-ops 1e13 -q >/dev/null 2>"$T/err"
check "--quiet silences it" '! grep -q "estimated" "$T/err"'

# 11 distinct bursty sources (2,048 phases, bench/fluid.sh's d11): a
# 0.15 s idle, whose estimate (the whole-system fallback costed only up
# to 1,024 phases for several classes) stays under the 10 s that speaks
awk 'BEGIN { print "#@ pfs-bw = 1 TB/s"; print "name,p,bw,burst"
  for (i = 0; i <= 10; i++) printf "s%d,%.3f,%.3gTB/s,%ds\n", i, 0.02 + 0.01 * i, 0.2 + 0.05 * i, 60 + 20 * i }' >"$T/d11.csv"
"$BBSIZE" idle "$T/d11.csv" --bb-size 1PB >"$T/out" 2>"$T/err"
check "2,048 phases of 11 sources: answered, and says no estimate" \
  '[ -s "$T/out" ] && ! grep -q "estimated" "$T/err"'
t_done
