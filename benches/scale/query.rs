//! Query latency on a built book: the library calls behind `othbook explore` and `othbook
//! games find` (with and without filters), timed in this process (no process start), and the
//! whole commands for comparison.

use anyhow::{Context, Result};
use othbook::board::{format_moves, Move, Position};
use othbook::book::{Book, GameFilter, GamesQuery, PlayerColor, Years};
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

/// `othbook games find LINE`'s work: the games reaching the position (through the book's
/// index of its games when it has one, else over its table) that `filter` keeps, and the
/// report listing the first of them. Returns the number found.
fn find(book: &Book, pos: &Position, moves: &[Move], filter: Option<&GameFilter>) -> Result<usize> {
    let q = GamesQuery {
        board: &pos.board,
        max_ply: usize::MAX,
        filter,
        min_games: 1,
        keep: Some(LISTED),
        rated: None,
        every_game: false,
    };
    let found = book.find_games(None, &q)?;
    let report = FindReport::build(&found.excerpt, &found.games, pos, LISTED, opening(moves));
    black_box(&report);
    Ok(found.games.total)
}

fn line_name(moves: &[Move]) -> String {
    if moves.is_empty() {
        "start".to_string()
    } else {
        format_moves(moves)
    }
}

fn position(moves: &[Move]) -> Result<Position> {
    Ok(Position::START
        .replay(moves.iter().copied())
        .context("a query line")?
        .end)
}

/// Times each query `repeat` times on `book_path` and prints the figures.
pub fn measure(book_path: &Path, lines: &[Vec<Move>], repeat: usize) -> Result<()> {
    let t = Instant::now();
    let book = Book::open_lazy(book_path).with_context(|| format!("{}", book_path.display()))?;
    println!("open the book (checks deferred): {}", ms(t.elapsed()));
    if !book.has_games() {
        println!("the book has no game table: `games find` not measured");
    }
    println!("\n| position | in book | games found | explore p50 / p99 | games find p50 / p99 |");
    println!("|---|---|---|---|---|");
    for moves in lines {
        let pos = position(moves)?;
        let in_book = book.try_probe(&pos.board)?.map_or(0, |s| s.games());
        let explored = Times::of(repeat, || {
            black_box(explore(&book, &pos, moves).expect("explore"));
        });
        let mut found = 0;
        let finds = Times::of(repeat, || {
            found = find(&book, &pos, moves, None).expect("games find");
        });
        println!(
            "| {} | {in_book} | {found} | {} | {} |",
            line_name(moves),
            explored.p50_p99(),
            finds.p50_p99()
        );
    }
    println!("({repeat} timed runs each after one untimed; p99 is the nearest rank)");
    Ok(())
}

/// Times `games find` with the filters (a decade, one year, the most active player, both)
/// at each position of `lines`.
pub fn filtered(book_path: &Path, lines: &[Vec<Move>], repeat: usize, player: &str) -> Result<()> {
    let book = Book::open_lazy(book_path).with_context(|| format!("{}", book_path.display()))?;
    let years = |a, b| Some(Years::new(a, b).expect("years in order"));
    let filter = |player: Option<&str>, years| {
        GameFilter::new(
            player.map(str::to_string),
            PlayerColor::Either,
            years,
            None,
            false,
        )
        .expect("a filter")
    };
    let filters = [
        ("--years 2000-2009", filter(None, years(2000, 2009))),
        ("--years 2020", filter(None, years(2020, 2020))),
        ("--player P1", filter(Some(player), None)),
        (
            "--player P1 --years 2000-2009",
            filter(Some(player), years(2000, 2009)),
        ),
    ];
    println!("\n`games find` with a filter (P1 = {player}), p50 / p99 and the games kept:\n");
    print!("| position |");
    for (name, _) in &filters {
        print!(" {name} |");
    }
    println!("\n|---|{}", "---|".repeat(filters.len()));
    for moves in lines {
        let pos = position(moves)?;
        print!("| {} |", line_name(moves));
        for (_, f) in &filters {
            let mut found = 0;
            let times = Times::of(repeat, || {
                found = find(&book, &pos, moves, Some(f)).expect("games find");
            });
            print!(" {} ({found}) |", times.p50_p99());
        }
        println!();
    }
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
