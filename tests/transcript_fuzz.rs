//! Fuzzing every reader with proptest: random bytes and mutated real records never panic,
//! and whatever is accepted replays legally and is accounted for in the summary.

use othbook::board::Position;
use othbook::transcript::{ingest_bytes, Format, Ingest, IngestOptions};
use proptest::prelude::*;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

const TEXT_FORMATS: [Format; 5] = [
    Format::Gam,
    Format::Ggf,
    Format::Pgn,
    Format::Moves,
    Format::Csv,
];

fn check(bytes: &[u8], format: Format) {
    for strict in [false, true] {
        let opts = IngestOptions {
            format: Some(format),
            strict,
            dedupe: !strict,
        };
        match ingest_bytes(bytes, format, "fuzz", &opts) {
            Ok(got) => invariants(&got),
            Err(e) => assert!(strict, "only strict mode fails: {e}"),
        }
    }
}

fn invariants(got: &Ingest) {
    let s = &got.summary;
    assert_eq!(s.read, s.accepted + s.skipped + s.duplicates, "{s}");
    assert_eq!(s.accepted as usize, got.games.len());
    for g in &got.games {
        let replay = g
            .start
            .replay(g.moves.iter().copied())
            .expect("accepted games replay");
        assert_eq!(replay.moves, g.moves, "passes already in place");
        assert_eq!(replay.end.board.is_game_over(), g.complete);
    }
    let _ = s.to_string();
}

fn need(rel: &str) -> Vec<u8> {
    let p = Path::new("../shared/data").join(rel);
    let raw = std::fs::read(&p).unwrap_or_else(|e| panic!("{} is missing: {e}", p.display()));
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    }
}

fn head(bytes: &[u8], lines: usize) -> Vec<u8> {
    let mut n = 0;
    let end = bytes
        .iter()
        .position(|&b| {
            n += usize::from(b == b'\n');
            n == lines
        })
        .map_or(bytes.len(), |i| i + 1);
    bytes[..end].to_vec()
}

/// Real records per format: the start of each real file, plus the fixtures.
fn samples() -> &'static Vec<(Format, Vec<u8>)> {
    static SAMPLES: OnceLock<Vec<(Format, Vec<u8>)>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let fix = |n: &str| std::fs::read(Path::new("fixtures/transcripts").join(n)).unwrap();
        let wtb = need("wthor/WTH_2021.wtb");
        vec![
            (Format::Gam, head(&need("logbook/logbook.gam.gz"), 6)),
            (Format::Gam, fix("logistello.gam")),
            (Format::Ggf, head(&need("ggf/TestGames.ggf"), 2)),
            (Format::Ggf, fix("games.ggf")),
            (Format::Pgn, head(&need("pgn/WTH_2021.pgn"), 80)),
            (Format::Pgn, fix("games.pgn")),
            (Format::Moves, head(&need("xot/openingslarge.txt"), 10)),
            (Format::Moves, fix("lines.txt")),
            (Format::Csv, fix("games.csv")),
            (Format::Csv, fix("scores.csv")),
            (Format::Wthor, {
                let mut four = wtb[..16 + 68 * 4].to_vec();
                four[4..8].copy_from_slice(&4u32.to_le_bytes());
                four
            }),
            (Format::Wthor, fix("WTH_2001.wtb")),
        ]
    })
}

#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
    Repeat(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes that matter to the grammars are more likely than arbitrary ones.
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"+-:;[]()\"*/ \r\n\t,.0123456789abcdefghABCDEFGH#{}$pa".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Edit::Repeat(i, n)),
    ]
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let len = bytes.len().max(1);
        match *e {
            Edit::Set(i, b) if !bytes.is_empty() => bytes[i % len] = b,
            Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Edit::Delete(i) if !bytes.is_empty() => {
                bytes.remove(i % len);
            }
            Edit::Truncate(i) => bytes.truncate(i % (bytes.len() + 1)),
            Edit::Repeat(i, n) if !bytes.is_empty() => {
                let at = i % len;
                let piece: Vec<u8> = bytes[at..(at + n).min(bytes.len())].to_vec();
                bytes.splice(at..at, piece);
            }
            _ => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), f in 0usize..6) {
        let format = [Format::Gam, Format::Ggf, Format::Pgn, Format::Moves, Format::Csv, Format::Wthor][f];
        check(&bytes, format);
    }

    #[test]
    fn random_text_never_panics(text in "[-+:;\\[\\]()\"*/ \r\n\t,.0-9a-hA-HpPsS#{}$]{0,300}", f in 0usize..5) {
        check(text.as_bytes(), TEXT_FORMATS[f]);
    }

    #[test]
    fn mutated_real_records_never_panic(which in 0usize..12, edits in prop::collection::vec(edit(), 1..8)) {
        let (format, sample) = &samples()[which];
        check(&apply(sample.clone(), &edits), *format);
    }

    #[test]
    fn random_wthor_records_never_panic(
        n in 0u32..5,
        records in prop::collection::vec(prop::collection::vec(prop_oneof![0u8..=99, any::<u8>()], 68), 0..5),
        cut in any::<usize>(),
    ) {
        let mut bytes = vec![20, 24, 1, 1];
        bytes.extend_from_slice(&n.to_le_bytes());
        bytes.extend_from_slice(&[0, 0, 0xD1, 0x07, 8, 0, 24, 0]);
        for r in &records {
            bytes.extend_from_slice(r);
        }
        bytes.truncate(16 + cut % (bytes.len() - 15));
        check(&bytes, Format::Wthor);
    }

    #[test]
    fn gzip_garbage_is_reported(bytes in prop::collection::vec(any::<u8>(), 0..200), f in 0usize..5) {
        let mut data = vec![0x1f, 0x8b];
        data.extend_from_slice(&bytes);
        check(&data, TEXT_FORMATS[f]);
    }
}

#[test]
fn samples_read_cleanly_before_mutation() {
    for (format, bytes) in samples() {
        let got = ingest_bytes(bytes, *format, "sample", &IngestOptions::default()).unwrap();
        assert!(!got.games.is_empty(), "{format}");
        // Only games.csv holds a bad row on purpose.
        assert!(got.summary.skipped <= 1, "{format}: {}", got.summary);
        assert!(got.games.iter().all(|g| g.start == Position::START
            || *format == Format::Ggf
            || *format == Format::Pgn));
    }
}
