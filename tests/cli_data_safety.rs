//! No input is lost or overwritten: outputs that are inputs, pipes and streams, devices,
//! runs that find no games, damaged WTHOR files, bounded ingest (issue #18, items 1-2, 5,
//! 10, 15-17).

mod common;

use common::{copy_fixtures, need, othbook, run_in, FIX};

const WTHOR: &str = "../shared/data/wthor";

#[test]
fn regression_convert_and_merge_onto_their_own_input_destroyed_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam"]);
    std::os::unix::fs::symlink("logistello.gam", d.join("link.gam")).unwrap();
    std::fs::hard_link(d.join("logistello.gam"), d.join("hard.gam")).unwrap();
    let before = std::fs::read(d.join("logistello.gam")).unwrap();
    let absolute = d.join("logistello.gam").display().to_string();
    for output in [
        "logistello.gam",
        "./logistello.gam",
        &absolute,
        "link.gam",
        "hard.gam",
    ] {
        let (code, _, err) = run_in(
            d,
            &[
                "games",
                "convert",
                "logistello.gam",
                "--to",
                "pgn",
                "-o",
                output,
            ],
        );
        assert_eq!(code, Some(2), "-o {output}: {err}");
        assert!(err.contains("would destroy the input"), "{err}");
        let (code, _, err) = run_in(d, &["build", "logistello.gam", "-o", output]);
        assert_eq!(code, Some(2), "build -o {output}: {err}");
    }
    assert_eq!(std::fs::read(d.join("logistello.gam")).unwrap(), before);

    let (code, _, err) = run_in(
        d,
        &[
            "build",
            "logistello.gam",
            "-o",
            "a.book",
            "--min-games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    std::fs::copy(d.join("a.book"), d.join("b.book")).unwrap();
    let a = std::fs::read(d.join("a.book")).unwrap();
    for output in ["a.book", "./a.book"] {
        let (code, _, err) = run_in(d, &["merge", "a.book", "b.book", "-o", output]);
        assert_eq!(code, Some(2), "{err}");
    }
    assert_eq!(
        std::fs::read(d.join("a.book")).unwrap(),
        a,
        "a.book changed"
    );
}

#[test]
fn regression_pipes_were_read_as_empty_files_and_replaced_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam"]);
    let games = std::fs::read(d.join("logistello.gam")).unwrap();
    std::fs::write(d.join("keep.book"), "precious").unwrap();
    // `-` and /dev/stdin: read as streams.
    for input in ["-", "/dev/stdin"] {
        let out = othbook()
            .current_dir(d)
            .args(["build", input, "-o", "piped.book", "--min-games", "1"])
            .write_stdin(games.clone())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{input}: {:?}", out);
        assert!(text.contains("5 games used"), "{input}: {text}");
    }
    // Nothing on stdin: no book, exit 1, the old file kept.
    let out = othbook()
        .current_dir(d)
        .args(["build", "-", "-o", "keep.book"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no book written: the inputs hold no games")
    );
    assert_eq!(std::fs::read(d.join("keep.book")).unwrap(), b"precious");

    // A FIFO, as process substitution gives: converted like a file.
    let fifo = d.join("games.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        let games = games.clone();
        std::thread::spawn(move || std::fs::write(fifo, games).unwrap())
    };
    let (code, _, err) = run_in(
        d,
        &[
            "games",
            "convert",
            "games.fifo",
            "--from",
            "gam",
            "--to",
            "moves",
            "-o",
            "out.txt",
        ],
    );
    writer.join().unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("out.txt"))
            .unwrap()
            .lines()
            .count(),
        5
    );
}

