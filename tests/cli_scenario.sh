#!/bin/sh
# cli_scenario.sh: `bbsize simulate SCENARIO.ini` and `bbsize compare` on a
# reduced scenario (graph500-72, 16-rank jobs): closed-form volumes, output
# formats, determinism, the shipped MFNetSim files parse, and every
# bad-input path with its message and exit status.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
set -e
S=$BBSIZE_TOP_SRCDIR/data/scenarios
# a reduced workload 1: 16 ranks each on graph500-72 (1 burst-buffer node per group)
hdr() {
    cat <<EOT
[topology]
preset = graph500-72
bb_per_group = 1
routing = $1
[placement]
policy = $2
[run]
seed = 7
EOT
}
milc() { printf '[job milc]\nmodel = milc\nranks = 16\ndims = 2x2x2x2\niterations = 2\n'; }
ckpt() { printf '[job checkpoint]\nmodel = checkpoint\nranks = 16\ntotal_bytes = 160MB\n'; }
cosmo() { printf '[job cosmoflow]\nmodel = cosmoflow\nranks = 16\niterations = 1\nallreduce_bytes = 1MB\n'; }
{ hdr minimal contiguous; milc; ckpt; cosmo; } > "$T/mix.ini"
{ hdr minimal contiguous; milc; } > "$T/alone.ini"
{ hdr adaptive random-node; milc; ckpt; cosmo; } > "$T/rand.ini"

t_plan 43
check "simulate --help exits 0 (classic mode)" '"$BBSIZE" simulate --help >/dev/null'
check "scenario mode prints the per-application and per-link tables" \
    '"$BBSIZE" simulate --quiet "$T/mix.ini" >"$T/o" && grep -q "^milc  *milc  *16" "$T/o" && grep -q "^global " "$T/o" && grep -q "elapsed(s)" "$T/o"'
"$BBSIZE" simulate --quiet --csv "$T/mix.ini" >"$T/c"
# MILC closed form: 16 ranks x 2 iterations x 16 messages x 497664 B, plus
# 2 allreduces per iteration of 16 ranks (4 rounds x 16 messages x 8 B)
check "MILC bytes = 16 x 2 x 16 x 497664 + 2 x 2 x 64 x 8" \
    'awk -F, "\$1==\"milc\" {exit !(\$9==16*2*16*497664+2*2*64*8)}" "$T/c"'
check "checkpoint writes total_bytes (160 MB)" \
    'awk -F, "\$1==\"checkpoint\" {exit !(\$10==160000000)}" "$T/c"'
check "cosmoflow writes 16 x 8 MiB (the artifact's batch)" \
    'awk -F, "\$1==\"cosmoflow\" {exit !(\$10==16*8388608 && \$11==0)}" "$T/c"'
# ring allreduce of 1 MB over 16 ranks: 2 (p - 1) / p x 1 MB per rank
check "cosmoflow sends 2 x 15 x 1 MB (ring)" \
    'awk -F, "\$1==\"cosmoflow\" {exit !(\$9 > 29999999 && \$9 < 30000001)}" "$T/c"'
# a job's own allreduce and the artifact's batch direction (bbsize-scenario(5))
{ hdr minimal contiguous; cosmo; printf 'allreduce = recursive-doubling\nbatch_op = read\n'; } >"$T/cw.ini"
"$BBSIZE" simulate --quiet --csv "$T/cw.ini" >"$T/cw"
check "job allreduce = recursive-doubling: 16 ranks x 4 rounds x 1 MB" \
    'awk -F, "\$1==\"cosmoflow\" {exit !(\$9==16*4*1000000)}" "$T/cw"'
check "batch_op = read (the paper): 16 x 8 MiB read, nothing written" \
    'awk -F, "\$1==\"cosmoflow\" {exit !(\$11==16*8388608 && \$10==0)}" "$T/cw"'
check "--csv-links: the link table, the four link kinds, in its own file" \
    '"$BBSIZE" simulate --quiet --csv --csv-links "$T/links.csv" "$T/mix.ini" | cmp -s - "$T/c" && grep -c "^injection,\|^ejection,\|^local,\|^global," "$T/links.csv" | grep -qx 4 && ! grep -q "^injection," "$T/c"'
check "--json has jobs, links and run" \
    '"$BBSIZE" simulate --quiet --json "$T/mix.ini" | grep -q "\"events_per_s\""'
# --json names the mechanisms the run used: the defaults, and what a file sets
"$BBSIZE" simulate --quiet --json "$T/mix.ini" >"$T/j"
check "--json mechanisms: MFNetSim's defaults" \
    'grep -q "\"piece_threads\": 4" "$T/j" && grep -q "\"backpressure\": \"on\"" "$T/j" && grep -q "\"injection\": \"fcfs\"" "$T/j" && grep -q "\"store_forward\": \"on\"" "$T/j" && grep -q "\"vc_priority\": \"on\"" "$T/j"'
