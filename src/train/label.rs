//! Training labels from the engine's own searches: positions taken from game collections,
//! each valued by an exact solve near the end and, further up, by the mean of a depth-d and a
//! depth-(d+1) search (the two depths' opposite parity errors cancel in the mean), and the
//! labels file that keeps them between `othbook train label` and `othbook train --labels`.
//! The searches above the solve use Multi-ProbCut at the options' selectivity (exact = full
//! width); the solves are always exact. WTHOR games also carry an exact label for free: the
//! theoretical score of their position at 24 empties ([`LabelSettings::theoretical`]).
//!
//! Labels file: UTF-8 text, a `# othbook labels 1` line, then one position per line:
//! side to move's discs and opponent's discs as 16 hex digits each, then the value in discs
//! for the side to move; `#` starts a comment, on a line of its own or after a position's
//! fields. Same games and options, same file.

use super::holdout::{is_held_out, scored_at_24};
use crate::board::{Bitboard, Board, Position};
use crate::bounded_read::{read_stream, read_text, text_of, ReadError};
use crate::engine::{Depth, Engine, EngineError, Limits, SearchEval, Selectivity, SCALE};
use crate::transcript::GameRecord;
use std::fmt::Write as _;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The labels file's first line.
pub(super) const HEADER: &str = "# othbook labels 1";

/// A position and its value for the side to move, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled {
    /// The position (the side to move has a move).
    pub board: Board,
    /// Its value in discs for the side to move.
    pub value: f32,
}

/// Which positions to label and how, as given: [`LabelSettings::check`] makes the
/// [`LabelOptions`] that the labelling functions take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelSettings {
    /// Label every `every`-th game of those not held out.
    pub every: usize,
    /// Games held out of training (every `holdout`-th, as `othbook train` counts them) are
    /// never labelled.
    pub holdout: usize,
    /// Positions per game, spread over `empties`.
    pub per_game: usize,
    /// Empty counts positions are taken at.
    pub empties: (u32, u32),
    /// Positions with at most this many empties are solved exactly.
    pub exact: u32,
    /// Other positions get the mean of depth `depth` and `depth + 1` searches.
    pub depth: u32,
    /// Multi-ProbCut level of those searches ([`Selectivity::EXACT`]: full width).
    pub selectivity: Selectivity,
    /// Label only part `k` of `n` (`(k, n)`, 0 <= k < n): the games whose number among the
    /// chosen ones is `k` mod `n`, with the positions they have in the whole set, so that the
    /// parts of one set, concatenated, are the set's positions (long runs in pieces).
    pub part: (usize, usize),
    /// Stop after this many positions.
    pub limit: usize,
    /// Also label each chosen game's position at 24 empties with its WTHOR theoretical score
    /// (exact, no search; games without one add nothing), in place of a searched position at
    /// 24 empties. With `per_game` 0, those are the only labels.
    pub theoretical: bool,
}

impl Default for LabelSettings {
    fn default() -> Self {
        LabelSettings {
            every: 4,
            holdout: super::holdout::EVERY,
            per_game: 3,
            empties: (12, 54),
            exact: 18,
            depth: 10,
            selectivity: Selectivity::LOWEST,
            part: (0, 1),
            limit: usize::MAX,
            theoretical: false,
        }
    }
}

/// Why labels cannot be made or read.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// Bad options.
    #[error("{0}")]
    Options(String),
    /// The search failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A labels file could not be read or written.
    // Not a `source`: the message already carries the system's reason, and the CLI prints
    // an error's chain, which would say it twice.
    #[error("{}: {reason}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: std::io::Error,
    },
    /// A labels file that is not one: a folder, too large, or not text.
    #[error(transparent)]
    Read(ReadError),
    /// `--resume` with a labels file that other games or options made.
    #[error(
        "the labels file's position {position} is not the one these games and options give \
         (it was made from other inputs or with other options): write to another file, or \
         leave out --resume to start again"
    )]
    Resume {
        /// 1-based number of the first position that differs (or is missing).
        position: usize,
    },
    /// A bad line in a labels file.
    #[error("{}:{line}: {reason}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

