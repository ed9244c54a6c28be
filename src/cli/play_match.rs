//! `othbook match`: games between two players (or a round robin) under time controls.

use super::common::bad;
use super::interrupt::{self, Interrupted};
use super::match_record::{Pairing, Recorder};
use super::output_path::{claim, Output, REPORT};
use anyhow::{Context, Result};
use othbook::board::{parse_moves, Color, Move, Position};
use othbook::data_file::DataFile;
use othbook::play::arena::{elo_interval, run_match, totals, MatchConfig, MatchGame, Termination};
use othbook::play::clock::TimeControl;
use othbook::play::gtp_client::DEFAULT_COMMAND_TIMEOUT;
use othbook::play::spec::{players, PlayerSpec};
use othbook::wire::seconds::Seconds;
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The XOT list `--openings xot` plays, and where it is looked for: `$OTHBOOK_XOT`, the
/// current folder's `../shared/data/xot/` (a clone beside the shared data) and `xot/`, the
/// user's data folder, and the source tree's `../shared/data/xot/`.
const XOT: DataFile = DataFile {
    what: "the XOT list",
    env: "OTHBOOK_XOT",
    here: &[
        "../shared/data/xot/openingslarge.txt",
        "xot/openingslarge.txt",
    ],
    data_name: "othbook/xot/openingslarge.txt",
    in_source: "../shared/data/xot/openingslarge.txt",
};

/// Arguments of `othbook match`.
#[derive(clap::Args, Debug)]
#[command(after_help = after_help())]
pub struct Args {
    /// Player A (black in the first game), e.g. alphabeta:depth=4
    #[arg(long, required_unless_present = "round_robin")]
    black: Option<String>,
    /// Player B, e.g. "gtp:gtp-rhino -l 1"
    #[arg(long, required_unless_present = "round_robin")]
    white: Option<String>,
    /// Play every pair of these players (instead of --black/--white).
    #[arg(long, num_args = 2.., value_name = "PLAYER", conflicts_with_all = ["black", "white"])]
    round_robin: Vec<String>,
    /// Per-move time limits (seconds) for the round robin's columns, e.g. 0.05,0.2,1
    #[arg(long, value_delimiter = ',', default_value = "0.05,0.2,1")]
    limits: Vec<f64>,
    /// Number of games (per pair and limit in a round robin).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Openings: a file with one move string per line, or `xot` for the XOT list
    /// ($OTHBOOK_XOT, else ../shared/data/xot/openingslarge.txt or xot/openingslarge.txt here,
    /// in the data folder or beside the source tree). Each opening is played twice with
    /// colours swapped.
    #[arg(long)]
    openings: Option<String>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    seed: Option<u64>,
    /// Alternate colours between games (implied with --openings).
    #[arg(long)]
    swap: bool,
    /// Clock for each player: "SETUP PER_K K" seconds, e.g. "60 10 5" (no clock if omitted).
    #[arg(long)]
    time: Option<String>,
    /// Games played at once (1 to 256).
    #[arg(long, default_value_t = NonZeroUsize::MIN, value_parser = jobs_arg)]
    jobs: NonZeroUsize,
    /// Seconds a gtp: or nboard: engine may take to answer a command other than genmove or
    /// go (start-up included). An engine that takes longer, exits or does not answer in its
    /// protocol loses that game and is restarted for the next; the match then exits with
    /// code 1.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_COMMAND_TIMEOUT.as_secs_f64(), allow_hyphen_values = true)]
    engine_timeout: f64,
    /// Write one CSV line per game to this file (rewritten every 30 s while the match runs;
    /// not `-`: the report goes to standard output).
    #[arg(long)]
    csv: Option<Output>,
    /// Save the games for `othbook build`: .gam, .ggf, .pgn or .txt (move strings), by
    /// extension (rewritten every 30 s while the match runs; not `-`).
    #[arg(long)]
    save: Option<Output>,
}

fn after_help() -> String {
    let mut s = String::from("Players:\n");
    for (name, what) in players() {
        s.push_str(&format!("  {name:<14} {what}\n"));
    }
    s.push_str(
        "\nExamples:\n  othbook match --black alphabeta:depth=4 --white random --games 10 --swap\n  \
         othbook match --black engine:time=0.5 --white \"gtp:gtp-rhino -l 5\" --openings xot --games 4\n  \
         othbook match --black engine:time=0.5 --white \"nboard:depth=16:./ntest x\" --openings xot --games 20\n  \
         othbook match --round-robin random simple alphabeta mcts --limits 0.05,0.2 --games 4 --csv rr.csv\n\n\
         Ctrl-C (or SIGTERM) starts no new game: the games under way are finished, the report covers \
         the games played, --csv and --save keep them, and the exit code is 130. While the match runs, \
         --csv and --save are locked (a lock file .NAME.lock beside each): a second othbook writing \
         one of them stops at once with exit code 75.",
    );
    s
}