sed 's/^routing = minimal/routing = minimal\nbackpressure = off\ninjection = concurrent/' "$T/mix.ini" >"$T/mo.ini"
printf '[storage]\npiece_threads = 0\n' >>"$T/mo.ini"
"$BBSIZE" simulate --quiet --json "$T/mo.ini" >"$T/jo"
check "--json mechanisms: what the file set" \
    'grep -q "\"piece_threads\": 0" "$T/jo" && grep -q "\"backpressure\": \"off\"" "$T/jo" && grep -q "\"injection\": \"concurrent\"" "$T/jo"'
# strict channel priority (the default) switched off: named, and the mix
# runs differently (without it traffic still in its group no longer goes
# before traffic arriving in it)
sed 's/^routing = minimal/routing = minimal\nvc_priority = off/' "$T/mix.ini" >"$T/vp.ini"
check "vc_priority = off: named in --json, another run" \
    '"$BBSIZE" simulate --quiet --json "$T/vp.ini" | grep -q "\"vc_priority\": \"off\"" && "$BBSIZE" simulate --quiet --csv "$T/vp.ini" >"$T/cv" && ! cmp -s "$T/cv" "$T/c"'
check "--json mechanisms: the layout and link delays of graph500-72" \
    'grep -q "\"compute_per_group\": 0" "$T/j" && grep -Eq "\"cn\": (5e-0?8|4\.99999[0-9]*e-0?8)" "$T/j"'
# CODES' LP mapping: the 8 terminals of a group are all compute nodes, the
# first shares its terminal with the group's buffer node: placement moves
# (the run differs) and a checkpoint rank there writes without the network
sed 's/^bb_per_group = 1/bb_per_group = 1\ncompute_per_group = 8/' "$T/mix.ini" >"$T/lp.ini"
"$BBSIZE" simulate --quiet --json "$T/lp.ini" >"$T/jl"
check "compute_per_group = 8: named in --json" 'grep -q "\"compute_per_group\": 8" "$T/jl"'
"$BBSIZE" simulate --quiet --csv "$T/lp.ini" >"$T/cl"
check "compute_per_group = 8: another placement, another run" '! cmp -s "$T/cl" "$T/c"'
# link latency: every MILC message crosses at least its two terminal links,
# so 1 us each there lengthens the run.  Without channel priority: with it
# the shares where MILC's own flows meet on two channels depend on when
# they start, and this run comes out 16 us shorter (of 10 ms)
sed 's/^bb_per_group = 1/bb_per_group = 1\nvc_priority = off/' "$T/alone.ini" >"$T/a0.ini"
sed 's/^bb_per_group = 1/bb_per_group = 1\ncn_delay = 1us/' "$T/a0.ini" >"$T/ld.ini"
"$BBSIZE" simulate --quiet --csv "$T/a0.ini" >"$T/a0"
"$BBSIZE" simulate --quiet --csv "$T/ld.ini" >"$T/a1"
check "cn_delay = 1us lengthens MILC's run" \
    'awk -F, "FNR==1{f++} \$1==\"milc\" && f==1 {a=\$4} \$1==\"milc\" && f==2 {b=\$4} END {exit !(b > a + 2e-6)}" "$T/a0" "$T/a1"'
check "--scenario FILE is the same run" \
    '"$BBSIZE" simulate --quiet --csv --scenario "$T/mix.ini" | cmp -s - "$T/c"'
"$BBSIZE" simulate --quiet --csv "$T/rand.ini" >"$T/r1"
"$BBSIZE" simulate --quiet --csv "$T/rand.ini" >"$T/r2"
check "same seed, same bytes (random placement, adaptive routing)" 'cmp -s "$T/r1" "$T/r2"'
"$BBSIZE" simulate --quiet --csv --seed 8 "$T/rand.ini" >"$T/r3"
check "--seed changes the random placement" '! cmp -s "$T/r1" "$T/r3"'
check "wall time and events/s on stderr" \
    '"$BBSIZE" simulate "$T/alone.ini" 2>&1 >/dev/null | grep -q "events/s"'
"$BBSIZE" compare --quiet --csv "$T/alone.ini" "$T/alone.ini" >"$T/cmp"
check "compare: a scenario against itself has slowdown 1" \
    'awk -F, "NR==2 {exit !(\$5==1 && \$8==1)}" "$T/cmp"'
