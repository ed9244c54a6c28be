//! Helpers shared by the integration tests: running the binary, fixtures, shared data.
#![allow(dead_code)] // each test binary uses its own part

use assert_cmd::Command;
use std::path::Path;

pub mod browser;
pub mod edax;
pub mod minimax;
pub mod web;

/// Where the project's own small inputs are.
pub const FIX: &str = "fixtures/transcripts";

/// The `othbook` binary with a fixed book date, so builds are byte-identical.
pub fn othbook() -> Command {
    let mut c = Command::cargo_bin("othbook").unwrap();
    c.env("SOURCE_DATE_EPOCH", "1640995200");
    c
}

/// A fixture's path.
pub fn fix(name: &str) -> String {
    format!("{FIX}/{name}")
}

/// Runs othbook in `dir`: exit code, stdout, stderr.
pub fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = othbook().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `othbook ARGS`, killed after `limit`, which it must not reach: exit code, stdout,
/// stderr.
pub fn run_within(args: &[&str], limit: std::time::Duration) -> (Option<i32>, String, String) {
    let out = othbook().args(args).timeout(limit).output().unwrap();
    assert!(
        out.status.code().is_some(),
        "{args:?} was killed by a signal (still running after {limit:?}, or it crashed)"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Copies fixtures into `dir` under their own names.
pub fn copy_fixtures(dir: &Path, names: &[&str]) {
    for name in names {
        std::fs::copy(fix(name), dir.join(name)).unwrap();
    }
}

/// A file of the shared data, which must be there (tests fail loudly without it).
pub fn need(path: &str) -> &str {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: the shared data must sit beside the clone"
    );
    path
}

/// The `othbook` binary as a plain process (to spawn, signal or run several at once), with
/// the same fixed book date as [`othbook`].
pub fn othbook_process() -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("othbook"));
    c.env("SOURCE_DATE_EPOCH", "1640995200");
    c
}

/// A bound for waits that only guards against a hang: no loaded machine takes this long.
pub const HANG: std::time::Duration = std::time::Duration::from_secs(120);

/// Calls `step` until it gives a value, `every` apart, at most as many times as fit in
/// `limit`; `None` if it never did. The bound counts calls and reads no clock: it only keeps a
/// broken run from hanging the suite and says nothing about speed.
pub fn poll<T>(
    limit: std::time::Duration,
    every: std::time::Duration,
    mut step: impl FnMut() -> Option<T>,
) -> Option<T> {
    let calls = (limit.as_millis() / every.as_millis().max(1)).max(1);
    for _ in 0..calls {
        if let Some(v) = step() {
            return Some(v);
        }
        std::thread::sleep(every);
    }
    None
}

/// `f()` run on a thread of its own; panics, naming `what`, if it has not answered within
/// [`HANG`] (a hang guard: the answer's time is not checked).
pub fn or_hang<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(HANG)
        .unwrap_or_else(|e| panic!("{what}: no answer ({e}): it hung or panicked"))
}

/// Runs `othbook ARGS` in `dir`, sends it SIGINT (Ctrl-C) after `after`, and returns its exit
/// code, standard output and standard error once it has ended.
#[cfg(target_os = "linux")]
pub fn interrupted(
    dir: &Path,
    args: &[&str],
    after: std::time::Duration,
) -> (Option<i32>, String, String) {
    signalled(dir, args, false, |_| {
        std::thread::sleep(after);
        true
    })
}

/// [`interrupted`] for a run that must have saved some work to `output` when it is stopped:
/// if `saved(output)` says it had not (a loaded machine may not get as far in `after`), the
/// output is removed and the run made again with the signal twice as late, until [`HANG`].
#[cfg(target_os = "linux")]
pub fn interrupted_after_work(
    dir: &Path,
    args: &[&str],
    after: std::time::Duration,
    output: &Path,
    saved: impl Fn(&Path) -> bool,
) -> (Option<i32>, String, String) {
    let mut after = after;
    loop {
        let run = interrupted(dir, args, after);
        if saved(output) || after > HANG {
            return run;
        }
        let _ = std::fs::remove_file(output);
        after *= 2;
    }
}

/// Runs `othbook ARGS` in `dir` and, once `ready()` holds (checked every 20 ms, for at most
/// [`HANG`]), sends it SIGINT; with `terminal`, to its whole process group as Ctrl-C at a
/// terminal does, the programs it started included (unless they are in groups of their own).
/// Returns its exit code, standard output and standard error once it has ended. A run that
/// ends by itself first is not signalled.
#[cfg(target_os = "linux")]
pub fn interrupted_when(
    dir: &Path,
    args: &[&str],
    terminal: bool,
    ready: impl Fn() -> bool,
) -> (Option<i32>, String, String) {
    signalled(dir, args, terminal, |child| wait_for(child, ready))
}

