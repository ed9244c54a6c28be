//! The API's query parameters: the length limits of untrusted text, then the one query
//! entrance ([`crate::report::query`]) for the position (a line, a board or both), game
//! filters, search depth and list bounds. Every mistake is an [`ApiError`] naming the
//! parameter.

use super::error::ApiError;
use crate::book::games::{FilterError, NameKind};
use crate::book::GameFilter;
use crate::engine::Depth;
use crate::report::query::{
    self, game_filter, parse_color, FilterText, Page, QueryError, RatingQuery, Target,
};
use serde::Deserialize;

/// Longest move string accepted: a game has at most 60 moves and some passes, written with
/// separators.
const MAX_MOVES_TEXT: usize = 400;
/// Longest text accepted for the other parameters: a board is 66 characters, names of
/// players and events a few dozen. Checked before any work, so that no text can make a
/// search (such as the closest names to an unknown one) costly.
pub const MAX_TEXT: usize = 200;

/// Query parameters of `/explore`, `/games` and `/review` (each uses its own subset; an
/// unknown one is refused, so that a typo is not silently ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawParams {
    pub moves: Option<String>,
    pub position: Option<String>,
    pub depth: Option<u32>,
    pub player: Option<String>,
    pub color: Option<String>,
    pub years: Option<String>,
    pub event: Option<String>,
    pub complete_only: Option<bool>,
    pub limit: Option<usize>,
    pub offset: Option<usize>,
    pub book: Option<String>,
    pub min_rating: Option<String>,
    pub order: Option<String>,
    pub ratings: Option<bool>,
}

impl RawParams {
    /// Every text parameter within its length limit ([`text_limit`]).
    pub fn check_lengths(&self) -> Result<(), ApiError> {
        let texts = [
            ("moves", &self.moves),
            ("position", &self.position),
            ("player", &self.player),
            ("color", &self.color),
            ("years", &self.years),
            ("event", &self.event),
            ("book", &self.book),
            ("min_rating", &self.min_rating),
            ("order", &self.order),
        ];
        for (param, text) in texts {
            text_limit(param, text.as_deref())?;
        }
        Ok(())
    }
}

/// `text` of parameter `param` within its length limit: 400 characters for `moves`,
/// [`MAX_TEXT`] for every other. The one check of every text a client sends (query
/// parameters and the review's body alike).
pub fn text_limit(param: &'static str, text: Option<&str>) -> Result<(), ApiError> {
    let limit = if param == "moves" {
        MAX_MOVES_TEXT
    } else {
        MAX_TEXT
    };
    let Some(text) = text else { return Ok(()) };
    let chars = text.chars().count();
    if chars > limit {
        return Err(ApiError::bad(
            param,
            format!("{chars} characters is too long (at most {limit})"),
        ));
    }
    Ok(())
}

/// The position of `position` (a blank one is the start: the page sends it empty) and
/// `moves`, each within its length limit.
pub fn target(position: Option<&str>, moves: Option<&str>) -> Result<Target, ApiError> {
    text_limit("position", position)?;
    text_limit("moves", moves)?;
    let position = position.map(str::trim).filter(|p| !p.is_empty());
    Ok(Target::parse(position, moves)?)
}

/// The book a request names (`None`, or blank: the server's default), within its length
/// limit. The one reading of `book`, whichever endpoint and whether query or body.
pub fn book(name: Option<&str>) -> Result<Option<&str>, ApiError> {
    text_limit("book", name)?;
    Ok(name.map(str::trim).filter(|n| !n.is_empty()))
}

/// `depth`, checked against the server's cap (said as the server's, not the engine's).
pub fn depth(d: Option<u32>, cap: Depth) -> Result<Option<Depth>, ApiError> {
    match d.map(|d| query::depth(d, cap)).transpose() {
        Ok(d) => Ok(d),
        Err(QueryError::Depth { depth: 0, .. }) => {
            Err(ApiError::bad("depth", "must be at least 1".into()))
        }
        Err(QueryError::Depth { depth, cap }) => Err(ApiError::bad(
            "depth",
            format!("{depth} is deeper than this server allows ({cap})"),
        )),
        Err(e) => Err(e.into()),
    }
}

/// The game filter of the parameters, `None` when none is given (blank ones are not given).
pub fn filter(p: &RawParams) -> Result<Option<GameFilter>, ApiError> {
    let color = p.color.as_deref().map(parse_color).transpose()?;
    Ok(game_filter(&FilterText {
        player: non_empty(&p.player),
        color,
        years: non_empty(&p.years),
        event: non_empty(&p.event),
        complete_only: p.complete_only.unwrap_or(false),
    })?)
}

/// The rating floor (`min_rating`) and order (`order`) of the parameters.
pub fn rating(p: &RawParams) -> Result<RatingQuery, ApiError> {
    Ok(RatingQuery::parse(
        non_empty(&p.min_rating),
        non_empty(&p.order),
    )?)
}

fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// A filter naming no player or event of the book: the client's mistake.
pub fn filter_error(e: FilterError) -> ApiError {
    let what = match e.kind() {
        NameKind::Player => "player",
        NameKind::Event => "event",
    };
    ApiError::bad(what, e.to_string())
}

