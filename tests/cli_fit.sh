#!/bin/sh
# cli_fit.sh: `bbsize fit darshan`: the real NAMD logs (counters worked by
# hand and by awk; DXT against the counters of the same run), synthetic
# DXT and heatmap logs of known ON/OFF processes (tests/gen_darshan.c),
# many logs pooled into classes, names and paths that need quoting or
# escaping, and bad input.  Every workload it writes is read back by
# `bbsize dist`.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
GEN=${BBSIZE_TOP_BUILDDIR:-.}/tests/gen_darshan
LOG=$SRCDIR/data/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt
DXT=$SRCDIR/data/darshan/bbthemis-namd2-tacc-32p.dxt-parser.txt

# reads_back FILE DESC: bbsize reads the workload fit wrote (a time unit
# of 1 ms: shorter than every burst here).
reads_back() {
  if "$BBSIZE" dist --pfs-bw 1GB/s --time-unit 1ms "$1" >"$T/rb.out" 2>"$T/rb.err"; then ok "$2"
  else notok "$2"; sed 's/^/# /' "$T/rb.err"; fi
}
# field NAME FILE: the value after "NAME " in a truth file of gen_darshan.
field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
# row_col N FILE: column N of the workload's one data row.
row_col() { grep -v '^#' "$2" | sed 1d | head -n 1 | cut -d, -f"$1" | sed 's/[A-Za-z/]*$//'; }
# close_rel DESC A B TOL: |A - B| <= TOL |B|.
close_rel() {
  if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
       exit !(a != "" && b != "" && d <= t * m) }'
  then ok "$1"; else notok "$1 ($2 vs $3, relative tolerance $4)"; fi
}

# ---- the NAMD counters ----------------------------------------------------
run "$BBSIZE" fit darshan "$LOG"
status_is 0 "fit darshan on the NAMD counters exits 0"
cp "$T/out" "$T/namd.csv"
# Worked by hand from the log's counters (rank 0 owns every unshared file):
# POSIX read 0.068034 s + write 4.261469 s + meta 0.475938 s, STDIO read
# 6.958372 s + meta 0.000568 s, plus the shared <STDOUT> slowest-rank time
# 0.111361 s: I/O time 11.875742 s over a run time of 1572 s, p = 0.0075546;
# bytes 3217 + 6451002544 + 212633752 + 203059 = 6663842572, so
# bw = 6663842572 / 11.875742 = 561.13 MB/s.
check_cmd "the row is the class of namd2 on 32 processes, p and bw worked by hand" \
  grep -q '^namd2-32p,0.00755454,561.131MB/s,1$' "$T/namd.csv"
check_cmd "the class comment gives the I/O time over the run time" \
  grep -q '# *p 0.00755454 = 11.8757 s in I/O / 1572 s of run time' "$T/namd.csv"
check "no warning on a clean log" '[ "$(grep -c warning "$T/namd.csv")" -eq 0 ]'
check_cmd "counters alone give no burst column" grep -q '^name,p,bw,count$' "$T/namd.csv"
err_has "no burst length estimated" "and say so on stderr"
awk -F'\t' '/^# run time:/ { split($0, a, ": "); rt = a[2] }
  $1 == "POSIX" || $1 == "STDIO" {
    if ($4 ~ /_BYTES_(READ|WRITTEN)$/) bytes += $5
    if ($2 >= 0 && $4 ~ /_F_(READ|WRITE|META)_TIME$/) own[$2] += $5
    if ($2 == -1 && $4 ~ /_F_SLOWEST_RANK_TIME$/) shared += $5 }
  END { m = 0; for (r in own) if (own[r] > m) m = own[r]; t = m + shared
        printf "%.6g,%.6gMB/s\n", t / rt, bytes / t / 1e6 }' "$LOG" >"$T/awk"
check_cmd "the row matches an awk implementation of the recipe" grep -qF "$(cat "$T/awk")" "$T/namd.csv"
reads_back "$T/namd.csv" "bbsize reads the counters' workload back"