impl From<ReadError> for LabelError {
    /// The system's refusals keep the labels' own wording; the rest say what the file is not.
    fn from(e: ReadError) -> LabelError {
        match e {
            ReadError::Io { path, source } => LabelError::Io {
                path,
                reason: source,
            },
            other => LabelError::Read(other),
        }
    }
}

/// [`LabelSettings`] checked once, when built ([`LabelSettings::check`]): the labelling
/// functions take them as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelOptions(LabelSettings);

impl Default for LabelOptions {
    fn default() -> Self {
        LabelSettings::default()
            .check()
            .expect("the default settings are valid")
    }
}

impl std::ops::Deref for LabelOptions {
    type Target = LabelSettings;
    fn deref(&self) -> &LabelSettings {
        &self.0
    }
}

impl LabelSettings {
    /// The options, checked once.
    pub fn check(self) -> Result<LabelOptions, LabelError> {
        let bad = |m: &str| Err(LabelError::Options(m.to_string()));
        let (lo, hi) = self.empties;
        if self.every == 0 {
            return bad("--every must be at least 1");
        }
        if self.per_game == 0 && !self.theoretical {
            return bad("--per-game must be at least 1 (0 only with --theoretical)");
        }
        if !(1 <= lo && lo <= hi && hi <= 59) {
            return bad("--empties: use LO-HI with 1 <= LO <= HI <= 59");
        }
        if !(1..=30).contains(&self.exact) || !(1..=20).contains(&self.depth) {
            return bad("--exact: use 1 to 30; --depth: use 1 to 20");
        }
        if self.part.0 >= self.part.1 {
            return bad("--part: use K/N with 0 <= K < N");
        }
        Ok(LabelOptions(self))
    }
}

impl LabelOptions {
    /// The empty counts of game number `g`'s positions: `per_game` counts spread over the
    /// range, shifted from game to game so that every count is used.
    fn empties_of(&self, g: usize) -> Vec<u32> {
        let (lo, hi) = self.empties;
        let span = (hi - lo + 1) as usize;
        (0..self.per_game)
            .map(|k| lo + ((g * 7 + k * span / self.per_game) % span) as u32)
            .collect()
    }
}

/// The value of `board` for the side to move, in discs, by the rule of `opts`.
pub fn value<E: SearchEval + Clone>(
    engine: &mut Engine<E>,
    board: &Board,
    opts: &LabelOptions,
) -> Result<f32, LabelError> {
    engine.clear();
    if board.empty_count() <= opts.exact {
        let a = engine.analyze(board, &Limits::exact())?;
        return Ok((a.score / SCALE) as f32);
    }
    let search = |d| {
        let depth = Depth::new(d).map_err(EngineError::from)?;
        Ok::<_, EngineError>(Limits::depth(depth).selectivity(opts.selectivity))
    };
    let a = engine.analyze(board, &search(opts.depth)?)?;
    let b = engine.analyze(board, &search(opts.depth + 1)?)?;
    Ok(((a.score + b.score) as f32 / 2.0) / SCALE as f32)
}

/// The position of `g` at `empties` empties, if the game reaches it with a move to play.
fn at(g: &GameRecord, empties: u32) -> Option<Position> {
    super::holdout::position_at(g, empties)
}

/// Labels positions of `games` (not held out, every `opts.every`-th), calling `progress`
/// with the count so far after each.
pub fn label<E: SearchEval + Clone>(
    games: &[GameRecord],
    engine: &mut Engine<E>,
    opts: &LabelOptions,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Labelled>, LabelError> {
    let run = label_from(games, engine, opts, &[], |done| {
        progress(done.len());
        ControlFlow::Continue(())
    })?;
    Ok(run.labels)
}

/// The labels of a run of [`label_from`], and whether it was stopped before the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelling {
    /// In the order of the positions.
    pub labels: Vec<Labelled>,
    /// `after` asked to stop before every position was labelled.
    pub stopped: bool,
}

