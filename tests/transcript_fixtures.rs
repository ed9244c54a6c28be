//! Transcript readers on the hand-written fixtures: every quirk of every format, the bad-input
//! policy (skip + summary, strict), dedupe, gzip, format choice, and writer round trips.

use othbook::board::{parse_moves, Move, Position, Symmetry};
use othbook::transcript::write::{write_file, write_text};
use othbook::transcript::{
    ingest, ingest_bytes, Format, GameRecord, Ingest, IngestError, IngestOptions, Location,
    SkipReason, WarnReason,
};
use std::path::{Path, PathBuf};

const FIX: &str = "fixtures/transcripts";

// The games the fixtures are made of (see fixtures/transcripts/make_fixtures.py).
const P1: &str = "c4c5c6c3f5b6d3g5d6e7b3c7a7e3f3g2h5g6f4a5f7g7f6f2c8h6h4g4h3b8f8e6g3b2f1b4h7g1a4g8h8b5a1e8d8d7a8c2h1b1h2a3c1b7a2d2a6pae1d1e2";
const P2: &str = "c4c3f5f6d3c5b5c6b6e6b2a6a7f3f7g6g7e8b4d2e3a4e1e2d6e7g5h6d8c7d7h7c2c1b8a2f2f4f8b7c8g4g8a8g3h8d1b3b1g1f1h2h3h4a3h5a5a1pag2h1";
const E2: &str = "d3e3f6c4b3c6d6c2d2c1f4a4d1e6b6g5g3e7b1c3f8g4c5b5h4d7b4b2e8e1f7c7e2b7a7f1f5d8a3a2c8f3a1h3a5b8h2g6g1h5h6g7a6g8f2g2h7a8";
const E1: &str = "e6f4d3c4b5c6c3f7f5f6g4b2d7b7c2d6a1f3g8c8d8b1c1h3f2g3h4e3a8f1d2g6e1b4e2c7a4h2g2a7h1a6h6c5a5e7g1d1e8b6b8f8g5a2a3h8b3h7h5";

fn fix(name: &str) -> PathBuf {
    Path::new(FIX).join(name)
}

fn read(names: &[&str]) -> Ingest {
    let paths: Vec<PathBuf> = names.iter().map(|n| fix(n)).collect();
    let got = ingest(&paths, &IngestOptions::default()).expect("non-strict ingest never fails");
    assert_eq!(got.summary.failed_files().count(), 0, "{}", got.summary);
    got
}

fn line(s: &str) -> Vec<Move> {
    parse_moves(s).unwrap()
}

fn diffs(g: &Ingest) -> Vec<Option<i32>> {
    g.games
        .iter()
        .map(|g| g.result.as_ref().map(|r| r.disc_diff))
        .collect()
}

fn lines_of(g: &Ingest) -> Vec<Vec<Move>> {
    g.games.iter().map(|g| g.moves.clone()).collect()
}

#[test]
fn logistello_signed_lines_with_crlf_comment_and_implied_passes() {
    let g = read(&["logistello.gam"]);
    assert_eq!(
        lines_of(&g),
        [line(P1), line(E2), line(E1), line(P2), line("f5d6c3d3c4")]
    );
    assert_eq!(diffs(&g), [Some(46), Some(20), Some(36), Some(-30), None]);
    assert_eq!(g.games[0].result.as_ref().unwrap().raw, "+46 10");
    let locations: Vec<Location> = g.games.iter().map(|g| g.source.location).collect();
    assert_eq!(
        locations,
        [2, 4, 5, 6, 7].map(Location::Line),
        "comment and blank lines still count"
    );
    assert_eq!(
        g.games.iter().map(|g| g.complete).collect::<Vec<_>>(),
        [true, true, true, true, false]
    );
    assert_eq!(g.summary.incomplete, 1);
    assert!(g.summary.warnings.is_empty());
}

#[test]
fn unsigned_gam_with_and_without_scores() {
    let g = read(&["unsigned.gam"]);
    assert_eq!(lines_of(&g), [line(P1), line(E2), line(E1)]);
    assert_eq!(diffs(&g), [None, Some(20), Some(36)]);
}

