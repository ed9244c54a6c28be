//! `othbook solve`: exact (or win/draw/loss) endgame solves of one position or an OBF file.

use super::common::{bad, check_solve_size};
use anyhow::Result;
use othbook::board::{Move, Position};
use othbook::engine::{
    Analysis, AnyEval, Engine, EngineOptions, EvalKind, HashSize, Limits, ScoreKind, SCALE,
};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Arguments of `othbook solve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Input: an OBF file (one position per line, `<64 chars> <X|O>; \
MOVE:score; ...`; scores after the position are checked) or one position given inline. \
Positions of more than 36 empties are refused without --force; on a terminal a spinner \
shows the progress of long solves.\n\n\
Examples:\n  othbook solve ../shared/data/ffo/ffo.obf --lines 40-49 --threads 2\n  \
othbook solve \"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\" --wld"
)]
pub struct Args {
    /// An OBF file, or a position: 64 characters (X black, O white, - empty) then X or O.
    #[arg(allow_hyphen_values = true)]
    input: String,
    /// Only win/draw/loss (faster).
    #[arg(long)]
    wld: bool,
    /// Only these lines of the file (1-based), e.g. 40-49 or 7.
    #[arg(long)]
    lines: Option<String>,
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (1-65536). Default: by the most empties among the
    /// positions, 32 MiB up to 20 empties, doubling per empty above that, at most 256.
    #[arg(long)]
    hash: Option<usize>,
    /// Evaluation for move ordering: pattern (trained patterns) or hand (hand-made features).
    #[arg(long, default_value = "pattern")]
    eval: EvalKind,
    /// Solve positions of more than 36 empties too (they may never finish).
    #[arg(long)]
    force: bool,
}

/// A table that fits the largest solve: a bigger one is not filled by a short solve, and the
/// kernel's zeroing of its pages cost a 20-empties solve (FFO #40) a quarter of its time at
/// 256 MiB.
fn default_hash_mb(empties: impl Iterator<Item = u32>) -> HashSize {
    let most = empties.max().unwrap_or(0);
    // 32 to 256 MiB, within the bound.
    HashSize::of(32usize << most.saturating_sub(20).min(3))
}

struct Task {
    label: String,
    position: Position,
    /// The moves and scores written in the file (empty for an inline position).
    scored: Vec<(Move, i32)>,
}

impl Task {
    /// Whether `score` (SCALE units, or only its sign for a win/draw/loss solve) and `mv`
    /// agree with the file; `None` when the file gives no scores. For a win/draw/loss solve
    /// any move with the best move's outcome is right, not only the moves with its score.
    fn check(&self, mv: Move, score: i32, wld: bool) -> Option<bool> {
        let best = self.scored.iter().map(|s| s.1).max()?;
        let written = self.scored.iter().find(|s| s.0 == mv).map(|s| s.1);
        Some(if wld {
            score.signum() == best.signum() && written.is_some_and(|w| w.signum() == best.signum())
        } else {
            score == best * SCALE && written == Some(best)
        })
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let threads = super::common::threads_arg(args.threads)?;
    let tasks = read_tasks(&args.input, args.lines.as_deref())?;
    for t in &tasks {
        check_solve_size(t.position.board.empty_count(), args.force, &t.label)?;
    }
    let hash = match args.hash {
        Some(mb) => super::common::check_hash(mb)?,
        None => default_hash_mb(tasks.iter().map(|t| t.position.board.empty_count())),
    };
    let engine = Engine::try_with_evaluator(
        EngineOptions {
            threads,
            hash_mb: hash,
        },
        AnyEval::new(args.eval),
    )
    .map_err(|e| bad(e.to_string()))?;
    let limits = if args.wld {
        Limits::wld()
    } else {
        Limits::exact()
    };
    writeln!(
        out,
        "{:<6} {:>3} {:>5} {:>6} {:>6} {:>12} {:>9} {:>8}  pv",
        "pos", "emp", "move", "score", "check", "nodes", "time", "Mn/s"
    )?;
    let (mut total_nodes, mut total_time, mut checked, mut wrong) = (0u64, Duration::ZERO, 0, 0);
    for t in &tasks {
        let a = solve_one(&engine, t, &limits)?;
        total_nodes += a.nodes;
        total_time += a.elapsed;
        let score = result_text(&a);
        let check = match t.check(a.best_move, a.score, args.wld) {
            None => "-",
            Some(true) => {
                checked += 1;
                "ok"
            }
            Some(false) => {
                checked += 1;
                wrong += 1;
                "WRONG"
            }
        };
        let pv: Vec<String> = a.pv.iter().map(ToString::to_string).collect();
        let pass = if a.passed {
            " (side to move passes)"
        } else {
            ""
        };
        writeln!(
            out,
            "{:<6} {:>3} {:>5} {:>6} {:>6} {:>12} {:>8.3}s {:>8.2}  {}{pass}",
            t.label,
            t.position.board.empty_count(),
            a.best_move.to_string(),
            score,
            check,
            a.nodes,
            a.elapsed.as_secs_f64(),
            a.nodes_per_second() / 1e6,
            pv.join(" ")
        )?;
        // Long solves: show each result as soon as it is known.
        out.flush()?;
    }
    let secs = total_time.as_secs_f64();
    let threads = threads.used();
    writeln!(
        out,
        "total: {} position{}, {total_nodes} nodes, {secs:.3} s, {:.2} M nodes/s, {threads} thread{}{}",
        tasks.len(),
        if tasks.len() == 1 { "" } else { "s" },
        total_nodes as f64 / secs.max(1e-9) / 1e6,
        if threads == 1 { "" } else { "s" },
        if checked > 0 {
            format!(", {} of {checked} match the file", checked - wrong)
        } else {
            String::new()
        }
    )?;
    if wrong > 0 {
        anyhow::bail!("{wrong} result(s) differ from the scores in the file");
    }
    Ok(())
}

/// Solves `t`, with a live node count on a spinner when the solve may be long.
fn solve_one(engine: &Engine<AnyEval>, t: &Task, limits: &Limits) -> Result<Analysis> {
    let spinner = progress(t);
    let nodes = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let a = std::thread::scope(|scope| {
        if !spinner.is_hidden() {
            // The engine only reports finished iterations; an exact solve finishes its
            // last one at the end, so the live count is read here.
            scope.spawn(|| {
                let start = std::time::Instant::now();
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(250));
                    let n = nodes.load(Ordering::Relaxed);
                    let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-3) / 1e6;
                    spinner.set_message(format!(
                        "{}: {} nodes, {rate:.1} M nodes/s",
                        t.label,
                        group_thousands(n)
                    ));
                }
            });
        }
        let a = engine.analyze_watched(&t.position.board, limits, &nodes, |_| {});
        done.store(true, Ordering::Relaxed);
        a
    })
    .map_err(|e| bad(format!("{}: {e}", t.label)))?;
    spinner.finish_and_clear();
    Ok(a)
}

/// The score as the table shows it: win, draw or loss for a win/draw/loss solve, else the
/// disc difference.
fn result_text(a: &Analysis) -> String {
    match a.kind {
        ScoreKind::Wld => match a.score.signum() {
            1 => "win".to_string(),
            0 => "draw".to_string(),
            _ => "loss".to_string(),
        },
        _ => format!("{:+}", a.score / SCALE),
    }
}

/// A spinner on stderr with the time so far, the nodes searched and the rate, for solves
/// long enough to look hung; hidden when stderr is not a terminal.
fn progress(t: &Task) -> indicatif::ProgressBar {
    // Below this a solve takes well under a second: a spinner would only flicker.
    const QUIET_UP_TO: u32 = 20;
    if !std::io::stderr().is_terminal() || t.position.board.empty_count() <= QUIET_UP_TO {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar.set_message(format!("{}: solving", t.label));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

const GAME_OVER: &str = "the game is over, nothing to solve";

fn read_tasks(input: &str, lines: Option<&str>) -> Result<Vec<Task>> {
    let path = Path::new(input);
    if !path.exists() {
        if lines.is_some() {
            return Err(bad("--lines needs a file"));
        }
        let position: Position = input.parse().map_err(|e| {
            bad(format!(
                "{input:?} is neither an existing file nor a position: {e}"
            ))
        })?;
        if position.board.is_game_over() {
            return Err(bad(GAME_OVER));
        }
        return Ok(vec![Task {
            label: "input".into(),
            position,
            scored: Vec::new(),
        }]);
    }
    let text = othbook::bounded_read::read_text(path, othbook::bounded_read::TEXT_LIMIT)?;
    let range = match lines {
        None => None,
        Some(r) => Some(
            parse_range(r)
                .ok_or_else(|| bad(format!("--lines {r:?}: expected N or N-M with 1 <= N <= M")))?,
        ),
    };
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if range.is_some_and(|(a, b)| n < a || n > b) {
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let at = |msg: String| bad(format!("{}:{n}: {msg}", path.display()));
        let (position, scored) = super::common::parse_obf_line(line).map_err(at)?;
        // Checked while reading, so that a finished game late in a file does not cost the
        // solves before it.
        if position.board.is_game_over() {
            return Err(at(GAME_OVER.into()));
        }
        tasks.push(Task {
            label: format!("#{n}"),
            position,
            scored,
        });
    }
    // A range past the end is a mistake in the range (a file of 59 positions asked for
    // 58-70), not a request for what there is.
    let last = text.lines().count();
    if let Some((a, b)) = range.filter(|&(_, b)| b > last) {
        return Err(bad(format!(
            "--lines {a}-{b}: {} has {last} line{}",
            path.display(),
            if last == 1 { "" } else { "s" }
        )));
    }
    if tasks.is_empty() {
        return Err(bad(format!("{}: no position selected", path.display())));
    }
    Ok(tasks)
}

/// `N` or `N-M` (1-based, N <= M) as (N, M).
pub(super) fn parse_range(r: &str) -> Option<(usize, usize)> {
    let (a, b) = match r.split_once('-') {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let n = r.trim().parse().ok()?;
            (n, n)
        }
    };
    (a >= 1 && a <= b).then_some((a, b))
}

/// `12,345,678`-style digits.
fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_hash_grows_with_the_largest_solve() {
        assert_eq!(default_hash_mb([14, 20].into_iter()).mb(), 32);
        assert_eq!(default_hash_mb([20, 21].into_iter()).mb(), 64);
        assert_eq!(default_hash_mb([22].into_iter()).mb(), 128);
        assert_eq!(default_hash_mb([23, 18].into_iter()).mb(), 256);
        assert_eq!(default_hash_mb([36].into_iter()).mb(), 256);
        assert_eq!(default_hash_mb(std::iter::empty()).mb(), 32);
    }

    fn mv(m: &str) -> Move {
        othbook::board::parse_moves(m).expect("move")[0]
    }

    fn task(scored: &[(&str, i32)]) -> Task {
        Task {
            label: "#1".into(),
            position: Position::START,
            scored: scored.iter().map(|&(m, s)| (mv(m), s)).collect(),
        }
    }

    /// A win/draw/loss solve is right when its move has the best move's outcome, whatever its
    /// score (FFO #27: every move loses, b1 by 6, b7 by 2).
    #[test]
    fn regression_wld_check_wanted_the_exact_best_move() {
        let t = task(&[("b7", -2), ("e1", -4), ("b1", -6)]);
        assert_eq!(t.check(mv("b1"), -SCALE, true), Some(true));
        assert_eq!(t.check(mv("b1"), SCALE, true), Some(false));
        assert_eq!(t.check(mv("b1"), -6 * SCALE, false), Some(false));
        assert_eq!(t.check(mv("b7"), -2 * SCALE, false), Some(true));
        let mixed = task(&[("d3", 4), ("c4", 0), ("f5", -2)]);
        assert_eq!(mixed.check(mv("d3"), SCALE, true), Some(true));
        assert_eq!(mixed.check(mv("c4"), SCALE, true), Some(false));
        // A move the file does not score cannot be confirmed.
        assert_eq!(mixed.check(mv("e6"), SCALE, true), Some(false));
        assert_eq!(task(&[]).check(mv("d3"), 0, true), None);
    }
}
