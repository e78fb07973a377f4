# SPDX-License-Identifier: GPL-3.0-or-later
# TAP tests: C programs (cmocka) and POSIX sh scripts sharing tests/setup.sh.