check "compare: per-rank mean latency > 0, its growth against itself 1" \
    'awk -F, "NR==2 {exit !(\$14 > 0 && \$14==\$15 && \$16==1)}" "$T/cmp"'
check "compare: MILC has no I/O: its ratio empty in CSV, - in text, never nan" \
    'awk -F, "NR==2 {exit !(\$11==\"\")}" "$T/cmp" && "$BBSIZE" compare --quiet "$T/alone.ini" "$T/alone.ini" >"$T/cmpt" && ! grep -qi nan "$T/cmpt" && grep -q " - " "$T/cmpt"'
"$BBSIZE" compare --quiet --csv "$T/alone.ini" "$T/mix.ini" >"$T/cmp2"
check "compare: the two runs side by side (the default) or one after the other, same bytes" \
    '"$BBSIZE" compare --quiet --csv --threads 1 "$T/alone.ini" "$T/mix.ini" | cmp -s - "$T/cmp2" && [ $(wc -l <"$T/cmp2") -eq 2 ]'
check "compare: a bad MIX.ini is refused by name before either runs (65)" \
    'printf "[job milc]\nmodel = milc\nranks = 0\n" >"$T/bm.ini"; "$BBSIZE" compare --quiet "$T/alone.ini" "$T/bm.ini" 2>"$T/bme"; [ $? -eq 65 ] && grep -q "bm.ini" "$T/bme"'
"$BBSIZE" compare --quiet --csv "$T/alone.ini" "$T/rand.ini" >"$T/cmp3"
check "compare: the largest latency alone and in the other run is simulate's latency_max_s, its growth their ratio" \
    '"$BBSIZE" simulate --quiet --csv "$T/alone.ini" >"$T/sa" && awk -F, "FNR==1 {f++; if (f==1) for (i = 1; i <= NF; i++) if (\$i==\"latency_max_s\") c = i} f==1 && \$1==\"milc\" {a = \$c} f==2 && \$1==\"milc\" {m = \$c} f==3 && NR>1 && \$1==\"milc\" {ok = (\$17 / a - 1)^2 < 1e-10 && (\$18 / m - 1)^2 < 1e-10 && \$19 + 0 > 0 && (\$19 * a / m - 1)^2 < 1e-10} END {exit !ok}" "$T/sa" "$T/r1" "$T/cmp3"'
# ensembles: replica i runs with the random streams of unit i
{ hdr adaptive random-node; printf '[topology]\njitter = 0.001ns\n'; milc; ckpt; cosmo; } >"$T/rj.ini"
{ hdr adaptive random-node; printf '[topology]\njitter = 0.001ns\n'; milc; } >"$T/rja.ini"
{ hdr adaptive random-node; printf '[topology]\njitter = 0.001ns\n'; ckpt; } >"$T/rjc.ini"
"$BBSIZE" compare --quiet --csv "$T/rja.ini" "$T/rj.ini" >"$T/e0"
"$BBSIZE" compare --quiet --csv --replicas 1 "$T/rja.ini" "$T/rj.ini" >"$T/e1"
check "compare --replicas 1: replica 0 is the plain run (mean = its slowdown, no sd, min = max)" \
    'awk -F, "FNR==1 {f++} f==1 && FNR==2 {x = \$5} f==2 && FNR==2 {ok = \$10==x && \$11==\"\" && \$12==x && \$13==x} END {exit !ok}" "$T/e0" "$T/e1"'
"$BBSIZE" compare --quiet --json --replicas 2 "$T/rja.ini" "$T/rj.ini" >"$T/e2"
check "compare --replicas 2 --json: mean, sd, min and max of the two values of each slowdown" \
    'awk "/\"elapsed_slowdown\"/ {b = 1} b && /\"mean\"/ {m = \$2 + 0} b && /\"sd\"/ {s = \$2 + 0} b && /\"min\"/ {lo = \$2 + 0} b && /\"max\"/ {hi = \$2 + 0} b && /\"values\"/ {v = 1; next} v && n < 2 {x[n++] = \$1 + 0} v && n == 2 {d = x[0] - x[1]; if (d < 0) d = -d; ok = (m - (x[0] + x[1]) / 2)^2 < 1e-24 && (s - d / sqrt(2))^2 < 1e-24 && lo == (x[0] < x[1] ? x[0] : x[1]) && hi == (x[0] < x[1] ? x[1] : x[0]) && d > 0; exit} END {exit !ok}" "$T/e2"'
