//! Temporary files of a build or merge: written buffered, read back whole, removed when
//! dropped, and their errors named as spill errors with their folder and contents.

use crate::book::BookError;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Bytes of buffer for each temporary file written or read back: large sequential reads
/// and writes, so that a disk (or a page cache under pressure) sees few, long requests.
pub(super) const IO_BUFFER: usize = 1 << 20;

/// A temporary file being written, errors named by its folder and contents.
pub(crate) struct TempFile {
    pub(super) path: PathBuf,
    pub(super) what: &'static str,
    out: Option<BufWriter<File>>,
}

impl TempFile {
    pub(super) fn create(
        folder: &Path,
        name: &str,
        what: &'static str,
    ) -> Result<TempFile, BookError> {
        let path = folder.join(name);
        let file = File::create(&path).map_err(|e| spill_error(&path, what, e))?;
        Ok(TempFile {
            path,
            what,
            out: Some(BufWriter::with_capacity(IO_BUFFER, file)),
        })
    }

    pub(super) fn put(&mut self, bytes: &[u8]) -> Result<(), BookError> {
        if let Some(out) = &mut self.out {
            out.write_all(bytes)
                .map_err(|e| spill_error(&self.path, self.what, e))?;
        }
        Ok(())
    }

    /// The file, complete, opened for reading.
    pub(super) fn reopen(&mut self) -> Result<File, BookError> {
        if let Some(out) = self.out.take() {
            out.into_inner()
                .map_err(|e| spill_error(&self.path, self.what, e.into_error()))?;
        }
        File::open(&self.path).map_err(|e| spill_error(&self.path, self.what, e))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

pub(super) fn spill_error(path: &Path, what: &str, source: std::io::Error) -> BookError {
    BookError::Spill {
        folder: path
            .parent()
            .map_or_else(String::new, |p| p.display().to_string()),
        what: format!("writing {what} ({})", path.display()),
        source,
    }
}

/// Maps an error of our own making to an I/O error for the file writer, kept whole inside
/// it so that [`BookError::Stopped`] can be told apart again.
pub(super) fn to_io(e: BookError) -> std::io::Error {
    match e {
        BookError::Io { source, .. } => source,
        e => std::io::Error::other(e),
    }
}
