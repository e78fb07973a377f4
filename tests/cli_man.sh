#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The man pages' examples are tests: the example workload of
# bbsize-workload(5) must be accepted, and every command of the EXAMPLES
# section of bbsize(1) must run (in a scratch directory holding that
# workload as mix.csv) and exit 0.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e

# Lines between .nf and .fi after ".SH EXAMPLE" (roff \- is a hyphen).
examples() {
  awk -v sec="$2" '
    /^\.SH / { insec = ($2 == sec) }
    insec && /^\.nf/ { on = 1; next }
    insec && /^\.fi/ { on = 0; print "--"; next }
    on { print }' "$1" | sed 's/\\-/-/g'
}

examples "$SRCDIR/man/bbsize-workload.5" EXAMPLE | sed '/^--$/d' >"$T/mix.csv"
cmds=$(examples "$SRCDIR/man/bbsize.1" EXAMPLES | grep '^bbsize ')
n=$(printf '%s\n' "$cmds" | wc -l)
t_plan $((n + 2))
[ "$(grep -c , "$T/mix.csv")" -ge 3 ] && t_ok "bbsize-workload(5) has an example workload" ||
  t_fail "bbsize-workload(5) has an example workload" "$T/mix.csv"
t_run "the bbsize-workload(5) example is a valid workload" 0 "$BBSIZE" dist "$T/mix.csv"
printf '%s\n' "$cmds" >"$T/cmds"
while IFS= read -r c; do
  # shellcheck disable=SC2086
  set -- $c
  shift
  t_run "man example: $c" 0 sh -c 'cd "$1" && shift && exec "$@"' sh "$T" "$BBSIZE" "$@"
done <"$T/cmds"
