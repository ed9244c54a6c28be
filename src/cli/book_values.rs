//! How `analyze` shows an evaluated book's values (explore and top render theirs from their
//! reports): a value as table text.

use othbook::book::Score;
use othbook::engine::score_text;

pub use othbook::report::PositionValues;

/// `+1.25`, or `+4` for an exact value.
pub fn value_text(s: Score) -> String {
    score_text(i32::from(s.score), s.kind.into())
}
