# storage_cli.sh: helpers of the storage CLI tests (sourced after the
# prelude tests/setup.sh, with CMD set to the subcommand under test):
# expect (a refused run of $CMD) and man_examples.
# SPDX-License-Identifier: GPL-3.0-or-later
: "${CMD:?}" "${T:?source tests/setup.sh first}"
tmp=$T
no() { notok "$1"; }

# expect STATUS NEEDLE DESCRIPTION -- ARGS: exit status and a stderr phrase
expect() {
  want=$1 needle=$2 what=$3
  shift 4
  st=0
  "$BBSIZE" "$CMD" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
  if [ "$st" -eq "$want" ] && grep -q -- "$needle" "$tmp/err"; then
    ok "$what (exit $want)"
  else
    no "$what: exit $st, stderr: $(cat "$tmp/err")"
  fi
}

# man_examples MIN: run every "  bbsize CMD ..." line of the EXAMPLES of
# man/bbsize-CMD.1 (with continuation lines); one test line, at least MIN.
man_examples() {
  min=$1
  sed -n '/^\.SH EXAMPLES/,/^\.SH [FS]/p' "$BBSIZE_TOP_SRCDIR/man/bbsize-$CMD.1" |
    sed -e 's/\\-/-/g' -e 's/\\e$/\\/' |
    awk -v c="  bbsize $CMD" 'index($0, c) == 1 { cmd = $0; while (cmd ~ /\\$/) { sub(/\\$/, "", cmd); getline l; cmd = cmd l } print cmd }' >"$tmp/ex"
  fails=0 count=0
  while read -r line; do
    count=$((count + 1))
    set -- $line
    shift 2
    "$BBSIZE" "$CMD" "$@" >/dev/null 2>"$tmp/err" || fails=$((fails + 1))
  done <"$tmp/ex"
  if [ "$count" -ge "$min" ] && [ "$fails" -eq 0 ]; then
    ok "man page EXAMPLES run ($count)"
  else
    no "man EXAMPLES: $fails of $count failed: $(cat "$tmp/err")"
  fi
}
