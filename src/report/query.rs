//! The one entrance of the book queries' input: text from the command line (clap) or from an
//! HTTP query turned into a typed, checked query once: the target position and the line to
//! it ([`Target`]), the years and the rest of a game filter ([`game_filter`]), a search depth
//! under a cap (the engine's [`Depth`], by [`depth`]) and a page of a list ([`Page`]). The
//! command line and the server are thin adapters: each names the option or parameter at
//! fault in its own terms ([`QueryError::param`]).

use crate::board::{play_line, LineError, Move, NotationError, Position};
use crate::book::{GameFilter, PlayerColor, Years};
use crate::engine::Depth;

/// Most games one page of a list may hold.
pub const MAX_LIMIT: usize = 500;

/// What is wrong with a query, and which part of it ([`QueryError::param`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The start position is not a board.
    #[error("{0}")]
    Position(NotationError),
    /// The moves cannot be read or played from the start.
    #[error(transparent)]
    Moves(LineError),
    /// Not a year or a range of years.
    #[error("{text:?}: use A-B or A, e.g. 1990-2000")]
    Years {
        /// The text given.
        text: String,
    },
    /// Not a side.
    #[error("{text:?}: use black, white or either")]
    Color {
        /// The text given.
        text: String,
    },
    /// A side without the player it applies to.
    #[error("applies to a player: give player too")]
    ColorWithoutPlayer,
    /// A search depth out of range.
    #[error("depth {depth} is out of range: use 1 to {cap}")]
    Depth {
        /// The depth asked for.
        depth: u32,
        /// The deepest allowed.
        cap: u32,
    },
    /// A rating floor that is not a number in range.
    #[error("{text:?}: use a rating from {MIN_RATING} to {MAX_RATING}, e.g. 2000")]
    MinRating {
        /// The text given.
        text: String,
    },
    /// Not an order of games.
    #[error("{text:?}: use recent or rating")]
    Order {
        /// The text given.
        text: String,
    },
    /// A page size out of range.
    #[error("limit {limit} is out of range: use 1 to {MAX_LIMIT}")]
    Limit {
        /// The page size asked for.
        limit: usize,
    },
}

impl QueryError {
    /// The part of the query at fault, by its HTTP parameter name (the command line's option
    /// is `--` and the same name).
    #[must_use]
    pub fn param(&self) -> &'static str {
        match self {
            QueryError::Position(_) => "position",
            QueryError::Moves(_) => "moves",
            QueryError::Years { .. } => "years",
            QueryError::Color { .. } | QueryError::ColorWithoutPlayer => "color",
            QueryError::Depth { .. } => "depth",
            QueryError::Limit { .. } => "limit",
            QueryError::MinRating { .. } => "min_rating",
            QueryError::Order { .. } => "order",
        }
    }

    /// What is wrong, without the parameter's name (for an answer that names it apart).
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            QueryError::Moves(LineError::Notation { reason, .. }) => reason.to_string(),
            QueryError::Moves(LineError::Illegal { reason, .. }) => reason.to_string(),
            QueryError::Depth { depth, cap } => {
                format!("{depth} is out of range: use 1 to {cap}")
            }
            QueryError::Limit { limit } => {
                format!("{limit} is out of range: use 1 to {MAX_LIMIT}")
            }
            other => other.to_string(),
        }
    }
}

/// A position asked about: where the line starts, the line (passes it implies included),
/// and where it ends.
#[derive(Clone, Debug)]
pub struct Target {
    /// The start: the given board, or the standard start.
    pub start: Position,
    /// The moves played from `start`, passes included.
    pub line: Vec<Move>,
    /// The position the line reaches.
    pub pos: Position,
    /// The line starts at the standard start position.
    pub from_start: bool,
}

impl Target {
    /// `position` (64 squares then the side to move; `None`: the standard start) then the
    /// move string `moves` (`None`: no move).
    pub fn parse(position: Option<&str>, moves: Option<&str>) -> Result<Target, QueryError> {
        let start = match position {
            Some(text) => text.parse::<Position>().map_err(QueryError::Position)?,
            None => Position::START,
        };
        let (line, pos) = match moves {
            Some(text) => {
                let replay = play_line(&start, text).map_err(QueryError::Moves)?;
                (replay.moves, replay.end)
            }
            None => (Vec::new(), start),
        };
        Ok(Target {
            start,
            line,
            pos,
            from_start: start == Position::START,
        })
    }
}

