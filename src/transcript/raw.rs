//! Games as a reader sees them, before replay: moves with the colour the record claims,
//! the result as written, and the tags.

use super::record::Location;
use super::summary::{Issue, SkipReason};
use crate::board::{Color, Move, Position};

/// One move as recorded; `color` is set when the format says who played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawMove {
    pub mv: Move,
    pub color: Option<Color>,
}

impl RawMove {
    pub(crate) const fn new(mv: Move) -> Self {
        RawMove { mv, color: None }
    }
}

/// A result as the record gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawResult {
    /// Black minus white as the source states it (for `winner_only`, just the sign).
    pub disc_diff: i32,
    /// The text (or bytes, rendered) exactly as the source has it.
    pub raw: String,
    /// The source names only the winner (CSV `winner` columns): the board supplies the margin.
    pub winner_only: bool,
}

/// A game read from a file, not yet replayed.
#[derive(Clone, Debug)]
pub(crate) struct RawGame {
    pub location: Location,
    pub start: Position,
    pub moves: Vec<RawMove>,
    pub result: Option<RawResult>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub event: Option<String>,
    pub place: Option<String>,
    pub date: Option<String>,
    pub year: Option<u16>,
}

impl RawGame {
    pub(crate) fn new(location: Location) -> Self {
        RawGame {
            location,
            start: Position::START,
            moves: Vec::new(),
            result: None,
            black: None,
            white: None,
            event: None,
            place: None,
            date: None,
            year: None,
        }
    }
}

/// A record a reader could not turn into a game, before the file name is attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawIssue {
    pub reason: SkipReason,
    pub location: Location,
    pub ply: Option<usize>,
    pub mv: Option<String>,
    pub detail: String,
}

impl RawIssue {
    pub(crate) fn syntax(location: Location, detail: impl Into<String>) -> Self {
        RawIssue {
            reason: SkipReason::Syntax,
            location,
            ply: None,
            mv: None,
            detail: detail.into(),
        }
    }

    pub(crate) fn with_reason(mut self, reason: SkipReason) -> Self {
        self.reason = reason;
        self
    }

    pub(crate) fn into_issue(self, file: &std::sync::Arc<str>) -> (SkipReason, Issue) {
        (
            self.reason,
            Issue {
                source: super::record::SourceRef {
                    file: file.clone(),
                    location: self.location,
                },
                ply: self.ply,
                mv: self.mv,
                detail: self.detail,
            },
        )
    }
}

/// What a reader yields per record.
pub(crate) type Parsed = Result<RawGame, RawIssue>;

/// The first bytes of `text` for an error message, made printable.
pub(crate) fn snippet(text: &[u8]) -> String {
    let cut = &text[..text.len().min(12)];
    let s: String = String::from_utf8_lossy(cut)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.len() > 12 {
        format!("{s}...")
    } else {
        s
    }
}

/// Text from a source field: UTF-8 when valid, otherwise Latin-1 (old files); trimmed.
pub(crate) fn text_field(bytes: &[u8]) -> Option<String> {
    let s = match std::str::from_utf8(bytes) {
        Ok(s) => s.trim().to_string(),
        Err(_) => bytes
            .iter()
            .map(|&b| b as char)
            .collect::<String>()
            .trim()
            .to_string(),
    };
    (!s.is_empty()).then_some(s)
}

/// The year at the start of a date such as `2003.12.15_12:33` or `2021`.
pub(crate) fn year_of(date: &str) -> Option<u16> {
    let digits: String = date.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() == 4 {
        digits.parse().ok()
    } else {
        None
    }
}
