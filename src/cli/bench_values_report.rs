//! The report of `othbook bench --values`: per group (an empty count solved exactly, or a
//! band of earlier plies) the differences between the book's values and the reference
//! searches, and whether the book's best move is the reference's; rendered as a table or
//! JSON.

use othbook::board::Move;
use othbook::book::key::Key;
use othbook::book::EvalInfo;
use othbook::book::Score;
use othbook::engine::{Depth, HashSize, Limits, Selectivity, SCALE};
use serde::Serialize;
use std::io::Write;

/// How the positions are searched.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    /// Positions with at most this many empties are solved.
    pub exact_empties: u32,
    /// Depth of the searches of the others.
    pub depth: Depth,
    /// Multi-ProbCut level of those searches.
    pub selectivity: Selectivity,
    /// Transposition table per worker.
    pub hash_mb: HashSize,
}

impl Reference {
    /// The limits for a position with `empties` empty squares.
    pub(super) fn limits(&self, empties: u32) -> Limits {
        if empties <= self.exact_empties {
            Limits::exact()
        } else {
            Limits::depth(self.depth).selectivity(self.selectivity)
        }
    }
}

/// One sampled position.
#[derive(Clone, Debug)]
pub struct Job {
    /// Canonical board (the one searched).
    pub key: Key,
    /// Index of its group.
    pub group: usize,
    /// The book's value for the side to move.
    pub book: Score,
    /// The book's best move on the canonical board, when the book knows every move (a leaf
    /// and the values of its positions) and there is a choice (two legal moves or more).
    pub book_move: Option<Move>,
}

/// A move losing this much (hundredths of a disc) by the reference counts as a bad choice.
const BAD_CHOICE: i32 = 2 * SCALE;

/// What the searches of one sampled position found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The reference value for the side to move, hundredths of a disc.
    pub reference: i32,
    /// Whether the reference is an exact solve.
    pub exact: bool,
    /// The reference value of the book's best move, when the position has one (the same as
    /// `reference` when it is the reference's best move).
    pub book_move_value: Option<i32>,
    /// Seconds its searches took.
    pub seconds: f64,
}

/// The figures of a set of positions. Shares are from 0 to 1; `None` where no position
/// counts.
#[derive(Serialize, Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Positions searched.
    pub sampled: usize,
    /// Mean |book value − reference| in discs.
    pub mean_abs: Option<f64>,
    /// Mean book value − reference in discs (above 0: the book flatters the side to move).
    pub bias: Option<f64>,
    /// Share where the book's value says win, draw or loss (rounded to whole discs: below
    /// half a disc either way is a draw) and the reference says otherwise.
    pub wrong_sign: Option<f64>,
    /// Positions searched where the book knows every move's value and there is a choice.
    pub choices: usize,
    /// Share of those where the book's best move is worth as much as the reference's best.
    pub best_agrees: Option<f64>,
    /// Share of those where the book's best move loses 2 discs or more by the reference.
    pub loses_2: Option<f64>,
    /// Mean discs the book's best move loses by the reference.
    pub mean_loss: Option<f64>,
    /// Seconds the searches took, each on one thread (what a larger sample would cost).
    pub seconds: f64,
}

/// One group of positions.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Group {
    /// Empty squares (a group solved exactly).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empties: Option<u32>,
    /// First and last ply from the start (a band of earlier positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<[u32; 2]>,
    /// Positions of the book in the group whose value can be measured.
    pub positions: u64,
    /// What the sample of them measures.
    #[serde(flatten)]
    pub figures: Figures,
}

impl Group {
    /// The positions with `empties` empty squares, `positions` of them.
    #[must_use]
    pub fn empties(empties: u32, positions: u64) -> Group {
        Group {
            empties: Some(empties),
            plies: None,
            positions,
            figures: Figures::default(),
        }
    }

    /// The positions `first` to `last` plies from the start, `positions` of them.
    #[must_use]
    pub fn band(first: u32, last: u32, positions: u64) -> Group {
        Group {
            empties: None,
            plies: Some([first, last]),
            positions,
            figures: Figures::default(),
        }
    }

