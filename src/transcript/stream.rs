//! Reading one input block by block: a reader thread unpacks the stream while the blocks
//! before it are parsed in parallel. Each block is cut after its last whole record (line,
//! PGN game, GGF game, WTHOR record) and the rest carried into the next, and a block's records
//! are checked and handed on a batch at a time, so memory holds a few blocks and one batch
//! whatever the input's size or how small its records are; line and record numbers run on
//! across blocks.

use super::collect::{Collector, FileState};
use super::format::Format;
use super::lines::{count_line_ends, Lines};
use super::raw::{Parsed, RawIssue};
use super::record::Location;
use super::replay::{self, Checked};
use super::summary::IngestError;
use super::{csv, gam, ggf, input, moves, pgn, wthor};
use rayon::prelude::*;
use std::path::Path;
use std::sync::mpsc;
use std::sync::Arc;

/// Bytes read from the input per step.
pub(crate) const BLOCK: usize = 2 << 20;

/// The longest record carried from block to block; a longer one is skipped.
pub(crate) const MAX_RECORD: usize = 64 << 20;

/// Where the next block starts in the input, and what earlier blocks established.
struct Cursor {
    format: Format,
    /// Line number of the first byte of the carried buffer.
    line: u64,
    /// WTHOR: the header, and records passed so far.
    wthor: Option<wthor::Header>,
    records: u64,
    /// WTHOR: bytes of a record cut short at the end.
    tail: usize,
    /// CSV: the column layout, once the header line was read.
    csv: Option<csv::Layout>,
    /// Skipping the rest of a record longer than [`MAX_RECORD`].
    skipping: bool,
}

/// What the caller knows of one input besides its path.
pub(crate) struct Source<'a> {
    pub path: &'a Path,
    pub forced: Option<Format>,
    /// WTHOR player and tournament names of the file's folder.
    pub names: &'a dyn Fn(&Path) -> Arc<wthor::Names>,
    pub progress: Arc<dyn Fn(u64) + Send + Sync>,
}

/// Reads every game of one input into `col`.
pub(crate) fn read_source<E: From<IngestError>>(
    src: &Source<'_>,
    col: &mut Collector<'_, E>,
) -> Result<(), E> {
    let file: Arc<str> = Arc::from(input::display_name(src.path));
    let opened = match input::open(src.path, src.progress.clone()) {
        Ok(o) => o,
        Err(e) => return col.finish(FileState::new(file), Some(e)),
    };
    let claimed = src.forced.or_else(|| Format::from_path(src.path));
    // A stream has no folder to find WTHOR names in.
    let names = || {
        if opened.regular {
            (src.names)(src.path.parent().unwrap_or(Path::new("")))
        } else {
            Arc::new(wthor::Names::default())
        }
    };
    run(file, opened.reader, claimed, &names, col)
}

/// Reads every game of `reader`, named `name` in messages, into `col`.
pub(crate) fn read_reader<E: From<IngestError>>(
    name: &str,
    reader: Box<dyn std::io::Read + Send>,
    claimed: Option<Format>,
    col: &mut Collector<'_, E>,
) -> Result<(), E> {
    let names = || Arc::new(wthor::Names::default());
    run(Arc::from(name), reader, claimed, &names, col)
}

fn run<E: From<IngestError>>(
    file: Arc<str>,
    mut reader: Box<dyn std::io::Read + Send>,
    claimed: Option<Format>,
    names: &dyn Fn() -> Arc<wthor::Names>,
    col: &mut Collector<'_, E>,
) -> Result<(), E> {
    let mut state = FileState::new(file);
    let (tx, rx) = mpsc::sync_channel::<Result<Vec<u8>, String>>(2);
    std::thread::scope(|scope| {
        scope.spawn(move || pump(&mut *reader, &tx));
        let failure = consume(claimed, names, &rx, &mut state, col);
        // Dropping the receiver stops the reader at its next block.
        drop(rx);
        match failure {
            Ok(failure) => col.finish(state, failure),
            Err(e) => Err(e),
        }
    })
}

