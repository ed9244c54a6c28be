//! Serde adapters: moves, lines, colours and positions as the JSON writes them, and fields
//! that must be present but may be `null`.

use serde::Deserialize;

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
