//! `build` and `merge` in bounded memory (`--memory`): the same bytes as in memory, the
//! build sharded by input and merged, the temporary folder removed on success, error, a
//! signal and after a kill, and a failed write reported with nothing left behind.

mod common;
use common::{need, othbook, othbook_process};
use std::path::{Path, PathBuf};

const WTHOR: &str = "../shared/data/wthor";

fn wthor_files(years: std::ops::RangeInclusive<u32>) -> Vec<String> {
    let dir = std::fs::canonicalize(need(WTHOR)).unwrap();
    years
        .map(|y| dir.join(format!("WTH_{y}.wtb")))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect()
}

fn build(inputs: &[String], out: &Path, extra: &[&str]) -> String {
    let o = othbook()
        .arg("build")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What is in `dir` besides `keep`.
fn others(dir: &Path, keep: &[&Path]) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !keep.contains(&p.as_path()))
        .collect()
}

/// All of WTHOR built within a small budget (its positions counted first, then many runs,
/// merged in several passes) is the book built in memory, byte for byte, on one thread as
/// on all, and the folder holds nothing else afterwards.
#[test]
fn bounded_build_of_wthor_is_the_build_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let files = wthor_files(1977..=2030);
    let (a, b) = (dir.path().join("a.book"), dir.path().join("b.book"));
    build(&files, &a, &["--plies", "24", "--min-games", "2"]);
    for threads in ["1", "3"] {
        let said = build(
            &files,
            &b,
            &[
                "--plies",
                "24",
                "--min-games",
                "2",
                "--memory",
                "24M",
                "--threads",
                threads,
            ],
        );
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "--threads {threads}: {said}"
        );
    }
    assert!(others(dir.path(), &[&a, &b]).is_empty());
}

/// Shards built with --min-games 1 and merged with --min-games N make the book one build
/// with --min-games N makes: game table, sources, date and options included.
#[test]
fn sharded_build_merged_is_the_whole_build() {
    let dir = tempfile::tempdir().unwrap();
    let files = wthor_files(2015..=2021);
    let whole = dir.path().join("whole.book");
    build(&files, &whole, &["--plies", "30", "--min-games", "3"]);
    let mut shards = Vec::new();
    for (i, part) in files.chunks(3).enumerate() {
        let s = dir.path().join(format!("shard{i}.book"));
        build(
            part,
            &s,
            &["--plies", "30", "--min-games", "1", "--memory", "8M"],
        );
        shards.push(s);
    }
    for memory in ["1G", "64K"] {
        let merged = dir.path().join("merged.book");
        othbook()
            .arg("merge")
            .args(&shards)
            .arg("-o")
            .arg(&merged)
            .args(["--min-games", "3", "--memory", memory])
            .assert()
            .success();
        assert!(
            std::fs::read(&whole).unwrap() == std::fs::read(&merged).unwrap(),
            "--memory {memory}: the merged shards are not the whole build"
        );
    }
}

/// A folder left by a killed build (its process gone) is removed by the next build of the
/// same book; one of a running process is not.
#[test]
fn leftover_temporary_folders_of_dead_builds_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    // Process numbers stop well below 2^22 on Linux.
    let dead = dir.path().join(".x.book.build-tmp-4194999");
    let live = dir
        .path()
        .join(format!(".x.book.build-tmp-{}", std::process::id()));
    let other = dir.path().join(".y.book.build-tmp-4194999");
    for d in [&dead, &live, &other] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(d.join("run-0.book"), b"x").unwrap();
    }
    build(&wthor_files(2021..=2021), &out, &["--plies", "10"]);
    assert!(!dead.exists(), "the dead build's folder is still there");
    assert!(live.exists() && other.exists());
}

/// Runs `cmd` to its end: whether it succeeded, and its peak memory in bytes.
#[allow(clippy::zombie_processes)] // reaped by wait4, which `Child::wait` cannot replace
fn run_measured(mut cmd: std::process::Command) -> (bool, u64) {
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: wait4 on our own child, not reaped yet, so the pid is its; it writes only the
    // status and the zeroed rusage given, and keeps no pointer.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id() as i32, &mut status, 0, &mut u);
        u
    };
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (ok, usage.ru_maxrss as u64 * 1024)
}

/// The complaint: memory grew with every position read (all of WTHOR at 60 plies
/// took 1.7 GB, 1.2 GB built in memory now). Within --memory 64M the peak stays far below.
#[test]
fn regression_build_memory_grew_with_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = othbook_process();
    cmd.arg("build")
        .args(wthor_files(1977..=2030))
        .arg("-o")
        .arg(dir.path().join("all.book"))
        .args(["--plies", "60", "--min-games", "1", "--memory", "64M"]);
    let (ok, peak) = run_measured(cmd);
    assert!(ok);
    assert!(peak < 400 << 20, "peak {} MB", peak >> 20);
}

/// A write that fails (here: past a file size limit, as on a full disk) is an error naming
/// the temporary folder and what was being written, and leaves nothing behind.
#[test]
fn regression_a_failed_spill_left_files_or_said_nothing_useful() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    let mut cmd = othbook_process();
    cmd.arg("build")
        .args(wthor_files(2019..=2021))
        .arg("-o")
        .arg(&out)
        .args(["--plies", "40", "--min-games", "1", "--memory", "4M"]);
    // SAFETY: between fork and exec only async-signal-safe calls: setrlimit and signal.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 300_000,
                rlim_max: 300_000,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            // Writes past the limit fail (EFBIG) instead of killing the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(".x.book.build-tmp-"), "{err}");
    assert!(err.contains("writing a run of games"), "{err}");
    assert!(
        others(dir.path(), &[]).is_empty(),
        "{:?}",
        others(dir.path(), &[])
    );
}

/// Ctrl-C while runs are being written: exit code 130, no book, no temporary folder.
#[test]
fn interrupted_bounded_build_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let files = wthor_files(1977..=2030);
    let mut args = vec!["build".to_string()];
    args.extend(files);
    args.extend(
        [
            "-o",
            "x.book",
            "--plies",
            "60",
            "--min-games",
            "1",
            "--memory",
            "1M",
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let path = dir.path().to_path_buf();
    let (code, _, err) = common::interrupted_when(dir.path(), &args, false, || {
        others(&path, &[])
            .iter()
            .any(|p| p.join("run-1.book").exists())
    });
    assert_eq!(code, Some(130), "{err}");
    assert!(
        others(dir.path(), &[]).is_empty(),
        "{:?}",
        others(dir.path(), &[])
    );
}

#[test]
fn build_and_merge_refuse_options_out_of_range_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let input = &wthor_files(2021..=2021)[0];
    let book = dir.path().join("x.book");
    let runs: [(&[&str], &str); 5] = [
        (&["build", input, "--plies", "0"], "--plies 0: use 1 to 120"),
        (
            &["build", input, "--plies", "121"],
            "--plies 121: use 1 to 120",
        ),
        (
            &["build", input, "--min-games", "0"],
            "--min-games must be at least 1",
        ),
        (
            &["build", input, "--player-side", "black"],
            "--player-side needs --player",
        ),
        (
            &["merge", input, "--min-games", "0"],
            "--min-games must be at least 1",
        ),
    ];
    for (args, message) in runs {
        let o = othbook().args(args).arg("-o").arg(&book).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!book.exists(), "{args:?}");
    }
}
