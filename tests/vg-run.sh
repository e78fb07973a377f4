#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vg-run.sh: the LOG_COMPILER of `make check-valgrind`.  A C test program
# runs under valgrind; a CLI script runs as usual with $BBSIZE pointing to
# tests/vg-bbsize.sh, which runs every bbsize it starts under valgrind and
# logs there; any error in those logs makes the script fail (exit 99),
# whatever the script itself checked.
here=$(cd "$(dirname "$0")" && pwd)
VG_OPTS="-q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
  --suppressions=$here/valgrind.supp"
case $1 in
  *.sh)
    VG_LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-vg.XXXXXX")
    BBSIZE_VG_REAL=${BBSIZE:?}
    BBSIZE=$here/vg-bbsize.sh
    # by absolute name: some tests run bbsize with PATH=/nonexistent
    VG_BIN=$(command -v valgrind)
    export VG_LOGDIR BBSIZE_VG_REAL BBSIZE VG_BIN
    rc=0
    "$@" || rc=$?
    bad=0
    for f in "$VG_LOGDIR"/vg.*.log; do
      [ -s "$f" ] || continue
      bad=1
      echo "# valgrind: $f"
      sed 's/^/# /' "$f"
    done
    rm -rf "$VG_LOGDIR"
    [ "$bad" -eq 0 ] || exit 99
    exit "$rc"
    ;;
  *)
    # shellcheck disable=SC2086
    exec valgrind $VG_OPTS "$@"
    ;;
esac
