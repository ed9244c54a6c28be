//! The match runner: plays games between two players under clocks, from openings, in parallel,
//! and sums up results with an Elo estimate.
//!
//! Why a second runner beside [`crate::teach::arena`]: this one plays Othello between any
//! [`Player`]s, external engines included, in real time: clocks, forfeits on time, illegal
//! moves or a crashed engine, recorded games and an Elo estimate. The teaching arena plays
//! any game (two or three players) between in-process agents on move budgets and sums
//! utilities, nodes and depths per move; neither needs the other's machinery.

use crate::board::{format_moves, Color, Move, Position};
use crate::play::clock::{Clock, TimeControl};
use crate::play::spec::{BuildError, PlayerSpec};
use crate::play::{Budget, GameState, Player};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Neither side could move.
    Normal,
    /// This side used more time than its clock had.
    Time(Color),
    /// This side played an illegal move.
    Illegal(Color, Move),
    /// This side's player failed (crashed, did not answer).
    Failure(Color, String),
}

impl Termination {
    /// The side that forfeited, if any.
    #[must_use]
    pub fn loser(&self) -> Option<Color> {
        match self {
            Termination::Normal => None,
            Termination::Time(c) | Termination::Illegal(c, _) | Termination::Failure(c, _) => {
                Some(*c)
            }
        }
    }

    /// One word for tables and CSV.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Time(_) => "time",
            Termination::Illegal(..) => "illegal",
            Termination::Failure(..) => "failure",
        }
    }
}

impl std::fmt::Display for Termination {
    /// A sentence for reports, e.g. "black played an illegal move a1".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Termination::Normal => f.write_str("played out"),
            Termination::Time(c) => write!(f, "{c} lost on time"),
            Termination::Illegal(c, Move::Pass) => write!(f, "{c} passed illegally"),
            Termination::Illegal(c, mv) => write!(f, "{c} played an illegal move {mv}"),
            Termination::Failure(c, why) => write!(f, "{c}'s engine failed: {why}"),
        }
    }
}

/// Per-side figures of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Moves chosen by the player (forced passes not counted).
    pub moves: u32,
    /// Thinking time.
    pub time: Duration,
    /// Nodes reported by the player.
    pub nodes: u64,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The opening played before the players took over.
    pub opening: Vec<Move>,
    /// All moves, opening and passes included.
    pub moves: Vec<Move>,
    /// The final position.
    pub end: Position,
    /// How it ended.
    pub termination: Termination,
    /// Black's and white's figures.
    pub black: SideStats,
    /// White's figures.
    pub white: SideStats,
}

impl GameOutcome {
    /// Points for black: 1 win, 0.5 draw, 0 loss (a forfeit loses).
    #[must_use]
    pub fn black_points(&self) -> f64 {
        match self.termination.loser() {
            Some(Color::Black) => 0.0,
            Some(Color::White) => 1.0,
            None => match self.end.final_score_black() {
                d if d > 0 => 1.0,
                0 => 0.5,
                _ => 0.0,
            },
        }
    }

    /// Final disc difference black minus white (empties to the winner), if played out.
    #[must_use]
    pub fn disc_diff(&self) -> Option<i32> {
        (self.termination == Termination::Normal).then(|| self.end.final_score_black())
    }
}

