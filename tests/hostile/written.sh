# SPDX-License-Identifier: GPL-3.0-or-later
# Class: files bbsize writes and then refuses, and files left behind.
# Sourced by tests/cli_hostile_corpus.sh.

hnew
hcase "generate --d-min 1e308: refused, no file (wrote 'inf' periods)" 64 \
  "option '--d-min': '1e308' is too large.*at most 8\.98847e\+307" - \
  "$B" generate --d-min 1e308 -o w.csv
hnew
"$B" generate --d-min 8.98e307 -o w.csv 2>/dev/null
hcase "generate at the largest --d-min: the file is read back" 0 \
  "burst buffer" - "$B" size w.csv --resolution 1000
hnew
hcase "report --format md -o -: refused, no figures in the working directory" 64 \
  "option '-o': '-': a Markdown report writes its figures beside it" - \
  "$B" report --format md -o -
hnew
hcase "a Markdown report refused after its files are opened: nothing left" 2 \
  "the grid of [0-9]+ points" - \
  "$B" report --format md -o r.md --resolution 400 --max-ops 1e8
hnew
hcase "a Markdown report: the file and its four figures with their data, nothing else" 0 "^written$" \
  "r-idle-vs-size.dat r-idle-vs-size.svg r-lazy-idle.dat r-lazy-idle.svg r-lazy-quiet.dat r-lazy-quiet.svg r-load-distribution.dat r-load-distribution.svg r.md" \
  sh -c '"$1" report --format md -o r.md --resolution 100 --points 5 --load-scale 1 \
         2>/dev/null && echo written' sh "$B"
