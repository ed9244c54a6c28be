//! The GGF writer: games written and read back are the same games (moves, passes, set-up
//! boards, results).

use othbook::transcript::write::write_file;
use othbook::transcript::{ingest, ingest_bytes, Format, IngestOptions};
use std::path::PathBuf;

#[test]
fn wthor_2021_round_trips_through_ggf() {
    let src = PathBuf::from("../shared/data/wthor/WTH_2021.wtb");
    assert!(
        src.exists(),
        "{} is required (shared data beside the clone)",
        src.display()
    );
    let opts = IngestOptions::default();
    let original = ingest(&[src], &opts).unwrap().games;
    assert_eq!(original.len(), 320);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.ggf");
    let report = write_file(&original, Format::Ggf, &out).unwrap();
    assert_eq!(report.written, 320);
    let back = ingest(&[out], &opts).unwrap().games;
    assert_eq!(back.len(), original.len());
    for (a, b) in original.iter().zip(&back) {
        assert_eq!(a.moves, b.moves, "{}", a.source);
        assert_eq!(
            a.result.as_ref().map(|r| r.disc_diff),
            b.result.as_ref().map(|r| r.disc_diff)
        );
        assert_eq!(a.black, b.black);
        assert_eq!(a.white, b.white);
    }
}

#[test]
fn set_up_board_and_pass_round_trip() {
    // A set-up position from FFO #1 played to the end with its passes.
    let text = "(;GM[Othello]PB[a]PW[b]RE[?]TY[8]BO[8 --*****--OOO**-O-OOO**O*-O*O*O**O***O***--*O*O**-***OOO--OOOOO-- *];)";
    let mut games = ingest_bytes(text.as_bytes(), Format::Ggf, "t", &IngestOptions::default())
        .unwrap()
        .games;
    let mut g = games.pop().unwrap();
    let mut pos = g.start;
    while !pos.board.is_game_over() {
        let mv = match pos.board.legal_moves().first() {
            Some(sq) => othbook::board::Move::Play(sq),
            None => othbook::board::Move::Pass,
        };
        pos = pos.play(mv).unwrap();
        g.moves.push(mv);
    }
    assert!(
        g.moves.contains(&othbook::board::Move::Pass),
        "the line has a pass: {:?}",
        g.moves
    );
    let mut buf = Vec::new();
    othbook::transcript::write::write_text(std::slice::from_ref(&g), Format::Ggf, &mut buf)
        .unwrap();
    let back = ingest_bytes(&buf, Format::Ggf, "t2", &IngestOptions::default())
        .unwrap()
        .games;
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].start, g.start);
    assert_eq!(back[0].moves, g.moves);
    assert!(back[0].complete);
}

/// GGF's `PC` is the place (a club, a server); the reader took it for the event and the
/// writer put it out as `EV` with `PC[othbook]`. Tags must come back as they went in.
#[test]
fn regression_ggf_writer_turned_the_place_into_the_event() {
    let text = "(;GM[Othello]PC[Club]EV[Cup]DT[2003.12.15]PB[a]PW[b]RE[+20.000:r]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
    let games = ingest_bytes(text.as_bytes(), Format::Ggf, "t", &IngestOptions::default())
        .unwrap()
        .games;
    let mut buf = Vec::new();
    othbook::transcript::write::write_text(&games, Format::Ggf, &mut buf).unwrap();
    let out = String::from_utf8(buf).unwrap();
    for tag in [
        "PC[Club]",
        "EV[Cup]",
        "DT[2003.12.15]",
        "PB[a]",
        "PW[b]",
        "RE[+20.000:r]",
    ] {
        assert!(out.contains(tag), "{tag} missing: {out}");
    }
    assert!(!out.contains("othbook"), "{out}");
    let mut pgn = Vec::new();
    othbook::transcript::write::write_text(&games, Format::Pgn, &mut pgn).unwrap();
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(
        pgn.contains("[Event \"Cup\"]") && pgn.contains("[Site \"Club\"]"),
        "{pgn}"
    );
}
