# whatif_setup.sh: the helpers of the what-if CLI tests (sourced), on top of
# the shared prelude tests/setup.sh (locale, $T, counters).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
: "${BBSIZE:?set BBSIZE to the bbsize binary}"
: "${BBSIZE_TOP_SRCDIR:?set BBSIZE_TOP_SRCDIR to the source tree}"
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
SRC=$SRCDIR

pass() { t_ok "$1"; }
fail() {
  notok "$1"
  [ -s "$T/err" ] && sed 's/^/# stderr: /' "$T/err" | head -5
  return 0
}
skip() { _n=$((_n + 1)); echo "ok $_n # SKIP $1"; }
# check DESC CMD...: one test, passing when CMD succeeds (overrides the
# shell-expression check of setup.sh for these scripts).
check() { d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
# run CMD...: stdout to $T/out, stderr to $T/err, exit status in $rc.
run() { rc=0; "$@" >"$T/out" 2>"$T/err" || rc=$?; }
# status_is N DESC: the last run exited with N.
status_is() { if [ "$rc" -eq "$1" ]; then pass "$2"; else echo "# exit status $rc, expected $1"; fail "$2"; fi; }
# err_has TEXT DESC: the last run's stderr contains TEXT.
err_has() { if grep -qF -- "$1" "$T/err"; then pass "$2"; else echo "# stderr lacks: $1"; fail "$2"; fi; }
