//! Where othbook finds a data file it was not given (the default book, the XOT openings, the
//! FFO positions, the WTHOR folder): the
//! file an environment variable names, else the first that exists of its usual places
//! relative to the current folder, the user's data folder (where an installed binary finds
//! it), and the source tree othbook was built from (so that `cargo run` and the tests work
//! from any folder of a clone).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A data file and the places it is looked for.
#[derive(Clone, Copy, Debug)]
pub struct DataFile {
    /// What the file is, for messages ("the XOT list").
    pub what: &'static str,
    /// The environment variable that names the file.
    pub env: &'static str,
    /// Its usual places relative to the current folder, in order.
    pub here: &'static [&'static str],
    /// Its name in the user's data folder (`$XDG_DATA_HOME`, else `~/.local/share`).
    pub data_name: &'static str,
    /// Its place relative to the source tree's root (the crate's manifest folder).
    pub in_source: &'static str,
}

/// The environment a lookup reads: the variables, empty ones counted as unset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LookupEnv {
    /// The value of [`DataFile::env`].
    pub named: Option<OsString>,
    /// `XDG_DATA_HOME`.
    pub xdg_data: Option<OsString>,
    /// `HOME`.
    pub home: Option<OsString>,
}

impl LookupEnv {
    /// The process's environment for `file`.
    #[must_use]
    pub fn of_process(file: &DataFile) -> LookupEnv {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        LookupEnv {
            named: var(file.env),
            xdg_data: var("XDG_DATA_HOME"),
            home: var("HOME"),
        }
    }
}

/// No place held the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} was not found (looked in {}); set {env} to its path",
    looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
)]
pub struct NotFound {
    /// What the file is.
    pub what: &'static str,
    /// Every place looked in, in order.
    pub looked: Vec<PathBuf>,
    /// The environment variable that names the file.
    pub env: &'static str,
}

/// Where a data file was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The environment variable named it.
    Variable(&'static str),
    /// One of its usual places relative to the current folder.
    Here,
    /// The user's data folder.
    DataFolder,
    /// The source tree othbook was built from.
    SourceTree,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Variable(name) => write!(f, "named by ${name}"),
            Place::Here => f.write_str("in the current folder"),
            Place::DataFolder => f.write_str("in the data folder"),
            Place::SourceTree => f.write_str("in the source tree othbook was built from"),
        }
    }
}

impl DataFile {
    /// The places looked in when the variable is unset, in order.
    #[must_use]
    pub fn places(&self, env: &LookupEnv) -> Vec<PathBuf> {
        let data = env
            .xdg_data
            .clone()
            .map(PathBuf::from)
            .or_else(|| env.home.as_ref().map(|h| Path::new(h).join(".local/share")))
            .map(|d| d.join(self.data_name));
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(self.in_source);
        self.here
            .iter()
            .map(PathBuf::from)
            .chain(data)
            .chain(std::iter::once(source))
            .collect()
    }

    /// The file the variable names (whether it exists or not: opening it then says why not),
    /// else the first of [`places`](Self::places) for which `exists` holds.
    pub fn find_in(
        &self,
        env: &LookupEnv,
        exists: &dyn Fn(&Path) -> bool,
    ) -> Result<PathBuf, NotFound> {
        self.locate_in(env, exists).map(|(path, _)| path)
    }

    /// [`find_in`](Self::find_in), with where the file was found.
    pub fn locate_in(
        &self,
        env: &LookupEnv,
        exists: &dyn Fn(&Path) -> bool,
    ) -> Result<(PathBuf, Place), NotFound> {
        if let Some(named) = &env.named {
            return Ok((PathBuf::from(named), Place::Variable(self.env)));
        }
        let looked = self.places(env);
        let n = looked.len();
        match looked.iter().position(|p| exists(p)) {
            Some(i) => {
                let place = if i < self.here.len() {
                    Place::Here
                } else if i + 1 == n {
                    Place::SourceTree
                } else {
                    Place::DataFolder
                };
                Ok((looked[i].clone(), place))
            }
            None => Err(NotFound {
                what: self.what,
                looked,
                env: self.env,
            }),
        }
    }

