//! Property tests of the board core on random legal positions: symmetry, canonical form, flips.

use othbook::board::movegen::{flips, flips_reference, flips_scalar};
use othbook::board::{Board, Position, Symmetry};
use proptest::prelude::*;

/// A position reached by `plies` pseudo-random legal moves from the start (passes as needed).
fn random_position(seed: u64, plies: usize) -> Board {
    let mut state = seed | 1;
    let mut b = Board::START;
    for _ in 0..plies {
        let moves = b.legal_moves();
        if moves.is_empty() {
            if b.is_game_over() {
                break;
            }
            b = b.pass();
            continue;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = (state % u64::from(moves.count())) as usize;
        let sq = moves.iter().nth(pick).expect("pick < count");
        b = b.play(sq).expect("legal");
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn moves_commute_with_symmetries(seed in any::<u64>(), plies in 0usize..64) {
        let b = random_position(seed, plies);
        for s in Symmetry::ALL {
            let moved: Vec<_> = b.legal_moves().iter().map(|sq| s.square(sq)).collect();
            let mut moved = moved;
            moved.sort();
            let direct: Vec<_> = b.transform(s).legal_moves().iter().collect();
            prop_assert_eq!(direct, moved, "{:?}", s);
        }
    }

    #[test]
    fn canonical_is_the_same_for_all_images(seed in any::<u64>(), plies in 0usize..64) {
        let b = random_position(seed, plies);
        let (c, s) = b.canonical();
        prop_assert_eq!(b.transform(s), c);
        for t in Symmetry::ALL {
            let (c2, s2) = b.transform(t).canonical();
            prop_assert_eq!(c2, c);
            prop_assert_eq!(b.transform(t).transform(s2), c);
        }
    }

    #[test]
    fn flips_agree_three_ways(seed in any::<u64>(), plies in 0usize..64) {
        let b = random_position(seed, plies);
        let (p, o) = (b.player().0, b.opponent().0);
        for sq in b.empties() {
            let want = flips_reference(p, o, sq as u8);
            prop_assert_eq!(flips(p, o, sq as u8), want);
            prop_assert_eq!(flips_scalar(p, o, sq as u8), want);
            prop_assert_eq!(want != 0, b.legal_moves().contains(sq));
        }
    }

    #[test]
    fn play_commutes_with_symmetries(seed in any::<u64>(), plies in 0usize..60) {
        let b = random_position(seed, plies);
        for sq in b.legal_moves() {
            let after = b.play(sq).expect("legal");
            for s in Symmetry::ALL {
                prop_assert_eq!(b.transform(s).play(s.square(sq)).expect("legal"), after.transform(s));
            }
        }
    }

    #[test]
    fn board_text_round_trips(seed in any::<u64>(), plies in 0usize..64, white in any::<bool>()) {
        let b = random_position(seed, plies);
        let side = if white { othbook::board::Color::White } else { othbook::board::Color::Black };
        let pos = Position { board: b, side };
        let text = pos.to_obf();
        prop_assert_eq!(text.parse::<Position>().expect("parse"), pos);
    }

    #[test]
    fn hash_is_a_function_of_the_board(seed in any::<u64>(), plies in 0usize..64) {
        let b = random_position(seed, plies);
        let copy = Board::new(b.player(), b.opponent()).expect("disjoint");
        prop_assert_eq!(b.hash64(), copy.hash64());
        if b.player() != b.opponent() {
            prop_assert_ne!(b.hash64(), b.pass().hash64());
        }
    }
}

#[test]
fn game_replays_end_with_consistent_scores() {
    for seed in 1..200u64 {
        let b = random_position(seed, 80);
        assert!(b.is_game_over());
        let s = b.final_score();
        assert_eq!(s, -b.pass().final_score());
        assert_eq!(s % 2, 0, "with empties to the winner the total is 64");
    }
}
