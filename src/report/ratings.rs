//! Reports of the ratings fitted from a book's games (`book::games::ratings`): players with
//! their ratings (`games players`), and each move's average rating and performance
//! (`explore`), as Lichess's opening explorer shows them.

use super::round2;
use crate::board::Move;
use crate::book::games::ratings::{performance, RatingParams, Ratings};
use crate::book::games::{GameMatch, PositionGames, StoredGame};
use serde::{Deserialize, Serialize};

/// How a list of players is sorted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerOrder {
    /// Most games first.
    #[default]
    Games,
    /// Highest rating first (unrated players last).
    Rating,
    /// By name.
    Name,
}

/// One player with their games and rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRow {
    /// The name as the files spell it.
    pub name: String,
    /// Games with the player.
    pub games: u64,
    /// The fitted rating (one decimal); `null` without a rated game.
    pub rating: Option<f64>,
    /// Games the rating counts (a result, an opponent known and distinct).
    pub rated_games: u64,
    /// Points scored in them (a draw is half a point).
    pub score: f64,
}

/// How the ratings were fitted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitInfo {
    /// Games the fit used.
    pub games: u64,
    /// Iterations the fit ran.
    pub iterations: u32,
    /// Whether the fit converged within its tolerance.
    pub converged: bool,
    /// The years whose games were fitted (`null`: all).
    pub years: Option<(u16, u16)>,
    /// The fit's parameters.
    pub params: RatingParams,
}

impl FitInfo {
    /// The description of `ratings`, fitted from the games of `years`.
    #[must_use]
    pub fn of(ratings: &Ratings, years: Option<(u16, u16)>) -> FitInfo {
        FitInfo {
            games: ratings.games,
            iterations: ratings.iterations,
            converged: ratings.converged,
            years,
            params: ratings.params,
        }
    }
}

/// `games players` with ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayersReport {
    /// The players listed.
    pub players: Vec<PlayerRow>,
    /// Players matching, before `--limit`.
    pub total: usize,
    /// How the ratings were fitted.
    pub ratings: FitInfo,
}

impl PlayersReport {
    /// The players of `counts` (name, games) with their ratings (`rating_of` a name), sorted
    /// by `order` (ties by name), the first `shown` kept.
    #[must_use]
    pub fn new(
        counts: &[(&str, u64)],
        rating_of: impl Fn(&str) -> Option<crate::book::games::PlayerRating>,
        order: PlayerOrder,
        shown: usize,
        fit: FitInfo,
    ) -> PlayersReport {
        let mut players: Vec<PlayerRow> = counts
            .iter()
            .map(|&(name, games)| {
                let r = rating_of(name);
                PlayerRow {
                    name: name.to_string(),
                    games,
                    rating: r.map(|r| round1(r.rating)),
                    rated_games: r.map_or(0, |r| r.games),
                    score: r.map_or(0.0, |r| r.score),
                }
            })
            .collect();
        let by_name = |a: &PlayerRow, b: &PlayerRow| a.name.cmp(&b.name);
        match order {
            PlayerOrder::Games => players.sort_by(|a, b| b.games.cmp(&a.games).then(by_name(a, b))),
            PlayerOrder::Name => players.sort_by(by_name),
            PlayerOrder::Rating => players.sort_by(|a, b| {
                let key = |r: &PlayerRow| r.rating.unwrap_or(f64::NEG_INFINITY);
                key(b).total_cmp(&key(a)).then(by_name(a, b))
            }),
        }
        let total = players.len();
        players.truncate(shown);
        PlayersReport {
            players,
            total,
            ratings: fit,
        }
    }
}

/// A rating rounded to one decimal, as reports give it.
#[must_use]
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// The ratings behind one move (Lichess's "average rating" and "performance").
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveRating {
    /// Average rating of the players who played the move (one decimal); `null` when none
    /// of its games has a rated mover.
    pub average_rating: Option<f64>,
    /// The movers' rating performance in those games: their opponents' average rating plus
    /// 400 × (wins − losses) / games (one decimal); `null` without a rated game.
    pub performance: Option<f64>,
    /// Games counted: both players rated and a result known.
    pub rated_games: u64,
}

