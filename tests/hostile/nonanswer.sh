# SPDX-License-Identifier: GPL-3.0-or-later
# Class: answers that are not answers (refused, or said for what they are).
# Sourced by tests/cli_hostile_corpus.sh.

# Two bursty applications whose loads together never exceed the PFS
# bandwidth (0.5 + 0.4 < 1): nothing can stall, the idle fraction is 0.
printf 'name,p,bw,burst\na,0.1,0.5,3\nb,0.2,0.4,2\n' >"$T/calm.csv"
hnew
hcase "ON/OFF chain, no load above B: 'idle 0', not 'idle 10^0.0000' (idle 1)" 0 \
  "^idle 0 \(no load can stall the applications\)" - \
  "$B" idle "$T/calm.csv" --pfs-bw 1 --bb-size 10 --model chain
# 0.5 + 0.6 > 1: loads above B, an idle fraction of 7e-134 at 10 units that
# underflows long before 1000.
printf 'name,p,bw,burst\na,0.1,0.5,3\nb,0.2,0.6,2\n' >"$T/tail.csv"
hnew
hcase "ON/OFF chain, an idle fraction that underflows: said, not 10^0.0000" 0 \
  "^idle below 1e-308 \(underflows" - \
  "$B" idle "$T/tail.csv" --pfs-bw 1 --bb-size 1000 --model chain
# Bernoulli, loads above B (150 + 40 > 100): banded GTH underflows where the
# FFT solver still gives the order (10^-357).
printf 'name,p,bw\na,0.1,150\nb,0.3,40\n' >"$T/x.csv"
hnew
hcase "banded GTH, an idle fraction that underflows: not 'no load can stall'" 0 \
  "^idle below 1e-308 \(underflows" - \
  "$B" idle "$T/x.csv" --pfs-bw 100 --resolution 100 --bb-size 25000 --solver banded
hnew
hcase "... the FFT solver gives its order" 0 "^idle 10\^-35[0-9]\.[0-9]+ " - \
  "$B" idle "$T/x.csv" --pfs-bw 100 --resolution 100 --bb-size 25000

# A burst-buffer bandwidth under half a quantum rounded to 0 quanta, which
# means no limit: the slowest buffer answered as the fastest.
hnew
hcase "--bb-bw 1GB/s at resolution 100: refused, names the resolution that holds it" 64 \
  "option '--bb-bw': the burst-buffer bandwidth 1e\+09 B/s is 0\.069 of a quantum.*no limit: give a resolution of 1450 or more.*\(--resolution, --model fluid\)" - \
  "$B" size --bb-bw 1GB/s
hnew
hcase "... at resolution 6400 its bandwidth is the bound: no capacity suffices (1)" 1 \
  "no burst-buffer capacity suffices: its bandwidth \(1 GB/s\)" - \
  "$B" size --bb-bw 1GB/s --resolution 6400

# 70.6% of the load (0.9 x 0.4 of 0.9 x 0.4 + 0.001 x 150) rounds to 0
# quanta at resolution 1: refused, saying how much.
printf 'name,p,bw\na,0.9,0.4\nb,0.001,150\n' >"$T/v.csv"
hnew
hcase "most of the load rounds to nothing: refused with the share" 65 \
  "1 of 2 applications, 70\.6% of the expected load, round to 0 quanta.*raise the resolution" - \
  "$B" size "$T/v.csv" --pfs-bw 1 --resolution 1

# compare: the slowdown of a job against another job.
hsc2() {
  printf '[topology]\npreset = graph500-72\nbb_per_group = 1\nrouting = minimal\n'
  printf '[placement]\npolicy = contiguous\n[run]\nseed = 7\n'
  printf '[job checkpoint]\nmodel = checkpoint\nranks = %s\ntotal_bytes = 160MB\n' "$1"
}
hnew
hsc2 16 >a.ini
hsc2 8 >m.ini
hcase "compare of a job with 16 ranks against 8: warned" 0 \
  "job 'checkpoint' differs between a\.ini \(line 9: checkpoint, 16 ranks\) and m\.ini \(line 9: checkpoint, 8 ranks\)" - \
  "$B" compare --quiet a.ini m.ini
hnew
hsc2 16 >a.ini
hcase "... and of a job against itself: no warning" 0 "^job " - \
  sh -c '"$1" compare --quiet a.ini a.ini 2>&1 | { ! grep -q differs; } && echo "job ok"' sh "$B"

# The fluid model (the default for bursts) with bursts of 1e17 s against a
# 1 s time unit: its boundary block is singular.  That was status 70 (an
# internal error); it is the input, beyond double precision: 65, saying so.
printf 'name,p,bw,burst\na,0.1,1.5,1e17\nb,0.2,0.5,3\n' >"$T/span.csv"
hnew
hcase "fluid model, bursts spanning 1e17: refused as data (65, was 70), says why" 65 \
  "time scales span 1e\+17 \(bursts of up to 1e\+17 s against 1 s\).*shorten the longest bursts" - \
  "$B" idle "$T/span.csv" --pfs-bw 1 --bb-size 50
# At 1e12 s, a's bursts keep the buffer full while a is on (its drift
# alone, 0.5 B, is positive), and its writers wait (issue 35): with b off
# they write B / 1.5 = 2/3 of their offer, with b on B / 2 = 1/2, and the
# phases advance at that share.  While a is on, b leaves ON at half its
# rate (1/6 against 1/12 to turn on): Pr(b on) = 1/3, so a's phase
# advances at 2/3 2/3 + 1/3 1/2 = 11/18 on average and a is on 2/13 of
# the time ((18/11) / (18/11 + 9), OFF 9 times ON).  The I/O is stalled
# 1 - 2/3 of the time with b off and 1 - 1/2 with b on:
# idle = 2/13 (2/3 1/3 + 1/3 1/2) = 7/117 = 0.05983.
hnew
hcase "... at a span of 1e12 it answers the stalled share 7/117 = 0.0598" 0 \
  "^idle 0\.0598" - \
  sh -c 'sed "s/1e17/1e12/" "$1" >s.csv && "$2" idle s.csv --pfs-bw 1 --bb-size 50 && rm s.csv' \
  sh "$T/span.csv" "$B"
