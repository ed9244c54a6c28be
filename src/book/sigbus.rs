//! A clear end for a process whose mapped book file another program cuts short: reading a
//! page of a map past the file's new end raises SIGBUS, which would kill the process
//! without a word. The handler says what happened on stderr and exits with code 1.

/// What the process writes on stderr when a mapped book changed under it.
pub const CHANGED_UNDER_READ: &str = "othbook: a book file changed while it was being read \
(another program wrote to it); the answer was abandoned\n";

/// Set by the first thread that takes the signal: the others end without writing again.
#[cfg(target_os = "linux")]
static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
extern "C" fn on_sigbus(_: libc::c_int) {
    use std::sync::atomic::Ordering;
    if !SAID.swap(true, Ordering::SeqCst) {
        // SAFETY: write(2) of a static buffer is async-signal-safe; a short or failed write
        // only loses the message.
        unsafe {
            libc::write(
                libc::STDERR_FILENO,
                CHANGED_UNDER_READ.as_ptr().cast(),
                CHANGED_UNDER_READ.len(),
            );
        }
    }
    // SAFETY: _exit(2) is async-signal-safe; returning would fault again at the same read.
    unsafe { libc::_exit(1) }
}

/// Installs, once for the process, the SIGBUS handler that ends it with
/// [`CHANGED_UNDER_READ`] on stderr and exit code 1 instead of a silent signal death. For
/// programs (the `othbook` binary calls it first thing); a library user that maps books
/// chooses for itself. Without effect outside Linux.
pub fn exit_on_sigbus() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: `action` is fully initialised (zeroed, then the handler, an empty mask
            // and flags); the handler calls only async-signal-safe functions. SA_ONSTACK
            // uses the thread's alternate stack where std set one up.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }
}
