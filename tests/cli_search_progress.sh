#!/bin/sh
# cli_search_progress.sh: the progress of analytic searches (size, the
# resolution's settling, threshold, the fluid model's size and threshold,
# the size at twice a default time unit, an approximation's size
# interval) with --progress off a terminal: each
# solve's line says "D of at most M solves"; within a search D counts 1,
# 2, ..., its bound M never rises and is never below the solves the search
# took; the searches' solves add up to the command's own count in its JSON
# ("evaluations"); settling names the resolutions it tries, doubling from
# 100; stdout is the same with and without --progress.  The searches at
# twice the time unit and for the size interval, which the JSON does not
# count, name themselves and keep the same rules.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
# every update shown (progress.h), not only after 2 s
BBSIZE_PROGRESS_INTERVAL=0
export BBSIZE_PROGRESS_INTERVAL

STAGE='( at resolution [0-9]+ \(settling it, up to 6400\)| at twice the time unit| for the size interval)?'
LINE="^bbsize search$STAGE"': [0-9]+ of at most [0-9]+ solves, [0-9.e+]+/s(, at most [0-9]+ (s|min [0-9]+ s|h [0-9]+ min) left)?$'

# searches FILE [STAGE]: one line per search, "RESOLUTION SOLVES", after
# checking that D counts from 1 by 1 and M never rises nor ends below the
# solves; fails (no output, status 1) otherwise.  Without STAGE the
# answer's searches and settling's, else those whose line starts "bbsize
# search STAGE:" (resolution 0).
searches() {
    if [ $# -gt 1 ]; then
        sed -n "s/^bbsize search $2: \([0-9]*\) of at most \([0-9]*\) solves.*/0 \1 \2/p" "$1"
    else
        sed -n 's/^bbsize search\( at resolution \([0-9]*\) [^:]*\)\{0,1\}: \([0-9]*\) of at most \([0-9]*\) solves.*/\2 \3 \4/p' "$1"
    fi |
        awk 'function close_search() {
                 if (n == 0) return
                 if (lo < n) bad = 1
                 out = out sprintf("%s %d\n", r == "" ? 0 : r, n)
             }
             NF == 2 { $3 = $2; $2 = $1; $1 = "" }
             $2 == 1 { close_search(); n = 0; lo = $3; r = $1 }
             { if ($2 != n + 1 || $3 > lo) bad = 1; n = $2; lo = $3 }
             END { close_search(); if (bad || out == "") exit 1; printf "%s", out }'
}
# total FILE: the solves of every search
total() { awk '{ s += $2 } END { print s + 0 }' "$1"; }

"$BBSIZE" size --json >"$T/plain" 2>"$T/eplain"
"$BBSIZE" size --json --progress >"$T/json" 2>"$T/err"
check "size: stdout is the same with --progress" 'cmp -s "$T/plain" "$T/json"'
check "size: nothing on stderr without --progress off a terminal" '[ ! -s "$T/eplain" ]'
check "size: every progress line has the form" \
    '! grep "^bbsize search" "$T/err" | grep -Evq "$LINE" && grep -q "^bbsize search" "$T/err"'
searches "$T/err" >"$T/s" || true
check "size: counts from 1 by 1, bounds never rise nor end below the solves" '[ -s "$T/s" ]'
ev=$(json_num evaluations "$T/json")
check "size: the searches' solves add up to the JSON's evaluations ($(total "$T/s"), $ev)" \
    '[ "$(total "$T/s")" -eq "$ev" ]'
check "size: settling tries 100, 200, ... doubling, then the answer's search" \
    'awk "NR == 1 && \$1 != 100 { exit 1 } NR > 1 && \$1 != 0 && \$1 != 2 * p { exit 1 }
          { p = \$1 } END { exit !(NR >= 3 && \$1 == 0) }" "$T/s"'

"$BBSIZE" size --json --progress --resolution 800 --target 1e-6 >"$T/json" 2>"$T/err"
searches "$T/err" >"$T/s" || true
check "size at a given resolution: one search, no settling" \
    '[ "$(wc -l <"$T/s")" -eq 1 ] && ! grep -q settling "$T/err"'
check "size at a given resolution: its solves are the JSON's evaluations" \
    '[ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'

# a size and grids that leave a threshold to refine after the grid
for g in 3 20; do
    "$BBSIZE" threshold --bb-size 150TB --resolution 800 --grid $g --json --progress \
        >"$T/json" 2>"$T/err"
    searches "$T/err" >"$T/s" || true
    check "threshold --grid $g: one search, bounds hold, its solves are the JSON's" \
        '[ "$(wc -l <"$T/s")" -eq 1 ] && [ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'
