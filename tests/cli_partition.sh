#!/bin/sh
# cli_partition.sh: `bbsize partition`: one group is `bbsize size` to the
# byte; each partition is what `bbsize size` answers for that group alone
# at its share of the PFS bandwidth and the shared resolution; the shares
# hand out the whole PFS; granularity rounds each allocation up; the
# simulated platform (static shares bound, the shared PFS recovers); the
# fluid model through the front door; bad input.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"

W=$SRCDIR/data/workloads/groups.csv

# One group: the default workload with a single group is the shared buffer.
{ echo 'name,p,bw,group'; grep -v '^#' "$SRCDIR/data/workloads/default.csv" | sed 1d | sed 's/$/,all/'; } > "$T/one.csv"
sed -n '/^#@/p' "$SRCDIR/data/workloads/default.csv" >> "$T/one.csv"
run "$BBSIZE" partition "$T/one.csv" --json
cp "$T/out" "$T/one.json"
status_is 0 "partition with one group exits 0"
"$BBSIZE" size "$T/one.csv" --json > "$T/size.json"
check "one group: the total is bbsize size's answer, to the byte" \
  '[ "$(json_num total_bb_size_bytes "$T/one.json")" = "$(json_num bb_size_bytes "$T/size.json")" ] &&
   [ "$(json_num shared_bb_size_bytes "$T/one.json")" = "$(json_num bb_size_bytes "$T/size.json")" ]'

# Five groups: each partition is `size` on its group alone.
run "$BBSIZE" partition "$W" --csv
cp "$T/out" "$T/g.csv"
status_is 0 "partition of five groups exits 0"
"$BBSIZE" partition "$W" --json > "$T/g.json"
top() { sed -n "s/^  \"$1\": *\([0-9]*\),\{0,1\}\$/\1/p" "$2"; }
R=$(top resolution "$T/g.json")
K=$(top steps "$T/g.json")
check "five groups, one row each" 'test "$(sed 1d "$T/g.csv" | wc -l)" -eq 5'
check "the shares hand out the whole PFS bandwidth (K steps, 1.45 TB/s)" \
  'awk -F, -v K="$K" "NR > 1 { k += \$3; b += \$4 } END { exit !(k == K && b > 1.45e12 * (1 - 1e-9) && b < 1.45e12 * (1 + 1e-9)) }" "$T/g.csv"'
bad=0
while IFS=, read -r name napps k pfs bbw bytes idle; do
  [ "$name" = group ] && continue
  { sed -n '/^#@/p' "$W"; echo 'name,p,bw'; grep ",$name\$" "$W" | cut -d, -f1-3; } > "$T/only.csv"
  "$BBSIZE" size "$T/only.csv" --pfs-bw "${pfs}B/s" --resolution $((R / K * k)) --json > "$T/s.json"
  got=$(json_num bb_size_bytes "$T/s.json")
  w=$(awk -v a="$bytes" 'BEGIN { printf "%.17g", a }')
  g=$(awk -v a="$got" 'BEGIN { printf "%.17g", a }')
  [ "$w" = "$g" ] || { echo "# $name: partition $bytes, size $got"; bad=$((bad + 1)); }
done < "$T/g.csv"
check "each partition equals bbsize size for its group at its share" 'test "$bad" -eq 0'
check "the total is the sum of the partitions" \
  'awk -F, -v t="$(json_num total_bb_size_bytes "$T/g.json")" "NR > 1 { s += \$6 } END { d = s - t; exit !(d < 1 && d > -1) }" "$T/g.csv"'
check "partitions need more than the shared buffer here (pooling)" \
  'awk -v t="$(json_num total_bb_size_bytes "$T/g.json")" -v s="$(json_num shared_bb_size_bytes "$T/g.json")" "BEGIN { exit !(t > s) }"'
check "the text names the total and the shared buffer" \
  '"$BBSIZE" partition "$W" --steps 20 | grep -q "^total .* in 5 partitions against 117.7 TB shared: partitioning needs"'

# Granularity: each allocation a whole number of 82 GiB, none below the
# ungranular total.
"$BBSIZE" partition "$W" --steps 20 --json > "$T/g20.json"
run "$BBSIZE" partition "$W" --granularity 82GiB --csv --steps 20
status_is 0 "partition --granularity 82GiB exits 0"
check "every allocation is a multiple of 82 GiB" \
  'awk -F, "NR > 1 { q = \$6 / (82 * 1073741824); if (q != int(q)) exit 1 }" "$T/out"'
check "granularity does not lower the total" \
  'awk -F, -v t="$(json_num total_bb_size_bytes "$T/g20.json")" "NR > 1 { s += \$6 } END { exit !(s >= t) }" "$T/out"'

# The simulated partitioned platform.
run "$BBSIZE" partition "$W" --validate --steps 20 --replications 4 --horizon 20000 --seed 3 --csv
status_is 0 "partition --validate exits 0"
check "the work-conserving PFS idles the groups no more than the static shares" \
  'awk -F, "NR > 1 { s += \$8; w += \$11 } END { exit !(NR == 6 && w <= s) }" "$T/out"'
