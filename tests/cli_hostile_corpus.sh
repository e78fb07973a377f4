#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cli_hostile_corpus.sh: the hostile-input corpus (tests/hostile/*.sh), one
# file per class of problem (docs/bounds.md):
#   unbounded.sh   runs refused before they start, naming what to change
#   nonanswer.sh   answers that are not answers (refused or said as such)
#   written.sh     every file bbsize writes it reads back; no stray files
#   silent.sh      contradictory or meaningless input refused, never run
#   readonce.sh    every input read once (FIFOs, pipes)
#   messages.sh    messages that name the right thing, in the right terms
#   round4_runs.sh round four (issue 38): a crash, non-answers, bounds ignored
#   round4_inputs.sh  inputs never destroyed, nothing written then refused,
#                  option values blamed as such (issue 38, classes 4-6)
#   round4_rest.sh    failures costed, a NaN occupancy, a generated workload
#                  too large, the chain's setup, --max-ops 1 everywhere
#   round5.sh      a heatmap past its counters, bbarch on many nodes, and
#                  what a last pass as a hostile user found
# A case bounding memory with `ulimit -v` leaves it out under --enable-asan
# (BBSIZE_SANITIZED, Makefile.am): ASan's shadow reserves terabytes of
# address space, so the limit would abort every run at its start.
# Each case runs in a directory of its own and asserts the exit status, key
# words of the message and the files left there.  Every run has a
# timeout, so a regression that hangs fails instead of blocking the suite.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
B=$BBSIZE
SRC=$SRCDIR
TO="timeout $((60 * ${BBSIZE_TIME_SCALE:-1}))"   # an ASan build scales it (Makefile.am)
_case=0

# hnew: a fresh, empty working directory for the next case (cd into it).
hnew() {
  _case=$((_case + 1))
  mkdir "$T/c$_case"
  cd "$T/c$_case"
}

# hcase DESC STATUS WORDS LEFT CMD...: run CMD (in the case's directory)
# with a timeout; pass when it exits with STATUS, its stderr and stdout
# together match the extended regular expression WORDS, and the files it
# left are exactly LEFT (space-separated names; - for none).  The
# directory's files before the run (the inputs) are not counted.
hcase() {
  _d=$1; _w=$2; _p=$3; _l=$4; shift 4
  ls -A | sort >"$T/before"
  _g=0
  $TO "$@" >"$T/out" 2>"$T/err" || _g=$?
  ls -A | sort | comm -13 "$T/before" - | tr '\n' ' ' | sed 's/ $//' >"$T/left"
  _want_l=$_l
  [ "$_want_l" = - ] && _want_l=
  _got_l=$(cat "$T/left")
  if [ "$_g" -ne "$_w" ]; then
    t_fail "$_d (exit $_g, expected $_w)" "$T/err" "$T/out"
  elif ! cat "$T/err" "$T/out" | grep -Eq -- "$_p"; then
    t_fail "$_d (no /$_p/)" "$T/err" "$T/out"
  elif [ "$_got_l" != "$_want_l" ]; then
    t_fail "$_d (left '$_got_l', expected '$_want_l')" "$T/err"
  else
    t_ok "$_d"
  fi
}

for f in "$SRC"/tests/hostile/*.sh; do
  . "$f"
done
cd "$T"
t_done
