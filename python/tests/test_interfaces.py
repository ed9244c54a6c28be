"""The Python package, the C library (examples/c/probe.c) and the command line
(`othbook explore --format json`) give the same answers on the same positions, and the same
error messages."""

import json
import math
import subprocess

import pytest

import othbook

LINES = [
    "f5",
    "f5d6",
    "f5d6c3",
    "d3c5",  # the same position as f5d6 in another orientation
    "f5f6e6f4",
    "f5d6c3d3c4f4f6f3e6e7",
    "f5f6e6f4g4d6f7h4h3f8h5",  # white must pass
    "f5f4e3f6d3c5g4",  # not in the book
    "e6f4c3c4d3",
]


def explore_json(cli, line):
    out = subprocess.run(
        [str(cli), "explore", line, "--format", "json"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def c_answers(c_probe, lines):
    """The C example's answers: {line: (position fields, [move fields])}."""
    out = subprocess.run([str(c_probe), *lines], capture_output=True, text=True, check=True)
    answers = {}
    current = None
    for row in out.stdout.splitlines():
        if row.startswith("  move="):
            answers[current][1].append(dict(kv.split("=", 1) for kv in row.split()))
        else:
            line, fields = row.split(": ", 1)
            current = line
            answers[line] = (dict(kv.split("=", 1) for kv in fields.split()), [])
    return answers


def c_number(text):
    return None if text == "none" else float(text)


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, abs_tol=0.005)


@pytest.mark.parametrize("line", LINES)
def test_python_and_the_cli_agree(book, cli, line):
    want = explore_json(cli, line)
    p = book.probe(line)
    assert p.in_book == want["in_book"]
    for key in ("games", "black_wins", "draws", "white_wins", "unknown", "average_diff"):
        assert getattr(p, key) == want[key], key
    assert p.value == want.get("value")
    assert p.depth == want.get("value_depth")
    assert p.kind == want.get("value_kind")
    rows = book.moves(line)
    assert [r.move for r in rows] == [m["move"] for m in want["moves"]]
    for r, m in zip(rows, want["moves"]):
        for key in ("games", "share", "black_wins", "draws", "white_wins", "average_diff", "value", "best"):
            assert getattr(r, key) == m.get(key), (r.move, key)
        assert r.depth == m.get("value_depth") and r.kind == m.get("value_kind")
        assert r.equivalent == m.get("equivalent", [])


def test_c_and_python_agree(book, c_probe):
    answers = c_answers(c_probe, LINES)
    assert set(answers) == set(LINES)
    for line in LINES:
        pos, moves = answers[line]
        p = book.probe(line)
        assert bool(int(pos["in_book"])) == p.in_book, line
        for key in ("games", "black_wins", "draws", "white_wins", "unknown"):
            assert int(pos[key]) == getattr(p, key), (line, key)
        assert same(c_number(pos["average_diff"]), p.average_diff), line
        assert same(c_number(pos["value"]), p.value), line
        assert (None if pos["depth"] == "none" else int(pos["depth"])) == p.depth, line
        assert (None if pos["kind"] == "none" else pos["kind"]) == p.kind, line
        rows = book.moves(line)
        assert [m["move"] for m in moves] == [r.move for r in rows], line
        for m, r in zip(moves, rows):
            assert (None if m["games"] == "none" else int(m["games"])) == r.games, (line, r.move)
            assert same(c_number(m["value"]), r.value), (line, r.move)
            assert bool(int(m["best"])) == r.best, (line, r.move)


@pytest.mark.parametrize("line", ["f5f5", "f5z9", "f5 d6 c3 c3"])
def test_the_three_say_the_same_error(book, cli, c_probe, line):
    out = subprocess.run([str(cli), "explore", line], capture_output=True, text=True)
    assert out.returncode == 2
    message = out.stderr.strip().removeprefix("othbook: ")
    with pytest.raises(othbook.PositionError) as e:
        book.probe(line)
    assert str(e.value) == message
    c = subprocess.run([str(c_probe), line], capture_output=True, text=True)
    assert c.returncode == 1 and c.stderr.strip() == f"probe: {message}"


def test_a_search_from_c_matches_python(c_probe):
    out = subprocess.run([str(c_probe), "--depth", "6", "f5d6c3"], capture_output=True, text=True, check=True)
    search = next(r for r in out.stdout.splitlines() if r.startswith("search "))
    fields = dict(kv.split("=", 1) for kv in search.split(": ", 1)[1].split(" pv=")[0].split())
    a = othbook.Engine(hash_mb=16).analyze("f5d6c3", depth=6)
    assert fields["best"] == a.best_move and float(fields["score"]) == pytest.approx(a.score, abs=0.005)
    assert int(fields["depth"]) == a.depth and fields["kind"] == a.kind