# ---- the NAMD trace (DXT) against the NAMD counters --------------------------
# DXT times every POSIX read and write: with --gap 0 (no gap merged) its
# busy time and bytes are the counters' POSIX read + write time and bytes.
# Tolerance 1%: DXT prints times to 0.1 ms, so each of the 2,238 transfers'
# durations is off by less than 0.1 ms (0.22 s at worst, about 0.002 s
# expected as the errors cancel, against 4.33 s).  The counters' full
# recipe is far from this (p 0.00755): it adds what DXT_POSIX does not
# trace, the STDIO reads (6.96 s, 213 MB), the metadata time (0.48 s) and
# the shared-file time (0.11 s); the default gap then adds the gaps inside
# the phases (0.83 s), which is why p_DXT = 0.00328 lies between.
awk -F'\t' '/^# run time:/ { split($0, a, ": "); rt = a[2] }
  $1 == "POSIX" && $4 ~ /_F_(READ|WRITE)_TIME$/ { t += $5 }
  $1 == "POSIX" && $4 ~ /_BYTES_(READ|WRITTEN)$/ { b += $5 }
  END { printf "%.9g %.9g\n", t / rt, b / t }' "$LOG" >"$T/posix"
run "$BBSIZE" fit darshan --gap 0 "$DXT" -o "$T/dxt0.csv"
status_is 0 "fit darshan --gap 0 on the NAMD trace exits 0"
close_rel "DXT p with no gap merged = the counters' POSIX time / run time (1%)" \
  "$(row_col 2 "$T/dxt0.csv")" "$(cut -d' ' -f1 "$T/posix")" 0.01
close_rel "DXT bw with no gap merged = the counters' POSIX bytes / time (1%)" \
  "$(awk -v x="$(row_col 3 "$T/dxt0.csv")" 'BEGIN { print x * 1e6 }')" "$(cut -d' ' -f2 "$T/posix")" 0.01
run "$BBSIZE" fit darshan "$DXT" -o "$T/dxt.csv"
status_is 0 "fit darshan on the NAMD trace exits 0"
# The restart files are written every ~15.4 s (shared/data/README.md):
# 101 phases (the input read at 0.05 s and 100 outputs), periodic.
check_cmd "the trace gives 101 phases" grep -q '101 phases of' "$T/dxt.csv"
per=$(sed -n 's/.*, period \([0-9.]*\) s (autocorrelation.*/\1/p' "$T/dxt.csv")
close_rel "and a period of 15.4 s (1%)" "$per" 15.4 0.01
check_cmd "the trace gives a burst column" grep -q '^name,p,bw,burst,count$' "$T/dxt.csv"
reads_back "$T/dxt.csv" "bbsize reads the trace's workload back"
run "$BBSIZE" fit darshan "$LOG" "$DXT" -o "$T/both.csv"
err_has "is the same job as" "the counters and the trace of one run are one job"
check_cmd "counted once, from the trace" grep -q '^namd2-32p,0.00327761,' "$T/both.csv"
check_cmd "and the counters' log is named as left out" \
  grep -q '^# left out, the same job as .*dxt-parser.txt: .*darshan-parser.txt$' "$T/both.csv"
# Why the two fits of one run differ (bbsize-fit(1), DXT AND COUNTERS): the
# counters' I/O time is the trace's busy time (the POSIX transfers) plus
# what DXT does not trace, the STDIO time, the metadata time and the shared
# file's; their bytes are the trace's plus STDIO's.  So the mean loads
# agree but for the STDIO bytes, and the counters spread them thinner.
awk -F'\t' '$1 == "STDIO" && $4 ~ /_BYTES_(READ|WRITTEN)$/ { b += $5 }
  $1 == "STDIO" && $2 >= 0 && $4 ~ /_F_(READ|WRITE|META)_TIME$/ { t += $5 }
  $1 == "POSIX" && $2 >= 0 && $4 ~ /_F_META_TIME$/ { t += $5 }
  $2 == -1 && $4 ~ /_F_SLOWEST_RANK_TIME$/ { t += $5 }
  END { printf "%.9g %.9g\n", b, t }' "$LOG" >"$T/untraced"
