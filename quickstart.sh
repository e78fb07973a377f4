#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# quickstart.sh: install what is missing (Debian), build, and run bbsize.
#   ./quickstart.sh          build and print the one-line sizing answer for
#                            the built-in default workload
#   ./quickstart.sh check    build and run the whole test suite (make check)
set -eu
cd "$(dirname "$0")"

# liblapack-dev and libopenblas-dev: the fluid model's dense linear algebra
# (OpenBLAS makes its factorisations 10-20 times faster than reference BLAS).
PKGS="build-essential autoconf automake pkg-config libgsl-dev libsuitesparse-dev libfftw3-dev
libcmocka-dev libjansson-dev libinih-dev gnuplot-nox libxml2-utils libopenmpi-dev openmpi-bin
liblapack-dev libopenblas-dev"
# What the tests need beyond the build: headless Chromium renders the report
# (tests/cli_report.sh); clang with its sanitizer and libFuzzer runtime
# builds the parser fuzzers (make fuzz, run briefly by .ci/run).
if [ "${1:-run}" = check ]; then
  PKGS="$PKGS chromium clang libclang-rt-14-dev"
fi

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "quickstart: installing:$missing" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

if [ ! -x configure ] || [ configure.ac -nt configure ]; then
  autoreconf -fi
fi
# The MPI back end is built in (bbsize-mpi(7)); a plain run never starts MPI.
if [ ! -f Makefile ] || [ configure -nt Makefile ] || ! grep -q '^#define HAVE_MPI 1' config.h 2>/dev/null; then
  ./configure --with-mpi
fi
make -j"$(nproc)"

case "${1:-run}" in
  check) make -j"$(nproc)" check ;;
  run) src/bbsize size ;;
  *) echo "usage: $0 [check]" >&2; exit 64 ;;
esac
