#!/bin/sh
# cli_property.sh: for random valid workloads, the text, CSV and JSON of
# size, idle and dist carry the same numbers, and every file bbsize writes
# (generate, fit) is read back by bbsize without error.
#  - CSV and JSON print 17 digits: they must agree to 1e-12;
#  - the text rounds (4 significant digits for sizes and idle at one size,
#    3 for the idle fraction of size): it must agree to half a unit of its
#    last digit, checked as a relative gap of 5e-3 (3 digits) or 5e-4;
#  - dist's CSV rows must add up to its JSON: the mean sum_k load_k pmf_k
#    and Pr(load > B) = sum_{k > B} pmf_k.
# The workloads come from awk's generator seeded by the case number, half
# of them with bursts (the fluid model) and half without (Bernoulli), so
# every run is the same.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
B=$BBSIZE
NCASES=${BBSIZE_PROPERTY_CASES:-10}

# close A B TOL: |A - B| <= TOL max(|A|, |B|) (both numbers; 0 and 0 agree).
close() {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
    if (a == "" || b == "") exit 1
    d = a - b; if (d < 0) d = -d
    m = a < 0 ? -a : a; n = b < 0 ? -b : b; if (n > m) m = n
    exit !(d <= t * m) }'
}
# csv_col FILE NAME: the value of column NAME in the second line of FILE.
csv_col() {
  awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
                     NR == 2 { print $c }' "$1"
}
# agree DESC A B TOL: one test.
agree() {
  if close "$2" "$3" "$4"; then t_ok "$1"; else t_fail "$1 ($2 vs $3, tolerance $4)" "$T/err"; fi
}