busy=$(sed -n 's/.* busy \([0-9.]*\) s,.*/\1/p' "$T/dxt.csv")
# (0.5%: the busy time is the union of the transfers, printed to 4 digits,
# 4.322 s against the counters' 4.3295 s of POSIX transfer time: 0.1% of
# the 7.55 s difference)
close_rel "counters' I/O time = the trace's busy time + STDIO, metadata and shared time (0.5%)" \
  "$(awk -v p="$(row_col 2 "$T/namd.csv")" -v b="$busy" 'BEGIN { print p * 1572 - b }')" \
  "$(cut -d' ' -f2 "$T/untraced")" 0.005
close_rel "the mean loads differ by the STDIO bytes the trace does not see (0.1%)" \
  "$(awk -v pc="$(row_col 2 "$T/namd.csv")" -v bc="$(row_col 3 "$T/namd.csv")" \
         -v pd="$(row_col 2 "$T/dxt.csv")" -v bd="$(row_col 3 "$T/dxt.csv")" \
         'BEGIN { print (pc * bc - pd * bd) * 1e6 * 1572 }')" "$(cut -d' ' -f1 "$T/untraced")" 0.001

# ---- synthetic logs of known processes ---------------------------------------
# Periodic DXT: 4 ranks, 3 files, 4 transfers per rank and phase 2 ms apart,
# a 30 s phase every 300 s (start jitter +-5 s) over an hour.  p, bw and
# burst to 0.1% (times printed to 0.1 ms against phases of 30 s); the
# period to 2% (32 signal bins per cycle, refined by a parabola; FTIO
# reports a mean error under 11%).
"$GEN" --format dxt --seed 3 --run 3600 --period 300 --burst 30 --jitter 5 --lustre \
  --truth "$T/t1" -o "$T/g1.txt"
run "$BBSIZE" fit darshan "$T/g1.txt" -o "$T/g1.csv"
status_is 0 "fit darshan on a periodic DXT log exits 0"
close_rel "periodic DXT: p recovered (0.1%)" "$(row_col 2 "$T/g1.csv")" "$(field p "$T/t1")" 0.001
close_rel "periodic DXT: bw recovered (0.1%)" \
  "$(awk -v x="$(row_col 3 "$T/g1.csv")" 'BEGIN { print x * 1e6 }')" "$(field bw "$T/t1")" 0.001
close_rel "periodic DXT: burst recovered (0.1%)" "$(row_col 4 "$T/g1.csv")" "$(field burst "$T/t1")" 0.001
per=$(sed -n 's/.*, period \([0-9.]*\) s (autocorrelation.*/\1/p' "$T/g1.csv")
close_rel "periodic DXT: period recovered (2%)" "$per" "$(field period "$T/t1")" 0.02
check_cmd "periodic DXT: the regular phases are flagged (CV far from 1)" \
  grep -q 'far from the exponential' "$T/g1.csv"
reads_back "$T/g1.csv" "bbsize reads the periodic DXT workload back"

# Markov DXT: exponential ON (mean 30 s) and OFF (mean 270 s) times.
# p, bw, burst to 0.1%; not periodic; phase-length CV near 1 (24 phases:
# within 0.6 to 1.4, about two standard errors).
"$GEN" --format dxt --markov --seed 1 --run 7200 --burst 30 --off 270 --truth "$T/t2" -o "$T/g2.txt"
run "$BBSIZE" fit darshan "$T/g2.txt" -o "$T/g2.csv"
status_is 0 "fit darshan on a Markov DXT log exits 0"
close_rel "Markov DXT: p recovered (0.1%)" "$(row_col 2 "$T/g2.csv")" "$(field p "$T/t2")" 0.001
close_rel "Markov DXT: burst recovered (0.1%)" "$(row_col 4 "$T/g2.csv")" "$(field burst "$T/t2")" 0.001
check "Markov DXT: not periodic" '! grep -q "period:" "$T/g2.csv"'
cv=$(sed -n 's/.*phase-length CV \([0-9.]*\).*/\1/p' "$T/g2.csv")
check "Markov DXT: phase-length CV near 1 ($cv)" 'awk -v c="$cv" "BEGIN { exit !(c > 0.6 && c < 1.4) }"'