    fn label(&self) -> String {
        match (self.empties, self.plies) {
            (Some(e), _) => e.to_string(),
            (None, Some([a, b])) => format!("{a}-{b}"),
            (None, None) => String::new(),
        }
    }
}

/// One part of the measurement: its groups and all of them together.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Part {
    /// The groups, from the start of the game.
    pub groups: Vec<Group>,
    /// All groups, each weighing as many positions as it holds in the book.
    pub all: Figures,
}

/// What was measured and how.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Settings {
    /// The book.
    pub book: String,
    /// Its leaves' search depth (from its header).
    pub leaf_depth: u8,
    /// Its leaves were solved from this many empties.
    pub exact_from: u8,
    /// Positions with at most this many empties were solved exactly.
    pub exact_empties: u32,
    /// Depth of the searches of the earlier positions.
    pub reference_depth: u32,
    /// Their Multi-ProbCut level (`exact`: full width).
    pub reference_selectivity: String,
    /// Seed of the samples.
    pub seed: u64,
    /// Positions sampled per empty count solved.
    pub sample: usize,
    /// Positions sampled per band of earlier plies.
    pub deep_sample: usize,
    /// Worker threads (the figures do not depend on them).
    pub threads: usize,
}

/// The measurement.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ValuesReport {
    /// What was measured and how.
    pub settings: Settings,
    /// Against exact solves.
    pub exact: Part,
    /// Against deeper searches.
    pub deeper: Part,
    /// The whole book (both parts, each group weighing its positions).
    pub all: Figures,
    /// Seconds taken.
    pub seconds: f64,
}

/// Sums over the positions of a group, in hundredths of a disc.
#[derive(Default)]
struct Sums {
    n: usize,
    abs: i64,
    signed: i64,
    wrong: usize,
    choices: usize,
    agree: usize,
    bad: usize,
    loss: i64,
    seconds: f64,
}

/// Win (1), draw (0) or loss (-1) of a value, rounded to whole discs.
fn outcome_of(score: i32) -> i8 {
    if score >= SCALE / 2 {
        1
    } else if score <= -SCALE / 2 {
        -1
    } else {
        0
    }
}

impl Sums {
    fn add(&mut self, book: i32, o: &Outcome) {
        self.n += 1;
        self.seconds += o.seconds;
        self.abs += i64::from((book - o.reference).abs());
        self.signed += i64::from(book - o.reference);
        self.wrong += usize::from(outcome_of(book) != outcome_of(o.reference));
        if let Some(v) = o.book_move_value {
            // A search of one move may see it a little better than the search of all did.
            let lost = (o.reference - v).max(0);
            self.choices += 1;
            self.agree += usize::from(lost == 0);
            self.bad += usize::from(lost >= BAD_CHOICE);
            self.loss += i64::from(lost);
        }
    }

    fn figures(&self) -> Figures {
        let per = |x: i64, n: usize| (n > 0).then(|| x as f64 / f64::from(SCALE) / n as f64);
        let share = |k: usize, n: usize| (n > 0).then(|| k as f64 / n as f64);
        Figures {
            sampled: self.n,
            mean_abs: per(self.abs, self.n),
            bias: per(self.signed, self.n),
            wrong_sign: share(self.wrong, self.n),
            choices: self.choices,
            best_agrees: share(self.agree, self.choices),
            loses_2: share(self.bad, self.choices),
            mean_loss: per(self.loss, self.choices),
            seconds: self.seconds,
        }
    }
}

/// The figures of `groups` together, each group weighing the positions it holds (and, for
/// the move figures, the share of them with a choice).
fn weighted<'a>(groups: impl Iterator<Item = &'a Group> + Clone) -> Figures {
    let mean = |value: &dyn Fn(&Group) -> Option<f64>, weight: &dyn Fn(&Group) -> f64| {
        let (mut sum, mut total) = (0.0, 0.0);
        for g in groups.clone() {
            if let Some(v) = value(g) {
                sum += v * weight(g);
                total += weight(g);
            }
        }
        (total > 0.0).then(|| sum / total)
    };
    let all = |g: &Group| g.positions as f64;
    let with_choice =
        |g: &Group| g.positions as f64 * g.figures.choices as f64 / g.figures.sampled.max(1) as f64;
    Figures {
        sampled: groups.clone().map(|g| g.figures.sampled).sum(),
        mean_abs: mean(&|g| g.figures.mean_abs, &all),
        bias: mean(&|g| g.figures.bias, &all),
        wrong_sign: mean(&|g| g.figures.wrong_sign, &all),
        choices: groups.clone().map(|g| g.figures.choices).sum(),
        best_agrees: mean(&|g| g.figures.best_agrees, &with_choice),
        loses_2: mean(&|g| g.figures.loses_2, &with_choice),
        mean_loss: mean(&|g| g.figures.mean_loss, &with_choice),
        seconds: groups.clone().map(|g| g.figures.seconds).sum(),
    }
}

