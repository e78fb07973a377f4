#!/bin/sh
# cli_search_progress.sh: the progress of analytic searches (size, the
# resolution's settling, threshold) with --progress off a terminal: each
# solve's line says "D of at most M solves"; within a search D counts 1,
# 2, ..., its bound M never rises and is never below the solves the search
# took; the searches' solves add up to the command's own count in its JSON
# ("evaluations"); settling names the resolutions it tries, doubling from
# 100; stdout is the same with and without --progress.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$BBSIZE_TOP_SRCDIR/tests/setup.sh"
# every update shown (progress.h), not only after 2 s
BBSIZE_PROGRESS_INTERVAL=0
export BBSIZE_PROGRESS_INTERVAL

LINE='^bbsize search( at resolution [0-9]+ \(settling it, up to 6400\))?: [0-9]+ of at most [0-9]+ solves, [0-9.e+]+/s(, at most [0-9]+ (s|min [0-9]+ s|h [0-9]+ min) left)?$'

# searches FILE: one line per search, "RESOLUTION SOLVES", after checking
# that D counts from 1 by 1 and M never rises nor ends below the solves;
# fails (no output, status 1) otherwise.
searches() {
    sed -n 's/^bbsize search\( at resolution \([0-9]*\) [^:]*\)\{0,1\}: \([0-9]*\) of at most \([0-9]*\) solves.*/\2 \3 \4/p' "$1" |
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

"$BBSIZE" size --progress --quiet >/dev/null 2>"$T/err"
check "--quiet wins over --progress" '[ ! -s "$T/err" ]'
t_done