/// Sums of the rated games behind a move.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    movers: f64,
    opponents: f64,
    games: u64,
    wins: u64,
    losses: u64,
}

/// Each move's [`MoveRating`]: `rows` are the moves (each with the moves it stands for by
/// symmetry), `matches` the games that reached the position, `game` reads a game's record
/// (by its index), `ratings` rates its players; only plies below `max_ply` count, as the
/// book counts moves.
pub fn move_ratings<E>(
    rows: &[(Move, Vec<Move>)],
    matches: &[GameMatch],
    max_ply: usize,
    ratings: &Ratings,
    mut game: impl FnMut(usize) -> Result<StoredGame, E>,
) -> Result<Vec<MoveRating>, E> {
    let mut tallies = vec![Tally::default(); rows.len()];
    for m in matches.iter().filter(|m| m.ply < max_ply) {
        let Some(next) = m.next else { continue };
        let Some(row) = rows
            .iter()
            .position(|(mv, eq)| *mv == next || eq.contains(&next))
        else {
            continue;
        };
        let g = game(m.game)?;
        let (Some(black), Some(white), Some(result)) =
            (ratings.of(g.black), ratings.of(g.white), g.result)
        else {
            continue;
        };
        let black_moves = m.ply % 2 == 0;
        let (mover, opponent, sign) = if black_moves {
            (black, white, result.signum())
        } else {
            (white, black, -result.signum())
        };
        let t = &mut tallies[row];
        t.movers += mover;
        t.opponents += opponent;
        t.games += 1;
        t.wins += u64::from(sign > 0);
        t.losses += u64::from(sign < 0);
    }
    Ok(tallies
        .into_iter()
        .map(|t| MoveRating {
            average_rating: (t.games > 0).then(|| round1(t.movers / t.games as f64)),
            performance: performance(t.opponents, t.games, t.wins, t.losses).map(round1),
            rated_games: t.games,
        })
        .collect())
}

/// The number as a table cell: the rounded rating, `-` for none.
#[must_use]
pub fn rating_text(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_string(), |r| format!("{r:.0}"))
}

/// Two decimals of a score share, for tables.
#[must_use]
pub fn score_percent(score: f64, games: u64) -> Option<f64> {
    (games > 0).then(|| round2(100.0 * score / games as f64))
}

/// One move's ratings in [`ExploreRatings`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRatingRow {
    /// The move, as the report's row gives it.
    #[serde(rename = "move", with = "super::move_text")]
    pub mv: Move,
    /// Its average rating and performance.
    #[serde(flatten)]
    pub rating: MoveRating,
}

/// The ratings behind the moves of an explore report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreRatings {
    /// How the ratings were fitted.
    pub fit: FitInfo,
    /// One entry per row of the report's moves, in the same order.
    pub moves: Vec<MoveRatingRow>,
}

impl ExploreRatings {
    /// The ratings of the moves of a report (each with the moves it stands for by
    /// symmetry: `ExploreReport::move_groups`), from the games `found` that reached the
    /// position (all of them, each with the move it played), counted within `max_ply`.
    pub fn of<E>(
        moves: &[(Move, Vec<Move>)],
        found: &PositionGames,
        max_ply: usize,
        ratings: &Ratings,
        game: impl FnMut(usize) -> Result<StoredGame, E>,
    ) -> Result<ExploreRatings, E> {
        let per_move = move_ratings(moves, &found.matches, max_ply, ratings, game)?;
        Ok(ExploreRatings {
            fit: FitInfo::of(ratings, None),
            moves: moves
                .iter()
                .zip(per_move)
                .map(|((mv, _), rating)| MoveRatingRow { mv: *mv, rating })
                .collect(),
        })
    }
}