done

# the fluid model (applications with bursts): size and threshold
"$BBSIZE" size "$BBSIZE_TOP_SRCDIR/tests/bursts3.csv" --json >"$T/plain" 2>/dev/null
"$BBSIZE" size "$BBSIZE_TOP_SRCDIR/tests/bursts3.csv" --json --progress >"$T/json" 2>"$T/err"
check "fluid size: stdout is the same with --progress" 'cmp -s "$T/plain" "$T/json"'
check "fluid size: every progress line has the form" \
    '! grep "^bbsize search" "$T/err" | grep -Evq "$LINE" && grep -q "^bbsize search" "$T/err"'
searches "$T/err" >"$T/s" || true
check "fluid size: one search, bounds hold, its solves are the JSON's evaluations" \
    '[ "$(wc -l <"$T/s")" -eq 1 ] && [ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'
"$BBSIZE" size "$BBSIZE_TOP_SRCDIR/tests/bursts3.csv" --threshold 0.3 --json --progress \
    >"$T/json" 2>"$T/err"
searches "$T/err" >"$T/s" || true
check "fluid lazy size: one search, bounds hold, its solves are the JSON's" \
    '[ "$(wc -l <"$T/s")" -eq 1 ] && [ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'
for g in 3 20; do
    "$BBSIZE" threshold "$BBSIZE_TOP_SRCDIR/tests/bursts3.csv" --bb-size 1.5PB --grid $g \
        --json --progress >"$T/json" 2>"$T/err"
    searches "$T/err" >"$T/s" || true
    check "fluid threshold --grid $g: one search, bounds hold, its solves are the JSON's" \
        '[ "$(wc -l <"$T/s")" -eq 1 ] && [ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'
done

# too many phases for the exact model: the approximation's two searches
# for its size interval follow the answer's
{
    echo '#@ pfs-bw = 1 TB/s'
    echo 'name,p,bw,burst'
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
        echo "a$i,0.0$((i % 9 + 1)),0.$((i % 7 + 2))TB/s,$((i + 1))min"
    done
} >"$T/many.csv"
"$BBSIZE" size "$T/many.csv" --json --progress >"$T/json" 2>"$T/err"
searches "$T/err" >"$T/s" || true
check "approximate fluid size: one answer's search, its solves are the JSON's" \
    'grep -q "\"exact\": false" "$T/json" && [ "$(wc -l <"$T/s")" -eq 1 ] &&
     [ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'
searches "$T/err" "for the size interval" >"$T/s" || true
check "approximate fluid size: two interval searches after it, bounds hold" \
    '[ "$(wc -l <"$T/s")" -eq 2 ] &&
     grep "^bbsize search" "$T/err" | tail -n 1 | grep -q "^bbsize search for the size interval"'

# no time unit given: the size at twice the default one is searched too,
# Bernoulli (default.csv without its time unit) and fluid (one
# application without a burst)
grep -v time-unit "$BBSIZE_TOP_SRCDIR/data/workloads/default.csv" >"$T/nounit.csv"
{
    echo '#@ pfs-bw = 1 TB/s'
    echo 'name,p,bw,burst'
    echo 'ckpt-a,0.10,1.5TB/s,5min'
    echo 'out-c,0.20,0.6TB/s,'
} >"$T/mixed.csv"
for w in nounit mixed; do
    "$BBSIZE" size "$T/$w.csv" --json --progress >"$T/json" 2>"$T/err"
    searches "$T/err" >"$T/s" || true
    check "$w: the answer's searches' solves are the JSON's evaluations" \
        '[ -s "$T/s" ] && [ "$(total "$T/s")" -eq "$(json_num evaluations "$T/json")" ]'
    searches "$T/err" "at twice the time unit" >"$T/s" || true
    check "$w: one search at twice the time unit, last, bounds hold" \
        '[ "$(wc -l <"$T/s")" -eq 1 ] && ! json_num bb_size_bytes_at_double_time_unit "$T/json" |
             grep -q null &&
         grep "^bbsize search" "$T/err" | tail -n 1 | grep -q "^bbsize search at twice"'
done

"$BBSIZE" size --progress --quiet >/dev/null 2>"$T/err"
check "--quiet wins over --progress" '[ ! -s "$T/err" ]'
t_done
