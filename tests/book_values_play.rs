//! Playing from an evaluated book: the `engine` and `better` players, GTP and NBoard choose
//! book moves by value (the best, or at random within `book-randomness` discs of it), and
//! NBoard's `hint` gives the values as `book` lines.
//!
//! The evaluated book is the default book with deterministic stand-in leaf scores
//! ([`common::fake_leaf`]): what is checked is that players follow the book's values.

mod common;

use common::{after, fake_evaluated_book, othbook, partly_evaluated_book};
use othbook::board::{parse_moves, Move, Position};
use othbook::book::{Book, MoveValue};
use othbook::play::book_choice::book_move;
use othbook::play::spec::PlayerSpec;
use othbook::play::{Budget, GameState};

/// Lines into the book, black and white to move.
const LINES: &[&str] = &[
    "f5",
    "f5d6",
    "f5f6",
    "f5d6c3",
    "f5d6c5",
    "f5f6e6f4",
    "f5d6c3d3c4",
    "f5d6c3d3c4f4f6f3e6e7",
];

fn game(line: &str) -> GameState {
    let mut g = GameState::new(Position::START);
    for mv in parse_moves(line).unwrap() {
        g.play(mv).unwrap();
    }
    g
}

/// The move `spec`'s player chooses after `line`.
fn choice(spec: &str, line: &str) -> Move {
    let spec: PlayerSpec = spec.parse().unwrap();
    let mut player = spec.build().unwrap();
    player.choose(&game(line), Budget::UNLIMITED).unwrap().mv
}

/// The moves whose value is within `discs` of the best after `line`.
fn within(book: &Book, line: &str, discs: f64) -> Vec<MoveValue> {
    let moves = book.best_moves(&after(line).board);
    let best = moves[0].score.score;
    moves
        .into_iter()
        .filter(|m| f64::from(best - m.score.score) <= discs * 100.0 + 1e-9)
        .collect()
}

/// A line after which some moves are within `discs` of the best and some are not.
fn near_and_far(book: &Book, discs: f64) -> &'static str {
    LINES
        .iter()
        .find(|l| {
            let near = within(book, l, discs).len();
            near >= 2 && near < book.best_moves(&after(l).board).len()
        })
        .expect("a position with near and far moves")
}

fn spec_for(kind: &str, book: &std::path::Path, extra: &str) -> String {
    let search = if kind == "engine" {
        ",depth=1,threads=1,hash=1"
    } else {
        ""
    };
    format!("{kind}:book={}{search}{extra}", book.display())
}

#[test]
fn engine_and_better_play_the_best_value_move() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    let mut differs_from_games = 0;
    for line in LINES {
        let best: Vec<Move> = within(&book, line, 0.0).iter().map(|m| m.mv).collect();
        for kind in ["engine", "better"] {
            let mv = choice(&spec_for(kind, path, ""), line);
            assert!(
                best.contains(&mv),
                "{kind} after {line}: {mv} not in {best:?}"
            );
        }
        // The same book read by its games would often play something else: the test tells
        // the two apart.
        let by_games = book_move(&book, &after(line).board).unwrap().map(|m| m.0);
        if by_games.is_some_and(|g| !best.contains(&g)) {
            differs_from_games += 1;
        }
    }
    assert!(differs_from_games >= 2, "{differs_from_games}");
}

#[test]
fn book_randomness_stays_within_its_margin() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    let line = near_and_far(&book, 3.0);
    let near: Vec<Move> = within(&book, line, 3.0).iter().map(|m| m.mv).collect();
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        for kind in ["engine", "better"] {
            let spec = spec_for(kind, path, &format!(",book-randomness=3,seed={seed}"));
            let mv = choice(&spec, line);
            assert!(
                near.contains(&mv),
                "{spec} after {line}: {mv} not in {near:?}"
            );
            chosen.insert(mv);
        }
    }
    assert!(chosen.len() >= 2, "random among the near moves: {chosen:?}");
    // A seed repeats its choices.
    let spec = spec_for("engine", path, ",book-randomness=3,seed=11");
    let picks = |_| choice(&spec, line);
    assert_eq!((0..5).map(picks).collect::<Vec<_>>()[..], [picks(0); 5]);
}

