//! Watching each served book's file: a new version is read once it holds still, checked
//! whole, and served from then on; a bad one is logged and the last good copy kept. A book
//! that did not open at the start is watched too, and served once a valid version appears.

use super::reload::{load, name_of, reason, stamp, LoadError, CHECK_EVERY};
use super::state::AppState;
use std::path::PathBuf;
use std::sync::Arc;

/// Watches the file at `path` of the server's book number `slot` until the task is
/// dropped, reloading it when it changes. One reload at a time: the next check waits for
/// the current reload.
pub(super) async fn watch(state: Arc<AppState>, slot: usize, path: PathBuf) {
    let mut ticks = tokio::time::interval(CHECK_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let book = &state.books[slot];
    // The version last acted on (served, or refused and logged), and a new version seen
    // at the previous check, which must hold still for one more check before it is read.
    let mut settled = match book.book() {
        Some(served) => served.stamp,
        None => {
            let p = path.clone();
            tokio::task::spawn_blocking(move || stamp(&p))
                .await
                .ok()
                .flatten()
        }
    };
    let mut pending = None;
    loop {
        ticks.tick().await;
        let p = path.clone();
        let Ok(seen) = tokio::task::spawn_blocking(move || stamp(&p)).await else {
            continue;
        };
        if seen == settled {
            pending = None;
            continue;
        }
        if pending != Some(seen) {
            pending = Some(seen);
            continue;
        }
        pending = None;
        let p = path.clone();
        let entries = state.options.cache_entries;
        let name = book.name.clone();
        let Ok(result) = tokio::task::spawn_blocking(move || load(&p, &name, entries)).await else {
            continue;
        };
        match result {
            Ok(loaded) => {
                settled = loaded.stamp;
                eprintln!(
                    "othbook: serve: reloaded {} ({} positions)",
                    name_of(&path),
                    loaded.book.counts().0
                );
                book.replace(loaded);
            }
            // Still being written: looked at again at the next check.
            Err(LoadError::Changed { .. }) => {}
            Err(e) => {
                settled = seen;
                let kept = match book.book() {
                    Some(served) => format!(
                        "still serving the book read at {}",
                        crate::utc::iso8601(served.loaded_at)
                    ),
                    None => format!("book {} stays unavailable", book.name),
                };
                eprintln!(
                    "othbook: serve: cannot reload {}, {kept}: {}",
                    path.display(),
                    reason(&e)
                );
            }
        }
    }
}