/// The report of `outcomes` (one per job, in job order) over `groups`.
#[must_use]
pub fn tally(
    settings: Settings,
    mut groups: Vec<Group>,
    jobs: &[Job],
    outcomes: &[Outcome],
    seconds: f64,
) -> ValuesReport {
    let mut sums: Vec<Sums> = groups.iter().map(|_| Sums::default()).collect();
    for (job, o) in jobs.iter().zip(outcomes) {
        sums[job.group].add(i32::from(job.book.score), o);
    }
    for (g, s) in groups.iter_mut().zip(&sums) {
        g.figures = s.figures();
    }
    let all = weighted(groups.iter());
    let (exact, deeper): (Vec<Group>, Vec<Group>) =
        groups.into_iter().partition(|g| g.empties.is_some());
    let part = |groups: Vec<Group>| Part {
        all: weighted(groups.iter()),
        groups,
    };
    ValuesReport {
        settings,
        exact: part(exact),
        deeper: part(deeper),
        all,
        seconds,
    }
}

impl Settings {
    /// The settings of a run on `book` (evaluated as `info` says).
    #[must_use]
    pub fn new(
        book: String,
        info: &EvalInfo,
        reference: &Reference,
        samples: (usize, usize),
        seed: u64,
        threads: usize,
    ) -> Settings {
        Settings {
            book,
            leaf_depth: info.depth,
            exact_from: info.exact_from,
            exact_empties: reference.exact_empties,
            reference_depth: reference.depth.plies(),
            reference_selectivity: reference.selectivity.to_string(),
            seed,
            sample: samples.0,
            deep_sample: samples.1,
            threads,
        }
    }
}

fn num(x: Option<f64>, width: usize) -> String {
    x.map_or_else(|| format!("{:>width$}", "-"), |v| format!("{v:>width$.2}"))
}

fn signed(x: Option<f64>, width: usize) -> String {
    x.map_or_else(|| format!("{:>width$}", "-"), |v| format!("{v:>+width$.2}"))
}

fn pct(x: Option<f64>, width: usize) -> String {
    x.map_or_else(
        || format!("{:>width$}", "-"),
        |v| format!("{:>w$.1}%", 100.0 * v, w = width.saturating_sub(1)),
    )
}

fn row(out: &mut impl Write, label: &str, positions: u64, f: &Figures) -> std::io::Result<()> {
    writeln!(
        out,
        "  {label:<7} {positions:>9} {:>7} {} {} {} {:>7} {} {} {} {:>7.0}",
        f.sampled,
        num(f.mean_abs, 7),
        signed(f.bias, 6),
        pct(f.wrong_sign, 11),
        f.choices,
        pct(f.best_agrees, 7),
        pct(f.loses_2, 8),
        num(f.mean_loss, 6),
        f.seconds,
    )
}

fn part(out: &mut impl Write, first: &str, p: &Part) -> std::io::Result<()> {
    writeln!(
        out,
        "  {first:<7} {:>9} {:>7} {:>7} {:>6} {:>11} {:>7} {:>7} {:>8} {:>6} {:>7}",
        "positions",
        "sampled",
        "|diff|",
        "bias",
        "wrong W/D/L",
        "choices",
        "agrees",
        "loses 2+",
        "loss",
        "seconds"
    )?;
    for g in &p.groups {
        row(out, &g.label(), g.positions, &g.figures)?;
    }
    let total = p.groups.iter().map(|g| g.positions).sum();
    row(out, "all", total, &p.all)
}

