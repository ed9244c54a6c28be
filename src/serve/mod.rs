//! `othbook serve`: the opening explorer in a browser, and the JSON API behind it
//! (`/api/v1/...`, documented in docs/api.md), served by axum on tokio.
//!
//! Book queries are quick and run on the blocking pool so that a slow disk read never stalls
//! the reactor; engine searches are capped in depth and in number (a semaphore), and their
//! results are cached, so that no client can tie the machine up. A server may serve several
//! named books (a `book` parameter picks one; the first is the default); each book file is
//! watched and a new version served once it is complete and valid.

mod api;
mod app;
mod assets;
mod books;
mod cache;
mod conn;
mod error;
mod explore;
mod games;
mod history;
mod params;
mod play;
mod reload;
mod state;
mod watch;

pub use app::{network_warning, router, serve};
pub use books::{BookSpec, BookSpecError};
pub use conn::HEAD_TIMEOUT;
pub use error::ApiError;
pub use reload::{reason, LoadError, CHECK_EVERY};
pub use state::{
    AppState, FilesError, ServeOptions, ServeOptionsError, DEFAULT_MAX_DEPTH,
    DEFAULT_PLAY_MAX_TIME, MAX_BODY_BYTES, MAX_CONNECTIONS,
};
