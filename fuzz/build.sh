#!/bin/sh
# fuzz/build.sh SRCDIR OUTDIR "NAMES" SOURCE... -- CPPFLAGS...: compile
# SOURCE... (the libraries' .c files, relative to SRCDIR or to the build
# directory) with
# $FUZZ_CC and libFuzzer's instrumentation into OUTDIR/obj/libfuzz.a, then
# link each harness fuzz/fz_NAME.c into OUTDIR/bin/fz_NAME.  Objects older
# than their source or than config.h are rebuilt.  Called by `make fuzz`.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
srcdir=$1 out=$2 names=$3
shift 3
: "${FUZZ_CC:=clang}"
: "${LIBS:=}"
srcs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do srcs="$srcs $1"; shift; done
[ $# -gt 0 ] && shift    # the rest: preprocessor flags, one argument each
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-g -O1 -std=c11 $SAN"
if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
  echo "fuzz/build.sh: $FUZZ_CC not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
  exit 77
fi
mkdir -p "$out/obj" "$out/bin"
objs=""
for s in $srcs; do
  case $s in *.c) ;; *) continue ;; esac
  if [ -f "$srcdir/$s" ]; then src=$srcdir/$s; else src=$s; fi
  o=$out/obj/$(echo "$s" | tr '/' '_' | sed 's/\.c$/.o/')
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ config.h -nt "$o" ]; then
    echo "  FUZZCC   $s"
    # shellcheck disable=SC2086
    $FUZZ_CC $CFLAGS -fsanitize=fuzzer-no-link "$@" -c "$src" -o "$o"
  fi
  objs="$objs $o"
done
rm -f "$out/obj/libfuzz.a"
# shellcheck disable=SC2086
ar cr "$out/obj/libfuzz.a" $objs
for n in $names; do
  echo "  FUZZLD   $out/bin/fz_$n"
  # shellcheck disable=SC2086
  $FUZZ_CC $CFLAGS -fsanitize=fuzzer "$@" -I"$srcdir/fuzz" "$srcdir/fuzz/fz_$n.c" \
    "$out/obj/libfuzz.a" $LIBS -o "$out/bin/fz_$n"
done
