//! How `analyze` shows an evaluated book's values and its search's result (explore and top
//! render theirs from their reports): a value as table text, with how far to trust it.

use othbook::board::Color;
use othbook::book::trust::{error_text, percent_text, Trust};
use othbook::book::Score;
use othbook::engine::score_text;

pub use othbook::report::PositionValues;

/// `+1.25`, or `+4` for an exact value.
pub fn value_text(s: Score) -> String {
    score_text(i32::from(s.score), s.kind.into())
}

/// `±0.9, black wins 46%`: the expected error of `trust`'s value (`wld` for a WLD value, whose
/// sign is sure) and the chance to win of `side`, whose value it is.
pub fn trust_text(trust: &Trust, side: Color) -> String {
    let chance = format!("{side} wins {}", percent_text(trust.chances.win));
    let error = error_text(trust.error).unwrap_or_else(|| "wld".into());
    format!("{error}, {chance}")
}
