"""othbook.Book on the default book: probe, moves, best moves, games and their filters."""

import pytest

import othbook


def test_default_book_opens(book):
    assert book.path == othbook.default_book_path()
    assert book.positions > 0 and book.games > 0
    assert book.has_values and book.has_games


def test_probe_counts_transpositions_and_symmetries(book):
    p = book.probe("f5d6")
    assert p.in_book and p.games > 0
    assert p.results == (p.black_wins, p.draws, p.white_wins)
    assert p.black_wins + p.draws + p.white_wins + p.unknown == p.games
    assert p.kind in ("mid", "exact", "wld") and p.depth is not None
    # The same position reached in another orientation and by a Board.
    assert book.probe("d3c5").games == p.games
    assert book.probe(othbook.Board.from_moves("f5d6")).games == p.games
    # Another move order of one position counts the same games.
    assert book.probe("f5d6c3d3c4").games == book.probe("f5d6c4d3c3").games


def test_probe_of_a_position_the_book_lacks(book):
    p = book.probe("f5f4e3f6d3c5g4")  # a line no game of the book played
    if p.in_book:
        pytest.fail("choose a line the book lacks")
    assert p.games == 0 and p.value is None and p.kind is None and p.depth is None


def test_moves_are_in_the_callers_orientation(book):
    moves = {m.move for m in book.moves("f5")}
    rotated = {m.move for m in book.moves("d3")}
    assert moves and rotated and moves != rotated
    legal = set(othbook.Board.from_moves("d3").moves())
    assert rotated <= legal
    rows = book.moves("f5d6")
    assert [r.games for r in rows] == sorted((r.games for r in rows), reverse=True)
    assert sum(r.games for r in rows) == book.probe("f5d6").games
    assert any(r.best for r in rows)


def test_moves_name_the_opening_they_reach(book):
    openings = {m.move: m.opening for m in book.moves("f5d6c3d3")}
    assert openings["c4"] == "Tiger"
    assert all(name is None or name for name in openings.values())


def test_best_moves_are_best_first_for_the_side_to_move(book):
    best = book.best_moves("f5d6")  # black to move: the highest value first
    assert best and all(b.value is not None for b in best)
    values = [b.value for b in best]
    assert values == sorted(values, reverse=True)
    white = book.best_moves("f5")  # white to move: the lowest (black minus white) first
    assert [b.value for b in white] == sorted(b.value for b in white)


def test_games_find_and_filters(book):
    found = book.games_find("f5d6c3", limit=5)
    assert found.total == book.probe("f5d6c3").games or found.total >= 5
    assert len(found) == len(found.games) == 5
    years = [g.year for g in found.games]
    assert years == sorted(years, reverse=True)
    assert all(g.next is None or g.next in othbook.Board.from_moves("f5d6c3").moves() for g in found.games)
    murakami = book.games_find("f5d6c3", limit=0, player="murakami", color="black", years=(1990, 2021))
    assert 0 < murakami.total < found.total and len(murakami.games) == murakami.total
    assert all("murakami" in g.black.lower() and 1990 <= g.year <= 2021 for g in murakami.games)
    assert book.games_find("f5d6c3", years="1990-2021", player="murakami", color="black").total == murakami.total
    filtered = book.probe("f5d6c3", player="murakami", color="black", years=(1990, 2021))
    assert filtered.games <= murakami.total


def test_filter_and_book_errors(book):
    with pytest.raises(othbook.ArgumentError, match="no player"):
        book.games_find("f5", player="zzqqxx")
    with pytest.raises(othbook.ArgumentError, match="years"):
        book.games_find("f5", years="2000-1990")
    with pytest.raises(othbook.ArgumentError, match="color needs player"):
        book.probe("f5", color="white")
    with pytest.raises(othbook.BookError, match="No such file"):
        othbook.Book.open("/nonexistent/x.book")
    with pytest.raises(TypeError):
        book.probe(42)


def test_a_book_that_is_not_a_book(tmp_path):
    bad = tmp_path / "bad.book"
    bad.write_bytes(b"not a book at all" * 10)
    with pytest.raises(othbook.BookError, match="bad.book"):
        othbook.Book.open(bad)