"$BBSIZE" partition "$W" --validate --steps 20 --replications 4 --horizon 20000 --seed 3 --csv --threads 1 > "$T/v1.csv"
check_cmd "the simulation is the same on one thread" cmp -s "$T/out" "$T/v1.csv"

# The fluid model (bursts) through the front door; its simulation refused.
printf 'name,p,bw,burst,group\nckpt,0.05,1200GB/s,5min,a\nana,0.3,300GB/s,2min,b\nsteady,0.2,200GB/s,10min,b\n#@ pfs-bw = 1 TB/s\n' > "$T/bursts.csv"
run "$BBSIZE" partition "$T/bursts.csv" --json
status_is 0 "partition of a workload with bursts exits 0"
check "the fluid model answers it" 'grep -q "\"model\": \"fluid\"" "$T/out"'
printf 'name,p,bw,burst,group\nckpt,0.05,1200GB/s,5min,a\nana,0.3,300GB/s,2min,a\nsteady,0.2,200GB/s,10min,a\n#@ pfs-bw = 1 TB/s\n' > "$T/bursts1.csv"
"$BBSIZE" partition "$T/bursts1.csv" --json > "$T/b1.json"
"$BBSIZE" size "$T/bursts1.csv" --json > "$T/bs.json"
check "fluid, one group: the total is bbsize size's answer" \
  '[ "$(json_num total_bb_size_bytes "$T/b1.json")" = "$(json_num bb_size_bytes "$T/bs.json")" ]'
expect_fail_fixed "--validate refuses the fluid model" 64 "partitioned simulation is of the Bernoulli model" \
  "$BBSIZE" partition "$T/bursts.csv" --validate

# Infeasible: a group whose load leaves the others too little.
printf 'name,p,bw,group\nh,1,0.95TB/s,a\nl,0.1,0.5TB/s,b\n#@ pfs-bw = 1 TB/s\n' > "$T/heavy.csv"
run "$BBSIZE" partition "$T/heavy.csv"
status_is 1 "no split meets the target: exit 1"
check "it says so" 'grep -q "no static partition meets the target" "$T/out"'

# Bad input.
expect_fail_fixed "a file without a group column" 65 "no group column" \
  "$BBSIZE" partition "$SRCDIR/data/workloads/default.csv"
printf 'name,p,bw,group\na,0.1,100GB/s,x\nb,0.1,100GB/s,\n' > "$T/empty.csv"
expect_fail_fixed "an empty group names its line" 65 "empty.csv:3: field 'group': empty" \
  "$BBSIZE" partition "$T/empty.csv"
expect_fail_fixed "no FILE" 64 "missing argument FILE (a workload with a group column" \
  "$BBSIZE" partition
expect_fail "--steps 0" 64 "steps" "$BBSIZE" partition "$W" --steps 0
expect_fail_fixed "fewer steps than groups" 64 "fewer steps than the 5 groups" \
  "$BBSIZE" partition "$W" --steps 4
expect_fail "--granularity 0" 64 "granularity" "$BBSIZE" partition "$W" --granularity 0
# --policy lazy: with one group the partition is still size's lazy answer,
# to the byte; a threshold as a size, and lazy with --validate (the
# simulation drains greedily), are refused.
run "$BBSIZE" partition "$T/one.csv" --policy lazy --threshold 0.3 --json
status_is 0 "partition --policy lazy --threshold 0.3 exits 0"
"$BBSIZE" size "$T/one.csv" --policy lazy --threshold 0.3 --json > "$T/sizel.json"
check "one group, lazy: the total is size --policy lazy's answer, to the byte" \
  '[ "$(json_num total_bb_size_bytes "$T/out")" = "$(json_num bb_size_bytes "$T/sizel.json")" ] &&
   [ "$(json_num bb_size_bytes "$T/sizel.json")" != "$(json_num bb_size_bytes "$T/size.json")" ]'
expect_fail "--threshold as a size" 64 "threshold" "$BBSIZE" partition "$W" --threshold 10TB
expect_fail "--validate with lazy draining" 64 "validate" "$BBSIZE" partition "$W" --policy lazy --validate
# Progress (stderr, --progress): the groups of the tables, and one estimate
# of the whole run before them, not the shared buffer's search alone.
BBSIZE_PROGRESS_INTERVAL=0 run "$BBSIZE" partition "$W" --steps 20 --progress
status_is 0 "partition --progress exits 0"
check "... progress counts the groups of the tables" 'grep -q "partition: the tables: 5/5 groups" "$T/err"'
check "... one estimate of the run" 'test "$(grep -c "this run is estimated at" "$T/err")" -eq 1'
"$BBSIZE" size "$W" --progress 2>&1 >/dev/null | sed -n 's/.*(\([0-9.e+]*\) multiply-adds).*/\1/p' > "$T/sops"
check "... larger than the shared buffer's search alone" \
  'awk -v s="$(cat "$T/sops")" -v p="$(sed -n "s/.*(\([0-9.e+]*\) multiply-adds).*/\1/p" "$T/err")" "BEGIN { exit !(s > 0 && p > 2 * s) }"'
t_done
