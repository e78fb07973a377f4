# help_opts.awk: the long options of an argp --help text, one line each:
# "NAME<TAB>DEFAULT", DEFAULT the value the help states after "(default",
# "; default" or ", default" (up to the next ')', ';', ':' or ', '; a
# comma with no space after it is part of a list, "exe,nprocs"; an
# opening ':' is skipped), empty when it states none.  --help, --usage and
# --version are left out.  Used by tests/cli_helpman.sh.
# SPDX-License-Identifier: GPL-3.0-or-later
function default_of(d,   v) {
  gsub(/[ \t]+/, " ", d)
  if (!match(d, /[(;,] ?default:? ([^);,:]|,[^ );,:])*/)) return ""
  v = substr(d, RSTART, RLENGTH)
  sub(/^[(;,] ?default:? /, "", v); sub(/ +$/, "", v)
  return v
}
function flush(   i, n, names, v) {
  if (opts == "") return
  v = default_of(desc)
  n = split(opts, names, " ")
  for (i = 1; i <= n; i++) print names[i] "\t" v
  opts = ""; desc = ""
}
# An option line: "  -o, --output=FILE   text" or "      --json   text"
# (the text may start on the next line when the option is long).
/^  (-[^- ], |    )--[a-z0-9]/ {
  flush()
  left = $0; desc = ""
  if (match($0, /^ +(-[^ ], )?--[^ ]+  +/)) {
    left = substr($0, 1, RLENGTH); desc = substr($0, RLENGTH + 1)
  }
  opts = ""
  while (match(left, /--[a-z0-9][a-z0-9-]*/)) {
    opts = opts " " substr(left, RSTART + 2, RLENGTH - 2)
    left = substr(left, RSTART + RLENGTH)
  }
  sub(/^ /, "", opts)
  if (opts ~ /^(help|usage|version)$/) opts = ""
  next
}
/^                     +[^ ]/ && opts != "" { desc = desc " " $0; next }
{ flush() }
END { flush() }
