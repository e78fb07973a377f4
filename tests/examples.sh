#!/bin/sh
# examples.sh: the examples of the documentation are tests.  Every command
# example of README.md, docs/*.md and the EXAMPLES sections of man/* runs
# here, or is marked as not run with its reason (tests/examples.awk gives
# the rules).  Each document's examples run in order in a scratch directory
# of their own holding data/ (a copy of the shipped data), with bbsize first
# on PATH; a console example passes when the command exits 0 and prints the
# output shown (stdout and stderr together; tests/examples_match.awk), a
# script when it exits 0.  A failure prints what the command printed, ready
# to paste into the document after a deliberate change of output.  Each
# command gets at most $EXAMPLE_TIMEOUT seconds (600); one that takes more
# than 5 s is named in the log: mark it not run.
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
tab=$(printf '\t')
limit=${EXAMPLE_TIMEOUT:-600}

mkdir "$T/bin" "$T/x" "$T/w"
ln -s "$BBSIZE" "$T/bin/bbsize"
cp -R "$SRCDIR/data" "$T/data"
PATH=$T/bin:$PATH
export PATH

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# run_in DIR FILE: run the shell commands of FILE in DIR, output (stdout and
# stderr) in $T/actual, status in $rc, seconds in $took.
run_in() {
  t0=$(now)
  rc=0
  (cd "$1" && exec timeout "$limit" sh -e "$2") >"$T/actual" 2>&1 </dev/null || rc=$?
  took=$(secs "$t0" "$(now)")
  # 5 s of the normal build; an --enable-asan build scales it (Makefile.am)
  [ "${took%.*}" -lt $((5 * ${BBSIZE_TIME_SCALE:-1})) ] ||
    echo "# $where took $took s: mark it <!-- not run: ... --> (over 5 s)"
}

cd "$SRCDIR"
for doc in README.md docs/*.md man/*.[157]; do
  [ -f "$doc" ] || continue
  case $doc in *.md) roff=0 ;; *) roff=1 ;; esac
  id=$(printf '%s' "$doc" | tr '/' '_')
  X=$T/x/$id W=$T/w/$id
  mkdir "$X" "$W"
  ln -s "$T/data" "$W/data"
  awk -v out="$X" -v roff="$roff" -f "$SRCDIR/tests/examples.awk" "$doc"
  [ -f "$X/list" ] || continue
  while IFS=$tab read -r n kind line arg; do
    where=$doc:$line
    case $kind in
      skip) t_skip "$where" "not run: $arg" ;;
      bad) notok "$where: $arg" ;;
      file)
        if mkdir -p "$(dirname "$W/$arg")" && cp "$X/$n.body" "$W/$arg"; then ok "$where: file $arg"
        else notok "$where: file $arg"; fi ;;
      sh)
        run_in "$W" "$X/$n.body"
        if [ "$rc" -eq 0 ]; then ok "$where: script ($took s)"
        else
          notok "$where: script exits $rc ($took s)"
          sed 's/^/#   /' "$X/$n.body"
          echo "# it printed:"; sed 's/^/#   /' "$T/actual"
        fi ;;
      console)
        k=1
        while [ -f "$X/$n.$k.cmd" ]; do
          c=$(head -n 1 "$X/$n.$k.cmd" | tr -d '\\')   # echo may read backslashes
          run_in "$W" "$X/$n.$k.cmd"
          if [ "$rc" -eq 0 ] && awk -f "$SRCDIR/tests/examples_match.awk" "$X/$n.$k.exp" "$T/actual"; then
            ok "$where: \$ $c ($took s)"
          else
            notok "$where: \$ $c (exit $rc, $took s)"
            echo "# shown:"; sed 's/^/#   /' "$X/$n.$k.exp"
            echo "# printed (paste it into the document if the change is deliberate):"
            sed 's/^/#   /' "$T/actual"
          fi
          k=$((k + 1))
        done ;;
    esac
  done <"$X/list"
done
t_done
