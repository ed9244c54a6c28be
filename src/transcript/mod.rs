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

mod csv;
mod format;
mod gam;
mod ggf;
mod input;
mod lex;
mod lines;
mod moves;
mod pgn;
mod raw;
mod record;
mod replay;
mod summary;
pub mod write;
mod wthor;

pub use format::{Format, ParseFormatError};
pub use record::{GameRecord, GameResult, Location, SourceRef};
pub use summary::{
    FileSummary, IngestError, IngestSummary, Issue, SkipReason, Tally, WarnReason, LOCATIONS_KEPT,
};

use crate::board::{normalize_line, Move, Position};
use raw::{Parsed, RawIssue};
use rayon::prelude::*;
use replay::Checked;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How to read the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IngestOptions {
    /// Read every file as this format instead of going by extension and content.
    pub format: Option<Format>,
    /// Stop at the first bad game or unreadable file ([`IngestError`]).
    pub strict: bool,
    /// Keep one copy of identical games (same start, same line up to the 4 symmetries of the
    /// start position).
    pub dedupe: bool,
}

/// The games read and the report on them.
#[derive(Clone, Debug, Default)]
pub struct Ingest {
    /// Accepted games: files in the order given, games in file order.
    pub games: Vec<GameRecord>,
    /// What was read, skipped and doubtful.
    pub summary: IngestSummary,
}

/// Size of the pieces a large text file is cut into for parallel parsing.
const CHUNK: usize = 1 << 18;

/// Reads, replays and checks every game in `paths`.
///
/// Unreadable files and bad games are reported in the summary and skipped; with
/// `opts.strict` the first of them (in input order) is returned as the error instead.
pub fn ingest(paths: &[PathBuf], opts: &IngestOptions) -> Result<Ingest, IngestError> {
    let names = Mutex::new(HashMap::<PathBuf, Arc<wthor::Names>>::new());
    // Largest files first, so that a big serial step (unpacking a .gz) starts at once while
    // the other threads take the small files; the merge restores the given order.
    let mut order: Vec<(u64, usize)> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (std::fs::metadata(p).map_or(0, |m| m.len()), i))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut files: Vec<(usize, FileRead)> = order
        .par_iter()
        .map(|&(_, i)| (i, read_path(&paths[i], opts.format, &names)))
        .collect();
    files.sort_by_key(|f| f.0);
    merge(files.into_iter().map(|f| f.1).collect(), opts)
}

/// Reads games from bytes in memory (gzip unpacked) as if they came from a file called
/// `name`; for WTHOR no names are available. Used by fuzzing and by tests.
pub fn ingest_bytes(
    bytes: &[u8],
    format: Format,
    name: &str,
    opts: &IngestOptions,
) -> Result<Ingest, IngestError> {
    let file: Arc<str> = Arc::from(name);
    let read = match input::gunzip_if_needed(bytes) {
        Ok(data) => read_bytes(
            input::strip_bom(&data),
            Some(format),
            &file,
            &wthor::Names::default(),
        ),
        Err(e) => FileRead::failed(file, e),
    };
    merge(vec![read], opts)
}

/// One file's games, before the merge.
struct FileRead {
    file: Arc<str>,
    format: Option<Format>,
    games: Vec<Checked>,
    failure: Option<String>,
}

impl FileRead {
    fn failed(file: Arc<str>, failure: String) -> Self {
        FileRead {
            file,
            format: None,
            games: Vec::new(),
            failure: Some(failure),
        }
    }
}

fn read_path(
    path: &Path,
    forced: Option<Format>,
    names: &Mutex<HashMap<PathBuf, Arc<wthor::Names>>>,
) -> FileRead {
    let file: Arc<str> = Arc::from(path.display().to_string());
    if forced.is_none_or(|f| f == Format::Wthor) && wthor::is_companion(path) {
        // Names only: used by the .wtb files beside it, no games of its own.
        return FileRead {
            file,
            format: None,
            games: Vec::new(),
            failure: None,
        };
    }
    let data = match input::open(path) {
        Ok(d) => d,
        Err(e) => return FileRead::failed(file, e),
    };
    let bytes = input::strip_bom(&data);
    let claimed = forced.or_else(|| Format::from_path(path));
    let format = match choose(bytes, claimed) {
        Ok(f) => f,
        Err(e) => return FileRead::failed(file, e),
    };
    let dir_names = if format == Format::Wthor {
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut cache = names
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry(dir.clone())
            .or_insert_with(|| Arc::new(wthor::Names::load(&dir)))
            .clone()
    } else {
        Arc::new(wthor::Names::default())
    };
    read_bytes(bytes, Some(format), &file, &dir_names)
}

/// The format to read `bytes` as: the claimed one if the content fits it, else by content.
fn choose(bytes: &[u8], claimed: Option<Format>) -> Result<Format, String> {
    match claimed {
        Some(f) if f.looks_like(bytes) => Ok(f),
        Some(f) => Err(match Format::sniff(bytes) {
            Some(other) => format!("not a {f} file (the content looks like {other})"),
            None => format!("not a {f} file"),
        }),
        None => Format::sniff(bytes)
            .ok_or_else(|| "unknown format: name it with an extension or --from".to_string()),
    }
}

