//! Synthetic game collections for the scale benchmark: random games, or games that follow a
//! real opening line as far as real games share it and then go their own way, written as
//! move lists (`f5d6c3... +12`, the format `othbook build` reads fastest), or, with players,
//! as CSV rows that also name the two players and the year (for the filters' benchmarks).
//!
//! Game `i` depends only on the seed, `i` and the opening lines: every game has its own
//! random stream, so the files are the same bytes at any thread count.

use anyhow::{bail, Context, Result};
use othbook::board::{normalize_line, Board, Color, Move, Position, Square};
use othbook::book::Book;
use othbook::transcript::{ingest, IngestOptions};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Games per file: files are read in parallel by `build`, and small enough to write at once.
pub const GAMES_PER_FILE: u64 = 250_000;
/// Games made by one task: the unit of parallel work inside a file.
const GAMES_PER_BLOCK: u64 = 2_000;

/// A small, fast generator (SplitMix64): statistical quality far beyond what picking among a
/// dozen moves needs, and a state that any `(seed, game)` pair sets directly.
#[derive(Clone, Copy, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream of game `game` under `seed`: streams of neighbouring games are unrelated.
    #[must_use]
    pub fn for_game(seed: u64, game: u64) -> Rng {
        let mut r = Rng(seed ^ 0x6a09_e667_f3bc_c909);
        let mixed = r.next() ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Rng(Rng(mixed).next())
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), by multiply and shift: the bias is below 2^-50.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// Real games as lines to follow: each with the number of plies it shares with at least one
/// other game of its collection (the point where it left known play).
#[derive(Clone, Debug)]
pub struct Openings {
    lines: Vec<Vec<Move>>,
    follow: Vec<u8>,
}

impl Openings {
    /// Lines from real games, all mapped onto the orientation whose first move is f5.
    #[must_use]
    pub fn from_lines(lines: impl IntoIterator<Item = Vec<Move>>) -> Openings {
        let mut lines: Vec<Vec<Move>> = lines
            .into_iter()
            .filter(|l| !l.is_empty())
            .map(|l| normalize_line(&l).0)
            .collect();
        // Sorted, a line's longest common prefix with any other is with a neighbour.
        lines.sort_unstable();
        let common = |a: &[Move], b: &[Move]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let follow = (0..lines.len())
            .map(|i| {
                let before = i.checked_sub(1).map_or(0, |j| common(&lines[j], &lines[i]));
                let after = lines.get(i + 1).map_or(0, |next| common(&lines[i], next));
                u8::try_from(before.max(after)).unwrap_or(u8::MAX)
            })
            .collect();
        Openings { lines, follow }
    }

    /// The games of `paths` from the standard start: a book's game table (`.book`), the game
    /// files of a folder, or game files in any format `othbook build` reads.
    pub fn load(paths: &[PathBuf]) -> Result<Openings> {
        let mut lines = Vec::new();
        let mut files = Vec::new();
        for p in paths {
            if p.extension().is_some_and(|e| e == "book") {
                let book = Book::open(p).with_context(|| format!("{}", p.display()))?;
                let Some(table) = book.games().with_context(|| format!("{}", p.display()))? else {
                    bail!(
                        "{}: the book has no game table to take lines from",
                        p.display()
                    );
                };
                lines.extend(table.games().iter().map(|g| table.moves(g)));
            } else if p.is_dir() {
                let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                    .with_context(|| format!("{}", p.display()))?
                    .map(|e| e.map(|e| e.path()))
                    .collect::<Result<_, _>>()
                    .with_context(|| format!("{}", p.display()))?;
                inside.sort();
                files.extend(inside);
            } else {
                files.push(p.clone());
            }
        }
        let mut report = String::new();
        if !files.is_empty() {
            let read = ingest(&files, &IngestOptions::default()).context("reading the openings")?;
            report = format!(" (game files: {})", read.summary);
            let standard = read
                .games
                .into_iter()
                .filter(|g| g.start == Position::START);
            lines.extend(standard.map(|g| g.moves));
        }
        let openings = Openings::from_lines(lines);
        if openings.lines.len() < 2 {
            bail!(
                "the openings need at least 2 games from the standard start, {} found{report}",
                openings.lines.len()
            );
        }
        Ok(openings)
    }

    /// Number of lines.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Mean number of plies followed, over the lines.
    #[must_use]
    pub fn mean_follow(&self) -> f64 {
        let total: u64 = self.follow.iter().map(|&f| u64::from(f)).sum();
        total as f64 / self.follow.len().max(1) as f64
    }

    /// A stable hash of the lines (FNV-1a), naming the collections made from them.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for line in &self.lines {
            for b in line.iter().map(|m| move_code(*m)).chain([0xff]) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    }
}

fn move_code(m: Move) -> u8 {
    m.square().map_or(64, Square::index)
}

/// What games a collection holds.
#[derive(Clone, Copy, Debug)]
pub enum Kind<'a> {
    /// Uniformly random legal moves from the start.
    Random,
    /// A real line as far as other real games share it, then random moves.
    Openings(&'a Openings),
}

/// A game made by [`game`], beside its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Final score, black minus white, empties to the winner.
    pub score: i32,
    /// Plies taken from a real line (passes counted) before the random moves.
    pub followed: usize,
}

