# man_opts.awk: the options a man page documents in tagged paragraphs
# (.TP, then a tag line naming one or more --options), one line per
# option and default stated: "NAME<TAB>DEFAULT", DEFAULT as in
# help_opts.awk, read from the paragraph's text (roff escapes and font
# macros removed); "NAME<TAB>" when the paragraph states none.  The
# paragraph ends at the next .TP, .SH, .SS, .PP or .P.  Used by
# tests/cli_helpman.sh.
# SPDX-License-Identifier: GPL-3.0-or-later
function unroff(s) {
  gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\e/, "\\", s)
  gsub(/\\&/, "", s); gsub(/\\\(dq/, "\"", s); gsub(/\\\(aq/, "'", s)
  return s
}
function text(s) {
  if (s ~ /^\.(B|I|BI|IB|BR|RB|IR|RI|SM) /) { sub(/^\.[A-Z]+ /, "", s); gsub(/"/, "", s) }
  else if (s ~ /^[.']/) return ""
  return unroff(s)
}
function flush(   i, n, names, d, v, found) {
  if (opts == "") return
  d = body; gsub(/[ \t]+/, " ", d); found = 0
  n = split(opts, names, " ")
  while (match(d, /[(;,] ?default:? ([^);,:]|,[^ );,:])*/)) {
    v = substr(d, RSTART, RLENGTH); d = substr(d, RSTART + RLENGTH)
    sub(/^[(;,] ?default:? /, "", v); sub(/ +$/, "", v)
    for (i = 1; i <= n; i++) print names[i] "\t" v
    found = 1
  }
  if (!found) for (i = 1; i <= n; i++) print names[i] "\t"
  opts = ""; body = ""
}
/^\.TP/ { flush(); tag = 1; next }
tag {
  tag = 0; t = unroff($0); opts = ""; body = ""
  while (match(t, /--[a-z0-9][a-z0-9-]*/)) {
    opts = opts " " substr(t, RSTART + 2, RLENGTH - 2)
    t = substr(t, RSTART + RLENGTH)
  }
  sub(/^ /, "", opts)
  next
}
/^\.(SH|SS|PP|P|LP)( |$)/ { flush(); next }
opts != "" { body = body " " text($0) }
END { flush() }