#[test]
fn gtp_genmove_plays_the_best_value_move() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    let player = spec_for("engine", path, "");
    for line in ["f5", "f5d6c3d3"] {
        let mut script = String::new();
        let mut pos = Position::START;
        for mv in parse_moves(line).unwrap() {
            script.push_str(&format!("play {} {mv}\n", pos.side));
            pos = pos.play(mv).unwrap();
        }
        script.push_str(&format!("genmove {}\nquit\n", pos.side));
        let out = othbook()
            .args(["gtp", "--player", &player, "--time", "0.05"])
            .write_stdin(script)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<&str> = text.split("\n\n").filter(|s| !s.is_empty()).collect();
        // The genmove answer, before quit's.
        let answer = answers[answers.len() - 2];
        let best: Vec<String> = within(&book, line, 0.0)
            .iter()
            .map(|m| format!("= {}", m.mv.to_string().to_uppercase()))
            .collect();
        assert!(
            best.iter().any(|b| b == answer),
            "{line}: {answer:?} not in {best:?}"
        );
    }
}

/// Runs an NBoard session with the fake-evaluated book after `line`; stdout's lines.
fn nboard(line: &str, commands: &str, extra: &[&str]) -> Vec<String> {
    nboard_with(fake_evaluated_book(), line, commands, extra)
}

/// Runs an NBoard session with `book` after `line`; returns stdout's lines.
fn nboard_with(book: &std::path::Path, line: &str, commands: &str, extra: &[&str]) -> Vec<String> {
    let game = common::nboard_game(line);
    let script = format!("nboard 2\nset depth 1\nset game {game};)\n{commands}quit\n");
    let out = othbook()
        .args(["nboard", "--time", "0.2", "--hash", "1", "--book"])
        .arg(book)
        .args(extra)
        .write_stdin(script)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn nboard_hint_gives_book_lines_with_values_and_go_plays_the_best() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    for line in ["f5d6", "f5d6c3d3c4", "f5d6c3d3c4f4f6f3e6e7"] {
        let pos = after(line);
        let moves = book.best_moves(&pos.board);
        let out = nboard(line, "hint 3\ngo\n", &[]);
        let hints: Vec<Vec<&str>> = out
            .iter()
            .filter(|l| l.starts_with("book "))
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(hints.len(), moves.len().min(3), "{out:?}");
        for (h, m) in hints.iter().zip(&moves) {
            // book PV EVAL GAMES DEPTH TEXT, EVAL for the side to move.
            assert_eq!(h[1], m.mv.to_string().to_uppercase(), "{out:?}");
            assert_eq!(h[2].parse::<f64>().unwrap(), m.score.discs(), "{out:?}");
            assert_eq!(h[4], m.score.depth.to_string(), "{out:?}");
            assert_eq!(h[5], "value", "{out:?}");
        }
        let go = out.iter().find(|l| l.starts_with("=== ")).unwrap();
        let best: Vec<String> = within(&book, line, 0.0)
            .iter()
            .map(|m| {
                format!(
                    "=== {}/{:.2}/0.00",
                    m.mv.to_string().to_uppercase(),
                    m.score.discs()
                )
            })
            .collect();
        assert!(best.contains(go), "{line}: {go} not in {best:?}");
    }
    // --book-randomness: `go` within the margin.
    let line = near_and_far(&book, 3.0);
    let near: Vec<String> = within(&book, line, 3.0)
        .iter()
        .map(|m| m.mv.to_string().to_uppercase())
        .collect();
    assert!(near.len() >= 2, "{near:?}");
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let seed = seed.to_string();
        let out = nboard(line, "go\n", &["--book-randomness", "3", "--seed", &seed]);
        let go = out.iter().find(|l| l.starts_with("=== ")).unwrap();
        assert!(near.iter().any(|n| go[4..6] == *n), "{go} not in {near:?}");
        chosen.insert(go[4..6].to_string());
    }
    assert!(chosen.len() >= 2, "{chosen:?}");
}

#[test]
fn nboard_hint_without_values_lists_games_as_before() {
    let out = othbook()
        .args(["nboard", "--time", "0.2", "--hash", "1", "--book"])
        .arg(common::default_without_values())
        .write_stdin(
            "nboard 2\nset depth 1\nset game (;GM[Othello]PC[t]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\nhint 2\nquit\n",
        )
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let books: Vec<&str> = text.lines().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(books.len(), 2, "{text}");
    for b in books {
        // book PV EVAL GAMES DEPTH: the games' average, their count, the empties left.
        let f: Vec<&str> = b.split_whitespace().collect();
        assert_eq!(f[4], "59", "{b}");
        assert!(b.ends_with("% points"), "{b}");
    }
}

