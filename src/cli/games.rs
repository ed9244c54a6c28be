//! `othbook games`: read game collections (stats) and convert them between formats.

use super::common::{bad, unreadable_inputs, write_json};
use super::games_players::{PlayersQuery, Sort};
use super::output_path::{claim, Claimed, Output, WTHOR};
use super::reading::{input_progress, why_no_games};
use anyhow::{Context, Result};
use othbook::report::games::GameStatsBuilder;
use othbook::report::{FormatStats, GameStatsReport, NamesReport};
use othbook::transcript::people::{by_count, NameCounts};
use othbook::transcript::write::{write_file, write_text, WriteReport};
use othbook::transcript::{ingest_each, Format, IngestOptions, IngestSummary, Sink};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `othbook games`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Games per format and in total: complete/incomplete, results, lengths, first moves,
    /// skipped games by reason.
    /// Example: othbook games stats ../shared/data/wthor/*.wtb --format json
    Stats(StatsArgs),
    /// Convert games to gam, moves, pgn, ggf or wtb (WTHOR, with WTHOR.JOU/.TRN beside it).
    /// Example: othbook games convert logbook.gam.gz --to pgn -o logbook.pgn
    Convert(ConvertArgs),
    /// Player names with their number of games, most games first (of game files or a book).
    /// Example: othbook games players ../shared/data/wthor/*.wtb --limit 20
    Players(PlayersArgs),
    /// Event (tournament) names with their number of games, most games first.
    /// Example: othbook games events --book books/wthor.book
    Events(NamesArgs),
    /// The games of a book that reach a position, most recent first; filters; export.
    /// Example: othbook games find f5d6c3 --player tamenori
    Find(super::games_find::Args),
}

