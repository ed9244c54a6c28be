//! One writer per output file: a command that writes a file holds an exclusive advisory lock
//! on a lock file beside it (`.NAME.lock`) for its whole run, so that a second run writing the
//! same file stops at once instead of silently replacing the first one's work.
//!
//! The lock is the operating system's (`flock` on Unix): it ends with the process, so a lock
//! file left by a killed run blocks nothing; the holder removes the file when done.

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Why an output could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the output's lock.
    #[error(
        "{} is being written by another process{}: wait for it to finish or write another \
         file (its lock: {})",
        output.display(),
        pid.map_or_else(String::new, |p| format!(" (pid {p})")),
        lock.display()
    )]
    InUse {
        /// The output file.
        output: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The holder's process id, when its lock file says.
        pid: Option<u32>,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock {} for writing ({}): {source}", output.display(), lock.display())]
    Io {
        /// The output file.
        output: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

impl LockError {
    /// Whether another process holds the lock (rather than the lock failing).
    pub fn in_use(&self) -> bool {
        matches!(self, LockError::InUse { .. })
    }
}

impl From<LockError> for io::Error {
    fn from(e: LockError) -> io::Error {
        let kind = if e.in_use() {
            io::ErrorKind::ResourceBusy
        } else {
            io::ErrorKind::Other
        };
        io::Error::new(kind, e)
    }
}

/// The lock held on one output; released, and its lock file removed, when dropped.
#[derive(Debug)]
pub struct OutputLock {
    lock: PathBuf,
    file: File,
}

/// The lock file of `output`: `.NAME.lock` in the same folder.
pub fn lock_path(output: &Path) -> PathBuf {
    let name = output
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let lock = format!(".{name}.lock");
    match output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.join(lock),
        _ => PathBuf::from(lock),
    }
}

/// How often a lock file that its holder removed between our opening and locking it is
/// opened again before giving up.
const TRIES: u32 = 10;

/// Takes the lock on `output`, or fails at once if another process holds it.
pub fn lock(output: &Path) -> Result<OutputLock, LockError> {
    let lock = lock_path(output);
    let io_err = |source| LockError::Io {
        output: output.to_path_buf(),
        lock: lock.clone(),
        source,
    };
    for _ in 0..TRIES {
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .map_err(io_err)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(LockError::InUse {
                    output: output.to_path_buf(),
                    lock: lock.clone(),
                    pid: holder(&mut file),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_err(e)),
        }
        // The previous holder removes its lock file before releasing it: a file locked after
        // that has no name any more, and the next writer would lock a new one.
        if !still_named(&file, &lock) {
            continue;
        }
        let pid = format!("{}\n", std::process::id());
        file.set_len(0)
            .and_then(|()| file.write_all(pid.as_bytes()))
            .map_err(io_err)?;
        return Ok(OutputLock { lock, file });
    }
    Err(io_err(io::Error::other(
        "its lock file kept being removed by other processes",
    )))
}

/// The process id written in a lock file by its holder.
fn holder(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Whether `path` still names the open `file`.
fn still_named(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still locked, so that no other process can be holding this file.
        let _ = std::fs::remove_file(&self.lock);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_fails_and_the_first_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x.book");
        let first = lock(&out).unwrap();
        let lock_file = dir.path().join(".x.book.lock");
        assert!(lock_file.exists());
        let err = lock(&out).unwrap_err();
        assert!(err.in_use(), "{err}");
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("pid {}", std::process::id())),
            "{msg}"
        );
        drop(first);
        assert!(!lock_file.exists());
        drop(lock(&out).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_stale_lock_file_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x.book");
        std::fs::write(lock_path(&out), "999999999\n").unwrap();
        drop(lock(&out).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn lock_files_sit_beside_their_output() {
        assert_eq!(lock_path(Path::new("a.book")), Path::new(".a.book.lock"));
        assert_eq!(
            lock_path(Path::new("d/e/a.wtb")),
            Path::new("d/e/.a.wtb.lock")
        );
    }
}
