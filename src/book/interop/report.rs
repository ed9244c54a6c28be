//! What an import found ([`ImportReport`]) and what an export wrote ([`ExportReport`]).

use super::fields::BadLevels;

/// What an import found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Positions read.
    pub positions: u64,
    /// Links read (moves into the book; symmetric ones become one move of the book).
    pub links: u64,
    /// Positions with a value after negamaxing again.
    pub valued: u64,
    /// Positions whose file holds a value to compare (none for Edax's text form); the book
    /// keeps these values as the file gives them.
    pub compared: u64,
    /// Positions whose file holds no value to compare (Edax's "no value", Egaroucid's
    /// undefined one, a value outside −64 to 64): their values are negamaxed from the file.
    pub uncompared: u64,
    /// Positions whose value would change if negamaxed again (`book fix`).
    pub value_differences: u64,
    /// Leaves whose move leads into the book (kept; `book fix` drops them).
    pub stale: u64,
    /// Levels outside 0 to 60 (header or records), read as level 0.
    pub bad_levels: BadLevels,
    /// Link scores outside −64 to 64 (not read: a link's score is −(its child's value)).
    pub bad_link_scores: u64,
    /// Moves whose position the file does not hold.
    pub dangling_links: u64,
    /// Boards of an Edax book stored other than in their canonical (smallest) orientation.
    pub not_canonical: u64,
}

/// What an export wrote and left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportReport {
    /// Positions written.
    pub positions: u64,
    /// Positions left out: no value.
    pub without_value: u64,
    /// Positions whose leaf depth was above [`MAX_LEVEL`](super::MAX_LEVEL) and written as that level.
    pub capped: u64,
}
