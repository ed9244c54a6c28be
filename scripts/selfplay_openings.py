#!/usr/bin/env python3
"""Openings for self-play training games: every XOT opening followed by 2-4 random legal
plies, in 3 variants, deduplicated and shuffled. Deterministic (seeded); standard library
only. Usage: scripts/selfplay_openings.py XOT_LIST OUT [SEED]"""
import os
import random
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, me, r, c):
    """Squares turned by `me` playing (r, c); empty when the move is illegal."""
    if board[r][c] != 0:
        return []
    out = []
    for dr, dc in DIRS:
        rr, cc, line = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == -me:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == me:
            out += line
    return out


def play(board, me, r, c):
    turned = flips(board, me, r, c)
    if not turned:
        raise ValueError(f"illegal move {'abcdefgh'[c]}{r + 1}")
    board[r][c] = me
    for rr, cc in turned:
        board[rr][cc] = me


def legal(board, me):
    return [(r, c) for r in range(8) for c in range(8) if flips(board, me, r, c)]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    seed = sys.argv[3] if len(sys.argv) == 4 else "2026"
    if not seed.isdigit():
        sys.exit(f"the seed must be a whole number, not {seed!r}")
    rng = random.Random(int(seed))
    if os.path.exists(sys.argv[2]) and os.path.samefile(sys.argv[1], sys.argv[2]):
        sys.exit(f"the output {sys.argv[2]} is the opening list itself: it would be overwritten")
    out = set()
    try:
        with open(sys.argv[1]) as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError as e:
        sys.exit(f"cannot read the opening list: {e}")
    for n, line in enumerate(lines, 1):
        for _ in range(3):
            board = [[0] * 8 for _ in range(8)]
            board[3][3] = board[4][4] = -1
            board[3][4] = board[4][3] = 1
            me, text = 1, ""
            for i in range(0, len(line), 2):
                mv = line[i:i + 2].lower()
                if len(mv) != 2 or mv[0] not in "abcdefgh" or mv[1] not in "12345678":
                    sys.exit(f"{sys.argv[1]}:{n}: {mv!r} is not a square (a1 to h8)")
                try:
                    play(board, me, int(mv[1]) - 1, ord(mv[0]) - 97)
                except ValueError as e:
                    sys.exit(f"{sys.argv[1]}:{n}: {e}")
                me, text = -me, text + mv
            for _ in range(rng.randint(2, 4)):
                moves = legal(board, me)
                if not moves:  # a pass cannot be written in a move string: stop here
                    break
                r, c = rng.choice(moves)
                play(board, me, r, c)
                me, text = -me, text + "abcdefgh"[c] + str(r + 1)
            out.add(text)
    out = sorted(out)
    rng.shuffle(out)
    try:
        with open(sys.argv[2], "w") as f:
            f.write("\n".join(out) + "\n")
    except OSError as e:
        sys.exit(f"cannot write the openings: {e}")
    print(f"{len(out)} openings from {len(lines)}")


if __name__ == "__main__":
    main()
