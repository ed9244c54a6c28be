//! Ratings fitted from the games' results: a Bradley-Terry model (the Elo model, logistic
//! with 400 points for odds of 10 to 1) fitted by maximum likelihood, one Newton step per
//! player's log-strength per sweep, a draw counting as half a win for each side. Each player also gets
//! [`RatingParams::prior_games`] virtual draws against an anchor rated [`RatingParams::anchor`]:
//! a weak prior that keeps a player with few games near the anchor and makes the fit unique
//! (a player who won every game still gets a finite rating). docs/ratings.md has the method.
//!
//! The answer depends only on the multiset of games: results are summed per pair of players
//! in a sorted order (sums of halves are exact), and players are updated in the order of
//! their indices, so the input's order cannot change a single bit of the result.

use super::{GameMatch, GameTable, StoredGame, NO_NAME};
use serde::{Deserialize, Serialize};

/// The fit's parameters (docs/ratings.md explains each).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingParams {
    /// The anchor's rating: where the prior pulls, and a player with no decisive result sits.
    pub anchor: f64,
    /// Virtual draws each player has against the anchor (the prior's weight).
    pub prior_games: f64,
    /// The fit stops when no rating moves by more than this many points in an iteration.
    pub tolerance: f64,
    /// The fit stops after this many iterations even if not converged (reported).
    pub max_iterations: u32,
}

impl Default for RatingParams {
    fn default() -> RatingParams {
        RatingParams {
            anchor: 1500.0,
            prior_games: 2.0,
            tolerance: 0.001,
            max_iterations: 10_000,
        }
    }
}

/// One game for the fit: two players (indices below the fit's player count) and the first
/// player's score (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The first player.
    pub a: u32,
    /// The second player.
    pub b: u32,
    /// The first player's score: 0, 0.5 or 1.
    pub score: f64,
}

/// A player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The rating, in Elo points.
    pub rating: f64,
    /// Rated games played (games with a result against another known player).
    pub games: u64,
    /// Points scored in them (a draw is half a point).
    pub score: f64,
}

/// The ratings of a set of players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    /// Per player index: the rating, `None` for a player without a rated game.
    pub players: Vec<Option<PlayerRating>>,
    /// Iterations the fit ran.
    pub iterations: u32,
    /// The last iteration moved no rating by more than the tolerance.
    pub converged: bool,
    /// Games the fit used.
    pub games: u64,
    /// The parameters used.
    pub params: RatingParams,
}

impl Ratings {
    /// The rating of player `i`, if rated.
    #[must_use]
    pub fn of(&self, i: u32) -> Option<f64> {
        self.players
            .get(i as usize)
            .copied()
            .flatten()
            .map(|p| p.rating)
    }

    /// Per player index: rated at least `min` (for
    /// [`GameSelection::with_players`](super::GameSelection::with_players)).
    #[must_use]
    pub fn at_least(&self, min: f64) -> Vec<bool> {
        self.players
            .iter()
            .map(|r| r.is_some_and(|r| r.rating >= min))
            .collect()
    }

    /// The average rating of game `g`'s two players (`None` if either is unrated).
    #[must_use]
    pub fn of_game(&self, g: &StoredGame) -> Option<f64> {
        Some((self.of(g.black)? + self.of(g.white)?) / 2.0)
    }

    /// Fits the ratings of `players` players from `games` (any order: the answer is the
    /// same). Games of a player against themself are left out.
    #[must_use]
    pub fn fit(players: usize, games: &[RatedGame], params: RatingParams) -> Ratings {
        let pairs = pair_totals(games);
        let mut played = vec![0u64; players];
        let mut points = vec![0f64; players];
        // Per player: (opponent, games between them).
        let mut opponents: Vec<Vec<(u32, f64)>> = vec![Vec::new(); players];
        for &(a, b, n, score_a) in &pairs {
            played[a as usize] += n;
            played[b as usize] += n;
            points[a as usize] += score_a;
            points[b as usize] += n as f64 - score_a;
            opponents[a as usize].push((b, n as f64));
            opponents[b as usize].push((a, n as f64));
        }
        // Strengths (10^(rating/400) relative to the anchor); the anchor's is 1.
        let mut gamma = vec![1f64; players];
        let prior = params.prior_games;
        let mut iterations = 0;
        let mut converged = players == 0 || pairs.is_empty();
        while !converged && iterations < params.max_iterations {
            iterations += 1;
            let mut moved = 0f64;
            for i in 0..players {
                if played[i] == 0 {
                    continue;
                }
                // One Newton step on player i's log-strength: the log-likelihood is concave
                // in it, so the step climbs (capped, so a far start cannot overshoot).
                let p0 = gamma[i] / (gamma[i] + 1.0);
                let mut gradient = points[i] + prior / 2.0 - prior * p0;
                let mut curvature = prior * p0 * (1.0 - p0);
                for &(j, n) in &opponents[i] {
                    let p = gamma[i] / (gamma[i] + gamma[j as usize]);
                    gradient -= n * p;
                    curvature += n * p * (1.0 - p);
                }
                let step = (gradient / curvature).clamp(-1.0, 1.0);
                moved = moved.max((400.0 * step / std::f64::consts::LN_10).abs());
                // Updated in place (Gauss-Seidel), in index order: faster, still
                // deterministic.
                gamma[i] *= step.exp();
            }
            converged = moved < params.tolerance;
        }
        let players = (0..players)
            .map(|i| {
                (played[i] > 0).then(|| PlayerRating {
                    rating: params.anchor + elo(gamma[i]),
                    games: played[i],
                    score: points[i],
                })
            })
            .collect();
        Ratings {
            players,
            iterations,
            converged,
            games: pairs.iter().map(|p| p.2).sum(),
            params,
        }
    }