/// Plays one game from the standard start after `opening`.
pub fn play_game(
    black: &mut dyn Player,
    white: &mut dyn Player,
    opening: &[Move],
    tc: Option<TimeControl>,
) -> GameOutcome {
    let mut game = GameState::new(Position::START);
    let mut clocks = [tc.map(Clock::new), tc.map(Clock::new)];
    let mut stats = [SideStats::default(), SideStats::default()];
    let mut termination = Termination::Normal;
    for mv in opening {
        if game.play(*mv).is_err() {
            break; // openings are checked when loaded; stop rather than play nonsense
        }
    }
    if let Err(e) = black.new_game(&Position::START) {
        termination = Termination::Failure(Color::Black, e.to_string());
    } else if let Err(e) = white.new_game(&Position::START) {
        termination = Termination::Failure(Color::White, e.to_string());
    }
    while termination == Termination::Normal {
        let pos = game.position;
        if pos.board.is_game_over() {
            break;
        }
        if pos.board.must_pass() {
            let _ = game.play(Move::Pass);
            continue;
        }
        let side = pos.side;
        let idx = usize::from(side == Color::White);
        let budget = clocks[idx]
            .as_ref()
            .map_or(Budget::UNLIMITED, |c| c.budget(pos.board.empty_count()));
        let player: &mut dyn Player = if idx == 0 { &mut *black } else { &mut *white };
        let t0 = Instant::now();
        let result = player.choose(&game, budget);
        let used = t0.elapsed();
        stats[idx].moves += 1;
        stats[idx].time += used;
        if let Some(clock) = clocks[idx].as_mut() {
            if clock.spend(used).is_err() {
                termination = Termination::Time(side);
                break;
            }
        }
        match result {
            Err(e) => termination = Termination::Failure(side, e.to_string()),
            Ok(choice) => {
                stats[idx].nodes += choice.nodes;
                if game.play(choice.mv).is_err() {
                    termination = Termination::Illegal(side, choice.mv);
                }
            }
        }
    }
    black.game_over(&game);
    white.game_over(&game);
    let [b, w] = stats;
    GameOutcome {
        opening: opening.to_vec(),
        moves: game.moves,
        end: game.position,
        termination,
        black: b,
        white: w,
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// First player (black in even games).
    pub a: PlayerSpec,
    /// Second player.
    pub b: PlayerSpec,
    /// Number of games.
    pub games: usize,
    /// Openings; each is played twice with colours swapped. Empty: the standard start.
    pub openings: Vec<Vec<Move>>,
    /// Alternate colours between games even without openings.
    pub swap: bool,
    /// Clock for both players; `None` for depth-limited players without clocks.
    pub time: Option<TimeControl>,
    /// Games played at once (no more workers than games are started).
    pub jobs: NonZeroUsize,
    /// How long an external engine may take to answer a command other than `genmove`
    /// (start-up included) before it counts as failed.
    pub engine_timeout: Duration,
}

/// One game of a match: which opening and who had black.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Game number, from 0.
    pub index: usize,
    /// Whether player A had black.
    pub a_black: bool,
    /// The outcome.
    pub outcome: GameOutcome,
}

impl MatchGame {
    /// Points for player A.
    #[must_use]
    pub fn a_points(&self) -> f64 {
        let b = self.outcome.black_points();
        if self.a_black {
            b
        } else {
            1.0 - b
        }
    }
}

impl MatchConfig {
    /// Opening and colours of game `i`.
    #[must_use]
    pub fn schedule(&self, i: usize) -> (Vec<Move>, bool) {
        if self.openings.is_empty() {
            (Vec::new(), !self.swap || i.is_multiple_of(2))
        } else {
            (
                self.openings[(i / 2) % self.openings.len()].clone(),
                i.is_multiple_of(2),
            )
        }
    }
}

/// Plays the match; `on_game` is called with each game as it ends (in the order they end)
/// and the number ended so far. Once `stop` is set no new game starts: the games under way are
/// finished and the games played so far returned, in game order (a long match stopped by the
/// user keeps what it played).
pub fn run_match(
    cfg: &MatchConfig,
    stop: &AtomicBool,
    on_game: &(dyn Fn(&MatchGame, usize) + Sync),
) -> Result<Vec<MatchGame>, BuildError> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MatchGame>>> = Mutex::new(vec![None; cfg.games]);
    let first_error: Mutex<Option<BuildError>> = Mutex::new(None);
    let jobs = cfg.jobs.get().min(cfg.games);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let build = |s: &PlayerSpec| s.build_with_timeout(cfg.engine_timeout);
                let players = build(&cfg.a).and_then(|a| Ok((a, build(&cfg.b)?)));
                let (mut a, mut b) = match players {
                    Ok(p) => p,
                    Err(e) => {
                        first_error
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .get_or_insert(e);
                        return;
                    }
                };
                loop {
                    // The match is aborted when a player could not be built in another job.
                    if first_error
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .is_some()
                    {
                        break;
                    }
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let (opening, a_black) = cfg.schedule(i);
                    let outcome = if a_black {
                        play_game(a.as_mut(), b.as_mut(), &opening, cfg.time)
                    } else {
                        play_game(b.as_mut(), a.as_mut(), &opening, cfg.time)
                    };
                    let game = MatchGame {
                        index: i,
                        a_black,
                        outcome,
                    };
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    on_game(&game, n);
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(game);
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .flatten()
        .collect())
}

/// Totals for one player over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Games played.
    pub games: u32,
    /// Wins, draws, losses.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Losses by time forfeit.
    pub time_losses: u32,
    /// Sum of disc differences from this player's side (played-out games).
    pub disc_sum: i64,
    /// Thinking time.
    pub time: Duration,
    /// Moves chosen.
    pub moves: u32,
    /// Nodes.
    pub nodes: u64,
}

