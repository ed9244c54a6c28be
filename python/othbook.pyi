"""othbook: Othello opening books, positions and search (the othbook library from Python).

Moves are written "f5" ("pass" for a pass); lines "f5d6c3" or "f5 d6 c3". Book results and
values are black minus white, in discs; engine scores are for the side to move.
"""

from os import PathLike
from pathlib import Path
from typing import List, Optional, Tuple, Union

__version__: str

def default_book_path() -> Path:
    """The default book's path as Book.open() finds it ($OTHBOOK_BOOK, books/wthor.book
    here, the data folder, the source tree)."""

class OthbookError(Exception):
    """Base class of every error othbook raises."""

class BookError(OthbookError):
    """A book that cannot be opened or read, or lacks the game table a query needs."""

class PositionError(OthbookError):
    """A board or move line that cannot be read or played, or a finished game searched."""

class ArgumentError(OthbookError):
    """An option out of range, or a filter naming no player or event of the book."""

class EngineError(OthbookError):
    """The engine's transposition table cannot be allocated."""

class Board:
    """An Othello position: discs and the side to move. Immutable; hashable.

    Squares are bits 0 (a1) to 63 (h8), row by row."""

    def __init__(self, text: Optional[str] = None) -> None:
        """From 64 characters (X black, O white, - empty, a1 to h8) and the side to move
        (X or O); the standard start without text. Raises PositionError."""
    @staticmethod
    def start() -> Board: ...
    @staticmethod
    def from_moves(moves: str, start: Optional[Board] = None) -> Board:
        """The board after a move line from `start` (default: the standard start)."""
    @staticmethod
    def from_masks(black: int, white: int, side: str) -> Board:
        """From black's and white's 64-bit masks and the side ("black" or "white")."""
    @property
    def black(self) -> int: ...
    @property
    def white(self) -> int: ...
    @property
    def player(self) -> int:
        """The side to move's discs."""
    @property
    def opponent(self) -> int: ...
    @property
    def side(self) -> str:
        """"black" or "white"."""
    @property
    def empties(self) -> int: ...
    @property
    def must_pass(self) -> bool: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def black_count(self) -> int: ...
    @property
    def white_count(self) -> int: ...
    def moves(self) -> List[str]:
        """Legal moves in square order; [] when the side to move must pass."""
    def moves_mask(self) -> int: ...
    def play(self, move: str) -> Board:
        """The board after `move` ("pass" when there is no move). Raises PositionError."""
    def at(self, square: str) -> Optional[str]:
        """"black", "white" or None."""
    def to_text(self) -> str:
        """64 characters, a space, the side to move (X or O)."""
    def diagram(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

LineOrBoard = Union[str, Board]
Years = Union[int, Tuple[int, int], str]

class Probe:
    """What the book says of a position."""

    position: Board
    in_book: bool
    games: int
    black_wins: int
    draws: int
    white_wins: int
    unknown: int
    average_diff: Optional[float]
    value: Optional[float]
    kind: Optional[str]
    """"mid", "exact" or "wld"; None without a value."""
    depth: Optional[int]
    @property
    def results(self) -> Tuple[int, int, int]:
        """(black_wins, draws, white_wins)."""

class MoveInfo:
    """One next move of a position, in the caller's orientation."""

    move: str
    equivalent: List[str]
    games: Optional[int]
    share: Optional[float]
    black_wins: Optional[int]
    draws: Optional[int]
    white_wins: Optional[int]
    unknown: Optional[int]
    average_diff: Optional[float]
    value: Optional[float]
    kind: Optional[str]
    depth: Optional[int]
    best: bool
    leaves_book: bool
    opening: Optional[str]

class BestMove:
    """A move with a value in the book, best first for the side to move."""

    move: str
    value: Optional[float]
    kind: Optional[str]
    depth: Optional[int]
    in_book: bool

class Game:
    """A game of the book's table that reached the position."""

    year: Optional[int]
    black: Optional[str]
    white: Optional[str]
    result: Optional[int]
    next: Optional[str]
    ply: int
    event: Optional[str]
    moves: str
    source: str
    location: str

class GamesFound:
    """The games that reached a position (total counts all, games lists at most limit)."""

    position: Board
    side: str
    total: int
    black_wins: int
    draws: int
    white_wins: int
    unknown: int
    games: List[Game]
    def __len__(self) -> int: ...

class Book:
    """An opening book, read into memory and checked when opened; thread-safe."""

    @staticmethod
    def open(path: Optional[Union[str, PathLike[str]]] = None) -> Book:
        """The book at `path`, or the default book the command line finds. Raises BookError."""
    @property
    def path(self) -> Path: ...
    @property
    def positions(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def has_values(self) -> bool: ...
    @property
    def has_games(self) -> bool: ...
    def probe(
        self,
        line_or_board: LineOrBoard,
        *,
        player: Optional[str] = None,
        color: Optional[str] = None,
        years: Optional[Years] = None,
        event: Optional[str] = None,
        complete_only: bool = False,
    ) -> Probe: ...
    def moves(
        self,
        line_or_board: LineOrBoard,
        *,
        player: Optional[str] = None,
        color: Optional[str] = None,
        years: Optional[Years] = None,
        event: Optional[str] = None,
        complete_only: bool = False,
    ) -> List[MoveInfo]: ...
    def best_moves(self, line_or_board: LineOrBoard) -> List[BestMove]: ...
    def games_find(
        self,
        line_or_board: LineOrBoard,
        *,
        limit: int = 20,
        player: Optional[str] = None,
        color: Optional[str] = None,
        years: Optional[Years] = None,
        event: Optional[str] = None,
        complete_only: bool = False,
    ) -> GamesFound: ...

class Line:
    """One scored move of an analysis."""

    move: str
    score: float
    exact: bool
    pv: List[str]

class Analysis:
    """A search's answer; scores in discs for the side to move."""

    best_move: str
    score: float
    kind: str
    """"midgame", "exact" or "wld"."""
    depth: int
    pv: List[str]
    lines: List[Line]
    nodes: int
    time: float
    complete: bool
    passed: bool

class Engine:
    """A search engine; its transposition table is kept between searches."""

    def __init__(self, hash_mb: int = 64) -> None: ...
    def analyze(
        self,
        board: LineOrBoard,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        selectivity: Optional[Union[int, str]] = None,
        threads: int = 1,
        multipv: int = 1,
    ) -> Analysis:
        """Searches to `depth` plies or for `time` seconds (depth 12 without either).
        Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    def solve(
        self,
        board: LineOrBoard,
        wld: bool = False,
        time: Optional[float] = None,
        threads: int = 1,
        force: bool = False,
    ) -> Analysis:
        """Exact (or win/draw/loss) solve; refuses over 36 empties without force=True."""
    def clear(self) -> None: ...

class Player:
    """A player of `othbook match` ("random", "simple", "alphabeta:depth=4",
    "engine:depth=8", ...)."""

    def __init__(self, spec: str) -> None: ...
    @property
    def name(self) -> str: ...
    def choose(self, board: LineOrBoard) -> str:
        """The player's move ("pass" when there is none). Raises PositionError when the
        game is over."""