    /// The ratings of the players of `table`, indexed by name index, from its games that
    /// `keep` accepts (e.g. one year's, or a window of years).
    #[must_use]
    pub fn of_table(
        table: &GameTable,
        keep: impl Fn(&StoredGame) -> bool,
        params: RatingParams,
    ) -> Ratings {
        let games: Vec<RatedGame> = table
            .games()
            .iter()
            .filter(|g| keep(g))
            .filter_map(rated_game)
            .collect();
        Ratings::fit(table.names.len(), &games, params)
    }
}

/// `matches` ordered by their games' average rating (of the two players), highest first;
/// games with an unrated player last; equal ratings keep their order (most recent first).
/// `game` reads a game's record by its index.
pub fn order_by_rating<E>(
    matches: &mut [GameMatch],
    ratings: &Ratings,
    mut game: impl FnMut(usize) -> Result<StoredGame, E>,
) -> Result<(), E> {
    let mut keyed = Vec::with_capacity(matches.len());
    for m in matches.iter() {
        let r = ratings.of_game(&game(m.game)?).unwrap_or(f64::NEG_INFINITY);
        keyed.push((r, *m));
    }
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (slot, (_, m)) in matches.iter_mut().zip(keyed) {
        *slot = m;
    }
    Ok(())
}

/// A stored game as the fit counts it: both players known and distinct, a result known.
#[must_use]
pub fn rated_game(g: &StoredGame) -> Option<RatedGame> {
    let result = g.result?;
    if g.black == NO_NAME || g.white == NO_NAME || g.black == g.white {
        return None;
    }
    Some(RatedGame {
        a: g.black,
        b: g.white,
        score: match result.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        },
    })
}

/// The games summed per pair of players: (lower index, higher index, games, the lower
/// player's points), sorted by pair; self-games left out.
fn pair_totals(games: &[RatedGame]) -> Vec<(u32, u32, u64, f64)> {
    let mut keyed: Vec<(u32, u32, u8)> = games
        .iter()
        .filter(|g| g.a != g.b)
        .map(|g| {
            // Points in halves, so sums are exact whatever the order.
            let halves = (g.score * 2.0).round().clamp(0.0, 2.0) as u8;
            if g.a < g.b {
                (g.a, g.b, halves)
            } else {
                (g.b, g.a, 2 - halves)
            }
        })
        .collect();
    keyed.sort_unstable();
    let mut out: Vec<(u32, u32, u64, u64)> = Vec::new();
    for (a, b, h) in keyed {
        match out.last_mut() {
            Some(last) if last.0 == a && last.1 == b => {
                last.2 += 1;
                last.3 += u64::from(h);
            }
            _ => out.push((a, b, 1, u64::from(h))),
        }
    }
    out.into_iter()
        .map(|(a, b, n, h)| (a, b, n, h as f64 / 2.0))
        .collect()
}

/// A strength as Elo points above the anchor.
fn elo(gamma: f64) -> f64 {
    400.0 * gamma.log10()
}

