//! Why a weight file cannot be used: its own file, so that the evaluation's constructor and
//! the file reader both import it downward.

use std::path::PathBuf;

/// Why a weight file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    /// The file does not start with the magic bytes.
    #[error("not an othbook evaluation file (it does not start with \"OTHBEVAL\")")]
    BadMagic,
    /// Written by another version of the format.
    #[error("evaluation file format version {found} is not supported (this build reads version {expected})")]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// Shorter than its header says.
    #[error("evaluation file is truncated: {expected} bytes expected, {found} present")]
    Truncated {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Longer than its header says.
    #[error("evaluation file has {extra} unexpected bytes after its end")]
    Trailing {
        /// Bytes after the checksum.
        extra: usize,
    },
    /// The checksum does not match the contents.
    #[error(
        "evaluation file is corrupted: checksum {stored:016x} stored, {computed:016x} computed"
    )]
    Checksum {
        /// Checksum in the file.
        stored: u64,
        /// Checksum of the contents.
        computed: u64,
    },
    /// Patterns other than this build's.
    #[error("evaluation file was trained for other patterns than this build's ({0})")]
    Patterns(String),
    /// A bad phase table or weight count.
    #[error("evaluation file has a bad phase layout: {0}")]
    Phases(String),
    /// The file could not be read or written.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file could not be read whole (a device, or larger than any weight file).
    #[error(transparent)]
    Read(#[from] crate::bounded_read::ReadError),
    /// The contents of a named file are bad.
    #[error("{}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<EvalFileError>,
    },
}