/// Game `index` under `seed`: its moves (passes included) into `moves`.
pub fn game(kind: Kind<'_>, seed: u64, index: u64, moves: &mut Vec<Move>) -> Played {
    moves.clear();
    let mut rng = Rng::for_game(seed, index);
    let mut pos = Position::START;
    if let Kind::Openings(o) = kind {
        let g = rng.below(o.lines.len() as u64) as usize;
        for &m in &o.lines[g][..usize::from(o.follow[g])] {
            pos = pos
                .play(m)
                .expect("the openings' lines were replayed when read");
            moves.push(m);
        }
    }
    let followed = moves.len();
    Played {
        score: play_out(pos, &mut rng, moves),
        followed,
    }
}

/// Plays uniformly random legal moves from `pos` to the end of the game.
fn play_out(pos: Position, rng: &mut Rng, moves: &mut Vec<Move>) -> i32 {
    let (mut board, mut side) = (pos.board, pos.side);
    loop {
        let legal = board.legal_moves().0;
        if legal == 0 {
            let passed = board.pass();
            if !passed.has_moves() {
                break;
            }
            (board, side) = (passed, side.opposite());
            moves.push(Move::Pass);
            continue;
        }
        let mut left = legal;
        for _ in 0..rng.below(u64::from(legal.count_ones())) {
            left &= left - 1;
        }
        let sq = Square::from_index(left.trailing_zeros() as u8).expect("a set bit is a square");
        board = board.play_flips(sq, board.legal_flips(sq));
        side = side.opposite();
        moves.push(Move::Play(sq));
    }
    score_for_black(&board, side)
}

fn score_for_black(board: &Board, side: Color) -> i32 {
    match side {
        Color::Black => board.final_score(),
        Color::White => -board.final_score(),
    }
}

/// Appends the moves as `f5d6c3...` (passes left out: the reader infers them).
fn write_moves(moves: &[Move], out: &mut Vec<u8>) {
    for sq in moves.iter().filter_map(|m| m.square()) {
        out.extend_from_slice(&[b'a' + sq.column(), b'1' + sq.row()]);
    }
}

/// Appends `f5d6c3... +12\n`.
pub fn write_line(moves: &[Move], score: i32, out: &mut Vec<u8>) {
    write_moves(moves, out);
    let _ = writeln!(out, " {score:+}");
}

/// The header of a collection's CSV files (with players).
const CSV_HEADER: &str = "moves,score,black,white,year\n";
/// Years of the games with players: 1977 to 2026, uniformly.
const FIRST_YEAR: u64 = 1977;
const YEARS: u64 = 50;

/// Player `i` of the pool.
#[must_use]
pub fn player_name(i: u64) -> String {
    format!("Player {:05}", i + 1)
}

/// The two players and the year of game `index` of a collection with `players` players: a
/// stream of its own (the moves are those of the collection without players), and players
/// drawn log-uniformly, so that a few play many games and most play few, as on a server.
fn people(seed: u64, index: u64, players: u64) -> (u64, u64, u64) {
    let mut rng = Rng::for_game(seed ^ 0x5bd1_e995_0000_0001, index);
    let mut pick = || {
        let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((players as f64).powf(u) as u64)
            .saturating_sub(1)
            .min(players - 1)
    };
    let (black, white) = (pick(), pick());
    (black, white, FIRST_YEAR + rng.below(YEARS))
}

/// Games `range` as text: move lines, or CSV rows when `players` > 0.
fn block(kind: Kind<'_>, seed: u64, players: u64, range: std::ops::Range<u64>) -> Vec<u8> {
    let mut out = Vec::with_capacity((range.end - range.start) as usize * 160);
    let mut moves = Vec::with_capacity(70);
    for i in range {
        let played = game(kind, seed, i, &mut moves);
        if players == 0 {
            write_line(&moves, played.score, &mut out);
        } else {
            let (black, white, year) = people(seed, i, players);
            write_moves(&moves, &mut out);
            let _ = writeln!(
                out,
                ",{:+},{},{},{year}",
                played.score,
                player_name(black),
                player_name(white)
            );
        }
    }
    out
}

/// Writes `games` games as files `part-NNNN.txt` (`.csv` with `players`) in `dir` (each replaced whole), in parallel
/// on the current rayon pool; returns the files and their total size.
pub fn write_collection(
    dir: &Path,
    kind: Kind<'_>,
    seed: u64,
    games: u64,
    players: u64,
) -> Result<(Vec<PathBuf>, u64)> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    let mut files = Vec::new();
    let mut bytes = 0;
    for (n, first) in (0..games).step_by(GAMES_PER_FILE as usize).enumerate() {
        let end = games.min(first + GAMES_PER_FILE);
        let blocks: Vec<Vec<u8>> = (first..end)
            .step_by(GAMES_PER_BLOCK as usize)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|b| block(kind, seed, players, b..end.min(b + GAMES_PER_BLOCK)))
            .collect();
        let (ext, header) = if players == 0 {
            ("txt", "")
        } else {
            ("csv", CSV_HEADER)
        };
        let path = dir.join(format!("part-{n:04}.{ext}"));
        othbook::atomic_file::replace(&path, |w| {
            w.write_all(header.as_bytes())?;
            blocks.iter().try_for_each(|b| w.write_all(b))
        })
        .with_context(|| format!("writing {}", path.display()))?;
        bytes += header.len() as u64 + blocks.iter().map(|b| b.len() as u64).sum::<u64>();
        files.push(path);
    }
    Ok((files, bytes))
}
