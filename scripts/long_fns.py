#!/usr/bin/env python3
"""List the functions of src/ longer than a limit (default 100 lines), longest first.

A function runs from its `fn` line to its closing brace; comments and strings are blanked
first (as scripts/modgraph.py does) so that braces inside them do not count.

Usage: scripts/long_fns.py [LIMIT] [SRC_DIR]. Exit status 1 when any is found.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from modgraph import strip_code  # noqa: E402


def long_functions(src, limit):
    found = []
    for dirpath, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            clean = strip_code(text)
            for m in re.finditer(r"\bfn\s+(\w+)", clean):
                open_at = clean.find("{", m.end())
                semi = clean.find(";", m.end())
                if open_at < 0 or (0 <= semi < open_at):
                    continue  # a declaration without a body
                depth, j = 0, open_at
                while j < len(clean):
                    depth += {"{": 1, "}": -1}.get(clean[j], 0)
                    if depth == 0:
                        break
                    j += 1
                start = clean.count("\n", 0, m.start()) + 1
                end = clean.count("\n", 0, j) + 1
                if end - start + 1 > limit:
                    found.append((end - start + 1, path, start, m.group(1)))
    return sorted(found, reverse=True)


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    src = sys.argv[2] if len(sys.argv) > 2 else "src"
    found = long_functions(src, limit)
    for n, path, line, name in found:
        print(f"{n:4} {path}:{line} {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
