# examples.awk: the command examples of one document, for tests/examples.sh.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: awk -v out=DIR -v roff=0|1 -f examples.awk FILE
#
# Markdown (roff=0): every fenced block (```).  Man pages (roff=1): the
# .nf/.fi and .EX/.EE blocks of the EXAMPLE(S) section, roff escapes
# undone (\- \e \& \(aq \(dq).  A marker before a block says what it is:
#   Markdown: <!-- not run: REASON -->    <!-- file: NAME -->
#   roff:     .\" not run: REASON         .\" file: NAME
# "not run" leaves the block out (the reason is required); "file" makes the
# block the content of file NAME in the scratch directory.  Without a
# marker, a Markdown block is run when its info string is console (commands
# after "$ ", each followed by the output it prints) or sh (a script that
# must succeed); a man-page block is a console block when a line starts
# with "$ ", else a script.  Any other block that holds a command line
# ("$ " or "bbsize " at its start) is an error: every command example is
# run or marked.
#
# Output in DIR: "list", one line per block, tab-separated:
#   N  KIND  LINE  ARG     KIND: console, sh, file, skip or bad
# (ARG: the file name, the reason, or what is wrong), and N.body, the
# block's text.  A console block is split further into N.K.cmd (a command,
# continuation lines ending in \ kept) and N.K.exp (its output), K = 1...
function unroff(s) {
  gsub(/\\-/, "-", s); gsub(/\\\(aq/, "'", s); gsub(/\\\(dq/, "\"", s)
  gsub(/\\&/, "", s); gsub(/\\e/, "\\", s)
  return s
}
function marker(s,   m) {
  m = s
  if (roff) { if (m !~ /^\.\\" *(not run|file):/) return 0; sub(/^\.\\" */, "", m); m = unroff(m) }
  else { if (m !~ /^<!-- *(not run|file):.*-->[ \t]*$/) return 0
         sub(/^<!-- */, "", m); sub(/ *-->[ \t]*$/, "", m) }
  if (m ~ /^not run:/) { mkind = "skip"; sub(/^not run: */, "", m) }
  else { mkind = "file"; sub(/^file: */, "", m) }
  marg = m; mline = FNR
  if (marg == "") { mkind = "bad"; marg = "a marker without its reason or file name" }
  return 1
}
function begin_block(info) {
  n++; inblock = 1; start = FNR; nlines = 0
  binfo = info
  bkind = mkind; barg = marg
  mkind = ""; marg = ""
}
function end_block(   i, k, kind, arg, body, cmd, c, has) {
  inblock = 0
  body = out "/" n ".body"
  printf "" > body
  has = 0
  for (i = 1; i <= nlines; i++) {
    print L[i] > body
    if (L[i] ~ /^\$ / || L[i] ~ /^[ \t]*bbsize /) has = 1
  }
  close(body)
  kind = bkind; arg = barg
  if (kind == "") {
    if (roff) kind = (nlines > 0 && dollar()) ? "console" : "sh"
    else if (binfo == "console") kind = "console"
    else if (binfo == "sh") kind = "sh"
    else if (has) { kind = "bad"; arg = "a command in a block that is neither run (console, sh) nor marked 'not run'" }
    else kind = "text"
  }
  if (kind == "console" && !dollar()) { kind = "bad"; arg = "a console block without a '$ ' command" }
  if (kind == "text") return
  printf "%d\t%s\t%d\t%s\n", n, kind, start, arg > (out "/list")
  if (kind != "console") return
  k = 0; cmd = 0
  for (i = 1; i <= nlines; i++) {
    if (!cmd && L[i] ~ /^\$ /) {
      k++; c = out "/" n "." k
      printf "" > (c ".exp"); close(c ".exp")
      print substr(L[i], 3) > (c ".cmd")
      cmd = (L[i] ~ /\\$/)
      if (!cmd) close(c ".cmd")
    } else if (cmd) {
      print L[i] > (c ".cmd")
      cmd = (L[i] ~ /\\$/)
      if (!cmd) close(c ".cmd")
    } else {
      print L[i] >> (c ".exp")
    }
  }
  if (k) { close(c ".cmd"); close(c ".exp") }
}
function dollar(   i) {
  for (i = 1; i <= nlines; i++) if (L[i] ~ /^\$ /) return 1
  return 0
}
BEGIN { n = 0; inblock = 0; insec = !roff; mkind = ""; marg = "" }
roff && /^\.SH / { insec = ($0 ~ /^\.SH "?EXAMPLES?"?[ \t]*$/); next }
!insec { next }
inblock && !roff && /^[ \t]*```/ { end_block(); next }
inblock && roff && /^\.(fi|EE)([ \t]|$)/ { end_block(); next }
inblock { L[++nlines] = roff ? unroff($0) : $0; next }
!roff && /^[ \t]*```/ { info = $0; sub(/^[ \t]*```[ \t]*/, "", info); sub(/[ \t].*$/, "", info); begin_block(info); next }
roff && /^\.(nf|EX)([ \t]|$)/ { begin_block(""); next }
marker($0) { next }
# A marker holds for the next block: only blank lines and roff requests
# may come between them.
mkind != "" && !/^[ \t]*$/ && !(roff && /^[.']/) {
  printf "%d\tbad\t%d\t%s\n", ++n, mline, "a marker not followed by a block" > (out "/list")
  mkind = ""; marg = ""
}
roff && (/^\.B +bbsize / || /^bbsize /) {
  printf "%d\tbad\t%d\t%s\n", ++n, FNR, "a command outside an .nf/.EX block" > (out "/list")
}
END { if (inblock) printf "%d\tbad\t%d\t%s\n", ++n, start, "a block that never ends" > (out "/list") }