k=0
while [ "$k" -lt "$NCASES" ]; do
  k=$((k + 1))
  w=$T/w$k.csv
  # 1 to 4 applications, p in [0.01, 0.2], bw in [10, 120] units: E < 100
  awk -v seed="$k" 'BEGIN {
    srand(seed); n = 1 + int(rand() * 4); burst = seed % 2 == 0
    print "#@ pfs-bw = 100"; print "#@ time-unit = 1s"
    print burst ? "name,p,bw,burst" : "name,p,bw"
    for (i = 1; i <= n; i++) {
      p = 0.01 + 0.19 * rand(); b = 10 + int(110 * rand())
      if (burst) printf "a%d,%.4f,%d,%d\n", i, p, b, 1 + int(5 * rand())
      else printf "a%d,%.4f,%d\n", i, p, b
    } }' >"$w"
  c="case $k ($(grep -c '^a' "$w") apps$(head -3 "$w" | grep -q burst && echo ', bursts'))"

  # size: text, CSV, JSON
  "$B" size "$w" >"$T/st" 2>"$T/err"; s1=$?
  "$B" size "$w" --csv >"$T/sc" 2>>"$T/err"; s2=$?
  "$B" size "$w" --json >"$T/sj" 2>>"$T/err"; s3=$?
  if [ $s1 -ne 0 ] || [ $s2 -ne 0 ] || [ $s3 -ne 0 ]; then
    t_fail "$c: size answers in every format (status $s1 $s2 $s3)" "$T/err"
    continue
  fi
  jS=$(json_num bb_size_bytes "$T/sj")
  jI=$(json_num idle_fraction "$T/sj")
  agree "$c: size, CSV and JSON sizes" "$(csv_col "$T/sc" bb_size_bytes)" "$jS" 1e-12
  agree "$c: size, CSV and JSON idle fractions" "$(csv_col "$T/sc" idle_fraction)" "$jI" 1e-12
  tS=$(sed -n 's/^burst buffer \([0-9.e+-]*\) units.*/\1/p' "$T/st")
  tI=$(sed -n 's/.*: idle fraction \([0-9.e+-]*\) <=.*/\1/p' "$T/st")
  agree "$c: size, text and JSON sizes (4 digits)" "$tS" "$jS" 5e-4
  agree "$c: size, text and JSON idle fractions (3 digits)" "$tI" "$jI" 5e-3

  # idle at the size found: text, CSV, JSON
  for f in "" --csv --json; do
    "$B" idle "$w" --bb-size "$jS" $f >"$T/i$f" 2>>"$T/err" || t_fail "$c: idle $f" "$T/err"
  done
  jI=$(json_num idle_fraction "$T/i--json")
  jQ=$(json_num quiet_fraction "$T/i--json")
  jO=$(json_num mean_occupancy_bytes "$T/i--json")
  agree "$c: idle, CSV and JSON idle fractions" "$(csv_col "$T/i--csv" idle_fraction)" "$jI" 1e-12
  agree "$c: idle, CSV and JSON quiet fractions" "$(csv_col "$T/i--csv" quiet_fraction)" "$jQ" 1e-12
  agree "$c: idle, CSV and JSON mean occupancies" \
    "$(csv_col "$T/i--csv" mean_occupancy_bytes)" "$jO" 1e-12
  agree "$c: idle, text and JSON idle fractions (4 digits)" \
    "$(sed -n 's/^idle \([0-9.e+-]*\) .*/\1/p' "$T/i")" "$jI" 5e-4
  agree "$c: idle, text and JSON quiet fractions (4 digits)" \
    "$(sed -n 's/.*, quiet \([0-9.e+-]*\), .*/\1/p' "$T/i")" "$jQ" 5e-4
  agree "$c: idle at the size found is size's idle fraction" "$jI" \
    "$(json_num idle_fraction "$T/sj")" 1e-9

  # dist: the CSV's rows against the JSON's moments, the text's too
  for f in "" --csv --json; do
    "$B" dist "$w" $f >"$T/d$f" 2>>"$T/err" || t_fail "$c: dist $f" "$T/err"
  done
  jm=$(json_num load_mean_bytes_per_s "$T/d--json")
  jp=$(json_num p_exceed_pfs "$T/d--json")
  agree "$c: dist, the CSV's sum of load x pmf is the JSON's mean" \
    "$(awk -F, 'NR > 1 { s += $2 * $3 } END { printf "%.17g", s }' "$T/d--csv")" "$jm" 1e-9
  agree "$c: dist, the CSV's Pr(load > B) is the JSON's" \
    "$(awk -F, 'NR > 1 && $1 > 100 { s += $3 } END { printf "%.17g", s + 0 }' "$T/d--csv")" \
    "$jp" 1e-9
  agree "$c: dist, text and JSON means" \
    "$(sed -n 's/^expected load E = \([0-9.e+-]*\) .*/\1/p' "$T/d")" "$jm" 5e-6
done

# Every file bbsize writes, read back by bbsize.
k=0
while [ "$k" -lt "$NCASES" ]; do
  k=$((k + 1))
  g=$T/g$k.csv
  # a file with bursts is read by every model; the fluid model refuses
  # many distinct bursty applications (phases) and the ON/OFF chain takes
  # tens of seconds, so the read-back asks the paper's model
  model=
  case $((k % 3)) in
    0) extra="--burst 3"; model="--model bernoulli" ;;
    1) extra="--d-min 10" ;;
    *) extra="" ;;
  esac
  if "$B" generate --seed "$k" --apps $((k * 7)) --load 0.$((k % 9 + 1)) $extra -o "$g" \
       2>"$T/err" && "$B" dist "$g" >/dev/null 2>>"$T/err" \
     && "$B" size "$g" $model --json >"$T/gs" 2>>"$T/err"; then
    t_ok "generate --seed $k --apps $((k * 7)) $extra: its file is read back (dist, size)"
  else
    t_fail "generate --seed $k $extra: its file is read back" "$T/err"
  fi
done
for f in "$SRCDIR"/data/darshan/*parser.txt; do
  n=$(basename "$f")
  if "$B" fit darshan "$f" -o "$T/fit.csv" 2>"$T/err" \
     && "$B" dist "$T/fit.csv" --pfs-bw 1GB/s >/dev/null 2>>"$T/err"; then
    t_ok "fit darshan $n: its workload is read back"
  else
    t_fail "fit darshan $n: its workload is read back" "$T/err"
  fi
done
t_done