/// In a book evaluated only part of the way (`book evaluate --plies 8`), positions without a
/// value are played and hinted by their games, as in a book without values.
#[test]
fn positions_without_a_value_are_played_by_their_games() {
    let path = partly_evaluated_book();
    let book = Book::open(path).unwrap();
    let shallow = "f5d6c3d3c4f4f6";
    let deep = "f5d6c3d3c4f4f6f3e6e7";
    assert!(book.value(&after(shallow).board).is_some());
    assert!(book.value(&after(deep).board).is_none());
    let by_games = book_move(&book, &after(deep).board).unwrap().unwrap().0;
    let best: Vec<Move> = within(&book, shallow, 0.0).iter().map(|m| m.mv).collect();
    for kind in ["engine", "better"] {
        assert_eq!(choice(&spec_for(kind, path, ""), deep), by_games, "{kind}");
        let mv = choice(&spec_for(kind, path, ""), shallow);
        assert!(best.contains(&mv), "{kind}: {mv} not in {best:?}");
    }
    let hint = |line| {
        nboard_with(path, line, "hint 2\n", &[])
            .into_iter()
            .filter(|l| l.starts_with("book "))
            .collect::<Vec<_>>()
    };
    let deep_hints = hint(deep);
    assert_eq!(deep_hints.len(), 2);
    assert!(
        deep_hints.iter().all(|l| l.ends_with("% points")),
        "{deep_hints:?}"
    );
    let shallow_hints = hint(shallow);
    assert!(
        shallow_hints
            .iter()
            .all(|l| l.contains(" value (mid, depth ")),
        "{shallow_hints:?}"
    );
}

/// The default book's real values (searched by `book evaluate`) against its game statistics:
/// the same engine, at a fixed depth on one thread so the games are deterministic, playing the 100 most
/// played 6-ply lines with each colour; the one playing book moves by value must score more.
#[test]
fn a_player_using_the_values_beats_the_same_player_using_the_games() {
    // Absolute: the match runs in another folder.
    let default = std::fs::canonicalize(othbook::book::default_path()).unwrap();
    assert!(
        Book::open(&default).unwrap().has_values(),
        "the default book is shipped evaluated (books/README.md)"
    );
    let dir = tempfile::tempdir().unwrap();
    common::default_book_without_values(dir.path());
    let lines = othbook()
        .args(["top", "--plies", "6", "--limit", "100", "--format", "tsv"])
        .output()
        .unwrap();
    let openings: String = String::from_utf8_lossy(&lines.stdout)
        .lines()
        .skip(1)
        .map(|l| format!("{}\n", l.split('\t').next().unwrap()))
        .collect();
    std::fs::write(dir.path().join("open.txt"), openings).unwrap();
    let out = othbook()
        .current_dir(dir.path())
        .env(othbook::book::BOOK_ENV, &default)
        .args(["match", "--openings", "open.txt", "--games", "200"])
        .args(["--black", "engine:depth=5,threads=1"])
        .args(["--white", "engine:depth=5,threads=1,book=no-values.book"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let points = |name: &str| -> f64 {
        let row = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{text}"));
        row.split_whitespace().nth(5).unwrap().parse().unwrap()
    };
    let (values, games) = (
        points("engine:depth=5,threads=1 "),
        points("engine:book=no-values"),
    );
    assert_eq!(values + games, 200.0, "{text}");
    assert!(
        values > games,
        "values {values} against games {games}:\n{text}"
    );
}

/// Regression: a match run with `$OTHBOOK_BOOK` naming a file that does not exist (here a
/// relative path from another folder) played without any book, silently.
#[test]
fn regression_missing_othbook_book_was_silently_no_book() {
    let dir = tempfile::tempdir().unwrap();
    let out = othbook()
        .current_dir(dir.path())
        .env(othbook::book::BOOK_ENV, "books/wthor.book")
        .args([
            "match",
            "--black",
            "engine:depth=1",
            "--white",
            "random",
            "--games",
            "1",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("books/wthor.book"), "{err}");
}
