//! `othbook games players`: player names with their games and the ratings fitted from the
//! games' results (overall, or from the games of some years), sorted by games, rating or
//! name.

use super::common::{bad, unreadable_inputs, write_json};
use anyhow::Result;
use othbook::book::games::ratings::{RatingParams, Ratings};
use othbook::book::games::StoredGame;
use othbook::book::GameTable;
use othbook::report::query::parse_years;
use othbook::report::ratings::{rating_text, score_percent, FitInfo, PlayerOrder, PlayersReport};
use othbook::transcript::people::{by_count, fold};
use othbook::transcript::IngestSummary;
use std::io::Write;

/// The order of `games players`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Sort {
    Games,
    Rating,
    Name,
}

/// What `games players` asks, beside its input.
pub struct PlayersQuery<'a> {
    /// `--years`: count and rate only these years' games.
    pub years: Option<&'a str>,
    pub sort: Sort,
    /// `--search`: only names containing this.
    pub search: Option<&'a str>,
    /// `--limit` (0: all).
    pub limit: usize,
    /// `--format`: table, tsv or json.
    pub format: &'a str,
}

/// Lists the players of `table` (read with `summary`) with their ratings.
pub fn run(
    q: &PlayersQuery<'_>,
    table: &GameTable,
    summary: &IngestSummary,
    out: &mut impl Write,
) -> Result<()> {
    let years = q
        .years
        .map(parse_years)
        .transpose()
        .map_err(|e| bad(format!("--years {e}")))?;
    let keep = |g: &StoredGame| years.is_none_or(|range| g.year.is_some_and(|y| range.contains(y)));
    let counts = table.name_counts_where(keep);
    let ratings = Ratings::of_table(table, keep, RatingParams::default());
    let mut list = by_count(&counts.players);
    if let Some(text) = q.search.map(fold) {
        list.retain(|(n, _)| fold(n).contains(text.as_str()));
    }
    let shown = match q.limit {
        0 => list.len(),
        n => n.min(list.len()),
    };
    let order = match q.sort {
        Sort::Games => PlayerOrder::Games,
        Sort::Rating => PlayerOrder::Rating,
        Sort::Name => PlayerOrder::Name,
    };
    let report = PlayersReport::new(
        &list,
        |name| {
            table
                .name_index(name)
                .and_then(|i| ratings.players[i as usize])
        },
        order,
        shown,
        FitInfo::of(&ratings, years.map(othbook::book::Years::bounds)),
    );
    print(&report, q.format, out)?;
    if list.is_empty() {
        if let Some(text) = q.search {
            return Err(no_name_contains("player", &counts.players, text));
        }
    }
    unreadable_inputs(summary, "the list above counts only what could be read")
}

/// The error for a `--search` text no name contains, naming the closest names.
pub fn no_name_contains(
    what: &str,
    map: &std::collections::BTreeMap<String, u64>,
    q: &str,
) -> anyhow::Error {
    let near = othbook::transcript::people::closest(map, q, 5);
    let hint = if near.is_empty() {
        String::new()
    } else {
        format!("; the closest are {}", near.join(", "))
    };
    anyhow::anyhow!("no {what} name contains {q:?}{hint}")
}

fn print(r: &PlayersReport, format: &str, out: &mut impl Write) -> Result<()> {
    match format {
        "json" => write_json(out, r)?,
        "tsv" => {
            // The first two columns are those of `games events`; the ratings follow.
            writeln!(out, "games\tplayer\trating\trated_games\tscore")?;
            for p in &r.players {
                let rating = p.rating.map_or_else(String::new, |x| format!("{x:.1}"));
                writeln!(
                    out,
                    "{}\t{}\t{rating}\t{}\t{}",
                    p.games, p.name, p.rated_games, p.score
                )?;
            }
        }
        _ => {
            writeln!(
                out,
                "{:>8}  {:>6}  {:>6}  player",
                "games", "rating", "score"
            )?;
            for p in &r.players {
                let score = score_percent(p.score, p.rated_games)
                    .map_or_else(|| "-".to_string(), |s| format!("{s:.1}%"));
                writeln!(
                    out,
                    "{:>8}  {:>6}  {score:>6}  {}",
                    p.games,
                    rating_text(p.rating),
                    p.name
                )?;
            }
            if r.players.len() < r.total {
                writeln!(
                    out,
                    "... and {} more players (--limit 0 lists all)",
                    r.total - r.players.len()
                )?;
            }
            let f = &r.ratings;
            writeln!(
                out,
                "ratings: Elo fit of {} games{}, {} iterations{}; score = points in rated games",
                f.games,
                f.years.map_or_else(String::new, |(lo, hi)| if lo == hi {
                    format!(" of {lo}")
                } else {
                    format!(" of {lo}-{hi}")
                }),
                f.iterations,
                if f.converged { "" } else { " (not converged)" }
            )?;
        }
    }
    Ok(())
}
