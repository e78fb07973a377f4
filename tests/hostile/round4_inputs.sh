# SPDX-License-Identifier: GPL-3.0-or-later
# Class: inputs destroyed, silent acceptance and files bbsize then refuses,
# messages and statuses (issue 38, classes 4 to 6).
# Sourced by tests/cli_hostile_corpus.sh.

R4_GEN=${BBSIZE_TOP_BUILDDIR:-.}/tests/gen_darshan
R4_LOG=$SRC/data/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt
R4_DXT=$SRC/data/darshan/bbthemis-namd2-tacc-32p.dxt-parser.txt
r4_wl() { printf '#@ pfs-bw = 100GB/s\nname,p,bw\na,0.1,30GB/s\nb,0.2,40GB/s\n' >"$1"; }
# r4_intact DESC FILE COPY: FILE is still COPY, byte for byte.
r4_intact() { check "$1" "cmp -s '$2' '$3'"; }

# ---- 4: an output never names an input ------------------------------------
hnew
cp "$R4_LOG" log.txt; cp log.txt "$T/r4.log"
hcase "fit darshan LOG -o LOG: refused before any work (replaced the log, status 0)" 64 \
  "option '-o': 'log\.txt' is an input of this run" - \
  "$B" fit darshan log.txt -o log.txt
r4_intact "... and the log is intact" log.txt "$T/r4.log"
hnew
r4_wl W.csv; cp W.csv "$T/r4.csv"
hcase "report W.csv -o W.csv: refused (replaced the workload, status 0)" 64 \
  "option '-o': 'W\.csv' is an input of this run" - \
  "$B" report W.csv -o W.csv
r4_intact "... and the workload is intact" W.csv "$T/r4.csv"
hnew
r4_wl W.csv; ln -s W.csv link.csv; cp W.csv "$T/r4.csv"
hcase "report W.csv -o LINK, a symbolic link to it: refused" 64 \
  "'link\.csv' is the same file as the input 'W\.csv'" - \
  "$B" report W.csv -o link.csv
r4_intact "... the workload intact" W.csv "$T/r4.csv"
check "... and the link still a link" '[ -L link.csv ]'
hnew
r4_wl W.csv; ln W.csv hard.csv; cp W.csv "$T/r4.csv"
hcase "report W.csv -o a hard link to it: refused (same device and inode)" 64 \
  "'hard\.csv' is the same file as the input 'W\.csv'" - \
  "$B" report W.csv -o hard.csv
r4_intact "... the workload intact" W.csv "$T/r4.csv"
hnew
mkdir logs; cp "$R4_LOG" logs/a.txt; cp "$R4_LOG" "$T/r4.log"
hcase "fit darshan DIR -o DIR/LOG, a log the walk reads: refused" 64 \
  "option '-o': 'logs/a\.txt' is an input of this run" - \
  "$B" fit darshan logs -o logs/a.txt
r4_intact "... the log intact" logs/a.txt "$T/r4.log"
check "... and nothing new in the directory" '[ "$(ls -A logs)" = a.txt ]'
hnew
hcase "generate -o '': refused up front (was 'rename failed' after the work)" 64 \
  "option '-o': '' is not a file name" - \
  "$B" generate -o ''
hnew
r4_wl W.csv
hcase "report -o '': refused up front, nothing written" 64 \
  "option '-o': '' is not a file name" - \
  "$B" report W.csv -o ''
hnew
hcase "two outputs naming one file (--iostat and --failures): refused" 64 \
  "option '--failures': 'x\.csv' is the same file as the output 'x\.csv'" - \
  "$B" bbarch --horizon 10 --iostat x.csv --failures x.csv
hnew
r4_wl W.csv
hcase "an output beside the input is written" 0 "^written$" "W.html" \
  sh -c '"$1" report W.csv -o W.html --points 3 --resolution 100 && echo written' sh "$B"

# ---- 5: nothing accepted silently, nothing written that is then refused ---
hnew
"$R4_GEN" --format heatmap --seed 3 --run 100 --period 20 --burst 2 -o h.txt
awk '{ print } /HEATMAP_WRITE_BIN_124\t/ { sub(/HEATMAP_WRITE_BIN_124\t0/, "HEATMAP_WRITE_BIN_65535\t1000000"); print }' \
  h.txt >late.txt
hcase "a heatmap bin past the run time: 65 at its line (stretched 100 s to 52,428 s)" 65 \
  "late\.txt:[0-9]+: heatmap bin 65535 \(width 0\.8 s\) starts at 52428 s, at or past the run time of the header \(100 s\)" - \
  "$B" fit darshan late.txt -o w.csv
hnew
awk '!done && /^ X_POSIX/ { $NF = "655360"; done = 1 } { print }' "$R4_DXT" >late.txt
hcase "a DXT transfer ending past the run time: 65 at its line" 65 \
  "late\.txt:[0-9]+: field 'End\(s\)': 655360 s is past the run time of the header \(1572 s\)" - \
  "$B" fit darshan late.txt -o w.csv
hnew
"$R4_GEN" --format heatmap --seed 3 --run 100 --period 20 --burst 2 -o h.txt
hcase "... the same heatmap within its run time fits" 0 "1 log, 1 class" "w.csv" \
  "$B" fit darshan h.txt -o w.csv
hnew
mkdir d; cp "$R4_LOG" d/a.txt; ln -s y d/x; ln -s x d/y
hcase "a symbolic link loop in a log directory: said on stderr, by name" 0 \
  "d/x: skipped: a symbolic link that cannot be followed" "w.csv" \
  "$B" fit darshan d -o w.csv
