//! Writers leave nothing half-done, `-` is standard output wherever a stream makes sense, and
//! two runs writing one file do not both succeed (issue #37, defects 8-10).

mod common;

use common::edax::{evaluated_wthor, ok};
use common::{copy_fixtures, fix, othbook_process, run_in};
use std::io::Write;
use std::path::Path;

/// The names in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A move-list file of `n` copies of the fixture's first complete game: 68 bytes each in a
/// .wtb, and no names.
fn many_games(path: &Path, n: usize) {
    let lines = std::fs::read_to_string(fix("lines.txt")).unwrap();
    // The fixture ends its lines with CR alone.
    let game = lines
        .split(['\r', '\n'])
        .find(|l| !l.trim_start_matches('\u{feff}').starts_with('#') && !l.trim().is_empty())
        .unwrap();
    let mut f = std::fs::File::create(path).unwrap();
    for _ in 0..n {
        writeln!(f, "{game}").unwrap();
    }
}

/// Runs othbook in `dir` with files limited to `max_bytes` (`RLIMIT_FSIZE`, `SIGXFSZ`
/// ignored so that a write past it fails with EFBIG, as on a full disk): exit code and
/// standard error.
fn run_with_file_limit(dir: &Path, args: &[&str], max_bytes: u64) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let mut c = othbook_process();
    c.current_dir(dir).args(args);
    // SAFETY: between fork and exec the child only calls signal(2) and setrlimit(2), which
    // are async-signal-safe, on values prepared before.
    unsafe {
        c.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: max_bytes,
                rlim_max: max_bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = c.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Builds `name` in `d` from the fixture `logistello.gam` (copied there by the test).
fn build(d: &Path, name: &str) {
    ok(
        d,
        &["build", "logistello.gam", "-o", name, "--min-games", "1"],
    );
}

#[test]
fn regression_disk_full_during_wtb_output_left_new_wthor_jou_and_trn() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 300 games: a 20 kB .wtb; the names (from games.pgn) a few hundred bytes.
    many_games(&d.join("many.txt"), 300);
    copy_fixtures(d, &["games.pgn"]);
    ok(
        d,
        &["build", "many.txt", "-o", "many.book", "--min-games", "1"],
    );
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    // An existing folder: its names files are to be extended, and must survive a failure.
    copy_fixtures(&out, &["WTHOR.JOU", "WTHOR.TRN", "WTH_2001.wtb"]);
    let before = listing(&out);
    let names_before = [
        std::fs::read(out.join("WTHOR.JOU")).unwrap(),
        std::fs::read(out.join("WTHOR.TRN")).unwrap(),
    ];
    let convert = [
        "games",
        "convert",
        "many.txt",
        "games.pgn",
        "--to",
        "wtb",
        "-o",
        "out/new.wtb",
    ];
    let find = [
        "games",
        "find",
        "--book",
        "many.book",
        "--to",
        "wtb",
        "-o",
        "out/found.wtb",
    ];
    for args in [&convert[..], &find[..]] {
        let (code, err) = run_with_file_limit(d, args, 8 << 10);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains("File too large"), "{args:?}: {err}");
        assert_eq!(listing(&out), before, "{args:?} left files behind: {err}");
        let names_after = [
            std::fs::read(out.join("WTHOR.JOU")).unwrap(),
            std::fs::read(out.join("WTHOR.TRN")).unwrap(),
        ];
        assert!(
            names_after == names_before,
            "{args:?} changed the names files"
        );
    }
    // Without the limit both write all three files.
    ok(d, &convert);
    ok(d, &find);
    assert_eq!(
        listing(&out),
        [
            "WTHOR.JOU",
            "WTHOR.TRN",
            "WTH_2001.wtb",
            "found.wtb",
            "new.wtb"
        ]
    );
}

#[test]
fn regression_book_export_to_dash_wrote_a_file_named_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    evaluated_wthor(d, Some("4"));
    let text = ok(
        d,
        &["book", "export", "w.book", "--to", "edax-text", "-o", "-"],
    );
    assert!(text.lines().count() > 10, "{text}");
    let file = ok(
        d,
        &[
            "book",
            "export",
            "w.book",
            "--to",
            "edax-text",
            "-o",
            "w.txt",
        ],
    );
    assert!(file.starts_with("w.txt: "), "{file}");
    assert_eq!(std::fs::read_to_string(d.join("w.txt")).unwrap(), text);
    // Every other output that can be a stream takes `-` too.
    copy_fixtures(d, &["games.pgn"]);
    let pgn = ok(
        d,
        &["games", "convert", "games.pgn", "--to", "pgn", "-o", "-"],
    );
    assert!(pgn.contains("[Event"), "{pgn}");
    let found = ok(
        d,
        &[
            "games", "find", "--book", "w.book", "--to", "moves", "--limit", "3", "-o", "-",
        ],
    );
    assert_eq!(found.lines().count(), 3, "{found}");
    assert!(!d.join("-").exists(), "a file named - was written");
}