impl Totals {
    /// Points: wins + draws / 2.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }
}

/// Totals for player A (`a == true`) or B over the games.
#[must_use]
pub fn totals(games: &[MatchGame], a: bool) -> Totals {
    let mut t = Totals::default();
    for g in games {
        let black = g.a_black == a;
        let pts = if a { g.a_points() } else { 1.0 - g.a_points() };
        t.games += 1;
        match pts {
            p if p > 0.75 => t.wins += 1,
            p if p < 0.25 => t.losses += 1,
            _ => t.draws += 1,
        }
        let me = if black { Color::Black } else { Color::White };
        if g.outcome.termination == Termination::Time(me) {
            t.time_losses += 1;
        }
        if let Some(d) = g.outcome.disc_diff() {
            t.disc_sum += i64::from(if black { d } else { -d });
        }
        let s = if black {
            &g.outcome.black
        } else {
            &g.outcome.white
        };
        t.time += s.time;
        t.moves += s.moves;
        t.nodes += s.nodes;
    }
    t
}

/// Elo difference of a score fraction `p` (±infinity at 0 and 1).
#[must_use]
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Elo difference of A over B with a 95% interval. The interval is the Wilson score interval
/// of A's score fraction (draws count half), which stays finite for all-win or all-loss
/// results where the normal approximation collapses to a point.
#[must_use]
pub fn elo_interval(games: &[MatchGame]) -> (f64, f64, f64) {
    let n = games.len() as f64;
    if n == 0.0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let p = games.iter().map(MatchGame::a_points).sum::<f64>() / n;
    let z = 1.96f64;
    let denom = 1.0 + z * z / n;
    let center = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (elo(p), elo(center - half), elo(center + half))
}

/// The games as transcript records (for `.gam`/GGF/PGN output that `othbook build` reads
/// back). Games lost on time or by forfeit carry no result: their board says nothing of it.
#[must_use]
pub fn records(
    games: &[MatchGame],
    a: &str,
    b: &str,
    file: &str,
) -> Vec<crate::transcript::GameRecord> {
    use crate::transcript::{GameRecord, GameResult, Location, SourceRef};
    let file: std::sync::Arc<str> = std::sync::Arc::from(file);
    games
        .iter()
        .map(|g| {
            let (black, white) = if g.a_black { (a, b) } else { (b, a) };
            let result = g.outcome.disc_diff().map(|d| GameResult {
                disc_diff: d,
                raw: format!("{d:+}"),
            });
            GameRecord {
                start: Position::START,
                moves: g.outcome.moves.clone(),
                result,
                black: Some(black.to_string()),
                white: Some(white.to_string()),
                event: Some("othbook match".to_string()),
                place: None,
                date: None,
                year: None,
                source: SourceRef {
                    file: file.clone(),
                    location: Location::Record(g.index as u64 + 1),
                },
                complete: g.outcome.end.board.is_game_over(),
            }
        })
        .collect()
}

/// One CSV line per game (header from [`CSV_HEADER`]).
#[must_use]
pub fn csv_row(g: &MatchGame, a: &str, b: &str) -> String {
    let (black, white) = if g.a_black { (a, b) } else { (b, a) };
    let o = &g.outcome;
    let result = match o.black_points() {
        p if p > 0.75 => "1-0",
        p if p < 0.25 => "0-1",
        _ => "1/2",
    };
    // The deepest named opening along the whole game (opening moves included).
    let name = crate::openings::Openings::standard()
        .find_along(&o.moves)
        .map_or("", |f| f.opening.name.as_str());
    format!(
        "{},{},{},{},{},{},{},{},{},{:.3},{:.3},{},{}",
        g.index + 1,
        format_moves(&o.opening),
        csv_field(name),
        csv_field(black),
        csv_field(white),
        result,
        o.disc_diff().map_or(String::new(), |d| d.to_string()),
        o.termination.word(),
        format_moves(&o.moves),
        o.black.time.as_secs_f64(),
        o.white.time.as_secs_f64(),
        o.black.nodes,
        o.white.nodes,
    )
}

