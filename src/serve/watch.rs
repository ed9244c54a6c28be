//! Watching the served book's file: a new version is read once it holds still, checked
//! whole, and served from then on; a bad one is logged and the old book kept.

use super::reload::{load, reason, stamp, LoadError, CHECK_EVERY};
use super::state::AppState;
use std::path::PathBuf;
use std::sync::Arc;

/// Watches the book file at `path` until the task is dropped, reloading it into `state` when
/// it changes. One reload at a time: the next check waits for the current reload.
pub(super) async fn watch(state: Arc<AppState>, path: PathBuf) {
    let mut ticks = tokio::time::interval(CHECK_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The version last acted on (served, or refused and logged), and a new version seen
    // at the previous check, which must hold still for one more check before it is read.
    let mut settled = state.book().stamp;
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
        let Ok(result) = tokio::task::spawn_blocking(move || load(&p, entries)).await else {
            continue;
        };
        match result {
            Ok(loaded) => {
                settled = loaded.stamp;
                eprintln!(
                    "othbook: serve: reloaded {} ({} positions)",
                    loaded.name,
                    loaded.book.counts().0
                );
                state.replace(loaded);
            }
            // Still being written: looked at again at the next check.
            Err(LoadError::Changed { .. }) => {}
            Err(e) => {
                settled = seen;
                let served = state.book();
                eprintln!(
                    "othbook: serve: cannot reload {}, still serving the book read at {}: {}",
                    path.display(),
                    crate::utc::iso8601(served.loaded_at),
                    reason(&e)
                );
            }
        }
    }
}
