//! What an ingest run tells the user: games read, accepted and skipped (by reason, with the
//! first few locations), warnings, and files that could not be read.

use super::format::Format;
use super::record::SourceRef;
use std::collections::BTreeMap;
use std::fmt;

/// How many locations are kept per reason (the rest are only counted).
pub const LOCATIONS_KEPT: usize = 5;

/// Why a game was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// The record cannot be read (bad token, bad square, missing field).
    Syntax,
    /// A move is illegal in the replayed position.
    IllegalMove,
    /// The record says one side moved but it was the other side's turn.
    WrongColor,
    /// The set-up position is invalid.
    BadBoard,
    /// Not an Othello game (e.g. a GGF game of another kind).
    NotOthello,
    /// The record is cut short (binary record missing bytes).
    Truncated,
}

impl SkipReason {
    /// A short phrase for summaries and JSON keys.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SkipReason::Syntax => "unreadable record",
            SkipReason::IllegalMove => "illegal move",
            SkipReason::WrongColor => "move by the wrong side",
            SkipReason::BadBoard => "bad set-up position",
            SkipReason::NotOthello => "not an Othello game",
            SkipReason::Truncated => "truncated record",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Something doubtful about an accepted game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WarnReason {
    /// The recorded result disagrees with the replayed final board (the record's value is kept).
    ScoreMismatch,
}

impl WarnReason {
    /// A short phrase for summaries.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            WarnReason::ScoreMismatch => "recorded score disagrees with the final board",
        }
    }
}

impl fmt::Display for WarnReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One problem at one place: file and line/record, and where known the ply and move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// File and line or record.
    pub source: SourceRef,
    /// 1-based ply (implied passes counted), when the problem is a move.
    pub ply: Option<usize>,
    /// The move as written, when the problem is a move.
    pub mv: Option<String>,
    /// What is wrong.
    pub detail: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let Some(ply) = self.ply {
            write!(f, ": ply {ply}")?;
        }
        if let Some(mv) = &self.mv {
            write!(f, ": move {mv}")?;
        }
        write!(f, ": {}", self.detail)
    }
}

/// A count and the first few places for one reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// How many times.
    pub count: u64,
    /// The first [`LOCATIONS_KEPT`] occurrences, in input order.
    pub first: Vec<Issue>,
}

impl Tally {
    pub(crate) fn add(&mut self, issue: Issue) {
        self.count += 1;
        if self.first.len() < LOCATIONS_KEPT {
            self.first.push(issue);
        }
    }
}

/// Per-file figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSummary {
    /// The path as given.
    pub path: String,
    /// The format the file was read as (None when it could not be read).
    pub format: Option<Format>,
    /// Games (records) found.
    pub read: u64,
    /// Games kept (after dedupe).
    pub accepted: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Why the file could not be read at all, if so.
    pub failure: Option<String>,
}

/// The outcome of an ingest run, printed on stderr by the CLI.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IngestSummary {
    /// Every file, in the order given.
    pub files: Vec<FileSummary>,
    /// Games found in all files.
    pub read: u64,
    /// Games returned.
    pub accepted: u64,
    /// Bad games skipped (sum of `skipped_by_reason`).
    pub skipped: u64,
    /// Accepted games that stop before the end (kept).
    pub incomplete: u64,
    /// Good games dropped as duplicates by `--dedupe`.
    pub duplicates: u64,
    /// Skipped games by reason.
    pub skipped_by_reason: BTreeMap<SkipReason, Tally>,
    /// Accepted games with a doubtful point, by reason.
    pub warnings: BTreeMap<WarnReason, Tally>,
}

impl IngestSummary {
    /// Files that could not be opened or were not of the claimed format.
    pub fn failed_files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files
            .iter()
            .filter_map(|f| f.failure.as_deref().map(|m| (f.path.as_str(), m)))
    }
}

impl fmt::Display for IngestSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = self.failed_files().count();
        write!(
            f,
            "{} game{} read, {} accepted, {} skipped",
            self.read,
            if self.read == 1 { "" } else { "s" },
            self.accepted,
            self.skipped
        )?;
        if self.duplicates > 0 {
            write!(f, ", {} duplicates dropped", self.duplicates)?;
        }
        write!(
            f,
            " ({} file{}",
            self.files.len(),
            if self.files.len() == 1 { "" } else { "s" }
        )?;
        if failed > 0 {
            write!(f, ", {failed} unreadable")?;
        }
        writeln!(f, ")")?;
        if self.incomplete > 0 {
            writeln!(
                f,
                "  {} incomplete game{} kept (they stop before the end)",
                self.incomplete,
                if self.incomplete == 1 { "" } else { "s" }
            )?;
        }
        for (reason, tally) in &self.skipped_by_reason {
            writeln!(f, "  skipped {} x {reason}:", tally.count)?;
            write_firsts(f, tally)?;
        }
        for (reason, tally) in &self.warnings {
            writeln!(f, "  warning {} x {reason}:", tally.count)?;
            write_firsts(f, tally)?;
        }
        for (path, message) in self.failed_files() {
            writeln!(f, "  file {path}: {message}")?;
        }
        Ok(())
    }
}

fn write_firsts(f: &mut fmt::Formatter<'_>, tally: &Tally) -> fmt::Result {
    for issue in &tally.first {
        writeln!(f, "    {issue}")?;
    }
    if tally.count > tally.first.len() as u64 {
        writeln!(
            f,
            "    ... and {} more",
            tally.count - tally.first.len() as u64
        )?;
    }
    Ok(())
}

/// Why a strict ingest stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IngestError {
    /// The first bad game (strict mode).
    #[error("{issue} ({reason})")]
    BadGame {
        /// The kind of problem.
        reason: SkipReason,
        /// Where and what.
        issue: Issue,
    },
    /// A file that cannot be read or is not of the claimed format (strict mode).
    #[error("{path}: {message}")]
    File {
        /// The path as given.
        path: String,
        /// What went wrong.
        message: String,
    },
}
