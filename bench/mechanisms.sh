#!/bin/sh
# mechanisms.sh: what each network and storage mechanism of the MFNetSim
# scenarios changes.  Every scenario of a workload (the mix and each of its
# applications alone, random placement) is run with the mechanisms switched
# on one after the other, through the scenario keys of bbsize-scenario(5):
#   none        injection = concurrent, packet = 0, piece = 0,
#               pieces_in_flight = 1, piece_threads = 0, route_piece = 0
#               (bbsize before them)
#   +fcfs       injection = fcfs
#   +queueing   packet = 4KiB
#   +pieces     piece = 1MB, pieces_in_flight = 4 (the server's turn)
#   +threads    piece_threads = 4 (pieces pulled over the network)
#   +overhead   send_overhead = 3.51us, copy_per_byte = 0.55ns (MFNetSim's
#               client: a message reaches its interface after them)
#   +backpressure backpressure = on (head-of-line waits behind flows held
#               further on, from the topology's virtual-channel buffers)
#   +terminals  compute_per_group = 30 (CODES' LP mapping: the clients on
#               terminals 0-29 of each group, the servers on terminals 0
#               and 1 with them; before, 0: clients on terminals 2-31)
#   +storefwd   store_forward = on (a message's first packet is received
#               whole at every hop, as dragonfly-dally times each chunk on
#               each link)
#   +routepiece route_piece = 256KiB (adaptive routing only)
#   +vcprio     vc_priority = on (strict virtual-channel priority, with
#               its gaps where the lower channels' next links are shared,
#               maxmin.h; every variant before it sets vc_priority = off)
#   +chunklat   the preset's link latencies, one 4-KiB chunk per link
#               (dragonfly-dally's defaults on kronos-union; every variant
#               before it sets cn_delay, local_delay, global_delay = 0)
#   +chanqueue  queue = channel (the M/D/1 wait per port and channel;
#               before: queue = flow, per flow)
#   +groupvc    vc_scheme = group (kronos-union's channels; before:
#               legacy): the shipped scenarios as they are
# and, named in MECHANISMS only, the shipped scenarios with one mechanism
# taken away (what each adds to the present figures):
#   -vcprio     vc_priority = off
#   -groupvc    vc_scheme = legacy
#   -chunklat   cn_delay, local_delay, global_delay = 0
#   -chanqueue  queue = flow
# and prints per job: elapsed alone and in the mix, and the mix/alone
# slowdown of elapsed, communication and I/O time (per-rank means).
# Usage: BBSIZE=src/bbsize sh bench/mechanisms.sh [w1|w2] [min|adp]
# (MECHANISMS="pieces routepiece" runs only those variants; BENCH_APPS="milc"
# only the mix and those applications alone.)
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
LC_ALL=C
export LC_ALL
BBSIZE=${BBSIZE:-src/bbsize}
TOP=${BBSIZE_TOP_SRCDIR:-$(dirname "$0")/..}
W=${1:-w1}
R=${2:-min}
case $W in
w1) APPS="milc checkpoint cosmoflow" ;;
w2) APPS="nekbone checkpoint cosmoflow" ;;
*) echo "usage: $0 [w1|w2] [min|adp]" >&2; exit 64 ;;
esac
APPS=${BENCH_APPS:-$APPS}
T=$(mktemp -d "${TMPDIR:-/tmp}/bbsize-mech.XXXXXX")
trap 'rm -rf "$T"' EXIT
# The scenarios name their placement files as ../network/...: keep that.
mkdir "$T/scenarios"
ln -s "$(cd "$TOP/data/network" && pwd)" "$T/network"

