use super::*;
use crate::board::format_moves;

fn end_of(start: &Board, moves: &[Move]) -> Option<Board> {
    moves.iter().try_fold(*start, |b, m| b.play_move(*m).ok())
}

#[test]
fn the_standard_table_loads_with_the_named_openings() {
    let t = Openings::standard();
    assert!(t.all().len() >= 70, "{} openings", t.all().len());
    for name in [
        "Tiger",
        "Rose",
        "Buffalo",
        "Heath",
        "Cow",
        "Snake",
        "Aubrey",
        "Stephenson",
        "No-Kung",
        "Chimney",
        "Mimura",
        "Brightwell",
        "Leader's Tiger",
        "Ishii",
        "Kung",
        "Comp'Oth",
        "Tamenori",
        "Rose-v-Toth",
        "Hamilton",
        "Tobidashi",
        "Iwasaki",
        "Sailboat",
        "Swallow",
        "Bat",
        "Horse",
        "Parallel",
        "Perpendicular",
        "Diagonal",
        "Ganglion",
        "Wing",
    ] {
        assert!(!t.matching(name).is_empty(), "{name}");
    }
    let tiger = t.matching("tiger");
    assert!(tiger.iter().any(|o| o.name == "Tiger"));
    assert_eq!(
        format_moves(&t.matching("Tiger")[0].moves[..5]),
        "f5d6c3d3c4"
    );
    // Every line starts with f5 and its positions are all distinct (the parse checks it).
    for o in t.all() {
        assert_eq!(o.moves[0].to_string(), "f5", "{}", o.name);
        assert_eq!(t.name_of_line(&o.moves).unwrap().name, o.name);
    }
}

/// Every opening from all 8 orientations: the line turned by each symmetry and played from
/// the start turned the same way (for 4 of them, the standard start itself), and the final
/// board turned alone.
#[test]
fn every_opening_is_recognised_in_all_8_orientations() {
    let t = Openings::standard();
    for o in t.all() {
        for s in Symmetry::ALL {
            let start = Board::START.transform(s);
            let line: Vec<Move> = o.moves.iter().map(|m| s.apply_move(*m)).collect();
            let found = t.find_along_from(&start, &line).unwrap();
            assert_eq!(found.opening.name, o.name, "{s:?}");
            let end = end_of(&start, &line).unwrap();
            assert_eq!(t.name_at(&end).unwrap().name, o.name, "{s:?}");
            // The moves given back replay to the board asked about.
            let shown = t.find_at(&end).unwrap();
            let from = if Symmetry::START.contains(&s) {
                Board::START
            } else {
                start
            };
            assert_eq!(end_of(&from, &shown.moves), Some(end), "{} {s:?}", o.name);
        }
    }
}

/// Permutations of one colour's moves (first move kept), as index orders.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            out.push(p);
        }
    }
    out
}

/// Other move orders reaching an opening's position are recognised as that opening.
#[test]
fn transposed_move_orders_are_recognised() {
    let t = Openings::standard();
    let mut transpositions = 0;
    for o in t.all().iter().filter(|o| o.moves.len() <= 9) {
        let end = end_of(&Board::START, &o.moves).unwrap();
        let black: Vec<Move> = o.moves.iter().step_by(2).copied().collect();
        let white: Vec<Move> = o.moves.iter().skip(1).step_by(2).copied().collect();
        for pb in permutations(black.len()) {
            if pb[0] != 0 {
                continue;
            }
            for pw in permutations(white.len()) {
                let line: Vec<Move> = (0..o.moves.len())
                    .map(|i| {
                        if i % 2 == 0 {
                            black[pb[i / 2]]
                        } else {
                            white[pw[i / 2]]
                        }
                    })
                    .collect();
                if line == o.moves || end_of(&Board::START, &line) != Some(end) {
                    continue;
                }
                transpositions += 1;
                let found = t.find_along(&line).unwrap();
                assert_eq!(found.opening.name, o.name, "{}", format_moves(&line));
            }
        }
    }
    // The Tiger alone has one (f5 d6 c4 d3 c3): the test is not empty.
    assert!(transpositions >= 5, "{transpositions}");
    let tiger = t.name_of_line(&parse_moves("f5d6c4d3c3").unwrap()).unwrap();
    assert_eq!(tiger.name, "Tiger");
}

#[test]
fn the_deepest_named_position_along_a_line_wins() {
    let t = Openings::standard();
    let line = parse_moves("f5d6c3d3c4f4f6g5e3").unwrap();
    assert_eq!(t.name_of_line(&line).unwrap().name, "No-Kung");
    // Past its end, a line keeps its last name; a line leaving the named ones too.
    let line = parse_moves("f5d6c3d3c4f4f6g5e3f3c5").unwrap();
    assert_eq!(t.name_of_line(&line).unwrap().name, "No-Kung");
    // The walk stops at a move that is not legal.
    let a1 = parse_moves("f5d6c3d3c4a1").unwrap();
    assert_eq!(t.name_of_line(&a1).unwrap().name, "Tiger");
    let walked = parse_moves("f5d6c3d3c4b5").unwrap();
    assert_eq!(t.name_of_line(&walked).unwrap().name, "Tiger");
    assert_eq!(t.name_of_line(&[]), None);
    assert_eq!(t.name_at(&Board::START), None);
}

#[test]
fn bad_tables_are_refused_with_their_line() {
    let err =
        Openings::parse("# c\nf5d6 Perpendicular\nf5d6c3d3c4 Tiger\nf5f5 Nonsense\n").unwrap_err();
    assert!(
        matches!(
            err,
            OpeningsError::Illegal {
                line: 4,
                ply: 2,
                ..
            }
        ),
        "{err}"
    );
    let err = Openings::parse("f5d6c3\n").unwrap_err();
    assert!(matches!(err, OpeningsError::NoName { line: 1 }), "{err}");
    let err = Openings::parse("f5x9 Bad\n").unwrap_err();
    assert!(
        matches!(err, OpeningsError::BadMoves { line: 1, .. }),
        "{err}"
    );
    // The same position twice, by another move order and orientation.
    let err = Openings::parse("f5d6c3d3c4 Tiger\nd3c5f6f5e6 Also Tiger\n").unwrap_err();
    assert!(
        matches!(
            err,
            OpeningsError::SamePosition {
                line: 2,
                first_line: 1,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("Tiger"), "{err}");
}