/// `1990-2000` or `1995` (spaces around either year allowed); years out of order are
/// refused by [`Years::new`], in the query's words.
pub fn parse_years(text: &str) -> Result<Years, QueryError> {
    let err = || QueryError::Years {
        text: text.to_string(),
    };
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: u16 = a.trim().parse().map_err(|_| err())?;
    let b: u16 = b.trim().parse().map_err(|_| err())?;
    Years::new(a, b).map_err(|_| err())
}

/// `black`, `white` or `either`.
pub fn parse_color(text: &str) -> Result<PlayerColor, QueryError> {
    match text {
        "either" => Ok(PlayerColor::Either),
        "black" => Ok(PlayerColor::Black),
        "white" => Ok(PlayerColor::White),
        other => Err(QueryError::Color {
            text: other.to_string(),
        }),
    }
}

/// Lowest rating floor `--min-rating` accepts.
pub const MIN_RATING: u32 = 0;
/// Highest rating floor `--min-rating` accepts (far above any fitted rating).
pub const MAX_RATING: u32 = 4000;

/// A rating floor: a number from [`MIN_RATING`] to [`MAX_RATING`].
pub fn parse_min_rating(text: &str) -> Result<f64, QueryError> {
    let err = || QueryError::MinRating {
        text: text.to_string(),
    };
    let r: f64 = text.trim().parse().map_err(|_| err())?;
    if !(f64::from(MIN_RATING)..=f64::from(MAX_RATING)).contains(&r) {
        return Err(err());
    }
    Ok(r)
}

/// The order of a list of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameOrder {
    /// Most recent first (the table's order).
    #[default]
    Recent,
    /// Highest average rating of the two players first (then most recent).
    Rating,
}

/// `recent` or `rating`.
pub fn parse_order(text: &str) -> Result<GameOrder, QueryError> {
    match text {
        "recent" => Ok(GameOrder::Recent),
        "rating" => Ok(GameOrder::Rating),
        other => Err(QueryError::Order {
            text: other.to_string(),
        }),
    }
}

/// The ratings part of a query: a floor both players must reach, and the order of the games
/// listed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RatingQuery {
    /// Only games whose two players are both rated at least this.
    pub min: Option<f64>,
    /// The order of the games listed.
    pub order: GameOrder,
}

impl RatingQuery {
    /// `min_rating` and `order` as a query gives them (`None`: not given).
    pub fn parse(min_rating: Option<&str>, order: Option<&str>) -> Result<RatingQuery, QueryError> {
        Ok(RatingQuery {
            min: min_rating.map(parse_min_rating).transpose()?,
            order: order.map(parse_order).transpose()?.unwrap_or_default(),
        })
    }

    /// Whether the query needs the players' ratings.
    #[must_use]
    pub fn needs_ratings(&self) -> bool {
        self.min.is_some() || self.order == GameOrder::Rating
    }
}

/// A game filter's parts as a query gives them (each `None` when not given).
#[derive(Clone, Debug, Default)]
pub struct FilterText<'a> {
    /// Part of a player's name.
    pub player: Option<&'a str>,
    /// The side that player must have had.
    pub color: Option<PlayerColor>,
    /// `1990-2000` or `1995`.
    pub years: Option<&'a str>,
    /// Part of an event's name.
    pub event: Option<&'a str>,
    /// Only games played to the end.
    pub complete_only: bool,
}

/// The game filter `f` asks for, `None` when it asks for none.
pub fn game_filter(f: &FilterText<'_>) -> Result<Option<GameFilter>, QueryError> {
    if f.color.is_some() && f.player.is_none() {
        return Err(QueryError::ColorWithoutPlayer);
    }
    let filter = GameFilter::new(
        f.player.map(str::to_string),
        f.color.unwrap_or_default(),
        f.years.map(parse_years).transpose()?,
        f.event.map(str::to_string),
        f.complete_only,
    )
    // The filter's only rule left: a side needs a player (the years were checked above).
    .map_err(|_| QueryError::ColorWithoutPlayer)?;
    Ok((filter != GameFilter::default()).then_some(filter))
}

/// `depth` plies as the engine's [`Depth`], 1 to `cap` (the engine's deepest,
/// [`Depth::MAX`], or a server's).
pub fn depth(depth: u32, cap: Depth) -> Result<Depth, QueryError> {
    Depth::new(depth)
        .ok()
        .filter(|d| *d <= cap)
        .ok_or(QueryError::Depth {
            depth,
            cap: cap.plies(),
        })
}

