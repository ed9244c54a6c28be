//! Fuzz target: arbitrary bytes read as ggf (strict and lenient) must never panic, and
//! every accepted game must replay.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othbook::transcript::{ingest_bytes, Format, IngestOptions};

fuzz_target!(|data: &[u8]| {
    for strict in [false, true] {
        let opts = IngestOptions {
            format: Some(Format::Ggf),
            strict,
            dedupe: true,
        };
        if let Ok(got) = ingest_bytes(data, Format::Ggf, "fuzz", &opts) {
            assert_eq!(got.summary.accepted as usize, got.games.len());
            for g in &got.games {
                assert!(g.start.replay(g.moves.iter().copied()).is_ok());
            }
        }
    }
});
