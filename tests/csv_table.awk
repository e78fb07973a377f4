# csv_table.awk: exit 0 when the input is one CSV table (docs/json.md):
# a header of unique names (a letter, then letters, digits and '_'), then
# rows with as many fields as the header (RFC 4180 quoting: a comma inside
# double quotes does not separate), no blank line, no "nan" or "inf"
# (an absent value is an empty field); else print the first fault and
# exit 1.  Used by tests/cli_csv.sh.
# SPDX-License-Identifier: GPL-3.0-or-later
function split_csv(line, f,   n, i, c, q, cur) {
  n = 0; q = 0; cur = ""
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (c == "\"") { q = !q; continue }
    if (c == "," && !q) { f[++n] = cur; cur = ""; continue }
    cur = cur c
  }
  f[++n] = cur
  return q ? -1 : n
}
function bad(msg) { print FILENAME ":" FNR ": " msg; fault = 1; exit 1 }
NR == 1 {
  nh = split_csv($0, h)
  if (nh < 1) bad("no header")
  for (i = 1; i <= nh; i++) {
    if (h[i] !~ /^[A-Za-z][A-Za-z0-9_]*$/) bad("header field " i " '" h[i] "' is not a name")
    if (h[i] in seen) bad("header names '" h[i] "' twice")
    seen[h[i]] = 1
  }
  next
}
$0 == "" { bad("a blank line (a second table?)") }
{
  n = split_csv($0, f)
  if (n < 0) bad("a quote left open")
  if (n != nh) bad(n " fields, the header has " nh)
  for (i = 1; i <= n; i++)
    if (tolower(f[i]) ~ /^[-+]?(nan|inf|infinity)$/) bad("field " h[i] " is '" f[i] "' (absent is empty)")
  rows++
}
END {
  if (fault) exit 1
  if (NR == 0) { print FILENAME ": empty"; exit 1 }
  if (rows == 0) { print FILENAME ": a header and no row"; exit 1 }
}