/// The file of `--csv` or `--save`: standard output carries the report.
fn file_of<'a>(output: Option<&'a Output>, option: &str) -> Result<Option<&'a std::path::Path>> {
    output.map(|o| o.require_file(option, REPORT)).transpose()
}

fn spec(text: &str) -> Result<PlayerSpec> {
    text.parse().map_err(|e| bad(format!("{e}")))
}

fn load_openings(arg: &str) -> Result<Vec<Vec<Move>>> {
    let path: PathBuf = if arg == "xot" {
        XOT.find().map_err(|e| {
            bad(format!(
                "--openings xot: {e}, or give a file: --openings FILE"
            ))
        })?
    } else {
        PathBuf::from(arg)
    };
    let text = othbook::bounded_read::read_text(&path, othbook::bounded_read::TEXT_LIMIT)
        .context("cannot read openings")?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let moves = parse_moves(line).map_err(|e| bad(format!("{}: {e}", at())))?;
        let replay = Position::START
            .replay(moves)
            .map_err(|e| bad(format!("{}: {e}", at())))?;
        if replay.end.board.is_game_over() {
            return Err(bad(format!("{}: the opening ends the game", at())));
        }
        out.push(replay.moves);
    }
    if out.is_empty() {
        return Err(bad(format!("{}: no openings in the file", path.display())));
    }
    Ok(out)
}

/// `--jobs`: 1 to 256 games at once, checked here once.
fn jobs_arg(text: &str) -> Result<NonZeroUsize, String> {
    text.parse::<NonZeroUsize>()
        .ok()
        .filter(|j| j.get() <= 256)
        .ok_or_else(|| "must be 1 to 256".to_string())
}

fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut rng = othbook::rng::Rng::new(seed);
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    if args.games == 0 || args.games > 100_000 {
        return Err(bad("--games must be 1 to 100000"));
    }
    let engine_timeout = Seconds::from_f64(args.engine_timeout)
        .and_then(|s| s.within(0.01, 3600.0))
        .map_err(|e| bad(format!("--engine-timeout: {e}")))?
        .duration();
    // The CSV is created at once and both files are rewritten while the games are played:
    // neither may be the openings file or the other.
    let opening_file: Vec<PathBuf> = args
        .openings
        .iter()
        .filter(|o| o.as_str() != "xot")
        .map(PathBuf::from)
        .collect();
    let csv = file_of(args.csv.as_ref(), "--csv")?;
    let save = file_of(args.save.as_ref(), "--save")?;
    let outputs: Vec<&std::path::Path> = csv.iter().chain(&save).copied().collect();
    super::common::distinct_files(&opening_file, &outputs)?;
    let csv = csv.map(claim).transpose()?;
    let save = save.map(claim).transpose()?;
    let time = match &args.time {
        Some(t) => Some(t.parse::<TimeControl>().map_err(|e| bad(e.to_string()))?),
        None => None,
    };
    let mut openings = match &args.openings {
        Some(o) => load_openings(o)?,
        None => Vec::new(),
    };
    if let Some(seed) = args.seed {
        shuffle(&mut openings, seed);
    }
    let recorder = Recorder::new(csv, save, !args.round_robin.is_empty())?;
    let stop = interrupt::install();
    if !args.round_robin.is_empty() {
        return round_robin(&args, openings, time, engine_timeout, &recorder, stop, out);
    }
    let a = spec(args.black.as_deref().unwrap_or_default())?;
    let b = spec(args.white.as_deref().unwrap_or_default())?;
    let cfg = MatchConfig {
        a,
        b,
        games: args.games,
        openings,
        swap: args.swap,
        time,
        jobs: args.jobs,
        engine_timeout,
    };
    recorder.begin(Pairing {
        label: format!("{} vs {}", cfg.a, cfg.b),
        total: cfg.games,
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        limit: None,
    });
    let games = run_match(&cfg, stop, &|g, n| recorder.game(g, n)).context("match aborted")?;
    recorder.finish()?;
    report(out, &cfg, &games)?;
    stopped(out, stop, &recorder, games.len(), cfg.games)?;
    clean(out, engine_failures(&games), games.len())
}