# Periodic heatmap (with counters): a 60 s phase every 600 s over 2 h;
# bins of 51.2 s (200 at most).  p is the counters' (the slowest rank's
# transfer time / run time) to 0.1%; every phase resolved, so burst = that
# time / phases to 0.1%; period to 2% (bins 8.5% of it, refined).
"$GEN" --format heatmap --seed 3 --run 7200 --period 600 --burst 60 --jitter 20 --truth "$T/t3" -o "$T/g3.txt"
run "$BBSIZE" fit darshan "$T/g3.txt" -o "$T/g3.csv"
status_is 0 "fit darshan on a periodic heatmap log exits 0"
close_rel "heatmap: p from the counters (0.1%)" "$(row_col 2 "$T/g3.csv")" \
  "$(awk -v s="$(field slowest "$T/t3")" 'BEGIN { print s / 7200 }')" 0.001
close_rel "heatmap: burst = I/O time / phases resolved (0.1%)" "$(row_col 4 "$T/g3.csv")" \
  "$(awk -v s="$(field slowest "$T/t3")" -v n="$(field phases "$T/t3")" 'BEGIN { print s / n }')" 0.001
per=$(sed -n 's/.*, period \([0-9.]*\) s (autocorrelation.*/\1/p' "$T/g3.csv")
close_rel "heatmap: period recovered (2%)" "$per" 600 0.02
check_cmd "heatmap: the bin width is named" grep -q 'heatmap bins of up to 51.2 s' "$T/g3.csv"
reads_back "$T/g3.csv" "bbsize reads the heatmap workload back"

# Markov heatmap: phases closer than a bin merge, so the phase count is a
# lower bound and the burst an upper bound (fitjob.h).
"$GEN" --format heatmap --markov --seed 2 --run 7200 --burst 60 --off 540 --truth "$T/t4" -o "$T/g4.txt"
run "$BBSIZE" fit darshan "$T/g4.txt" -o "$T/g4.csv"
n4=$(sed -n 's/.* \([0-9]*\) phases of.*/\1/p' "$T/g4.csv" | head -n 1)
check "Markov heatmap: phases resolved <= phases ($n4 <= $(field phases "$T/t4"))" \
  '[ "$n4" -le "$(field phases "$T/t4")" ]'
check "Markov heatmap: burst >= I/O time / phases" 'awk -v b="$(row_col 4 "$T/g4.csv")" \
  -v s="$(field slowest "$T/t4")" -v n="$(field phases "$T/t4")" "BEGIN { exit !(b >= s / n * 0.999) }"'

# ---- small logs worked by hand (also fuzz seeds, tests/fuzz/) ---------------
# Darshan 3.1's DXLT variant with Lustre OST columns: POSIX rank 0 writes
# [10, 11) and [11, 12) and reads [50, 50.5), rank 1 writes [10.5, 12.5),
# 1 MiB each; the MPI-IO rows (no offset column) are left out since POSIX
# rows exist.  Union [10, 12.5) and [50, 50.5): 3 s, 4194304 B; gaps 10
# (idle start), 37.5 and 49.5 (idle end) sit far above the resolution,
# so two phases: p = 3 / 100, bw = 4194304 / 3 = 1.3981 MB/s, burst 1.5 s.
run "$BBSIZE" fit darshan "$SRCDIR/tests/fuzz/dxt/dxlt-ost-mpiio.txt"
status_is 0 "a DXLT log exits 0"
check_cmd "DXLT with OST columns, MPI-IO rows left out: worked by hand" \
  grep -q '^ior-2p,0.03,1.3981MB/s,1.5s,1$' "$T/out"
