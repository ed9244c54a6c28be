//! The `othbook` binary: perft output, help text, and bad input giving exit code 2.

use assert_cmd::Command;

fn othbook() -> Command {
    Command::cargo_bin("othbook").expect("binary")
}

#[test]
fn perft_prints_the_count() {
    let out = othbook()
        .args(["perft", "6", "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("8200 leaves"), "{text}");
    assert!(text.contains("leaves/s"));
}

#[test]
fn perft_divide_after_moves() {
    let out = othbook()
        .args(["perft", "3", "--moves", "f5d6", "--divide"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('\t')).collect();
    assert_eq!(rows.len(), 5, "{text}");
}

#[test]
fn help_lists_subcommands_with_examples() {
    let out = othbook().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("perft"));
    assert!(text.contains("Examples:"));
}

/// The `book` line of `othbook --help` named some of its subcommands only (`enhance` was
/// missing): every name `othbook book --help` lists must be on it.
#[test]
fn regression_help_left_out_book_subcommands() {
    let help = |args: &[&str]| {
        let out = othbook().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let top = help(&["--help"]);
    let entry = top
        .lines()
        .find(|l| l.trim_start().starts_with("book "))
        .expect("book is listed");
    let book = help(&["book", "--help"]);
    let commands: Vec<&str> = book
        .split("Commands:")
        .nth(1)
        .expect("book lists its commands")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    for c in commands {
        assert!(entry.contains(c), "{c} is missing from: {entry}");
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let start = "---------------------------OX------XO--------------------------- X";
    let cases: Vec<Vec<&str>> = vec![
        vec!["perft", "0"],
        vec!["perft", "99"],
        vec!["perft", "-3"],
        vec!["perft", "3", "--moves", "f5z9"],
        vec!["perft", "3", "--moves", "f5f5"],
        vec!["perft", "3", "--moves", "a1"],
        vec!["perft", "3", "--position", "XXO X"],
        vec!["perft", "3", "--position", &start[..60]],
        vec!["perft", "3", "--threads", "0"],
        vec!["perft"],
        vec!["nonsense"],
    ];
    for args in cases {
        let out = othbook().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?}");
    }
}

#[test]
fn error_names_the_ply_of_an_illegal_move() {
    let out = othbook()
        .args(["perft", "2", "--moves", "f5d6a1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("ply 3"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// Boards starting with `-` (FFO #1 and many more) were taken for an unknown option.
#[test]
fn regression_perft_position_starting_with_a_dash_was_read_as_an_option() {
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = othbook()
        .args(["perft", "1", "--position", board])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // FFO #1: the file scores black's 8 moves.
    assert!(text.contains("perft 1: 8 leaves"), "{text}");
}
