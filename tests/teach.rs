//! The classic game-search players over every game: tic-tac-toe's tree, the algorithms'
//! agreements on random positions, the robot game's rules, MCTS convergence, `teach` commands.

mod common;

use othbook::rng::Rng;
use othbook::teach::expectimax::expectimax_value;
use othbook::teach::maxn::maxn_values;
use othbook::teach::mcts::{Budget as MctsBudget, Mcts};
use othbook::teach::minimax::{search_value, Method};
use othbook::teach::othello::{Discs, Othello};
use othbook::teach::robots::{Action, Cell, Dir, Prospects, Robots, Warehouse};
use othbook::teach::tictactoe::{Grid, OpenLines, TicTacToe};
use othbook::teach::{Game, Heuristic};
use proptest::prelude::*;
use std::collections::HashSet;

const MINIMAX: Method = Method {
    prune: false,
    order: false,
};
const ALPHABETA: Method = Method {
    prune: true,
    order: false,
};
const ORDERED: Method = Method {
    prune: true,
    order: true,
};

/// Every position reachable in tic-tac-toe.
fn reachable() -> Vec<Grid> {
    let g = TicTacToe;
    let mut seen = HashSet::new();
    let mut stack = vec![g.initial()];
    while let Some(s) = stack.pop() {
        if seen.insert(s) {
            stack.extend(g.actions(&s).into_iter().map(|a| g.apply(&s, a)));
        }
    }
    seen.into_iter().collect()
}

#[test]
fn tictactoe_is_a_draw_and_pruning_saves_nodes() {
    let g = TicTacToe;
    let s = g.initial();
    let (v, minimax) = search_value(&g, &OpenLines, &s, 9, MINIMAX);
    let (va, alphabeta) = search_value(&g, &OpenLines, &s, 9, ALPHABETA);
    let (vo, ordered) = search_value(&g, &OpenLines, &s, 9, ORDERED);
    assert_eq!((v, va, vo), (0.0, 0.0, 0.0));
    // The full game tree has 549,946 nodes (the empty board included).
    assert_eq!(minimax, 549_946);
    assert!(alphabeta < minimax / 10, "{alphabeta}");
    assert!(ordered < alphabeta, "{ordered} vs {alphabeta}");
    println!("tic-tac-toe full tree: minimax {minimax}, alpha-beta {alphabeta}, ordered {ordered}");
    // Expectimax over the full tree: Star1 pruning with utilities in -1..1 saves nodes.
    let (e, full) = expectimax_value(&g, &OpenLines, &s, 9, false);
    let (p, pruned) = expectimax_value(&g, &OpenLines, &s, 9, true);
    assert!((e - p).abs() < 1e-12 && e > 0.0, "{e} {p}");
    assert!(pruned < full, "{pruned} vs {full}");
    println!(
        "tic-tac-toe expectimax against random: value {e:.4}, {full} nodes, {pruned} with Star1"
    );
}

#[test]
fn minimax_and_alphabeta_agree_on_every_reachable_tictactoe_position() {
    let g = TicTacToe;
    let positions = reachable();
    assert_eq!(positions.len(), 5478);
    for s in positions {
        let (v, _) = search_value(&g, &OpenLines, &s, 9, MINIMAX);
        for m in [ALPHABETA, ORDERED] {
            assert_eq!(search_value(&g, &OpenLines, &s, 9, m).0, v, "{s:?}");
        }
    }
}

/// A position `plies` random moves into `game`.
fn random_state<G: Game>(game: &G, seed: u64, plies: usize) -> G::State {
    let mut rng = Rng::new(seed);
    let mut s = game.initial();
    for _ in 0..plies {
        if game.is_terminal(&s) {
            break;
        }
        s = game.apply(&s, game.random_action(&s, &mut rng));
    }
    s
}

