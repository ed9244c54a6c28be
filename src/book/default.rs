//! Where the default book lives: `books/wthor.book` beside the caller, or in the source tree
//! othbook was built from (so that `cargo run` works from any folder of a clone).

use std::path::{Path, PathBuf};

/// The default book's path relative to the project root.
pub const DEFAULT_BOOK: &str = "books/wthor.book";

/// `books/wthor.book` in the current folder if it is there, else the one in the source tree.
#[must_use]
pub fn default_path() -> PathBuf {
    let here = PathBuf::from(DEFAULT_BOOK);
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_BOOK);
    if !here.exists() && built.exists() {
        built
    } else {
        here
    }
}
