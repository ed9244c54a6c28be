//! The NBoard protocol (version 2), engine side: NBoard and other GUIs drive the engine here.

use crate::board::{Move, Position, Square};
use crate::book::key::equivalent_moves;
use crate::book::{Book, BookError, MoveStats, MoveValue};
use crate::engine::{score_number, Depth, Engine, Limits};
use crate::play::book_choice::choose;
use crate::rng::Rng;
use crate::wire::ggf_clock::GameClock;
use crate::wire::line::MAX_LINE;
use crate::wire::nboard::{parse_ggf_game, SET_GAME};
use crate::wire::seconds::Seconds;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An NBoard session: the game, the engine and its settings.
pub struct NboardServer {
    engine: Engine,
    book: Option<Arc<Book>>,
    /// `go` plays a book move up to this many discs below the best value, chosen with `rng`.
    book_randomness: f64,
    rng: Rng,
    start: Position,
    moves: Vec<Move>,
    position: Position,
    /// Midgame depth set by `set depth` (or the command line).
    depth: Depth,
    /// Time cap per search, so that `go` and `hint` answer promptly whatever the depth.
    move_time: Duration,
    /// Accepted and kept for the GUI's sake; the engine has no draw contempt yet.
    contempt: i32,
    /// The game's clock from `set game`, when it has one: `go` then budgets from it.
    clock: Option<GameClock>,
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
    pub fn new(engine: Engine, depth: Depth, move_time: Duration) -> Self {
        NboardServer {
            engine,
            book: None,
            book_randomness: 0.0,
            rng: Rng::new(Rng::fresh_seed()),
            start: Position::START,
            moves: Vec::new(),
            position: Position::START,
            depth,
            move_time,
            contempt: 0,
            clock: None,
        }
    }

    /// The same session answering from `book` first (hints list its moves, `go` plays them).
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Self {
        self.book = book;
        self
    }

    /// The same session letting `go` play any book move within `randomness` discs of the best
    /// value, chosen at random with `seed` (a book with values; 0: the best).
    #[must_use]
    pub fn with_book_randomness(mut self, randomness: f64, seed: u64) -> Self {
        self.book_randomness = randomness;
        self.rng = Rng::new(seed);
        self
    }

