//! Imported books in use: GTP and NBoard play from an imported Edax book, a player does not
//! take a book move worth less than a score without its move, and `top --by value` walks an
//! imported book's positions.

mod common;
use common::edax::*;
use othbook::board::{parse_moves, Board, Position};
use othbook::book::Book;

#[test]
fn gtp_and_nboard_play_from_an_imported_edax_book() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["book", "import", &ray(), "-o", "ray.book"]);
    let path = d.join("ray.book");
    let book = Book::open(&path).unwrap();
    for line in ["f5", "f5f6", "f5f6e6"] {
        let pos = Position::START
            .replay(parse_moves(line).unwrap())
            .unwrap()
            .end;
        let moves = book.best_moves(&pos.board);
        assert!(!moves.is_empty(), "{line}: ray1457 has values here");
        let top = moves[0].score.score;
        let best: Vec<String> = moves
            .iter()
            .filter(|m| m.score.score == top)
            .map(|m| m.mv.to_string().to_uppercase())
            .collect();
        // GTP: genmove answers a best move of the imported book.
        let mut script = String::new();
        let mut p = Position::START;
        for mv in parse_moves(line).unwrap() {
            script.push_str(&format!("play {} {mv}\n", p.side));
            p = p.play(mv).unwrap();
        }
        script.push_str(&format!("genmove {}\nquit\n", p.side));
        let player = format!("engine:book={},depth=1,threads=1,hash=1", path.display());
        let out = common::othbook()
            .args(["gtp", "--player", &player, "--time", "0.05"])
            .write_stdin(script)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<&str> = text.split("\n\n").filter(|s| !s.is_empty()).collect();
        let answer = answers[answers.len() - 2].trim_start_matches("= ");
        assert!(
            best.iter().any(|b| b == answer),
            "{line}: {answer} not in {best:?}"
        );
        // NBoard: hint lists the book's moves with their values, go plays a best one.
        let game = common::nboard_game(line);
        let script = format!("nboard 2\nset depth 1\nset game {game};)\nhint 2\ngo\nquit\n");
        let out = common::othbook()
            .args(["nboard", "--time", "0.2", "--hash", "1", "--book"])
            .arg(&path)
            .write_stdin(script)
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let hints: Vec<Vec<&str>> = text
            .lines()
            .filter(|l| l.starts_with("book "))
            .map(|l| l.split_whitespace().collect())
            .collect();
        // NBoard lists moves that the position's symmetry makes equal each on its own.
        assert!(!hints.is_empty(), "{text}");
        assert!(best.iter().any(|b| b == hints[0][1]), "{text}");
        assert_eq!(
            hints[0][2].parse::<f64>().unwrap(),
            moves[0].score.discs(),
            "{text}"
        );
        let go = text.lines().find(|l| l.starts_with("=== ")).unwrap();
        let played = go[4..].split('/').next().unwrap();
        assert!(
            best.iter().any(|b| b == played),
            "{line}: {go} not in {best:?}"
        );
    }
}

#[test]
fn a_player_does_not_take_a_book_move_worse_than_an_unnamed_score() {
    // After f5, white's record has a value (+2 for white) but no leaf; d6 leads into the
    // book at −1 for white. The best move is out of the book and unnamed: the book must
    // not choose d6, and the player searches instead.
    let line = |s: &str| {
        Position::START
            .replay(parse_moves(s).unwrap())
            .unwrap()
            .end
            .board
    };
    let bits = |b: &Board| (b.player().0, b.opponent().0);
    let mut eg = b"DICUORAGE\x02".to_vec();
    eg.extend(2i32.to_le_bytes());
    eg.extend(egbk2_record(bits(&line("f5")), 2, 8, &[]));
    eg.extend(egbk2_record(bits(&line("f5d6")), 1, 8, &[]));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("p.egbk2"), &eg).unwrap();
    ok(d, &["book", "import", "p.egbk2", "-o", "p.book"]);
    let book = Book::open(d.join("p.book")).unwrap();
    let after = line("f5");
    assert_eq!(book.value(&after).map(|s| s.score), Some(200));
    let listed = book.best_moves(&after);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].score.score, -100);
    let mut rng = othbook::rng::Rng::new(1);
    let pick = othbook::play::book_choice::choose(&book, &after, 0.0, &mut rng).unwrap();
    assert_eq!(
        pick, None,
        "the book chose a move worth less than its value"
    );
}

#[test]
fn top_by_value_walks_the_positions_of_an_imported_book() {
    // An evaluated WTHOR book through Edax's format: the same positions, no games.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    evaluated_wthor(d, None);
    ok(
        d,
        &["book", "export", "w.book", "--to", "edax", "-o", "w.dat"],
    );
    ok(d, &["book", "import", "w.dat", "-o", "imported.book"]);
    let book = Book::open(d.join("imported.book")).unwrap();
    let out = ok(
        d,
        &[
            "top",
            "--by",
            "value",
            "--book",
            "imported.book",
            "--plies",
            "8",
            "--limit",
            "50",
            "--format",
            "tsv",
        ],
    );
    // The columns by name: the table's layout is for people.
    let mut lines = out.lines();
    let head: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).expect(name);
    let (line_col, value_col) = (col("line"), col("value"));
    let rows: Vec<(String, f64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[line_col].to_string(), f[value_col].parse().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), 50, "{out}");
    let mut seen = std::collections::HashSet::new();
    for w in rows.windows(2) {
        assert!(w[0].1 >= w[1].1, "best first: {out}");
    }
    for (line, value) in &rows {
        let moves = parse_moves(line).unwrap();
        assert_eq!(moves.len(), 8, "{line}");
        // Every position along the line is in the book, and the value is the book's.
        let mut pos = Position::START;
        for mv in moves {
            pos = pos.play(mv).unwrap();
            assert!(book.value(&pos.board).is_some(), "{line}: left the book");
        }
        let v = book.value(&pos.board).unwrap().discs();
        let black = if pos.side == othbook::board::Color::Black {
            v
        } else {
            -v
        };
        assert_eq!(black, *value, "{line}");
        assert!(seen.insert(line.clone()), "{line} twice");
    }
    // Every line of games is a line through the book's positions (up to the images that
    // symmetric positions make equal): none reaches a better value than the first row.
    let games = ok(
        d,
        &["top", "--book", "w.book", "--plies", "8", "--limit", "500"],
    );
    let original = Book::open(d.join("w.book")).unwrap();
    let mut best_game_line = f64::MIN;
    for l in games.lines().filter_map(|l| l.split_whitespace().nth(1)) {
        let Ok(moves) = parse_moves(l) else { continue };
        if moves.len() != 8 {
            continue;
        }
        let end = Position::START.replay(moves).unwrap().end;
        if let Some(v) = original.value(&end.board) {
            let v = (v.discs()).round();
            let black = if end.side == othbook::board::Color::Black {
                v
            } else {
                -v
            };
            best_game_line = best_game_line.max(black);
        }
    }
    assert!(best_game_line > f64::MIN, "{games}");
    assert!(
        rows[0].1 >= best_game_line,
        "{best_game_line} above the first row: {out}"
    );
}
