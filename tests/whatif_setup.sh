# whatif_setup.sh: shared prelude of the what-if CLI tests (sourced).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
# C locale: messages and number formats must not depend on the user's.
LC_ALL=C
export LC_ALL
: "${BBSIZE:?set BBSIZE to the bbsize binary}"
: "${BBSIZE_TOP_SRCDIR:?set BBSIZE_TOP_SRCDIR to the source tree}"
SRC=$BBSIZE_TOP_SRCDIR
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-test.XXXXXX")
tap_n=0
tap_fail=0
# Remove the scratch directory on success; keep it (and say where) on failure.
cleanup() {
  if [ "$tap_fail" -eq 0 ]; then rm -rf "$T"; else echo "# scratch files kept in $T"; fi
}
trap cleanup EXIT

pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
fail() {
  tap_n=$((tap_n + 1)); tap_fail=1; echo "not ok $tap_n - $1"
  [ -s "$T/err" ] && sed 's/^/# stderr: /' "$T/err" | head -5
  return 0
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }
# check DESC CMD...: one test, passing when CMD succeeds.
check() { d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
# run CMD...: stdout to $T/out, stderr to $T/err, exit status in $rc.
run() { rc=0; "$@" >"$T/out" 2>"$T/err" || rc=$?; }
# status_is N DESC: the last run exited with N.
status_is() { if [ "$rc" -eq "$1" ]; then pass "$2"; else echo "# exit status $rc, expected $1"; fail "$2"; fi; }
# err_has TEXT DESC: the last run's stderr contains TEXT.
err_has() { if grep -qF -- "$1" "$T/err"; then pass "$2"; else echo "# stderr lacks: $1"; fail "$2"; fi; }
