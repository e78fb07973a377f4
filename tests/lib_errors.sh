#!/bin/sh
# tests/lib_errors.sh: the libraries' side of the one error convention
# (bb_error.h, src/status.h).  Below src/ (base/, analytic/, sim/, src/formats/)
# a failure is a BB_* status with a message that names quantities: no file
# includes src/exitcodes.h or names a BB_EXIT_* status, no string names a
# command-line option ("--max-ops"), and every public function of
# src/formats/ that can fail returns an enum bb_status (the two predicates
# that answer yes or no return int).  On the command's side, every usage
# error goes through src/usage.c (one wording, usage.h): no other file of
# src/ calls argp_error.  And small files: no source file of base/, analytic/,
# sim/ or src/ is over 1,000 lines.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
t_plan 6

lib_files() {
  find "$SRCDIR/base" "$SRCDIR/analytic" "$SRCDIR/sim" "$SRCDIR/src/formats" -name '*.[ch]' | sort
}

lib_files | xargs grep -n '#include "exitcodes.h"' >"$T/inc" 2>/dev/null
if [ -s "$T/inc" ]; then t_fail "no library includes exitcodes.h" "$T/inc"
else t_ok "no library includes exitcodes.h"; fi

lib_files | xargs grep -n 'BB_EXIT_' >"$T/exit" 2>/dev/null
if [ -s "$T/exit" ]; then t_fail "no library names an exit status (BB_EXIT_*)" "$T/exit"
else t_ok "no library names an exit status (BB_EXIT_*)"; fi

# A string that names an option: a quote, then "--" and a letter before
# the next quote.  src/status.c appends the option to the quantity.
lib_files | xargs grep -n '"[^"]*--[a-z]' >"$T/flags" 2>/dev/null
if [ -s "$T/flags" ]; then t_fail "no library message names a command-line option" "$T/flags"
else t_ok "no library message names a command-line option"; fi

grep -n '^int [a-z_]*(' "$SRCDIR"/src/formats/*.h | grep -v '/vef_int\.h:' \
  | grep -v ':int bb_dxt_looks_like(\|:int bb_workload_all_plain(' >"$T/int"
if [ -s "$T/int" ]; then t_fail "every reader of src/formats/ returns an enum bb_status" "$T/int"
else t_ok "every reader of src/formats/ returns an enum bb_status"; fi

find "$SRCDIR/src" -name '*.c' ! -path "$SRCDIR/src/usage.c" | sort | xargs grep -n 'argp_error *(' \
  >"$T/argp" 2>/dev/null
if [ -s "$T/argp" ]; then t_fail "no file of src/ but usage.c calls argp_error (usage.h)" "$T/argp"
else t_ok "no file of src/ but usage.c calls argp_error (usage.h)"; fi

find "$SRCDIR/base" "$SRCDIR/analytic" "$SRCDIR/sim" "$SRCDIR/src" -name '*.[ch]' | sort | xargs wc -l \
  | awk '$2 != "total" && $1 > 1000' >"$T/long"
if [ -s "$T/long" ]; then t_fail "no source file is over 1,000 lines" "$T/long"
else t_ok "no source file is over 1,000 lines"; fi
