//! Data-driven perft checks: `fixtures/perft.tsv` lists (position, depth, leaf count).

use othbook::board::perft::{divide, perft, perft_parallel};
use othbook::board::Position;

struct Row {
    line: usize,
    position: Position,
    depth: u32,
    count: u64,
    deep: bool,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../fixtures/perft.tsv");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            f.len() >= 4,
            "fixtures/perft.tsv:{}: expected 4+ tab-separated fields",
            i + 1
        );
        let position = if f[0] == "start" {
            Position::START
        } else {
            f[0].parse()
                .unwrap_or_else(|e| panic!("fixtures/perft.tsv:{}: {e}", i + 1))
        };
        out.push(Row {
            line: i + 1,
            position,
            depth: f[1].parse().expect("depth"),
            count: f[2].parse().expect("count"),
            deep: match f[3] {
                "normal" => false,
                "deep" => true,
                other => panic!("fixtures/perft.tsv:{}: class {other:?}", i + 1),
            },
        });
    }
    assert!(out.len() >= 20, "perft table unexpectedly short");
    out
}

fn check(deep: bool) {
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.deep == deep).collect();
    assert!(!rows.is_empty());
    for r in rows {
        let got = if r.depth >= 9 {
            perft_parallel(&r.position.board, r.depth, 2)
        } else {
            perft(&r.position.board, r.depth)
        };
        assert_eq!(
            got, r.count,
            "fixtures/perft.tsv:{} depth {}",
            r.line, r.depth
        );
    }
}

#[test]
fn perft_table() {
    check(false);
}

#[test]
#[ignore = "deep perft (depths 11-13 from the start): minutes"]
fn perft_table_deep() {
    check(true);
}

#[test]
fn divide_sums_to_perft() {
    for r in rows().into_iter().filter(|r| !r.deep && r.depth <= 7) {
        let rows = divide(&r.position.board, r.depth, 2);
        let sum: u64 = if rows.is_empty() {
            1
        } else {
            rows.iter().map(|x| x.1).sum()
        };
        assert_eq!(sum, r.count, "fixtures/perft.tsv:{}", r.line);
    }
}