    /// [`locate_in`](Self::locate_in) the process's environment and file system.
    pub fn locate(&self) -> Result<(PathBuf, Place), NotFound> {
        self.locate_in(&LookupEnv::of_process(self), &|p: &Path| p.is_file())
    }

    /// [`find_in`](Self::find_in) the process's environment and file system.
    pub fn find(&self) -> Result<PathBuf, NotFound> {
        self.find_in(&LookupEnv::of_process(self), &|p: &Path| p.is_file())
    }

    /// [`find`](Self::find) for a folder of data files rather than one file.
    pub fn find_folder(&self) -> Result<PathBuf, NotFound> {
        self.find_in(&LookupEnv::of_process(self), &|p: &Path| p.is_dir())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: DataFile = DataFile {
        what: "the list",
        env: "LIST",
        here: &["a/list.txt", "../b/list.txt"],
        data_name: "othbook/list.txt",
        in_source: "../b/list.txt",
    };

    fn env(named: Option<&str>, xdg: Option<&str>, home: Option<&str>) -> LookupEnv {
        LookupEnv {
            named: named.map(OsString::from),
            xdg_data: xdg.map(OsString::from),
            home: home.map(OsString::from),
        }
    }

    #[test]
    fn the_variable_wins_then_here_then_the_data_folder_then_the_source_tree() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../b/list.txt");
        let all = |_: &Path| true;
        let e = env(None, Some("/d"), Some("/h"));
        let found = |exists: &dyn Fn(&Path) -> bool| FILE.find_in(&e, exists).unwrap();
        assert_eq!(
            FILE.find_in(&env(Some("/x/l.txt"), Some("/d"), None), &all),
            Ok(PathBuf::from("/x/l.txt"))
        );
        assert_eq!(found(&all), Path::new("a/list.txt"));
        assert_eq!(
            found(&|p: &Path| p == Path::new("../b/list.txt")),
            Path::new("../b/list.txt")
        );
        let not_here = |p: &Path| p.is_absolute();
        assert_eq!(found(&not_here), Path::new("/d/othbook/list.txt"));
        assert_eq!(
            FILE.find_in(&env(None, None, Some("/h")), &not_here),
            Ok(PathBuf::from("/h/.local/share/othbook/list.txt"))
        );
        assert_eq!(found(&|p: &Path| p == source), source);
    }

    #[test]
    fn each_place_is_told_apart() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../b/list.txt");
        let e = env(None, Some("/d"), Some("/h"));
        let place =
            |e: &LookupEnv, exists: &dyn Fn(&Path) -> bool| FILE.locate_in(e, exists).unwrap().1;
        let named = env(Some("/x/l.txt"), None, None);
        assert_eq!(place(&named, &|_: &Path| false), Place::Variable("LIST"));
        assert_eq!(
            place(&e, &|p: &Path| p == Path::new("../b/list.txt")),
            Place::Here
        );
        assert_eq!(
            place(&e, &|p: &Path| p.starts_with("/d")),
            Place::DataFolder
        );
        assert_eq!(place(&e, &|p: &Path| p == source), Place::SourceTree);
        let no_data_folder = env(None, None, None);
        assert_eq!(
            place(&no_data_folder, &|p: &Path| p == source),
            Place::SourceTree
        );
    }

    #[test]
    fn not_found_names_every_place_and_the_variable() {
        let none = |_: &Path| false;
        let err = FILE
            .find_in(&env(None, None, Some("/h")), &none)
            .unwrap_err();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../b/list.txt");
        assert_eq!(
            err.looked,
            [
                PathBuf::from("a/list.txt"),
                PathBuf::from("../b/list.txt"),
                PathBuf::from("/h/.local/share/othbook/list.txt"),
                source.clone(),
            ]
        );
        let text = err.to_string();
        assert!(text.starts_with("the list was not found (looked in a/list.txt, ../b/list.txt, /h/.local/share/othbook/list.txt, "), "{text}");
        assert!(text.contains(&source.display().to_string()), "{text}");
        assert!(text.ends_with("set LIST to its path"), "{text}");
        // Without HOME nor XDG_DATA_HOME there is no data folder to look in.
        let err = FILE.find_in(&LookupEnv::default(), &none).unwrap_err();
        assert_eq!(err.looked.len(), 3);
    }
}