fn read_bytes(
    bytes: &[u8],
    claimed: Option<Format>,
    file: &Arc<str>,
    names: &wthor::Names,
) -> FileRead {
    let format = match choose(bytes, claimed) {
        Ok(f) => f,
        Err(e) => return FileRead::failed(file.clone(), e),
    };
    let check = |p: Parsed| match p {
        Ok(g) => replay::check(g, file),
        Err(e) => Checked::Bad(e),
    };
    let games: Result<Vec<Checked>, String> = match format {
        Format::Gam => Ok(line_games(bytes, 1, gam::parse_line, &check)),
        Format::Moves => Ok(line_games(bytes, 1, moves::parse_line, &check)),
        Format::Csv => read_csv(bytes, &check),
        Format::Pgn => Ok(pgn::blocks(bytes)
            .par_iter()
            .map(|(no, block)| check(pgn::parse_block(block, *no)))
            .collect()),
        Format::Ggf => Ok(ggf::parse_file(bytes).into_par_iter().map(check).collect()),
        Format::Wthor => read_wthor(bytes, names, &check),
    };
    match games {
        Ok(games) => FileRead {
            file: file.clone(),
            format: Some(format),
            games,
            failure: None,
        },
        Err(e) => FileRead {
            format: Some(format),
            ..FileRead::failed(file.clone(), e)
        },
    }
}

fn line_games<P, C>(bytes: &[u8], first_no: u64, parse: P, check: &C) -> Vec<Checked>
where
    P: Fn(&[u8], u64) -> Option<Parsed> + Sync,
    C: Fn(Parsed) -> Checked + Sync,
{
    let pieces = lines::chunks(bytes, CHUNK, first_no);
    let parts: Vec<Vec<Checked>> = pieces
        .par_iter()
        .map(|(no, chunk)| {
            lines::Lines::new(chunk, *no)
                .filter_map(|(n, l)| parse(l, n))
                .map(check)
                .collect()
        })
        .collect();
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for p in parts {
        out.extend(p);
    }
    out
}

fn read_csv<C>(bytes: &[u8], check: &C) -> Result<Vec<Checked>, String>
where
    C: Fn(Parsed) -> Checked + Sync,
{
    let mut it = lines::Lines::new(bytes, 1);
    let header = it.find(|(_, l)| {
        let t = l.trim_ascii();
        !t.is_empty() && !lines::is_comment(t)
    });
    let Some((no, header)) = header else {
        return Ok(Vec::new());
    };
    let layout = csv::layout(header)?;
    // The rest of the file after the header line.
    let start = header.as_ptr() as usize - bytes.as_ptr() as usize + header.len();
    let mut rest = &bytes[start..];
    if rest.starts_with(b"\r\n") {
        rest = &rest[2..];
    } else if rest.starts_with(b"\n") || rest.starts_with(b"\r") {
        rest = &rest[1..];
    }
    Ok(line_games(
        rest,
        no + 1,
        |l, n| csv::parse_row(&layout, l, n),
        check,
    ))
}

fn read_wthor<C>(bytes: &[u8], names: &wthor::Names, check: &C) -> Result<Vec<Checked>, String>
where
    C: Fn(Parsed) -> Checked + Sync,
{
    let header = wthor::header(bytes)?;
    let body = &bytes[wthor::HEADER..];
    let mut games: Vec<Checked> = body
        .par_chunks(wthor::RECORD)
        .enumerate()
        .map(|(i, rec)| check(wthor::parse_record(rec, i as u64 + 1, names, header.year)))
        .collect();
    let whole = body.len() / wthor::RECORD;
    let partial = usize::from(!body.len().is_multiple_of(wthor::RECORD));
    // Records the header promises but the file does not hold at all: one report for all of
    // them (a corrupt count could promise billions).
    let first_missing = whole + partial;
    if (header.games as usize) > first_missing {
        games.push(Checked::Bad(
            RawIssue::syntax(Location::Record(first_missing as u64 + 1), {
                let missing = header.games as usize - first_missing;
                format!(
                    "file ends before this record: the header says {} games, {missing} {} \
                         missing",
                    header.games,
                    if missing == 1 { "is" } else { "are" }
                )
            })
            .with_reason(SkipReason::Truncated),
        ));
    }
    Ok(games)
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

fn merge(files: Vec<FileRead>, opts: &IngestOptions) -> Result<Ingest, IngestError> {
    let mut out = Ingest::default();
    let mut seen: ahash::AHashSet<(Position, Vec<Move>)> = ahash::AHashSet::new();
    out.games
        .reserve(files.iter().map(|f| f.games.len()).sum::<usize>());
    for f in files {
        let mut fs = FileSummary {
            path: f.file.to_string(),
            format: f.format,
            read: 0,
            accepted: 0,
            skipped: Default::default(),
            failure: f.failure.clone(),
        };
        if let Some(message) = f.failure {
            if opts.strict {
                return Err(IngestError::File {
                    path: f.file.to_string(),
                    message,
                });
            }
        }
        for c in f.games {
            fs.read += 1;
            match c {
                Checked::Game(g, warning) => {
                    if opts.dedupe && !seen.insert(dedupe_key(&g)) {
                        out.summary.duplicates += 1;
                        continue;
                    }
                    if let Some((reason, detail)) = warning {
                        let issue = Issue {
                            source: g.source.clone(),
                            ply: None,
                            mv: None,
                            detail,
                        };
                        out.summary.warnings.entry(reason).or_default().add(issue);
                    }
                    if !g.complete {
                        out.summary.incomplete += 1;
                    }
                    fs.accepted += 1;
                    out.games.push(g);
                }
                Checked::Bad(e) => {
                    let (reason, issue) = e.into_issue(&f.file);
                    if opts.strict {
                        return Err(IngestError::BadGame { reason, issue });
                    }
                    *fs.skipped.entry(reason).or_default() += 1;
                    out.summary.skipped += 1;
                    out.summary
                        .skipped_by_reason
                        .entry(reason)
                        .or_default()
                        .add(issue);
                }
            }
        }
        out.summary.read += fs.read;
        out.summary.accepted += fs.accepted;
        out.summary.files.push(fs);
    }
    Ok(out)
}