for g in "--load 1e-300" "--apps 100000" "--p-max 1e-300"; do
  hnew
  # shellcheck disable=SC2086
  hcase "generate $g: refused, no file (wrote one size refused)" 64 \
    "the workload generated would be refused when read \(w\.csv: .*\); no file written" - \
    "$B" generate $g -o w.csv
done
hnew
"$B" generate --apps 50 --load 0.5 --seed 7 -o w.csv 2>/dev/null
hcase "a workload generate writes, size reads" 0 "burst buffer" - "$B" size w.csv
hnew
"$R4_GEN" --format heatmap --seed 3 --run 100 --period 20 --burst 2 -o h.txt
sed 's/HEATMAP_F_BIN_WIDTH_SECONDS\t0\.800000/HEATMAP_F_BIN_WIDTH_SECONDS\t1e-300/' h.txt >tiny.txt
"$B" fit darshan tiny.txt -o w.csv 2>/dev/null
hcase "fit on a heatmap of 1e-300 s bins: size reads what it wrote" 0 "burst buffer" - \
  "$B" size w.csv --pfs-bw 1TB/s
hnew
hcase "--currency ESC[31m: refused (passed the escape to the terminal)" 64 \
  "option '--currency': a control character" - \
  "$B" design --pfs-bw 1TB/s --cost-tb 1 --currency "$(printf '\033[31m')"
hnew
hcase "... the message carries no ESC byte" 0 "^clean$" - \
  sh -c '"$1" design --pfs-bw 1TB/s --cost-tb 1 --currency "$(printf "\033[31m")" 2>&1 \
         | od -An -c | grep -q "033" && echo dirty || echo clean' sh "$B"
hnew
hcase "--currency of 16 UTF-8 characters (48 bytes): accepted" 0 "€€€€€€€€€€€€€€€€" - \
  "$B" design --pfs-bw 1TB/s --cost-tb 1 --currency "€€€€€€€€€€€€€€€€"
hnew
hcase "--currency of 17 characters: refused, counting characters" 64 \
  "option '--currency': longer than 16 characters" - \
  "$B" design --pfs-bw 1TB/s --cost-tb 1 --currency "€€€€€€€€€€€€€€€€€"
hnew
hcase "--currency that is not UTF-8: refused" 64 "option '--currency': not UTF-8" - \
  "$B" design --pfs-bw 1TB/s --cost-tb 1 --currency "$(printf '\377')"
hnew
hcase "--lifetime without --dwpd: usage error (was ignored)" 64 \
  "option '--lifetime' needs option '--dwpd'" - "$B" size --lifetime 3
hnew
hcase "--waf without --dwpd: usage error (was ignored)" 64 \
  "option '--waf' needs option '--dwpd'" - "$B" size --waf 2
hnew
hcase "--currency without a price: usage error (was ignored)" 64 \
  "option '--currency': it is printed before prices, and no price is given" - \
  "$B" design --pfs-bw 1TB/s --currency '$'

# ---- 6: messages that blame the right thing, statuses that mean it ------
hnew
hcase "--bb-bw 1B/s: a usage error naming the option (was 65, the workload's)" 64 \
  "option '--bb-bw': the burst-buffer bandwidth 1 B/s" - "$B" size --bb-bw 1B/s
hnew
hcase "--empty-prob 0 with a threshold: a usage error naming it (was 65)" 64 \
  "option '--empty-prob': .*EPS = 0" - \
  "$B" idle --policy lazy --threshold 0.5 --empty-prob 0 --bb-size 1TB
hnew
hcase "design --pfs-bw list entry 1B/s: a usage error naming it (was 65)" 64 \
  "option '--pfs-bw': 1 B/s: .*times the PFS bandwidth" - \
  "$B" design --pfs-bw 1TB/s,1B/s
hnew
hcase "--dwpd 0.01: the refusal names the drives' rating and --dwpd first (was --resolution)" 2 \
  "the drives' rating needs a buffer of .*\(--dwpd, --resolution" - "$B" size --dwpd 0.01
hnew
hcase "idle at 1e300 B: the exponent in %g form (was 301 digits)" 0 \
  "^idle 10\^-[0-9.]+e\+[0-9]+ \(of the time\)" - \
  sh -c 'o=$("$1" idle --bb-size 1e300B --model fluid 2>/dev/null); st=$?; echo "$o"
         echo "$o" | grep -Eq "[0-9]{40}" && exit 99; exit $st' sh "$B"
hnew
printf '#@ pfs-bw = 1 TB/s\n#@ time-unit = 10 s\nname,p,bw,burst\na,0.2,2TB/s,3\n' >plain.csv
printf '#@ pfs-bw = 1 TB/s\n#@ time-unit = 10 s\nname,p,bw,burst\na,0.2,2TB/s,30s\n' >secs.csv
"$B" size plain.csv --model fluid >plain.out 2>/dev/null
"$B" size secs.csv --model fluid >secs.out 2>/dev/null
hcase "a plain burst counts time units (3 = 30 s at 10 s), as both pages say" 0 "^same$" - \
  sh -c 'cmp -s plain.out secs.out && [ -s plain.out ] \
         && grep -q "exceptions that count time units" "$1/man/bbsize.1" \
         && grep -q "plain number of time units" "$1/man/bbsize-workload.5" && echo same' \
  sh "$SRC"