# X_MPIIO rows without offsets, no POSIX: [2, 3) and [12, 13), 1 MB each,
# over 20 s: p 0.1, bw 1 MB/s, burst 1 s, and a note.
run "$BBSIZE" fit darshan "$SRCDIR/tests/fuzz/dxt/mpiio-only.txt"
check_cmd "X_MPIIO rows alone: worked by hand" grep -q '^app-1p,0.1,1MB/s,1s,1$' "$T/out"
check_cmd "with a note that MPI-IO times are used" grep -q 'MPI-IO rows only' "$T/out"
# Heatmaps of two widths and three APIs: POSIX rank 0 in 5 s bins (100 B
# in [5, 10) and [30, 35)), rank 1 in 10 s bins (100 B in [30, 40)), STDIO
# 50 B in [30, 40), MPI-IO 999 B in [10, 20) (left out: POSIX is there).
# On the coarsest 10 s bins: 100, 0, 0, 250: two phases (the 20 s gap is
# 2 bins, no band of a decade), counters 6 s of 40 and 300 B: p 0.15, bw
# 50 B/s, burst 6 / 2 = 3 s.
run "$BBSIZE" fit darshan "$SRCDIR/tests/fuzz/heatmap/widths-modules.txt"
check_cmd "heatmaps of nested widths and three APIs: worked by hand" \
  grep -q '^h-2p,0.15,5e-05MB/s,3s,1$' "$T/out"

# ---- many logs: classes --------------------------------------------------------
# alpha: three DXT logs (seeds 11-13) and one counters-only log, 4 ranks;
# beta: two DXT logs on 8 ranks.  alpha's pooled p is the sum of the time in
# phases over the sum of run times (all 3600 s: the mean of the four p),
# its burst the DXT logs' time in phases over their phases.
mkdir "$T/many"
for s in 11 12 13; do
  "$GEN" --format dxt --exe alpha --jobid "a$s" --seed $s --run 3600 --period 240 --burst 20 \
    --jitter 10 --truth "$T/many.t$s" -o "$T/many/alpha-$s.txt"
done
"$GEN" --format parser --exe alpha --jobid a14 --seed 14 --run 3600 --period 240 --burst 20 \
  --truth "$T/many.t14" -o "$T/many/alpha-14.txt"
for s in 21 22; do
  "$GEN" --format dxt --exe beta --jobid "b$s" --ranks 8 --seed $s --run 3600 --period 400 --burst 40 \
    -o "$T/many/beta-$s.txt"
done
: >"$T/many/.hidden"
run "$BBSIZE" fit darshan "$T/many" -o "$T/many.csv"
status_is 0 "fit darshan on a directory exits 0"
BBSIZE_PROGRESS_INTERVAL=0 run "$BBSIZE" fit darshan --progress "$T/many" -o "$T/many2.csv"
check "--progress: one line per log read, 1/6 to 6/6" \
  '[ "$(grep -o "^bbsize fit darshan: [0-9]*/6 logs" "$T/err" | sed "s/.*: //; s/ .*//" | paste -sd" ")" = "1/6 2/6 3/6 4/6 5/6 6/6" ]'
check "... and the same workload" 'cmp -s "$T/many.csv" "$T/many2.csv"'
check "two classes, two rows" '[ "$(grep -c "^alpha-4p,\|^beta-8p," "$T/many.csv")" -eq 2 ]'
check_cmd "alpha: 4 jobs, 3 DXT and 1 counters only" \
  grep -q '# class alpha-4p: 4 jobs (3 DXT, 1 counters only), 0 without I/O' "$T/many.csv"
