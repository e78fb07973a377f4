#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# zz_devices.sh: runs after every other test (tests/local.mk makes its log
# depend on theirs) and checks that the suite, run as root in CI, left the
# machine's device nodes what they were: /dev/null once became a regular
# file when an example wrote --failures /dev/null through a rename.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
for d in /dev/null /dev/zero /dev/full; do
  check "$d is still a character device after the suite" "[ -c $d ] && [ ! -L $d ]"
done
t_done
