//! Reading game inputs for `build`, `games convert` and `games stats`: a progress bar over
//! the input bytes, and the words for a run that found no games.

use othbook::transcript::people::{closest, NameCounts};
use othbook::transcript::IngestSummary;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

/// A progress bar on stderr (hidden when stderr is not a terminal) over the inputs' bytes,
/// and the callback that advances it. Streams have no size: then it counts bytes only.
pub fn input_progress(
    inputs: &[PathBuf],
) -> (indicatif::ProgressBar, Arc<dyn Fn(u64) + Send + Sync>) {
    let sizes: Option<u64> = inputs
        .iter()
        .map(|p| {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file() && p.as_os_str() != "-")
                .map(|m| m.len())
        })
        .sum();
    let bar = if std::io::stderr().is_terminal() {
        match sizes {
            Some(total) => {
                let bar = indicatif::ProgressBar::new(total);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{bar:40} {bytes}/{total_bytes} read, {eta} left",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
                bar
            }
            None => {
                let bar = indicatif::ProgressBar::new_spinner();
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {bytes} read ({elapsed})")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar
            }
        }
    } else {
        indicatif::ProgressBar::hidden()
    };
    let tick = bar.clone();
    (bar, Arc::new(move |n| tick.inc(n)))
}

/// Why the inputs gave no game, from what the summary counted.
pub fn why_no_games(summary: &IngestSummary) -> String {
    if summary.files.iter().all(|f| f.failure.is_some()) {
        "no input could be read (see above)".to_string()
    } else if summary.read == 0 {
        "the inputs hold no games".to_string()
    } else if summary.accepted == 0 {
        format!(
            "all {} game{} read were skipped (see the reasons above)",
            summary.read,
            if summary.read == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "all {} games were dropped as duplicates",
            summary.duplicates
        )
    }
}

/// The filters of a build that matched no game, each with what the games hold instead.
pub fn why_nothing_matched(
    names: &NameCounts,
    player: Option<&str>,
    event: Option<&str>,
    years: Option<(u16, u16)>,
) -> String {
    let mut parts = Vec::new();
    let suggest = |what: &str, query: &str, counts: &std::collections::BTreeMap<String, u64>| {
        let near = closest(counts, query, 5);
        if near.is_empty() {
            format!("{what} {query:?}: no name is close")
        } else {
            let list: Vec<String> = near
                .iter()
                .map(|n| format!("{n} ({} games)", counts[*n]))
                .collect();
            format!(
                "{what} {query:?}: the closest names are {}",
                list.join(", ")
            )
        }
    };
    if let Some(p) = player {
        parts.push(suggest("--player", p, &names.players));
    }
    if let Some(e) = event {
        parts.push(suggest("--event", e, &names.events));
    }
    if let Some((a, b)) = years {
        let span = match (names.years.keys().next(), names.years.keys().next_back()) {
            (Some(lo), Some(hi)) => format!("the games are from {lo}-{hi}"),
            _ => "no game has a year".to_string(),
        };
        parts.push(format!("--years {a}-{b}: {span}"));
    }
    parts.join("; ")
}