/// Header of [`csv_row`].
pub const CSV_HEADER: &str =
    "game,opening,opening_name,black,white,result,disc_diff,termination,moves,time_black,time_white,nodes_black,nodes_white";

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{Choice, PlayerError};

    struct Sleeper(Duration);
    impl Player for Sleeper {
        fn name(&self) -> String {
            "sleeper".into()
        }
        fn choose(&mut self, game: &GameState, _: Budget) -> Result<Choice, PlayerError> {
            std::thread::sleep(self.0);
            let sq = game.position.board.legal_moves().first().expect("a move");
            Ok(Choice {
                mv: Move::Play(sq),
                nodes: 0,
            })
        }
    }

    #[test]
    fn a_player_that_sleeps_past_its_clock_loses_on_time() {
        let mut slow = Sleeper(Duration::from_millis(120));
        let mut fast = Sleeper(Duration::ZERO);
        let tc: TimeControl = "0.3".parse().unwrap();
        let g = play_game(&mut slow, &mut fast, &[], Some(tc));
        assert_eq!(g.termination, Termination::Time(Color::Black));
        assert_eq!(g.black_points(), 0.0);
        // Lost once its 0.3 s were spent, not before (on a loaded machine a sleep may last
        // longer, and the clock run out at the second move), and at the latest at the third
        // move, after at least 3 x 120 ms.
        assert!(g.black.time > tc.setup, "{:?}", g.black);
        assert!(g.black.moves <= 3, "{:?}", g.black);
    }

    #[test]
    fn terminations_read_as_sentences() {
        let a1 = Move::Play("a1".parse().unwrap());
        for (t, text) in [
            (Termination::Normal, "played out"),
            (Termination::Time(Color::Black), "black lost on time"),
            (
                Termination::Illegal(Color::White, a1),
                "white played an illegal move a1",
            ),
            (
                Termination::Illegal(Color::Black, Move::Pass),
                "black passed illegally",
            ),
            (
                Termination::Failure(Color::White, "x: exited".into()),
                "white's engine failed: x: exited",
            ),
        ] {
            assert_eq!(t.to_string(), text);
        }
    }

    #[test]
    fn elo_is_symmetric_and_bounded() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) + elo(0.25)).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
    }

    #[test]
    fn elo_interval_is_finite_for_a_clean_sweep() {
        let cfg = MatchConfig {
            a: "simple".parse().unwrap(),
            b: "random:seed=9".parse().unwrap(),
            games: 4,
            openings: vec![],
            swap: true,
            time: None,
            jobs: NonZeroUsize::MIN,
            engine_timeout: Duration::from_secs(1),
        };
        let games = run_match(&cfg, &AtomicBool::new(false), &|_, _| {}).unwrap();
        let (e, lo, hi) = elo_interval(&games);
        assert!(lo <= e && e <= hi);
        if totals(&games, true).wins == 4 {
            assert!(lo.is_finite() && lo > 0.0, "{lo}");
        }
    }

    #[test]
    fn a_stopped_match_returns_the_games_it_played_in_order() {
        let cfg = MatchConfig {
            a: "random:seed=3".parse().unwrap(),
            b: "simple".parse().unwrap(),
            games: 50,
            openings: vec![],
            swap: true,
            time: None,
            jobs: NonZeroUsize::MIN,
            engine_timeout: Duration::from_secs(1),
        };
        let stop = AtomicBool::new(false);
        let seen = Mutex::new(Vec::new());
        let games = run_match(&cfg, &stop, &|g, n| {
            seen.lock().unwrap().push((g.index, n));
            if n == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
        assert_eq!(
            games.iter().map(|g| g.index).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(seen.into_inner().unwrap(), vec![(0, 1), (1, 2), (2, 3)]);
        let stopped = AtomicBool::new(true);
        assert!(run_match(&cfg, &stopped, &|_, _| {}).unwrap().is_empty());
    }

    #[test]
    fn match_schedule_swaps_colours_per_opening() {
        let cfg = MatchConfig {
            a: "random:seed=1".parse().unwrap(),
            b: "simple".parse().unwrap(),
            games: 6,
            openings: vec![
                crate::board::parse_moves("f5d6").unwrap(),
                crate::board::parse_moves("f5f6").unwrap(),
            ],
            swap: false,
            time: None,
            jobs: NonZeroUsize::new(2).unwrap(),
            engine_timeout: Duration::from_secs(1),
        };
        let games = run_match(&cfg, &AtomicBool::new(false), &|_, _| {}).unwrap();
        assert_eq!(games.len(), 6);
        for g in &games {
            assert_eq!(g.a_black, g.index % 2 == 0);
            assert_eq!(g.outcome.termination, Termination::Normal);
            assert!(g.outcome.end.board.is_game_over());
            assert_eq!(&g.outcome.moves[..2], &g.outcome.opening[..]);
        }
        let a = totals(&games, true);
        let b = totals(&games, false);
        assert_eq!(a.points() + b.points(), 6.0);
        assert_eq!(a.wins, b.losses);
    }
}