p_want=$(for s in 11 12 13; do field p "$T/many.t$s"; done | awk -v s="$(field slowest "$T/many.t14")" \
  '{ t += $1 } END { print (t + s / 3600) / 4 }')
b_want=$(for s in 11 12 13; do echo "$(field p "$T/many.t$s") $(field phases "$T/many.t$s")"; done |
  awk '{ on += $1 * 3600; n += $2 } END { print on / n }')
# (the class comment's p: the row's is scaled by the concurrency over its
# count, cli_fit_site.sh)
close_rel "alpha: pooled p = sum of I/O times / sum of run times (0.1%)" \
  "$(awk '/^# class alpha-4p:/ { c = 1 } c && /^#   p / { print $3; exit }' "$T/many.csv")" "$p_want" 0.001
close_rel "alpha: pooled burst = DXT time in phases / phases (0.1%)" \
  "$(grep '^alpha-4p,' "$T/many.csv" | cut -d, -f4 | sed 's/s$//')" "$b_want" 0.001
reads_back "$T/many.csv" "bbsize reads the classes back"
run "$BBSIZE" fit darshan --group-by log "$T/many" -o "$T/perlog.csv"
check "--group-by log: one row per log" '[ "$(grep -v "^#" "$T/perlog.csv" | sed 1d | wc -l)" -eq 6 ]'
run "$BBSIZE" fit darshan --group-by exe "$T/many" "$T/many/alpha-11.txt" -o "$T/exe.csv"
err_has "is the same job as" "a log given twice is one job"
check_cmd "--group-by exe pools alpha's 4 jobs" grep -q '# class alpha: 4 jobs' "$T/exe.csv"

# ---- names and paths -------------------------------------------------------------
# An executable named with a comma and a quote is one quoted field; a path
# with a line break is escaped in the comments; both read back.
"$GEN" --format dxt --exe 'we,ird"exe' --seed 5 --run 3600 --period 300 --burst 30 -o "$T/odd
name.txt"
run "$BBSIZE" fit darshan "$T/odd
name.txt" -o "$T/odd.csv"
status_is 0 "fit darshan on a log named with a line break exits 0"
check_cmd "the name is quoted, its quote doubled" grep -q '^"we,ird""exe-4p",' "$T/odd.csv"
check_cmd "the line break of the path is escaped in the comment" grep -q 'odd\\x0aname.txt' "$T/odd.csv"
reads_back "$T/odd.csv" "bbsize reads the quoted name back"

# ---- bad input ---------------------------------------------------------------------
{ cat "$LOG"; printf 'POSIX\t0\t1\tPOSIX_BYTES_WRITTEN\t1e308\t/x\t/\tlustre\n'
  printf 'POSIX\t0\t2\tPOSIX_BYTES_WRITTEN\t1e308\t/y\t/\tlustre\n'; } >"$T/inf.txt"
