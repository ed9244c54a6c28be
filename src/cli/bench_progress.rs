//! Progress of the `bench` measurements on stderr, shared by its parts.

use std::time::Instant;

/// Every tenth position, how far a part of the measurement is.
pub fn progress(what: &str, done: usize, total: usize, start: Instant) {
    if done.is_multiple_of(10) {
        eprintln!(
            "{what}: {done}/{total} positions ({:.1} s)",
            start.elapsed().as_secs_f64()
        );
    }
}
