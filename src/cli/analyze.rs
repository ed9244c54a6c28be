//! `othbook analyze`: iterative-deepening analysis of a position, one line per iteration.
//!
//! The opening book is probed first: its statistics for the position and its moves are shown
//! before the search, and the best move's book record after it.

use super::book_values::{trust_text, value_text, PositionValues};
use super::common::{
    bad, check_hash, check_solve_size, line_from_args, opening_along, request_error, threads_arg,
    write_equivalent_moves, write_opening,
};
use anyhow::Result;
use othbook::board::{format_moves, Move, Position};
use othbook::book::trust::Trust;
use othbook::book::Book;
use othbook::engine::{
    Analysis, AnyEval, Depth, Engine, EngineOptions, EvalKind, Iteration, Limits, Mode, ScoreKind,
    SearchRequest, Selectivity,
};
use othbook::wire::seconds::{Seconds, MAX_SECONDS};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Prints what the book knows of `pos` (position, its value in an evaluated book, and up to
/// 8 moves); returns its moves.
fn print_book(
    out: &mut impl Write,
    book: &othbook::book::Book,
    pos: &othbook::board::Position,
) -> Result<Vec<(Move, othbook::book::MoveStats)>> {
    // A damaged block (books over VERIFY_ALL_UP_TO are checked as read) fails the command
    // here, before the search, rather than reading as a position the book does not hold.
    let Some(stats) = book.try_probe(&pos.board)? else {
        writeln!(out, "book: position not in the book")?;
        return Ok(Vec::new());
    };
    let c = stats.for_side(pos.side);
    let pct = |x: u32| 100.0 * f64::from(x) / stats.known().max(1) as f64;
    if stats.games() == 0 && book.info().games == 0 {
        writeln!(
            out,
            "book: 0 games (the book holds none: imported from another program's book)"
        )?;
    } else if stats.games() == 0 {
        writeln!(out, "book: 0 games (deviation learning added the position)")?;
    } else {
        writeln!(
            out,
            "book: {} games, black {:.0}% draw {:.0}% white {:.0}%, average {} (black - white)",
            stats.games(),
            pct(c.black_wins),
            pct(c.draws),
            pct(c.white_wins),
            c.average_diff()
                .map_or("-".to_string(), |d| format!("{d:+.1}"))
        )?;
    }
    print_book_value(out, book, pos)?;
    let moves = book.try_moves(&pos.board)?;
    let total: u64 = moves.iter().map(|m| m.1.games()).sum();
    writeln!(
        out,
        "{:>6} {:>7} {:>6} {:>7} {:>8}",
        "move", "games", "share", "points", "avg"
    )?;
    for (mv, st) in moves.iter().take(8) {
        writeln!(
            out,
            "{:>6} {:>7} {:>5.1}% {:>7} {:>8}",
            mv.to_string(),
            st.games(),
            100.0 * st.games() as f64 / total.max(1) as f64,
            st.score()
                .map_or("-".to_string(), |x| format!("{:.0}%", 100.0 * x)),
            // Black minus white, like the line above and `explore`.
            st.for_side(pos.side)
                .average_diff()
                .map_or("-".to_string(), |d| format!("{d:+.1}"))
        )?;
    }
    write_equivalent_moves(out, &pos.board, moves.iter().take(8).map(|m| m.0))?;
    Ok(moves)
}

/// The position's value in an evaluated book, for the side to move like the search's
/// scores, and the book's best move.
fn print_book_value(
    out: &mut impl Write,
    book: &othbook::book::Book,
    pos: &othbook::board::Position,
) -> Result<()> {
    let Some(values) = PositionValues::of(book, pos)? else {
        return Ok(());
    };
    match (values.value, values.best()) {
        (Some(v), Some(best)) => writeln!(
            out,
            "book value: {} for {} ({}, depth {}), {}, best book move {}{}",
            value_text(v),
            pos.side,
            v.kind.word(),
            v.depth,
            trust_text(
                &Trust::of_book_value(v, &values.info, pos.board.empty_count()),
                pos.side
            ),
            best.mv,
            if best.in_book {
                ""
            } else {
                " (the searched leaf: it leaves the book)"
            }
        )?,
        _ => writeln!(out, "book value: none (not evaluated yet)")?,
    }
    Ok(())
}

/// Arguments of `othbook analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Scores are in discs for the side to move; `exact` lines are perfect \
play. Without --depth or --time the search stops at depth 12 (or solves a position with at \
most 12 empties). With --time the search goes on to the exact solve as soon as the solve is \
predicted to finish in the time left.\n\n\
Examples:\n  othbook analyze f5d6c3 --depth 14\n  othbook analyze --time 10 --threads 2 --multipv 3\n  \
othbook analyze --position \"<64 chars> X\" --exact"
)]
pub struct Args {
    /// Moves played from the start (or from --position), e.g. `f5d6c3` or `f5 d6 c3`.
    moves: Vec<String>,
    /// Start from this position: 64 characters (X/* black, O white, -/. empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Deepest iteration in plies (1-60).
    #[arg(long, conflicts_with = "time")]
    depth: Option<u32>,
    /// Time budget in seconds (at most a week); the deepest finished iteration is kept.
    #[arg(long, allow_hyphen_values = true)]
    time: Option<Seconds>,
    /// Solve exactly instead of searching with the evaluation.
    #[arg(long, conflicts_with_all = ["wld", "depth"])]
    exact: bool,
    /// Solve for win/draw/loss only.
    #[arg(long, conflicts_with = "depth")]
    wld: bool,
    /// Solve (--exact, --wld) without --time even above 36 empties, where it may never finish.
    #[arg(long)]
    force: bool,
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (1-65536).
    #[arg(long, default_value_t = 128)]
    hash: usize,
    /// Number of best moves to score (1-64).
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Multi-ProbCut confidence of the midgame search: 73, 87, 95, 98, 99 or exact (100);
    /// solves are always exact.
    #[arg(long, default_value_t = othbook::engine::Selectivity::MIDGAME_DEFAULT)]
    selectivity: othbook::engine::Selectivity,
    /// Search algorithm: only pvs. Minimax and alpha-beta left the engine: the teaching
    /// players of `othbook teach` have them.
    #[arg(long, default_value = "pvs")]
    algo: String,
    /// Opening book to probe before searching (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree, when there is one).
    #[arg(long, conflicts_with = "no_book")]
    book: Option<PathBuf>,
    /// Do not probe the opening book.
    #[arg(long)]
    no_book: bool,
    /// Evaluation: pattern (trained patterns) or hand (hand-made features).
    #[arg(long, default_value = "pattern")]
    eval: EvalKind,
}