impl ValuesReport {
    /// The report as text tables.
    pub fn write_table(&self, out: &mut impl Write) -> std::io::Result<()> {
        let s = &self.settings;
        writeln!(
            out,
            "book {}: leaves {} plies deep, solved from {} empties; seed {}, {} thread{}",
            s.book,
            s.leaf_depth,
            s.exact_from,
            s.seed,
            s.threads,
            if s.threads == 1 { "" } else { "s" }
        )?;
        writeln!(
            out,
            "differences in discs for the side to move (book - reference); agrees: the book's \
             best move is worth the reference's best; loses 2+: it loses 2 discs or more by it"
        )?;
        if !self.exact.groups.is_empty() {
            writeln!(
                out,
                "against exact solves (at most {} empties; sample of {} per empty count):",
                s.exact_empties, s.sample
            )?;
            part(out, "empties", &self.exact)?;
        }
        if !self.deeper.groups.is_empty() {
            let width = if s.reference_selectivity == "exact" {
                "full width".to_string()
            } else {
                format!("selectivity {}", s.reference_selectivity)
            };
            writeln!(
                out,
                "against depth-{} searches, {width} (sample of {} per band of plies):",
                s.reference_depth, s.deep_sample
            )?;
            part(out, "plies", &self.deeper)?;
        }
        let a = &self.all;
        writeln!(
            out,
            "whole book (each group weighing its positions): |diff| {} discs, bias {}, wrong \
             W/D/L {}, best move agrees {}, loses 2+ {} ({} positions, {} with a choice)",
            num(a.mean_abs, 0),
            signed(a.bias, 0),
            pct(a.wrong_sign, 0),
            pct(a.best_agrees, 0),
            pct(a.loses_2, 0),
            a.sampled,
            a.choices
        )?;
        writeln!(out, "{:.1} s", self.seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othbook::book::key::Key;
    use othbook::book::{Score, ValueKind};

    fn job(group: usize, book: i16) -> Job {
        Job {
            key: Key {
                player: 0,
                opponent: 0,
            },
            group,
            book: Score {
                score: book,
                depth: 4,
                kind: ValueKind::Midgame,
            },
            book_move: None,
        }
    }

    fn outcome(reference: i32, book_move_value: Option<i32>) -> Outcome {
        Outcome {
            reference,
            exact: true,
            book_move_value,
            seconds: 1.0,
        }
    }

    #[test]
    fn groups_weigh_the_positions_they_hold() {
        let settings = Settings {
            book: "b".into(),
            leaf_depth: 4,
            exact_from: 0,
            exact_empties: 24,
            reference_depth: 10,
            reference_selectivity: "exact".into(),
            seed: 1,
            sample: 2,
            deep_sample: 1,
            threads: 1,
        };
        let groups = vec![Group::band(0, 5, 30), Group::empties(24, 10)];
        // Band: off by 1 disc, the book's move 3 discs worse. Empties: off by 3 discs and
        // 1 disc (wrong sign: +0.5 against -0.5), the book's move seen better than the best.
        let jobs = [job(0, 100), job(1, 300), job(1, 50)];
        let outcomes = [
            outcome(0, Some(-300)),
            outcome(600, None),
            outcome(-50, Some(0)),
        ];
        let r = tally(settings, groups, &jobs, &outcomes, 3.0);
        let band = &r.deeper.groups[0].figures;
        assert_eq!(
            (band.mean_abs, band.loses_2, band.mean_loss),
            (Some(1.0), Some(1.0), Some(3.0))
        );
        let end = &r.exact.groups[0].figures;
        assert_eq!((end.mean_abs, end.wrong_sign), (Some(2.0), Some(0.5)));
        assert_eq!((end.best_agrees, end.mean_loss), (Some(1.0), Some(0.0)));
        // 30 positions at 1 disc, 10 at 2; 30 with a choice that loses, 5 that does not.
        assert_eq!(r.all.mean_abs, Some(1.25));
        assert_eq!(r.all.loses_2, Some(30.0 / 35.0));
        assert_eq!((r.all.sampled, r.all.choices, r.all.seconds), (3, 2, 3.0));
    }
}
