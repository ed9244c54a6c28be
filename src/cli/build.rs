//! `othbook build`: reads game files of any supported format and writes an opening book.

use super::common::bad;
use anyhow::{Context, Result};
use othbook::book::{build, write_book, BuildOptions, GameFilter, PlayerColor, MAX_PLIES};
use othbook::transcript::{ingest, IngestOptions};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

/// Which side a `--player` must have had.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Side {
    /// Black or white.
    Either,
    /// Black.
    Black,
    /// White.
    White,
}

/// Arguments of `othbook build`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The output is byte-identical for the same inputs and options, whatever \
the thread count or input order. Its date is $SOURCE_DATE_EPOCH if set, else the newest input's \
modification time.\n\nExamples:\n  othbook build ../shared/data/wthor/*.wtb -o wthor.book \
--plies 30 --min-games 4\n  othbook build games.pgn -o mine.book --player \"Tamenori\" --years 1990-2000"
)]
pub struct Args {
    /// Game files (.gam[.gz], .wtb, .ggf, .pgn, move lists, CSV).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The book to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Plies of each game to keep (passes count).
    #[arg(long, default_value_t = 60)]
    plies: u8,
    /// Leave out positions, moves and lines seen in fewer games (after exact counting).
    #[arg(long, default_value_t = 1)]
    min_games: u32,
    /// Only games of this player (case-insensitive part of the name).
    #[arg(long)]
    player: Option<String>,
    /// The side --player must have had.
    #[arg(long, value_enum, default_value = "either")]
    player_side: Side,
    /// Only games of these years: `1990-2000` or `1995`.
    #[arg(long)]
    years: Option<String>,
    /// Only games of an event whose name contains this text (case-insensitive).
    #[arg(long)]
    event: Option<String>,
    /// Only games played to the end.
    #[arg(long)]
    complete_only: bool,
    /// Read every input as this format (default: by extension and content).
    #[arg(long = "input-format")]
    input_format: Option<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

fn parse_years(text: &str) -> Result<(u16, u16)> {
    let err = || bad(format!("--years {text:?}: use A-B or A, e.g. 1990-2000"));
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let a: u16 = a.parse().map_err(|_| err())?;
    let b: u16 = b.parse().map_err(|_| err())?;
    if a > b {
        return Err(err());
    }
    Ok((a, b))
}

/// The book's date: `SOURCE_DATE_EPOCH`, else the newest input's modification time, so that
/// rebuilding the same inputs gives the same bytes.
fn created(inputs: &[PathBuf]) -> Result<u64> {
    if let Ok(v) = std::env::var("SOURCE_DATE_EPOCH") {
        return v.trim().parse().map_err(|_| {
            bad(format!(
                "SOURCE_DATE_EPOCH={v:?} is not a number of seconds"
            ))
        });
    }
    let mut newest = 0;
    for p in inputs {
        let t = std::fs::metadata(p)
            .and_then(|m| m.modified())
            .with_context(|| format!("{}", p.display()))?;
        let secs = t
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        newest = newest.max(secs);
    }
    Ok(newest)
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    if args.plies == 0 || args.plies > MAX_PLIES {
        return Err(bad(format!("--plies {}: use 1 to {MAX_PLIES}", args.plies)));
    }
    if args.min_games == 0 {
        return Err(bad("--min-games must be at least 1"));
    }
    super::common::distinct_files(&args.inputs, Some(&args.output))?;
    if args.player.is_none() && !matches!(args.player_side, Side::Either) {
        // It would be stored in the book's options, where it filters nothing but stops merges.
        return Err(bad("--player-side needs --player"));
    }
    let format = super::common::input_format(args.input_format.as_deref())?;
    let options = BuildOptions {
        plies: args.plies,
        min_games: args.min_games,
        filter: GameFilter {
            player: args.player.clone(),
            player_color: match args.player_side {
                Side::Either => PlayerColor::Either,
                Side::Black => PlayerColor::Black,
                Side::White => PlayerColor::White,
            },
            years: args.years.as_deref().map(parse_years).transpose()?,
            event: args.event.clone(),
            complete_only: args.complete_only,
        },
    };
    let threads = match args.threads {
        Some(0) => return Err(bad("--threads must be at least 1")),
        Some(n) => n.min(1024),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting worker threads")?;
    let date = created(&args.inputs)?;
    let start = Instant::now();
    let ingested = pool.install(|| {
        ingest(
            &args.inputs,
            &IngestOptions {
                format,
                ..IngestOptions::default()
            },
        )
    })?;
    writeln!(out, "{}", ingested.summary)?;
    // A book that silently lacks a whole input is worse than no book.
    super::common::unreadable_inputs(&ingested.summary, "no book written")?;
    let read_secs = start.elapsed().as_secs_f64();
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(ingested.games.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let (data, report) =
        pool.install(|| build(&ingested.games, &options, date, &|n| bar.inc(n)))?;
    bar.finish_and_clear();
    let bytes = write_book(&args.output, &data)?;
    writeln!(
        out,
        "{}: {} game{} used ({} filtered out, {} not from the start), {} positions, {} moves, \
         {} lines, {bytes} bytes; read {read_secs:.2} s, total {:.2} s",
        args.output.display(),
        report.games_used,
        if report.games_used == 1 { "" } else { "s" },
        report.filtered_out,
        report.other_start,
        data.positions.len(),
        data.moves.len(),
        data.nodes.len(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
