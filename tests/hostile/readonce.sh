# SPDX-License-Identifier: GPL-3.0-or-later
# Class: inputs read twice (a FIFO hangs, a pipe reads empty).  Each input
# is read once: through a FIFO or a pipe the answer is the file's.
# Sourced by tests/cli_hostile_corpus.sh.

printf 'name,p,bw\na,0.1,150\nb,0.3,40\n' >"$T/ro.csv"
ro_want=$("$B" size "$T/ro.csv" --pfs-bw 100 2>/dev/null)
# the automatic time unit (no --time-unit) solves the workload at twice
# the unit too: from the copy read once
hnew
mkfifo f
(cat "$T/ro.csv" >f &)
hcase "size FIFO, automatic time unit: the file's answer, no hang" 0 \
  "^$(printf '%s' "$ro_want" | sed 's/[][().*^$+?{}|\\]/\\&/g')\$" - \
  "$B" size f --pfs-bw 100
rm -f f
hnew
hcase "size /dev/stdin from a pipe: the file's answer" 0 \
  "^$(printf '%s' "$ro_want" | sed 's/[][().*^$+?{}|\\]/\\&/g')\$" - \
  sh -c 'cat "$1" | "$2" size /dev/stdin --pfs-bw 100' sh "$T/ro.csv" "$B"
hnew
printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[run]\nseed = 7\n[job c]\nmodel = checkpoint\nranks = 16\ntotal_bytes = 16MB\n' >"$T/ro.ini"
mkfifo f.ini
(cat "$T/ro.ini" >f.ini &)
hcase "simulate --scenario FIFO: read once, run" 0 "^c +checkpoint +16 " - \
  "$B" simulate --quiet --scenario f.ini
rm -f f.ini
