//! The books one server answers from: how `--book` names them (`NAME=PATH`, or a path named
//! after its file stem), and each named book's slot (the copy served now, or why none is).

use super::reload::{LoadError, Loaded};
use crate::book::BookError;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use thiserror::Error;

/// Longest book name accepted.
pub const MAX_NAME: usize = 64;

/// A book to serve and the name clients ask for it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    pub name: String,
    pub path: PathBuf,
}

/// Why `--book` or a set of them cannot be served.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BookSpecError {
    #[error(
        "{name:?} is not a book name: use 1 to {MAX_NAME} letters, digits, '-', '_' or '.' \
         (NAME=PATH)"
    )]
    BadName { name: String },
    #[error("{text:?}: give a book file (PATH or NAME=PATH)")]
    NoPath { text: String },
    #[error("two books are named {name:?} ({first} and {second}): name them apart with NAME=PATH")]
    Duplicate {
        name: String,
        first: String,
        second: String,
    },
}

/// Whether `name` is a valid book name.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl BookSpec {
    /// `NAME=PATH`, or a plain `PATH` named after its file stem (`wthor.book`: `wthor`). A
    /// text whose part before the first `=` holds a path separator is a plain path.
    pub fn parse(text: &str) -> Result<BookSpec, BookSpecError> {
        let named = text
            .split_once('=')
            .filter(|(name, _)| !name.contains(['/', '\\']));
        let (name, path) = match named {
            Some((name, path)) => (name.to_string(), PathBuf::from(path)),
            None => {
                let path = PathBuf::from(text);
                (BookSpec::name_of(&path), path)
            }
        };
        if path.as_os_str().is_empty() {
            return Err(BookSpecError::NoPath { text: text.into() });
        }
        if !valid_name(&name) {
            return Err(BookSpecError::BadName { name });
        }
        Ok(BookSpec { name, path })
    }

    /// The name a plain path is served under: its file stem.
    #[must_use]
    pub fn name_of(path: &Path) -> String {
        path.file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    }

    /// `specs` with no name twice.
    pub fn check_unique(specs: &[BookSpec]) -> Result<(), BookSpecError> {
        for (i, a) in specs.iter().enumerate() {
            if let Some(b) = specs[..i].iter().find(|b| b.name == a.name) {
                return Err(BookSpecError::Duplicate {
                    name: a.name.clone(),
                    first: b.path.display().to_string(),
                    second: a.path.display().to_string(),
                });
            }
        }
        Ok(())
    }
}

/// One named book of the server: the copy served now (`None`: it never opened), why it
/// could not be opened, and the file it is read from (watched for new versions).
pub struct Slot {
    pub(super) name: String,
    pub(super) current: RwLock<Option<Arc<Loaded>>>,
    /// Why the book could not be opened, for clients (`None` once a copy is served).
    pub(super) failure: RwLock<Option<&'static str>>,
    pub(super) source: Option<PathBuf>,
}

impl Slot {
    pub(super) fn serving(name: String, loaded: Loaded, source: Option<PathBuf>) -> Slot {
        Slot {
            name,
            current: RwLock::new(Some(Arc::new(loaded))),
            failure: RwLock::new(None),
            source,
        }
    }

    pub(super) fn failed(name: String, why: &LoadError, source: PathBuf) -> Slot {
        Slot {
            name,
            current: RwLock::new(None),
            failure: RwLock::new(Some(kind(why))),
            source: Some(source),
        }
    }

    /// The copy served now.
    pub(super) fn book(&self) -> Option<Arc<Loaded>> {
        // The lock only guards a pointer swap: a panic cannot leave it half-done.
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Why the book is not served (`None`: it is).
    pub(super) fn failure(&self) -> Option<&'static str> {
        *self.failure.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Serves `loaded` from now on; requests under way finish with the copy they started on.
    pub(super) fn replace(&self, loaded: Loaded) {
        let fresh = Some(Arc::new(loaded));
        let old = std::mem::replace(
            &mut *self.current.write().unwrap_or_else(|p| p.into_inner()),
            fresh,
        );
        *self.failure.write().unwrap_or_else(|p| p.into_inner()) = None;
        // The old copy is freed here or by the last request using it, outside the lock.
        drop(old);
    }
}

/// What kind of failure kept a book from opening, as clients may see it (no path, no
/// detail: those go to the server's log).
#[must_use]
pub fn kind(e: &LoadError) -> &'static str {
    match e {
        LoadError::Changed { .. } => "changing",
        LoadError::Book(BookError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            "missing"
        }
        LoadError::Book(BookError::Io { .. }) => "unreadable",
        LoadError::Book(_) => "invalid",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn books_are_named_by_name_or_by_file_stem() {
        let named = BookSpec::parse("mine=books/my.book").unwrap();
        assert_eq!(named.name, "mine");
        assert_eq!(named.path, PathBuf::from("books/my.book"));
        let plain = BookSpec::parse("/data/wthor.book").unwrap();
        assert_eq!(plain.name, "wthor");
        let eq_in_dir = BookSpec::parse("dir=x/a.book").unwrap();
        assert_eq!(eq_in_dir.name, "dir");
        let eq_in_path = BookSpec::parse("some/dir=x/a.book").unwrap();
        assert_eq!(eq_in_path.name, "a");
        assert!(matches!(
            BookSpec::parse("bad name=x.book"),
            Err(BookSpecError::BadName { .. })
        ));
        assert!(matches!(
            BookSpec::parse("a="),
            Err(BookSpecError::NoPath { .. })
        ));
        assert!(matches!(
            BookSpec::parse(&format!("{}=x.book", "n".repeat(MAX_NAME + 1))),
            Err(BookSpecError::BadName { .. })
        ));
        let twice = [
            BookSpec::parse("a/wthor.book").unwrap(),
            BookSpec::parse("b/wthor.book").unwrap(),
        ];
        let e = BookSpec::check_unique(&twice).unwrap_err().to_string();
        assert!(e.contains("\"wthor\"") && e.contains("a/wthor.book"), "{e}");
        assert!(BookSpec::check_unique(&twice[..1]).is_ok());
    }
}
