# storage_cli.sh: helpers of the storage CLI tests (sourced after the
# prelude tests/setup.sh, with CMD set to the subcommand under test):
# expect (a refused run of $CMD).  The man pages' EXAMPLES run in
# tests/examples.sh.
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
