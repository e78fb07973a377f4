# SPDX-License-Identifier: GPL-3.0-or-later
# Class: files bbsize writes and then refuses, and files left behind.
# Sourced by tests/cli_hostile_corpus.sh.

hnew
hcase "generate --d-min 1e308: refused, no file (wrote 'inf' periods)" 64 \
  "--d-min: '1e308' is too large.*at most 8\.98847e\+307" - \
  "$B" generate --d-min 1e308 -o w.csv
hnew
"$B" generate --d-min 8.98e307 -o w.csv 2>/dev/null
hcase "generate at the largest --d-min: the file is read back" 0 \
  "burst buffer" - "$B" size w.csv --resolution 1000