#[test]
fn bad_gam_lines_are_skipped_and_summarised() {
    let g = read(&["bad.gam"]);
    let s = &g.summary;
    assert_eq!((s.read, s.accepted, s.skipped), (7, 3, 4));
    let at = |r: SkipReason| {
        let t = &s.skipped_by_reason[&r];
        t.first
            .iter()
            .map(|i| (i.source.location, i.ply, i.mv.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        at(SkipReason::IllegalMove),
        [(Location::Line(2), Some(4), Some("c3".into()))]
    );
    assert_eq!(
        at(SkipReason::WrongColor),
        [(Location::Line(3), Some(2), Some("d6".into()))]
    );
    assert_eq!(
        at(SkipReason::Syntax)
            .iter()
            .map(|x| x.0)
            .collect::<Vec<_>>(),
        [Location::Line(4), Location::Line(7)]
    );
    // The disagreeing score is kept, and reported.
    let w = &s.warnings[&WarnReason::ScoreMismatch];
    assert_eq!(w.count, 1);
    assert_eq!(w.first[0].source.location, Location::Line(5));
    assert_eq!(g.games[1].result.as_ref().unwrap().disc_diff, 10);
    let text = s.to_string();
    assert!(
        text.contains("7 games read, 3 accepted, 4 skipped"),
        "{text}"
    );
    assert!(
        text.contains("bad.gam:2: ply 4: move c3: illegal: c3 is occupied"),
        "{text}"
    );
}

#[test]
fn strict_mode_stops_at_the_first_bad_game() {
    let opts = IngestOptions {
        strict: true,
        ..IngestOptions::default()
    };
    let err = ingest(&[fix("logistello.gam"), fix("bad.gam")], &opts).unwrap_err();
    let IngestError::BadGame { reason, issue } = &err else {
        panic!("{err}")
    };
    assert_eq!(*reason, SkipReason::IllegalMove);
    assert_eq!(issue.source.location, Location::Line(2));
    assert!(issue.source.file.ends_with("bad.gam"));
    assert_eq!((issue.ply, issue.mv.as_deref()), (Some(4), Some("c3")));
    let msg = err.to_string();
    assert!(msg.contains("bad.gam:2: ply 4: move c3"), "{msg}");
    // Good files pass in strict mode too.
    assert_eq!(
        ingest(&[fix("logistello.gam")], &opts).unwrap().games.len(),
        5
    );
    let err = ingest(&[fix("missing.pgn")], &opts).unwrap_err();
    assert!(matches!(err, IngestError::File { .. }), "{err}");
}

#[test]
fn plain_move_strings_with_bom_cr_only_and_results() {
    let g = read(&["lines.txt"]);
    assert_eq!(
        lines_of(&g),
        [line(P1), line(P2), line(E1), line("f5d6c3d3c4"), line(E2)]
    );
    // "17-47" and "40-22" are disc counts: empties go to the winner (E2 has 2).
    assert_eq!(diffs(&g), [Some(46), Some(-30), None, None, Some(20)]);
    assert_eq!(g.games[4].source.location, Location::Line(7));
}

#[test]
fn csv_by_header_name_with_winner_or_score() {
    let g = read(&["games.csv"]);
    assert_eq!(g.summary.skipped, 1, "f5f5 is illegal");
    assert_eq!(lines_of(&g), [line(P1), line(P2), line(E2), line("f5d6c3")]);
    // The winner column gives the sign; the board gives the margin of finished games.
    assert_eq!(diffs(&g), [Some(46), Some(-30), Some(20), Some(0)]);
    assert_eq!(g.games[0].result.as_ref().unwrap().raw, "1");
    let g = read(&["scores.csv"]);
    assert_eq!(lines_of(&g), [line(E1), line(P2)]);
    assert_eq!(diffs(&g), [Some(36), Some(-30)]);
    assert_eq!(g.games[0].black.as_deref(), Some("Ann"));
    assert_eq!(g.games[1].year, Some(2020));
}

#[test]
fn ggf_prefixes_evals_passes_boards_and_setups() {
    let g = read(&["games.ggf"]);
    let setup: Position = "---------------------------O*------***-------------------------- O"
        .parse()
        .unwrap();
    assert_eq!(lines_of(&g), [line(P1), line(P2), line("d6c3d3"), line(E2)]);
    assert_eq!(g.games[2].start, setup);
    assert!(!g.games[2].complete);
    assert_eq!(diffs(&g), [Some(46), Some(-30), None, Some(20)]);
    assert_eq!(g.games[0].black.as_deref(), Some("alpha"));
    assert_eq!(g.games[0].year, Some(2003));
    assert_eq!(g.games[3].source.location, Location::Line(4));
    let bad = read(&["bad.ggf"]);
    let reasons: Vec<(SkipReason, u64)> = bad
        .summary
        .skipped_by_reason
        .iter()
        .map(|(r, t)| (*r, t.count))
        .collect();
    assert_eq!(
        reasons,
        [
            (SkipReason::Syntax, 2),
            (SkipReason::BadBoard, 1),
            (SkipReason::NotOthello, 1)
        ]
    );
    assert_eq!(bad.games.len(), 1);
}

#[test]
fn pgn_pairs_plies_cases_comments_setups_and_results() {
    let g = read(&["games.pgn"]);
    assert_eq!(
        lines_of(&g),
        [
            line(P1),
            line(E1),
            line("f5d6c3d3"),
            line("d6c3d3"),
            line(E2),
            line(P2)
        ]
    );
    assert_eq!(
        diffs(&g),
        [Some(46), Some(36), None, None, Some(20), Some(-30)]
    );
    assert_eq!(g.games[0].black.as_deref(), Some("Ann \"A\" Example"));
    assert_eq!(g.games[0].date.as_deref(), Some("2021.03.04"));
    assert_eq!(g.games[0].year, Some(2021));
    assert_eq!(g.games[0].source.location, Location::Line(1));
    assert_ne!(g.games[3].start, Position::START);
    let bad = read(&["bad.pgn"]);
    assert_eq!((bad.summary.read, bad.summary.accepted), (5, 1));
    let syntax = &bad.summary.skipped_by_reason[&SkipReason::Syntax];
    assert_eq!(syntax.first[0].source.location, Location::Line(8));
}

#[test]
fn wthor_with_names_passes_empties_and_unfinished_games() {
    let g = read(&["WTH_2001.wtb"]);
    assert_eq!(lines_of(&g), [line(P1), line(E2), line("f5d6c3d3c4")]);
    // Real score 42 of E2 = 40 discs + 2 empties: disc_diff 2*42-64 = +20, as the board says.
    assert_eq!(diffs(&g), [Some(46), Some(20), Some(2)]);
    assert_eq!(g.games[0].result.as_ref().unwrap().raw, "55/52");
    assert_eq!(
        (g.games[0].black.as_deref(), g.games[0].white.as_deref()),
        (Some("Ann Example"), Some("Bob"))
    );
    assert_eq!(g.games[2].white.as_deref(), Some("Zélie"));
    assert_eq!(g.games[0].event.as_deref(), Some("Fixture Open"));
    assert_eq!(g.games[1].year, Some(2001));
    assert_eq!(g.games[2].source.location, Location::Record(3));
    assert!(!g.games[2].complete);
    assert!(g.summary.warnings.is_empty());
    // A file cut short is an unreadable input (its whole games are still read), not two
    // skipped games in a file that looks fine.
    let cut = ingest(&[fix("truncated.wtb")], &IngestOptions::default()).unwrap();
    assert_eq!((cut.summary.read, cut.summary.accepted), (1, 1));
    let failed: Vec<_> = cut.summary.failed_files().collect();
    assert_eq!(failed.len(), 1);
    assert!(
        failed[0]
            .1
            .contains("the header promises 3 games, the file holds 1 and 30 bytes"),
        "{failed:?}"
    );
}

#[test]
fn companion_files_are_not_games() {
    let g = read(&["WTHOR.JOU", "WTHOR.TRN", "WTH_2001.wtb"]);
    assert_eq!(g.games.len(), 3);
    assert_eq!(g.summary.skipped, 0);
}

#[test]
fn gzip_input_reads_like_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "logistello.gam",
        "lines.txt",
        "games.pgn",
        "games.ggf",
        "games.csv",
    ] {
        let plain = std::fs::read(fix(name)).unwrap();
        let gz_path = dir.path().join(format!("{name}.gz"));
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, &plain).unwrap();
        std::fs::write(&gz_path, enc.finish().unwrap()).unwrap();
        let a = read(&[name]);
        let b = ingest(&[gz_path], &IngestOptions::default()).unwrap();
        assert_eq!(lines_of(&a), lines_of(&b), "{name}");
        assert_eq!(diffs(&a), diffs(&b), "{name}");
    }
}

