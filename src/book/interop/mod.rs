//! Other programs' opening books: Edax's `book.dat` and Egaroucid's `.egbk3`/`.egbk2` read
//! into an othbook book and written from one (docs/interop.md). Book-level only: values come
//! from the files or from the book, nothing is searched here.

mod convert;
pub mod edax;
pub mod edax_text;
pub mod egaroucid;
pub mod fields;
mod report;

pub use convert::{discs, solved_empties};
pub use fields::{BadLevels, MAX_LEVEL};
pub use report::{ExportReport, ImportReport};

use crate::book::data::BookData;
use std::path::Path;

/// Why a foreign book cannot be read or written: the book errors' `Io` (the file cannot be
/// read or written) and `Invalid` (not a format and version this build reads, or damaged),
/// naming the foreign file.
pub type InteropError = crate::book::BookError;

/// The foreign formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Edax's binary `book.dat`.
    Edax,
    /// Egaroucid's `.egbk3` (and the older `.egbk2`, read only).
    Egaroucid,
    /// Edax's text book (`book export` lines).
    EdaxText,
}

impl Format {
    /// The format of a file from its first bytes.
    #[must_use]
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        if edax::is_edax(bytes) {
            Some(Format::Edax)
        } else if egaroucid::is_egaroucid(bytes) {
            Some(Format::Egaroucid)
        } else if edax_text::is_edax_text(bytes) {
            Some(Format::EdaxText)
        } else {
            None
        }
    }
}

fn invalid(path: &Path, reason: impl Into<String>) -> InteropError {
    InteropError::Invalid {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// Reads a foreign book from its bytes; `path` names it in errors and in the book's sources.
pub fn import_bytes(bytes: &[u8], path: &Path) -> Result<(BookData, ImportReport), InteropError> {
    let (book, format) = parse(bytes, path)?;
    into_book(book, format, path)
}

/// The foreign book in `bytes`, in the Edax model, and its format.
fn parse(bytes: &[u8], path: &Path) -> Result<(edax::EdaxBook, Option<Format>), InteropError> {
    let format = Format::detect(bytes);
    let book = match format {
        Some(Format::Edax) => edax::parse(bytes),
        Some(Format::Egaroucid) => egaroucid::parse(bytes),
        Some(Format::EdaxText) => edax_text::parse(bytes),
        None if bytes.is_empty() => Err("the file is empty".into()),
        None => Err(format!(
            "not a book format othbook imports (Edax book.dat or text, Egaroucid .egbk3 or .egbk2); it \
                 starts with {}",
            bytes
                .iter()
                .take(8)
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        )),
    }
    .map_err(|r| invalid(path, r))?;
    Ok((book, format))
}

/// The othbook book of a parsed foreign book (consumed: its records go as the book grows).
fn into_book(
    book: edax::EdaxBook,
    format: Option<Format>,
    path: &Path,
) -> Result<(BookData, ImportReport), InteropError> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let (data, mut report) = convert::to_data(book, &name).map_err(|r| invalid(path, r))?;
    if format != Some(Format::Edax) {
        // Egaroucid keeps the smallest orientation in its own bit order, not Edax's; Edax's
        // text export writes boards as they are.
        report.not_canonical = 0;
    }
    Ok((data, report))
}

/// Reads a foreign book file.
///
/// `-` is standard input. A device (`/dev/zero`) is refused, and no input is read past
/// [`IMPORT_LIMIT`], so an endless stream ends in an error rather than in exhausted memory.
pub fn import_file(path: &Path) -> Result<(BookData, ImportReport), InteropError> {
    let invalid_read = |reason: String| InteropError::Invalid {
        path: path.display().to_string(),
        reason,
    };
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::io::stdin().lock(), IMPORT_LIMIT + 1),
            &mut bytes,
        )
        .map_err(|source| InteropError::Io {
            path: path.display().to_string(),
            source,
        })?;
        if bytes.len() as u64 > IMPORT_LIMIT {
            return Err(invalid_read(format!(
                "larger than {IMPORT_LIMIT} bytes, the most an import may have"
            )));
        }
        bytes
    } else {
        if is_device(path) {
            return Err(invalid_read("a device, not a book file".into()));
        }
        crate::bounded_read::read_capped(path, IMPORT_LIMIT).map_err(|e| match e {
            crate::bounded_read::ReadError::Io { source, .. } => InteropError::Io {
                path: path.display().to_string(),
                source,
            },
            other => invalid_read(
                other
                    .to_string()
                    .trim_start_matches(&format!("{}: ", path.display()))
                    .to_string(),
            ),
        })?
    };
    // The bytes go once parsed: an import never holds the file and the book at once.
    let (book, format) = parse(&bytes, path)?;
    drop(bytes);
    into_book(book, format, path)
}

/// The most bytes an imported book may have (Egaroucid's 25-byte records: 170 million
/// positions).
pub const IMPORT_LIMIT: u64 = 4 << 30;

/// Whether `path` is a character or block device (never a book, and possibly endless).
fn is_device(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| {
            let t = m.file_type();
            t.is_char_device() || t.is_block_device()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The Edax `book.dat` of a book with values: its bytes and what was left out.
#[must_use]
pub fn export_edax(data: &BookData) -> (Vec<u8>, ExportReport) {
    let (book, report) = convert::from_data(data);
    (edax::encode(&book), report)
}

/// The Egaroucid `.egbk3` of a book with values (the same positions, values and leaves as
/// [`export_edax`]; the format has no links).
#[must_use]
pub fn export_egaroucid(data: &BookData) -> (Vec<u8>, ExportReport) {
    let (book, report) = convert::from_data(data);
    (egaroucid::encode(&book), report)
}

/// Edax's text export of a book with values (`book export` lines; Edax's `book import`
/// reads them and relinks).
#[must_use]
pub fn export_edax_text(data: &BookData) -> (Vec<u8>, ExportReport) {
    let (book, report) = convert::from_data(data);
    (edax::encode_text(&book).into_bytes(), report)
}

/// Writes `bytes` to `path` atomically: on failure nothing is left at `path`.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), InteropError> {
    crate::atomic_file::replace(path, |w| std::io::Write::write_all(w, bytes)).map_err(|source| {
        InteropError::Io {
            path: path.display().to_string(),
            source,
        }
    })
}
