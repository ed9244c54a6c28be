//! Ctrl-C, SIGTERM and SIGHUP as a flag that long runs poll, so they can save their work and
//! stop; a second signal ends the process at once (the handler is reset after the first).

use std::sync::atomic::AtomicBool;

static STOP: AtomicBool = AtomicBool::new(false);

/// The run was stopped by a signal after saving what it had: exit code 130.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);

#[cfg(target_os = "linux")]
extern "C" fn on_signal(_: libc::c_int) {
    // Only an atomic store: the one thing a signal handler may safely do here.
    STOP.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Installs the handler and returns the flag it sets.
pub fn install() -> &'static AtomicBool {
    #[cfg(target_os = "linux")]
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: `action` is fully initialised (zeroed, then the handler, an empty mask and
        // flags set); the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
    &STOP
}
