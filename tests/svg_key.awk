# svg_key.awk: does a gnuplot SVG plot's key (legend) cover a curve or a
# label?  Input: the SVG with one element per line (tests/cli_report.sh
# splits it at '<').  The plot border is the first closed rectangle path,
# the key box the last one before the first class="series" group; in each
# series path the first subpath is the key's sample line and the others are
# the curve (checked at its vertices and 15 points on each segment); the
# first text of a series group is its key entry.  Texts are boxed from their anchor, font size 13 and 7.2 px per
# character (0.55 em, sans).  Fails (exit 1, one "# " line per finding)
# when a curve vertex lies in the key box, when the key box overlaps the
# plot area, when a label outside the key overlaps it, or when a key entry
# is not inside it (the key was not found).
# SPDX-License-Identifier: GPL-3.0-or-later
function rect(d, r,   n, t, i, xs, ys) {
    if (d !~ /Z/) return 0
    gsub(/[MLZ]/, " ", d)
    n = split(d, t, /[ ,]+/)
    xs = ""; k = 0
    for (i = 1; i <= n; i++) if (t[i] != "") v[++k] = t[i] + 0
    if (k != 10) return 0
    r["x0"] = r["x1"] = v[1]; r["y0"] = r["y1"] = v[2]
    for (i = 1; i <= 9; i += 2) {
        if (v[i] < r["x0"]) r["x0"] = v[i]; if (v[i] > r["x1"]) r["x1"] = v[i]
        if (v[i+1] < r["y0"]) r["y0"] = v[i+1]; if (v[i+1] > r["y1"]) r["y1"] = v[i+1]
    }
    return 1
}
function overlap(ax0, ax1, ay0, ay1, bx0, bx1, by0, by1) {
    return ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1
}
BEGIN { nb = 0; nk = 0; series = 0; entry = 0; nt = 0; np = 0; bad = 0 }
/^<path / {
    d = $0; sub(/.* d='/, "", d); sub(/'.*/, "", d)
    if (!series && rect(d, R)) {
        if (!nb) { bx0 = R["x0"]; bx1 = R["x1"]; by0 = R["y0"]; by1 = R["y1"]; nb = 1 }
        else { kx0 = R["x0"]; kx1 = R["x1"]; ky0 = R["y0"]; ky1 = R["y1"]; nk = 1 }
        next
    }
    if (series) {
        m = split(d, sub_, /M/)
        for (j = 3; j <= m; j++) {       # sub_[1] is empty, sub_[2] the key sample
            s = sub_[j]; gsub(/L/, " ", s)
            c = split(s, t, /[ ,]+/); k = 0
            for (i = 1; i <= c; i++) if (t[i] != "") w[++k] = t[i] + 0
            # the vertices and 16 points on every segment between them
            for (i = 1; i < k; i += 2) {
                px[++np] = w[i]; py[np] = w[i+1]
                if (i + 3 <= k)
                    for (f = 1; f < 16; f++) {
                        px[++np] = w[i] + (w[i+2] - w[i]) * f / 16
                        py[np] = w[i+1] + (w[i+3] - w[i+1]) * f / 16
                    }
            }
        }
    }
    next
}
/class="series"/ { series = 1; entry = 1; next }
/^<g transform="translate\(/ {
    tr = $0; sub(/^<g transform="translate\(/, "", tr); sub(/\).*/, "", tr)
    split(tr, xy, ","); tx = xy[1] + 0; ty = xy[2] + 0
    rot = ($0 ~ /rotate\(270\)/); anc = "start"
    if ($0 ~ /text-anchor="middle"/) anc = "middle"; else if ($0 ~ /text-anchor="end"/) anc = "end"
    pending = 1; next
}
/^<text>/ && pending {
    s = $0; sub(/^<text>/, "", s); sub(/ *$/, "", s)
    nt++; T[nt] = s; TX[nt] = tx; TY[nt] = ty; TR[nt] = rot; TA[nt] = anc; TS[nt] = entry
    pending = 0; entry = 0; next
}
END {
    if (!nb || !nk) { print "# no plot border or no key box found"; exit 1 }
    for (i = 1; i <= np; i++)
        if (px[i] > kx0 && px[i] < kx1 && py[i] > ky0 && py[i] < ky1) {
            printf "# curve point (%g, %g) inside the key box\n", px[i], py[i]; bad = 1
        }
    if (np == 0) { print "# no curve points found"; bad = 1 }
    if (overlap(kx0, kx1, ky0, ky1, bx0, bx1, by0, by1)) {
        printf "# key box %g..%g x %g..%g overlaps the plot area %g..%g x %g..%g\n",
            kx0, kx1, ky0, ky1, bx0, bx1, by0, by1; bad = 1
    }
    for (i = 1; i <= nt; i++) {
        wd = length(T[i]) * 7.2; h = 13
        if (TA[i] == "start") { x0 = 0; x1 = wd } else if (TA[i] == "end") { x0 = -wd; x1 = 0 }
        else { x0 = -wd / 2; x1 = wd / 2 }
        if (TR[i]) { X0 = TX[i] - 0.8 * h; X1 = TX[i] + 0.2 * h; Y0 = TY[i] + x0; Y1 = TY[i] + x1 }
        else { X0 = TX[i] + x0; X1 = TX[i] + x1; Y0 = TY[i] - 0.8 * h; Y1 = TY[i] + 0.2 * h }
        if (TS[i]) {
            if (!(TX[i] > kx0 && TX[i] < kx1 && TY[i] > ky0 && TY[i] < ky1)) {
                printf "# key entry '%s' is outside the key box\n", T[i]; bad = 1
            }
        } else if (overlap(X0, X1, Y0, Y1, kx0, kx1, ky0, ky1)) {
            printf "# label '%s' at (%g, %g) overlaps the key box\n", T[i], TX[i], TY[i]; bad = 1
        }
    }
    exit bad
}
