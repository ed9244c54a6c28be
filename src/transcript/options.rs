//! [`IngestOptions`]: how to read the input.

use crate::transcript::Format;

/// How to read the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IngestOptions {
    /// Read every file as this format instead of going by extension and content.
    pub format: Option<Format>,
    /// Stop at the first bad game or unreadable file ([`IngestError`](crate::transcript::IngestError)).
    pub strict: bool,
    /// Keep one copy of identical games (same start, same line up to the 4 symmetries of the
    /// start position).
    pub dedupe: bool,
}
