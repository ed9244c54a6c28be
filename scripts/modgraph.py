#!/usr/bin/env python3
"""Print othbook's module import graph and find cycles and upward imports.

Reads every `.rs` file under src/ (the library, rooted at src/lib.rs, and the binary, rooted
at src/main.rs, whose `cli` tree reaches the library as `othbook::`), follows the paths in
`use` statements and in code (`crate::`, `super::`, `self::`, `othbook::`, and a child
module's name), and resolves each to the file that defines the named item: a `pub use` in a
facade is followed to where the item really lives, so a facade that only re-exports is not
an edge target.

Printed, in this order:
  1. the top-level graph: for each top-level module, the modules it imports (file counts);
  2. cycles: strongly connected sets of files (two or more files importing each other,
     directly or in a loop);
  3. upward imports: a file importing an item *defined* in one of its own ancestor modules
     (a facade that defines things), and a top-level module importing one above it in the
     layer order below.

Usage: scripts/modgraph.py [SRC_DIR]   (default: src). Exit status 1 when any cycle or
upward import is found, so it can guard a build.
"""

import os
import re
import sys
from collections import defaultdict

# Layers, highest first: a module may import only modules after it in this list. Modules in
# the same entry are peers that must not import each other. `util` names the small
# crate-wide tools every layer may use.
LAYERS = [
    ["cli"],
    ["serve", "protocol"],
    ["review"],
    ["train"],
    ["play"],
    ["teach", "games"],
    ["wire"],
    ["learn"],
    ["report"],
    ["engine"],
    ["book"],
    ["transcript"],
    ["openings"],
    ["board"],
    ["util"],
]
UTIL = {"atomic_file", "output_lock", "bounded_read", "data_file", "utc", "rng"}


def strip_code(text):
    """Blank out comments, strings and char literals, keeping offsets and newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif re.match(r'b?r(#*)"', text[i:i + 40]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            if i + 1 < n and text[i + 1] == "\\":
                j = text.find("'", i + 2)
                j = n if j < 0 else j + 1
            elif i + 2 < n and text[i + 2] == "'":
                j = i + 3
            else:
                j = i + 1  # a lifetime
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def file_modules(src):
    """Map module path (tuple) -> file, for the lib (root ()) and the binary (root ('bin',))."""
    mods = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts == ["lib"]:
                path = ()
            elif parts == ["main"]:
                path = ("bin",)
            else:
                if parts[-1] == "mod":
                    parts = parts[:-1]
                path = tuple(parts)
                if path[0] == "cli":
                    path = ("bin",) + path
            mods[path] = os.path.join(src, rel)
    return mods


def expand_use(tree):
    """Expand a use tree (`a::{b, c::{d as e}}`) into (segments, name bound) pairs."""
    tree = re.sub(r"\s+as\s+", " as ", tree.strip())
    tree = re.sub(r"\s*(::|,|\{|\})\s*", r"\1", tree)
    out = []

    def walk(prefix, t):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(t):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(t[start:i])
                start = i + 1
        parts.append(t[start:])
        for p in parts:
            if not p:
                continue
            m = re.match(r"^(.*?)::\{(.*)\}$", p, re.S)
            if m:
                walk(prefix + [s for s in m.group(1).split("::") if s], m.group(2))
            elif p.startswith("{") and p.endswith("}"):
                walk(prefix, p[1:-1])
            else:
                p, _, alias = p.partition(" as ")
                segs = prefix + [s for s in p.split("::") if s]
                out.append((segs, alias or (segs[-1] if segs else "")))

    walk([], tree)
    return out


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = file_modules(src)
        self.text = {}
        self.clean = {}
        for path, f in self.files.items():
            with open(f, encoding="utf-8") as fh:
                self.text[path] = fh.read()
            self.clean[path] = strip_code(self.text[path])
        self.inline = {}  # file path -> list of (start, end, name) inline `mod x {}` spans
        for path, clean in self.clean.items():
            spans = []
            for m in re.finditer(r"\bmod\s+(\w+)\s*\{", clean):
                depth, j = 1, m.end()
                while j < len(clean) and depth:
                    depth += {"{": 1, "}": -1}.get(clean[j], 0)
                    j += 1
                spans.append((m.start(), j, m.group(1)))
            self.inline[path] = spans
        self.reexports = {}  # module path -> {name: target path segments}
        for path, clean in self.clean.items():
            names = {}
            for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", clean):
                for segs, bound in expand_use(m.group(1)):
                    names[bound] = segs
            self.reexports[path] = names

    def context(self, path, pos):
        """Module path (with inline modules) at offset pos of file path."""
        ctx = list(path)
        for start, end, name in sorted(self.inline[path]):
            if start <= pos < end:
                ctx.append(name)
        return tuple(ctx)

    def root(self, path):
        return ("bin",) if path[:1] == ("bin",) else ()

    def absolute(self, ctx, segs, file_path):
        """Turn a path's segments into an absolute path, or None if it leaves the crate."""
        segs = list(segs)
        if not segs:
            return None
        head = segs[0]
        if head == "crate":
            return self.root(file_path) + tuple(segs[1:])
        if head == "othbook":
            return tuple(segs[1:])
        if head in ("self", "super"):
            cur = list(ctx)
            while segs and segs[0] in ("self", "super"):
                if segs.pop(0) == "super":
                    if not cur:
                        return None
                    cur.pop()
            return tuple(cur) + tuple(segs)
        # A child module of the current file's module named without a prefix.
        if tuple(ctx) + (head,) in self.files or self.is_inline_child(file_path, ctx, head):
            return tuple(ctx) + tuple(segs)
        return None

    def is_inline_child(self, file_path, ctx, head):
        return any(name == head for _, _, name in self.inline[file_path]) and ctx == file_path

    def resolve(self, abspath, seen=0):
        """The file module that defines the item at abspath (following `pub use`)."""
        p = tuple(abspath)
        # Longest prefix that is a file module.
        for k in range(len(p), -1, -1):
            if p[:k] in self.files:
                mod = p[:k]
                rest = p[k:]
                break
        else:
            return None
        if rest and seen < 8:
            target = self.reexports.get(mod, {}).get(rest[0])
            if target is not None:
                ab = self.absolute(mod, target, mod)
                if ab is not None and ab != p[:k + 1]:
                    r = self.resolve(ab + rest[1:], seen + 1)
                    if r is not None:
                        return r
        return mod

    def edges(self):
        """(from file module, to file module, line text) for every crate-internal path."""
        out = []
        for path, clean in self.clean.items():
            found = []
            for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", clean):
                for segs, _ in expand_use(m.group(2)):
                    found.append((m.start(), segs, bool(m.group(1))))
            uses = [(m.start(), m.end()) for m in re.finditer(r"\buse\s+([^;]+);", clean)]
            for m in re.finditer(r"(?<![\w:])((?:crate|super|self|othbook)(?:\s*::\s*\w+)+)", clean):
                if any(a <= m.start() < b for a, b in uses):
                    continue
                found.append((m.start(), re.sub(r"\s", "", m.group(1)).split("::"), False))
            for pos, segs, reexport in found:
                if segs and segs[-1] == "*":
                    segs = segs[:-1]
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                ctx = self.context(path, pos)
                ab = self.absolute(ctx, segs, path)
                if ab is None:
                    continue
                target = self.resolve(ab)
                if target is None or target == path:
                    continue
                if reexport and target[:len(path)] == path:
                    continue  # a facade re-exporting its own child is not a dependency
                line = self.text[path].count("\n", 0, pos) + 1
                out.append((path, target, line, ab))
        return sorted(set(out))


