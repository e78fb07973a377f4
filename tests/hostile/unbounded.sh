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
