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

# 2. bbarch costed its events at 6e-8 s each, true at 100 nodes: at 10^6
# node-local buffers every event touches a node's state at random in 6 GB
# and misses the caches, 2e-6 s an event, so `--clients 1000000 --horizon
# 10s` was "estimated at 3.7 s" and ran past 300 s at 5.7 GB.  The work
# now counts an event at what its misses cost, and the run is refused at
# once (in a process allowed 2 GB and 5 s of CPU).
hnew
hcase "bbarch on 10^6 node-local buffers: refused at once, the cost per event said (2)" 2 \
  "the bbarch run would execute about [0-9.]+e\+09 events \(1000000 clients over 10 s.*: 6\.2[0-9]*e\+07 events, each the work of [0-9.]+ in a run that fits the processor's caches \(1000000 buffer nodes hold [5-7]\.[0-9]+ GB\)" - \
  sh -c '[ -n "$BBSIZE_SANITIZED" ] || ulimit -v 2000000; ulimit -t 5; exec "$1" bbarch --arch local --clients 1000000 --horizon 10s' sh "$B"
hnew
hcase "... 1,000 of them for 1 s run (the same model within the bound)" 0 \
  "node-local, no network, 1000 clients, 1000 nodes" - \
  "$B" bbarch --arch local --clients 1000 --horizon 1s

# 3. Found by the ASan suite (float-cast-overflow): `report --model chain`
# on a burst the chain cannot model at twice the load estimated an
# infinite run, and the progress line cast it to long: "estimated at about
# -2562047788015215 h -30 min".  No negative or overflowed time is printed.
hnew
printf '#@ pfs-bw = 100\n#@ time-unit = 1 s\nname,p,bw,burst\nonly,0.5,150,4\n' >h4.csv
hcase "report --model chain --progress: no overflowed time in the estimate line" 0 \
  "^bbsize: this run(( is estimated at about [0-9.]+ (s|min|h))|('s length could not be estimated))" "r.html" \
  sh -c '"$1" report --model chain h4.csv -o r.html --points 3 --progress 2>&1 | grep -v -- "-[0-9]" | grep "this run"' sh "$B"

# 4. A last pass as a hostile user (issue 38's list on a fresh build):
# a buffer of 1e300 B is past the cap of the quanta (LONG_MAX / 2).  idle
# refused it naming the cap as its state count ("4611686018427392555
# states"), and simulate ran a buffer of 5e29 B, the cap, as if asked.
hnew
hcase "idle --bb-size 1e300B: refused with its true count of quanta (2)" 2 \
  "a 1e\+300-byte buffer is 9\.2e\+288 quanta of 1\.09e\+11 bytes, more states than any chain holds" - \
  "$B" idle --bb-size 1e300B
hnew
hcase "sweep --bb-size 1e300B: the same count, before any costing (2)" 2 \
  "a 1e\+300-byte buffer is 9\.2e\+288 quanta of 1\.09e\+11 bytes, more states than any chain holds" - \
  "$B" sweep --bb-size 1e300B
hnew
hcase "threshold --bb-size 1e300B: the same count (2)" 2 \
  "a 1e\+300-byte buffer is 9\.2e\+288 quanta of 1\.09e\+11 bytes, more states than any chain holds" - \
  "$B" threshold --bb-size 1e300B
hnew
hcase "simulate --bb-size 1e300B: refused, not run at the cap (64)" 64 \
  "option '--bb-size': 1e\+300 bytes is 9\.2e\+288 quanta of 1\.09e\+11 bytes, more than the simulator counts" - \
  "$B" simulate --bb-size 1e300B
hnew
hcase "... 1e20 B, below the cap, simulated at its own size" 0 "100 EB burst buffer \(919540230 quanta\)" - \
  "$B" simulate --bb-size 1e20B

