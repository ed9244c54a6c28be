//! othbook's C library: open a book, probe a position, list its moves, search a position,
//! behind opaque handles and plain structs (header `include/othbook.h`, made by cbindgen
//! from this file's doc comments; see docs/c.md).
//!
//! Every function catches panics (none crosses into C: a caught one is `OTHBOOK_ERR_INTERNAL`),
//! checks its pointers (null is `OTHBOOK_ERR_ARGUMENT`) and, on failure, keeps a message for
//! the calling thread that `othbook_last_error` returns.

mod api;
mod types;

pub use api::*;
pub use types::*;