/// The expected score of a player rated `a` against one rated `b`.
#[must_use]
pub fn expected_score(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// A performance rating: the average opponent's rating plus 400 × (wins − losses) / games
/// (the linear rule Lichess's opening explorer and many federations use); `None` without
/// games.
#[must_use]
pub fn performance(opponents_sum: f64, games: u64, wins: u64, losses: u64) -> Option<f64> {
    (games > 0).then(|| {
        let n = games as f64;
        opponents_sum / n + 400.0 * (wins as f64 - losses as f64) / n
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a: u32, b: u32, score: f64) -> RatedGame {
        RatedGame { a, b, score }
    }

    fn fit(players: usize, games: &[RatedGame]) -> Ratings {
        Ratings::fit(players, games, RatingParams::default())
    }

    #[test]
    fn a_player_who_always_wins_is_rated_above_the_loser() {
        let games = vec![game(0, 1, 1.0); 10];
        let r = fit(2, &games);
        assert!(r.converged);
        let (a, b) = (r.of(0).unwrap(), r.of(1).unwrap());
        assert!(a > b + 100.0, "{a} {b}");
        // Finite, and symmetric about the anchor.
        assert!(a < 2500.0);
        assert!((a - 1500.0 + (b - 1500.0)).abs() < 0.01, "{a} {b}");
        assert_eq!(r.players[0].unwrap().games, 10);
        assert_eq!(r.players[0].unwrap().score, 10.0);
    }

    #[test]
    fn symmetric_results_give_equal_ratings() {
        let games = [
            game(0, 1, 1.0),
            game(1, 0, 1.0),
            game(1, 2, 0.5),
            game(2, 0, 1.0),
            game(0, 2, 1.0),
        ];
        let r = fit(3, &games);
        for i in 0..3 {
            assert!((r.of(i).unwrap() - 1500.0).abs() < 0.01, "{:?}", r.players);
        }
    }

    #[test]
    fn ratings_do_not_depend_on_the_order_of_the_games() {
        let mut games = Vec::new();
        for i in 0..40u32 {
            games.push(game(i % 7, (i * 3 + 1) % 7, f64::from(i % 3) / 2.0));
        }
        let a = fit(7, &games);
        games.reverse();
        games.rotate_left(13);
        let swapped: Vec<RatedGame> = games
            .iter()
            .map(|g| game(g.b, g.a, 1.0 - g.score))
            .collect();
        assert_eq!(a, fit(7, &games));
        assert_eq!(a, fit(7, &swapped));
    }

    #[test]
    fn a_transitive_chain_is_ordered_and_unplayed_players_are_unrated() {
        // 0 beats 1 mostly, 1 beats 2 mostly; player 3 never plays; 4 only plays themself.
        let mut games = Vec::new();
        for k in 0..10 {
            games.push(game(0, 1, if k < 8 { 1.0 } else { 0.0 }));
            games.push(game(1, 2, if k < 8 { 1.0 } else { 0.0 }));
        }
        games.push(game(4, 4, 1.0));
        let r = fit(5, &games);
        let (a, b, c) = (r.of(0).unwrap(), r.of(1).unwrap(), r.of(2).unwrap());
        assert!(a > b && b > c, "{a} {b} {c}");
        assert_eq!(r.of(3), None);
        assert_eq!(r.of(4), None);
        assert_eq!(r.games, 20);
        assert!(r.iterations > 1);
    }

    #[test]
    fn the_prior_keeps_a_player_with_one_game_near_the_anchor() {
        let mut games = vec![game(0, 1, 1.0)];
        let one = fit(2, &games).of(0).unwrap();
        games.extend(vec![game(0, 1, 1.0); 19]);
        let twenty = fit(2, &games).of(0).unwrap();
        assert!(one > 1500.0 && one < 1700.0, "{one}");
        assert!(twenty > one + 100.0, "{one} {twenty}");
    }

    #[test]
    fn the_fit_maximises_the_likelihood() {
        // At the optimum each player's expected score (real and virtual games) equals
        // their actual score.
        let games = [
            game(0, 1, 1.0),
            game(0, 1, 0.5),
            game(1, 2, 1.0),
            game(2, 0, 1.0),
            game(0, 2, 1.0),
            game(1, 2, 0.0),
        ];
        let r = fit(3, &games);
        let prior = RatingParams::default().prior_games;
        for i in 0..3u32 {
            let ri = r.of(i).unwrap();
            let mut expected = prior * expected_score(ri, 1500.0);
            let mut actual = prior / 2.0;
            for g in &games {
                if g.a == i {
                    expected += expected_score(ri, r.of(g.b).unwrap());
                    actual += g.score;
                } else if g.b == i {
                    expected += expected_score(ri, r.of(g.a).unwrap());
                    actual += 1.0 - g.score;
                }
            }
            assert!((expected - actual).abs() < 1e-3, "{i}: {expected} {actual}");
        }
    }

    #[test]
    fn performance_follows_the_linear_rule() {
        assert_eq!(performance(0.0, 0, 0, 0), None);
        assert_eq!(performance(3000.0, 2, 1, 0), Some(1700.0));
        assert_eq!(performance(3000.0, 2, 1, 1), Some(1500.0));
    }
}
