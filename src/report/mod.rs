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
pub mod games;
pub mod games_list;
pub mod info;
pub mod openings;
pub mod probe;
pub mod query;
pub mod ratings;
pub mod top;

pub use explore::{EvalHeader, ExploreReport, MoveRow, MoveScores, PositionValues};
pub use games::{FormatStats, GameStatsReport, NamesReport};
pub use info::InfoReport;
pub use openings::OpeningsReport;
pub use probe::ProbeReport;
pub use top::{TopLine, TopReport};

use crate::board::{Color, Move};
use crate::book::trust::{error_text, percent_text, Trust};
use crate::book::{ColorStats, Score, ValueKind};
use crate::engine::{score_text, ScoreKind, SCALE};
use serde::{Deserialize, Serialize};

/// `x` rounded to two decimals, with `-0` made `0` (a draw seen from white is not `-0.00`).
#[must_use]
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0 + 0.0
}

/// Results of games from black's point of view: the fields every games row carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Number of games (with or without a result).
    pub games: u64,
    /// Games won by black.
    pub black_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games won by white.
    pub white_wins: u32,
    /// Games without a recorded result.
    pub unknown: u32,
    /// Average final disc difference, black minus white, over games with a result (two
    /// decimals); `null` when no game has a result.
    pub average_diff: Option<f64>,
}

impl From<ColorStats> for Results {
    fn from(c: ColorStats) -> Results {
        Results {
            games: c.games(),
            black_wins: c.black_wins,
            draws: c.draws,
            white_wins: c.white_wins,
            unknown: c.unknown,
            average_diff: c.average_diff().map(round2),
        }
    }
}

impl Results {
    /// Percentages of black wins, draws and white wins over games with a result.
    #[must_use]
    pub fn percentages(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.black_wins) + f64::from(self.draws) + f64::from(self.white_wins);
        (n > 0.0).then(|| {
            (
                100.0 * f64::from(self.black_wins) / n,
                100.0 * f64::from(self.draws) / n,
                100.0 * f64::from(self.white_wins) / n,
            )
        })
    }
}

/// What a book value means, as the JSON names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ValueKindName {
    /// A depth-limited search with the evaluation.
    #[serde(rename = "mid")]
    Midgame,
    /// The final disc difference under perfect play.
    #[serde(rename = "exact")]
    Exact,
    /// Perfect play, only win/draw/loss known.
    #[serde(rename = "wld")]
    Wld,
}

impl From<ValueKind> for ValueKindName {
    fn from(k: ValueKind) -> ValueKindName {
        match k {
            ValueKind::Midgame => ValueKindName::Midgame,
            ValueKind::Exact => ValueKindName::Exact,
            ValueKind::Wld => ValueKindName::Wld,
        }
    }
}

impl ValueKindName {
    /// The word of tables and TSV: `mid`, `exact`, `wld`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            ValueKindName::Midgame => "mid",
            ValueKindName::Exact => "exact",
            ValueKindName::Wld => "wld",
        }
    }

    fn score_kind(self) -> ScoreKind {
        match self {
            ValueKindName::Midgame => ScoreKind::Midgame,
            ValueKindName::Exact => ScoreKind::Exact,
            ValueKindName::Wld => ScoreKind::Wld,
        }
    }
}

