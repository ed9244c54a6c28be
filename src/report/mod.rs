//! Typed reports of the book queries (`explore`, `top`, `info`, `games stats`, `openings`):
//! what each command answers, built from the library and serialised with serde, so the CLI's
//! tables, TSV and JSON and the web API all render one struct.
//!
//! Layer: just above `engine` (explore scores moves with a search), `book`, `openings` and
//! `transcript`; nothing here imports `learn`, `play`, `protocol` or `cli`, so a server in
//! `protocol` serves these same structs. The schemas are documented in `docs/json.md`.
//!
//! Numbers are as the JSON carries them: disc differences, shares and values rounded to two
//! decimals, colours as `black`/`white`, moves as `f5`, lines as `f5d6c3`.

pub mod explore;
mod fields;
pub mod games;
pub mod games_list;
pub mod history;
pub mod info;
pub mod loss;
pub mod openings;
pub mod probe;
pub mod query;
pub mod ratings;
mod serde_text;
pub mod top;

pub use explore::{EvalHeader, ExploreReport, MoveRow, MoveScores, PositionValues};
pub use fields::{round2, OpeningRef, Results, TrustOf, ValueFields, ValueKindName};
pub use games::{FormatStats, GameStatsReport, NamesReport};
pub use info::InfoReport;
pub use loss::{LossReport, MoveLoss};
pub use openings::OpeningsReport;
pub use probe::ProbeReport;
pub use serde_text::{color_text, line_text, move_text, moves_list, obf_text};
pub(crate) use serde_text::{nullable, present};
pub use top::{TopLine, TopReport};
