# SPDX-License-Identifier: GPL-3.0-or-later
# Round four, the last parts (issue 38): a heatmap that holds more bytes
# than its counters, bbarch's cost on many nodes, and what a last pass as
# a hostile user still found.  Sourced by tests/cli_hostile_corpus.sh.

R5_GEN=${BBSIZE_TOP_BUILDDIR:-.}/tests/gen_darshan

# 1. A heatmap bin of 1e300 bytes beside counters of 300 bytes was
# accepted: the counters gave p and bw, the bad bin the phases, and fit
# wrote a row with no word.  The bins spread the counted calls' bytes over
# time, so they hold at most what the counters count: past twice that the
# log is refused at the largest bin's line, by field, nothing written.
r5_heat() {   # r5_heat FILE BIN3: 300 counted bytes, bins 3 and 7 busy
  { printf '# exe: /a\n# jobid: 1\n# start_time: 1600000000\n# nprocs: 1\n# run time: 100\n'
    printf 'POSIX\t0\t1\tPOSIX_BYTES_WRITTEN\t300\t/s/f\t/s\tlustre\n'
    printf 'POSIX\t0\t1\tPOSIX_F_WRITE_TIME\t2\t/s/f\t/s\tlustre\n'
    printf 'HEATMAP\t0\t7\tHEATMAP_F_BIN_WIDTH_SECONDS\t0.8\theatmap:POSIX\tU\tU\n'
    for i in 0 1 2 3 4 5 6 7 8 9; do
      v=0; [ "$i" = 3 ] && v=$2; [ "$i" = 7 ] && v=150
      printf 'HEATMAP\t0\t7\tHEATMAP_WRITE_BIN_%d\t%s\theatmap:POSIX\tU\tU\n' "$i" "$v"
    done; } >"$1"
}
hnew
r5_heat big.txt 1e300
hcase "a heatmap bin of 1e300 B beside counters of 300 B: 65 at its line and field" 65 \
  "big\.txt:12: field 'HEATMAP_WRITE_BIN_3': the heatmap's bins hold 1e\+300 bytes, more than twice the 300 bytes" - \
  "$B" fit darshan big.txt -o w.csv
hnew
r5_heat ok.txt 150
hcase "... bins of the counters' 300 B fit (1 phase row)" 0 "1 log, 1 class, 1 row with a burst" "w.csv" \
  "$B" fit darshan ok.txt -o w.csv
hnew
r5_heat edge.txt 450
hcase "... 600 B in the bins, twice the counters: still read (the margin)" 0 "1 log, 1 class" "w.csv" \
  "$B" fit darshan edge.txt -o w.csv
hnew
r5_heat over.txt 451
hcase "... 601 B, past twice: refused" 65 "over\.txt:12: .*hold 601 bytes, more than twice the 300 bytes" - \
  "$B" fit darshan over.txt -o w.csv
hnew
"$R5_GEN" --format heatmap --seed 3 --run 100 --period 20 --burst 2 -o h.txt
sed 's/\(POSIX_BYTES_WRITTEN\t\)[0-9.]*/\1-1/' h.txt >unmon.txt
hcase "... unmonitored counters (-1) bound nothing: read, with its warning" 0 \
  "1 log, 1 class" "w.csv" "$B" fit darshan unmon.txt -o w.csv
