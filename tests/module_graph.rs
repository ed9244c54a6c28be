//! The house rules that the scripts check, run as a test: no import cycle among the files of
//! src/, no module importing one above it, no file importing what a facade above it defines,
//! and no function over 100 lines (scripts/modgraph.py and scripts/long_fns.py). Skipped,
//! with the install command, where python3 is not installed (a failure in CI).

mod common;

use std::path::Path;
use std::process::Command;

/// What `python3 scripts/NAME ARGS… SRC` prints, or `None` (skipped, as `common::tool` says)
/// without python3.
fn script(name: &str, args: &[&str]) -> Option<String> {
    let python = common::tool("python3", "python3")?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(python)
        .arg(root.join("scripts").join(name))
        .args(args)
        .arg(root.join("src"))
        .current_dir(root)
        .output()
        .expect("python3 runs");
    // A script that fails (a traceback) must not pass for one that found nothing.
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || errors.is_empty(),
        "scripts/{name} failed: {errors}"
    );
    assert!(errors.is_empty(), "scripts/{name} failed: {errors}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn modules_form_no_cycle_and_import_nothing_above_them() {
    let Some(text) = script("modgraph.py", &[]) else {
        return;
    };
    assert!(
        text.contains("== Cycles (files that import each other, directly or in a loop): 0 =="),
        "{text}"
    );
    assert!(text.contains(", 0 across layers)"), "{text}");
    let upward: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("== Upward imports"))
        .filter(|l| l.contains(" defined in its ancestor ") || l.contains(" a layer "))
        .collect();
    assert!(upward.is_empty(), "{}", upward.join("\n"));
}

#[test]
fn no_function_is_over_100_lines() {
    let Some(text) = script("long_fns.py", &["100"]) else {
        return;
    };
    let long: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}
