//! The NBoard protocol (version 2), engine side: NBoard and other GUIs drive the engine here.

use crate::board::{Move, Position, Square};
use crate::book::key::equivalent_moves;
use crate::book::Book;
use crate::engine::{Engine, Limits, SCALE};
use crate::play::book_choice::book_move;
use crate::transcript::{ingest_bytes, Format, IngestOptions};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An NBoard session: the game, the engine and its settings.
pub struct NboardServer {
    engine: Engine,
    book: Option<Arc<Book>>,
    start: Position,
    moves: Vec<Move>,
    position: Position,
    /// Midgame depth set by `set depth` (or the command line).
    depth: u32,
    /// Time cap per search, so that `go` and `hint` answer promptly whatever the depth.
    move_time: Duration,
    /// Accepted and kept for the GUI's sake; the engine has no draw contempt yet.
    contempt: i32,
}

/// Reads `set game` text: the game's start board and moves, passes included.
pub fn parse_ggf_game(text: &str) -> Result<(Position, Vec<Move>), String> {
    let opts = IngestOptions {
        strict: true,
        ..IngestOptions::default()
    };
    let ingest =
        ingest_bytes(text.as_bytes(), Format::Ggf, "set game", &opts).map_err(|e| e.to_string())?;
    match ingest.games.into_iter().next() {
        Some(g) => Ok((g.start, g.moves)),
        None => Err("no game in the GGF text".into()),
    }
}

/// The PV as NBoard wants it: moves run together with no white space (`F5d6C3`), passes `PA`.
fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| match m {
            Move::Play(sq) => sq.to_string().to_uppercase(),
            Move::Pass => "PA".into(),
        })
        .collect::<Vec<_>>()
        .join("-")
}

impl NboardServer {
    /// A session with `engine`, searching `depth` plies (capped at `move_time`) per request.
    #[must_use]
    pub fn new(engine: Engine, depth: u32, move_time: Duration) -> Self {
        NboardServer {
            engine,
            book: None,
            start: Position::START,
            moves: Vec::new(),
            position: Position::START,
            depth,
            move_time,
            contempt: 0,
        }
    }

    /// The same session answering from `book` first (hints list its moves, `go` plays them).
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Self {
        self.book = book;
        self
    }

    /// Reads commands until `quit` or the end of input. Only protocol goes to `out`;
    /// diagnostics (unknown commands, bad moves) go to `diag`.
    pub fn serve(
        &mut self,
        input: impl BufRead,
        out: &mut impl Write,
        diag: &mut impl Write,
    ) -> io::Result<()> {
        for line in input.lines() {
            let line = line?;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match cmd {
                "nboard" => {
                    if rest != "2" {
                        writeln!(
                            diag,
                            "othbook nboard: protocol version {rest:?}; speaking version 2"
                        )?;
                    }
                    writeln!(out, "set myname othbook")?;
                }
                "set" => self.set(rest, out, diag)?,
                "move" => self.play(rest, diag)?,
                "hint" => {
                    let n = rest.parse::<usize>().unwrap_or(1).clamp(1, 64);
                    self.hint(n, out)?;
                }
                "go" => self.go(out)?,
                "ping" => writeln!(out, "pong {rest}")?,
                "learn" => writeln!(out, "learned")?,
                "status" => writeln!(out, "status ready")?,
                "quit" => {
                    out.flush()?;
                    return Ok(());
                }
                // NBoard 1.1 sends a bare move instead of `move F5`.
                _ if cmd.len() == 2
                    && (cmd.parse::<Square>().is_ok() || cmd.eq_ignore_ascii_case("pa")) =>
                {
                    self.play(cmd, diag)?;
                }
                _ => writeln!(diag, "othbook nboard: ignored {line:?}")?,
            }
            out.flush()?;
        }
        Ok(())
    }

