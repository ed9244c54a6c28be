//! `othbook match` with `nboard:COMMAND` players: othbook's own `othbook nboard` as the
//! external engine over pipes, a logging proxy in front of it that checks what the client
//! sends, and mock engines that fail in each way the client must report.

mod common;
use common::run_within;
use std::path::Path;

/// A mock NBoard engine, run as `python3 MOCK MODE LOG [OTHBOOK]`:
/// `proxy` runs `OTHBOOK nboard --no-book`, passes every line both ways and logs each input
/// line, marked `DURING-SEARCH` when it arrived between `go` and the answer; `exit` writes an
/// error on stderr and exits 2 at once; `silent` reads and never answers; `illegal` answers
/// `ping` but plays a1 on every `go`; `hang-go` answers `ping` and never answers `go`.
const MOCK: &str = r#"
import subprocess, sys, threading, time
mode, log = sys.argv[1], open(sys.argv[2], "a")
def note(text):
    log.write(text + "\n")
    log.flush()
if mode == "exit":
    sys.stderr.write("cannot read coefficients/JAa.cof\n")
    sys.stderr.flush()
    sys.exit(2)
print("Mock engine 1.0, all rights reserved", flush=True)
searching = [False]
child = None
if mode == "proxy":
    child = subprocess.Popen([sys.argv[3], "nboard", "--no-book"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1)
    def pump():
        for line in child.stdout:
            if line.startswith("==="):
                searching[0] = False
            sys.stdout.write(line)
            sys.stdout.flush()
    threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    line = line.strip()
    note(("DURING-SEARCH " if searching[0] else "") + line)
    if mode == "proxy":
        if line == "go":
            searching[0] = True
        child.stdin.write(line + "\n")
        child.stdin.flush()
        if line == "quit":
            child.wait()
            break
        continue
    if mode == "silent":
        continue
    word = line.split()[0] if line else ""
    if word == "ping":
        print("pong " + line.split()[1], flush=True)
    elif word == "go":
        if mode == "hang-go":
            time.sleep(1000)
        print("status thinking\nnodestats 10 0.01\n=== A1/0.00/0.01", flush=True)
    elif word == "quit":
        break
"#;

/// Writes [`MOCK`] into `dir` and returns the player spec running it in `mode` with `options`
/// and its log; `None` (the test skipped) without `python3`.
fn mock(dir: &Path, options: &str, mode: &str) -> Option<(String, std::path::PathBuf)> {
    common::tool("python3", "python3")?;
    let script = dir.join("mock_nboard.py");
    std::fs::write(&script, MOCK).unwrap();
    let log = dir.join(format!("{mode}.log"));
    let me = env!("CARGO_BIN_EXE_othbook");
    Some((
        format!(
            "nboard:{options}python3 {} {mode} {} {me}",
            script.display(),
            log.display()
        ),
        log,
    ))
}

#[test]
fn engine_plays_othbook_nboard_over_pipes() {
    let me = env!("CARGO_BIN_EXE_othbook");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let white = format!("nboard:depth=3:{me} nboard --no-book");
    let (code, out, err) = run_within(
        &[
            "match",
            "--black",
            "engine:depth=2,book=none",
            "--white",
            &white,
            "--games",
            "2",
            "--swap",
            "--csv",
            csv.to_str().unwrap(),
        ],
        common::HANG,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        rows.lines().filter(|l| l.contains(",normal,")).count(),
        2,
        "{rows}"
    );
    // The NBoard engine's moves were counted, and its `nodestats` read.
    let line = out.lines().find(|l| l.starts_with("nboard:")).unwrap();
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(cols[1], "2", "{out}");
    assert!(cols[9].parse::<f64>().unwrap() > 0.0, "{out}");
}

/// The client never writes while the engine searches (NBoard engines abort on any input),
/// starts with `nboard 2`, `set depth` and `ping`, follows the game with `move` and, with
/// `time=S`, states the clock in a `set game` before every `go`.
#[test]
fn client_speaks_nboard_as_engines_expect() {
    let dir = tempfile::tempdir().unwrap();
    for (options, clock) in [("depth=3:", false), ("depth=3,time=0.05:", true)] {
        let Some((spec, log)) = mock(dir.path(), options, "proxy") else {
            return;
        };
        let _ = std::fs::remove_file(&log);
        let (code, out, err) = run_within(
            &[
                "match", "--black", &spec, "--white", "simple", "--games", "2", "--swap",
            ],
            common::HANG,
        );
        assert_eq!(code, Some(0), "{out}{err}");
        let sent = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = sent.lines().collect();
        assert_eq!(lines[..3], ["nboard 2", "set depth 3", "ping 1"], "{sent}");
        assert!(!sent.contains("DURING-SEARCH"), "{sent}");
        let gos = lines.iter().filter(|l| **l == "go").count();
        assert!(gos >= 20, "{sent}");
        let moves = lines.iter().filter(|l| l.starts_with("move ")).count();
        if clock {
            for (i, _) in lines.iter().enumerate().filter(|(_, l)| **l == "go") {
                let before = lines[i - 1];
                assert!(
                    before.starts_with("set game (;GM[Othello]") && before.contains("TI["),
                    "{before}"
                );
            }
            assert_eq!(moves, 0, "{sent}");
        } else {
            assert!(moves >= 20, "{sent}");
            assert!(!sent.contains("TI["), "{sent}");
        }
        assert_eq!(lines.last(), Some(&"quit"), "{sent}");
    }
}

#[test]
fn an_engine_that_exits_at_once_is_reported_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let Some((spec, _)) = mock(dir.path(), "", "exit") else {
        return;
    };
    let (code, out, err) = run_within(
        &[
            "match", "--black", &spec, "--white", "random", "--games", "1",
        ],
        common::HANG,
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("mock_nboard.py exit"), "{err}");
    assert!(err.contains("(exit status: 2)"), "{err}");
    assert!(
        err.contains(r#"last stderr: "cannot read coefficients/JAa.cof""#),
        "{err}"
    );
}

#[test]
fn an_engine_that_never_answers_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let Some((spec, _)) = mock(dir.path(), "", "silent") else {
        return;
    };
    let (code, out, err) = run_within(
        &[
            "match",
            "--black",
            &spec,
            "--white",
            "random",
            // Long enough for Python to start and say its name on a loaded machine.
            "--engine-timeout",
            "5",
        ],
        common::HANG,
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains(r#"no answer to "ping 1" within 5s"#), "{err}");
    assert!(
        err.contains(r#"last stdout: "Mock engine 1.0, all rights reserved""#),
        "{err}"
    );
    // Start-up went well, then `go` was never answered: with a clock, the game is lost on
    // time and the match goes on instead of waiting for ever; the hung engine is restarted.
    let Some((spec, _)) = mock(dir.path(), "", "hang-go") else {
        return;
    };
    let (code, out, err) = run_within(
        &[
            "match", "--black", &spec, "--white", "random", "--games", "2", "--time", "1 1 1",
        ],
        common::HANG,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out.matches("black lost on time").count(), 2, "{out}");
}

#[test]
fn an_engine_that_answers_an_illegal_move_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let Some((spec, _)) = mock(dir.path(), "depth=5:", "illegal") else {
        return;
    };
    let (code, out, err) = run_within(
        &[
            "match", "--black", &spec, "--white", "random", "--games", "1",
        ],
        common::HANG,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("black played an illegal move a1"), "{out}");
}