/// Minimax = alpha-beta (with and without ordering); expectimax with pruning = without;
/// on two players, max-n = minimax.
fn check_agreements<G: Game, H: Heuristic<G>>(game: &G, h: &H, s: &G::State, depth: u32) {
    let (v, n) = search_value(game, h, s, depth, MINIMAX);
    for m in [ALPHABETA, ORDERED] {
        let (w, k) = search_value(game, h, s, depth, m);
        assert_eq!(w, v, "{m:?}");
        assert!(k <= n || m.order, "{k} > {n}");
    }
    let (e, full) = expectimax_value(game, h, s, depth, false);
    let (p, pruned) = expectimax_value(game, h, s, depth, true);
    assert!((e - p).abs() <= 1e-9 * e.abs().max(1.0), "{e} vs {p}");
    assert!(pruned <= full);
    if game.players() == 2 {
        // search_value takes the point of view of to_move(s), terminal or not.
        let me = game.to_move(s);
        assert_eq!(maxn_values(game, h, s, depth).0[me], v);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn algorithms_agree_on_tictactoe(seed in any::<u64>(), plies in 0usize..7, depth in 1u32..6) {
        let g = TicTacToe;
        check_agreements(&g, &OpenLines, &random_state(&g, seed, plies), depth);
    }

    #[test]
    fn algorithms_agree_on_robots(seed in any::<u64>(), plies in 0usize..60, depth in 1u32..5) {
        let g = Robots::new(2, seed).unwrap();
        check_agreements(&g, &Prospects, &random_state(&g, seed, plies), depth);
    }

    #[test]
    fn algorithms_agree_on_three_robots(seed in any::<u64>(), plies in 0usize..90, depth in 1u32..4) {
        let g = Robots::new(3, seed).unwrap();
        check_agreements(&g, &Prospects, &random_state(&g, seed, plies), depth);
    }

    #[test]
    fn algorithms_agree_on_othello(seed in any::<u64>(), plies in 0usize..58, depth in 1u32..4) {
        let g = Othello;
        check_agreements(&g, &Discs, &random_state(&g, seed, plies), depth);
    }
}

/// A two-robot board with its layout, robots placed by hand for a rule test.
fn board() -> (Robots, Warehouse) {
    let g = Robots::new(2, 11).unwrap();
    let mut s = g.initial();
    // Robot A at c3 (row 2, col 2), robot B at a5 (top left), away from everything.
    s.robots[0].at = Cell(12);
    s.robots[1].at = Cell(0);
    s.packages[0].source = Cell(13);
    s.packages[0].destination = Cell(24);
    s.packages[1].source = Cell(20);
    s.packages[1].destination = Cell(4);
    (g, s)
}

fn without_charge(g: &Robots, s: &Warehouse) -> Vec<Action> {
    // Chargers fall where the seed put them; tests that are not about charging ignore them.
    g.actions(s)
        .into_iter()
        .filter(|&a| a != Action::Charge)
        .collect()
}

#[test]
fn robots_move_for_one_battery_and_not_off_the_board_or_onto_a_robot() {
    let (g, mut s) = board();
    let after = g.apply(&s, Action::Move(Dir::East));
    assert_eq!(after.robots[0].at, Cell(13));
    assert_eq!(after.robots[0].battery, s.robots[0].battery - 1);
    assert_eq!(after.turn, 1);
    assert_eq!(g.to_move(&after), 1);
    // Robot B in the top-left corner cannot go north or west.
    let b_moves = without_charge(&g, &after);
    assert!(!b_moves.contains(&Action::Move(Dir::North)));
    assert!(!b_moves.contains(&Action::Move(Dir::West)));
    assert!(b_moves.contains(&Action::Move(Dir::South)));
    // Nor onto robot B's cell.
    s.robots[0].at = Cell(1);
    assert!(!g.actions(&s).contains(&Action::Move(Dir::West)));
}

#[test]
fn robots_pick_up_only_waiting_packages_on_their_source_with_empty_hands() {
    let (g, mut s) = board();
    assert!(!g.actions(&s).contains(&Action::PickUp));
    s.robots[0].at = Cell(13);
    assert!(g.actions(&s).contains(&Action::PickUp));
    let after = g.apply(&s, Action::PickUp);
    assert_eq!(after.robots[0].holding, Some(0));
    assert_eq!(
        after.robots[0].battery, s.robots[0].battery,
        "picking up is free"
    );
    // Holding one, it cannot take another; nobody can take a carried package.
    let mut full = after;
    full.turn = 0;
    full.packages[1].source = Cell(13);
    full.robots[0].holding = Some(0);
    assert!(!g.actions(&full).contains(&Action::PickUp));
    let mut other = after;
    other.robots[1].at = Cell(13);
    other.robots[0].at = Cell(12);
    assert!(!g.actions(&other).contains(&Action::PickUp));
}

#[test]
fn robots_earn_twice_the_distance_on_delivery_and_a_new_package_appears() {
    let (g, mut s) = board();
    s.robots[0].holding = Some(0);
    assert!(!g.actions(&s).contains(&Action::DropOff), "not at c3");
    s.robots[0].at = Cell(24);
    let after = g.apply(&s, Action::DropOff);
    // From d3 (13) to e1 (24): 2 rows and 1 column, so 2 × 3 credit.
    assert_eq!(after.robots[0].credit, 6);
    assert_eq!(after.robots[0].holding, None);
    assert_eq!(after.packages[0], g.package(2));
    assert_eq!(after.next_package, 3);
    assert_eq!(after.packages[1], s.packages[1]);
}

#[test]
fn robots_charge_credit_into_battery_only_on_a_charger() {
    let (g, mut s) = board();
    let [c1, _] = g.chargers();
    s.robots[0].credit = 7;
    s.robots[0].battery = 3;
    s.robots[0].at = if s.robots[1].at == c1 {
        g.chargers()[1]
    } else {
        c1
    };
    assert!(g.actions(&s).contains(&Action::Charge));
    let after = g.apply(&s, Action::Charge);
    assert_eq!((after.robots[0].battery, after.robots[0].credit), (10, 0));
    s.robots[0].at = (0..25)
        .map(Cell)
        .find(|c| !g.chargers().contains(c) && *c != s.robots[1].at)
        .unwrap();
    assert!(!g.actions(&s).contains(&Action::Charge));
}

#[test]
fn robots_without_battery_pass_and_the_game_ends() {
    let (g, mut s) = board();
    s.robots[0].battery = 0;
    assert_eq!(g.actions(&s), vec![Action::Pass]);
    let after = g.apply(&s, Action::Pass);
    assert_eq!(after.robots[0], s.robots[0]);
    assert!(!g.is_terminal(&after));
    s.robots[1].battery = 0;
    s.robots[0].credit = 4;
    s.robots[1].credit = 9;
    assert!(g.is_terminal(&s));
    assert!(g.actions(&s).is_empty());
    assert_eq!(g.utilities(&s), vec![-5.0, 5.0]);
    // The turn limit: 60 turns each.
    let (g, mut s) = board();
    s.turn = 119;
    assert!(!g.is_terminal(&s));
    s.turn = 120;
    assert!(g.is_terminal(&s));
    assert_eq!(g.utilities(&s), vec![0.0, 0.0]);
}

#[test]
fn robot_layouts_come_from_the_seed() {
    for seed in 0..50 {
        let g = Robots::new(3, seed).unwrap();
        assert_eq!(g, Robots::new(3, seed).unwrap());
        let s = g.initial();
        let mut cells: Vec<Cell> = g.chargers().to_vec();
        cells.extend(s.robots.iter().map(|r| r.at));
        let distinct: HashSet<Cell> = cells.iter().copied().collect();
        assert_eq!(distinct.len(), 5, "seed {seed}");
        for k in 0..20 {
            let p = g.package(k);
            assert_ne!(p.source, p.destination);
            assert!(p.source.0 < 25 && p.destination.0 < 25);
        }
    }
    assert_ne!(Robots::new(2, 1).unwrap(), Robots::new(2, 2).unwrap());
    assert!(Robots::new(4, 1).is_err());
}

#[test]
fn mcts_converges_to_the_minimax_move_on_tictactoe() {
    let g = TicTacToe;
    let mut positions: Vec<Grid> = reachable()
        .into_iter()
        .filter(|s| !g.is_terminal(s) && g.actions(s).len() >= 4)
        .collect();
    positions.sort_by_key(|s| s.marks);
    let mut checked = 0;
    for s in positions.iter().step_by(97) {
        let me = g.to_move(s);
        let values: Vec<(_, f64)> = g
            .actions(s)
            .into_iter()
            .map(|a| {
                let (v, _) = search_value(&g, &OpenLines, &g.apply(s, a), 9, ALPHABETA);
                let v = if g.is_terminal(&g.apply(s, a)) || g.to_move(&g.apply(s, a)) != me {
                    -v
                } else {
                    v
                };
                (a, v)
            })
            .collect();
        let best = values.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let optimal: Vec<_> = values.iter().filter(|x| x.1 == best).map(|x| x.0).collect();
        if optimal.len() == values.len() {
            continue; // every move is as good: nothing to converge to
        }
        let mut mcts = Mcts::new(
            std::f64::consts::SQRT_2,
            MctsBudget {
                playouts: Some(20_000),
                time: None,
            },
            5,
            "mcts".into(),
        );
        let found = mcts.search(&g, s, None, 20_000);
        assert_eq!(found.playouts, 20_000);
        let a = found.best;
        assert!(optimal.contains(&a), "{s:?}: mcts {a}, minimax {optimal:?}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn teach_match_on_tictactoe_is_all_draws_between_perfect_players() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m.csv");
    let out = common::othbook()
        .args([
            "teach",
            "match",
            "--game",
            "tictactoe",
            "--players",
            "minimax,alphabeta:order=off",
            "--games",
            "2",
            "--csv",
            csv.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("minimax                              2    0    2    0"),
        "{text}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 5, "{rows}");
    assert!(lines[0].starts_with("game,board_seed,seat,player,result"));
    assert!(
        lines[1..].iter().all(|l| l.contains(",draw,0,0.5000,")),
        "{rows}"
    );
}

#[test]
fn teach_tournament_and_show_run_on_the_robot_games() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let out = common::othbook()
        .args([
            "teach",
            "tournament",
            "--game",
            "robots3",
            "--players",
            "greedy,maxn:depth=2,paranoid,random",
            "--limits",
            "0.002",
            "--games",
            "3",
            "--csv",
            csv.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("score %"), "{text}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    // Four players, one limit; each player sits in 3 of the 4 groups of three, 3 games each.
    assert_eq!(rows.lines().count(), 5, "{rows}");
    assert!(rows
        .lines()
        .skip(1)
        .all(|l| l.contains(",0.002,") && l.contains(",9,")));
    let out = common::othbook()
        .args(["teach", "show", "--game", "robots", "--seed", "7"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("robot A: alphabeta:depth=4"), "{text}");
    assert!(text.contains("1. robot A plays "), "{text}");
    assert!(text.contains("  a b c d e"), "{text}");
    assert!(text.contains("\nresult: robot A "), "{text}");
}

#[test]
fn teach_refuses_bad_arguments_with_exit_code_2() {
    for args in [
        &[
            "teach",
            "match",
            "--game",
            "chess",
            "--players",
            "random,random",
        ][..],
        &[
            "teach",
            "match",
            "--game",
            "robots3",
            "--players",
            "random,random",
        ],
        &[
            "teach",
            "match",
            "--game",
            "robots",
            "--players",
            "alphabeta:depth=0,random",
        ],
        &[
            "teach",
            "match",
            "--game",
            "robots",
            "--players",
            "greedy:depth=2,random",
        ],
        &[
            "teach",
            "tournament",
            "--game",
            "robots",
            "--players",
            "greedy,random",
            "--limits",
            "0",
        ],
        &["teach", "show", "--game", "othello", "--time", "nan"],
    ] {
        let out = common::othbook().args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