/// A book value, black minus white, with how far to trust it: the value fields (all `null`
/// without a value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ValueFields {
    /// In discs, black minus white; whole discs when exact. The key is required, so that a
    /// flattened `Option<ValueFields>` reads back as `None` when the fields are absent.
    #[serde(deserialize_with = "nullable")]
    pub value: Option<f64>,
    /// Search depth in plies (empties for a solve).
    pub value_depth: Option<u8>,
    /// What the value means.
    pub value_kind: Option<ValueKindName>,
    /// Expected error in discs (RMS, see [`crate::book::trust`]): 0 when exact, `null` for a
    /// WLD value (its sign is sure, its size is not) or without a value.
    #[serde(default)]
    pub error: Option<f64>,
    /// The chances of `chances_for` to win, draw and lose (two decimals; they sum to 1 up to
    /// rounding).
    #[serde(default)]
    pub win: Option<f64>,
    /// See `win`.
    #[serde(default)]
    pub draw: Option<f64>,
    /// See `win`.
    #[serde(default)]
    pub loss: Option<f64>,
    /// Whose chances `win`, `draw` and `loss` are: the side to move where the value is
    /// the choice of a move, black for a line's value.
    #[serde(default, with = "color_text::option")]
    pub chances_for: Option<Color>,
}

/// What a value's trust is computed from besides the score.
#[derive(Clone, Copy, Debug)]
pub struct TrustOf<'a> {
    /// Empties of the position the value is of.
    pub empties: u32,
    /// How the book was evaluated.
    pub info: &'a crate::book::EvalInfo,
}

impl ValueFields {
    /// The fields of `score`, a value for `side` of a position described by `trust`, as black
    /// minus white, with `side`'s chances.
    #[must_use]
    pub fn of(score: Option<Score>, side: Color, trust: TrustOf<'_>) -> ValueFields {
        let Some(mine) = score else {
            return ValueFields::default();
        };
        let t = Trust::of_book_value(mine, trust.info, trust.empties);
        let s = match side {
            Color::Black => mine,
            Color::White => mine.negated(),
        };
        ValueFields {
            value: Some(round2(s.discs())),
            value_depth: Some(s.depth),
            value_kind: Some(s.kind.into()),
            error: t.error.map(|e| round2(e.max(0.0))),
            win: Some(round2(t.chances.win)),
            draw: Some(round2(t.chances.draw)),
            loss: Some(round2(t.chances.loss)),
            chances_for: Some(side),
        }
    }

    /// `+1.25`, or `+4` for a final disc difference; `None` without a value.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        let (v, k) = (self.value?, self.value_kind?);
        Some(score_text(hundredths(v), k.score_kind()))
    }

    /// The value with its error for people: `-0.19 ±0.9`, `+4 ±0` when exact, `+2 wld`
    /// for a WLD value (its sign is sure); `None` without a value.
    #[must_use]
    pub fn text_with_error(&self) -> Option<String> {
        let text = self.text()?;
        Some(match error_text(self.error) {
            Some(e) => format!("{text} {e}"),
            None => format!("{text} wld"),
        })
    }

    /// `black wins 46%`: the chance to win of the side the chances are for; `None` without a
    /// value.
    #[must_use]
    pub fn chances_text(&self) -> Option<String> {
        Some(format!(
            "{} wins {}",
            self.chances_for?,
            percent_text(self.win?)
        ))
    }

    /// `1.25`, `4`: the TSV number; `None` without a value.
    #[must_use]
    pub fn number(&self) -> Option<String> {
        self.text().map(|t| t.trim_start_matches('+').to_string())
    }
}

/// A score in discs back in the engine's units.
fn hundredths(v: f64) -> i32 {
    (v * f64::from(SCALE)).round() as i32
}

/// The named opening of a position: the deepest named position along the line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRef {
    /// The opening's name.
    pub name: String,
    /// Its moves from the start, in the orientation of the position asked about.
    #[serde(with = "line_text")]
    pub moves: Vec<Move>,
}

impl OpeningRef {
    /// The opening of `line` (moves from the start), if a named position lies along it, with
    /// its moves in the line's orientation.
    #[must_use]
    pub fn along(openings: &crate::openings::Openings, line: &[Move]) -> Option<OpeningRef> {
        Self::along_from(openings, &crate::board::Board::START, line)
    }