#[test]
fn format_override_and_wrong_claims() {
    // Content sniffing without an extension.
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("games");
    std::fs::copy(fix("games.pgn"), &bare).unwrap();
    let g = ingest(std::slice::from_ref(&bare), &IngestOptions::default()).unwrap();
    assert_eq!(g.summary.files[0].format, Some(Format::Pgn));
    assert_eq!(g.games.len(), 6);
    // A claimed format the content does not fit: the file is reported, the others still read.
    let opts = IngestOptions {
        format: Some(Format::Wthor),
        ..IngestOptions::default()
    };
    let g = ingest(&[bare, fix("WTH_2001.wtb")], &opts).unwrap();
    let failed: Vec<(&str, &str)> = g.summary.failed_files().collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0].1.contains("not a wthor file"), "{}", failed[0].1);
    assert_eq!(g.games.len(), 3);
    // Move strings read as .gam (the override) give the same games.
    let opts = IngestOptions {
        format: Some(Format::Gam),
        ..IngestOptions::default()
    };
    let g = ingest(&[fix("unsigned.gam")], &opts).unwrap();
    assert_eq!(g.games.len(), 3);
    let missing = ingest(&[fix("nope.gam")], &IngestOptions::default()).unwrap();
    assert!(missing
        .summary
        .to_string()
        .contains("nope.gam: cannot open"));
}

