//! A book cut short by another program while a process reads it through its map: the process
//! ends with a clear line on stderr and exit code 1, never a silent SIGBUS death. The read is
//! made in a child process (this test binary, running only the ignored helper test below).

mod common;

use common::web::BOOK;
use othbook::book::{Book, CHANGED_UNDER_READ};
use std::io::{BufRead, Write};
use std::process::Stdio;

/// Set for the child: the book it maps and cuts short.
const CHILD_BOOK: &str = "OTHBOOK_TEST_SIGBUS_BOOK";

#[test]
#[ignore = "the child of regression_a_book_cut_short_under_its_map_killed_the_process_silently"]
fn child_reads_a_mapped_book_cut_short() {
    let Some(path) = std::env::var_os(CHILD_BOOK) else {
        return;
    };
    othbook::book::exit_on_sigbus();
    let book = Book::open_lazy(&path).unwrap();
    assert!(book.is_mapped());
    // Another program rewrites the file in place: first it cuts it short.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(4096).unwrap();
    // Every block is read now, through the map, past the file's new end.
    let checked = book.verify();
    panic!("read a book cut short without a signal: {checked:?}");
}

#[test]
fn regression_a_book_cut_short_under_its_map_killed_the_process_silently() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.book");
    std::fs::copy(BOOK, &path).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "child_reads_a_mapped_book_cut_short",
        ])
        .args(["--nocapture", "--test-threads=1"])
        .env(CHILD_BOOK, &path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}: {stderr}", out.status);
    assert_eq!(stderr.matches(CHANGED_UNDER_READ).count(), 1, "{stderr}");
}

#[test]
fn regression_a_cli_query_died_of_sigbus_without_a_word() {
    // The binary installs the handler before anything else: a SIGBUS (sent here, raised by
    // a mapped book cut short in real use) ends it with the line and exit code 1.
    let mut child = common::othbook_process()
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "name").unwrap();
    let mut answer = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut answer)
        .unwrap();
    assert!(answer.starts_with('='), "{answer}");
    let kill = std::process::Command::new("kill")
        .args(["-BUS", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    // The signal is pending now. At end of input gtp ends with 0: what a process that
    // survived the signal does.
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}: {stderr}", out.status);
    assert!(stderr.contains(CHANGED_UNDER_READ), "{stderr}");
}
