//! Other programs' opening books: Edax's `book.dat` read into an othbook book and written
//! from one (docs/interop.md). Book-level only: values come from the files or from the
//! book, nothing is searched here.

mod convert;
pub mod edax;

pub use convert::{discs, solved_empties, MAX_LEVEL};

use crate::book::data::BookData;
use std::path::Path;

/// Why a foreign book cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum InteropError {
    /// The file cannot be read or written.
    #[error("{path}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a book of a format and version this build reads, or is damaged.
    #[error("{path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// The foreign formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Edax's binary `book.dat`.
    Edax,
}

impl Format {
    /// The format of a file from its first bytes.
    #[must_use]
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        edax::is_edax(bytes).then_some(Format::Edax)
    }
}

/// What an import found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Positions read.
    pub positions: u64,
    /// Links read (moves into the book; symmetric ones become one move of the book).
    pub links: u64,
    /// Positions with a value after negamaxing again.
    pub valued: u64,
    /// Positions whose value, negamaxed again, differs from the file's.
    pub value_differences: u64,
    /// Leaves dropped because their move leads into the book.
    pub stale: u64,
    /// Moves whose position the file does not hold.
    pub dangling_links: u64,
    /// Boards stored other than in their canonical (smallest) orientation.
    pub not_canonical: u64,
}

/// What an export wrote and left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportReport {
    /// Positions written.
    pub positions: u64,
    /// Positions left out: no value.
    pub without_value: u64,
    /// Positions whose leaf depth was above [`MAX_LEVEL`] and written as that level.
    pub capped: u64,
}

fn invalid(path: &Path, reason: impl Into<String>) -> InteropError {
    InteropError::Invalid {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// Reads a foreign book from its bytes; `path` names it in errors and in the book's sources.
pub fn import_bytes(bytes: &[u8], path: &Path) -> Result<(BookData, ImportReport), InteropError> {
    match Format::detect(bytes) {
        Some(Format::Edax) => {
            let book = edax::parse(bytes).map_err(|r| invalid(path, r))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            convert::to_data(&book, &name).map_err(|r| invalid(path, r))
        }
        None if bytes.is_empty() => Err(invalid(path, "the file is empty")),
        None => Err(invalid(
            path,
            format!(
                "not a book format othbook imports (Edax book.dat); it starts with {}",
                bytes
                    .iter()
                    .take(8)
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            ),
        )),
    }
}

/// Reads a foreign book file.
pub fn import_file(path: &Path) -> Result<(BookData, ImportReport), InteropError> {
    let bytes = std::fs::read(path).map_err(|source| InteropError::Io {
        path: path.display().to_string(),
        source,
    })?;
    import_bytes(&bytes, path)
}

/// The Edax `book.dat` of a book with values: its bytes and what was left out.
#[must_use]
pub fn export_edax(data: &BookData) -> (Vec<u8>, ExportReport) {
    let (book, report) = convert::from_data(data);
    (edax::encode(&book), report)
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