/// Sends the stream's bytes in blocks of [`BLOCK`] until its end or an error.
fn pump(reader: &mut dyn std::io::Read, tx: &mpsc::SyncSender<Result<Vec<u8>, String>>) {
    loop {
        let mut block = vec![0u8; BLOCK];
        let mut filled = 0;
        while filled < BLOCK {
            match reader.read(&mut block[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = tx.send(Err(format!("cannot read: {e}")));
                    return;
                }
            }
        }
        if filled == 0 {
            return;
        }
        block.truncate(filled);
        if tx.send(Ok(block)).is_err() {
            return;
        }
    }
}

/// Parses blocks as they arrive; returns why the file failed, if it did.
fn consume<E: From<IngestError>>(
    claimed: Option<Format>,
    names_of: &dyn Fn() -> Arc<wthor::Names>,
    rx: &mpsc::Receiver<Result<Vec<u8>, String>>,
    state: &mut FileState,
    col: &mut Collector<'_, E>,
) -> Result<Option<String>, E> {
    let mut buf: Vec<u8> = Vec::new();
    let mut cursor: Option<Cursor> = None;
    let mut names = Arc::new(wthor::Names::default());
    loop {
        let eof = match rx.recv() {
            Ok(Ok(block)) => {
                buf.extend_from_slice(&block);
                false
            }
            Ok(Err(e)) => return Ok(Some(e)),
            Err(_) => true,
        };
        if cursor.is_none() {
            if !eof && buf.len() < BLOCK {
                continue;
            }
            if buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
                buf.drain(..3);
            }
            let format = match super::choose(&buf, claimed) {
                Ok(f) => f,
                Err(e) => return Ok(Some(e)),
            };
            state.format = Some(format);
            let mut c = Cursor {
                format,
                line: 1,
                wthor: None,
                records: 0,
                tail: 0,
                csv: None,
                skipping: false,
            };
            if format == Format::Wthor {
                match wthor::header(&buf) {
                    Ok(h) => c.wthor = Some(h),
                    Err(e) => return Ok(Some(e)),
                }
                buf.drain(..wthor::HEADER);
                names = names_of();
            }
            cursor = Some(c);
        }
        let Some(c) = cursor.as_mut() else {
            continue;
        };
        if c.skipping {
            match next_start(c.format, &buf) {
                Some(at) => {
                    c.line += count_line_ends(&buf[..at]);
                    buf.drain(..at);
                    c.skipping = false;
                }
                None => {
                    c.line += count_line_ends(&buf);
                    buf.clear();
                    if eof {
                        break;
                    }
                    continue;
                }
            }
        }
        let cut = if eof { buf.len() } else { last_cut(c, &buf) };
        if cut == 0 && buf.len() > MAX_RECORD {
            let issue = RawIssue::syntax(
                location(c),
                format!("record longer than {} MiB: skipped", MAX_RECORD >> 20),
            );
            col.add(state, vec![Checked::Bad(issue)])?;
            c.line += count_line_ends(&buf);
            buf.clear();
            c.skipping = true;
            continue;
        }
        if cut > 0 {
            if let Err(e) = parse(c, &buf[..cut], state, &names, col)? {
                return Ok(Some(e));
            }
            if c.format != Format::Wthor {
                c.line += count_line_ends(&buf[..cut]);
            }
            buf.drain(..cut);
        }
        if eof {
            break;
        }
    }
    Ok(cursor.and_then(|c| wthor_shortfall(&c)))
}

fn location(c: &Cursor) -> Location {
    if c.format == Format::Wthor {
        Location::Record(c.records + 1)
    } else {
        Location::Line(c.line)
    }
}

/// The end of the last whole record in `buf` (0: none yet).
fn last_cut(c: &Cursor, buf: &[u8]) -> usize {
    match c.format {
        Format::Wthor => buf.len() / wthor::RECORD * wthor::RECORD,
        Format::Gam | Format::Moves | Format::Csv => last_line_end(buf),
        Format::Pgn => pgn::blocks(buf)
            .last()
            .map_or(0, |(_, b)| b.as_ptr() as usize - buf.as_ptr() as usize),
        Format::Ggf => rfind(buf, b"(;").unwrap_or(0),
    }
}

