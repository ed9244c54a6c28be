#!/usr/bin/env python3
"""Checks a ProbCut calibration from its samples (`othbook calibrate probcut --samples FILE`).

1. Stability: for every midgame pair (d, d') and endgame count, sigma of the fit on all
   samples, on the even- and odd-numbered halves, and its standard error
   sigma / sqrt(2 (n - 2)).
2. Extrapolation: per band, sigma (discs) of the pairs (d - g, d) at a fixed gap g as d grows;
   a sigma that shrinks as both searches deepen means that a deeper node borrowing the
   deepest pair of its gap is cut conservatively.

Example: scripts/probcut_samples.py samples.tsv
"""

import math
import sys

SCALE = 100.0


def mid_shallow(d):
    s = 2 * (d // 4) + (d & 1)
    return s if s else max(d - 2, 0)


def end_shallow(e):
    return min(max((e - 8) // 2, 2), 10)


def fit(points):
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    a = sxy / sxx if n >= 3 and sxx > 0 else 1.0
    b = my - a * mx if n >= 3 and sxx > 0 else 0.0
    ss = sum((y - a * x - b) ** 2 for x, y in points)
    return a, b, math.sqrt(ss / max(n - 2, 1))


def main():
    mid, end = {}, {}
    with open(sys.argv[1]) as f:
        for line in f:
            t = line.split()
            if t[0] == "mid":
                mid.setdefault(int(t[1]), []).append([0] + [int(v) for v in t[2:]])
            else:
                end.setdefault(int(t[1]), []).append((int(t[2]), int(t[3])))
    print("stability: sigma in discs, all / even half / odd half (standard error)")
    for band in sorted(mid):
        rows = mid[band]
        top = len(rows[0]) - 1
        cells = []
        for d in range(4, top + 1):
            s = mid_shallow(d)
            pts = [(r[s], r[d]) for r in rows]
            sa = fit(pts)[2] / SCALE
            se = sa / math.sqrt(2 * (len(pts) - 2))
            s0 = fit(pts[0::2])[2] / SCALE
            s1 = fit(pts[1::2])[2] / SCALE
            cells.append(f"{d}<-{s}: {sa:.2f}/{s0:.2f}/{s1:.2f} (±{se:.2f})")
        print(f"band {band} (n = {len(rows)}):")
        for c in cells:
            print("   ", c)
    print("endgame:")
    for e in sorted(end):
        pts = end[e]
        sa = fit(pts)[2] / SCALE
        se = sa / math.sqrt(2 * (len(pts) - 2))
        print(f"    {e} empties <- depth {end_shallow(e)} (n = {len(pts)}): {sa:.2f}/"
              f"{fit(pts[0::2])[2] / SCALE:.2f}/{fit(pts[1::2])[2] / SCALE:.2f} (±{se:.2f})")
    print("extrapolation: sigma (discs) of the pair (d - g, d) by d, per band and gap g")
    for band in sorted(mid):
        rows = mid[band]
        top = len(rows[0]) - 1
        for g in (2, 4, 6, 8, 10):
            cells = []
            for d in range(g + 1, top + 1):
                pts = [(r[d - g], r[d]) for r in rows]
                cells.append(f"{d}:{fit(pts)[2] / SCALE:.2f}")
            print(f"band {band} gap {g:2}: " + " ".join(cells))


if __name__ == "__main__":
    main()