# variant NAME KEYS...: copies of the scenarios with KEYS (key=value,
# [topology] or [storage] by name) set.
variant() {
    v=$1
    shift
    for f in "$TOP"/data/scenarios/mfnetsim-$W-mix-rand-$R.ini \
             "$TOP"/data/scenarios/mfnetsim-*-alone-rand-$R.ini; do
        awk -v keys="$*" '
            BEGIN { n = split(keys, kv, " ") }
            { print }
            /^\[topology\]/ || /^\[storage\]/ {
                sec = $0
                for (i = 1; i <= n; i++) {
                    split(kv[i], p, "=")
                    st = p[1] == "piece" || p[1] == "pieces_in_flight" || p[1] == "piece_threads"
                    if ((sec == "[storage]") == st) print p[1] " = " p[2]
                }
            }' "$f" >"$T/scenarios/$v-$(basename "$f")"
    done
}

# report NAME: run the variant and print one row per application.
report() {
    v=$1
    "$BBSIZE" simulate --csv --quiet "$T/scenarios/$v-mfnetsim-$W-mix-rand-$R.ini" >"$T/mix.csv"
    for a in $APPS; do
        "$BBSIZE" simulate --csv --quiet "$T/scenarios/$v-mfnetsim-$a-alone-rand-$R.ini" >"$T/alone.csv"
        awk -F, -v a="$a" -v v="$v" '
            FNR == 1 { f++ }
            $1 == a && f == 1 { e0 = $4; c0 = $5; i0 = $7 }
            $1 == a && f == 2 { e1 = $4; c1 = $5; i1 = $7 }
            function r(x, y) { return y > 0 ? sprintf("%.3f", x / y) : "-" }
            END { printf "%-12s %-10s %9.4f %9.4f %7s %7s %7s\n", v, a, e0, e1, r(e1, e0), r(c1, c0), r(i1, i0) }' \
            "$T/alone.csv" "$T/mix.csv"
    done
}

K="cn_delay=0 local_delay=0 global_delay=0 queue=flow"
K1="vc_scheme=legacy"
L="compute_per_group=0 store_forward=off"
N="vc_priority=off $K $K1"
O="piece_threads=0 send_overhead=0 copy_per_byte=0 backpressure=off $L"
variant none injection=concurrent packet=0 piece=0 pieces_in_flight=1 $O route_piece=0 $N
variant fcfs injection=fcfs packet=0 piece=0 pieces_in_flight=1 $O route_piece=0 $N
variant queueing injection=fcfs packet=4KiB piece=0 pieces_in_flight=1 $O route_piece=0 $N
variant pieces injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O route_piece=0 $N
O="piece_threads=4 send_overhead=0 copy_per_byte=0 backpressure=off $L"
variant threads injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O route_piece=0 $N
O="piece_threads=4 send_overhead=3.51us copy_per_byte=0.55ns backpressure=off $L"
variant overhead injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O route_piece=0 $N
O="piece_threads=4 send_overhead=3.51us copy_per_byte=0.55ns backpressure=on"
variant backpressure injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O $L route_piece=0 $N
variant terminals injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O \
    compute_per_group=30 store_forward=off route_piece=0 $N
variant storefwd injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O route_piece=0 $N
variant routepiece injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O route_piece=256KiB $N
variant vcprio injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O vc_priority=on $K $K1
variant chunklat injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O queue=flow $K1
variant chanqueue injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O $K1
variant groupvc injection=fcfs packet=4KiB piece=1MB pieces_in_flight=4 $O
variant -vcprio vc_priority=off
variant -groupvc vc_scheme=legacy
variant -chunklat cn_delay=0 local_delay=0 global_delay=0
variant -chanqueue queue=flow
echo "# $W, random placement, routing $R: elapsed alone and in the mix (s), slowdowns mix/alone"
printf "%-12s %-10s %9s %9s %7s %7s %7s\n" mechanisms app alone_s mix_s elapsed comm io
for v in ${MECHANISMS:-none fcfs queueing pieces threads overhead backpressure terminals storefwd \
        routepiece vcprio chunklat chanqueue groupvc}; do
    [ "$v" = routepiece ] && [ "$R" != adp ] && continue
    report "$v"
done