def name(path):
    if path == ():
        return "lib"
    if path == ("bin",):
        return "main"
    if path[0] == "bin":
        path = path[1:]
    return "::".join(path)


def top(path):
    if path in ((), ("bin",)):
        return name(path)
    p = path[1:] if path[0] == "bin" else path
    return p[0]


def layer(mod):
    if mod in UTIL:
        mod = "util"
    for i, group in enumerate(LAYERS):
        if mod in group:
            return i
    return None


def sccs(nodes, adj):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "src"
    crate = Crate(src)
    edges = crate.edges()
    adj = defaultdict(set)
    for a, b, _, _ in edges:
        adj[a].add(b)

    print("== Top-level graph (module -> modules it imports, with the number of files) ==")
    tops = defaultdict(lambda: defaultdict(set))
    for a, b, _, _ in edges:
        ta, tb = top(a), top(b)
        if ta != tb and tb not in ("lib", "main"):
            tops[ta][tb].add(a)
    for ta in sorted(tops, key=lambda t: (layer(t) if layer(t) is not None else -1, t)):
        deps = ", ".join(f"{tb}({len(fs)})" for tb, fs in sorted(tops[ta].items(), key=lambda kv: (layer(kv[0]) or 0, kv[0])))
        print(f"{ta:12} -> {deps}")

    problems = 0
    cycles = sccs(set(crate.files), adj)
    print(f"\n== Cycles (files that import each other, directly or in a loop): {len(cycles)} ==")
    for comp in sorted(cycles, key=lambda c: sorted(map(name, c))):
        problems += 1
        comp_set = set(comp)
        print(f"- {len(comp)} files: " + ", ".join(sorted(map(name, comp))))
        for a, b, line in sorted({(a, b, line) for a, b, line, _ in edges}):
            if a in comp_set and b in comp_set:
                print(f"    {name(a)} -> {name(b)}   ({crate.files[a]}:{line})")

    print("\n== Upward imports ==")
    ups = []
    for a, b, line, ab in edges:
        # A `tests` child reads its parent by design.
        inner = a[:len(b)] == b and len(b) < len(a) and b not in ((), ("bin",)) and a[-1] != "tests"
        if inner:
            ups.append(f"{crate.files[a]}:{line}: {name(a)} uses {'::'.join(ab)} defined in its ancestor {name(b)}")
        la, lb = layer(top(a)), layer(top(b))
        if la is not None and lb is not None and top(a) != top(b) and lb <= la:
            what = "above" if lb < la else "beside"
            ups.append(f"{crate.files[a]}:{line}: {name(a)} ({top(a)}) imports {name(b)} ({top(b)}), a layer {what} it")
    # Files that import each other directly are cycles already; report distinct lines once.
    seen = set()
    for u in sorted(ups):
        if u not in seen:
            seen.add(u)
            print(u)
    problems += len(seen)
    total = sum(1 for u in seen if "ancestor" in u)
    print(f"({total} imports from an ancestor facade, {len(seen) - total} across layers)")
    super_super = sum(t.count("super::super") for t in crate.clean.values())
    print(f"`super::super` in code: {super_super}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
