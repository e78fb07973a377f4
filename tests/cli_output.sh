#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Output files never destroy anything (bb_out in src/cli.c): a character
# device, a FIFO and a symbolic link given to -o stay what they were; a
# regular file is replaced atomically; "-" is standard output; a directory
# is refused.  Every special file is made here, in the scratch directory.
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e

# A character device node of our own (the null device's numbers), when root.
if [ "$(id -u)" -eq 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then
  t_run "-o onto a character device exits 0" 0 "$BBSIZE" generate -o "$T/null"
  check "the character device is still a character device" '[ -c "$T/null" ]'
else
  t_skip "-o onto a character device" "not root, or mknod refused"
  t_skip "the character device is still a character device" "not root"
fi

# A FIFO: the bytes go through it, the FIFO stays.
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/from-fifo" &
reader=$!
t_run "-o onto a FIFO exits 0" 0 "$BBSIZE" generate -o "$T/fifo"
wait "$reader"
check "the FIFO is still a FIFO" '[ -p "$T/fifo" ]'
"$BBSIZE" generate >"$T/direct"
check "what went through the FIFO is the workload" 'cmp -s "$T/from-fifo" "$T/direct"'

# A symbolic link: followed, its target replaced, the link kept.
echo old >"$T/target"
chmod 0640 "$T/target"
ln -s target "$T/link"
t_run "-o onto a symbolic link exits 0" 0 "$BBSIZE" generate -o "$T/link"
check "the link is still a link to the same name" '[ -L "$T/link" ] && [ "$(readlink "$T/link")" = target ]'
check "the target holds the new workload" 'cmp -s "$T/target" "$T/direct"'
check "the target keeps its mode" '[ "$(stat -c %a "$T/target")" = 640 ]'

# A dangling link creates its target.
ln -s made-here "$T/dangling"
t_run "-o onto a dangling link exits 0" 0 "$BBSIZE" generate -o "$T/dangling"
check "the dangling link's target was created, the link kept" '[ -L "$T/dangling" ] && cmp -s "$T/made-here" "$T/direct"'

# "-" is standard output.
t_run "-o - exits 0" 0 "$BBSIZE" generate -o -
check "-o - writes standard output" 'cmp -s "$T/out" "$T/direct"'
check "-o - makes no file named -" '[ ! -e ./- ]'

# A directory is refused, untouched; no temporary is left anywhere.
mkdir "$T/dir"
t_err "-o onto a directory is refused (73)" 73 "is a directory" "$BBSIZE" generate -o "$T/dir"
check "no temporary left behind" '[ -z "$(find "$T" -name "*.tmp.*")" ]'
t_done