    fn set(&mut self, rest: &str, out: &mut impl Write, diag: &mut impl Write) -> io::Result<()> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match what {
            "depth" => match value.trim().parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.depth = d;
                    writeln!(out, "set myname othbook{d}")?;
                }
                _ => writeln!(diag, "othbook nboard: bad depth {value:?} (1-60)")?,
            },
            "contempt" => match value.trim().parse::<i32>() {
                Ok(c) => self.contempt = c,
                Err(_) => writeln!(diag, "othbook nboard: bad contempt {value:?}")?,
            },
            "game" => match parse_ggf_game(value) {
                Ok((start, moves)) => {
                    let mut pos = start;
                    for m in &moves {
                        pos = match pos.play(*m) {
                            Ok(p) => p,
                            Err(e) => {
                                writeln!(diag, "othbook nboard: set game: {e}")?;
                                return Ok(());
                            }
                        };
                    }
                    self.start = start;
                    self.moves = moves;
                    self.position = pos;
                }
                Err(e) => writeln!(diag, "othbook nboard: set game: {e}")?,
            },
            _ => writeln!(diag, "othbook nboard: ignored set {rest:?}")?,
        }
        Ok(())
    }

    fn play(&mut self, text: &str, diag: &mut impl Write) -> io::Result<()> {
        let word = text.split('/').next().unwrap_or("").trim();
        let mv = if word.eq_ignore_ascii_case("pa") || word.eq_ignore_ascii_case("pass") {
            Move::Pass
        } else {
            match word.parse::<Square>() {
                Ok(sq) => Move::Play(sq),
                Err(e) => return writeln!(diag, "othbook nboard: move: {e}"),
            }
        };
        // A GUI may leave a forced pass implicit.
        if !mv.is_pass() && self.position.board.must_pass() {
            self.position = self.position.play(Move::Pass).unwrap_or(self.position);
            self.moves.push(Move::Pass);
        }
        match self.position.play(mv) {
            Ok(p) => {
                self.position = p;
                self.moves.push(mv);
                Ok(())
            }
            Err(e) => writeln!(diag, "othbook nboard: move {word}: {e}"),
        }
    }

    fn limits(&self, lines: usize) -> Limits {
        Limits {
            depth: Some(self.depth),
            time: Some(self.move_time),
            ..Limits::default()
        }
        .multipv(lines)
    }

    fn hint(&mut self, n: usize, out: &mut impl Write) -> io::Result<()> {
        if self.position.board.is_game_over() {
            return writeln!(out, "status game over");
        }
        writeln!(out, "status analysing")?;
        if !self.position.board.has_moves() {
            writeln!(out, "search PA 0 0 0")?;
            return writeln!(out, "status");
        }
        if let Some(book) = &self.book {
            let plies = self.moves.iter().filter(|m| !m.is_pass()).count();
            // One hint per square: the GUI marks squares, and a symmetric position's book
            // entry stands for several (at the start f5 for d3, c4 and e6 too).
            let board = &self.position.board;
            let hints = book.moves(board).into_iter().flat_map(|(mv, st)| {
                equivalent_moves(board, mv)
                    .into_iter()
                    .map(move |m| (m, st))
            });
            for (mv, st) in hints.take(n) {
                writeln!(
                    out,
                    "book {} {:.2} {} {} {} games, {:.0}% points",
                    pv_text(&[mv]),
                    st.average_diff().unwrap_or(0.0),
                    st.games(),
                    60usize.saturating_sub(plies),
                    st.games(),
                    100.0 * st.score().unwrap_or(0.5)
                )?;
            }
        }
        let n = n.min(self.position.board.legal_moves().count() as usize);
        let start = Instant::now();
        let mut last = None;
        let result = self
            .engine
            .analyze_with(&self.position.board, &self.limits(n), |it| {
                last = Some(it.depth);
            });
        if let Ok(a) = result {
            for line in a.lines.iter().take(n) {
                writeln!(
                    out,
                    "search {} {:.2} 0 {}",
                    pv_text(&line.pv),
                    f64::from(line.score) / f64::from(SCALE),
                    last.unwrap_or(a.depth)
                )?;
            }
            writeln!(
                out,
                "nodestats {} {:.2}",
                a.nodes,
                start.elapsed().as_secs_f64()
            )?;
        }
        writeln!(out, "status")
    }

    fn go(&mut self, out: &mut impl Write) -> io::Result<()> {
        let board = self.position.board;
        if board.is_game_over() {
            return writeln!(out, "status game over");
        }
        if !board.has_moves() {
            return writeln!(out, "=== PA");
        }
        if let Some((mv, st)) = self.book.as_deref().and_then(|b| book_move(b, &board)) {
            let eval = st.average_diff().unwrap_or(0.0);
            writeln!(out, "status book move")?;
            writeln!(out, "=== {}/{eval:.2}/0.00", pv_text(&[mv]))?;
            return writeln!(out, "status");
        }
        writeln!(out, "status thinking")?;
        let start = Instant::now();
        match self.engine.analyze(&board, &self.limits(1)) {
            Ok(a) => {
                let secs = start.elapsed().as_secs_f64();
                writeln!(out, "nodestats {} {secs:.2}", a.nodes)?;
                writeln!(
                    out,
                    "=== {}/{:.2}/{secs:.2}",
                    pv_text(&[a.best_move]),
                    a.score_discs()
                )?;
            }
            Err(_) => {
                // Cannot happen with a legal move available; still answer with a legal move.
                let sq = board
                    .legal_moves()
                    .first()
                    .map_or("PA".to_string(), |s| s.to_string().to_uppercase());
                writeln!(out, "=== {sq}")?;
            }
        }
        writeln!(out, "status")
    }
}
