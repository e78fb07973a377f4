# SPDX-License-Identifier: GPL-3.0-or-later
# Class: contradictory or meaningless input accepted and run as something
# else.  Sourced by tests/cli_hostile_corpus.sh.

hnew
hcase "--threshold with --policy greedy: refused (ran lazy)" 64 \
  "option '--threshold': greedy draining has no threshold.*--policy greedy" - \
  "$B" size --policy greedy --threshold 0.5
hnew
hcase "--empty-prob under greedy draining: refused (ignored)" 64 \
  "option '--empty-prob': EPS is lazy draining's.*--policy lazy or --threshold" - \
  "$B" idle --bb-size 1TB --empty-prob 0.5
hnew
hcase "simulate --mode onoff --d-min: refused (ignored)" 64 \
  "option '--d-min' does not apply to --mode onoff \(periodic only\)" - \
  "$B" simulate --mode onoff --d-min 5 --bb-size 1TB
hnew
hcase "validate --d-min without --mode periodic: refused (ran Bernoulli)" 64 \
  "option '--d-min' does not apply to --mode bernoulli \(periodic only\)" - \
  "$B" validate --d-min 3 --bb-size 1TB
hnew
hcase "validate --mode periodic --d-min -1: refused" 64 \
  "option '--d-min': '-1' is not a non-negative" - \
  "$B" validate --mode periodic --d-min=-1 --bb-size 1TB
hnew
hcase "--empty-prob 1e-300: refused with the floor (was status 70, NaN)" 64 \
  "option '--empty-prob': '1e-300' is below 1e-15.*use 1e-15" - \
  "$B" size --threshold 0.5 --empty-prob 1e-300
hnew
v=$("$B" idle --bb-size 100TB --resolution 100 --threshold 0.5 --empty-prob 1e-9 2>/dev/null |
  sed -n 's/^idle \([0-9.e-]*\) .*/\1/p')
hcase "... at the floor the answer is EPS 1e-9's (EPS acts to first order)" 0 \
  "^idle $v .*EPS 1e-15" - \
  "$B" idle --bb-size 100TB --resolution 100 --threshold 0.5 --empty-prob 1e-15

# Scenario values that ran as something else.
hsil() {
  printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n%s' "$1"
  printf '[run]\nseed = 7\n[job checkpoint]\nmodel = checkpoint\nranks = 16\ntotal_bytes = 160MB\n%s' "$2"
}
hnew
hsil "[storage]
capacity = 0
" "" >s.ini
hcase "[storage] capacity = 0: refused (ran as the default 2 GB)" 65 \
  "s\.ini:5: \[storage\] capacity '0': not a size > 0.*leave the key out" - \
  "$B" simulate --quiet s.ini
hnew
hsil "" "start = 1e300s
" >s.ini
hcase "[job] start = 1e300 s: refused (a 50 GB checkpoint then took 0 s)" 65 \
  "s\.ini:10: \[job\] start '1e300s': not a time in \[0, 1e9 s\]" - \
  "$B" simulate --quiet s.ini
hnew
hsil "" "compute = 1e300
" >s.ini
hcase "[job] compute = 1e300: refused" 65 \
  "parameter 'compute': '1e300' is not a time in \[0, 1e9 s\]" - \
  "$B" simulate --quiet s.ini
hnew
hcase "--max-ops 0: refused (0 is no bound nowhere)" 64 \
  "option '--max-ops'.*not a number of operations in \[1, 1e30\]" - \
  "$B" size --max-ops 0