    /// The deepest named position among `start` and the positions `moves` lead to from it.
    #[must_use]
    pub fn along_from(
        openings: &crate::openings::Openings,
        start: &crate::board::Board,
        moves: &[Move],
    ) -> Option<OpeningRef> {
        let found = openings.find_along_from(start, moves)?;
        Some(OpeningRef {
            name: found.opening.name.clone(),
            moves: found.moves,
        })
    }

    /// The opening of a position with no known line: only if the position is itself named.
    #[must_use]
    pub fn at(
        openings: &crate::openings::Openings,
        board: &crate::board::Board,
    ) -> Option<OpeningRef> {
        let found = openings.find_at(board)?;
        Some(OpeningRef {
            name: found.opening.name.clone(),
            moves: found.moves,
        })
    }
}

/// Serde adapters: moves, lines, colours and positions as the JSON writes them.
pub mod move_text {
    use crate::board::{parse_moves, Move};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(mv)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = String::deserialize(d)?;
        match parse_moves(&text).map_err(D::Error::custom)?.as_slice() {
            [m] => Ok(*m),
            _ => Err(D::Error::custom(format!(
                "expected one move, found {text:?}"
            ))),
        }
    }

    /// The same for `Option<Move>`.
    pub mod option {
        use crate::board::Move;
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(mv: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
            match mv {
                Some(mv) => s.collect_str(mv),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Move>, D::Error> {
            #[derive(Deserialize)]
            struct Wrap(#[serde(with = "super")] Move);
            Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
        }
    }
}

/// Serde adapter: a list of moves as one move.
pub mod moves_list {
    use super::move_text;
    use crate::board::Move;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct One(#[serde(with = "move_text")] Move);

    pub fn serialize<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(moves.iter().map(|m| One(*m)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
        Ok(Vec::<One>::deserialize(d)?
            .into_iter()
            .map(|o| o.0)
            .collect())
    }
}

/// Serde adapter: a line as `f5d6c3`.
pub mod line_text {
    use crate::board::{format_moves, parse_moves, Move};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_moves(moves))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
        let text = String::deserialize(d)?;
        parse_moves(&text).map_err(D::Error::custom)
    }
}

/// Serde adapter: a colour as `black` or `white`.
pub mod color_text {
    use crate::board::Color;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(c)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            other => Err(D::Error::custom(format!(
                "expected black or white, found {other:?}"
            ))),
        }
    }

    /// The same for `Option<Color>` (`null` for none).
    pub mod option {
        use crate::board::Color;
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
            match c {
                Some(c) => s.collect_str(c),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
            #[derive(Deserialize)]
            struct Wrap(#[serde(with = "super")] Color);
            Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
        }
    }
}

/// Serde adapter: a position in the OBF form (64 squares, then the side to move).
pub mod obf_text {
    use crate::board::Position;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.to_obf())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// Deserialises a field that must be present but may be `null`.
pub(crate) fn nullable<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
where
    T: Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    Option::<T>::deserialize(d)
}

/// Deserialises a field that may be absent (outer `None`) or `null` (`Some(None)`).
pub(crate) fn present<'de, T, D>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    T: Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_drops_negative_zero() {
        assert_eq!(round2(-0.001).to_string(), "0");
        assert_eq!(round2(1.236), 1.24);
        assert_eq!(serde_json::to_string(&round2(-0.0)).unwrap(), "0.0");
    }

    #[test]
    fn value_text_keeps_whole_discs_for_exact_values() {
        let v = ValueFields {
            value: Some(-4.0),
            value_depth: Some(20),
            value_kind: Some(ValueKindName::Exact),
            ..ValueFields::default()
        };
        assert_eq!(v.text().as_deref(), Some("-4"));
        assert_eq!(v.number().as_deref(), Some("-4"));
        let m = ValueFields {
            value_kind: Some(ValueKindName::Midgame),
            value: Some(1.5),
            ..v
        };
        assert_eq!(m.text().as_deref(), Some("+1.50"));
        assert_eq!(ValueFields::default().text(), None);
    }
}