run "$BBSIZE" fit darshan "$T/inf.txt" -o "$T/inf.csv"
status_is 65 "counters summing past the largest double are refused (not infMB/s)"
err_has "pass the largest double" "and the message says why"
check_cmd "no file is written" test ! -e "$T/inf.csv"
sed 's/\(_BYTES_[A-Z]*\t\)[0-9]*/\10/; s/\(_TIME\t\)[0-9.]*/\10/' "$LOG" >"$T/noio.txt"
run "$BBSIZE" fit darshan "$T/noio.txt" -o "$T/noio.csv"
status_is 65 "a workload that would carry nothing is refused"
err_has "no class carries I/O" "with the reason"
check_cmd "and no file is written" test ! -e "$T/noio.csv"
sed 's/^# exe: .*/# exe: idle/; s/^# jobid: .*/# jobid: 7/' "$T/noio.txt" >"$T/noio2.txt"
run "$BBSIZE" fit darshan "$T/noio2.txt" "$LOG" -o "$T/mixed.csv"
status_is 0 "a class without I/O beside one with I/O"
err_has "carries no I/O" "is named on stderr"
check_cmd "and in the file, without a row" grep -q 'no row: this class carries no I/O' "$T/mixed.csv"
check "one row" '[ "$(grep -v "^#" "$T/mixed.csv" | sed 1d | wc -l)" -eq 1 ]'
reads_back "$T/mixed.csv" "bbsize reads it back"
mkdir "$T/bad"
cp "$LOG" "$T/bad/a.txt"
echo 'not a log' >"$T/bad/b.txt"
run "$BBSIZE" fit darshan "$T/bad"
status_is 65 "a bad log in a directory stops the fit"
err_has "b.txt" "naming it"
run "$BBSIZE" fit darshan --skip-bad "$T/bad" -o "$T/skip.csv"
status_is 0 "--skip-bad leaves it out"
check_cmd "and lists it in the file" grep -q '# left out (--skip-bad): .*b.txt' "$T/skip.csv"
printf 'DARSHAN\0\0\1' >"$T/job.darshan"
run "$BBSIZE" fit darshan "$T/job.darshan"
status_is 65 "a binary Darshan log is refused"
err_has "darshan-parser --base" "with the command that converts it"
{ sed '$d' "$DXT"; printf ' X_POSIX       0  write       99               0            4      1567.0115'; } >"$T/cut.txt"
run "$BBSIZE" fit darshan "$T/cut.txt"
status_is 65 "a DXT log cut short is refused"
awk '/write_count: 200/ { f = 1 } f && /^ X_POSIX/ { f = 0; next } { print }' "$DXT" >"$T/short.txt"
run "$BBSIZE" fit darshan "$T/short.txt"
status_is 65 "a DXT block with fewer rows than announced is refused"
err_has "is the file complete?" "saying the file may be incomplete"
sed '0,/0.1198      0.1198/s//0.1198      0.1100/' "$DXT" >"$T/back.txt"
run "$BBSIZE" fit darshan "$T/back.txt"
status_is 65 "a transfer that ends before it starts is refused"
err_has "field 'End(s)'" "naming the field"
run "$BBSIZE" fit darshan "$T/missing.txt"
status_is 66 "a missing log exits 66"
mkdir "$T/empty"
run "$BBSIZE" fit darshan "$T/empty"
status_is 66 "an empty directory exits 66"
printf 'POSIX\t0\t1\tPOSIX_BYTES_READ\t10\t/x\t/\tlustre\n' >"$T/norun.txt"
run "$BBSIZE" fit darshan "$T/norun.txt"
status_is 65 "a log without a run time exits 65"
err_has "no '# run time:' header" "the message says the run time is missing"
{ echo '# run time: 10'; printf 'POSIX\t0\t1\tPOSIX_BYTES_READ\tlots\t/x\t/\tlustre\n'; } >"$T/nan.txt"
run "$BBSIZE" fit darshan "$T/nan.txt"
status_is 65 "a non-numeric counter exits 65"
err_has "nan.txt:2: field 'value' of POSIX_BYTES_READ: 'lots' is not a number" "a bad counter value names file and line"
run "$BBSIZE" fit darshan --max-memory 1KB "$LOG"
status_is 2 "a fit beyond --max-memory is refused before reading"
err_has "raise the memory bound (--max-memory)" "naming the bound and its option"
run "$BBSIZE" fit strace "$LOG"
status_is 64 "an unknown source exits 64"
run "$BBSIZE" fit darshan --group-by node "$LOG"
status_is 64 "an unknown --group-by key exits 64"
run "$BBSIZE" fit darshan --gap -1s "$LOG"
status_is 64 "a negative --gap exits 64"
run "$BBSIZE" fit darshan --min-acf 0 "$LOG"
status_is 64 "--min-acf 0 exits 64"
run "$BBSIZE" fit darshan "$LOG" -o "$T/no/such/dir/w.csv"
status_is 73 "an output in a missing directory exits 73"
t_done