#[test]
fn dedupe_counts_symmetric_copies_once() {
    let dir = tempfile::tempdir().unwrap();
    // P1 turned by each symmetry of the start position.
    let text: String = Symmetry::START
        .iter()
        .map(|s| {
            let moves: Vec<Move> = line(P1).iter().map(|m| s.apply_move(*m)).collect();
            format!("{}\n", othbook::board::format_moves(&moves))
        })
        .collect();
    let sym = dir.path().join("sym.txt");
    std::fs::write(&sym, text).unwrap();
    let opts = IngestOptions {
        dedupe: true,
        ..IngestOptions::default()
    };
    let g = ingest(std::slice::from_ref(&sym), &opts).unwrap();
    assert_eq!((g.games.len(), g.summary.duplicates), (1, 3));
    let g = ingest(&[fix("logistello.gam"), fix("unsigned.gam"), sym], &opts).unwrap();
    // unsigned.gam repeats 3 games of logistello.gam; all 4 lines of sym.txt repeat P1.
    assert_eq!(g.summary.duplicates, 7);
    assert_eq!(g.games.len(), 5, "the first copy is kept, in input order");
    assert_eq!(g.games[0].source.location, Location::Line(2));
}

fn good_fixtures() -> Vec<GameRecord> {
    let names = [
        "logistello.gam",
        "unsigned.gam",
        "lines.txt",
        "games.csv",
        "scores.csv",
        "games.ggf",
        "games.pgn",
        "WTH_2001.wtb",
    ];
    read(&names).games
}

/// What a format keeps of a game, for comparing before and after a round trip.
fn kept(g: &GameRecord, to: Format) -> String {
    let mut r = g.result.as_ref().map(|r| r.disc_diff);
    let mut year = g.year;
    if to == Format::Wthor {
        // WTHOR always has a score (unknown: the board's, or a draw for unfinished games) and one year per file.
        let end = g.start.replay(g.moves.iter().copied()).unwrap().end;
        r = r.or(Some(if g.complete {
            end.final_score_black()
        } else {
            0
        }));
        year = Some(2001);
    }
    match to {
        Format::Gam | Format::Moves => format!("{:?} {r:?}", g.moves),
        Format::Pgn => format!(
            "{:?} {:?} {r:?} {:?} {:?} {:?} {:?}",
            g.start, g.moves, g.black, g.white, g.event, g.year
        ),
        _ => format!(
            "{:?} {r:?} {:?} {:?} {:?} {:?}",
            g.moves,
            g.black.as_deref().unwrap_or("?"),
            g.white.as_deref().unwrap_or("?"),
            g.event.as_deref().unwrap_or("?"),
            year
        ),
    }
}