/// `--algo`: PVS is the engine's only search; the teaching algorithms moved out of it.
fn retired_algo(algo: &str) -> Result<()> {
    match algo.to_ascii_lowercase().as_str() {
        "pvs" => Ok(()),
        "minimax" | "alphabeta" | "alpha-beta" | "ab" => Err(bad(format!(
            "--algo {algo} was retired from the engine: `othbook teach match --game othello \
             --players minimax,alphabeta --depth D` runs the teaching players"
        ))),
        _ => Err(bad(format!(
            "unknown algorithm {algo:?}: the engine searches with pvs"
        ))),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let threads = threads_arg(args.threads)?;
    let hash = check_hash(args.hash)?;
    retired_algo(&args.algo)?;
    let time = match args.time.clone() {
        None => None,
        Some(t) => Some(
            t.within(0.001, MAX_SECONDS)
                .map_err(|e| bad(format!("--time: {e}")))?
                .duration(),
        ),
    };
    let moves = (!args.moves.is_empty()).then(|| args.moves.join(" "));
    let (start, line, pos) = line_from_args(args.position.as_deref(), moves.as_deref())?;
    let limits = limits_of(&args, time, &pos)?;
    let request =
        SearchRequest::new(pos.board, limits).map_err(|e| request_error(e, Some(&pos)))?;

    // The book is opened before the search so that a bad --book file fails fast.
    let book = super::common::search_book(args.no_book, args.book.as_deref())?;

    // Likewise the table, which may be more memory than the machine gives.
    let engine = Engine::try_with_evaluator(
        EngineOptions {
            threads,
            hash_mb: hash,
        },
        AnyEval::new(args.eval),
    )
    .map_err(|e| bad(e.to_string()))?;
    writeln!(out, "{}", pos.diagram())?;
    writeln!(out, "{} empties", pos.board.empty_count())?;
    write_opening(out, opening_along(&start, &line).as_ref())?;
    let book_moves = match &book {
        Some(b) => print_book(out, b, &pos)?,
        None => Vec::new(),
    };
    if pos.board.must_pass() {
        writeln!(
            out,
            "{} has no legal move: analysing the pass ({} to move after it)",
            pos.side,
            pos.side.opposite()
        )?;
    }
    writeln!(
        out,
        "{:>5} {:>8} {:>12} {:>9} {:>8}  pv",
        "depth", "score", "nodes", "Mn/s", "time"
    )?;
    let mut io_err = None;
    let a = engine.search_with(&request, |it| {
        if io_err.is_none() {
            if let Err(e) = print_iteration(out, it, args.multipv) {
                io_err = Some(e);
            }
        }
    });
    if let Some(e) = io_err {
        return Err(e.into());
    }
    print_best(
        out,
        &a,
        book.as_deref(),
        !book_moves.is_empty(),
        &pos,
        args.selectivity,
        threads.used(),
    )?;
    writeln!(out, "pv: {}", pv_text(&a.pv))?;
    Ok(())
}

/// The search's limits from the arguments: the mode, and depth 12 when neither a depth nor
/// a time is given; a full solve of too many empties is refused unless forced.
fn limits_of(args: &Args, time: Option<Duration>, pos: &Position) -> Result<Limits> {
    let mode = if args.exact {
        Mode::Exact
    } else if args.wld {
        Mode::Wld
    } else {
        Mode::Auto
    };
    if mode != Mode::Auto && time.is_none() && !pos.board.is_game_over() {
        check_solve_size(pos.board.empty_count(), args.force, "the position")?;
    }
    let depth = match (args.depth, time, mode) {
        (Some(d), _, _) => Some(Depth::new(d).map_err(|e| request_error(e, Some(pos)))?),
        (None, None, Mode::Auto) => Some(Depth::of(12)),
        _ => None,
    };
    let limits = Limits {
        depth,
        time,
        mode,
        multipv: args.multipv,
        root_moves: None,
        selectivity: args.selectivity,
    };
    Ok(limits)
}

/// The closing lines: the best move, what the book says of it, its score and trust, the
/// search's effort, and the principal variation. `book_has_moves`: the book lists moves
/// here.
fn print_best(
    out: &mut impl Write,
    a: &Analysis,
    book: Option<&Book>,
    book_has_moves: bool,
    pos: &Position,
    selectivity: Selectivity,
    threads: usize,
) -> Result<()> {
    let what = match a.kind {
        ScoreKind::Midgame => format!("depth {}", a.depth),
        ScoreKind::Exact => "exact".to_string(),
        ScoreKind::Wld => "win/draw/loss".to_string(),
    };
    let best_in_book = match book {
        Some(b) => b.try_move_stats(&pos.board, a.best_move)?,
        None => None,
    };
    if let Some(st) = best_in_book {
        writeln!(
            out,
            "book on {}: {} games, {} points for the mover",
            a.best_move,
            st.games(),
            st.score()
                .map_or("-".to_string(), |x| format!("{:.0}%", 100.0 * x))
        )?;
    } else if book.is_some() && book_has_moves {
        writeln!(
            out,
            "book: {} was not played in the book's games",
            a.best_move
        )?;
    }
    let value = othbook::book::Score {
        score: a.score.clamp(-6400, 6400) as i16,
        depth: a.depth.min(255) as u8,
        kind: a.kind.into(),
    };
    let trust = Trust::of(value, selectivity.percent(), pos.board.empty_count());
    writeln!(
        out,
        "best: {} {} {} ({what}{}), {} nodes in {:.3} s ({:.2} M nodes/s, {threads} thread{})",
        a.best_move,
        score_text(a.kind, a.score),
        trust_text(&trust, pos.side),
        if a.complete { "" } else { ", time ran out" },
        a.nodes,
        a.elapsed.as_secs_f64(),
        a.nodes_per_second() / 1e6,
        if threads == 1 { "" } else { "s" },
    )?;
    Ok(())
}

fn score_text(kind: ScoreKind, score: i32) -> String {
    match kind {
        ScoreKind::Midgame | ScoreKind::Exact => othbook::engine::score_text(score, kind),
        ScoreKind::Wld => match score.signum() {
            1 => "win".into(),
            0 => "draw".into(),
            _ => "loss".into(),
        },
    }
}

/// Moves separated by spaces (easier to read than the compact record form).
fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| format_moves(std::slice::from_ref(m)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_iteration(out: &mut impl Write, it: &Iteration, multipv: usize) -> std::io::Result<()> {
    let depth = match it.kind {
        ScoreKind::Midgame => it.depth.to_string(),
        ScoreKind::Exact => format!("{}@", it.depth),
        ScoreKind::Wld => format!("{}w", it.depth),
    };
    let rate = it.nodes as f64 / it.elapsed.as_secs_f64().max(1e-9) / 1e6;
    for (i, l) in it.lines.iter().take(multipv).enumerate() {
        let bound = if l.exact || i == 0 { "" } else { "<=" };
        if i == 0 {
            write!(
                out,
                "{depth:>5} {:>8} {:>12} {rate:>9.2} {:>7.3}s  ",
                score_text(it.kind, l.score),
                it.nodes,
                it.elapsed.as_secs_f64()
            )?;
        } else {
            write!(
                out,
                "{:>5} {:>8} {:>12} {:>9} {:>8}  ",
                "",
                format!("{bound}{}", score_text(it.kind, l.score)),
                "",
                "",
                ""
            )?;
        }
        writeln!(out, "{}", pv_text(&l.pv))?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a lazily checked book (over 32 MiB), a damaged block read by the book table is an
    /// error before the search, not a position the book does not hold.
    #[test]
    fn regression_analyze_damaged_lazy_book_said_not_in_book() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.book");
        let mut bytes = std::fs::read(othbook::book::default_path()).expect("books/wthor.book");
        // A flipped byte in every data block; the header and the checksums stay intact, so
        // the book opens and only its reads fail.
        let blocks: Vec<_> = othbook::book::Book::from_bytes(bytes.clone(), "wthor.book")
            .unwrap()
            .data_blocks()
            .collect();
        for block in blocks {
            bytes[block.start] ^= 0x40;
        }
        std::fs::write(&path, &bytes).unwrap();
        let book = crate::cli::common::open_book_checking(Some(&path), 0).expect("opens");
        let pos = crate::cli::common::position_from_args(None, Some("f5")).unwrap();
        let mut out = Vec::new();
        let err = print_book(&mut out, &book, &pos).expect_err("damage reported");
        assert!(err.to_string().contains("checksum mismatch"), "{err}");
        assert!(!String::from_utf8(out).unwrap().contains("not in the book"));
    }
}
