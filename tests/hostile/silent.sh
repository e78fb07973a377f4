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
  "option '--d-min' applies to --mode periodic only.*onoff" - \
  "$B" simulate --mode onoff --d-min 5 --bb-size 1TB
hnew
hcase "validate --d-min without --mode periodic: refused (ran Bernoulli)" 64 \
  "option '--d-min' applies to --mode periodic only.*bernoulli" - \
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
