//! Query latency on a built book: the library calls behind `othbook explore` and `othbook
//! games find`, timed in this process (no process start), and the whole commands for
//! comparison.

use anyhow::{Context, Result};
use othbook::board::{format_moves, Move, Position};
use othbook::book::{Book, GameTable};
use othbook::openings::Openings;
use othbook::report::explore::ExploreQuery;
use othbook::report::games_list::FindReport;
use othbook::report::{ExploreReport, OpeningRef};
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Games listed by a `games find` query, as the command lists by default.
const LISTED: usize = 20;

/// Times of repeated runs of one query.
struct Times(Vec<Duration>);

impl Times {
    fn of(repeat: usize, mut run: impl FnMut()) -> Times {
        // One untimed run first: the book's pages and checks are then warm, as in a server.
        run();
        Times(
            (0..repeat.max(1))
                .map(|_| {
                    let t = Instant::now();
                    run();
                    t.elapsed()
                })
                .collect(),
        )
    }

    /// The `p`-th quantile (0-1), nearest rank.
    fn quantile(&self, p: f64) -> Duration {
        let mut v = self.0.clone();
        v.sort_unstable();
        let rank = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len());
        v[rank - 1]
    }

    fn p50_p99(&self) -> String {
        format!("{} / {}", ms(self.quantile(0.5)), ms(self.quantile(0.99)))
    }
}

fn ms(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else {
        format!("{:.1} ms", secs * 1e3)
    }
}

fn opening(moves: &[Move]) -> Option<OpeningRef> {
    OpeningRef::along_from(Openings::standard(), &Position::START.board, moves)
}

/// `othbook explore LINE`'s work: the book's statistics and moves at the position.
fn explore(book: &Book, pos: &Position, moves: &[Move]) -> Result<ExploreReport> {
    Ok(ExploreReport::build(
        book,
        ExploreQuery {
            pos,
            opening: opening(moves),
            scores: None,
            eval_asked: false,
            games: None,
        },
    )?)
}

/// `othbook games find LINE`'s work once the table is read: the games reaching the position
/// and the report listing the first of them. Returns the number found.
fn find(table: &GameTable, pos: &Position, moves: &[Move]) -> Result<usize> {
    let found = table.find(&pos.board, usize::MAX, None, 1)?;
    let report = FindReport::build(table, &found, pos, LISTED, opening(moves));
    black_box(&report);
    Ok(found.matches.len())
}

/// Times each query `repeat` times on `book_path` and prints the figures.
pub fn measure(book_path: &Path, lines: &[Vec<Move>], repeat: usize) -> Result<()> {
    let t = Instant::now();
    let book = Book::open_lazy(book_path).with_context(|| format!("{}", book_path.display()))?;
    println!("open the book (checks deferred): {}", ms(t.elapsed()));
    let mut table = None;
    let read = Times::of(repeat.min(5), || {
        table = Some(book.games().expect("the table reads"));
    });
    let Some(Some(table)) = table else {
        println!("the book has no game table: `games find` not measured");
        return Ok(());
    };
    println!(
        "read the game table ({} games; every `games find` and filtered query does): p50 {}",
        table.len(),
        ms(read.quantile(0.5))
    );
    println!("\n| position | in book | games found | explore p50 / p99 | games find p50 / p99 |");
    println!("|---|---|---|---|---|");
    for moves in lines {
        let pos = Position::START
            .replay(moves.iter().copied())
            .context("a query line")?
            .end;
        let in_book = book.try_probe(&pos.board)?.map_or(0, |s| s.games());
        let explored = Times::of(repeat, || {
            black_box(explore(&book, &pos, moves).expect("explore"));
        });
        let mut found = 0;
        let finds = Times::of(repeat, || {
            found = find(&table, &pos, moves).expect("games find");
        });
        let name = if moves.is_empty() {
            "start".to_string()
        } else {
            format_moves(moves)
        };
        println!(
            "| {name} | {in_book} | {found} | {} | {} |",
            explored.p50_p99(),
            finds.p50_p99()
        );
    }
    println!("({repeat} timed runs each after one untimed; p99 is the nearest rank)");
    Ok(())
}

/// Times whole `othbook` commands (process start, open, table read, query, output).
pub fn commands(othbook: &Path, book_path: &Path, line: &str, repeat: usize) -> Result<()> {
    let book = book_path.to_str().context("the book's path is not UTF-8")?;
    for args in [
        vec!["explore", "--book", book, line],
        vec!["games", "find", "--book", book, line],
    ] {
        let mut failed = None;
        let times = Times::of(repeat, || {
            let status = Command::new(othbook)
                .args(&args)
                .stdout(Stdio::null())
                .status();
            if !status.as_ref().is_ok_and(std::process::ExitStatus::success) {
                failed = Some(status);
            }
        });
        if let Some(status) = failed {
            anyhow::bail!("othbook {}: {status:?}", args.join(" "));
        }
        println!(
            "`othbook {}`, the whole command: p50 / p99 {}",
            args.join(" ").replace(book, "BOOK"),
            times.p50_p99()
        );
    }
    Ok(())
}