/// Where the next record starts after the beginning of `buf` (skipping an overlong one).
fn next_start(format: Format, buf: &[u8]) -> Option<usize> {
    match format {
        Format::Wthor => Some(0),
        Format::Gam | Format::Moves | Format::Csv => {
            buf.iter().position(|&b| b == b'\n').map(|i| i + 1)
        }
        Format::Pgn => pgn::blocks(buf)
            .get(1)
            .map(|(_, b)| b.as_ptr() as usize - buf.as_ptr() as usize),
        Format::Ggf => buf.windows(2).position(|w| w == b"(;"),
    }
}

/// Just after the last line end; a final CR is kept back, as its LF may follow.
fn last_line_end(buf: &[u8]) -> usize {
    match buf.iter().rposition(|&b| b == b'\n' || b == b'\r') {
        Some(i) if buf[i] == b'\r' && i + 1 == buf.len() => last_line_end(&buf[..i]),
        Some(i) => i + 1,
        None => 0,
    }
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// Records checked and handed to the collector at once. A block of tiny records (a run of
/// GGF openers, a bad character per line) would otherwise hold a parsed record and its report
/// for every one of them at the same time: hundreds of bytes per byte of input.
pub(crate) const BATCH: usize = 4096;

/// Checks `records` in parallel, [`BATCH`] at a time, and hands each batch to `col`.
fn add_batched<T: Send, E: From<IngestError>>(
    records: impl Iterator<Item = T>,
    check: impl Fn(T) -> Option<Checked> + Sync + Send,
    state: &mut FileState,
    col: &mut Collector<'_, E>,
) -> Result<(), E> {
    let mut records = records.peekable();
    let mut batch = Vec::with_capacity(BATCH);
    while records.peek().is_some() {
        batch.extend(records.by_ref().take(BATCH));
        let checked: Vec<Checked> = batch.par_drain(..).filter_map(&check).collect();
        col.add(state, checked)?;
    }
    Ok(())
}

/// The CSV header, read from the first block that holds one: the layout, and the rows after
/// it with the number of their first line (`None`: no header yet).
fn csv_header(c: &mut Cursor, bytes: &[u8]) -> Result<Option<(usize, u64)>, String> {
    let header = Lines::new(bytes, c.line).find(|(_, l)| {
        let t = l.trim_ascii();
        !t.is_empty() && !super::lines::is_comment(t)
    });
    let Some((no, header)) = header else {
        return Ok(None);
    };
    c.csv = Some(csv::layout(header)?);
    let end = header.as_ptr() as usize - bytes.as_ptr() as usize + header.len();
    let skip = match &bytes[end..] {
        [b'\r', b'\n', ..] => 2,
        [b'\n' | b'\r', ..] => 1,
        _ => 0,
    };
    Ok(Some((end + skip, no + 1)))
}

/// Parses whole records and hands them to `col` a batch at a time; line numbers and record
/// numbers continue from the cursor. The error is why the file cannot be read on.
fn parse<E: From<IngestError>>(
    c: &mut Cursor,
    bytes: &[u8],
    state: &mut FileState,
    names: &wthor::Names,
    col: &mut Collector<'_, E>,
) -> Result<Result<(), String>, E> {
    let file = state.file.clone();
    let check = |p: Parsed| match p {
        Ok(g) => replay::check(g, &file),
        Err(e) => Checked::Bad(e),
    };
    let first = c.line;
    match c.format {
        Format::Gam | Format::Moves => {
            let line: fn(&[u8], u64) -> Option<Parsed> = if c.format == Format::Gam {
                gam::parse_line
            } else {
                moves::parse_line
            };
            let read = |(n, l): (u64, &[u8])| line(l, n).map(check);
            add_batched(Lines::new(bytes, first), read, state, col)?;
        }
        Format::Csv => {
            let (mut rest, mut first) = (bytes, first);
            if c.csv.is_none() {
                match csv_header(c, bytes) {
                    Ok(Some((at, no))) => (rest, first) = (&bytes[at..], no),
                    Ok(None) => return Ok(Ok(())),
                    Err(e) => return Ok(Err(e)),
                }
            }
            let layout = c.csv.clone().unwrap_or_default();
            let rows = Lines::new(rest, first);
            let read = |(n, l): (u64, &[u8])| csv::parse_row(&layout, l, n).map(check);
            add_batched(rows, read, state, col)?;
        }
        Format::Pgn => {
            let games = pgn::blocks(bytes).into_iter();
            let read =
                |(no, block): (u64, &[u8])| Some(check(pgn::parse_block(block, no + first - 1)));
            add_batched(games, read, state, col)?;
        }
        Format::Ggf => {
            let read = |p| Some(check(shift_lines(p, first - 1)));
            add_batched(ggf::games(bytes), read, state, col)?;
        }
        Format::Wthor => {
            let header = c.wthor.unwrap_or_default();
            // Records past the header's count are not games of this file.
            let promised = u64::from(header.games).saturating_sub(c.records);
            let usable = (bytes.len() / wthor::RECORD).min(promised as usize);
            let base = c.records;
            c.records += (bytes.len() / wthor::RECORD) as u64;
            c.tail = bytes.len() % wthor::RECORD;
            let records = bytes[..usable * wthor::RECORD]
                .chunks(wthor::RECORD)
                .enumerate();
            let read = |(i, rec): (usize, &[u8])| {
                let no = base + i as u64 + 1;
                Some(check(wthor::parse_record(rec, no, names, header.year)))
            };
            add_batched(records, read, state, col)?;
        }
    }
    Ok(Ok(()))
}

/// A WTHOR file that holds fewer or more records than its header promises.
fn wthor_shortfall(c: &Cursor) -> Option<String> {
    let h = c.wthor?;
    let promised = u64::from(h.games);
    let piece = if c.tail > 0 {
        format!(" and {} bytes of a cut record", c.tail)
    } else {
        String::new()
    };
    if c.records < promised {
        let missing = promised - c.records;
        Some(format!(
            "truncated: the header promises {promised} games, the file holds {}{piece} \
             ({missing} missing)",
            c.records
        ))
    } else if c.records > promised || c.tail > 0 {
        Some(format!(
            "the header promises {promised} games but the file holds {} records{piece}: \
             not a whole WTHOR file",
            c.records
        ))
    } else {
        None
    }
}

/// A game parsed from the middle of a file as if it began there, moved to its real lines.
fn shift_lines(p: Parsed, by: u64) -> Parsed {
    let shift = |l: Location| match l {
        Location::Line(n) => Location::Line(n + by),
        other => other,
    };
    match p {
        Ok(mut g) => {
            g.location = shift(g.location);
            Ok(g)
        }
        Err(mut e) => {
            e.location = shift(e.location);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::IngestOptions;

    /// Reads `bytes` as `format`; the summary's skipped count and the most records the
    /// collector was handed at once.
    fn read(bytes: Vec<u8>, format: Format) -> (u64, usize) {
        let opts = IngestOptions::default();
        let mut sink = |_: Format, _: Vec<crate::transcript::GameRecord>| Ok(());
        let mut col = Collector::<IngestError>::new(&opts, &mut sink);
        let reader = Box::new(std::io::Cursor::new(bytes));
        read_reader("x", reader, Some(format), &mut col).unwrap();
        (col.summary.skipped, col.most_held)
    }

    #[test]
    fn regression_a_run_of_ggf_openers_held_a_record_for_each() {
        let (skipped, held) = read(b"(;".repeat(1 << 19), Format::Ggf);
        assert_eq!(skipped, 1 << 19);
        assert!(held <= BATCH, "{held} records held at once");
    }

    #[test]
    fn regression_tiny_bad_lines_held_a_record_for_each() {
        let (skipped, held) = read(b"f5z9\n".repeat(1 << 18), Format::Moves);
        assert_eq!(skipped, 1 << 18);
        assert!(held <= BATCH, "moves: {held} records held at once");
    }
}