    /// Reads commands until `quit` or the end of input. Only protocol goes to `out`;
    /// diagnostics (unknown commands, bad moves) go to `diag`.
    ///
    /// `input` is read by a thread of its own, so that a command that arrives during a search
    /// (`ping`, `quit`, a new position...) stops it; the command is then carried out as usual.
    /// Commands read before the search began wait their turn instead: a script sent in one
    /// piece gets every answer. At `quit` that thread is left behind, waiting for input.
    pub fn serve(
        &mut self,
        input: impl BufRead + Send + 'static,
        out: &mut impl Write,
        diag: &mut impl Write,
    ) -> io::Result<()> {
        let mut inbox = Inbox::spawn(input)?;
        let stop = Arc::clone(&inbox.stop);
        while let Some(line) = inbox.next_line() {
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
                    self.hint(n, &stop, out)?;
                }
                "go" => self.go(&stop, out)?,
                "ping" => writeln!(out, "pong {rest}")?,
                "learn" => writeln!(out, "learned")?,
                "status" => writeln!(out, "status ready")?,
                "quit" => {
                    out.flush()?;
                    return Ok(());
                }
                _ if is_bare_move(cmd) => self.play(cmd, diag)?,
                _ => writeln!(diag, "othbook nboard: ignored {line:?}")?,
            }
            out.flush()?;
        }
        Ok(())
    }

    fn set(&mut self, rest: &str, out: &mut impl Write, diag: &mut impl Write) -> io::Result<()> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match what {
            "depth" => match value.trim().parse::<u32>().map(Depth::new) {
                Ok(Ok(d)) => {
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
                            Err(e) => return writeln!(diag, "othbook nboard: {SET_GAME}: {e}"),
                        };
                    }
                    self.start = start;
                    self.moves = moves;
                    self.position = pos;
                    self.clock = GameClock::from_ggf(value);
                }
                Err(e) => writeln!(diag, "othbook nboard: {e}")?,
            },
            _ => writeln!(diag, "othbook nboard: ignored set {rest:?}")?,
        }
        Ok(())
    }

    fn play(&mut self, text: &str, diag: &mut impl Write) -> io::Result<()> {
        let word = text.split('/').next().unwrap_or("").trim();
        // `move F5/eval/time`: the time goes on the mover's clock.
        let took = text
            .split('/')
            .nth(2)
            .and_then(|t| Seconds::parse(t).ok())
            .map_or(Duration::ZERO, |s| s.duration());
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
        let mover = self.position.side;
        match self.position.play(mv) {
            Ok(p) => {
                self.position = p;
                self.moves.push(mv);
                if let Some(clock) = &mut self.clock {
                    clock.moved(mover, took);
                }
                Ok(())
            }
            Err(e) => writeln!(diag, "othbook nboard: move {word}: {e}"),
        }
    }

    /// Limits for `lines` lines within `time`.
    fn limits(&self, lines: usize, time: Duration) -> Limits {
        Limits {
            depth: Some(self.depth),
            time: Some(time),
            ..Limits::default()
        }
        .multipv(lines)
    }

    /// Time for `go`: a share of what the side to move has left when the game has a clock,
    /// the fixed time per move otherwise.
    fn move_budget(&self) -> Duration {
        let pos = &self.position;
        self.clock.as_ref().map_or(self.move_time, |c| {
            c.budget(pos.side, pos.board.empty_count())
        })
    }

    /// A damaged book (found by a lazily checked read) is reported and not used again: the
    /// session goes on searching, as the GUI expects, rather than ending.
    fn drop_book<T>(&mut self, e: &impl std::fmt::Display) -> Option<T> {
        eprintln!("othbook nboard: {e}; the book is not used for the rest of the session");
        self.book = None;
        None
    }

    fn hint(&mut self, n: usize, stop: &AtomicBool, out: &mut impl Write) -> io::Result<()> {
        if self.position.board.is_game_over() {
            return writeln!(out, "status game over");
        }
        writeln!(out, "status analysing")?;
        let hints = match &self.book {
            Some(book) => book_hints(book, &self.position.board).map(Some),
            None => Ok(None),
        };
        if let Some(hints) = hints.unwrap_or_else(|e| self.drop_book(&e)) {
            let plies = self.moves.iter().filter(|m| !m.is_pass()).count();
            for line in hints.lines(&self.position.board, plies).take(n) {
                writeln!(out, "{line}")?;
            }
        }
        // A forced pass is one hint, valued by the search of the replies to it.
        let n = n
            .min(self.position.board.legal_moves().count() as usize)
            .max(1);
        begin_search(stop, out)?;
        let start = Instant::now();
        let mut last = None;
        let result = self.engine.analyze_stoppable(
            &self.position.board,
            &self.limits(n, self.move_time),
            stop,
            |it| last = Some(it.depth),
        );
        if stop.load(Ordering::SeqCst) {
            // Stopped by the GUI, which drops what comes before its `pong`.
            return writeln!(out, "status");
        }
        if let Ok(a) = result {
            for line in a.lines.iter().take(n) {
                writeln!(
                    out,
                    "search {} {} 0 {}",
                    pv_text(&line.pv),
                    score_number(line.score, a.kind),
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

    fn go(&mut self, stop: &AtomicBool, out: &mut impl Write) -> io::Result<()> {
        let board = self.position.board;
        if board.is_game_over() {
            return writeln!(out, "status game over");
        }
        if !board.has_moves() {
            return writeln!(out, "=== PA");
        }
        let in_book = match self.book.as_deref() {
            Some(b) => choose(b, &board, self.book_randomness, &mut self.rng),
            None => Ok(None),
        };
        if let Some(pick) = in_book.unwrap_or_else(|e| self.drop_book(&e)) {
            writeln!(out, "status book move")?;
            writeln!(out, "=== {}/{:.2}/0.00", pv_text(&[pick.mv]), pick.discs())?;
            return writeln!(out, "status");
        }
        writeln!(out, "status thinking")?;
        begin_search(stop, out)?;
        let start = Instant::now();
        let result = self.engine.analyze_stoppable(
            &board,
            &self.limits(1, self.move_budget()),
            stop,
            |_| {},
        );
        if stop.load(Ordering::SeqCst) {
            // Stopped by the GUI, which drops a move sent before its `pong`.
            return writeln!(out, "status");
        }
        match result {
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

/// What the book says of a position's moves, for `hint`.
enum BookHints {
    /// Moves with the book's values, best first (a book with values for the position).
    Values(Vec<(MoveValue, u64)>),
    /// Moves with their games (a book without values, or none for the position).
    Games(Vec<(Move, MoveStats)>),
}

/// The book's hints for `board`: by value when the book holds values for it, with each
/// move's games (0 for a move no game played), else by games.
fn book_hints(book: &Book, board: &crate::board::Board) -> Result<BookHints, BookError> {
    let values = book.try_best_moves(board)?;
    let games = book.try_moves(board)?;
    if values.is_empty() {
        return Ok(BookHints::Games(games));
    }
    let games_of = |mv: Move| games.iter().find(|g| g.0 == mv).map_or(0, |g| g.1.games());
    Ok(BookHints::Values(
        values.into_iter().map(|v| (v, games_of(v.mv))).collect(),
    ))
}

impl BookHints {
    /// The `book` lines, best first: `book PV EVAL GAMES DEPTH TEXT`, EVAL for the side to
    /// move. One line per square: the GUI marks squares, and a symmetric position's book
    /// entry stands for several (at the start f5 for d3, c4 and e6 too). With values, DEPTH is
    /// the value's search depth; by games, the empties left after `plies` moves.
    fn lines(&self, board: &crate::board::Board, plies: usize) -> impl Iterator<Item = String> {
        let lines: Vec<String> = match self {
            BookHints::Values(values) => values
                .iter()
                .flat_map(|&(v, games)| {
                    equivalent_moves(board, v.mv)
                        .into_iter()
                        .map(move |m| value_line(m, &v, games))
                })
                .collect(),
            BookHints::Games(moves) => moves
                .iter()
                .flat_map(|(mv, st)| {
                    equivalent_moves(board, *mv).into_iter().map(move |m| {
                        format!(
                            "book {} {:.2} {} {} {} games, {:.0}% points",
                            pv_text(&[m]),
                            st.average_diff().unwrap_or(0.0),
                            st.games(),
                            60usize.saturating_sub(plies),
                            st.games(),
                            100.0 * st.score().unwrap_or(0.5)
                        )
                    })
                })
                .collect(),
        };
        lines.into_iter()
    }
}

/// The `book` line of `mv` (a move equivalent to `v`'s, or its own) with its value.
fn value_line(mv: Move, v: &MoveValue, games: u64) -> String {
    let s = v.score;
    format!(
        "book {} {} {games} {} value ({}, depth {}), {}",
        pv_text(&[mv]),
        score_number(i32::from(s.score), s.kind.into()),
        s.depth,
        s.kind.word(),
        s.depth,
        if v.in_book {
            format!("{games} games")
        } else {
            "leaves the book".to_string()
        }
    )
}

/// Clears `stop` and shows the GUI what was written so far (the status): a search starts, and
/// only commands that arrive from now on stop it.
fn begin_search(stop: &AtomicBool, out: &mut impl Write) -> io::Result<()> {
    stop.store(false, Ordering::SeqCst);
    out.flush()
}

/// NBoard 1.1 sends a bare move (`F5`, `PA`) instead of `move F5`.
fn is_bare_move(cmd: &str) -> bool {
    cmd.len() == 2 && (cmd.parse::<Square>().is_ok() || cmd.eq_ignore_ascii_case("pa"))
}

/// Whether `line` stops a search under way: the GUI sends these when the user changes the
/// position or the settings, or to resynchronise (`ping`), and then has no use for the
/// search's answer.
fn stops_search(line: &str) -> bool {
    let cmd = line.split_whitespace().next().unwrap_or("");
    matches!(cmd, "ping" | "quit" | "set" | "move" | "go" | "hint") || is_bare_move(cmd)
}

/// The GUI's lines, read ahead by a thread of their own.
struct Inbox {
    batches: Receiver<io::Result<Vec<String>>>,
    queued: VecDeque<String>,
    /// Set by the reader when a line comes in that [`stops_search`]; cleared when a search
    /// starts.
    stop: Arc<AtomicBool>,
}

impl Inbox {
    fn spawn(mut input: impl BufRead + Send + 'static) -> io::Result<Inbox> {
        let (tx, batches) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("nboard input".into())
            .spawn(move || {
                let mut partial = Vec::new();
                loop {
                    let lines = match read_lines(&mut input, &mut partial) {
                        Ok(Some(lines)) => lines,
                        Ok(None) => return,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    // Set before the lines are sent: the flag of lines received before a
                    // search starts is then always cleared by it.
                    if lines.iter().any(|l| stops_search(l)) {
                        flag.store(true, Ordering::SeqCst);
                    }
                    if tx.send(Ok(lines)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Inbox {
            batches,
            queued: VecDeque::new(),
            stop,
        })
    }

    /// The next line, `None` at the end of input.
    fn next_line(&mut self) -> Option<io::Result<String>> {
        loop {
            if let Some(line) = self.queued.pop_front() {
                return Some(Ok(line));
            }
            match self.batches.recv() {
                Ok(Ok(lines)) => self.queued.extend(lines),
                Ok(Err(e)) => return Some(Err(e)),
                Err(_) => return None,
            }
        }
    }
}

/// The lines completed by the next read (at the end of input, the last line even without its
/// newline); `None` at the end. The lines of one read travel together so that a script written
/// in one piece is queued whole before any of its searches starts.
fn read_lines(input: &mut impl BufRead, partial: &mut Vec<u8>) -> io::Result<Option<Vec<String>>> {
    // Past MAX_LINE the rest of an overlong line is dropped as it comes, so no input can
    // make memory grow without end.
    let mut skipping = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if partial.is_empty() || skipping {
                return Ok(None);
            }
            return Ok(Some(vec![lossy(partial)]));
        }
        let n = buf.len();
        if skipping {
            let end = buf.iter().position(|&b| b == b'\n');
            input.consume(end.map_or(n, |i| i + 1));
            if end.is_some() {
                skipping = false;
            }
            continue;
        }
        let old_len = partial.len();
        partial.extend_from_slice(buf);
        input.consume(n);
        // Only the new bytes can hold a newline: searching all of a long line at every read
        // would be quadratic in its length.
        if let Some(end) = partial[old_len..]
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|i| old_len + i)
        {
            let rest = partial.split_off(end + 1);
            let mut done = std::mem::replace(partial, rest);
            done.pop();
            return Ok(Some(done.split(|&b| b == b'\n').map(lossy).collect()));
        }
        if partial.len() > MAX_LINE {
            eprintln!(
                "othbook nboard: a line longer than {} MiB was ignored",
                MAX_LINE >> 20
            );
            partial.clear();
            partial.shrink_to(1 << 16);
            skipping = true;
        }
    }
}

/// A line with its bytes that are not UTF-8 replaced: GUIs send player names in Latin-1
/// inside `set game`, and one bad byte must not end the session.
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .trim_end_matches('\r')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    fn server() -> NboardServer {
        let engine = Engine::new(EngineOptions {
            hash_mb: crate::engine::HashSize::of(1),
            ..EngineOptions::default()
        });
        NboardServer::new(engine, Depth::of(20), Duration::from_secs(5))
    }

    fn set(s: &mut NboardServer, what: &str) {
        let (mut out, mut diag) = (Vec::new(), Vec::new());
        s.set(what, &mut out, &mut diag).unwrap();
        assert!(diag.is_empty(), "{}", String::from_utf8_lossy(&diag));
    }

    #[test]
    fn regression_an_endless_line_grew_memory_without_bound() {
        let mut bytes = vec![b'x'; MAX_LINE + (1 << 17)];
        bytes.extend_from_slice(b"\nping 1\n");
        let mut input = io::BufReader::with_capacity(1 << 16, io::Cursor::new(bytes));
        let mut partial = Vec::new();
        let lines = read_lines(&mut input, &mut partial).unwrap();
        assert_eq!(lines, Some(vec!["ping 1".to_string()]));
        assert!(partial.capacity() < 2 * MAX_LINE);
        assert_eq!(read_lines(&mut input, &mut partial).unwrap(), None);
    }

    /// A damaged block of a lazily checked book must not end the session at `go` or `hint`:
    /// the book is dropped with a word on stderr and the engine searches.
    #[test]
    fn regression_damaged_lazy_book_ended_the_nboard_session() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.book");
        Book::write_damaged_default(&path);
        let book = Book::open_lazy(&path).expect("opens: only reads fail");
        let mut s = server().with_book(Some(Arc::new(book)));
        set(&mut s, "depth 2");
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        s.hint(3, &stop, &mut out).expect("the session goes on");
        s.go(&stop, &mut out).expect("the session goes on");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("=== "), "{text}");
        assert!(!text.contains("book move"), "{text}");
        assert!(s.book.is_none());
    }

    /// `go` budgets from the game's clock, not from the fixed per-move time alone.
    #[test]
    fn regression_nboard_go_ignored_the_game_clock() {
        let mut s = server();
        set(
            &mut s,
            &format!("game (;GM[Othello]TI[0:04]TY[8]{START}B[F5//1.5];)"),
        );
        // White's 4 s over its 30 moves or so: far below the 5 s per move.
        let white = s.move_budget();
        assert!(white <= Duration::from_secs(1), "{white:?}");
        s.play("D6/0.00/3.9", &mut Vec::new()).unwrap();
        // Black has 2.5 s left.
        let black = s.move_budget();
        assert!(black <= Duration::from_millis(1250), "{black:?}");
        s.play("C3", &mut Vec::new()).unwrap();
        // White has 0.1 s left: never more than half of it.
        assert!(s.move_budget() <= Duration::from_millis(50));
        set(&mut s, &format!("game (;GM[Othello]TY[8]{START}B[F5];)"));
        assert_eq!(s.move_budget(), Duration::from_secs(5), "no clock: --time");
    }
}
