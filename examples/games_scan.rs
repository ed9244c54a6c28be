//! Measures the game table of a book (docs/experiments.md, "The games behind a position"):
//! how long reading it and scanning it take, and how large full posting lists (every game's
//! number under every book position it reaches) would be instead.
//!
//! `cargo run --release --example games_scan -- BOOK`

use othbook::board::{parse_moves, Board, Position};
use othbook::book::games::GameSelection;
use othbook::book::key::Canonical;
use othbook::book::{Book, GameFilter, PlayerColor, RankBy, TopQuery, Years};
use std::collections::HashMap;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "books/wthor.book".into());
    let t = Instant::now();
    let book = Book::open(&path)?;
    println!("open and check every block: {:.1} ms", ms(t));
    let t = Instant::now();
    let table = book.games()?.ok_or("the book has no game table")?;
    println!("read the table ({} games): {:.1} ms", table.len(), ms(t));
    let plies = usize::from(book.info().options.plies());
    let filters = [
        ("no filter", GameFilter::default()),
        (
            "--player murakami",
            GameFilter::new(
                Some("murakami".into()),
                PlayerColor::Either,
                None,
                None,
                false,
            )
            .unwrap(),
        ),
        (
            "--years 2000-2010",
            GameFilter::new(
                None,
                PlayerColor::Either,
                Some(Years::new(2000, 2010).unwrap()),
                None,
                false,
            )
            .unwrap(),
        ),
    ];
    for line in [
        "",
        "f5",
        "f5d6c3",
        "f5d6c3d3c4f4f6f3e6e7",
        "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3h5",
    ] {
        let board: Board = Position::START.replay(parse_moves(line)?)?.end.board;
        for (name, f) in &filters {
            let sel = GameSelection::new(f, &table)?;
            let t = Instant::now();
            let n = 20;
            let mut found = 0;
            for _ in 0..n {
                found = table.find(&board, plies, Some(&sel), 1)?.matches.len();
            }
            println!(
                "find {line:<40} {name:<18} {found:>7} games  {:>7.2} ms",
                ms(t) / n as f64
            );
        }
    }
    let sel = GameSelection::new(&filters[1].1, &table)?;
    let t = Instant::now();
    let q = TopQuery {
        start: &[],
        plies: 20,
        limit: 20,
        by: RankBy::Games,
        min_games: 1,
        first: othbook::board::Square::F5,
    };
    let lines = table.top_lines(&q, plies, Some(&sel));
    println!(
        "top --plies 20 --player murakami: {} lines, {:.1} ms",
        lines.len(),
        ms(t)
    );

    // Posting lists: every (position, game) pair of the book, game numbers delta-coded as
    // LEB128 varints per position.
    let t = Instant::now();
    let data = book.to_data()?;
    let index: HashMap<_, usize> = data
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i))
        .collect();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); data.positions.len()];
    for (gi, g) in table.games().iter().enumerate() {
        let mut b = Board::START;
        let moves = table.moves(g);
        for i in 0..=moves.len().min(plies) {
            if let Some(&p) = index.get(&Canonical::of(&b).key) {
                lists[p].push(gi as u32);
            }
            if i < moves.len() {
                b = b.play_move(moves[i])?;
            }
        }
    }
    let entries: usize = lists.iter().map(Vec::len).sum();
    let mut varint = 0usize;
    for l in &lists {
        let mut prev = 0u32;
        for &g in l {
            let mut d = g - prev;
            prev = g;
            loop {
                varint += 1;
                d >>= 7;
                if d == 0 {
                    break;
                }
            }
        }
    }
    println!(
        "posting lists: {entries} entries, {:.1} MB as u32, {:.1} MB delta-varint (+ {:.1} MB of offsets); counted in {:.0} ms",
        entries as f64 * 4.0 / 1e6,
        varint as f64 / 1e6,
        data.positions.len() as f64 * 4.0 / 1e6,
        ms(t)
    );
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
