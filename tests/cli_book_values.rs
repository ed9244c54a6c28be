//! `othbook book evaluate | apply | fix` as a user runs them: shards in separate processes,
//! an interrupted run continued, and the errors.

mod common;
use common::{need, othbook_process, run_in};
use std::path::Path;

const WTHOR_1985: &str = "../shared/data/wthor/WTH_1985.wtb";

/// A book of the 954 games of 1985, 16 plies, every position kept.
fn small_book(dir: &Path) {
    let (code, _, err) = run_in(
        dir,
        &[
            "build",
            &std::fs::canonicalize(need(WTHOR_1985))
                .unwrap()
                .to_string_lossy(),
            "-o",
            "small.book",
            "--plies",
            "16",
            "--min-games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

/// `book evaluate small.book -o OUT` with `eval`'s options, which must succeed.
fn evaluate_to(dir: &Path, out: &str, eval: &[&str]) {
    let mut args = vec!["book", "evaluate", "small.book", "-o", out];
    args.extend(eval);
    ok(dir, &args);
}

#[test]
fn three_shard_processes_applied_equal_one_process_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    let eval = ["--depth", "4", "--exact-from", "0", "--threads", "1"];
    evaluate_to(d, "one.book", &eval);
    let children: Vec<_> = (0..3)
        .map(|i| {
            let (shard, part) = (format!("{i}/3"), format!("part.{i}"));
            let mut args = vec![
                "book",
                "evaluate",
                "small.book",
                "--shard",
                &shard,
                "-o",
                &part,
            ];
            args.extend(eval);
            othbook_process()
                .current_dir(d)
                .args(&args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let out = ok(
        d,
        &[
            "book",
            "apply",
            "small.book",
            "part.2",
            "part.0",
            "part.1",
            "-o",
            "three.book",
        ],
    );
    assert!(out.contains("with a value, 0 leaves missing"), "{out}");
    let (a, b) = (
        std::fs::read(d.join("one.book")).unwrap(),
        std::fs::read(d.join("three.book")).unwrap(),
    );
    assert!(a == b, "sharded and single runs differ");
    // A missing shard is said, and its positions keep no leaf.
    let (code, out, err) = run_in(
        d,
        &[
            "book",
            "apply",
            "small.book",
            "part.0",
            "-o",
            "partial.book",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("no parts of shards 1/3, 2/3"), "{err}");
    assert!(!out.contains(" 0 leaves missing"), "{out}");
}

// libc is a dependency on Linux only.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_evaluation_saves_its_work_and_a_rerun_ends_as_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    let eval = ["--depth", "6", "--exact-from", "0", "--threads", "1"];
    evaluate_to(d, "whole.book", &eval);
    let mut args = vec!["book", "evaluate", "small.book", "-o", "resumed.book"];
    args.extend(eval);
    // Stopped after 400 ms, or later if a loaded machine had not saved a value by then.
    let has_values =
        |p: &std::path::Path| othbook::book::Book::open(p).is_ok_and(|b| b.has_values());
    let (code, _, err) = common::interrupted_after_work(
        d,
        &args,
        std::time::Duration::from_millis(400),
        &d.join("resumed.book"),
        has_values,
    );
    assert_eq!(
        code,
        Some(130),
        "the run ended before the signal: make it longer\n{err}"
    );
    let saved = othbook::book::Book::open(d.join("resumed.book")).unwrap();
    assert!(saved.has_values());
    let out = ok(d, &args);
    assert!(out.contains(" 0 leaves missing"), "{out}");
    let (a, b) = (
        std::fs::read(d.join("whole.book")).unwrap(),
        std::fs::read(d.join("resumed.book")).unwrap(),
    );
    assert!(a == b, "resumed and uninterrupted runs differ");
}

#[test]
fn evaluate_in_place_then_fix_keeps_the_values_and_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    let out = ok(
        d,
        &[
            "book",
            "evaluate",
            "small.book",
            "--depth",
            "2",
            "--plies",
            "10",
        ],
    );
    assert!(out.contains("small.book:"), "{out}");
    let before = std::fs::read(d.join("small.book")).unwrap();
    let out = ok(d, &["book", "fix", "small.book"]);
    assert!(out.contains("with a value"), "{out}");
    assert!(
        std::fs::read(d.join("small.book")).unwrap() == before,
        "fix of a fixed book changes nothing"
    );
    let (code, _, err) = run_in(d, &["book", "evaluate", "small.book", "--shard", "0/2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--shard needs -o"), "{err}");
    let (code, _, err) = run_in(
        d,
        &[
            "book",
            "evaluate",
            "small.book",
            "--shard",
            "2/2",
            "-o",
            "p",
        ],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("0 <= I < N"), "{err}");
    ok(
        d,
        &[
            "book",
            "evaluate",
            "small.book",
            "--shard",
            "0/2",
            "-o",
            "p0",
            "--depth",
            "2",
        ],
    );
    let (code, _, err) = run_in(
        d,
        &[
            "book",
            "evaluate",
            "small.book",
            "--shard",
            "0/2",
            "-o",
            "p0",
            "--depth",
            "3",
        ],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("would stay beside leaves searched with"),
        "{err}"
    );
    // With --refresh no leaf of the book stays; the parts file of depth 2 is refused.
    let (code, _, err) = run_in(
        d,
        &[
            "book",
            "evaluate",
            "small.book",
            "--shard",
            "0/2",
            "-o",
            "p0",
            "--depth",
            "3",
            "--refresh",
        ],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("holds leaves of another book, shard or settings"),
        "{err}"
    );
    let (code, _, err) = run_in(
        d,
        &["book", "apply", "small.book", "small.book", "-o", "x.book"],
    );
    assert_ne!(code, Some(0));
    assert!(err.contains("not an othbook parts file"), "{err}");
}

#[test]
fn deviate_adds_positions_saves_the_book_and_a_rerun_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    let dev = [
        "book",
        "deviate",
        "small.book",
        "--relative",
        "1",
        "--absolute",
        "2",
        "--depth",
        "3",
        "--until",
        "10",
    ];
    let (code, _, err) = run_in(d, &dev);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("has no values: run `othbook book evaluate`"),
        "{err}"
    );
    ok(d, &["book", "evaluate", "small.book", "--depth", "3"]);
    let out = ok(d, &dev);
    let added: usize = out
        .split(" positions added")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(added > 0, "{out}");
    assert!(
        out.contains(&format!("{added} added by deviation (no games)")),
        "{out}"
    );
    let out = ok(d, &dev);
    assert!(out.contains("0 rounds, 0 positions added"), "{out}");
}
