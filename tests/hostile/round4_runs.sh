# SPDX-License-Identifier: GPL-3.0-or-later
# Round four (issue 38): a crash, answers that are not answers, bounds
# ignored.  Sourced by tests/cli_hostile_corpus.sh.

# The crash: a phase's load (2,000 TB/s bursts) exceeds B (1 TB/s) by far
# more than the free room; tail_sum read before its array and segfaulted.
# The answer, by hand: a burst is 10 ON units on average, each followed by
# about 1,999 stall units in which the writer waits, and an OFF period is
# 9,990 units, so the stalled share is 19,990 / 29,990 = 0.6666.
printf '#@ pfs-bw = 1 TB/s\nname,p,bw,burst\na,0.001,2000TB/s,10\n' >"$T/ch5.csv"
hnew
hcase "ON/OFF chain, a phase far above B: answers, no crash" 0 \
  "^idle 0\.666[0-9]* .*model chain" - \
  "$B" idle "$T/ch5.csv" --model chain --time-unit 1s --bb-size 1TB
hnew
hcase "... sweep on it too" 0 "^1,1000000000000,greedy,0,0,3000000000000,300,0\\.666" - \
  "$B" sweep "$T/ch5.csv" --model chain --time-unit 1s --bb-size 1TB:3TB:1TB --csv

# Not answers: 200 identical applications reduced to a memoryless model
# whose idle fraction is its solve's rounding (1e-17 where its tail is
# e^-687); the many-sources factor made that idle 1.
awk 'BEGIN { print "name,p,bw,burst"; for (i = 1; i <= 200; i++) print "a" i ",0.05,10GB/s,10" }' \
  >"$T/w200.csv"
hnew
hcase "many-sources correction on a rounded reduced idle: refused (70), not idle 1" 70 \
  "many-sources correction fails at 6666 quanta: the reduced model's idle fraction .* is its solve's rounding.*--model fluid" - \
  "$B" idle "$T/w200.csv" --model chain --pfs-bw 150GB/s --bb-size 10TB

# A group that writes nothing: no share, 0 B, and partitioning costs
# nothing (it took 1% of the PFS and 'needed 3.48 TB more').
printf '#@ pfs-bw = 1.45 TB/s\n#@ time-unit = 60 s\nname,p,bw,group\na,0.1,2TB/s,x\nb,0.2,1TB/s,x\nc,0,1TB/s,y\n' \
  >"$T/g.csv"
hnew
hcase "partition, a group with no load: no share, nothing more needed" 0 \
  " y +1 0 B/s +0\.00 0 B .*partitioning needs nothing more" - \
  sh -c '"$1" partition "$2" | tr "\n" " "; echo' sh "$B" "$T/g.csv"
hnew
hcase "partition --granularity 1e300B: refused (64), not 1e+282 EB both ways" 64 \
  "option '--granularity': .* is more than the whole shared buffer \(132\.2 TB\)" - \
  "$B" partition "$T/g.csv" --granularity 1e300B

# One replication has no interval: said, not [0 B, inf EB].
hnew
hcase "simulate --replications 1: no interval, and says so" 0 \
  "^simulated idle [0-9.]+, quiet [0-9.]+, mean occupancy [0-9.]+ TB \(one replication: no confidence interval" - \
  "$B" simulate --replications 1 --bb-size 100TB
hnew
hcase "... fluid mode too" 0 "one replication: no confidence interval" - \
  "$B" simulate --replications 1 --bb-size 100TB --mode fluid --horizon 1e4s

# Bounds: --max-ops 1 refuses every analytic command at once, the fluid
# model's (it ignored the bound) and the load distribution's included.
hnew
hcase "fluid size --max-ops 1: refused before the model is built (2)" 2 \
  "the fluid model would take about .* operations \(8 phases.*\(--max-ops\)" - \
  "$B" size "$SRC/tests/bursts3.csv" --max-ops 1
hnew
hcase "dist --max-ops 1: refused at once (2)" 2 \
  "the load distribution would take about 8\.7e\+05 operations \(20 applications.*\(--resolution, --max-ops\)" - \
  "$B" dist --resolution 6400 --max-ops 1
hnew
hcase "dist --csv at 10 MB/s: its 98.8 million rows refused before the first (2)" 2 \
  "the load distribution's 98800001 rows would take about 2e\+12 operations" - \
  "$B" dist --pfs-bw 10MB/s --resolution 100 --csv