#[test]
fn regression_outputs_that_cannot_be_streams_took_dash_for_a_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam", "games.pgn"]);
    build(d, "a.book");
    let book = "a book cannot be written to standard output";
    let report = "standard output carries the command's report";
    let cases: [(&[&str], &str); 12] = [
        (&["build", "logistello.gam", "-o", "-"], book),
        (&["merge", "a.book", "a.book", "-o", "-"], book),
        (&["book", "fix", "a.book", "-o", "-"], book),
        (&["book", "apply", "a.book", "part.0", "-o", "-"], book),
        (
            &[
                "book",
                "deviate",
                "a.book",
                "--relative",
                "4",
                "--absolute",
                "8",
                "--depth",
                "2",
                "-o",
                "-",
            ],
            book,
        ),
        (
            &["book", "add-games", "a.book", "logistello.gam", "-o", "-"],
            book,
        ),
        (&["book", "evaluate", "a.book", "-o", "-"], book),
        (&["book", "enhance", "a.book", "-o", "-"], book),
        (&["book", "import", "a.book", "-o", "-"], book),
        (
            &["games", "convert", "games.pgn", "--to", "wtb", "-o", "-"],
            ".wtb file",
        ),
        (&["train", "games.pgn", "--out", "-"], report),
        (
            &[
                "match", "--black", "random", "--white", "random", "--csv", "-",
            ],
            report,
        ),
    ];
    for (args, why) in cases {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(" -: ") && err.contains(why), "{args:?}: {err}");
    }
    assert_eq!(listing(d), ["a.book", "games.pgn", "logistello.gam"]);
}

/// Holds the lock of `output` as another othbook would: an exclusive lock on `.NAME.lock`
/// beside it, with this process's id in it.
fn hold_lock(output: &Path) -> std::fs::File {
    let lock = output.with_file_name(format!(
        ".{}.lock",
        output.file_name().unwrap().to_string_lossy()
    ));
    let mut f = std::fs::File::create(lock).unwrap();
    f.try_lock().unwrap();
    write!(f, "{}", std::process::id()).unwrap();
    f
}

#[test]
fn regression_two_builds_of_one_book_both_succeeded_and_the_last_won() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam", "games.pgn"]);
    build(d, "a.book");
    let a = std::fs::read(d.join("a.book")).unwrap();
    let held = hold_lock(&d.join("same.book"));
    let held_a = hold_lock(&d.join("a.book"));
    let writers: [&[&str]; 7] = [
        &[
            "build",
            "logistello.gam",
            "-o",
            "same.book",
            "--min-games",
            "1",
        ],
        &["merge", "a.book", "-o", "same.book"],
        &["book", "import", "a.book", "-o", "same.book"],
        &["book", "fix", "a.book"],
        &["book", "enhance", "a.book"],
        &["book", "add-games", "a.book", "logistello.gam"],
        &[
            "games",
            "convert",
            "games.pgn",
            "--to",
            "pgn",
            "-o",
            "same.book",
        ],
    ];
    let pid = format!("pid {}", std::process::id());
    for args in writers {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, Some(75), "{args:?}: {err}");
        assert!(
            err.contains("is being written by another process") && err.contains(&pid),
            "{args:?}: {err}"
        );
    }
    assert!(!d.join("same.book").exists());
    assert_eq!(std::fs::read(d.join("a.book")).unwrap(), a);
    drop((held, held_a));
    // The lock files the other process left (as a killed one would) do not block. A sibling
    // test's child may hold our lock's descriptor for a moment between its fork and exec, so
    // a build that meets the lock then is tried again; one that still meets it after HANG
    // fails.
    let built = common::poll(common::HANG, std::time::Duration::from_millis(50), || {
        let (code, _, err) = run_in(
            d,
            &[
                "build",
                "logistello.gam",
                "-o",
                "same.book",
                "--min-games",
                "1",
            ],
        );
        match code {
            Some(0) => Some(Ok(())),
            Some(75) => None,
            _ => Some(Err(format!("{code:?} {err}"))),
        }
    });
    match built {
        Some(Ok(())) => {}
        Some(Err(e)) => panic!("the build after the lock was released failed: {e}"),
        None => panic!("the build after the lock was released still met the lock"),
    }
    assert_eq!(std::fs::read(d.join("same.book")).unwrap(), a);
    assert!(
        !d.join(".same.book.lock").exists(),
        "the lock file was not removed after the build"
    );
}

#[test]
fn regression_games_find_could_export_over_its_own_book() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam"]);
    build(d, "a.book");
    let a = std::fs::read(d.join("a.book")).unwrap();
    let (code, _, err) = run_in(
        d,
        &[
            "games", "find", "--book", "a.book", "--to", "pgn", "-o", "./a.book",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("would destroy the input"), "{err}");
    assert_eq!(std::fs::read(d.join("a.book")).unwrap(), a);
}