#[test]
fn regression_runs_without_games_wrote_empty_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("empty.gam"), "").unwrap();
    std::fs::write(d.join("keep.pgn"), "precious").unwrap();
    std::fs::write(d.join("junk.txt"), "f5f5f5\nzz\n").unwrap();
    let (code, _, err) = run_in(
        d,
        &[
            "games",
            "convert",
            "empty.gam",
            "--to",
            "pgn",
            "-o",
            "keep.pgn",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("nothing written: the inputs hold no games"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("keep.pgn")).unwrap(), b"precious");
    let (code, _, err) = run_in(
        d,
        &[
            "games", "convert", "junk.txt", "--to", "pgn", "-o", "keep.pgn",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("were skipped"), "{err}");
    assert_eq!(std::fs::read(d.join("keep.pgn")).unwrap(), b"precious");
    let (code, _, err) = run_in(
        d,
        &[
            "games",
            "convert",
            "empty.gam",
            "--to",
            "pgn",
            "-o",
            "keep.pgn",
            "--allow-empty",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read(d.join("keep.pgn")).unwrap(), b"");
    let (code, _, err) = run_in(
        d,
        &[
            "build",
            "empty.gam",
            "-o",
            "e.book",
            "--allow-empty",
            "--min-games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run_in(d, &["merge", "e.book", "-o", "m.book"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("hold no games") && !d.join("m.book").exists(),
        "{err}"
    );
}

#[test]
fn regression_dev_zero_as_game_input_was_read_forever() {
    for args in [
        &["games", "stats", "/dev/zero"][..],
        &["build", "/dev/zero", "-o", "/tmp/never.book"][..],
    ] {
        let out = othbook().args(args).timeout(common::HANG).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("/dev/zero: is a device"), "{err}");
    }
}

#[test]
fn regression_truncated_wtb_and_wthor_jou_were_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 75 of the 320 games the header promises.
    let whole = std::fs::read(need("../shared/data/wthor/WTH_2021.wtb")).unwrap();
    std::fs::write(d.join("cut.wtb"), &whole[..16 + 68 * 75]).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "cut.wtb"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("truncated: the header promises 320 games, the file holds 75 (245 missing)"),
        "{err}"
    );
    let (code, _, err) = run_in(d, &["build", "cut.wtb", "-o", "cut.book"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(!d.join("cut.book").exists());
    // A record cut in the middle is named too.
    std::fs::write(d.join("cut2.wtb"), &whole[..16 + 68 * 75 + 30]).unwrap();
    let (_, _, err) = run_in(d, &["games", "stats", "cut2.wtb"]);
    assert!(
        err.contains("75 and 30 bytes of a cut record (245 missing)"),
        "{err}"
    );

    std::fs::copy(format!("{WTHOR}/WTHOR.JOU"), d.join("WTHOR.JOU")).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "WTHOR.JOU"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("WTHOR.JOU: not a game file"), "{err}");
    // Beside its .wtb files it gives their names, silently.
    std::fs::write(d.join("WTH_2021.wtb"), &whole).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "WTHOR.JOU", "WTH_2021.wtb"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn regression_filters_matching_nothing_wrote_an_empty_book() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["games.pgn"]);
    let (code, _, err) = run_in(
        d,
        &["build", "games.pgn", "-o", "x.book", "--player", "bobb"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no game matched the filters"), "{err}");
    assert!(err.contains("the closest names are Bob (2 games)"), "{err}");
    assert!(!d.join("x.book").exists());
    let (code, _, err) = run_in(
        d,
        &["build", "games.pgn", "-o", "x.book", "--years", "1850"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--years 1850-1850"), "{err}");
    // The names are listed with their counts.
    let (code, out, err) = run_in(
        d,
        &["games", "players", "-q", "games.pgn", "--format", "tsv"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("games\tplayer\trating\trated_games\tscore\n2\tBob\t"),
        "{out}"
    );
    let (code, out, _) = run_in(d, &["games", "events", "-q", "games.pgn"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Fixture Open"), "{out}");
}

#[test]
fn regression_build_had_no_dedupe() {
    let wtb = need("../shared/data/wthor/WTH_2021.wtb");
    let pgn = need("../shared/data/pgn/WTH_2021.pgn");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.book");
    let run = |extra: &[&str]| {
        let mut args = vec!["build", wtb, pgn, "-o", out.to_str().unwrap()];
        args.extend(extra);
        let o = othbook().args(&args).output().unwrap();
        assert!(o.status.success(), "{o:?}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(run(&[]).contains("640 games used"));
    let deduped = run(&["--dedupe"]);
    assert!(
        deduped.contains("320 duplicates dropped") && deduped.contains("320 games used"),
        "{deduped}"
    );
}

#[test]
fn regression_build_defaults_made_a_637_mb_book() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.book");
    let inputs: Vec<String> = (1977..=2021)
        .map(|y| format!("{WTHOR}/WTH_{y}.wtb"))
        .collect();
    need(&inputs[0]);
    let o = othbook()
        .arg("build")
        .args(&inputs)
        .args(["-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let size = std::fs::metadata(&out).unwrap().len();
    assert!((1 << 20..32 << 20).contains(&size), "{size} bytes");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains(" MB ("), "the size is said in words: {text}");
}

/// Inputs of several read blocks keep their line numbers and every game across the cuts.
#[test]
fn regression_streamed_blocks_keep_games_and_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let game = std::fs::read_to_string(format!("{FIX}/logistello.gam")).unwrap();
    let first = game.lines().find(|l| l.starts_with('+')).unwrap();
    // About 6 MB of one game, then one bad line: three blocks or more.
    let n = 6_000_000 / (first.len() + 1);
    let mut text = format!("{first}\n").repeat(n);
    text.push_str("+d3+d3\n");
    std::fs::write(d.join("many.gam"), &text).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "many.gam", "--format", "tsv"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("{} games read, {n} accepted", n + 1)),
        "{err}"
    );
    assert!(err.contains(&format!("many.gam:{}", n + 1)), "{err}");
    // The same through gzip and a pipe.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
    let out = othbook()
        .args(["games", "stats", "-", "--format", "tsv"])
        .write_stdin(gz.finish().unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("<stdin>:{}", n + 1)), "{err}");

    // PGN and GGF games cut between blocks are read whole.
    let block = "[Event \"Streamed\"]\n[Black \"a\"]\n[White \"b\"]\n[Result \"33-31\"]\n\n\
                 1. f5 d6 2. c3 d3 3. c4 f4 33-31\n\n";
    let copies = 5_000_000 / block.len();
    std::fs::write(d.join("many.pgn"), block.repeat(copies)).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "many.pgn"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("{copies} games read, {copies} accepted")),
        "{err}"
    );
    let ggf = "(;GM[Othello]PB[a]PW[b]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6];)\n";
    let copies = 5_000_000 / ggf.len();
    std::fs::write(d.join("many.ggf"), ggf.repeat(copies)).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "many.ggf"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("{copies} games read, {copies} accepted")),
        "{err}"
    );
}

/// Peak memory of an ingest does not grow with the input: a build of one game repeated and
/// stats of bad lines take about the same memory for 300 MB as for 600 MB of input (before:
/// 3.3 GB for a 300 MB build, 3.9 GB for 100 MB of bad lines). The build holds one part of
/// games (409,000 at 40 plies) and its position records. Slow (two minutes): run with
/// `cargo test --release --test cli_data_safety -- --ignored`.
#[test]
#[ignore]
fn regression_ingest_memory_grew_with_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let game = std::fs::read_to_string(format!("{FIX}/logistello.gam")).unwrap();
    let first = game.lines().find(|l| l.starts_with('+')).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("othbook");
    let peak_kb = |args: &[&str]| -> u64 {
        let out = std::process::Command::new("/usr/bin/time")
            .current_dir(d)
            .args(["-f", "%M"])
            .arg(&bin)
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        err.lines().last().unwrap().trim().parse().unwrap()
    };
    let mut peaks = Vec::new();
    for mb in [300, 600] {
        let line = format!("{first}\n");
        std::fs::write(d.join("rep.gam"), line.repeat(mb * 1_000_000 / line.len())).unwrap();
        std::fs::write(d.join("bad.gam"), "+d3+d3+d3\n".repeat(mb * 100_000)).unwrap();
        let build = peak_kb(&["build", "rep.gam", "-o", "rep.book"]);
        let stats = peak_kb(&["games", "stats", "-q", "bad.gam"]);
        peaks.push((mb, build, stats));
    }
    let (_, b1, s1) = peaks[0];
    let (_, b2, s2) = peaks[1];
    // The allocator keeps some freed memory per thread: a little drift, not growth.
    assert!(
        b2 < b1 * 125 / 100 && b2 < 1_500_000,
        "{peaks:?} (MB in, KB peak)"
    );
    assert!(
        s2 < s1 * 125 / 100 && s2 < 300_000,
        "{peaks:?} (MB in, KB peak)"
    );
}

