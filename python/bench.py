"""Probes per second from Python on the default book, one thread (issue #40's goal: at least
200,000 a second for Book.probe), on the positions benches/probe_rate.rs times through the
Rust API: every ply up to 30 of the book's 2,000 most recent games.

    python python/bench.py            # after pip install ./python
    cargo bench --features bench --bench probe_rate   # the Rust API's rate, to compare

Not a test: it prints rates, best of five passes each.
"""

import time

import othbook

GAMES = 2000
PLIES = 30


def positions(book):
    """The boards and the move lines reaching them."""
    boards, lines = [], []
    for g in book.games_find("", limit=GAMES).games:
        b = othbook.Board()
        line = ""
        tokens = [g.moves[i : i + 2] for i in range(0, len(g.moves), 2)][:PLIES]
        for mv in tokens:
            # As Position::replay: a pass the record leaves out is played (and probed) too.
            steps = ["pa", mv] if mv != "pa" and b.must_pass else [mv]
            for step in steps:
                b = b.play(step)
                line += step
                boards.append(b)
                lines.append(line)
    return boards, lines


def rate(name, items, probe):
    best = float("inf")
    found = 0
    for _ in range(5):
        t = time.perf_counter()
        found = sum(1 for x in items if probe(x).in_book)
        best = min(best, time.perf_counter() - t)
    print(f"{name}: {len(items) / best:,.0f} probes/s ({len(items)} positions, {found} in the book, best of 5: {best * 1e3:.1f} ms)")


def main():
    book = othbook.Book.open()
    boards, lines = positions(book)
    print(f"{book.path}: {len(boards)} positions")
    rate("Book.probe(Board)", boards, book.probe)
    rate("Book.probe(line)", lines, book.probe)


if __name__ == "__main__":
    main()