/// [`label`] going on from `resume`, the labels an earlier run with the same games and
/// options made before it was stopped: their positions must be the first ones this run takes
/// (an error says where they part), and they are kept without a search. `after` is called
/// with all the labels so far after each new one and may stop the run.
pub fn label_from<E: SearchEval + Clone>(
    games: &[GameRecord],
    engine: &mut Engine<E>,
    opts: &LabelOptions,
    resume: &[Labelled],
    mut after: impl FnMut(&[Labelled]) -> ControlFlow<()>,
) -> Result<Labelling, LabelError> {
    let mut out = Vec::new();
    let kept = games
        .iter()
        .enumerate()
        .filter(|(i, _)| !is_held_out(*i, opts.holdout))
        .map(|(_, g)| g)
        .step_by(opts.every);
    let (k, parts) = opts.part;
    let mut stopped = false;
    'games: for (n, g) in kept.enumerate().filter(|(n, _)| n % parts == k) {
        let exact_24 = opts.theoretical.then(|| scored_at_24(g)).flatten();
        let mut positions: Vec<(Board, Option<f32>)> = Vec::new();
        if let Some(s) = &exact_24 {
            positions.push((s.position.board, Some(s.exact as f32)));
        }
        for e in opts.empties_of(n) {
            if e == 24 && exact_24.is_some() {
                continue;
            }
            if let Some(pos) = at(g, e) {
                positions.push((pos.board, None));
            }
        }
        for (board, known) in positions {
            if out.len() >= opts.limit {
                break 'games;
            }
            // The labels of the run being resumed stand for the searches they came from.
            if let Some(old) = resume.get(out.len()) {
                if old.board != board {
                    return Err(LabelError::Resume {
                        position: out.len() + 1,
                    });
                }
                out.push(*old);
                continue;
            }
            let value = match known {
                Some(v) => v,
                None => value(engine, &board, opts)?,
            };
            out.push(Labelled { board, value });
            if after(&out).is_break() {
                stopped = true;
                break 'games;
            }
        }
    }
    if out.len() < resume.len() {
        return Err(LabelError::Resume {
            position: out.len() + 1,
        });
    }
    let stopped = stopped && out.len() < opts.limit;
    Ok(Labelling {
        labels: out,
        stopped,
    })
}

/// The labels file's text.
#[must_use]
pub fn to_text(labels: &[Labelled]) -> String {
    let mut s = String::with_capacity(40 * labels.len() + 64);
    s.push_str(HEADER);
    s.push_str("\n# player opponent value (discs, side to move)\n");
    for l in labels {
        let _ = writeln!(
            s,
            "{:016x} {:016x} {:.2}",
            l.board.player().0,
            l.board.opponent().0,
            l.value
        );
    }
    s
}

/// Writes a labels file atomically.
pub fn save(path: &Path, labels: &[Labelled]) -> Result<(), LabelError> {
    save_text(path, &to_text(labels))
}

/// Writes a labels file's `text` atomically.
pub(super) fn save_text(path: &Path, text: &str) -> Result<(), LabelError> {
    crate::atomic_file::replace(path, |f| std::io::Write::write_all(f, text.as_bytes())).map_err(
        |reason| LabelError::Io {
            path: path.to_path_buf(),
            reason,
        },
    )
}

/// Parses a labels file's text (`path` names it in errors).
pub fn from_text(text: &str, path: &Path) -> Result<Vec<Labelled>, LabelError> {
    let err = |line: usize, reason| LabelError::Parse {
        path: path.to_path_buf(),
        line,
        reason,
    };
    if text.lines().next() != Some(HEADER) {
        return Err(err(
            1,
            "not an othbook labels file (no '# othbook labels 1' line)",
        ));
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        // A comment may follow the fields (`train label --from-book` names each search).
        let line = line
            .split_once('#')
            .map_or(line, |(fields, _)| fields)
            .trim();
        if line.is_empty() {
            continue;
        }
        let mut f = line.split_whitespace();
        let (Some(p), Some(o), Some(v), None) = (f.next(), f.next(), f.next(), f.next()) else {
            return Err(err(i + 1, "expected 3 fields: player opponent value"));
        };
        let hex = |x: &str| u64::from_str_radix(x, 16).ok().filter(|_| x.len() == 16);
        let (Some(p), Some(o)) = (hex(p), hex(o)) else {
            return Err(err(i + 1, "discs must be 16 hex digits"));
        };
        let board = Board::new(Bitboard(p), Bitboard(o))
            .map_err(|_| err(i + 1, "overlapping or impossible discs"))?;
        let value: f32 = v
            .parse()
            .ok()
            .filter(|x: &f32| x.is_finite() && x.abs() <= 64.0)
            .ok_or_else(|| err(i + 1, "value must be a number of discs from -64 to 64"))?;
        out.push(Labelled { board, value });
    }
    Ok(out)
}