#[test]
fn every_writer_round_trips_the_fixtures() {
    let games = good_fixtures();
    assert!(games.len() > 30);
    let dir = tempfile::tempdir().unwrap();
    for (to, name) in [
        (Format::Gam, "out.gam"),
        (Format::Moves, "out.txt"),
        (Format::Pgn, "out.pgn"),
        (Format::Wthor, "out.wtb"),
        (Format::Pgn, "out.pgn.gz"),
    ] {
        let path = dir.path().join(name);
        let report = write_file(&games, to, &path).unwrap();
        let holdable: Vec<&GameRecord> = games
            .iter()
            .filter(|g| to == Format::Pgn || g.start == Position::START)
            .collect();
        assert_eq!(report.written as usize, holdable.len(), "{name}");
        let back = ingest(&[path], &IngestOptions::default()).unwrap();
        assert_eq!(back.summary.skipped, 0, "{name}: {}", back.summary);
        assert_eq!(back.games.len(), holdable.len(), "{name}");
        for (a, b) in holdable.iter().zip(&back.games) {
            let mut b = b.clone();
            b.year = b.year.filter(|_| to != Format::Wthor).or(a.year);
            assert_eq!(kept(a, to), kept(&b, to), "{name}: {}", a.source);
            assert_eq!(a.complete, b.complete);
        }
    }
}

#[test]
fn text_writers_write_what_they_read() {
    // Writing the .gam fixture back gives its game lines byte for byte.
    let g = read(&["unsigned.gam"]);
    let mut out = Vec::new();
    write_text(&g.games, Format::Moves, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let again = ingest_bytes(
        text.as_bytes(),
        Format::Moves,
        "mem",
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(lines_of(&g), lines_of(&again));
    assert!(write_text(&g.games, Format::Csv, &mut Vec::new()).is_err());
}

#[test]
fn pgn_games_without_moves_stay_apart() {
    // Regression: a tags-only game used to swallow the next game's tags on reading back.
    let text = "f5d6 +8\n\n";
    let mut games = ingest_bytes(
        text.as_bytes(),
        Format::Moves,
        "m",
        &IngestOptions::default(),
    )
    .unwrap()
    .games;
    let mut empty = games[0].clone();
    empty.moves.clear();
    games.insert(0, empty);
    let mut out = Vec::new();
    write_text(&games, Format::Pgn, &mut out).unwrap();
    let back = ingest_bytes(&out, Format::Pgn, "p", &IngestOptions::default()).unwrap();
    assert_eq!(back.games.len(), 2, "{}", String::from_utf8_lossy(&out));
    assert!(back.games[0].moves.is_empty());
    assert_eq!(back.games[1].moves, line("f5d6"));
    assert_eq!(diffs(&back), [Some(8), Some(8)]);
}

/// GGF parsing recounted the line ends from the start of the game at every property, so a
/// 200,000-property game took minutes (a 100,000-move one 15-25 s, 2.6 s for a 200 KB NBoard
/// `set game`); counted as the parser advances it takes milliseconds. The error at the end
/// must still name its line.
#[test]
fn regression_ggf_parsing_was_quadratic_in_the_length_of_a_game() {
    let n = 200_000;
    let mut text = String::from("(;GM[Othello]PB[a]PW[b]\r\n");
    for i in 0..n {
        text.push_str(if i % 2 == 0 { "B[PA]\r\n" } else { "W[PA]\n" });
    }
    text.push_str("B[z9];)\n");
    let opts = IngestOptions {
        strict: true,
        ..IngestOptions::default()
    };
    let err = ingest_bytes(text.as_bytes(), Format::Ggf, "long.ggf", &opts).unwrap_err();
    let IngestError::BadGame { reason, issue } = &err else {
        panic!("{err}")
    };
    assert_eq!(*reason, SkipReason::Syntax);
    assert_eq!(issue.source.location, Location::Line(n + 2));
}
