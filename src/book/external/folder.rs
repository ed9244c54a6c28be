//! The temporary folder of a bounded-memory build or merge: `.NAME.build-tmp-PID/` beside
//! the output, removed when the run ends however it ends (success, error, a stop asked by
//! a signal); a folder left by a killed run is removed by the next run on the same output,
//! once the process that made it is gone.

use crate::book::BookError;
use std::path::{Path, PathBuf};

/// A run's temporary folder, made at first use and removed when dropped.
pub struct TempFolder {
    path: PathBuf,
    made: bool,
}

impl TempFolder {
    /// The folder for `output` (not made yet). Folders that earlier runs on `output` left
    /// behind are removed now if their process has ended.
    pub fn beside(output: &Path) -> TempFolder {
        let dir = match output.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = output
            .file_name()
            .map_or_else(|| "book".into(), |n| n.to_string_lossy().into_owned());
        let prefix = format!(".{name}.build-tmp-");
        remove_leftovers(&dir, &prefix);
        TempFolder {
            path: dir.join(format!("{prefix}{}", std::process::id())),
            made: false,
        }
    }

    /// The folder, made if it is not there yet.
    pub fn path(&mut self) -> Result<&Path, BookError> {
        if !self.made {
            std::fs::create_dir(&self.path).map_err(|e| BookError::Spill {
                folder: self.path.display().to_string(),
                what: "creating the temporary folder".into(),
                source: e,
            })?;
            self.made = true;
        }
        Ok(&self.path)
    }

    /// The folder's name, for messages (whether made or not).
    #[must_use]
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        if self.made {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Removes the folders `dir/{prefix}PID` whose process is gone.
fn remove_leftovers(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        // This process has not made its own folder yet: one with its number is a leftover.
        if pid == std::process::id() || !alive(pid) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Whether process `pid` runs (where that cannot be known, it is taken to run).
fn alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}