/// After a signal stopped the match: says so under the report and ends with exit code 130.
fn stopped(
    out: &mut impl Write,
    stop: &AtomicBool,
    recorder: &Recorder,
    played: usize,
    total: usize,
) -> Result<()> {
    if played >= total || !stop.load(Ordering::Relaxed) {
        return Ok(());
    }
    out.flush()?;
    let kept = match recorder.files() {
        Some(f) => format!("the games played are in {f}"),
        None => "nothing was saved (no --csv or --save)".to_string(),
    };
    Err(Interrupted(format!(
        "match stopped by a signal after {played} of {total} games; {kept}"
    ))
    .into())
}

/// Games that ended because an engine failed (hung, exited, broke GTP).
fn engine_failures(games: &[MatchGame]) -> usize {
    games
        .iter()
        .filter(|g| matches!(g.outcome.termination, Termination::Failure(..)))
        .count()
}

/// Exit code 1 (after the report) when engine failures decided games: those results say
/// nothing of strength, so scripts must not take them for a clean match. Losses on time and
/// by illegal moves are part of the game and keep exit code 0.
fn clean(out: &mut impl Write, failed: usize, total: usize) -> Result<()> {
    if failed == 0 {
        return Ok(());
    }
    writeln!(
        out,
        "{failed} of {total} games ended by an engine failure: not a clean match"
    )?;
    out.flush()?;
    Err(anyhow::anyhow!(
        "match not clean: {failed} of {total} games ended by an engine failure"
    ))
}

fn report(out: &mut impl Write, cfg: &MatchConfig, games: &[MatchGame]) -> Result<()> {
    writeln!(
        out,
        "{:<28} {:>5} {:>4} {:>4} {:>4} {:>7} {:>7} {:>9} {:>10} {:>12} {:>12}",
        "player",
        "games",
        "won",
        "drew",
        "lost",
        "points",
        "score%",
        "avg disc",
        "s/move",
        "nodes/move",
        "lost on time"
    )?;
    for (spec, is_a) in [(&cfg.a, true), (&cfg.b, false)] {
        let t = totals(games, is_a);
        let played = games
            .iter()
            .filter(|g| g.outcome.disc_diff().is_some())
            .count()
            .max(1);
        let moves = f64::from(t.moves.max(1));
        writeln!(
            out,
            "{:<28} {:>5} {:>4} {:>4} {:>4} {:>7.1} {:>6.1}% {:>+9.2} {:>10.4} {:>12.0} {:>12}",
            truncate(&spec.to_string(), 28),
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            100.0 * t.points() / f64::from(t.games.max(1)),
            t.disc_sum as f64 / played as f64,
            t.time.as_secs_f64() / moves,
            t.nodes as f64 / moves,
            t.time_losses,
        )?;
    }
    let (e, lo, hi) = elo_interval(games);
    writeln!(
        out,
        "Elo difference A - B: {} (95% interval {} .. {})",
        fmt_elo(e),
        fmt_elo(lo),
        fmt_elo(hi)
    )?;
    let forfeits: Vec<String> = games
        .iter()
        .filter_map(|g| {
            let loser = g.outcome.termination.loser()?;
            let a_lost = (loser == Color::Black) == g.a_black;
            let who = if a_lost { &cfg.a } else { &cfg.b };
            Some(format!(
                "game {} ({who} had {loser}): {}",
                g.index + 1,
                g.outcome.termination
            ))
        })
        .collect();
    for f in forfeits.iter().take(MAX_FORFEITS_LISTED) {
        writeln!(out, "  {f}")?;
    }
    if forfeits.len() > MAX_FORFEITS_LISTED {
        writeln!(
            out,
            "  ... and {} more (--csv lists them all)",
            forfeits.len() - MAX_FORFEITS_LISTED
        )?;
    }
    Ok(())
}

/// Forfeited games listed under the report, one line each.
const MAX_FORFEITS_LISTED: usize = 10;

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if e.round() == 0.0 {
        // Also catches -0, which a 50% score gives.
        "0".into()
    } else {
        format!("{e:+.0}")
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(std::iter::once('~')).collect()
    }
}

