#!/bin/sh
# cli_trace.sh: `bbsize trace` from the command line: the example traces of
# data/traces, Graph500 and file loads, JSON/CSV output, determinism, a run
# on a preset, and the bad-input paths with their messages and statuses.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
set -e
D=$SRCDIR/data/traces
t_plan 27

# examples
t_run "plain MPI trace" 0 "$BBSIZE" trace -q "$D/mpi-ring.vef"
t_match "plain MPI: 8 sends, 4 MiB + 4 x 4 KiB" "8 send, 8 recv, 10 collective" "$T/out"
t_match "plain MPI: bytes of the records" "\(4210688 B\)" "$T/out"
t_run "DCNW (Listing 3) capped at 20000 messages" 0 "$BBSIZE" trace -q --messages 20000 --json "$D/dcnw-google.vef"
t_match "DCNW JSON: 20000 sends" '"send": 20000' "$T/out"
t_run "FLOWS (Listing 6)" 0 "$BBSIZE" trace -q --messages 5000 "$D/flows.vef"
t_run "HOROVOD with GATV_PROB 1" 0 sh -c "sed 's/GATV_PROB 0.01/GATV_PROB 1/' '$D/horovod-alexnet.vef' > '$T/h.vef' && '$BBSIZE' trace -q --json '$T/h.vef'"
# 98 ranks x (7 x 50000 + 150000) KiB; 10 iterations x 8 layers x 98 ranks x 60 B
t_close "HOROVOD allreduce bytes = closed form" "$(sed -n '/"allreduce"/,/}/p' "$T/out" | sed -n 's/.*"bytes": *\([0-9.e+]*\).*/\1/p')" 50176000000 0.5
t_close "HOROVOD gatherv bytes = closed form" "$(sed -n '/"gatherv"/,/}/p' "$T/out" | sed -n 's/.*"bytes": *\([0-9.e+]*\).*/\1/p')" 470400 0.5

# Graph500
t_run "graph500 CSV levels" 0 "$BBSIZE" trace -q --model graph500 --scale 14 --nodes 8 --tail keep --csv
t_match "CSV header" "^level,mean_edges,sigma_edges,queries,messages,bytes$" "$T/out"
q=$(awk -F, 'NR > 1 { s += $4 } END { printf "%.0f", s }' "$T/out")
# 2 E (n-1)/n = 2 x 16 x 2^14 x 7/8 = 458752 queries with the kept tail
t_close "graph500 --tail keep: queries = 2E (n-1)/n" "$q" 458752 1
t_run "graph500 same seed, same bytes" 0 sh -c "'$BBSIZE' trace -q --model graph500 --scale 14 --nodes 8 --seed 5 --json > '$T/a' && '$BBSIZE' trace -q --model graph500 --scale 14 --nodes 8 --seed 5 --json | grep -v generation_s > '$T/b' && grep -v generation_s '$T/a' | cmp -s - '$T/b'"
t_run "graph500 on graph500-72" 0 "$BBSIZE" trace -q --model graph500 --scale 12 --nodes 8 --topology graph500-72
t_match "run reports elapsed" "^  elapsed +[0-9.e-]+ s" "$T/out"

# file loads
t_run "file loads written on a preset" 0 "$BBSIZE" trace -q --model fileload --files 4 --file-size 1GB --ranks 2 --topology graph500-72 --json
t_close "file loads: 4 x 1 GB" "$(json_num write_bytes "$T/out")" 4000000000 0.5

# bad input
printf 'VEF3 4 2 0 0 0 TRUE\n0 0 1 10 0 0 -1\n2 1 0 10 0 0 -1\n' > "$T/ids.vef"
t_err "message ids not dense" 65 "ids.vef:3: message id '2' out of order: expected 1" "$BBSIZE" trace "$T/ids.vef"
printf 'VEF3 2 0 1 1 0 TRUE\nC0 0 1\nG0 0 BARRIER 0 0 0 0 0 0\n' > "$T/coll.vef"
t_err "collective participants disagree" 65 "coll.vef:3: collective G0 .*task 1 .*participants disagree" "$BBSIZE" trace "$T/coll.vef"
printf 'VEF3 8 10 0 0 0 TRUE\nEXT DCNW\nYAHOO_MAIL UNIFORM\n' > "$T/model.vef"
t_err "unknown DCNW model lists the known ones" 65 "model.vef:3: unknown DCNW model 'YAHOO_MAIL' \(known: DCTCP, FACEBOOK_KEY_VALUE, FACEBOOK_CACHE_FOLLOWER, FACEBOOK_WEB_SERVER, FACEBOOK_HADOOP, GOOGLE_ALL, GOOGLE_SEARCH\)" "$BBSIZE" trace "$T/model.vef"
printf 'VEF3 8 10 0 0 0 TRUE\nEXT CDCNW\nsizes.txt LOAD 2\n' > "$T/c.vef"
printf '100\n10 0.5\n20 0.9\n' > "$T/sizes.txt"
t_err "CDCNW table whose CDF does not reach 1" 65 "sizes.txt:3: the CDF ends at 0.9: it must increase to 1" "$BBSIZE" trace "$T/c.vef"
printf '100\n10 0.5\n20 1\n' > "$T/sizes.txt"
t_run "CDCNW table beside the trace" 0 "$BBSIZE" trace -q "$T/c.vef"
t_err "missing trace" 66 "nope.vef" "$BBSIZE" trace "$T/nope.vef"
t_err "unknown --model" 64 "option '--model': 'petsc' is not a known model \(vef, graph500, fileload\)" "$BBSIZE" trace --model petsc
t_err "unknown --arch lists Table III" 64 "option '--arch': 'cray' is not a known architecture \(altamira, i5-5200u, xeon-e5-2620, mont-blanc\)" "$BBSIZE" trace --model graph500 --arch cray
t_err "bad --scale names the key" 64 "option '--scale': key 'scale': expected an integer in \\[1, 40\\], got '99'" "$BBSIZE" trace --model graph500 --scale 99
t_err "more ranks than nodes" 65 "128 ranks but topology graph500-72 has" "$BBSIZE" trace -q --messages 10 "$D/dcnw-google.vef" --topology graph500-72
