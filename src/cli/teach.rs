//! `othbook teach`: the classic game-search players on tic-tac-toe, the warehouse-robot game
//! and Othello: matches, tournaments over time limits, and a game shown move by move.

use super::common::bad;
use super::output_path::{claim_file, Output, REPORT};
use anyhow::{Context, Result};
use othbook::rng::Rng;
use othbook::teach::arena::{
    board_seed, play_game, run_match, run_tournament, totals, GameKind, MatchSettings, SeatResult,
    Tally, TournamentRow, Visit,
};
use othbook::teach::spec::{split_players, AgentSpec, Kind, MAX_DEPTH};
use othbook::teach::{Agent, Game, Heuristic};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

/// Arguments of `othbook teach`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Games between players, seats rotating: wins, draws, losses, utility, nodes and time
    /// per move.
    /// Example: othbook teach match --game tictactoe --players alphabeta,mcts:playouts=500
    #[command(after_help = after_help())]
    Match(MatchArgs),
    /// Every group of players at each time limit: a players × limits table.
    /// Example: othbook teach tournament --game robots --players greedy,alphabeta,mcts --limits 0.01,0.05
    #[command(after_help = after_help())]
    Tournament(TournamentArgs),
    /// One game played out, the board after every move.
    /// Example: othbook teach show --game robots --seed 7
    #[command(after_help = after_help())]
    Show(ShowArgs),
}

/// What every `teach` command shares.
#[derive(clap::Args, Debug)]
struct Common {
    /// tictactoe, robots (two robots), robots3 (three robots) or othello.
    #[arg(long)]
    game: String,
    /// Seed of robot boards, random openings and unseeded random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies before the players take over (default: 4 for othello in match and
    /// tournament; 0 in show and for the other games).
    #[arg(long)]
    opening: Option<u32>,
}

#[derive(clap::Args, Debug)]
struct MatchArgs {
    #[command(flatten)]
    common: Common,
    /// One player per seat, comma-separated, e.g. alphabeta:depth=4,mcts:time=0.1,c=1
    #[arg(long)]
    players: String,
    /// Number of games (seats rotate from one game to the next).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Seconds per move for every player (instead of depths and playout counts).
    #[arg(long, conflicts_with = "depth")]
    time: Option<f64>,
    /// Depth for every depth-limited player (instead of each player's own).
    #[arg(long)]
    depth: Option<u32>,
    /// Write one CSV line per player and game to this file (not `-`: the results table goes
    /// to standard output); locked while the command runs.
    #[arg(long)]
    csv: Option<Output>,
}

#[derive(clap::Args, Debug)]
struct TournamentArgs {
    #[command(flatten)]
    common: Common,
    /// The players, comma-separated; every group of as many as the game has seats plays.
    #[arg(long)]
    players: String,
    /// Seconds per move, one column each.
    #[arg(long, value_delimiter = ',', default_value = "0.01,0.05,0.2")]
    limits: Vec<f64>,
    /// Games per group and limit (a multiple of the seats, so that seats rotate fully).
    #[arg(long, default_value_t = 6)]
    games: usize,
    /// Write one CSV line per player and limit to this file (not `-`: the results table goes
    /// to standard output); locked while the command runs.
    #[arg(long)]
    csv: Option<Output>,
}

#[derive(clap::Args, Debug)]
struct ShowArgs {
    #[command(flatten)]
    common: Common,
    /// One player per seat (default: alphabeta:depth=4 against greedy; for robots3 maxn,
    /// paranoid and greedy).
    #[arg(long)]
    players: Option<String>,
    /// Seconds per move for every player.
    #[arg(long)]
    time: Option<f64>,
}

fn after_help() -> String {
    let mut s =
        String::from("Players (options after a colon, e.g. alphabeta:depth=3,order=off):\n");
    for k in Kind::ALL {
        s.push_str(&format!("  {:<11} {}\n", k.name(), k.about()));
        if !k.usage().is_empty() {
            s.push_str(&format!("  {:<11} options: {}\n", "", k.usage()));
        }
    }
    s.push_str(
        "\nWith neither depth nor time a search player uses the game's default depth \
         (tictactoe 9, others 4);\nMCTS runs 2000 playouts. Nodes are states searched \
         (playouts for mcts).\n\nExamples:\n  \
         othbook teach match --game tictactoe --players minimax,alphabeta --games 2\n  \
         othbook teach match --game robots --players alphabeta:depth=4,expectimax:depth=3 --games 10 --csv m.csv\n  \
         othbook teach tournament --game robots3 --players greedy,maxn,paranoid,mcts --limits 0.01,0.05 --games 3\n  \
         othbook teach show --game robots --seed 7 --players alphabeta:depth=5,mcts:playouts=2000",
    );
    s
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    match args.command {
        Command::Match(a) => run_match_cmd(a, out),
        Command::Tournament(a) => run_tournament_cmd(a, out),
        Command::Show(a) => run_show(a, out),
    }
}