/// Waits until `ready()` holds or `child` has ended; fails after [`HANG`].
#[cfg(target_os = "linux")]
fn wait_for(child: &mut std::process::Child, ready: impl Fn() -> bool) -> bool {
    let every = std::time::Duration::from_millis(20);
    let state = poll(HANG, every, || {
        if ready() {
            Some(true)
        } else if child.try_wait().unwrap().is_some() {
            Some(false)
        } else {
            None
        }
    });
    state.unwrap_or_else(|| {
        let _ = child.kill();
        panic!("the run was not ready to be stopped within {HANG:?}");
    })
}

/// Runs othbook (in a process group of its own if `group`), calls `wait` (whose `false` means
/// the run has ended and must not be signalled), sends SIGINT to it or its group, and
/// returns what it gave.
#[cfg(target_os = "linux")]
fn signalled(
    dir: &Path,
    args: &[&str],
    group: bool,
    wait: impl FnOnce(&mut std::process::Child) -> bool,
) -> (Option<i32>, String, String) {
    use std::os::unix::process::CommandExt;
    let mut command = othbook_process();
    command
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if group {
        // Its own group, led by it, so that the signal does not reach the tests.
        command.process_group(0);
    }
    let mut child = command.spawn().unwrap();
    if wait(&mut child) {
        let pid = child.id() as i32;
        // SAFETY: kill(2) on our own child's pid (or the group it leads), not reaped yet
        // (`wait` says so), so the pid cannot belong to another process.
        unsafe { libc::kill(if group { -pid } else { pid }, libc::SIGINT) };
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `dst`: the book `src` evaluated as `othbook` would store it, each position's leaf
/// (its best move out of the book) chosen and scored by `leaf` from the position's canonical
/// board and its moves that leave the book, values negamaxed through the book, and the header
/// saying the leaves were searched `depth` plies deep. Tests that check how values are used,
/// not how good they are, score leaves with [`fake_leaf`] (`othbook book evaluate` makes
/// books with searched leaves).
pub fn evaluate_book(
    src: &Path,
    dst: &Path,
    depth: u8,
    leaf: impl Fn(
        &othbook::board::Board,
        &[othbook::board::Move],
    ) -> Option<(othbook::board::Move, othbook::book::Score)>,
) -> othbook::book::RelinkReport {
    use othbook::book::{board_of, key::Canonical, Book, EvalInfo, Graph, Leaf};
    let mut data = Book::open(src).unwrap().to_data().unwrap();
    let graph = Graph::of(&data);
    for (p, node) in data.positions.iter_mut().zip(&graph.nodes) {
        let board = board_of(p.key);
        if let Some((mv, score)) = leaf(&board, &node.out).filter(|_| !node.out.is_empty()) {
            assert!(node.out.contains(&mv), "a leaf leaves the book");
            let code = Canonical::of(&board).code_of(mv);
            p.eval.leaf = Leaf::Move { code, score };
        }
    }
    data.info.evaluation = Some(EvalInfo {
        depth,
        exact_from: 0,
        ..EvalInfo::default()
    });
    let report = data.relink_with(&graph);
    othbook::book::write_book(dst, &data).unwrap();
    report
}

/// A deterministic stand-in for a search: each move out of the book gets a score from a hash
/// of the position it leads to (within ±8 discs), and the best of them is the leaf.
pub fn fake_leaf(
    board: &othbook::board::Board,
    out: &[othbook::board::Move],
) -> Option<(othbook::board::Move, othbook::book::Score)> {
    use othbook::book::{key::Canonical, Score, ValueKind};
    out.iter()
        .map(|&mv| {
            let child = Canonical::of(&board.play_move(mv).unwrap()).key;
            let h =
                (child.player ^ child.opponent.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            // The child's value for its side to move, negated: the mover's score.
            let score = -(((h >> 40) % 1601) as i16 - 800);
            (
                mv,
                Score {
                    score,
                    depth: 4,
                    kind: ValueKind::Midgame,
                },
            )
        })
        .max_by_key(|(_, s)| s.score)
}

/// The folder for files the tests share within one run: Cargo's scratch folder for
/// integration tests (under `target/`), so that nothing is left in the system's temporary
/// folder. Files there have fixed names and are replaced whole (the writers are atomic), so
/// test processes running at once may write the same file.
pub fn scratch_dir(sub: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(sub);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A book made once per test process by `make` (given the path to write), as `name` in
/// [`scratch_dir`].
pub fn book_once(
    cell: &'static std::sync::OnceLock<std::path::PathBuf>,
    name: &str,
    make: impl FnOnce(&Path),
) -> &'static Path {
    cell.get_or_init(|| {
        let path = scratch_dir("books").join(name);
        make(&path);
        path
    })
}

/// The default book evaluated with [`fake_leaf`], written once per test binary.
pub fn fake_evaluated_book() -> &'static Path {
    static BOOK: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    book_once(&BOOK, "fake-evaluated.book", |path| {
        let report = evaluate_book(default_without_values(), path, 4, fake_leaf);
        assert!(report.valued > 0 && report.missing == 0, "{report:?}");
    })
}

/// The position after `moves` (from the start).
pub fn after(moves: &str) -> othbook::board::Position {
    othbook::board::Position::START
        .replay(othbook::board::parse_moves(moves).unwrap())
        .unwrap()
        .end
}

/// An NBoard `set game` argument: the standard start and `line`'s moves, GGF without the
/// closing `;)`.
pub fn nboard_game(line: &str) -> String {
    let mut game = String::from(
        "(;GM[Othello]PC[t]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    let mut pos = othbook::board::Position::START;
    for mv in othbook::board::parse_moves(line).unwrap() {
        let c = if pos.side == othbook::board::Color::Black {
            'B'
        } else {
            'W'
        };
        game.push_str(&format!("{c}[{}]", mv.to_string().to_uppercase()));
        pos = pos.play(mv).unwrap();
    }
    game
}

/// `score` (for `side` to move) as black minus white, in discs.
pub fn black_discs(score: othbook::book::Score, side: othbook::board::Color) -> f64 {
    match side {
        othbook::board::Color::Black => score.discs(),
        othbook::board::Color::White => -score.discs(),
    }
}

/// Runs othbook in the current folder and returns stdout, failing on a non-zero exit.
pub fn stdout_of(args: &[&str]) -> String {
    let out = othbook().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The default book evaluated by `othbook book evaluate` two plies deep, only its positions
/// of at most 8 plies (deeper ones have no value), written once per test binary.
pub fn partly_evaluated_book() -> &'static Path {
    static BOOK: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    book_once(&BOOK, "partly-evaluated.book", |path| {
        let default = default_without_values();
        stdout_of(&[
            "book",
            "evaluate",
            "--depth",
            "2",
            "--exact-from",
            "0",
            "--plies",
            "8",
            "--threads",
            "1",
            "-o",
            path.to_str().unwrap(),
            default.to_str().unwrap(),
        ]);
    })
}

/// The default book without its values (its game table kept), written once per test binary:
/// the starting point of the books these tests evaluate themselves.
pub fn default_without_values() -> &'static Path {
    static BOOK: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    book_once(&BOOK, "default-without-values.book", |path| {
        let mut data = othbook::book::Book::open(othbook::book::default_path())
            .unwrap()
            .to_data()
            .unwrap();
        data.strip_values();
        othbook::book::write_book(path, &data).unwrap();
    })
}

/// A copy of the default book without its values (game table kept), written into `dir`
/// as `no-values.book`: for the tests of what books without values do.
pub fn default_book_without_values(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("no-values.book");
    std::fs::copy(default_without_values(), &path).unwrap();
    path
}

/// The environment variable that makes a missing outside program a failure instead of a
/// skipped test (CI sets it: there, every program must be installed).
pub const REQUIRE_TOOLS: &str = "OTHBOOK_REQUIRE_TOOLS";

/// An outside program a test needs (`program`: a path, or a name looked up in `PATH`), and the
/// Debian package that installs it. Missing, the test is skipped: a line naming the test, the
/// program and the package goes to the test output, and `None` comes back for the test to
/// return; with `OTHBOOK_REQUIRE_TOOLS=1` it fails instead.
pub fn tool(program: &str, package: &str) -> Option<std::path::PathBuf> {
    let found = if program.contains('/') {
        Some(std::path::PathBuf::from(program)).filter(|p| p.is_file())
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(program))
                .find(|p| p.is_file())
        })
    };
    if found.is_some() {
        return found;
    }
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .unwrap_or("a test")
        .to_string();
    let why = format!("{program} not found; install: apt-get install {package}");
    assert!(
        std::env::var(REQUIRE_TOOLS).as_deref() != Ok("1"),
        "{test}: {why} ({REQUIRE_TOOLS}=1 requires it)"
    );
    skipped(&format!("SKIPPED {test}: {why}"));
    None
}

/// Writes `line` where `cargo test` shows it: the harness captures what `print!` and
/// `eprint!` write for a passing test, but not a write to the standard error handle itself.
fn skipped(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
