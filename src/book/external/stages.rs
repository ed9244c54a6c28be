//! Where a bounded build's time goes: with `OTHBOOK_STAGES` set, each stage's wall time,
//! CPU time (user + system, the whole process) and bytes read and written by the process
//! (`/proc/self/io`, the disk's view) are printed to standard error as the stage ends.

use std::sync::Mutex;
use std::time::Instant;

/// The environment variable that turns the report on.
pub const STAGES_ENV: &str = "OTHBOOK_STAGES";

/// What was measured at the end of the last stage.
struct Mark {
    wall: Instant,
    cpu: (f64, f64),
    io: (u64, u64),
}

static LAST: Mutex<Option<Mark>> = Mutex::new(None);

fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os(STAGES_ENV).is_some())
}

/// User and system CPU seconds of the process so far.
fn cpu() -> (f64, f64) {
    // SAFETY: getrusage only writes the struct it is given, zeroed and of the right type.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) != 0 {
            return (0.0, 0.0);
        }
        u
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (secs(usage.ru_utime), secs(usage.ru_stime))
}

/// Bytes the process read from and wrote to storage so far (0 where the kernel does not
/// say).
fn io() -> (u64, u64) {
    let text = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    (field("read_bytes:"), field("write_bytes:"))
}

fn now() -> Mark {
    Mark {
        wall: Instant::now(),
        cpu: cpu(),
        io: io(),
    }
}

/// Starts the clock (the first stage begins here).
pub(super) fn start() {
    if enabled() {
        *LAST.lock().unwrap_or_else(|e| e.into_inner()) = Some(now());
    }
}

/// Ends the stage `name`: prints what it took since the last mark and starts the next.
pub(super) fn end(name: &str) {
    if !enabled() {
        return;
    }
    let m = now();
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = last.as_ref() {
        const MB: f64 = 1e6;
        eprintln!(
            "stage {name}: wall {:.1} s, cpu {:.1} s ({:.1} user + {:.1} sys), read {:.0} MB, written {:.0} MB",
            m.wall.duration_since(l.wall).as_secs_f64(),
            m.cpu.0 - l.cpu.0 + m.cpu.1 - l.cpu.1,
            m.cpu.0 - l.cpu.0,
            m.cpu.1 - l.cpu.1,
            m.io.0.saturating_sub(l.io.0) as f64 / MB,
            m.io.1.saturating_sub(l.io.1) as f64 / MB,
        );
    }
    *last = Some(m);
}