fn game_kind(c: &Common) -> Result<GameKind> {
    c.game.parse().map_err(|e| bad(format!("--game: {e}")))
}

fn parse_players(list: &str) -> Result<Vec<AgentSpec>> {
    let specs: Vec<AgentSpec> = split_players(list)
        .iter()
        .map(|p| p.parse().map_err(|e| bad(format!("--players: {e}"))))
        .collect::<Result<_>>()?;
    if specs.is_empty() {
        return Err(bad("--players: no players given"));
    }
    Ok(specs)
}

/// Seats of `kind`'s game.
fn seats(kind: GameKind) -> usize {
    struct Seats;
    impl Visit for Seats {
        type Out = usize;
        fn visit<G: Game + 'static, H: Heuristic<G> + Clone + 'static>(
            self,
            make: &dyn Fn(u64) -> G,
            _: H,
        ) -> usize {
            make(0).players()
        }
    }
    kind.visit(Seats)
}

fn seconds(what: &str, secs: f64) -> Result<Duration> {
    if !(0.001..=3600.0).contains(&secs) {
        return Err(bad(format!("{what}: {secs} s: use 0.001 to 3600 seconds")));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn progress_bar() -> impl FnMut(usize, usize) {
    let tty = std::io::stderr().is_terminal();
    move |done, total| {
        if tty {
            eprint!("\rgame {done}/{total}   ");
            if done == total {
                eprintln!();
            }
        }
    }
}

fn run_match_cmd(a: MatchArgs, out: &mut impl Write) -> Result<()> {
    let kind = game_kind(&a.common)?;
    let csv = claim_file(a.csv.as_ref(), "--csv", REPORT)?;
    let mut specs = parse_players(&a.players)?;
    let n = seats(kind);
    if specs.len() != n {
        return Err(bad(format!(
            "--players: {kind} has {n} seats; give {n} players, not {}",
            specs.len()
        )));
    }
    if !(1..=100_000).contains(&a.games) {
        return Err(bad("--games must be 1 to 100000"));
    }
    if let Some(d) = a.depth {
        if !(1..=MAX_DEPTH).contains(&d) {
            return Err(bad(format!("--depth must be 1 to {MAX_DEPTH}")));
        }
        specs = specs.iter().map(|s| s.with_depth(d)).collect();
    }
    let settings = MatchSettings {
        games: a.games,
        seed: a.common.seed,
        time: a.time.map(|t| seconds("--time", t)).transpose()?,
        opening: a.common.opening.unwrap_or(kind.default_opening()),
    };
    struct M<'a>(&'a [AgentSpec], &'a MatchSettings);
    impl Visit for M<'_> {
        type Out = Vec<SeatResult>;
        fn visit<G: Game + 'static, H: Heuristic<G> + Clone + 'static>(
            self,
            make: &dyn Fn(u64) -> G,
            h: H,
        ) -> Vec<SeatResult> {
            run_match(make, &h, self.0, self.1, &mut progress_bar())
        }
    }
    let results = kind.visit(M(&specs, &settings));
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    if let Some(csv) = &csv {
        write_csv(
            csv.path(),
            MATCH_CSV_HEADER,
            results.iter().map(|r| match_csv(r, &names)),
        )?;
    }
    let limit = settings
        .time
        .map_or("each player's own limits".to_string(), |t| {
            format!("{} s per move", t.as_secs_f64())
        });
    writeln!(
        out,
        "{kind}: {} games, seats rotating, seed {}, {limit}",
        a.games, a.common.seed
    )?;
    render_match(out, &names, &totals(&results, specs.len()))
}

fn render_match(out: &mut impl Write, names: &[String], rows: &[Tally]) -> Result<()> {
    writeln!(
        out,
        "{:<32} {:>5} {:>4} {:>4} {:>4} {:>7} {:>9} {:>11} {:>9} {:>9} {:>6}",
        "player",
        "games",
        "won",
        "drew",
        "lost",
        "score%",
        "utility",
        "nodes/move",
        "s/move",
        "max s",
        "depth"
    )?;
    for (name, t) in names.iter().zip(rows) {
        writeln!(
            out,
            "{:<32} {:>5} {:>4} {:>4} {:>4} {:>6.1}% {:>+9.2} {:>11.0} {:>9.4} {:>9.4} {:>6.2}",
            name,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.score(),
            t.mean_utility(),
            t.nodes_per_move(),
            t.secs_per_move(),
            t.slowest.as_secs_f64(),
            t.depth_per_move()
        )?;
    }
    writeln!(
        out,
        "(utility: mean per game; max s: slowest move; depth: mean depth completed per move, 0 for players that do not search by depth)"
    )?;
    Ok(())
}

const MATCH_CSV_HEADER: &str =
    "game,board_seed,seat,player,result,utility,points,moves,nodes,seconds,slowest_move,depth_per_move";

fn match_csv(r: &SeatResult, names: &[String]) -> String {
    let t = &r.tally;
    let result = if t.wins > 0 {
        "win"
    } else if t.draws > 0 {
        "draw"
    } else {
        "loss"
    };
    format!(
        "{},{},{},{},{result},{},{:.4},{},{},{:.6},{:.6},{:.3}",
        r.game,
        r.board_seed,
        r.seat + 1,
        csv_field(&names[r.player]),
        t.utility,
        t.points,
        t.moves,
        t.nodes,
        t.time.as_secs_f64(),
        t.slowest.as_secs_f64(),
        t.depth_per_move()
    )
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes the whole CSV at once (replacing the file only when complete).
fn write_csv(path: &Path, header: &str, lines: impl Iterator<Item = String>) -> Result<()> {
    othbook::atomic_file::replace(path, |w| {
        writeln!(w, "{header}")?;
        for l in lines {
            writeln!(w, "{l}")?;
        }
        Ok(())
    })
    .with_context(|| format!("cannot write {}", path.display()))
}

fn run_tournament_cmd(a: TournamentArgs, out: &mut impl Write) -> Result<()> {
    let kind = game_kind(&a.common)?;
    let csv = claim_file(a.csv.as_ref(), "--csv", REPORT)?;
    let specs = parse_players(&a.players)?;
    let n = seats(kind);
    if specs.len() < n {
        return Err(bad(format!(
            "--players: {kind} has {n} seats; give at least {n} players"
        )));
    }
    if a.limits.is_empty() {
        return Err(bad("--limits: give at least one time limit"));
    }
    for &l in &a.limits {
        seconds("--limits", l)?;
    }
    if !(1..=100_000).contains(&a.games) {
        return Err(bad("--games must be 1 to 100000"));
    }
    let settings = MatchSettings {
        games: a.games,
        seed: a.common.seed,
        time: None,
        opening: a.common.opening.unwrap_or(kind.default_opening()),
    };
    struct T<'a>(&'a [AgentSpec], &'a [f64], &'a MatchSettings);
    impl Visit for T<'_> {
        type Out = Vec<TournamentRow>;
        fn visit<G: Game + 'static, H: Heuristic<G> + Clone + 'static>(
            self,
            make: &dyn Fn(u64) -> G,
            h: H,
        ) -> Vec<TournamentRow> {
            let tty = std::io::stderr().is_terminal();
            run_tournament(make, &h, self.0, self.1, self.2, &mut |label| {
                if tty {
                    eprintln!("{label}");
                }
            })
        }
    }
    let rows = kind.visit(T(&specs, &a.limits, &settings));
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    if let Some(csv) = &csv {
        write_csv(
            csv.path(),
            "game,limit,player,games,wins,draws,losses,score,mean_utility,nodes_per_move,secs_per_move,slowest_move,depth_per_move",
            rows.iter().map(|r| tournament_csv(kind, r, &names)),
        )?;
    }
    writeln!(
        out,
        "{kind}: {} games per group of {n} and limit, seats rotating, seed {}",
        a.games, a.common.seed
    )?;
    render_tournament(out, &names, &a.limits, &rows)
}

