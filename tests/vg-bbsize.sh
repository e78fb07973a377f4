#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vg-bbsize.sh: bbsize under valgrind, for `make check-valgrind`
# (no external command but valgrind, by absolute name: some tests run
# bbsize with PATH=/nonexistent)
# (tests/vg-run.sh sets BBSIZE_VG_REAL and VG_LOGDIR).  Memory errors and
# definite leaks go to a log per process, which vg-run.sh inspects; the exit
# status is bbsize's own unless valgrind found an error (99).  Leaks are not
# checked here: bbsize exits through exit() on every refusal, leaving its
# allocations reachable, which is not a bug.
exec "${VG_BIN:?}" -q --error-exitcode=99 --leak-check=no --trace-children=no \
  --suppressions="${0%/*}/valgrind.supp" \
  --log-file="${VG_LOGDIR:?}/vg.%p.log" "${BBSIZE_VG_REAL:?}" "$@"
