#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/approx_bufferless.py W.csv [H_GBps]: the bufferless stall fraction
# of a workload (rows name,p,bw,burst[,count]; "#@ pfs-bw = X TB/s")
# under the stationary law of its phases, sum_f pi_f (r_f - B)^+ / r_f,
# by exact convolution of the classes' Binomial(count, p) laws of the
# aggregate rate on a grid of H GB/s (default 0.02): rates rounded down
# give a lower bound, rounded up an upper bound ((r - B)^+ / r grows with
# r).  An independent check of the folded model at S = 0 (docs/fluid.md):
# with waiting writers the stalled phases last longer, so the model's
# stall at S = 0 is at least this (by about r/B - 1 near B).  numpy.
import sys
from math import lgamma, log, log1p, exp

import numpy as np

UNIT = {"TB/s": 1e12, "GB/s": 1e9, "MB/s": 1e6, "B/s": 1.0}


def rate(text):
    for k in ("TB/s", "GB/s", "MB/s", "B/s"):
        if text.endswith(k):
            return float(text[: -len(k)]) * UNIT[k]
    raise SystemExit("approx_bufferless.py: bad rate %r" % text)


def main():
    apps, B = [], None
    for line in open(sys.argv[1]):
        line = line.strip()
        if line.startswith("#@") and "pfs-bw" in line:
            B = rate(line.split("=")[1].strip())
        if not line or line.startswith("#") or line.startswith("name"):
            continue
        x = line.split(",")
        apps.append((float(x[1]), rate(x[2]), int(x[4]) if len(x) > 4 else 1))
    if B is None:
        raise SystemExit("approx_bufferless.py: no #@ pfs-bw line")
    h = float(sys.argv[2]) * 1e9 if len(sys.argv) > 2 else 0.02e9
    nb = int(3 * B / h) + 2
    out = []
    for rnd in (np.floor, np.ceil):
        d = np.zeros(nb)
        d[0] = 1.0
        beyond = 0.0          # mass above 3 B: stall < 1, counted as 1 (upper)
        for p, b, c in apps:
            w = [exp(lgamma(c + 1) - lgamma(k + 1) - lgamma(c - k + 1) + k * log(p)
                     + (c - k) * log1p(-p)) for k in range(c + 1)]
            idx = rnd(np.arange(c + 1) * b / h).astype(int)
            d2 = np.zeros(nb)
            for k in range(c + 1):
                if w[k] < 1e-300:
                    continue
                s = idx[k]
                if s >= nb:
                    beyond += w[k] * d.sum()
                    continue
                d2[s:] += w[k] * d[: nb - s]
                beyond += w[k] * d[nb - s:].sum()
            d = d2
        r = np.arange(nb) * h
        stall = (d * np.where(r > B, (r - B) / np.maximum(r, 1.0), 0.0)).sum()
        out.append(stall + (beyond if rnd is np.ceil else 0.0))
    print("bufferless stall fraction in [%.4g, %.4g] (grid %.3g GB/s)" % (out[0], out[1], h / 1e9))


main()
