//! Where the default book lives: the file `OTHBOOK_BOOK` names, `books/wthor.book` beside the
//! caller, the user's data folder (where an installed binary finds it), or the source tree
//! othbook was built from (so that `cargo run` works from any folder of a clone).

use crate::data_file::{DataFile, NotFound, Place};
use std::path::PathBuf;

/// The default book's path relative to the project root.
pub const DEFAULT_BOOK: &str = "books/wthor.book";

/// The environment variable naming the default book.
pub const BOOK_ENV: &str = "OTHBOOK_BOOK";

/// The default book and where it is looked for; in the data folder (`$XDG_DATA_HOME/othbook/`,
/// else `~/.local/share/othbook/`) it is `othbook/wthor.book`.
const BOOK: DataFile = DataFile {
    what: "the default book",
    env: BOOK_ENV,
    here: &[DEFAULT_BOOK],
    data_name: "othbook/wthor.book",
    in_source: DEFAULT_BOOK,
};

/// The default book: `$OTHBOOK_BOOK` if set; else the first of `books/wthor.book` in the
/// current folder, `$XDG_DATA_HOME/othbook/wthor.book` (`~/.local/share/othbook/wthor.book`
/// when `XDG_DATA_HOME` is unset) and the source tree's `books/wthor.book` that exists; else
/// `books/wthor.book`, so that the error names the usual place.
#[must_use]
pub fn default_path() -> PathBuf {
    BOOK.find().unwrap_or_else(|_| PathBuf::from(DEFAULT_BOOK))
}

/// The default book as [`default_path`] finds it, with where it was found; the error names
/// every place looked in.
pub fn locate_default() -> Result<(PathBuf, Place), NotFound> {
    BOOK.locate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_file::LookupEnv;
    use std::ffi::OsString;
    use std::path::Path;

    fn find(
        book: Option<OsString>,
        xdg_data: Option<OsString>,
        home: Option<OsString>,
        exists: &dyn Fn(&Path) -> bool,
    ) -> PathBuf {
        let env = LookupEnv {
            named: book,
            xdg_data,
            home,
        };
        BOOK.find_in(&env, exists)
            .unwrap_or_else(|_| PathBuf::from(DEFAULT_BOOK))
    }

    #[test]
    fn the_variable_wins_then_here_then_the_data_folder_then_the_source_tree() {
        let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_BOOK);
        let all = |_: &Path| true;
        let s = |x: &str| Some(OsString::from(x));
        assert_eq!(
            find(s("/b/x.book"), None, None, &all),
            Path::new("/b/x.book")
        );
        assert_eq!(find(None, s("/d"), s("/h"), &all), Path::new(DEFAULT_BOOK));
        let not_here = |p: &Path| p.is_absolute();
        assert_eq!(
            find(None, s("/d"), s("/h"), &not_here),
            Path::new("/d/othbook/wthor.book")
        );
        assert_eq!(
            find(None, None, s("/h"), &not_here),
            Path::new("/h/.local/share/othbook/wthor.book")
        );
        let only_built = |p: &Path| p == built;
        assert_eq!(find(None, s("/d"), s("/h"), &only_built), built);
        let none = |_: &Path| false;
        assert_eq!(find(None, s("/d"), s("/h"), &none), Path::new(DEFAULT_BOOK));
    }
}
