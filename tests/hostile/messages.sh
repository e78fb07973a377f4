# SPDX-License-Identifier: GPL-3.0-or-later
# Class: messages that blame the wrong thing or say it in the wrong terms.
# Sourced by tests/cli_hostile_corpus.sh.

hnew
hcase "--bb-size 1e300EB: a range error, said as one (not 'not a size >= 0')" 64 \
  "option '--bb-size': '1e300EB' overflows \(too large" - \
  "$B" idle --bb-size 1e300EB
hnew
hcase "--pfs-bw 1e-300B/s: both bandwidths given, the PFS's to check, no 'inf'" 65 \
  "bandwidth 8e\+11 B/s is over 1\.8[0-9]*e\+308 times the PFS bandwidth \(1e-300 B/s\).*check the PFS bandwidth" - \
  sh -c 'o=$("$1" size --pfs-bw 1e-300B/s 2>&1); st=$?; echo "$o"
         case $o in *inf*) exit 99 ;; esac; exit $st' sh "$B"
hnew
hcase "a bound beyond the double range: 'more than 1.8e+308 events', not 'about inf'" 2 \
  "would execute more than 1\.8e\+308 events" - \
  "$B" simulate --mode periodic --d-min 1e-300 --bb-size 1TB --replications 1000000 --horizon 1e12
hnew
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[run]\nseed = 18446744073709551615\n[job c]\nmodel = checkpoint\nranks = 16\ntotal_bytes = 16MB\n' >s.ini
hcase "scenario JSON: seed 2^64 - 1 as itself, not -1" 0 \
  '"seed": "18446744073709551615"' - \
  "$B" simulate --quiet --json s.ini
