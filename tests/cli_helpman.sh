#!/bin/sh
# cli_helpman.sh: every command's --help agrees with its man page, and the
# defaults --help states are the ones used.
#  1. Every long option of `bbsize CMD --help` has a tagged paragraph (.TP)
#     in the command's page (bbsize-CMD(1); bbsize(1) for size, idle, dist,
#     threshold and generate) or, for the options every command shares, in
#     bbsize(1); when --help states a default, that paragraph states the
#     same one (help_opts.awk and man_opts.awk read both; spaces aside).
#  2. A default stated as a value is the one used: the command run with
#     --OPTION=DEFAULT prints what it prints without the option (an option
#     that applies only with another, --empty-prob with --policy lazy, is
#     run with that one in both runs).  Defaults stated in words ("the
#     preset's") are refused as values and skipped.
#  3. `bbsize --help` lists every command of src/commands.h.
#  4. --help lists each long option once (a command's own --pfs-bw RATES
#     walk is not listed again as the platform's --pfs-bw RATE).
# SPDX-License-Identifier: GPL-3.0-or-later
. "${BBSIZE_TOP_SRCDIR:-.}/tests/setup.sh"
M=$SRCDIR/man
tab=$(printf '\t')

cmds=$("$BBSIZE" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$cmds" ] && ok "bbsize --help lists the commands" || notok "bbsize --help lists the commands"
for c in $(sed -n 's/^int bb_cmd_\([a-z_]*\)(.*/\1/p' "$SRCDIR/src/commands.h"); do
  if printf '%s\n' $cmds | grep -qx "$c"; then ok "bbsize --help lists $c (src/commands.h)"
  else notok "bbsize --help lists $c (src/commands.h)"; fi
done
awk -f "$SRCDIR/tests/man_opts.awk" "$M/bbsize.1" >"$T/shared"

# A cheap run of each command, for part 2 (FILE arguments from data/).
D=$SRCDIR/data
base_args() {
  case $1 in
    size | dist | generate) echo "$1" ;;
    idle) echo "idle --bb-size 100TB" ;;
    threshold) echo "threshold --bb-size 200TB" ;;
    sweep) echo "sweep --bb-size 0:100TB:50TB" ;;
    design) echo "design --pfs-bw 1TB/s,2TB/s" ;;
    frontier) echo "frontier" ;;
    partition) echo "partition $D/workloads/groups.csv" ;;
    fit) echo "fit darshan $D/darshan/bbthemis-namd2-tacc-32p.darshan-parser.txt" ;;
    # the text of simulate and validate gives their wall time: JSON, CSV
    simulate) echo "simulate --bb-size 100TB --horizon 200 --replications 2 --json" ;;
    validate) echo "validate --bb-size 100TB --horizon 200 --replications 2 --csv" ;;
    device) echo "device --pattern randread --size 4MiB" ;;
    bbarch) echo "bbarch --horizon 5s" ;;
    netload) echo "netload --topology graph500-72 --load 0.1 --duration 2ms" ;;
    trace) echo "trace $D/traces/mpi-ring.vef" ;;
    compare) echo "compare $D/scenarios/mfnetsim-checkpoint-alone-rand-min.ini $D/scenarios/mfnetsim-checkpoint-alone-rand-min.ini" ;;
    *) echo "" ;;   # report writes files and plots; systems has no defaults
  esac
}
# Options that apply only with another one (refused without it, 64).
ctx_args() {
  case $1:$2 in
    size:empty-prob | idle:empty-prob | sweep:empty-prob | simulate:empty-prob | validate:empty-prob)
      echo "--policy lazy" ;;
    simulate:noise | validate:noise) echo "--mode periodic --d-min 5" ;;
    *) echo "" ;;
  esac
}

for c in $cmds; do
  page=$M/bbsize-$c.1
  [ -f "$page" ] || page=$M/bbsize.1
  pname=$(basename "$page")
  "$BBSIZE" "$c" --help | awk -f "$SRCDIR/tests/help_opts.awk" >"$T/help.all"
  twice=$(cut -f1 "$T/help.all" | sort | uniq -d | paste -sd ' ' -)
  [ -z "$twice" ] && ok "$c --help lists each option once" \
    || notok "$c --help lists each option once (twice: $twice)"
  sort -u "$T/help.all" >"$T/help.$c"
  awk -f "$SRCDIR/tests/man_opts.awk" "$page" >"$T/page"
  base=$(base_args "$c")
  if [ -n "$base" ]; then
    # shellcheck disable=SC2086
    "$BBSIZE" $base -q >"$T/base.out" 2>/dev/null || base=""
  fi
  while IFS=$tab read -r o d; do
    if grep -q "^$o$tab" "$T/page"; then f=$T/page where=$pname
    elif grep -q "^$o$tab" "$T/shared"; then f=$T/shared where="bbsize.1 (shared options)"
    else notok "$c --$o is in $pname"; continue; fi
    if [ -z "$d" ]; then ok "$c --$o is in $where"; continue; fi
    want=$(printf '%s' "$d" | tr -d ' ')
    if grep "^$o$tab" "$f" | cut -f2 | tr -d ' ' | grep -qxF -- "$want"; then
      ok "$c --$o: $where states its default, $d"
    else
      notok "$c --$o: --help says default '$d', $where says '$(grep "^$o$tab" "$f" | cut -f2 | paste -sd '|' -)'"
    fi
    [ -n "$base" ] || continue
    case " $base " in *" --$o "*) continue ;; esac   # set by the run itself
    extra=$(ctx_args "$c" "$o")
    ref=$T/base.out
    if [ -n "$extra" ]; then
      ref=$T/ctx.out
      # shellcheck disable=SC2086
      "$BBSIZE" $base $extra -q >"$ref" 2>/dev/null || { notok "$c $extra runs"; continue; }
    fi
    rc=0
    # shellcheck disable=SC2086
    "$BBSIZE" $base $extra -q "--$o=$d" >"$T/opt.out" 2>"$T/err" || rc=$?
    if [ "$rc" -eq 64 ]; then
      t_skip "$c --$o=$d is the default used" "a default in words, not a value"
    elif [ "$rc" -eq 0 ] && cmp -s "$ref" "$T/opt.out"; then
      ok "$c --$o=$d is the default used"
    else
      notok "$c --$o=$d is the default used (exit $rc; output differs from the run without it)"
      diff "$T/base.out" "$T/opt.out" | head -n 6 | sed 's/^/# /'
    fi
  done <"$T/help.$c"
done
t_done
