#!/bin/sh
# storage.sh: requests simulated per second by each storage-device model
# (512 MiB of random 4 KiB requests = 131,072 requests, and the sequential
# 512 KiB run), through `bbsize device`; prints figures, no pass/fail.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
BBSIZE=${BBSIZE:-src/bbsize}
now() { date +%s.%N; }
printf '%-24s %-10s %10s %12s %14s\n' preset pattern requests wall_s requests/s
for preset in intel-d3-s4510 seagate-st2000nx0253 mfnetsim-bb; do
  for pat in randread randwrite seqread; do
    bs=4KiB; n=131072
    [ "$pat" = seqread ] && { bs=512KiB; n=1024; }
    best=
    for rep in 1 2 3; do   # best of 3 (a shared machine)
      t0=$(now)
      "$BBSIZE" device --preset "$preset" --pattern "$pat" --bs "$bs" --size 512MiB >/dev/null
      t1=$(now)
      w=$(echo "$t1 $t0" | awk '{ printf "%.4f", $1 - $2 }')
      if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$w; fi
    done
    printf '%-24s %-10s %10d %12s %14.0f\n' "$preset" "$pat" "$n" "$best" \
      "$(echo "$n $best" | awk '{ print $1 / $2 }')"
  done
done
