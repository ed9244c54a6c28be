//! Game transcripts: readers for .gam, WTHOR, GGF, PGN, move strings and CSV; replay and checks.
//!
//! [`ingest`] reads files in parallel (rayon over files, and over chunks of large text files),
//! replays every game from its start, and returns the games in input order with an
//! [`IngestSummary`] of what was read, skipped (by reason) and doubtful. Writers for
//! gam/moves/pgn/wtb are in [`write`].
//!
//! [`GameResult::raw`] per format: `.gam` the text after `:` (`-04 10`, discs counted without
//! giving the empties to the winner); WTHOR `real/theoretical` (black's discs, e.g. `36/34`);
//! GGF the `RE` value (`+2.000`); PGN the `Result` (`28-36`, `1-0`); move strings the trailing
//! result; CSV the score or winner cell (`1`, `-1`, `0`: only the sign is recorded, the
//! margin of a finished game comes from the board).

mod collect;
mod csv;
mod format;
mod gam;
mod ggf;
pub mod input;
mod lex;
mod lines;
mod moves;
mod options;
pub mod people;
mod pgn;
mod raw;
mod record;
mod replay;
mod sniff;
mod stream;
mod summary;
pub mod write;
mod wthor;

pub use format::{Format, ParseFormatError};
pub use options::IngestOptions;
pub use record::{GameRecord, GameResult, Location, SourceRef};
pub(crate) use sniff::choose;
pub use summary::{
    FileSummary, IngestError, IngestSummary, Issue, SkipReason, Tally, WarnReason, LOCATIONS_KEPT,
};

pub use collect::Sink;

use collect::{Collector, FileState};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The games read and the report on them.
#[derive(Clone, Debug, Default)]
pub struct Ingest {
    /// Accepted games: files in the order given, games in file order.
    pub games: Vec<GameRecord>,
    /// What was read, skipped and doubtful.
    pub summary: IngestSummary,
}

/// Reads, replays and checks every game in `paths` (`-` is standard input) and returns them
/// all. For large inputs prefer [`ingest_each`], which holds only a block at a time.
///
/// Unreadable files and bad games are reported in the summary and skipped; with
/// `opts.strict` the first of them (in input order) is returned as the error instead.
pub fn ingest(paths: &[PathBuf], opts: &IngestOptions) -> Result<Ingest, IngestError> {
    let mut games = Vec::new();
    let summary = ingest_each(paths, opts, Arc::new(|_| {}), &mut |_, mut block| {
        games.append(&mut block);
        Ok::<(), IngestError>(())
    })?;
    Ok(Ingest { games, summary })
}

/// Reads every game in `paths` (`-` is standard input; pipes and FIFOs are read as streams)
/// and hands the accepted ones to `sink` a block at a time, in input order, with the format
/// they were read in. Memory holds a few blocks of input, not the input: bad games are only
/// counted (with the first few places, see [`LOCATIONS_KEPT`]). `progress` is called with
/// the number of raw input bytes just read.
///
/// With `opts.strict` the first bad game or unreadable file is the error; an error from
/// `sink` stops the run and is returned as is.
pub fn ingest_each<'a, E: From<IngestError>>(
    paths: &[PathBuf],
    opts: &'a IngestOptions,
    progress: Arc<dyn Fn(u64) + Send + Sync>,
    sink: &'a mut Sink<'a, E>,
) -> Result<IngestSummary, E> {
    let cache = Mutex::new(HashMap::<PathBuf, Arc<wthor::Names>>::new());
    let names = |dir: &Path| {
        let mut cache = cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry(dir.to_path_buf())
            .or_insert_with(|| Arc::new(wthor::Names::load(dir)))
            .clone()
    };
    let mut col = Collector::new(opts, sink);
    for path in paths {
        if opts.format.is_none_or(|f| f == Format::Wthor) && wthor::is_companion(path) {
            let file: Arc<str> = Arc::from(path.display().to_string());
            // Names only: read with the .wtb files beside it, no games of its own. Given
            // without them it is a mistake worth naming.
            let with_games = paths.iter().any(|p| {
                p.parent() == path.parent() && Format::from_path(p) == Some(Format::Wthor)
            });
            let failure = (!with_games).then(|| {
                "not a game file: it holds WTHOR player or tournament names, read for the \
                 .wtb game files beside it"
                    .to_string()
            });
            col.finish(FileState::new(file), failure)?;
            continue;
        }
        let src = stream::Source {
            path,
            forced: opts.format,
            names: &names,
            progress: progress.clone(),
        };
        stream::read_source(&src, &mut col)?;
    }
    Ok(col.summary)
}

/// Reads games from bytes in memory (gzip unpacked) as if they came from a file called
/// `name`; for WTHOR no names are available. Used by fuzzing and by tests.
pub fn ingest_bytes(
    bytes: &[u8],
    format: Format,
    name: &str,
    opts: &IngestOptions,
) -> Result<Ingest, IngestError> {
    let mut games = Vec::new();
    let mut sink = |_, mut block: Vec<GameRecord>| {
        games.append(&mut block);
        Ok::<(), IngestError>(())
    };
    let mut col = Collector::new(opts, &mut sink);
    match input::gunzip_if_needed(bytes) {
        Ok(data) => {
            let reader = Box::new(std::io::Cursor::new(data.into_owned()));
            stream::read_reader(name, reader, Some(format), &mut col)?;
        }
        Err(e) => col.finish(FileState::new(Arc::from(name)), Some(e))?,
    }
    let summary = col.summary;
    Ok(Ingest { games, summary })
}