/// `limit` (default `default`, 1 to [`crate::report::query::MAX_LIMIT`]) and `offset`.
pub fn page(p: &RawParams, default: usize) -> Result<(usize, usize), ApiError> {
    let page = Page::new(p.limit, p.offset, default)?;
    Ok((page.limit(), page.offset()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::PlayerColor;
    use crate::report::query::MAX_LIMIT;

    fn bad_param(r: Result<impl std::fmt::Debug, ApiError>) -> &'static str {
        match r {
            Err(ApiError::BadParam { param, .. }) => param,
            other => panic!("expected a bad parameter, got {other:?}"),
        }
    }

    #[test]
    fn positions_parse_from_a_board_a_line_or_both() {
        let t = target(None, Some("f5 d6 C3")).unwrap();
        assert_eq!(format_moves_of(&t), "f5d6c3");
        assert!(t.from_start);
        let obf = t.pos.to_obf();
        let b = target(Some(&obf), Some("d3")).unwrap();
        assert!(!b.from_start);
        assert_eq!(b.pos, t.pos.play(b.line[0]).unwrap());
        assert_eq!(bad_param(target(None, Some("f5f5"))), "moves");
        assert_eq!(bad_param(target(None, Some("i9"))), "moves");
        assert_eq!(bad_param(target(Some("XO X"), None)), "position");
        assert_eq!(bad_param(target(None, Some(&"f5".repeat(201)))), "moves");
    }

    #[test]
    fn every_text_parameter_is_bounded() {
        let long = Some("x".repeat(MAX_TEXT + 1));
        let fine = Some("x".repeat(MAX_TEXT));
        let set = |name: &str, v: &Option<String>| {
            let mut p = RawParams::default();
            match name {
                "position" => p.position.clone_from(v),
                "player" => p.player.clone_from(v),
                "color" => p.color.clone_from(v),
                "years" => p.years.clone_from(v),
                _ => p.event.clone_from(v),
            }
            p
        };
        for name in ["position", "player", "color", "years", "event"] {
            assert_eq!(bad_param(set(name, &long).check_lengths()), name);
            assert!(set(name, &fine).check_lengths().is_ok(), "{name}");
        }
        let moves = RawParams {
            moves: Some("f5".repeat(201)),
            ..RawParams::default()
        };
        assert_eq!(bad_param(moves.check_lengths()), "moves");
    }

    fn format_moves_of(t: &Target) -> String {
        crate::board::format_moves(&t.line)
    }

    #[test]
    fn depth_is_capped_and_limits_are_bounded() {
        let cap = Depth::of(10);
        assert_eq!(depth(None, cap).unwrap(), None);
        assert_eq!(depth(Some(10), cap).unwrap(), Some(cap));
        assert_eq!(bad_param(depth(Some(11), cap)), "depth");
        assert_eq!(bad_param(depth(Some(0), cap)), "depth");
        let over = depth(Some(11), cap).unwrap_err().to_string();
        assert_eq!(over, "depth: 11 is deeper than this server allows (10)");
        let p = |limit| RawParams {
            limit,
            ..RawParams::default()
        };
        assert_eq!(page(&p(None), 20).unwrap(), (20, 0));
        assert_eq!(bad_param(page(&p(Some(0)), 20)), "limit");
        assert_eq!(bad_param(page(&p(Some(MAX_LIMIT + 1)), 20)), "limit");
    }

    #[test]
    fn rating_floors_and_orders_are_checked() {
        let p = |min: &str, order: &str| RawParams {
            min_rating: Some(min.into()),
            order: Some(order.into()),
            ..RawParams::default()
        };
        let q = rating(&p("2000", "rating")).unwrap();
        assert_eq!(q.min, Some(2000.0));
        assert!(q.needs_ratings());
        assert!(!rating(&RawParams::default()).unwrap().needs_ratings());
        assert!(!rating(&p(" ", "")).unwrap().needs_ratings());
        assert_eq!(bad_param(rating(&p("9000", "recent"))), "min_rating");
        assert_eq!(bad_param(rating(&p("-5", "recent"))), "min_rating");
        assert_eq!(bad_param(rating(&p("2000", "best"))), "order");
    }

    #[test]
    fn filters_parse_years_colours_and_names() {
        let p = RawParams {
            player: Some(" Tamenori ".into()),
            color: Some("white".into()),
            years: Some("1990-2000".into()),
            ..RawParams::default()
        };
        let f = filter(&p).unwrap().unwrap();
        assert_eq!(f.player(), Some("Tamenori"));
        assert_eq!(f.player_color(), PlayerColor::White);
        assert_eq!(
            f.years().map(crate::book::Years::bounds),
            Some((1990, 2000))
        );
        assert!(filter(&RawParams::default()).unwrap().is_none());
        for (years, ok) in [
            ("1995", true),
            ("2000-1990", false),
            ("19x5", false),
            ("-", false),
        ] {
            let p = RawParams {
                years: Some(years.into()),
                ..RawParams::default()
            };
            assert_eq!(filter(&p).is_ok(), ok, "{years}");
        }
        let no_player = RawParams {
            color: Some("black".into()),
            ..RawParams::default()
        };
        assert_eq!(bad_param(filter(&no_player)), "color");
        let bad_colour = RawParams {
            player: Some("x".into()),
            color: Some("green".into()),
            ..RawParams::default()
        };
        assert_eq!(bad_param(filter(&bad_colour)), "color");
    }
}