"$BBSIZE" compare --quiet --csv --replicas 3 "$T/rja.ini" "$T/rjc.ini" "$T/rj.ini" >"$T/e3"
check "compare --replicas 3, two alone files: one row per job, the same bytes one run at a time" \
    '"$BBSIZE" compare --quiet --csv --replicas 3 --threads 1 "$T/rja.ini" "$T/rjc.ini" "$T/rj.ini" | cmp -s - "$T/e3" && [ $(wc -l <"$T/e3") -eq 3 ] && grep -q "^milc,milc,3," "$T/e3" && grep -q "^checkpoint,checkpoint,3," "$T/e3"'
check "compare --replicas 0 and 1001 are refused (64)" \
    '"$BBSIZE" compare --replicas 0 "$T/rja.ini" "$T/rj.ini" 2>/dev/null; [ $? -eq 64 ] && { "$BBSIZE" compare --replicas 1001 "$T/rja.ini" "$T/rj.ini" 2>/dev/null; [ $? -eq 64 ]; }'
check "simulate --json: the communication time by kind of MILC is its halos and allreduces" \
    '"$BBSIZE" simulate --quiet --json "$T/alone.ini" | awk "/\"comm_mean_s\"/ {c = \$2 + 0} /\"p2p_s\"/ {p = \$2 + 0} /\"allreduce_s\"/ {a = \$2 + 0} /\"barrier_s\"/ {b = \$2 + 0} END {exit !(p > 0 && a > 0 && b == 0 && p + a >= c * (1 - 1e-9))}"'
check "24 shipped MFNetSim scenarios" '[ $(ls "$S"/mfnetsim-*.ini | wc -l) -eq 24 ]'
check "shipped checkpoint alone (MFNetSim allocation file) writes 50 GB at full scale" \
    '"$BBSIZE" simulate --quiet --csv "$S/mfnetsim-checkpoint-alone-rand-min.ini" | awk -F, "\$1==\"checkpoint\" {d = \$10 - 50000000000; exit !(d * d < 1)}"'

# bad input
printf '[job x]\nmodel = lammps\nranks = 4\n' >"$T/b1.ini"
expect_fail_fixed "unknown model lists the known ones (65)" 65 "b1.ini:2: [job] model 'lammps': unknown model 'lammps' (known: milc, nekbone, checkpoint, cosmoflow, graph500, fileload, vef)" \
    "$BBSIZE" simulate "$T/b1.ini"
{ hdr minimal contiguous; cosmo; printf 'allreduce = tree\n'; } >"$T/b0.ini"
expect_fail_fixed "unknown job allreduce lists the algorithms (65)" 65 "[job] allreduce 'tree': unknown allreduce algorithm 'tree' (known: auto, ring, recursive-doubling, rabenseifner)" \
    "$BBSIZE" simulate "$T/b0.ini"
{ hdr minimal contiguous; printf '[job big]\nmodel = checkpoint\nranks = 100\n'; } >"$T/b2.ini"
expect_fail_fixed "more ranks than compute nodes (65)" 65 "ask for 100 nodes but the topology has 63 compute nodes" \
    "$BBSIZE" simulate "$T/b2.ini"
printf '[topology]\nrouting = fastest\n[job a]\nmodel = milc\nranks = 300\n' >"$T/b3.ini"
expect_fail_fixed "unknown routing names file, line and token (65)" 65 "b3.ini:2: [topology] routing 'fastest'" \
    "$BBSIZE" simulate "$T/b3.ini"
printf '[job a]\nmodel = checkpoint\nranks = many\n' >"$T/b4.ini"
expect_fail_fixed "non-numeric ranks names line and token (65)" 65 "b4.ini:3: [job] ranks 'many': not an integer" \
    "$BBSIZE" simulate "$T/b4.ini"
printf '1 2 3\n' >"$T/alloc"
{ printf '[topology]\npreset = graph500-72\nbb_per_group = 1\n[placement]\nfile = alloc\n'; printf '[job a]\nmodel = checkpoint\nranks = 5\n'; } >"$T/b5.ini"
expect_fail_fixed "ranks without placement (65)" 65 "ranks 3..4 have no placement" \
    "$BBSIZE" simulate "$T/b5.ini"
printf '[job a]\nmodel = milc\nranks = 16\n' >"$T/b6.ini"
expect_fail_fixed "a grid that does not match the ranks (65)" 65 "the grid has 300 ranks, the job 16" \
    "$BBSIZE" simulate "$T/b6.ini"
printf '[jobs]\n' >"$T/b7.ini"
expect_fail_fixed "unknown section lists the known ones (65)" 65 "b7.ini:1: unknown section '[jobs]' (known: topology" \
    "$BBSIZE" simulate "$T/b7.ini"
expect_fail_fixed "unreadable scenario (66)" 66 "cannot open" "$BBSIZE" simulate "$T/none.ini"
exit $_failed
