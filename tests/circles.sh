#!/bin/sh
# tests/circles.sh: no circle of files that call each other.  From the
# symbol tables of the built libraries and of the command's own objects
# (src/, listed in tests/srcobjs by make check; nm, as tests/layers.sh):
# object A uses object B when A needs a symbol B defines, in its own
# library or another; every strongly connected component of that graph
# with two or more objects is a circle (tests/circles.awk).  The one
# circle allowed is the scenario executor's state machine behind its
# private header (sim/workload/exec_int.h): its event handlers schedule
# each other.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
B=${BBSIZE_TOP_BUILDDIR:-$(pwd)}
LIBS="base/libbbbase.a analytic/libbbanalytic.a sim/libbbsim.a sim/network/libbbsnet.a sim/storage/libbbsstor.a
sim/workload/libbbswl.a src/formats/libbbformats.a"
EXEC="libbbswl:exec libbbswl:exec_io libbbswl:exec_match libbbswl:exec_net"
t_plan 10

if ! command -v nm >/dev/null 2>&1; then
  for l in $LIBS; do t_skip "$l: no circle" "no nm"; done
  t_skip "src/: no circle among the command's objects" "no nm"
  t_skip "no circle across libraries" "no nm"
  t_skip "the check sees a circle" "no nm"
  exit 0
fi
# the command's objects as members of one archive, "bbsize:OBJ" (OBJ its
# path under src/, as report/doc)
srcnm() {
  while read -r o; do
    nm -A "$B/$o" 2>/dev/null | sed "s|^[^:]*:|src/bbsize.a:${o#src/}:|"
  done <"$B/tests/srcobjs"
}
{ for l in $LIBS; do
    nm -A "$B/$l" 2>/dev/null
  done
  [ -s "$B/tests/srcobjs" ] && srcnm
} | awk -f "$SRCDIR/tests/circles.awk" >"$T/circles"
echo "# circles found:"
sed 's/^/#   /' "$T/circles"

for l in $LIBS; do
  lib=$(basename "$l" .a)
  # components whose members are all of this library
  awk -v lib="$lib" '{ for (i = 1; i <= NF; i++) if (index($i, lib ":") != 1) next; print }' \
    "$T/circles" >"$T/in"
  grep -vxF -e "$EXEC" "$T/in" >"$T/bad" || true
  if [ -s "$T/bad" ]; then t_fail "$l: no circle (but the executor's)" "$T/bad"
  else t_ok "$l: no circle (but the executor's)"; fi
done
if [ ! -s "$B/tests/srcobjs" ]; then
  t_skip "src/: no circle among the command's objects" "no tests/srcobjs (make check builds it)"
else
  awk '{ for (i = 1; i <= NF; i++) if (index($i, "bbsize:") != 1) next; print }' \
    "$T/circles" >"$T/bad"
  if [ -s "$T/bad" ]; then t_fail "src/: no circle among the command's objects" "$T/bad"
  else t_ok "src/: no circle among the command's objects"; fi
fi
# components spanning libraries (src/ included): a layer that calls back up
awk '{ split($1, a, ":"); for (i = 2; i <= NF; i++) { split($i, b, ":"); if (b[1] != a[1]) { print; next } } }' \
  "$T/circles" >"$T/across"
if [ -s "$T/across" ]; then t_fail "no circle across libraries" "$T/across"
else t_ok "no circle across libraries"; fi

# The check itself: two objects that need each other's symbol are found.
cat >"$T/fake" <<'EOF'
x/libfake.a:one.o:0000000000000000 T f_one
x/libfake.a:one.o:                 U f_two
x/libfake.a:two.o:0000000000000000 T f_two
x/libfake.a:two.o:                 U f_one
x/libfake.a:three.o:               U f_one
EOF
if [ "$(awk -f "$SRCDIR/tests/circles.awk" "$T/fake")" = "libfake:one libfake:two" ]; then
  t_ok "the check sees a circle"
else
  t_fail "the check sees a circle" "$T/fake"
fi
