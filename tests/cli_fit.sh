#!/bin/sh
# cli_fit.sh: `bbsize fit darshan` on the real NAMD log (hand-worked
# figures), its warnings, that its output is a valid workload, bad input.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
echo 1..20
LOG=$SRCDIR/data/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt

run "$BBSIZE" fit darshan "$LOG"
status_is 0 "fit darshan on the NAMD log exits 0"
cp "$T/out" "$T/namd.csv"
# Worked by hand from the log's counters (rank 0 owns every unshared file):
# POSIX read 0.068034 s + write 4.261469 s + meta 0.475938 s, STDIO read
# 6.958372 s + meta 0.000568 s, plus the shared <STDOUT> slowest-rank time
# 0.111361 s: I/O time 11.875742 s over a run time of 1572 s, p = 0.0075546;
# bytes 3217 + 6451002544 + 212633752 + 203059 = 6663842572, so
# bw = 6663842572 / 11.875742 = 561.13 MB/s.
check_cmd "the row is name, p and bw worked by hand" grep -q '^namd2-2135028,0.00755454,561.131MB/s$' "$T/namd.csv"
check_cmd "the comment gives the slowest-rank I/O time" grep -q 'slowest-rank I/O time 11.8757 s' "$T/namd.csv"
check_cmd "the comment lists the byte counters used" \
  grep -q 'POSIX_BYTES_WRITTEN 6451002544, STDIO_BYTES_READ 212633752' "$T/namd.csv"
check_cmd "no warning on a clean log" test "$(grep -c warning "$T/namd.csv")" -eq 0

# An independent computation of the recipe with awk over the raw records.
awk -F'\t' '/^# run time:/ { split($0, a, ": "); rt = a[2] }
  $1 == "POSIX" || $1 == "STDIO" {
    if ($4 ~ /_BYTES_(READ|WRITTEN)$/) bytes += $5
    if ($2 >= 0 && $4 ~ /_F_(READ|WRITE|META)_TIME$/) own[$2] += $5
    if ($2 == -1 && $4 ~ /_F_SLOWEST_RANK_TIME$/) shared += $5 }
  END { m = 0; for (r in own) if (own[r] > m) m = own[r]; t = m + shared
        printf "%.6g,%.6gMB/s\n", t / rt, bytes / t / 1e6 }' "$LOG" > "$T/awk"
check_cmd "the row matches an awk implementation of the recipe" grep -qF "$(cat "$T/awk")" "$T/namd.csv"

run "$BBSIZE" dist --pfs-bw 1GB/s "$T/namd.csv"
status_is 0 "bbsize dist accepts the fitted workload"
check_cmd "dist reads one application from it" grep -q ': 1 applications' "$T/out"

# Weak estimates are flagged.
sed 's/\(BYTES_WRITTEN\t\)[0-9]*/\10/' "$LOG" > "$T/nowrite.txt"
run "$BBSIZE" fit darshan "$T/nowrite.txt"
check_cmd "no write activity is warned about" grep -q '# *warning: no write activity' "$T/out"
{ cat "$LOG"; printf 'MPI-IO\t0\t1\tMPIIO_BYTES_WRITTEN\t4096\t/x\t/\tlustre\n'; } > "$T/mpiio.txt"
run "$BBSIZE" fit darshan "$T/mpiio.txt"
check_cmd "MPI-IO with POSIX is warned about" grep -q '# *warning: MPI-IO and POSIX both present' "$T/out"
sed 's/\(STDIO_F_READ_TIME\t\)6.694936/\1-1/' "$LOG" > "$T/unmon.txt"
run "$BBSIZE" fit darshan "$T/unmon.txt"
check_cmd "unmonitored counters are named" grep -q '# *warning: counters not monitored (-1), left out: STDIO_F_READ_TIME' "$T/out"

# Two logs give two rows with distinct names; -o writes the file.
run "$BBSIZE" fit darshan "$LOG" "$LOG" -o "$T/two.csv"
status_is 0 "fit darshan -o FILE exits 0"
check_cmd "two logs give two distinct rows" \
  test "$(grep -v '^#' "$T/two.csv" | sed 1d | cut -d, -f1 | sort -u | wc -l)" -eq 2

# Bad input.
run "$BBSIZE" fit darshan "$T/missing.txt"
status_is 66 "a missing log exits 66"
printf 'POSIX\t0\t1\tPOSIX_BYTES_READ\t10\t/x\t/\tlustre\n' > "$T/norun.txt"
run "$BBSIZE" fit darshan "$T/norun.txt"
status_is 65 "a log without a run time exits 65"
err_has "no '# run time:' header" "the message says the run time is missing"
{ echo '# run time: 10'; printf 'POSIX\t0\t1\tPOSIX_BYTES_READ\tlots\t/x\t/\tlustre\n'; } > "$T/nan.txt"
run "$BBSIZE" fit darshan "$T/nan.txt"
status_is 65 "a non-numeric counter exits 65"
err_has "nan.txt:2: field 'value' of POSIX_BYTES_READ: 'lots' is not a number" "a bad counter value names file and line"
run "$BBSIZE" fit strace "$LOG"
status_is 64 "an unknown source exits 64"
run "$BBSIZE" fit darshan "$LOG" -o "$T/no/such/dir/w.csv"
status_is 73 "an output in a missing directory exits 73"