/// The most a labels file may hold (about 25 million labels): a device such as `/dev/zero`
/// or an endless pipe given as the labels would otherwise be read until memory ran out.
pub const LABELS_LIMIT: u64 = 1 << 30;

/// Reads a labels file from `reader`, at most [`LABELS_LIMIT`] bytes (`path` names it in
/// errors).
pub fn read(reader: impl Read, path: &Path) -> Result<Vec<Labelled>, LabelError> {
    read_limited(reader, path, LABELS_LIMIT)
}

fn read_limited(reader: impl Read, path: &Path, limit: u64) -> Result<Vec<Labelled>, LabelError> {
    let text = read_stream(reader, path, limit).and_then(|bytes| text_of(bytes, path));
    from_text(&text.map_err(LabelError::from)?, path)
}

/// Reads a labels file (folders refused, devices and pipes capped at [`LABELS_LIMIT`]).
pub fn load(path: &Path) -> Result<Vec<Labelled>, LabelError> {
    load_limited(path, LABELS_LIMIT)
}

fn load_limited(path: &Path, limit: u64) -> Result<Vec<Labelled>, LabelError> {
    from_text(&read_text(path, limit).map_err(LabelError::from)?, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_train_labels_read_dev_zero_forever() {
        let zero = Path::new("/dev/zero");
        let too_large =
            |e: LabelError| matches!(e, LabelError::Read(ReadError::TooLarge { limit: 1000, .. }));
        assert!(too_large(load_limited(zero, 1000).unwrap_err()));
        let f = std::fs::File::open(zero).unwrap();
        assert!(too_large(read_limited(f, zero, 1000).unwrap_err()));
        let dir = tempfile::tempdir().unwrap();
        let e = load(dir.path()).unwrap_err();
        assert!(
            matches!(e, LabelError::Read(ReadError::NotRegular { .. })),
            "{e}"
        );
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, b"# othbook labels 1\n\xff\n").unwrap();
        let e = load(&bad).unwrap_err();
        assert!(
            matches!(e, LabelError::Read(ReadError::NotText { .. })),
            "{e}"
        );
        assert!(e.to_string().contains("bad.txt: not UTF-8 text"), "{e}");
    }

    #[test]
    fn labels_file_round_trip_and_errors() {
        let b = Board::START.play(crate::board::Square::F5).expect("legal");
        let labels = vec![
            Labelled {
                board: Board::START,
                value: -1.5,
            },
            Labelled {
                board: b,
                value: 12.25,
            },
        ];
        let p = Path::new("x.lab");
        assert_eq!(from_text(&to_text(&labels), p).expect("parses"), labels);
        let bad = |s: &str| {
            from_text(&format!("{HEADER}\n{s}\n"), p)
                .unwrap_err()
                .to_string()
        };
        let commented = format!("{HEADER}\n0000000810000000 0000001008000000 -1.5 # depth 18\n");
        assert_eq!(
            from_text(&commented, p).expect("a trailing comment is allowed"),
            [Labelled {
                board: Board::START,
                value: -1.5,
            }]
        );
        assert!(bad("0000000810000000 0000001008000000").contains("x.lab:2: expected 3"));
        assert!(bad("0000000810000000 # 0000001008000000 1").contains("x.lab:2: expected 3"));
        assert!(bad("00000008100000 0000001008000000 1").contains("16 hex"));
        assert!(bad("0000000810000000 0000000810000000 1").contains("overlapping"));
        assert!(bad("0000000810000000 0000001008000000 99").contains("-64 to 64"));
        assert!(from_text("1 2 3\n", p)
            .unwrap_err()
            .to_string()
            .contains(":1:"));
    }

    #[test]
    fn every_empty_count_of_the_range_is_used() {
        let o = LabelOptions::default();
        let mut seen = std::collections::BTreeSet::new();
        for g in 0..100 {
            for e in o.empties_of(g) {
                assert!((o.empties.0..=o.empties.1).contains(&e));
                seen.insert(e);
            }
        }
        assert_eq!(seen.len(), (o.empties.1 - o.empties.0 + 1) as usize);
    }
}
