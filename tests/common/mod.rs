//! Helpers shared by the integration tests: running the binary, fixtures, shared data.
#![allow(dead_code)] // each test binary uses its own part

use assert_cmd::Command;
use std::path::Path;

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
