# tests/setup.sh: the prelude of the CLI tests (POSIX sh, TAP output).
# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by every tests/cli_*.sh (the one prelude); gives $BBSIZE, $SRCDIR,
# a scratch directory $T removed on success and kept (and named) on
# failure, and TAP helpers.  Sets -u; a script whose every command is
# checked explicitly (run/status_is, expect) adds `set -e` before sourcing.
set -u
# C locale: decimal points and messages do not depend on the user's locale.
LC_ALL=C
export LC_ALL
: "${BBSIZE:=$(pwd)/src/bbsize}"
: "${BBSIZE_TOP_SRCDIR:=$(pwd)}"
SRCDIR=$BBSIZE_TOP_SRCDIR
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-test.XXXXXX")
_n=0
_failed=0
trap 'if [ "$_failed" -eq 0 ]; then rm -rf "$T"; else echo "# scratch kept in $T"; fi' EXIT

t_plan() { echo "1..$1"; }
t_ok() { _n=$((_n + 1)); echo "ok $_n - $1"; }
t_fail() {
  _n=$((_n + 1)); _failed=1; echo "not ok $_n - $1"
  shift
  for f in "$@"; do [ -f "$f" ] && sed 's/^/# /' "$f"; done
  return 0
}
t_skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }

# t_run DESC STATUS CMD...: run CMD with stdout in $T/out and stderr in
# $T/err; pass if it exits with STATUS.
t_run() {
  _desc=$1; _want=$2; shift 2
  _got=0
  "$@" >"$T/out" 2>"$T/err" || _got=$?
  if [ "$_got" -eq "$_want" ]; then t_ok "$_desc"
  else t_fail "$_desc (exit $_got, expected $_want)" "$T/out" "$T/err"; fi
}

# t_err DESC STATUS PATTERN CMD...: CMD exits with STATUS and its stderr
# matches the extended regular expression PATTERN.
t_err() {
  _desc=$1; _want=$2; _pat=$3; shift 3
  _got=0
  "$@" >"$T/out" 2>"$T/err" || _got=$?
  if [ "$_got" -eq "$_want" ] && grep -Eq -- "$_pat" "$T/err"; then t_ok "$_desc"
  else t_fail "$_desc (exit $_got, expected $_want and /$_pat/)" "$T/err"; fi
}

# t_match DESC PATTERN FILE: FILE matches the extended regular expression.
t_match() {
  if grep -Eq -- "$2" "$3"; then t_ok "$1"; else t_fail "$1 (no /$2/)" "$3"; fi
}

# json_num KEY FILE: the number after "KEY": in a JSON file (first match).
json_num() {
  sed -n "s/^ *\"$1\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$2" | head -n 1
}

# The counting style, for scripts that print their plan at the end:
# ok DESC / notok DESC, check DESC SHELL-EXPRESSION, expect_fail NAME
# STATUS NEEDLE CMD... (exit status, NEEDLE on stderr, nothing on stdout;
# expect_fail_fixed: NEEDLE a fixed phrase, not a regular expression),
# and t_done to print the plan and exit with the result.
ok() { t_ok "$1"; }
notok() { _n=$((_n + 1)); _failed=1; echo "not ok $_n - $1"; }
# check DESC SHELL-EXPRESSION: the expression is eval'ed (quote it);
# stderr of the last command run ($T/err) is shown on failure.
check() { if eval "$2"; then t_ok "$1"; else t_fail "$1" "$T/err"; fi; }
# check_cmd DESC CMD...: the same with a command and its arguments, run
# as given (no eval): `check_cmd "no file" test ! -e "$T/x"`.
check_cmd() { _d=$1; shift; if "$@"; then t_ok "$_d"; else t_fail "$_d" "$T/err"; fi; }
expect_fail() {
  _name=$1 _want=$2 _needle=$3
  shift 3
  _rc=0
  "$@" >"$T/out" 2>"$T/err" || _rc=$?
  if [ "$_rc" -eq "$_want" ] && grep -q${_fixed:-} -- "$_needle" "$T/err" && [ ! -s "$T/out" ]; then
    ok "$_name"
  else
    notok "$_name (status $_rc, stderr: $(head -c 300 "$T/err"))"
  fi
}
expect_fail_fixed() { _fixed=F; expect_fail "$@"; _fixed=; }
t_done() { echo "1..$_n"; exit "$_failed"; }

# t_close DESC A B TOL: |A - B| <= TOL (awk arithmetic).
t_close() {
  if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
  then t_ok "$1"; else t_fail "$1 ($2 vs $3, tolerance $4)"; fi
}

# The run style: run CMD... (stdout in $T/out, stderr in $T/err, exit
# status in $rc), then status_is N DESC and err_has TEXT DESC (a fixed
# phrase on stderr) on that run.
run() { rc=0; "$@" >"$T/out" 2>"$T/err" || rc=$?; }
status_is() {
  if [ "$rc" -eq "$1" ]; then t_ok "$2"
  else echo "# exit status $rc, expected $1"; t_fail "$2" "$T/err"; fi
}
err_has() {
  if grep -qF -- "$1" "$T/err"; then t_ok "$2"
  else echo "# stderr lacks: $1"; t_fail "$2" "$T/err"; fi
}
