#!/usr/bin/env python3
"""Error and cost of selective searches, for one or more othbook binaries (e.g. before and
after a ProbCut recalibration), against a deeper reference search.

Positions: from a WTHOR (or any) game file, every STRIDE-th game, at ply 16 + (i mod 15)
(plies 16-30). Each position is searched by `othbook analyze MOVES --depth D --selectivity S
--threads 1 --no-book` for every D and S, the binaries taking turns (ABBA order, so that a
change of load hits both alike). The reference is one deeper search per position (by default
depth 22 at 99%, with --ref-binary), cached in a TSV so reruns reuse it.

Prints, per binary, depth and selectivity: mean absolute error in discs against the
reference, mean search time (the engine's own), mean nodes; and writes every result to
--raw.

Example:
  nice -n 10 scripts/probcut_error.py --bin old=/tmp/othbook-old --bin new=target/release/othbook \\
      --games ../shared/data/wthor/WTH_1995.wtb --count 60 --ref-cache /tmp/ref.tsv
"""

import argparse
import re
import subprocess
import sys

BEST = re.compile(r"^best: (\S+) ([+-]?\d+(?:\.\d+)?) \((?:depth \d+|[^)]*)\), (\d+) nodes in ([\d.]+) s")


def positions(binary, games, count, stride):
    out = subprocess.run(
        [binary, "games", "convert", games, "--to", "moves", "-o", "-"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    picked = []
    for i in range(count):
        g = i * stride
        if g >= len(out):
            sys.exit(f"only {len(out)} games in {games}: lower --count or --stride")
        moves = out[g].split()[0]
        ply = 16 + i % 15
        picked.append(moves[: 2 * ply])
    return picked


def analyze(binary, moves, depth, sel, hash_mb):
    cmd = [binary, "analyze", moves, "--depth", str(depth), "--selectivity", str(sel),
           "--threads", "1", "--no-book", "--hash", str(hash_mb)]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in text.splitlines():
        m = BEST.match(line)
        if m:
            return float(m.group(2)), int(m.group(3)), float(m.group(4))
    sys.exit(f"no result line from {' '.join(cmd)}:\n{text}")


def load_cache(path):
    cache = {}
    try:
        with open(path) as f:
            for line in f:
                key, score = line.rstrip("\n").rsplit("\t", 1)
                cache[key] = float(score)
    except FileNotFoundError:
        pass
    return cache


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", action="append", required=True, help="LABEL=PATH, once per binary")
    ap.add_argument("--games", default="../shared/data/wthor/WTH_1995.wtb")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--stride", type=int, default=79)
    ap.add_argument("--depths", default="14,18")
    ap.add_argument("--selectivities", default="73,87,100")
    ap.add_argument("--ref-depth", type=int, default=22)
    ap.add_argument("--ref-selectivity", default="99")
    ap.add_argument("--ref-binary", help="binary for the reference (default: the first --bin)")
    ap.add_argument("--ref-cache", default="probcut_ref.tsv")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--raw", default="probcut_raw.tsv")
    ap.add_argument("--exact-once", action="store_true",
                    help="at selectivity 100 search with the first binary only and count it for all "
                         "(the ProbCut table is not read there, so the binaries search alike)")
    ap.add_argument("--reference-only", action="store_true", help="compute (cache) the references and stop")
    args = ap.parse_args()

    bins = [tuple(b.split("=", 1)) for b in args.bin]
    ref_bin = args.ref_binary or bins[0][1]
    depths = [int(d) for d in args.depths.split(",")]
    sels = args.selectivities.split(",")
    pos = positions(bins[0][1], args.games, args.count, args.stride)

    cache = load_cache(args.ref_cache)
    ref = {}
    with open(args.ref_cache, "a") as f:
        for i, mv in enumerate(pos):
            key = f"{mv}\t{args.ref_depth}\t{args.ref_selectivity}"
            if key not in cache:
                score, nodes, secs = analyze(ref_bin, mv, args.ref_depth, args.ref_selectivity, args.hash)
                cache[key] = score
                f.write(f"{key}\t{score}\n")
                f.flush()
                print(f"reference {i + 1}/{len(pos)}: {score:+.2f} ({nodes} nodes, {secs:.1f} s)", file=sys.stderr)
            ref[mv] = cache[key]

    if args.reference_only:
        return
    results = {}  # (label, depth, sel) -> list of (err, nodes, secs)
    with open(args.raw, "w") as raw:
        raw.write("binary\tdepth\tselectivity\tmoves\tscore\treference\tnodes\tseconds\n")
        for i, mv in enumerate(pos):
            order = bins if i % 2 == 0 else bins[::-1]
            for d in depths:
                for s in sels:
                    if args.exact_once and s in ("100", "exact"):
                        score, nodes, secs = analyze(bins[0][1], mv, d, s, args.hash)
                        for label, _ in bins:
                            results.setdefault((label, d, s), []).append((abs(score - ref[mv]), nodes, secs))
                            raw.write(f"{label}\t{d}\t{s}\t{mv}\t{score}\t{ref[mv]}\t{nodes}\t{secs}\n")
                        continue
                    for label, path in order:
                        score, nodes, secs = analyze(path, mv, d, s, args.hash)
                        results.setdefault((label, d, s), []).append((abs(score - ref[mv]), nodes, secs))
                        raw.write(f"{label}\t{d}\t{s}\t{mv}\t{score}\t{ref[mv]}\t{nodes}\t{secs}\n")
            raw.flush()
            print(f"position {i + 1}/{len(pos)} done", file=sys.stderr)

    print(f"{len(pos)} positions (plies 16-30 of {args.games}), reference depth "
          f"{args.ref_depth} at {args.ref_selectivity}%, 1 thread, no book")
    print("| binary | depth | selectivity | error (mean, discs) | time a position | nodes a position |")
    print("|---|---|---|---|---|---|")
    for d in depths:
        for s in sels:
            for label, _ in bins:
                r = results[(label, d, s)]
                n = len(r)
                print(f"| {label} | {d} | {s} | {sum(x[0] for x in r) / n:.2f} | "
                      f"{sum(x[2] for x in r) / n:.3f} s | {sum(x[1] for x in r) / n:,.0f} |")


if __name__ == "__main__":
    main()