fn round_robin(
    args: &Args,
    openings: Vec<Vec<Move>>,
    time: Option<TimeControl>,
    engine_timeout: Duration,
    recorder: &Recorder,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<()> {
    let specs: Vec<PlayerSpec> = args
        .round_robin
        .iter()
        .map(|s| spec(s))
        .collect::<Result<_>>()?;
    if args.limits.is_empty() || args.limits.iter().any(|l| !(0.001..=600.0).contains(l)) {
        return Err(bad("--limits must be seconds between 0.001 and 600"));
    }
    // points[player][limit], games[player][limit]
    let n = specs.len();
    let mut points = vec![vec![0.0f64; args.limits.len()]; n];
    let mut played = vec![vec![0u32; args.limits.len()]; n];
    let (mut failed, mut total) = (0, 0);
    let pairings = args.limits.len() * n * (n - 1) / 2;
    for (li, &limit) in args.limits.iter().enumerate() {
        for i in 0..n {
            for j in i + 1..n {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let cfg = MatchConfig {
                    a: specs[i].with_time(Duration::from_secs_f64(limit)),
                    b: specs[j].with_time(Duration::from_secs_f64(limit)),
                    games: args.games,
                    openings: openings.clone(),
                    swap: true,
                    time,
                    jobs: args.jobs,
                    engine_timeout,
                };
                recorder.begin(Pairing {
                    label: format!("{}s: {} vs {}", limit, cfg.a, cfg.b),
                    total: cfg.games,
                    a: cfg.a.to_string(),
                    b: cfg.b.to_string(),
                    limit: Some(limit),
                });
                let games = run_match(&cfg, stop, &|g, n| recorder.game(g, n))
                    .context("round robin aborted")?;
                failed += engine_failures(&games);
                total += games.len();
                for g in &games {
                    points[i][li] += g.a_points();
                    points[j][li] += 1.0 - g.a_points();
                    played[i][li] += 1;
                    played[j][li] += 1;
                }
            }
        }
    }
    write!(out, "{:<24}", "player \\ s/move")?;
    for l in &args.limits {
        write!(out, " {:>9}", format!("{l}s"))?;
    }
    writeln!(out, " {:>9}", "all")?;
    for i in 0..n {
        write!(out, "{:<24}", truncate(&specs[i].to_string(), 24))?;
        for li in 0..args.limits.len() {
            write!(
                out,
                " {:>8.1}%",
                100.0 * points[i][li] / f64::from(played[i][li].max(1))
            )?;
        }
        let all: f64 = points[i].iter().sum();
        let games: u32 = played[i].iter().sum();
        writeln!(out, " {:>8.1}%", 100.0 * all / f64::from(games.max(1)))?;
    }
    writeln!(
        out,
        "(score % against all other players; {} games per pair and limit)",
        args.games
    )?;
    recorder.finish()?;
    stopped(out, stop, recorder, total, pairings * args.games)?;
    clean(out, failed, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othbook::data_file::LookupEnv;
    use std::path::Path;

    #[test]
    fn xot_is_the_variable_then_beside_here_then_the_data_folder_then_the_source_tree() {
        let env = LookupEnv {
            named: None,
            xdg_data: None,
            home: Some("/h".into()),
        };
        assert_eq!(
            XOT.places(&env),
            [
                Path::new("../shared/data/xot/openingslarge.txt").to_path_buf(),
                Path::new("xot/openingslarge.txt").to_path_buf(),
                Path::new("/h/.local/share/othbook/xot/openingslarge.txt").to_path_buf(),
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/xot/openingslarge.txt"),
            ]
        );
        let named = LookupEnv {
            named: Some("/x.txt".into()),
            ..env
        };
        assert_eq!(XOT.find_in(&named, &|_| true), Ok(PathBuf::from("/x.txt")));
    }

    /// Run anywhere, a clone finds the list beside its source tree; found nowhere, the error
    /// names every place and the variable.
    #[test]
    fn xot_is_found_beside_the_source_tree_and_else_every_place_is_named() {
        let env = LookupEnv::default();
        let only_source = |p: &Path| p.is_absolute();
        let found = XOT
            .find_in(&env, &only_source)
            .expect("the source tree's list");
        assert!(
            found.starts_with(env!("CARGO_MANIFEST_DIR")),
            "{}",
            found.display()
        );
        let nowhere = XOT.find_in(&env, &|_| false).unwrap_err().to_string();
        for place in [
            "../shared/data/xot/openingslarge.txt",
            "xot/openingslarge.txt",
            "OTHBOOK_XOT",
        ] {
            assert!(nowhere.contains(place), "{nowhere}");
        }
    }
}
