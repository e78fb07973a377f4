# SPDX-License-Identifier: GPL-3.0-or-later
# Class: runs not bounded before they start.  Sourced by
# tests/cli_hostile_corpus.sh (hnew, hcase, $B, $SRC).

# A lazy threshold at the whole buffer: the buffer fills whatever its size;
# the search doubled it until memory ran out.
hnew
hcase "size --threshold 1: no size suffices (1), not a search to the memory bound" 1 \
  "no burst-buffer size suffices.*stays at 0\.0[0-9]+ > 0\.001.*--threshold" - \
  "$B" size --threshold 1
hnew
hcase "size --threshold 1 --json: feasible false, lazy_bound true" 1 \
  '"lazy_bound": true' - "$B" size --threshold 1 --json
hnew
hcase "... and with EPS large enough the same threshold is answered" 0 \
  "burst buffer .* with lazy draining" - "$B" size --threshold 1 --empty-prob 0.5

# A small scenario (graph500-72, one buffer node per group); each case adds
# one hostile key and must be refused at once, naming it.
hscn() {
  printf '[topology]\npreset = graph500-72\nbb_per_group = 1\nrouting = %s\n' "$1"
  printf '%s[placement]\npolicy = contiguous\n[run]\nseed = 7\n' "$2"
  printf '[job checkpoint]\nmodel = checkpoint\nranks = 16\ntotal_bytes = 160MB\n%s' "$3"
}
hnew
hscn minimal "" "iterations = 1000000000
" >s.ini
hcase "scenario iterations = 1e9: refused before it is built (grew to 75% of RAM)" 2 \
  "scenario s\.ini would execute about [0-9.e+]+ events.*--max-events" - \
  "$B" simulate --quiet s.ini
hnew
hscn minimal "[storage]
piece = 1B
" "" >s.ini
hcase "scenario piece = 1B: refused naming [storage] piece (ran to the 1e9-event bound)" 2 \
  "1\.6e\+08 pieces of 1 bytes.*\[storage\] piece|pieces of 1 bytes \(\[storage\] piece\)" - \
  "$B" simulate --quiet s.ini --max-events 1e7
hnew
hscn "adaptive
route_piece = 1B" "" "" >s.ini
hcase "scenario route_piece = 1B: refused naming [topology] route_piece" 2 \
  "routed pieces of 1 bytes \(\[topology\] route_piece\)" - \
  "$B" simulate --quiet s.ini --max-events 1e7
# The run at mttf = mttr = 10 ns executes 8.69e7 events, nearly all
# failures and repairs (measured); at 1 ns ten times as many.
hnew
hscn minimal "[failures]
mttf = 1ns
mttr = 1ns
" "" >s.ini
hcase "scenario mttf = mttr = 1ns: refused naming [failures] mttf" 2 \
  "about (8\.[5-9][0-9]*|9)e\+08 events \((8\.[5-9][0-9]*|9)e\+08 node failures and repairs.*\[failures\] mttf or mttr" - \
  "$B" simulate --quiet s.ini --max-events 1e7
hnew
hscn minimal "[failures]
drive_scale = 1ns
mttr = 1ns
" "" >s.ini
hcase "scenario drive_scale = 1ns: refused naming [failures] drive_scale" 2 \
  "drive failures and repairs.*\[failures\] drive_scale" - \
  "$B" simulate --quiet s.ini --max-events 1e7

# Analytic questions are costed before the first solve (--max-ops).
printf 'name,p,bw,burst\na,0.1,1.5,100000\nb,0.3,0.2,1\n' >"$T/long.csv"
hnew
hcase "--model chain, bursts of 1e5 units: refused at once (crawled, then 70)" 2 \
  "ON/OFF chain.*power steps to relax bursts of up to 9e\+04 time units.*--model fluid.*--max-ops" - \
  "$B" idle "$T/long.csv" --pfs-bw 1 --bb-size 50 --model chain
hnew
hcase "... and a size search over them" 2 \
  "the size search|settling the resolution|the solve" - \
  "$B" size "$T/long.csv" --pfs-bw 1 --model chain --resolution 100
# One application, p = 0.1, r = 1.5 B, bursts of 1e5 units (L): the
# 50-unit buffer fills in 100 units of a burst, then the writers wait
# (issue 35): they write B / r = 2/3 of their offer and the rest of the
# burst, of mean L (memoryless) past those 100 units with probability
# e^-1e-3, takes 1.5 times as long, waiting 1/3 of that.  An OFF period
# is 9 L (the buffer empties in 50 units of it).  Idle = the waiting
# time's share: (1/3) 1.5 L e^-1e-3 / (L + 0.5 L e^-1e-3 + 9 L) =
# 0.5 e^-1e-3 / (10 + 0.5 e^-1e-3) = 0.04757.
printf 'name,p,bw,burst\na,0.1,1.5,100000\n' >"$T/long1.csv"
hnew
hcase "... the fluid model (the default for bursts) answers the waiting share 0.0476" 0 \
  "^idle 0\.0475[67] " - \
  "$B" idle "$T/long1.csv" --pfs-bw 1 --bb-size 50
hnew
hcase "sweep of 10000 sizes to 10 PB: the grid is costed and refused (ran 87 s)" 2 \
  "the grid of 10000 points.*1\.2e\+11 operations.*--max-ops" - \
  "$B" sweep --bb-size 1TB:10PB:1TB --resolution 100 --max-ops 1e10
hnew
hcase "idle at 1000 PB: its banded fallback is costed (ran 356 s)" 2 \
  "the solve would take about 3\.9e\+11 operations" - \
  "$B" idle --bb-size 1000PB --resolution 100 --max-ops 1e11
hnew
hcase "report: its grid of points is costed before solving" 2 \
  "the grid of [0-9]+ points.*more than the bound of 1e\+08" - \
  "$B" report -o r.html --resolution 400 --max-ops 1e8
