//! Where a command writes, parsed once from its option: `-` is standard output, anything else
//! a file, which the command holds (locked against other writers) for its whole run.

use super::common::bad;
use anyhow::Result;
use othbook::output_lock::OutputLock;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// An output option's value: `-` for standard output, else a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Standard output (`-`).
    Stdout,
    /// A file.
    File(PathBuf),
}

impl From<OsString> for Output {
    fn from(arg: OsString) -> Output {
        if arg == "-" {
            Output::Stdout
        } else {
            Output::File(arg.into())
        }
    }
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::Stdout => f.write_str("standard output"),
            Output::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// Why a book cannot go to standard output.
pub const BOOK: &str = "a book cannot be written to standard output: it must be a seekable \
                        file (give a file name)";

/// Why WTHOR games cannot go to standard output.
pub const WTHOR: &str = "WTHOR output is a .wtb file with WTHOR.JOU and WTHOR.TRN beside it: \
                         give a file (-o NAME.wtb)";

impl Output {
    /// The file, or `None` for standard output.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Output::Stdout => None,
            Output::File(p) => Some(p),
        }
    }

    /// The file of an output that cannot be a stream; for `-`, a usage error
    /// "`{option} -: {why}`".
    pub fn require_file(&self, option: &str, why: &str) -> Result<&Path> {
        self.file().ok_or_else(|| bad(format!("{option} -: {why}")))
    }
}

/// An output file held for the run: no other othbook process writes it meanwhile.
#[derive(Debug)]
pub struct Claimed {
    path: PathBuf,
    _lock: OutputLock,
}

impl Claimed {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Locks `path` for this run; another process writing it makes this one stop at once
/// (exit code [`IN_USE`]).
pub fn claim(path: &Path) -> Result<Claimed> {
    Ok(Claimed {
        path: path.to_path_buf(),
        _lock: othbook::output_lock::lock(path)?,
    })
}

/// [`claim`] for an optional output that must be a file (`why` completes "`{option} -: `").
pub fn claim_file(output: Option<&Output>, option: &str, why: &str) -> Result<Option<Claimed>> {
    output
        .map(|o| claim(o.require_file(option, why)?))
        .transpose()
}

/// Why an output cannot go to standard output when the command writes its report there.
pub const REPORT: &str = "standard output carries the command's report: give a file name";

/// The exit code of a run stopped because another process writes its output (sysexits'
/// EX_TEMPFAIL: try again later).
pub const IN_USE: i32 = 75;

/// Whether `e` says that another process writes the output.
pub fn in_use(e: &anyhow::Error) -> bool {
    use othbook::output_lock::LockError;
    e.chain().any(|c| {
        c.downcast_ref::<LockError>().is_some_and(LockError::in_use)
            || c.downcast_ref::<std::io::Error>().is_some_and(|io| {
                io.get_ref()
                    .and_then(|inner| inner.downcast_ref::<LockError>())
                    .is_some_and(LockError::in_use)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dash_is_standard_output() {
        assert_eq!(Output::from(OsString::from("-")), Output::Stdout);
        assert_eq!(
            Output::from(OsString::from("./-")),
            Output::File("./-".into())
        );
        let err = Output::Stdout.require_file("-o", BOOK).unwrap_err();
        assert!(err.to_string().starts_with("-o -: a book cannot"), "{err}");
    }
}
