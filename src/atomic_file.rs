//! Replacing a file all at once: the new contents go to a temporary file beside it, which is
//! renamed over the target only when complete, so an error (a full disk, a killed process)
//! leaves the old file untouched and no half-written one.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `path` through `fill` into a temporary file in the same folder, then renames it
/// over `path`. On any error the temporary file is removed and `path` is as it was.
pub fn replace<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<std::fs::File>) -> io::Result<T>,
) -> io::Result<T> {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let mut out = BufWriter::new(file);
        let value = fill(&mut out)?;
        out.flush()?;
        out.get_ref().sync_all()?;
        drop(out);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable where the platform allows opening a folder.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(value)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
}
