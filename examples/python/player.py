"""A Python Othello player that plays from othbook's book while it can, then searches with
its own alpha-beta: the shape of the classic course homework, with the book plugged in.

    from player import BookAlphaBetaPlayer
    me = BookAlphaBetaPlayer(depth=4)
    move = me.get_move(othbook.Board.from_moves("f5d6"))

The book move is the most played one among those the book values best for the side to move
(ties broken by games); once the position has left the book (or its move is played in fewer
than `min_games` games), a fixed-depth alpha-beta over othbook.Board's rules takes over,
with a square-weight table and mobility as its evaluation.
"""

from typing import List, Optional, Tuple

import othbook

# Square weights (a1..h8): corners good, the squares next to them bad, edges fair.
WEIGHTS: List[int] = [
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, 1, 1, 1, 1, -2, 10,
    5, -2, 1, 0, 0, 1, -2, 5,
    5, -2, 1, 0, 0, 1, -2, 5,
    10, -2, 1, 1, 1, 1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
]

WIN = 10_000


def _weighted(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += WEIGHTS[low.bit_length() - 1]
        mask ^= low
    return total


def evaluate(board: othbook.Board) -> int:
    """The board's value for the side to move."""
    if board.game_over:
        mine = bin(board.player).count("1")
        theirs = bin(board.opponent).count("1")
        return WIN * ((mine > theirs) - (mine < theirs)) + (mine - theirs)
    other = "white" if board.side == "black" else "black"
    mobility = len(board.moves()) - len(othbook.Board.from_masks(board.black, board.white, other).moves())
    return _weighted(board.player) - _weighted(board.opponent) + 5 * mobility


def alphabeta(board: othbook.Board, depth: int, alpha: int, beta: int) -> int:
    """Negamax with alpha-beta pruning, for the side to move."""
    if depth == 0 or board.game_over:
        return evaluate(board)
    moves = board.moves()
    if not moves:
        return -alphabeta(board.play("pass"), depth, -beta, -alpha)
    best = -WIN * 2
    for mv in moves:
        score = -alphabeta(board.play(mv), depth - 1, -beta, -alpha)
        if score > best:
            best = score
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


class BookAlphaBetaPlayer:
    """Book while it can, then alpha-beta `depth` plies deep."""

    def __init__(self, book: Optional[othbook.Book] = None, depth: int = 4, min_games: int = 10):
        self.book = book if book is not None else othbook.Book.open()
        self.depth = depth
        self.min_games = min_games
        self.book_moves = 0
        self.searched_moves = 0

    def book_move(self, board: othbook.Board) -> Optional[str]:
        """The book's choice, or None once the position is out of the book."""
        rows = [m for m in self.book.moves(board) if m.games is not None and m.games >= self.min_games]
        if not rows:
            return None
        legal = set(board.moves())
        valued = [m for m in rows if m.best and m.move in legal]
        chosen = max(valued or [m for m in rows if m.move in legal], key=lambda m: m.games or 0, default=None)
        return chosen.move if chosen is not None else None

    def get_move(self, board: othbook.Board) -> str:
        """The move to play ("pass" when there is none)."""
        moves = board.moves()
        if not moves:
            return "pass"
        mv = self.book_move(board)
        if mv is not None:
            self.book_moves += 1
            return mv
        self.searched_moves += 1
        best: Tuple[int, str] = (-WIN * 3, moves[0])
        alpha = -WIN * 3
        for m in moves:
            score = -alphabeta(board.play(m), self.depth - 1, -WIN * 3, -alpha)
            if score > best[0]:
                best = (score, m)
            alpha = max(alpha, score)
        return best[1]