/// A page of a list: at most `limit` items (1 to [`MAX_LIMIT`]) after the first `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    limit: usize,
    offset: usize,
}

impl Page {
    /// `limit` (default `default`) and `offset` (default 0), checked.
    pub fn new(
        limit: Option<usize>,
        offset: Option<usize>,
        default: usize,
    ) -> Result<Page, QueryError> {
        let limit = limit.unwrap_or(default);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(QueryError::Limit { limit });
        }
        Ok(Page {
            limit,
            offset: offset.unwrap_or(0),
        })
    }

    /// Most items on the page.
    #[must_use]
    pub fn limit(self) -> usize {
        self.limit
    }

    /// Items skipped before the page.
    #[must_use]
    pub fn offset(self) -> usize {
        self.offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_from_a_board_a_line_or_both() {
        let t = Target::parse(None, Some("f5 d6 C3")).unwrap();
        assert_eq!(crate::board::format_moves(&t.line), "f5d6c3");
        assert!(t.from_start);
        let obf = t.pos.to_obf();
        let b = Target::parse(Some(&obf), Some("d3")).unwrap();
        assert!(!b.from_start);
        assert_eq!(b.pos, t.pos.play(b.line[0]).unwrap());
        let none = Target::parse(None, None).unwrap();
        assert_eq!(none.pos, Position::START);
        assert!(none.line.is_empty());
        for (position, moves, param) in [
            (None, Some("f5f5"), "moves"),
            (None, Some("i9"), "moves"),
            (Some("XO X"), None, "position"),
        ] {
            assert_eq!(Target::parse(position, moves).unwrap_err().param(), param);
        }
    }

    #[test]
    fn years_colors_and_filters() {
        assert_eq!(parse_years("1995").map(Years::bounds), Ok((1995, 1995)));
        assert_eq!(
            parse_years(" 1990 - 2000 ").map(Years::bounds),
            Ok((1990, 2000))
        );
        for bad in ["2000-1990", "19x5", "-", ""] {
            assert_eq!(parse_years(bad).unwrap_err().param(), "years", "{bad}");
        }
        assert_eq!(parse_color("white"), Ok(PlayerColor::White));
        assert_eq!(parse_color("green").unwrap_err().param(), "color");
        assert_eq!(game_filter(&FilterText::default()), Ok(None));
        let no_player = FilterText {
            color: Some(PlayerColor::Black),
            ..FilterText::default()
        };
        assert_eq!(game_filter(&no_player), Err(QueryError::ColorWithoutPlayer));
        let f = game_filter(&FilterText {
            player: Some("Tamenori"),
            color: Some(PlayerColor::White),
            years: Some("1990-2000"),
            ..FilterText::default()
        })
        .unwrap()
        .unwrap();
        assert_eq!(f.player(), Some("Tamenori"));
        assert_eq!(f.player_color(), PlayerColor::White);
        assert_eq!(f.years().map(Years::bounds), Some((1990, 2000)));
    }

    #[test]
    fn rating_floors_and_orders() {
        assert_eq!(parse_min_rating("2000"), Ok(2000.0));
        assert_eq!(parse_min_rating(" 1850.5"), Ok(1850.5));
        assert_eq!(parse_min_rating("0"), Ok(0.0));
        for bad in ["-1", "4001", "NaN", "inf", "high", ""] {
            assert_eq!(
                parse_min_rating(bad).unwrap_err().param(),
                "min_rating",
                "{bad}"
            );
        }
        assert_eq!(parse_order("rating"), Ok(GameOrder::Rating));
        assert_eq!(parse_order("recent"), Ok(GameOrder::Recent));
        assert_eq!(parse_order("best").unwrap_err().param(), "order");
    }

    #[test]
    fn depths_and_pages_are_bounded() {
        let cap = Depth::of(10);
        assert_eq!(depth(10, cap).map(Depth::plies), Ok(10));
        assert_eq!(depth(11, cap).unwrap_err().param(), "depth");
        assert_eq!(depth(0, cap).unwrap_err().param(), "depth");
        assert_eq!(
            depth(61, Depth::MAX),
            Err(QueryError::Depth { depth: 61, cap: 60 })
        );
        let page = Page::new(None, None, 20).unwrap();
        assert_eq!((page.limit(), page.offset()), (20, 0));
        assert_eq!(Page::new(Some(0), None, 20).unwrap_err().param(), "limit");
        assert_eq!(
            Page::new(Some(MAX_LIMIT + 1), None, 20)
                .unwrap_err()
                .param(),
            "limit"
        );
    }
}
