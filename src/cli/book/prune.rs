//! `othbook book prune`: a book cut down to the positions played in more games, as building
//! with a higher `--min-games` would have made it, and/or to the moves within a value window
//! of the best, with its values kept.

use super::output;
use crate::cli::common::bad;
use crate::cli::output_path::Output;
use anyhow::Result;
use othbook::book::{BookData, CutError, CutReport, RelinkReport, SCORE_SCALE};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book prune`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "--min-games: positions, moves and lines played in fewer games are dropped, \
as `othbook build --min-games N` would have left them out (positions `book deviate` added, \
which no game reached, stay); the game table is kept whole.\n\n\
--window D (an evaluated book): at every position, only the moves whose value is within D \
discs of the best move's are kept, for both sides, as Edax's and Egaroucid's book tools \
prune; positions those moves no longer reach from the start are dropped, and so are the \
lines of games through a dropped move. With both, --min-games is applied first.\n\n\
In an evaluated book a dropped move becomes a move out of the book: where the position it led \
to had a value, that value can become its parent's leaf, so every kept position keeps the value \
it had and nothing needs searching again.\n\n\
Examples:\n  othbook book prune books/wthor.book --min-games 100 -o small.book\n  \
othbook book prune evaluated.book --window 2 -o sharp.book"
)]
#[command(group(clap::ArgGroup::new("cut").required(true).multiple(true).args(["min_games", "window"])))]
pub struct Args {
    /// The book to prune.
    book: PathBuf,
    /// Keep positions and moves played in at least this many games (more than the book's own
    /// minimum, which `othbook info` shows).
    #[arg(long)]
    min_games: Option<u32>,
    /// Keep only the moves whose value is within this many discs of the best move's at their
    /// position (0 to 128; decimals allowed). Needs an evaluated book.
    #[arg(long, value_name = "DISCS", value_parser = parse_window)]
    window: Option<i32>,
    /// The book to write (a file). It is locked while the command runs: a second othbook
    /// writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Output,
}

/// A window in discs (0 to 128), as hundredths of a disc.
fn parse_window(text: &str) -> Result<i32, String> {
    let discs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of discs"))?;
    if !(0.0..=128.0).contains(&discs) {
        return Err(format!("{text} discs is out of range: use 0 to 128"));
    }
    Ok((discs * f64::from(SCORE_SCALE)).round() as i32)
}

/// `data` cut as `args` asks, and what each cut did (games first, then the window).
fn cut(args: &Args, data: BookData) -> Result<(BookData, Vec<(String, CutReport)>)> {
    let refused = |e: CutError| match e {
        CutError::BelowBookMinimum { .. } | CutError::NotEvaluated | CutError::NoStart => {
            bad(format!("{}: {e}", args.book.display()))
        }
        other => other.into(),
    };
    if args.window.is_some() && data.info.evaluation.is_none() {
        return Err(refused(CutError::NotEvaluated));
    }
    let mut reports = Vec::new();
    let mut book = data;
    if let Some(min) = args.min_games {
        let (pruned, report) = book.pruned(min).map_err(refused)?;
        reports.push((format!("played in {min} games or more"), report));
        book = pruned;
    }
    if let Some(w) = args.window {
        let (pruned, report) = book.pruned_to_window(w).map_err(refused)?;
        let discs = f64::from(w) / f64::from(SCORE_SCALE);
        reports.push((
            format!(
                "moves within {discs} {} of the best and the positions they reach",
                if discs == 1.0 { "disc" } else { "discs" }
            ),
            report,
        ));
        book = pruned;
    }
    Ok((book, reports))
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let target = output::target(&args.book, Some(&args.output))?;
    let data = output::read(&args.book)?;
    let (pruned, reports) = cut(&args, data)?;
    output::write(target.path(), &pruned)?;
    for (what, report) in &reports {
        writeln!(
            out,
            "{} of {} positions and {} of {} lines kept ({what})",
            report.positions.1, report.positions.0, report.lines.1, report.lines.0
        )?;
    }
    if pruned.info.evaluation.is_some() {
        let taken: u64 = reports.iter().map(|(_, r)| r.leaves_taken).sum();
        let missing: u64 = reports.iter().map(|(_, r)| r.leaves_missing).sum();
        if taken > 0 || missing > 0 {
            writeln!(
                out,
                "{taken} leaves took the value of a dropped move; {missing} lost a move without \
                 a value (`othbook book evaluate` searches them)"
            )?;
        }
        let valued = pruned.positions.iter().filter(|p| p.eval.value.is_some());
        let missing = pruned.positions.iter().filter(|p| !p.eval.leaf.is_known());
        let relinked = RelinkReport {
            valued: valued.count() as u64,
            missing: missing.count() as u64,
            stale: 0,
        };
        output::summary(out, target.path(), &pruned, &relinked)?;
    }
    Ok(())
}
