"""A match of the example player (player.py: book, then its own alpha-beta) against
othbook's `random` player, through the othbook package; prints the score.

    python examples/python/match.py --games 10 --depth 3

Colours alternate; each game starts at the standard position (the random player makes the
games differ). Exit code 0 when the match was played.
"""

import argparse
import os
import sys

import othbook

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from player import BookAlphaBetaPlayer  # noqa: E402


def play_game(black, white) -> othbook.Board:
    """Plays one game; `black` and `white` are callables from a board to a move."""
    board = othbook.Board.start()
    while not board.game_over:
        mover = black if board.side == "black" else white
        board = board.play(mover(board))
    return board


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    ap.add_argument("--depth", type=int, default=3, help="alpha-beta depth (default 3)")
    ap.add_argument("--book", default=None, help="the book (default: the default book)")
    ap.add_argument("--opponent", default="random", help="othbook player spec (default random)")
    args = ap.parse_args(argv)

    book = othbook.Book.open(args.book)
    me = BookAlphaBetaPlayer(book, depth=args.depth)
    them = othbook.Player(args.opponent)
    wins = draws = losses = 0
    discs = 0
    for game in range(args.games):
        mine_black = game % 2 == 0
        black, white = (me.get_move, them.choose) if mine_black else (them.choose, me.get_move)
        end = play_game(black, white)
        diff = end.black_count - end.white_count
        mine = diff if mine_black else -diff
        discs += mine
        wins += mine > 0
        draws += mine == 0
        losses += mine < 0
    print(
        f"python book+alphabeta(depth={args.depth}) vs {them.name}: "
        f"{wins} wins, {draws} draws, {losses} losses in {args.games} games "
        f"(score {wins + draws / 2:g}/{args.games}, disc difference {discs:+d}); "
        f"{me.book_moves} book moves, {me.searched_moves} searched"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
