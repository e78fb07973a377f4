# tests/circles.awk: the circles between object files, from `nm -A` of
# the built libraries (tests/circles.sh).
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Input: lines "LIBRARY:OBJECT:[ADDRESS] TYPE SYMBOL" (GNU nm -A on
# archives).  Object A uses object B when A leaves undefined a symbol that
# B defines (one library or several).  Output: one line per strongly
# connected component of two or more objects, its members as LIB:OBJ,
# sorted, separated by spaces: a circle of files that call each other.
# The components come from the transitive closure (Warshall): a few
# hundred objects at most.
BEGIN { nn = 0 }
{
  n3 = split($1, f, ":")
  lib = f[1]; sub(/.*\//, "", lib); sub(/\.a$/, "", lib)
  obj = f[2]; sub(/\.o$/, "", obj); sub(/^lib[a-z]*_a-/, "", obj)
  if (obj == "") next
  node = lib ":" obj
  type = $(NF - 1); sym = $NF
  if (!(node in id)) { id[node] = nn; name[nn] = node; nn++ }
  if (type == "U") { nu[node]++; use[node, nu[node]] = sym }
  else if (type ~ /^[TDBRCGSVW]$/) def[sym] = node
}
END {
  for (i = 0; i < nn; i++) {
    a = name[i]
    for (k = 1; k <= nu[a]; k++) {
      s = use[a, k]
      if ((s in def) && def[s] != a) r[i, id[def[s]]] = 1
    }
  }
  for (k = 0; k < nn; k++)
    for (i = 0; i < nn; i++)
      if ((i, k) in r)
        for (j = 0; j < nn; j++)
          if ((k, j) in r) r[i, j] = 1
  for (i = 0; i < nn; i++) {
    if ((i in done) || !((i, i) in r)) continue
    m = 0
    for (j = i; j < nn; j++)
      if (j == i || (((i, j) in r) && ((j, i) in r))) { done[j] = 1; c[++m] = name[j] }
    # sort the members (insertion sort: components are small)
    for (p = 2; p <= m; p++) {
      v = c[p]; q = p - 1
      while (q >= 1 && c[q] > v) { c[q + 1] = c[q]; q-- }
      c[q + 1] = v
    }
    line = c[1]
    for (p = 2; p <= m; p++) line = line " " c[p]
    print line
  }
}
