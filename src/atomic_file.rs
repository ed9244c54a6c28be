//! Replacing a file all at once: the new contents go to a temporary file beside it, which is
//! renamed over the target only when complete, so an error (a full disk, a killed process)
//! leaves the old file untouched and no half-written one.
//!
//! On Linux the temporary file has no name while it is written (`O_TMPFILE`), so a killed
//! process leaves nothing behind; it gets a name just before the rename. Elsewhere, or on a
//! file system without `O_TMPFILE`, it is a new file with a random name.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Tries for a free random temporary name before giving up (a collision is already
/// improbable; many in a row mean something else is wrong).
const NAME_TRIES: u32 = 100;

/// A random name `.{target}.{random}.tmp` in `dir`.
fn random_name(dir: &Path, target: &str) -> PathBuf {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    // RandomState is seeded from the system's randomness once per process.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    dir.join(format!(".{target}.{:016x}.tmp", h.finish()))
}

/// Where the contents are written before they get the target's name.
enum Temporary {
    /// A file without a name (Linux `O_TMPFILE`) in the target's folder.
    #[cfg(target_os = "linux")]
    Unnamed,
    /// A named file, removed if anything fails.
    Named(PathBuf),
}

/// An unnamed file in `dir`, or `None` where the system or file system cannot make one.
#[cfg(target_os = "linux")]
fn create_unnamed(dir: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Kernels or file systems without O_TMPFILE refuse it (EOPNOTSUPP, EISDIR, EINVAL); any
    // real problem with the folder shows again when the named fallback is created.
    std::fs::OpenOptions::new()
        .write(true)
        .mode(0o666)
        .custom_flags(libc::O_TMPFILE)
        .open(dir)
        .ok()
}

/// A new file with a random name in `dir`.
fn create_named(dir: &Path, target: &str) -> io::Result<(File, PathBuf)> {
    let mut tries = 0;
    loop {
        let tmp = random_name(dir, target);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((f, tmp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < NAME_TRIES => {
                tries += 1;
            }
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot create a temporary file in {}: {e}", dir.display()),
                ))
            }
        }
    }
}

/// Gives the unnamed `file` a free random name in `dir`.
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, dir: &Path, target: &str) -> io::Result<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::io::AsRawFd;
    let from = std::ffi::CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))
        .map_err(io::Error::other)?;
    let mut tries = 0;
    loop {
        let tmp = random_name(dir, target);
        let to = std::ffi::CString::new(tmp.as_os_str().as_bytes()).map_err(io::Error::other)?;
        // SAFETY: both paths are valid NUL-terminated strings that outlive the call, and
        // linkat does not keep them.
        let rc = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if rc == 0 {
            return Ok(tmp);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::AlreadyExists || tries >= NAME_TRIES {
            return Err(io::Error::new(
                e.kind(),
                format!("cannot name the temporary file in {}: {e}", dir.display()),
            ));
        }
        tries += 1;
    }
}

/// The name of the file `path` names, for its temporaries (`output` when it has none).
fn target_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned())
}

/// Writes a complete temporary file for `path` through `fill`, in the same folder, flushed to
/// the disk and named `.{name}.{random}.tmp`. On any error nothing is left.
fn write_temporary<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>,
) -> io::Result<(T, PathBuf)> {
    let dir = folder_of(path);
    let name = target_name(path);
    #[cfg(target_os = "linux")]
    let unnamed = create_unnamed(&dir).map(|f| (f, Temporary::Unnamed));
    #[cfg(not(target_os = "linux"))]
    let unnamed: Option<(File, Temporary)> = None;
    let (file, tmp) = match unnamed {
        Some(t) => t,
        None => create_named(&dir, &name).map(|(f, p)| (f, Temporary::Named(p)))?,
    };
    let mut named = match &tmp {
        Temporary::Named(p) => Some(p.clone()),
        #[cfg(target_os = "linux")]
        Temporary::Unnamed => None,
    };
    let result = (|| {
        let mut out = BufWriter::new(file);
        let value = fill(&mut out)?;
        out.flush()?;
        out.get_ref().sync_all()?;
        #[cfg(target_os = "linux")]
        if named.is_none() {
            named = Some(link_unnamed(out.get_ref(), &dir, &name)?);
        }
        Ok(value)
    })();
    match (result, named) {
        (Ok(value), Some(tmp)) => Ok((value, tmp)),
        (Ok(_), None) => Err(io::Error::other("the temporary file got no name")),
        (Err(e), named) => {
            if let Some(tmp) = named {
                let _ = std::fs::remove_file(tmp);
            }
            Err(e)
        }
    }
}

/// Makes renames in `dir` durable where the platform allows opening a folder.
fn sync_folder(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes `path` through `fill` into a temporary file in the same folder, then renames it
/// over `path`. On any error the temporary file is removed and `path` is as it was.
pub fn replace<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>,
) -> io::Result<T> {
    let (value, tmp) = write_temporary(path, fill)?;
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    sync_folder(&folder_of(path));
    Ok(value)
}

