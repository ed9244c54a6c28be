//! Turning parsed records into the summary and the games handed on: bad games are counted
//! (with the first few places) and dropped at once, so memory does not grow with them.

use super::format::Format;
use super::raw::RawIssue;
use super::record::GameRecord;
use super::replay::Checked;
use super::summary::{FileSummary, IngestError, IngestSummary, Issue};
use super::IngestOptions;
use crate::board::{normalize_line, Move, Position};
use std::sync::Arc;

/// One input's figures while it is read.
pub(crate) struct FileState {
    pub file: Arc<str>,
    pub format: Option<Format>,
    summary: FileSummary,
}

impl FileState {
    pub(crate) fn new(file: Arc<str>) -> Self {
        FileState {
            summary: FileSummary {
                path: file.to_string(),
                format: None,
                read: 0,
                accepted: 0,
                skipped: Default::default(),
                failure: None,
            },
            file,
            format: None,
        }
    }
}

/// Where accepted games go, a block at a time, with the format they were read from.
pub type Sink<'a, E> = dyn FnMut(Format, Vec<GameRecord>) -> Result<(), E> + 'a;

/// The summary so far, the `--dedupe` memory, and the sink.
pub(crate) struct Collector<'a, E> {
    opts: &'a IngestOptions,
    pub summary: IngestSummary,
    seen: ahash::AHashSet<(Position, Vec<Move>)>,
    sink: &'a mut Sink<'a, E>,
    /// The most records handed over at once (what reading holds besides its blocks).
    pub most_held: usize,
}

impl<'a, E: From<IngestError>> Collector<'a, E> {
    pub(crate) fn new(opts: &'a IngestOptions, sink: &'a mut Sink<'a, E>) -> Self {
        Collector {
            opts,
            summary: IngestSummary::default(),
            seen: ahash::AHashSet::new(),
            sink,
            most_held: 0,
        }
    }

    /// Counts one block's records and hands its games on.
    pub(crate) fn add(&mut self, state: &mut FileState, checked: Vec<Checked>) -> Result<(), E> {
        self.most_held = self.most_held.max(checked.len());
        let mut games = Vec::with_capacity(checked.len());
        let fs = &mut state.summary;
        for c in checked {
            fs.read += 1;
            match c {
                Checked::Game(g, warning) => {
                    if self.opts.dedupe && !self.seen.insert(dedupe_key(&g)) {
                        self.summary.duplicates += 1;
                        continue;
                    }
                    if let Some((reason, detail)) = warning {
                        let issue = Issue {
                            source: g.source.clone(),
                            ply: None,
                            mv: None,
                            detail,
                        };
                        self.summary.warnings.entry(reason).or_default().add(issue);
                    }
                    if !g.complete {
                        self.summary.incomplete += 1;
                    }
                    fs.accepted += 1;
                    games.push(g);
                }
                Checked::Bad(e) => self.bad(fs, &state.file, e)?,
            }
        }
        match state.format {
            Some(format) if !games.is_empty() => (self.sink)(format, games),
            _ => Ok(()),
        }
    }

    fn bad(&mut self, fs: &mut FileSummary, file: &Arc<str>, e: RawIssue) -> Result<(), E> {
        let (reason, issue) = e.into_issue(file);
        if self.opts.strict {
            return Err(IngestError::BadGame { reason, issue }.into());
        }
        *fs.skipped.entry(reason).or_default() += 1;
        self.summary.skipped += 1;
        self.summary
            .skipped_by_reason
            .entry(reason)
            .or_default()
            .add(issue);
        Ok(())
    }

    /// Closes one input, with why it could not be read (wholly or in part) if so.
    pub(crate) fn finish(&mut self, state: FileState, failure: Option<String>) -> Result<(), E> {
        let mut fs = state.summary;
        fs.format = state.format;
        if let Some(message) = &failure {
            if self.opts.strict {
                return Err(IngestError::File {
                    path: fs.path,
                    message: message.clone(),
                }
                .into());
            }
        }
        fs.failure = failure;
        self.summary.read += fs.read;
        self.summary.accepted += fs.accepted;
        self.summary.files.push(fs);
        Ok(())
    }
}

/// The identity of a game for `--dedupe`: its start and its line, mapped to first move f5
/// when it starts from the standard position.
fn dedupe_key(g: &GameRecord) -> (Position, Vec<Move>) {
    if g.start == Position::START {
        (g.start, normalize_line(&g.moves).0)
    } else {
        (g.start, g.moves.clone())
    }
}
