# examples_match.awk: does an example's output match the output shown?
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: awk -f examples_match.awk SHOWN ACTUAL; exit 0 when it matches.
# Lines are compared exactly, numbers included, after trailing blanks and
# trailing empty lines are dropped, with one wildcard: "..." in a shown
# line stands for any text in that line (a timing, a path), and a shown
# line that is only "..." stands for any number of lines, none included.
function chop(s) { sub(/[ \t\r]+$/, "", s); return s }
# glob(p, s): p with "..." as the wildcard matches all of s.
function glob(p, s,   n, parts, i, pos, k) {
  if (index(p, "...") == 0) return p == s
  n = split(p, parts, /\.\.\./)
  if (substr(s, 1, length(parts[1])) != parts[1]) return 0
  pos = length(parts[1]) + 1
  for (i = 2; i < n; i++) {
    k = index(substr(s, pos), parts[i])
    if (k == 0) return 0
    pos += k - 1 + length(parts[i])
  }
  return length(s) - pos + 1 >= length(parts[n]) && substr(s, length(s) - length(parts[n]) + 1) == parts[n]
}
# m(i, j): shown lines i.. match actual lines j..
function m(i, j,   k) {
  while (i <= ne && E[i] != "...") {
    if (j > na || !glob(E[i], A[j])) return 0
    i++; j++
  }
  if (i > ne) return j > na
  for (k = j; k <= na + 1; k++) if (m(i + 1, k)) return 1
  return 0
}
FILENAME == ARGV[1] { E[++ne] = chop($0); next }
{ A[++na] = chop($0) }
END {
  while (ne > 0 && E[ne] == "") ne--
  while (na > 0 && A[na] == "") na--
  exit !m(1, 1)
}