/// A file of [`replace_all`] whose new contents are complete in a temporary file.
struct Staged<'a> {
    target: &'a Path,
    tmp: PathBuf,
    /// A second name for the file being replaced, to put it back if a later rename fails.
    backup: Option<PathBuf>,
    /// Whether the target existed before.
    existed: bool,
    renamed: bool,
}

/// Replaces several files as one: every new file is written completely to a temporary first,
/// and only then are they renamed over their targets. An error while writing (a full disk)
/// leaves every target as it was and no temporary; a rename that fails part way puts back
/// the files already replaced (from a hard link made to each before: on a file system
/// without hard links, one already replaced stays new).
pub fn replace_all(files: &[(&Path, &[u8])]) -> io::Result<()> {
    let mut staged: Vec<Staged> = Vec::with_capacity(files.len());
    let written = files.iter().try_for_each(|(path, bytes)| {
        let ((), tmp) = write_temporary(path, |w| w.write_all(bytes))?;
        staged.push(Staged {
            target: path,
            tmp,
            backup: None,
            existed: false,
            renamed: false,
        });
        Ok(())
    });
    let result = written.and_then(|()| commit(&mut staged));
    if result.is_err() {
        roll_back(&staged);
    }
    for s in &staged {
        if let Some(b) = &s.backup {
            let _ = std::fs::remove_file(b);
        }
    }
    result
}

/// Renames the staged files over their targets, each existing target first given a backup
/// name.
fn commit(staged: &mut [Staged]) -> io::Result<()> {
    for s in staged.iter_mut() {
        s.existed = s.target.exists();
        if s.existed {
            let dir = folder_of(s.target);
            let backup = random_name(&dir, &target_name(s.target));
            if std::fs::hard_link(s.target, &backup).is_ok() {
                s.backup = Some(backup);
            }
        }
    }
    for s in staged.iter_mut() {
        std::fs::rename(&s.tmp, s.target)?;
        s.renamed = true;
    }
    for s in staged.iter() {
        sync_folder(&folder_of(s.target));
    }
    Ok(())
}

/// Undoes a failed [`replace_all`]: temporaries removed, replaced targets put back (or
/// removed when there was none before).
fn roll_back(staged: &[Staged]) {
    for s in staged {
        if !s.renamed {
            let _ = std::fs::remove_file(&s.tmp);
            continue;
        }
        match &s.backup {
            Some(b) => {
                let _ = std::fs::rename(b, s.target);
            }
            None if !s.existed => {
                let _ = std::fs::remove_file(s.target);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        let err = replace(&path, |w| {
            w.write_all(b"partial")?;
            Err::<(), _>(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk full");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        replace(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replace_all_writes_every_file_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "old a").unwrap();
        replace_all(&[(&a, b"new a"), (&b, b"new b")]).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(listing(dir.path()), ["a", "b"]);
    }

    #[test]
    fn replace_all_puts_back_what_it_replaced_when_a_rename_fails() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        // A non-empty folder cannot be replaced by a file: the last rename fails.
        let folder = dir.path().join("c");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("inside"), "x").unwrap();
        std::fs::write(&a, "old a").unwrap();
        replace_all(&[(&a, b"new a"), (&b, b"new b"), (&folder, b"new c")]).unwrap_err();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert_eq!(listing(dir.path()), ["a", "c"]);
    }

    #[test]
    fn the_named_fallback_writes_and_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        let (mut f, tmp) = create_named(dir.path(), "x").unwrap();
        f.write_all(b"y").unwrap();
        assert!(tmp
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".x."));
        assert_ne!(random_name(dir.path(), "x"), random_name(dir.path(), "x"));
    }

    /// A leftover temporary file of a killed run whose process id comes back must not make
    /// later writes fail: temporary names are unique beyond the process id.
    #[test]
    fn regression_leftover_temporary_with_our_pid_broke_the_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let leftover = dir
            .path()
            .join(format!(".out.txt.{}.tmp", std::process::id()));
        std::fs::write(&leftover, "from a killed run").unwrap();
        replace(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    const CHILD_DIR: &str = "OTHBOOK_TEST_KILLED_WRITER_DIR";

    /// A writer killed while writing must not leave its temporary file behind (killed builds
    /// would pile up gigabytes of them). The test runs itself again as a child that writes
    /// and then waits to be killed.
    #[cfg(target_os = "linux")]
    #[test]
    fn regression_killed_writer_left_its_temporary_file() {
        use std::io::BufRead;
        if let Some(dir) = std::env::var_os(CHILD_DIR) {
            let _ = replace(&Path::new(&dir).join("out.bin"), |w| -> io::Result<()> {
                w.write_all(&[7; 1 << 20])?;
                w.flush()?;
                println!("written");
                io::stdout().flush()?;
                loop {
                    std::thread::park();
                }
            });
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "atomic_file::tests::regression_killed_writer_left_its_temporary_file",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_DIR, dir.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = io::BufReader::new(child.stdout.take().unwrap());
        let mut written = false;
        for line in stdout.lines() {
            if line.unwrap().contains("written") {
                written = true;
                break;
            }
        }
        assert!(written, "the child did not write");
        child.kill().unwrap();
        child.wait().unwrap();
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}