/// Input options shared by the subcommands.
#[derive(clap::Args, Debug)]
struct Input {
    /// Game files: .gam, .wtb, .ggf, .pgn, .csv, move lists (.txt); any text format may be .gz.
    /// (`games players` and `games events` also read a book: `--book B` or a .book file; with
    /// no file, the default book.)
    files: Vec<PathBuf>,
    /// Read every file as this format (gam, wthor, ggf, pgn, moves, csv) instead of by
    /// extension and content.
    #[arg(long, value_name = "FORMAT")]
    from: Option<Format>,
    /// Stop at the first bad game or unreadable file (exit code 1).
    #[arg(long)]
    strict: bool,
    /// Count identical games once (same line up to the symmetries of the start position).
    #[arg(long)]
    dedupe: bool,
    /// Do not print the ingest summary on stderr.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  othbook games stats ../shared/data/logbook/logbook.gam.gz\n  \
othbook games stats ../shared/data/wthor/*.wtb --format tsv --dedupe"
)]
struct StatsArgs {
    #[command(flatten)]
    input: Input,
    /// Output: table, tsv or json.
    #[arg(long, default_value = "table", value_parser = ["table", "tsv", "json"])]
    format: String,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  othbook games convert ../shared/data/pgn/WTH_2021.pgn --to wtb -o out/WTH_2021.wtb\n  \
othbook games convert games.ggf --to moves -o -   (text formats: - is stdout; .gz compresses)"
)]
struct ConvertArgs {
    #[command(flatten)]
    input: Input,
    /// Output format: gam, moves, pgn, ggf or wtb.
    #[arg(long)]
    to: Format,
    /// Output file (`-` for stdout, text formats only). A file is written whole or not at
    /// all (for wtb, with WTHOR.JOU and WTHOR.TRN) and locked while the command runs: a
    /// second othbook writing it stops at once with exit code 75.
    #[arg(short, long)]
    output: Output,
    /// Write the output even when no game is left (by default that is an error and
    /// nothing is written).
    #[arg(long)]
    allow_empty: bool,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  othbook games players ../shared/data/wthor/*.wtb --limit 20\n  \
othbook games players --book books/wthor.book --search murakami\n  \
othbook games events my.book"
)]
struct NamesArgs {
    #[command(flatten)]
    input: Input,
    /// Count the games of this book (its game table) instead of game files.
    #[arg(long, conflicts_with = "files")]
    book: Option<PathBuf>,
    /// Only names containing this text (case and accents ignored).
    #[arg(long)]
    search: Option<String>,
    /// Show at most this many names (0: all).
    #[arg(long, default_value_t = 0)]
    limit: usize,
    /// Output: table, tsv or json.
    #[arg(long, default_value = "table", value_parser = ["table", "tsv", "json"])]
    format: String,
}

/// Arguments of `othbook games players`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each player's rating is fitted from the results of the games read (or the \
book's games): an Elo (Bradley-Terry) fit by maximum likelihood, a draw half a win, with a \
weak prior of 2 draws against a 1500-rated anchor (docs/ratings.md). With --years only the \
games of those years are counted and fitted (ratings of a period).\n\n\
Examples:\n  othbook games players ../shared/data/wthor/*.wtb --limit 20\n  \
othbook games players --book books/wthor.book --sort rating --limit 20\n  \
othbook games players --book books/wthor.book --years 1990-1999 --search murakami"
)]
struct PlayersArgs {
    #[command(flatten)]
    names: NamesArgs,
    /// Order: games (most first), rating (highest first) or name.
    #[arg(long, value_enum, default_value_t = Sort::Games)]
    sort: Sort,
    /// Count and rate only the games of these years: `1990-2000` or `1995`.
    #[arg(long)]
    years: Option<String>,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    match args.command {
        Sub::Stats(a) => stats(a, out),
        Sub::Convert(a) => convert(a, out),
        Sub::Players(a) => players(&a, out),
        Sub::Events(a) => names(a, false, out),
        Sub::Find(a) => super::games_find::run(a, out),
    }
}

/// Reads the inputs as a stream, handing games to `sink` a block at a time; prints the
/// summary on stderr unless `--quiet`.
fn read_each(input: &Input, sink: &mut Sink<'_, anyhow::Error>) -> Result<IngestSummary> {
    super::common::distinct_files(&input.files, &[])?;
    read_each_checked(input, sink)
}

fn read_each_checked(input: &Input, sink: &mut Sink<'_, anyhow::Error>) -> Result<IngestSummary> {
    if input.files.is_empty() {
        return Err(bad("no game file given"));
    }
    let opts = IngestOptions {
        format: input.from,
        strict: input.strict,
        dedupe: input.dedupe,
    };
    let (bar, progress) = input_progress(&input.files);
    let got = ingest_each(&input.files, &opts, progress, sink);
    bar.finish_and_clear();
    let summary = got.map_err(|e| {
        if e.is::<othbook::transcript::IngestError>() {
            e.context("strict mode: stopped at the first problem")
        } else {
            e
        }
    })?;
    if !input.quiet {
        let _ = write!(std::io::stderr(), "{summary}");
    }
    Ok(summary)
}

/// What a conversion wrote, with the first few games left out.
#[derive(Default)]
struct Written {
    written: u64,
    left_out: u64,
    first_left_out: Vec<(othbook::transcript::SourceRef, String)>,
    notes: Vec<String>,
}

impl Written {
    fn add(&mut self, r: WriteReport) {
        self.written += r.written;
        self.left_out += r.skipped.len() as u64;
        let room = 5usize.saturating_sub(self.first_left_out.len());
        self.first_left_out.extend(r.skipped.into_iter().take(room));
        self.notes.extend(r.notes);
    }
}

/// Why a conversion wrote nothing: the error for the user, kept aside while the output's
/// temporary file is dropped.
fn abandon(keep: &mut Option<anyhow::Error>, e: anyhow::Error) -> std::io::Error {
    let msg = e.to_string();
    *keep = Some(e);
    std::io::Error::other(msg)
}

fn convert(a: ConvertArgs, out: &mut impl Write) -> Result<()> {
    if !othbook::transcript::write::WRITABLE.contains(&a.to) {
        return Err(bad(format!(
            "--to {}: use gam, moves, pgn, ggf or wtb",
            a.to
        )));
    }
    if a.to == Format::Wthor {
        a.output.require_file("-o", WTHOR)?;
    }
    let claimed = match a.output.file() {
        Some(p) => {
            super::common::distinct_files(&a.input.files, &[p])?;
            Some(claim(p)?)
        }
        None => {
            super::common::distinct_files(&a.input.files, &[])?;
            None
        }
    };
    let mut written = Written::default();
    // Nothing is written unless every file was read and some game came out: converting
    // only the readable files would drop whole inputs without a trace in the output.
    let finish = |summary: &IngestSummary, written: &Written| -> Result<()> {
        unreadable_inputs(summary, "nothing written")?;
        if written.written == 0 && !a.allow_empty {
            let why = if summary.accepted == 0 {
                why_no_games(summary)
            } else {
                format!("none of the {} games fits {}", summary.accepted, a.to)
            };
            return Err(anyhow::anyhow!(
                "nothing written: {why} (--allow-empty writes an empty file)"
            ));
        }
        Ok(())
    };
    if let Some(path) = claimed.as_ref().map(Claimed::path) {
        write_to_file(&a, path, &mut written, finish)?;
    } else {
        let summary = read_each_checked(&a.input, &mut |_, games| {
            written.add(write_text(&games, a.to, out)?);
            Ok(())
        })?;
        finish(&summary, &written)?;
    }
    if !a.input.quiet {
        let n = written.written;
        let mut msg = format!("{n} game{} written", if n == 1 { "" } else { "s" });
        if let Output::File(p) = &a.output {
            let _ = write!(msg, " to {}", p.display());
        }
        if written.left_out > 0 {
            let _ = write!(msg, "; {} left out:", written.left_out);
            for (src, why) in &written.first_left_out {
                let _ = write!(msg, "\n  {src}: {why}");
            }
            if written.left_out > written.first_left_out.len() as u64 {
                let more = written.left_out - written.first_left_out.len() as u64;
                let _ = write!(msg, "\n  ... and {more} more");
            }
        }
        for note in &written.notes {
            let _ = write!(msg, "\nnote: {note}");
        }
        let _ = writeln!(std::io::stderr(), "{msg}");
    }
    Ok(())
}

/// Writes the converted games to the file `path`: whole, or not at all.
fn write_to_file(
    a: &ConvertArgs,
    path: &Path,
    written: &mut Written,
    finish: impl Fn(&IngestSummary, &Written) -> Result<()>,
) -> Result<()> {
    if a.to == Format::Wthor {
        let mut all = Vec::new();
        let summary = read_each_checked(&a.input, &mut |_, mut games| {
            all.append(&mut games);
            Ok(())
        })?;
        unreadable_inputs(&summary, "nothing written")?;
        if !all.is_empty() || a.allow_empty {
            written.add(write_file(&all, a.to, path)?);
        }
        finish(&summary, written)?;
    } else {
        let mut failure = None;
        let gz = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
        let mut fill = |sink: &mut dyn Write| -> std::io::Result<()> {
            let summary = read_each_checked(&a.input, &mut |_, games| {
                written.add(write_text(&games, a.to, &mut { &mut *sink })?);
                Ok(())
            })
            .map_err(|e| abandon(&mut failure, e))?;
            finish(&summary, written).map_err(|e| abandon(&mut failure, e))
        };
        let result = othbook::atomic_file::replace(path, |file| {
            if gz {
                let mut enc = flate2::write::GzEncoder::new(file, Default::default());
                fill(&mut enc)?;
                enc.finish().map(drop)
            } else {
                fill(file)
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        result.with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn stats(a: StatsArgs, out: &mut impl Write) -> Result<()> {
    let mut builder = GameStatsBuilder::default();
    let summary = read_each(&a.input, &mut |format, games| {
        builder.add(format.name(), &games);
        Ok(())
    })?;
    let report = builder.finish(&summary);
    match a.format.as_str() {
        "json" => write_json(out, &report)?,
        "tsv" => out.write_all(tsv(&report).as_bytes())?,
        _ => out.write_all(table(&report).as_bytes())?,
    }
    unreadable_inputs(&summary, "the figures above count only what could be read")
}

fn table(report: &GameStatsReport) -> String {
    let all: Vec<(&str, &FormatStats)> =
        report.groups.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<8}{:>9}{:>10}{:>11}{:>9}{:>7}{:>9}{:>9}{:>9}",
        "format", "games", "complete", "incomplete", "black", "draw", "white", "no res.", "skipped"
    );
    for (name, st) in &all {
        let _ = writeln!(
            s,
            "{:<8}{:>9}{:>10}{:>11}{:>9}{:>7}{:>9}{:>9}{:>9}",
            name,
            st.games,
            st.complete,
            st.incomplete,
            st.results.black,
            st.results.draw,
            st.results.white,
            st.results.unknown,
            st.skipped.values().sum::<u64>()
        );
    }
    let _ = writeln!(s, "\nmoves played (passes not counted):");
    let _ = write!(s, "{:<8}", "format");
    let buckets = ["0-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60"];
    for b in buckets {
        let _ = write!(s, "{b:>9}");
    }
    s.push('\n');
    for (name, st) in &all {
        let _ = write!(s, "{name:<8}");
        for k in 0..buckets.len() {
            let n: u64 = st
                .lengths
                .iter()
                .filter(|(len, _)| (**len / 10).min(6) == k)
                .map(|(_, n)| n)
                .sum();
            let _ = write!(s, "{n:>9}");
        }
        s.push('\n');
    }
    let _ = writeln!(s, "\nfirst move:");
    for (name, st) in &all {
        let mut firsts: Vec<(&String, &u64)> = st.first_moves.iter().collect();
        firsts.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = firsts.iter().map(|(m, n)| format!("{m} {n}")).collect();
        let _ = writeln!(s, "{name:<8}{}", list.join(", "));
    }
    if all.iter().any(|(_, st)| !st.skipped.is_empty()) {
        let _ = writeln!(s, "\nskipped:");
        for (name, st) in &all {
            for (reason, n) in &st.skipped {
                let _ = writeln!(s, "{name:<8}{n:>9}  {reason}");
            }
        }
    }
    s
}

fn tsv(report: &GameStatsReport) -> String {
    let mut s = String::from("group\tsection\tkey\tvalue\n");
    for (name, st) in &report.groups {
        for (k, v) in [
            ("games", st.games),
            ("complete", st.complete),
            ("incomplete", st.incomplete),
            ("black_wins", st.results.black),
            ("draws", st.results.draw),
            ("white_wins", st.results.white),
            ("no_result", st.results.unknown),
        ] {
            let _ = writeln!(s, "{name}\tgames\t{k}\t{v}");
        }
        for (len, n) in &st.lengths {
            let _ = writeln!(s, "{name}\tlength\t{len}\t{n}");
        }
        for (m, n) in &st.first_moves {
            let _ = writeln!(s, "{name}\tfirst_move\t{m}\t{n}");
        }
        for (r, n) in &st.skipped {
            let _ = writeln!(s, "{name}\tskipped\t{r}\t{n}");
        }
    }
    s
}

/// The book `games players` / `games events` read (`--book B`, one .book file given as
/// input, or the default book when no file is given), `None` for game files.
fn names_book(a: &NamesArgs) -> Result<Option<PathBuf>> {
    Ok(match (&a.book, a.input.files.as_slice()) {
        (Some(b), _) => Some(b.clone()),
        (None, []) => Some(othbook::book::default_path()),
        (None, [one])
            if one
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("book")) =>
        {
            Some(one.clone())
        }
        (None, files)
            if files
                .iter()
                .any(|f| f.extension().is_some_and(|e| e == "book")) =>
        {
            return Err(bad(
                "a book is read on its own: give one .book file (or --book B), not game files too",
            ))
        }
        _ => None,
    })
}

/// `games players`: the book's table, or the games of the files without their moves (which
/// the counts and ratings do not need), listed with ratings.
fn players(a: &PlayersArgs, out: &mut impl Write) -> Result<()> {
    let (table, summary) = match names_book(&a.names)? {
        Some(path) => {
            let opened = super::common::open_book(Some(&path))?;
            let label = path.display().to_string();
            let table = super::query_filter::book_games(&opened, &label, "`games players`")?;
            (table, IngestSummary::default())
        }
        None => {
            let mut records = Vec::new();
            let summary = read_each(&a.names.input, &mut |_, games| {
                records.extend(games.into_iter().map(|mut g| {
                    g.moves = Vec::new();
                    g
                }));
                Ok(())
            })?;
            (othbook::book::GameTable::from_records(&records), summary)
        }
    };
    let q = PlayersQuery {
        years: a.years.as_deref(),
        sort: a.sort,
        search: a.names.search.as_deref(),
        limit: a.names.limit,
        format: &a.names.format,
    };
    super::games_players::run(&q, &table, &summary, out)
}

/// `games players` and `games events`: names with their game counts.
fn names(a: NamesArgs, players: bool, out: &mut impl Write) -> Result<()> {
    let book = names_book(&a)?;
    let mut counts = NameCounts::default();
    let summary = match &book {
        Some(path) => {
            let opened = super::common::open_book(Some(path))?;
            let table = super::query_filter::book_games(
                &opened,
                &path.display().to_string(),
                if players {
                    "`games players`"
                } else {
                    "`games events`"
                },
            )?;
            counts = table.name_counts();
            IngestSummary::default()
        }
        None => read_each(&a.input, &mut |_, games| {
            games.iter().for_each(|g| counts.add(g));
            Ok(())
        })?,
    };
    let map = if players {
        &counts.players
    } else {
        &counts.events
    };
    let what = if players { "player" } else { "event" };
    let folded = a.search.as_deref().map(othbook::transcript::people::fold);
    let mut list = by_count(map);
    if let Some(q) = &folded {
        list.retain(|(n, _)| othbook::transcript::people::fold(n).contains(q.as_str()));
    }
    let shown = if a.limit == 0 {
        list.len()
    } else {
        a.limit.min(list.len())
    };
    match a.format.as_str() {
        "json" => write_json(out, &NamesReport::new(players, &list, shown))?,
        "tsv" => {
            writeln!(out, "games\t{what}")?;
            for (n, g) in &list[..shown] {
                writeln!(out, "{g}\t{n}")?;
            }
        }
        _ => {
            for (n, g) in &list[..shown] {
                writeln!(out, "{g:>8}  {n}")?;
            }
            if shown < list.len() {
                writeln!(
                    out,
                    "... and {} more {what}s (--limit 0 lists all)",
                    list.len() - shown
                )?;
            }
        }
    }
    if list.is_empty() {
        if let Some(q) = &a.search {
            return Err(super::games_players::no_name_contains(what, map, q));
        }
    }
    unreadable_inputs(&summary, "the list above counts only what could be read")
}
