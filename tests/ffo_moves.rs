//! The 59 FFO positions parse, and their legal moves are exactly the moves each line lists.

use othbook::board::{Move, Position, Square};
use std::collections::BTreeSet;

const FFO: &str = "../shared/data/ffo/ffo.obf";

#[test]
fn ffo_positions_parse_and_move_sets_match() {
    let text = std::fs::read_to_string(FFO).unwrap_or_else(|e| {
        panic!("{FFO} is required for this test (shared data beside the clone): {e}")
    });
    let mut n = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let pos: Position = line
            .parse()
            .unwrap_or_else(|e| panic!("{FFO}:{}: {e}", i + 1));
        let listed: BTreeSet<Square> = line
            .split(';')
            .skip(1)
            .filter_map(|f| f.trim().split(':').next().filter(|m| !m.is_empty()))
            .map(|m| {
                m.parse::<Square>()
                    .unwrap_or_else(|e| panic!("{FFO}:{}: {e}", i + 1))
            })
            .collect();
        let generated: BTreeSet<Square> = pos.board.legal_moves().iter().collect();
        assert_eq!(generated, listed, "{FFO}:{}", i + 1);
        assert!(!listed.is_empty());
        // Every listed move is playable and flips something.
        for sq in listed {
            assert!(pos.play(Move::Play(sq)).is_ok());
        }
        n += 1;
    }
    assert_eq!(n, 59, "expected the 59 FFO positions");
}
