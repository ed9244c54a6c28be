//! `othbook games`: read game collections (stats) and convert them between formats.

use super::common::{bad, json_str, unreadable_inputs};
use anyhow::{Context, Result};
use othbook::board::Move;
use othbook::transcript::write::{write_file, write_text, WriteReport};
use othbook::transcript::{ingest, Format, GameRecord, Ingest, IngestOptions, IngestSummary};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

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
}

/// Input options shared by the subcommands.
#[derive(clap::Args, Debug)]
struct Input {
    /// Game files: .gam, .wtb, .ggf, .pgn, .csv, move lists (.txt); any text format may be .gz.
    #[arg(required = true)]
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
    /// Output file (`-` for stdout, text formats only).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    match args.command {
        Sub::Stats(a) => stats(a, out),
        Sub::Convert(a) => convert(a, out),
    }
}

fn read(input: &Input) -> Result<Ingest> {
    super::common::distinct_files(&input.files, None)?;
    let opts = IngestOptions {
        format: input.from,
        strict: input.strict,
        dedupe: input.dedupe,
    };
    let got = ingest(&input.files, &opts).context("strict mode: stopped at the first problem")?;
    if !input.quiet {
        let _ = write!(std::io::stderr(), "{}", got.summary);
    }
    Ok(got)
}

fn convert(a: ConvertArgs, out: &mut impl Write) -> Result<()> {
    if !othbook::transcript::write::WRITABLE.contains(&a.to) {
        return Err(bad(format!(
            "--to {}: use gam, moves, pgn, ggf or wtb",
            a.to
        )));
    }
    let to_stdout = a.output.as_os_str() == "-";
    if to_stdout && a.to == Format::Wthor {
        return Err(bad("WTHOR output needs a file (-o NAME.wtb)"));
    }
    let got = read(&a.input)?;
    // Converting only the readable files would drop whole inputs without a trace in the
    // output: nothing is written unless every file was read.
    unreadable_inputs(&got.summary, "nothing written")?;
    let report: WriteReport = if to_stdout {
        write_text(&got.games, a.to, out)?
    } else {
        write_file(&got.games, a.to, &a.output)?
    };
    if !a.input.quiet {
        let n = report.written;
        let mut msg = format!("{n} game{} written", if n == 1 { "" } else { "s" });
        if !to_stdout {
            let _ = write!(msg, " to {}", a.output.display());
        }
        if !report.skipped.is_empty() {
            let _ = write!(msg, "; {} left out:", report.skipped.len());
            for (src, why) in report.skipped.iter().take(5) {
                let _ = write!(msg, "\n  {src}: {why}");
            }
        }
        for note in &report.notes {
            let _ = write!(msg, "\nnote: {note}");
        }
        let _ = writeln!(std::io::stderr(), "{msg}");
    }
    Ok(())
}

/// Figures for one group of games (a format, or everything).
#[derive(Default)]
struct Stats {
    games: u64,
    complete: u64,
    black: u64,
    draw: u64,
    white: u64,
    unknown: u64,
    lengths: BTreeMap<usize, u64>,
    first: BTreeMap<String, u64>,
    skipped: BTreeMap<String, u64>,
}

impl Stats {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.complete += u64::from(g.complete);
        match g.result.as_ref().map(|r| r.disc_diff.signum()) {
            Some(1) => self.black += 1,
            Some(0) => self.draw += 1,
            Some(_) => self.white += 1,
            None => self.unknown += 1,
        }
        let played = g.moves.iter().filter(|m| !m.is_pass()).count();
        *self.lengths.entry(played).or_default() += 1;
        let first = g
            .moves
            .iter()
            .find_map(|m| m.square())
            .map_or_else(|| Move::Pass.to_string(), |s| s.to_string());
        if !g.moves.is_empty() {
            *self.first.entry(first).or_default() += 1;
        }
    }
}

fn stats(a: StatsArgs, out: &mut impl Write) -> Result<()> {
    let got = read(&a.input)?;
    let format_of: BTreeMap<&str, Format> = got
        .summary
        .files
        .iter()
        .filter_map(|f| f.format.map(|fmt| (f.path.as_str(), fmt)))
        .collect();
    let mut groups: BTreeMap<String, Stats> = BTreeMap::new();
    let mut total = Stats::default();
    for g in &got.games {
        let name = format_of
            .get(&*g.source.file)
            .map_or("?", |f| f.name())
            .to_string();
        groups.entry(name).or_default().add(g);
        total.add(g);
    }
    for f in &got.summary.files {
        let Some(fmt) = f.format else { continue };
        let group = groups.entry(fmt.name().to_string()).or_default();
        for (reason, n) in &f.skipped {
            *group.skipped.entry(reason.name().to_string()).or_default() += n;
            *total.skipped.entry(reason.name().to_string()).or_default() += n;
        }
    }
    let mut all: Vec<(&str, &Stats)> = groups.iter().map(|(k, v)| (k.as_str(), v)).collect();
    all.push(("total", &total));
    let text = match a.format.as_str() {
        "json" => json(&all, &got.summary),
        "tsv" => tsv(&all),
        _ => table(&all),
    };
    out.write_all(text.as_bytes())?;
    unreadable_inputs(&got.summary, "the figures above leave them out")
}