# 5. partition on a bursty workload (the fluid model) costed each group's
# size search by its flops alone, ~300 for one application, so --steps
# 10000 (20,002 searches, 0.5 s of CPU) was "estimated at about 0.0008
# s"; a search's fixed work (27 us) is its floor: 0.37 s.
printf '#@ pfs-bw = 1 TB/s\nname,p,bw,burst,group\nckpt-a,0.10,1.5TB/s,5min,x\nckpt-b,0.05,2TB/s,3min,y\n' \
  >"$T/g5.csv"
hnew
hcase "partition --steps 10000 (fluid): estimated within 10x of its 0.5 s" 0 \
  "estimated at about (0\.[1-9][0-9]*|[1-4](\.[0-9]+)?) s \([0-9.e+]+ multiply-adds\)" - \
  "$B" partition "$T/g5.csv" --steps 10000 --progress

# 6. A sweep from 0 B of an overloaded bursty workload on the chain (E/B
# = 2) was refused at "about inf operations ... inf power steps ... over
# inf time units": at S = 0 with no negative drift the level walk's rate
# was 0 and its relaxation infinite, where a buffer of one level has no
# walk; idle answered each size.  Now the sweep answers them too.
hnew
printf '#@ pfs-bw = 1 TB/s\nname,p,bw,burst\na,0.001,2000TB/s,10\n' >ch5.csv
hcase "sweep --bb-size 0:2TB:1TB --model chain, E/B = 2: answered, as idle is" 0 \
  "^1 +1 TB/s +greedy 0 +0 B +0 B +0 +0\.666[0-9] " - \
  "$B" sweep ch5.csv --model chain --time-unit 1s --bb-size 0:2TB:1TB

# 7. The ON/OFF chain's cost counted every power step as the direct level
# sum, P (M0 + 1 + sum (N_c + 1)) a level, where the solver convolves the
# memoryless load by FFT, P (6 log2(S + M0) + sum (N_c + 1)): `size` on
# this workload (generate --apps 8 --burst pd --d-min 20 --seed 3) was
# estimated at 6.7e12 (28 min) and ran 36.7 s of CPU (about 1.5e11 at
# 4e9 a second); the solver and the estimate now share the step's cost.
printf '#@ pfs-bw = 100\n#@ time-unit = 1 s\n#@ resolution = 100\nname,p,bw,burst\n' >"$T/ff.csv"
printf '%s\n' a1,0.05508,41.713,1.8817 a2,0.08399,171.573,1.8837 a3,0.05108,335.775,1.9339 \
  a4,0.04371,528.626,1 a5,0.01256,23.964,1 a6,0.02479,30.355,1 a7,0.04408,409.801,1 \
  a8,0.01454,269.436,1 >>"$T/ff.csv"
hnew
hcase "size --model chain on the FFT path: estimated within 10x of its 1.5e11" 2 \
  "size search would take about ([2-9](\.[0-9]+)?e\+10|[1-9](\.[0-9]+)?e\+11|1(\.[0-4][0-9]*)?e\+12) operations" - \
  "$B" size "$T/ff.csv" --model chain --max-ops 1e9

# 8. A report on the chain died (status 1, no page) when a load growth
# was overloaded (E/B 1.05 at x1.5): the many-sources correction refuses
# a mean load not below B when the model is built.  That curve is now
# left out and named, and the growth row says none (E >= B).
hnew
printf '#@ pfs-bw = 10\n#@ time-unit = 1 s\n#@ resolution = 10\nname,p,bw,burst\n' >"$T/ov.csv"
for i in 1 2 3 4 5 6 7; do echo "a$i,0.1,10,1.$i" >>"$T/ov.csv"; done
hcase "report --model chain with an overloaded load growth: the page, that curve named" 0 \
  "points could not be solved and are left out \(first: point [0-9]+: load scale 1\.5: the mean load 10\.5 quanta is not below B = 10" \
  ov.html "$B" report "$T/ov.csv" --model chain --points 5 -o ov.html
hcase "... and its growth row says none (E >= B) at E/B 1.05 (0.7 x 1.5)" 0 \
  "x1\.5</td><td>1\.05</td><td>none \(E &gt;= B\)" - cat ov.html