/// The same class in the other commands that write files: train's weights, match's CSV and
/// saved games.
#[test]
fn regression_train_and_match_outputs_could_overwrite_their_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam"]);
    std::fs::write(d.join("op.txt"), "f5d6c3\n").unwrap();
    let cases: [&[&str]; 3] = [
        &["train", "logistello.gam", "--out", "./logistello.gam"],
        &[
            "match",
            "--black",
            "random",
            "--white",
            "random",
            "--games",
            "1",
            "--openings",
            "op.txt",
            "--csv",
            "op.txt",
        ],
        &[
            "match",
            "--black",
            "random",
            "--white",
            "random",
            "--games",
            "1",
            "--csv",
            "new.txt",
            "--save",
            "./new.txt",
        ],
    ];
    for args in cases {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("same file") || err.contains("would destroy"),
            "{err}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(d.join("op.txt")).unwrap(),
        "f5d6c3\n"
    );
    assert!(!d.join("new.txt").exists());
}

/// CSV (its header read from the first block) and WTHOR (records cut across blocks, the
/// header's count checked at the end) streamed over several blocks.
#[test]
fn streamed_csv_and_wthor_over_several_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let csv = std::fs::read_to_string(format!("{FIX}/games.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    let row = lines.next().unwrap();
    let rows = 5_000_000 / row.len();
    let mut big = format!("{header}\n");
    for _ in 0..rows {
        big.push_str(row);
        big.push('\n');
    }
    big.push_str("9,1,f5f5\n");
    std::fs::write(d.join("big.csv"), &big).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "big.csv"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("{} games read, {rows} accepted", rows + 1)),
        "{err}"
    );
    assert!(err.contains(&format!("big.csv:{}", rows + 2)), "{err}");

    // 40,000 records of WTH_2021 (2.7 MB: 2 MiB blocks cut inside a record).
    let wtb = std::fs::read(need("../shared/data/wthor/WTH_2021.wtb")).unwrap();
    let records = &wtb[16..];
    let n = 40_000usize;
    let mut out = wtb[..16].to_vec();
    out[4..8].copy_from_slice(&(n as u32).to_le_bytes());
    for i in 0..n {
        let k = i % 320;
        out.extend_from_slice(&records[k * 68..(k + 1) * 68]);
    }
    std::fs::write(d.join("big.wtb"), &out).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "big.wtb"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("{n} games read, {n} accepted")),
        "{err}"
    );
    // The same file cut short is named, with the records it holds.
    std::fs::write(d.join("cut.wtb"), &out[..out.len() - 68 * 1000 - 10]).unwrap();
    let (code, _, err) = run_in(d, &["games", "stats", "cut.wtb"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the header promises 40000 games, the file holds 38999 and 58 bytes"),
        "{err}"
    );
}