fn tournament_csv(kind: GameKind, r: &TournamentRow, names: &[String]) -> String {
    let t = &r.tally;
    format!(
        "{kind},{},{},{},{},{},{},{:.2},{:.3},{:.1},{:.6},{:.6},{:.3}",
        r.limit,
        csv_field(&names[r.player]),
        t.games,
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        t.mean_utility(),
        t.nodes_per_move(),
        t.secs_per_move(),
        t.slowest.as_secs_f64(),
        t.depth_per_move()
    )
}

/// How a tournament table shows one player's tally.
type Cell = fn(&Tally) -> String;

fn render_tournament(
    out: &mut impl Write,
    names: &[String],
    limits: &[f64],
    rows: &[TournamentRow],
) -> Result<()> {
    let cell = |p: usize, l: f64| rows.iter().find(|r| r.player == p && r.limit == l);
    let tables: [(&str, Cell); 3] = [
        ("score % (wins + shared draws)", |t| {
            format!("{:.1}%", t.score())
        }),
        ("nodes per move", |t| format!("{:.0}", t.nodes_per_move())),
        ("mean depth completed", |t| {
            format!("{:.2}", t.depth_per_move())
        }),
    ];
    for (title, show) in tables {
        write!(out, "\n{:<32}", title)?;
        for l in limits {
            write!(out, " {:>10}", format!("{l}s"))?;
        }
        writeln!(out)?;
        for (p, name) in names.iter().enumerate() {
            write!(out, "{name:<32}")?;
            for &l in limits {
                write!(
                    out,
                    " {:>10}",
                    cell(p, l).map_or(String::new(), |r| show(&r.tally))
                )?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

fn run_show(a: ShowArgs, out: &mut impl Write) -> Result<()> {
    let kind = game_kind(&a.common)?;
    let n = seats(kind);
    let default = if n == 3 {
        "maxn:depth=3,paranoid:depth=3,greedy"
    } else {
        "alphabeta:depth=4,greedy"
    };
    let specs = parse_players(a.players.as_deref().unwrap_or(default))?;
    if specs.len() != n {
        return Err(bad(format!(
            "--players: {kind} has {n} seats; give {n} players, not {}",
            specs.len()
        )));
    }
    let time = a.time.map(|t| seconds("--time", t)).transpose()?;
    // Shown from the start: random opening plies only when asked for.
    let opening = a.common.opening.unwrap_or(0);
    struct S<'a>(&'a [AgentSpec], Option<Duration>, u64, u32);
    impl Visit for S<'_> {
        type Out = String;
        fn visit<G: Game + 'static, H: Heuristic<G> + Clone + 'static>(
            self,
            make: &dyn Fn(u64) -> G,
            h: H,
        ) -> String {
            let S(specs, time, seed, opening) = self;
            show_game(
                &make(board_seed(seed, 0, specs.len())),
                &h,
                specs,
                time,
                seed,
                opening,
            )
        }
    }
    out.write_all(
        kind.visit(S(&specs, time, a.common.seed, opening))
            .as_bytes(),
    )?;
    Ok(())
}

fn show_game<G: Game + 'static, H: Heuristic<G> + Clone + 'static>(
    game: &G,
    h: &H,
    specs: &[AgentSpec],
    time: Option<Duration>,
    seed: u64,
    opening: u32,
) -> String {
    let mut agents: Vec<Box<dyn Agent<G>>> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let s = time.map_or_else(|| s.clone(), |t| s.with_time(t));
            s.build(h.clone(), seed.wrapping_add(i as u64))
        })
        .collect();
    let mut text = String::new();
    for (i, s) in specs.iter().enumerate() {
        text.push_str(&format!("{}: {s}\n", game.player_name(i)));
    }
    text.push_str(&format!(
        "\nstart (seed {seed}):\n{}",
        game.render(&game.initial())
    ));
    let mut turn = 0;
    let mut seated: Vec<&mut Box<dyn Agent<G>>> = agents.iter_mut().collect();
    let mut rng = Rng::new(board_seed(seed, 0, specs.len()) ^ 0x0FE7);
    let (end, tallies) = play_game(game, &mut seated, time, opening, &mut rng, |seat, a, s| {
        turn += 1;
        text.push_str(&format!(
            "\n{turn}. {} plays {a}\n{}",
            game.player_name(seat),
            game.render(s)
        ));
    });
    let u = game.utilities(&end);
    text.push_str("\nresult:");
    for (i, t) in tallies.iter().enumerate() {
        let r = if t.wins > 0 {
            "wins"
        } else if t.draws > 0 {
            "draws"
        } else {
            "loses"
        };
        text.push_str(&format!(
            " {} {r} (utility {:+}, {} nodes);",
            game.player_name(i),
            u[i],
            t.nodes
        ));
    }
    text.pop();
    text.push('\n');
    text
}
