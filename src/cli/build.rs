//! `othbook build`: reads game files of any supported format and writes an opening book.

use super::common::{bad, threads_arg, years_arg};
use super::interrupt::{self, Interrupted};
use super::output_path::{claim, Output, BOOK};
use super::reading::{input_progress, why_no_games, why_nothing_matched};
use anyhow::{Context, Result};
use othbook::book::external::{Control, ExternalBuild, Step};
use othbook::book::{BookError, BuildOptions, BuildReport, GameFilter, PlayerColor};
use othbook::transcript::people::NameCounts;
use othbook::transcript::{ingest_each, IngestOptions, IngestSummary};
use std::io::Write;
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
the thread count, input order or --memory. Its date is $SOURCE_DATE_EPOCH if set, else the newest input's \
modification time. While it runs, the book is locked (a lock file .NAME.lock beside it): a \
second othbook writing the same book stops at once with exit code 75.\n\nBeyond --memory, \
games are built in parts written to a temporary folder beside the book (.NAME.build-tmp-PID/, \
as large as a book of those games built with --min-games 1), merged at the end; the folder is \
removed however the build ends, or by the next build of that book after a kill.\n\nExamples:\n  othbook build ../shared/data/wthor/*.wtb -o wthor.book \
--plies 30 --min-games 4\n  othbook build games.pgn -o mine.book --player \"Tamenori\" --years 1990-2000"
)]
pub struct Args {
    /// Game files (.gam[.gz], .wtb, .ggf, .pgn, move lists, CSV); `-` or a pipe is read as
    /// a stream.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The book to write (a file: not `-`).
    #[arg(short, long)]
    output: Output,
    /// Plies of each game to keep (passes count). With the default 40 plies and
    /// --min-games 4, the 127,475 WTHOR games make a 15 MB book (games included); --plies 60 --min-games 1
    /// keeps everything (about 650 MB for WTHOR).
    #[arg(long, default_value_t = 40)]
    plies: u8,
    /// Leave out positions, moves and lines seen in fewer games (after exact counting).
    /// Books to be merged later need --min-games 1.
    #[arg(long, default_value_t = 4)]
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
    /// Count identical games once (same line up to the symmetries of the start position),
    /// e.g. a collection given both as PGN and as WTHOR.
    #[arg(long)]
    dedupe: bool,
    /// Write the book even when no game is left (by default that is an error and nothing
    /// is written).
    #[arg(long)]
    allow_empty: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Memory for the games and tables being built (`512M`, `2G`; K, M, G are powers of
    /// 1024), about: beyond it, parts go to a temporary folder beside the book.
    #[arg(long, default_value = "1G", value_parser = parse_memory)]
    memory: u64,
}

/// A memory size: bytes, or a number with K, M or G (powers of 1024), at least 64K.
pub(super) fn parse_memory(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = match t
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit() && *c != '.')
    {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches(['B', 'I'])
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("{text:?}: use a size such as 512M or 2G")),
    };
    let n: f64 = digits
        .parse()
        .map_err(|_| format!("{text:?}: use a size such as 512M or 2G"))?;
    let bytes = n * (1u64 << shift) as f64;
    if !(65536.0..=1.8e19).contains(&bytes) {
        return Err(format!("{text:?}: use at least 64K"));
    }
    Ok(bytes as u64)
}

/// Progress of the stages after reading (runs written, the merge): a line under the input
/// bar, hidden when standard error is not a terminal.
pub(super) fn stage_line(multi: &indicatif::MultiProgress) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let line = multi.add(indicatif::ProgressBar::new_spinner());
    line.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    line
}

/// The message of a stage.
pub(super) fn stage_text(step: Step) -> String {
    match step {
        Step::Spilled { runs, games } => format!(
            "{games} games built in {runs} part{} written to the temporary folder",
            if runs == 1 { "" } else { "s" }
        ),
        Step::Counted { games } => {
            format!("{games} games counted and kept in the temporary folder")
        }
        Step::Merge { done, total } => {
            format!("merging: {done} of {total} positions of the parts")
        }
    }
}

