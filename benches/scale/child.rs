//! Running a child process and measuring it: wall time, CPU time and peak memory from the
//! kernel's accounting of that one child (`wait4`), with a guard that stops it before it
//! takes the machine's last memory.

use anyhow::{bail, Context, Result};
use std::process::Command;
use std::time::{Duration, Instant};

/// What a finished child cost.
#[derive(Clone, Copy, Debug)]
pub struct Cost {
    /// Exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    pub wall: Duration,
    pub user: Duration,
    pub system: Duration,
    /// Peak resident memory, bytes.
    pub peak_rss: u64,
    /// Stopped by the guard: the machine's available memory fell below the floor.
    pub stopped_low_memory: bool,
}

/// `MemAvailable` of /proc/meminfo, in bytes.
pub fn mem_available() -> Result<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").context("/proc/meminfo")?;
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .context("/proc/meminfo has no MemAvailable")?;
    let kib: u64 = line
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .context("MemAvailable")?;
    Ok(kib * 1024)
}

/// The 1-minute load average.
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn duration_of(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// Whether child `pid` has ended, leaving it unreaped (its accounting still to collect).
fn has_ended(pid: libc::pid_t) -> Result<bool> {
    // SAFETY: siginfo_t is plain data for which all zeroes is a valid value; waitid only
    // writes into it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: `info` is a valid, writable siginfo_t; `pid` is our own unreaped child.
    if unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) } != 0 {
        bail!("waitid: {}", std::io::Error::last_os_error());
    }
    // SAFETY: waitid filled `info` (or left it zeroed when nothing ended, pid then 0).
    Ok(unsafe { info.si_pid() } != 0)
}

/// Runs `cmd` to its end and measures it. While it runs, if `MemAvailable` falls below
/// `floor` bytes the child is killed (so that it does not push the machine into swap or the
/// OOM killer while others work on it), and the cost says so.
pub fn run(mut cmd: Command, floor: u64) -> Result<Cost> {
    let start = Instant::now();
    let child = cmd.spawn().context("starting the child")?;
    let pid = child.id() as libc::pid_t;
    let mut stopped_low_memory = false;
    // Polled, never reaped, until it ends: a kill can then only reach our own child.
    while !has_ended(pid)? {
        if !stopped_low_memory && mem_available()? < floor {
            // SAFETY: `pid` is our child, not yet reaped, so the id is still its own.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            stopped_low_memory = true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let wall = start.elapsed();
    let mut status = 0;
    // SAFETY: rusage is plain data for which all zeroes is valid; wait4 writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our ended, unreaped child; `status` and `usage` are writable.
    if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
        bail!("wait4: {}", std::io::Error::last_os_error());
    }
    // Reaped above: dropping the handle without waiting is what std does anyway.
    drop(child);
    Ok(Cost {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        wall,
        user: duration_of(usage.ru_utime),
        system: duration_of(usage.ru_stime),
        peak_rss: usage.ru_maxrss as u64 * 1024,
        stopped_low_memory,
    })
}
