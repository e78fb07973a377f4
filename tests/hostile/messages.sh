# SPDX-License-Identifier: GPL-3.0-or-later
# Class: messages that blame the wrong thing or say it in the wrong terms.
# Sourced by tests/cli_hostile_corpus.sh.

hnew
hcase "--bb-size 1e300EB: a range error, said as one (not 'not a size >= 0')" 64 \
  "option '--bb-size': '1e300EB' overflows \(too large" - \
  "$B" idle --bb-size 1e300EB
hnew
hcase "--pfs-bw 1e-300B/s: both bandwidths given, the PFS's to check, no 'inf'" 64 \
  "option '--pfs-bw': .*bandwidth 8e\+11 B/s is over 1\.8[0-9]*e\+308 times the PFS bandwidth \(1e-300 B/s\).*check the PFS bandwidth" - \
  sh -c 'o=$("$1" size --pfs-bw 1e-300B/s 2>&1); st=$?; echo "$o"
         echo "$o" | grep -qw inf && exit 99; exit $st' sh "$B"
hnew
hcase "a bound beyond the double range: 'more than 1.8e+308 events', not 'about inf'" 2 \
  "would execute more than 1\.8e\+308 events" - \
  "$B" simulate --mode periodic --d-min 1e-300 --bb-size 1TB --replications 1000000 --horizon 1e12
hnew
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[run]\nseed = 18446744073709551615\n[job c]\nmodel = checkpoint\nranks = 16\ntotal_bytes = 16MB\n' >s.ini
hcase "scenario JSON: seed 2^64 - 1 as itself, not -1" 0 \
  '"seed": "18446744073709551615"' - \
  "$B" simulate --quiet --json s.ini
hnew
printf '#@ pfs-bw = 1 TB/s\n#@ time-unit = 60 s\nname,p,bw,burst\na,0.5,1TB/s,59.99999s\n' >w.csv
hcase "a refusal comparing two numbers prints the digits that differ (0.9999998, not 1 < 1)" 65 \
  "burst 59\.99999 s is 0\.9999998 time units, shorter than max\(1, p/\(1-p\)\) = 1 time units" - \
  "$B" size w.csv --model chain
hnew
printf '#@ pfs-bw = 1 TB/s\nname,p,bw\na,0.5,2TB/s\nb,0.2,0.0000001TB/s\n' >e.csv
hcase "no size suffices at E = B: said as such, not 'falls to 0 > 0.001'" 1 \
  "the expected load equals the PFS bandwidth \(1 TB/s; E/B = 1\), so the buffer's content grows without bound" - \
  "$B" size e.csv --resolution 100
