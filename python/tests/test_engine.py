"""othbook.Engine: searches, solves, errors, the GIL released during a search, Ctrl-C."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import othbook


def first_moves_until(empties: int = 0) -> othbook.Board:
    """The board reached by always playing the first legal move (passing when there is
    none) until `empties` squares are left or the game ends."""
    b = othbook.Board()
    while b.empties > empties and not b.game_over:
        b = b.play(b.moves()[0] if b.moves() else "pass")
    return b


def test_analyze_to_a_depth():
    e = othbook.Engine(hash_mb=16)
    a = e.analyze("f5d6c3", depth=6)
    assert a.best_move in othbook.Board.from_moves("f5d6c3").moves()
    assert a.kind == "midgame" and a.depth == 6 and a.complete and not a.passed
    assert a.pv[0] == a.best_move and a.nodes > 0
    multi = e.analyze(othbook.Board.from_moves("f5d6c3"), depth=4, multipv=3, selectivity="exact")
    assert len(multi.lines) == 3 and multi.lines[0].move == multi.best_move
    assert e.analyze("f5", depth=4, threads=2, selectivity=95).depth == 4


def test_solve_is_exact_and_agrees_with_a_deep_analyze():
    b = first_moves_until(14)
    assert b.empties == 14 and not b.game_over
    e = othbook.Engine(hash_mb=16)
    s = e.solve(b)
    assert s.kind == "exact" and s.complete and s.score == int(s.score)
    assert e.analyze(b, depth=60).score == s.score
    w = e.solve(b, wld=True)
    assert w.kind == "wld" and (w.score > 0) == (s.score > 0) and (w.score < 0) == (s.score < 0)


def test_engine_errors_name_the_option():
    e = othbook.Engine(hash_mb=1)
    with pytest.raises(othbook.ArgumentError, match="depth 0 is out of range: use 1 to 60"):
        e.analyze("f5", depth=0)
    with pytest.raises(othbook.ArgumentError, match="time"):
        e.analyze("f5", time=-1)
    with pytest.raises(othbook.ArgumentError, match="selectivity"):
        e.analyze("f5", depth=2, selectivity=50)
    with pytest.raises(othbook.ArgumentError, match="threads must be at least 1"):
        e.analyze("f5", depth=2, threads=0)
    with pytest.raises(othbook.ArgumentError, match="55 empties"):
        e.solve("f5d6c3d3c4")
    with pytest.raises(othbook.ArgumentError, match="hash"):
        othbook.Engine(hash_mb=0)
    board = first_moves_until(0)
    assert board.game_over
    with pytest.raises(othbook.PositionError, match="the game is over"):
        e.analyze(board, depth=2)


def test_a_search_releases_the_gil():
    e = othbook.Engine(hash_mb=16)
    done = threading.Event()
    ticks = 0

    def search():
        e.analyze("f5d6c3", time=1.0)
        done.set()

    t = threading.Thread(target=search)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.005)
    t.join()
    # Holding the GIL for its second, the search would have let this loop run about once.
    assert ticks > 20


def test_ctrl_c_stops_a_long_search():
    # Python only turns SIGINT into KeyboardInterrupt when SIGINT was not ignored at its start,
    # and a job started in the background by a non-interactive shell (as CI runners may)
    # inherits it ignored: the child asks for Python's own handler, as an interactive
    # program has it.
    code = (
        "import othbook, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('searching', flush=True)\n"
        "try:\n"
        "    othbook.Engine(hash_mb=16).analyze(othbook.Board(), depth=40)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(7)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "searching"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    # A generous guard (no speed check): a depth-40 search would run for hours.
    out, _ = child.communicate(timeout=120)
    assert "interrupted" in out and child.returncode == 7
