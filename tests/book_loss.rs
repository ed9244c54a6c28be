//! `book loss`: a line's per-move loss against the book's best and each side's accumulated
//! loss, checked against the values of a fixture book (the fake evaluated book, whose values
//! are known) and in every output form, and the explore API's `line_losses`.

mod common;

use common::web::TestServer;
use common::{default_without_values, fake_evaluated_book, othbook, stdout_of};
use othbook::board::{parse_moves, Move, Position};
use othbook::book::Book;
use othbook::serve::{AppState, BookSpec, ServeOptions};
use serde_json::Value;

/// The book's value of the position after `line` for its side to move, in hundredths.
fn value_after(book: &Book, line: &[Move]) -> Option<i32> {
    let pos = Position::START.replay(line.iter().copied()).unwrap().end;
    book.value(&pos.board).map(|v| i32::from(v.score))
}

fn loss_json(line: &str) -> Value {
    let book = fake_evaluated_book().to_str().unwrap();
    serde_json::from_str(&stdout_of(&[
        "book", "loss", book, line, "--format", "json",
    ]))
    .unwrap()
}

fn discs(h: i32) -> f64 {
    f64::from(h) / 100.0
}

#[test]
fn each_move_loses_the_books_best_value_minus_its_own_and_the_sides_add_up() {
    let book = Book::open(fake_evaluated_book()).unwrap();
    // A line of the book's best moves, then at each of three plies the worst move the book
    // holds a value for: every loss is known beforehand from the book's values.
    let mut line: Vec<Move> = Vec::new();
    let mut expected: Vec<i32> = Vec::new();
    for ply in 0..12 {
        let pos = Position::START.replay(line.iter().copied()).unwrap().end;
        let ranked = book.best_moves(&pos.board);
        if ranked.is_empty() {
            break;
        }
        // The worst move that stays in the book, so that the line keeps its values.
        let worst = ranked.iter().rev().find(|m| m.in_book).copied();
        let pick = match worst {
            Some(w) if [3, 6, 9].contains(&ply) => w,
            _ => ranked[0],
        };
        let best = value_after(&book, &line).unwrap();
        expected.push(best - i32::from(pick.score.score));
        line.push(pick.mv);
        // A move into the book is worth minus its position's value.
        if pick.in_book {
            assert_eq!(
                -value_after(&book, &line).unwrap(),
                i32::from(pick.score.score)
            );
        }
    }
    assert!(
        expected.iter().filter(|&&l| l > 0).count() >= 2,
        "{expected:?}"
    );
    let text = othbook::board::format_moves(&line);
    let v = loss_json(&text);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), line.len());
    let (mut black, mut white) = (0, 0);
    for (i, (m, want)) in moves.iter().zip(&expected).enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["loss"].as_f64().unwrap(), discs(*want), "ply {}", i + 1);
        let (b, p) = (
            m["best_value"].as_f64().unwrap(),
            m["value"].as_f64().unwrap(),
        );
        assert!((b - p - discs(*want)).abs() < 1e-9);
        if i % 2 == 0 {
            assert_eq!(m["side"], "black");
            black += want;
        } else {
            assert_eq!(m["side"], "white");
            white += want;
        }
        assert_eq!(m["black_loss"].as_f64().unwrap(), discs(black));
        assert_eq!(m["white_loss"].as_f64().unwrap(), discs(white));
    }
    assert_eq!(v["black_loss"].as_f64().unwrap(), discs(black));
    assert_eq!(v["white_loss"].as_f64().unwrap(), discs(white));
    assert_eq!(v["unknown"], 0);

    // The table and the TSV say the same.
    let b = fake_evaluated_book().to_str().unwrap();
    let tsv = stdout_of(&["book", "loss", b, &text, "--format", "tsv"]);
    let rows: Vec<Vec<&str>> = tsv
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    for (row, m) in rows.iter().zip(moves) {
        assert_eq!(row[2], m["move"].as_str().unwrap());
        assert_eq!(row[6].parse::<f64>().unwrap(), m["loss"].as_f64().unwrap());
        assert_eq!(
            row[7].parse::<f64>().unwrap(),
            m["black_loss"].as_f64().unwrap()
        );
    }
    let table = stdout_of(&["book", "loss", b, &text]);
    let total = format!(
        "total loss: black {:.2}, white {:.2} discs",
        discs(black),
        discs(white)
    );
    assert!(table.contains(&total), "{table}");
}

#[test]
fn a_move_beyond_the_books_values_has_no_loss_and_is_not_counted() {
    // Along the book's best moves until it has no value, then two legal moves more: those
    // are unknown, not zero.
    let book = Book::open(fake_evaluated_book()).unwrap();
    let mut line: Vec<Move> = Vec::new();
    let mut extra = 0;
    while extra < 2 {
        let pos = Position::START.replay(line.iter().copied()).unwrap().end;
        let mv = match book.best_moves(&pos.board).first() {
            Some(m) if extra == 0 => m.mv,
            _ => {
                extra += 1;
                Move::Play(pos.board.legal_moves().iter().next().expect("a legal move"))
            }
        };
        line.push(mv);
    }
    let v = loss_json(&othbook::board::format_moves(&line));
    let moves = v["moves"].as_array().unwrap();
    let unknown = moves.iter().filter(|m| m["loss"].is_null()).count();
    assert_eq!(v["unknown"], unknown);
    assert!(unknown > 0, "{v}");
    let known: f64 = moves.iter().filter_map(|m| m["loss"].as_f64()).sum();
    let total = v["black_loss"].as_f64().unwrap() + v["white_loss"].as_f64().unwrap();
    assert!((known - total).abs() < 1e-6, "{known} {total}");
}

#[test]
fn the_loss_of_a_line_needs_a_book_with_values() {
    let plain = default_without_values().to_str().unwrap();
    let got = othbook()
        .args(["book", "loss", plain, "f5d6"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&got.get_output().stderr).to_string();
    assert!(err.contains("no values"), "{err}");
    let book = fake_evaluated_book().to_str().unwrap();
    let got = othbook()
        .args(["book", "loss", book, "f5f5"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&got.get_output().stderr).to_string();
    assert!(err.contains("f5"), "{err}");
}

#[test]
fn the_explore_answer_carries_the_lines_losses_so_far() {
    let spec = BookSpec::parse(&format!("fake={}", fake_evaluated_book().display())).unwrap();
    let (state, _) = AppState::from_files(&[spec], ServeOptions::new(8, 2, 100).unwrap()).unwrap();
    let server = TestServer::start_state(state);
    let line = "f5f6e6f4";
    let v = server.json(&format!("/api/v1/explore?moves={line}"));
    assert_eq!(v["line_losses"], loss_json(line));
    assert_eq!(
        v["line_losses"]["moves"].as_array().unwrap().len(),
        parse_moves(line).unwrap().len()
    );
}
