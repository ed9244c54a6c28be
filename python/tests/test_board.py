"""othbook.Board: its forms (text, masks, move lines) and the rules."""

import pytest

import othbook

START = "---------------------------OX------XO--------------------------- X"


def test_start_forms_agree():
    b = othbook.Board()
    assert b == othbook.Board.start() == othbook.Board(START) == othbook.Board.from_moves("")
    assert b.to_text() == str(b) == START
    assert b.side == "black" and b.empties == 60
    assert b.black == (1 << 28) | (1 << 35) and b.white == (1 << 27) | (1 << 36)
    assert b.player == b.black and b.opponent == b.white
    assert b.moves() == ["d3", "c4", "f5", "e6"]
    assert bin(b.moves_mask()).count("1") == 4


def test_masks_and_text_round_trip_along_a_line():
    b = othbook.Board()
    for mv in ["f5", "d6", "c3", "d3", "c4"]:
        b = b.play(mv)
        assert othbook.Board(b.to_text()) == b
        assert othbook.Board.from_masks(b.black, b.white, b.side) == b
    assert b == othbook.Board.from_moves("f5 d6 c3 d3 c4")
    assert b == othbook.Board.from_moves("c4", start=othbook.Board.from_moves("f5d6c3d3"))
    assert b.side == "white" and b.at("c4") == "black" and b.at("a1") is None
    assert len({b, othbook.Board.from_moves("f5d6c3d3c4")}) == 1


def test_passes_are_put_back_and_played():
    # After this line white has no move: a move of black's after it implies white's pass.
    line = "f5f6e6f4g4d6f7h4h3f8h5"
    b = othbook.Board.from_moves(line)
    assert b.must_pass and b.side == "white" and b.moves() == []
    passed = b.play("pass")
    assert passed.side == "black" and passed.moves()
    nxt = passed.moves()[0]
    assert othbook.Board.from_moves(line + nxt) == passed.play(nxt)
    assert othbook.Board.from_moves(line + "pa" + nxt) == passed.play(nxt)


def test_errors_say_what_and_where():
    with pytest.raises(othbook.PositionError, match=r'moves "f5f5": ply 2: white f5 is illegal: f5 is occupied'):
        othbook.Board.from_moves("f5f5")
    with pytest.raises(othbook.PositionError, match="invalid position"):
        othbook.Board("XO")
    with pytest.raises(othbook.PositionError, match="illegal"):
        othbook.Board().play("a1")
    with pytest.raises(othbook.PositionError, match="pass while moves are available"):
        othbook.Board().play("pass")
    with pytest.raises(othbook.PositionError, match="side"):
        othbook.Board.from_masks(0, 0, "green")
    with pytest.raises(othbook.PositionError, match="holds both"):
        othbook.Board.from_masks(1, 1, "black")
    # Every error of the package is an OthbookError.
    assert issubclass(othbook.PositionError, othbook.OthbookError)
    assert issubclass(othbook.BookError, othbook.OthbookError)
    assert issubclass(othbook.ArgumentError, othbook.OthbookError)