/// A book error, with a stop asked by a signal as [`Interrupted`] (exit code 130).
pub(super) fn stopped(e: BookError) -> anyhow::Error {
    match e {
        BookError::Stopped => Interrupted("interrupted: no book written".into()).into(),
        e => e.into(),
    }
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
    // Standard input and pipes have no date worth keeping.
    for p in inputs.iter().filter(|p| p.as_os_str() != "-") {
        let Ok(t) = std::fs::metadata(p).and_then(|m| m.modified()) else {
            continue;
        };
        let secs = t
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        newest = newest.max(secs);
    }
    Ok(newest)
}

/// The build options of `args`, checked by the library (the one place of their rules).
fn build_options(args: &Args) -> Result<BuildOptions> {
    let filter = GameFilter::new(
        args.player.clone(),
        match args.player_side {
            Side::Either => PlayerColor::Either,
            Side::Black => PlayerColor::Black,
            Side::White => PlayerColor::White,
        },
        args.years.as_deref().map(years_arg).transpose()?,
        args.event.clone(),
        args.complete_only,
    );
    filter
        .and_then(|filter| BuildOptions::new(args.plies, args.min_games, filter))
        .map_err(|e| bad(format!("--{e}")))
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let options = build_options(&args)?;
    let output = args.output.require_file("-o", BOOK)?;
    super::common::distinct_files(&args.inputs, &[output])?;
    let format = super::common::input_format(args.input_format.as_deref())?;
    // Held from before the games are read: a second build of the same book stops at once.
    let output = claim(output)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads_arg(args.threads)?.used())
        .build()
        .context("starting worker threads")?;
    let date = created(&args.inputs)?;
    let start = Instant::now();
    let (bar, progress) = input_progress(&args.inputs);
    let multi = indicatif::MultiProgress::new();
    let bar = multi.add(bar);
    let stage = stage_line(&multi);
    let stop = interrupt::install();
    let on_step = |step: Step| stage.set_message(stage_text(step));
    let control = Control {
        stop,
        progress: &on_step,
    };
    let output_path = output.path().to_path_buf();
    let mut builder = ExternalBuild::new(&options, date, args.memory, &output_path, control)?;
    // Names are counted only to explain filters that match nothing.
    let filtered = *options.filter() != GameFilter::default();
    let mut names = NameCounts::default();
    let ingest_options = IngestOptions {
        format,
        dedupe: args.dedupe,
        ..IngestOptions::default()
    };
    let summary = pool.install(|| {
        ingest_each(&args.inputs, &ingest_options, progress, &mut |_, games| {
            if filtered {
                games.iter().for_each(|g| names.add(g));
            }
            builder.push(games).map_err(stopped)
        })
    });
    bar.finish_and_clear();
    let summary = summary?;
    writeln!(out, "{summary}")?;
    // A book that silently lacks a whole input is worse than no book.
    super::common::unreadable_inputs(&summary, "no book written")?;
    let read_secs = start.elapsed().as_secs_f64();
    let report = builder.report().clone();
    if report.games_used == 0 && !args.allow_empty {
        return Err(no_games_used(&summary, &report, &names, options.filter()));
    }
    let (written, report) = pool
        .install(|| builder.finish(&output_path))
        .map_err(stopped)?;
    stage.finish_and_clear();
    let bytes = written.bytes;
    writeln!(
        out,
        "{}: {} game{} used ({} filtered out, {} not from the start), {} positions, {} moves, \
         {} lines, {} ({bytes} bytes); read {read_secs:.2} s, total {:.2} s",
        output.path().display(),
        report.games_used,
        if report.games_used == 1 { "" } else { "s" },
        report.filtered_out,
        report.other_start,
        written.positions,
        written.moves,
        written.nodes,
        human_size(bytes),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Why a build used no game, for its error: nothing read, only set-up positions, or
/// filters that match nothing (with the names that come closest, from `names`).
fn no_games_used(
    summary: &IngestSummary,
    report: &BuildReport,
    names: &NameCounts,
    filter: &GameFilter,
) -> anyhow::Error {
    let why = if summary.accepted == 0 {
        why_no_games(summary)
    } else if report.other_start == report.games_read {
        "every game starts from a set-up position; a book holds games from the standard \
         start"
            .to_string()
    } else {
        format!(
            "no game matched the filters: {}",
            why_nothing_matched(
                names,
                filter.player(),
                filter.event(),
                filter.years().map(othbook::book::Years::bounds),
            )
        )
    };
    anyhow::anyhow!("no book written: {why} (--allow-empty writes an empty book)")
}

/// `6.1 MB`-style size.
fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.1} kB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}