fn table(all: &[(&str, &Stats)]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<8}{:>9}{:>10}{:>11}{:>9}{:>7}{:>9}{:>9}{:>9}",
        "format", "games", "complete", "incomplete", "black", "draw", "white", "no res.", "skipped"
    );
    for (name, st) in all {
        let _ = writeln!(
            s,
            "{:<8}{:>9}{:>10}{:>11}{:>9}{:>7}{:>9}{:>9}{:>9}",
            name,
            st.games,
            st.complete,
            st.games - st.complete,
            st.black,
            st.draw,
            st.white,
            st.unknown,
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
    for (name, st) in all {
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
    for (name, st) in all {
        let mut firsts: Vec<(&String, &u64)> = st.first.iter().collect();
        firsts.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = firsts.iter().map(|(m, n)| format!("{m} {n}")).collect();
        let _ = writeln!(s, "{name:<8}{}", list.join(", "));
    }
    if all.iter().any(|(_, st)| !st.skipped.is_empty()) {
        let _ = writeln!(s, "\nskipped:");
        for (name, st) in all {
            for (reason, n) in &st.skipped {
                let _ = writeln!(s, "{name:<8}{n:>9}  {reason}");
            }
        }
    }
    s
}

fn tsv(all: &[(&str, &Stats)]) -> String {
    let mut s = String::from("group\tsection\tkey\tvalue\n");
    for (name, st) in all {
        for (k, v) in [
            ("games", st.games),
            ("complete", st.complete),
            ("incomplete", st.games - st.complete),
            ("black_wins", st.black),
            ("draws", st.draw),
            ("white_wins", st.white),
            ("no_result", st.unknown),
        ] {
            let _ = writeln!(s, "{name}\tgames\t{k}\t{v}");
        }
        for (len, n) in &st.lengths {
            let _ = writeln!(s, "{name}\tlength\t{len}\t{n}");
        }
        for (m, n) in &st.first {
            let _ = writeln!(s, "{name}\tfirst_move\t{m}\t{n}");
        }
        for (r, n) in &st.skipped {
            let _ = writeln!(s, "{name}\tskipped\t{r}\t{n}");
        }
    }
    s
}

fn json_map<K: ToString>(m: &BTreeMap<K, u64>) -> String {
    let items: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{}: {v}", json_str(&k.to_string())))
        .collect();
    format!("{{{}}}", items.join(", "))
}

fn json(all: &[(&str, &Stats)], summary: &IngestSummary) -> String {
    let groups: Vec<String> = all
        .iter()
        .map(|(name, st)| {
            format!(
                "  {}: {{\"games\": {}, \"complete\": {}, \"incomplete\": {}, \
\"results\": {{\"black\": {}, \"draw\": {}, \"white\": {}, \"unknown\": {}}}, \
\"lengths\": {}, \"first_moves\": {}, \"skipped\": {}}}",
                json_str(name),
                st.games,
                st.complete,
                st.games - st.complete,
                st.black,
                st.draw,
                st.white,
                st.unknown,
                json_map(&st.lengths),
                json_map(&st.first),
                json_map(&st.skipped)
            )
        })
        .collect();
    let failed: Vec<String> = summary
        .failed_files()
        .map(|(p, m)| format!("{{\"path\": {}, \"error\": {}}}", json_str(p), json_str(m)))
        .collect();
    let warnings: BTreeMap<&str, u64> = summary
        .warnings
        .iter()
        .map(|(r, t)| (r.name(), t.count))
        .collect();
    format!(
        "{{\n\"groups\": {{\n{}\n}},\n\"read\": {}, \"accepted\": {}, \"skipped\": {}, \"duplicates\": {},\n\"warnings\": {},\n\"failed_files\": [{}]\n}}\n",
        groups.join(",\n"),
        summary.read,
        summary.accepted,
        summary.skipped,
        summary.duplicates,
        json_map(&warnings),
        failed.join(", ")
    )
}
