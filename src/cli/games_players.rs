//! `othbook games players`: player names with their games and the ratings fitted from the
//! games' results (overall, or from the games of some years), sorted by games, rating or
//! name.

use super::common::{bad, open_book, unreadable_inputs, write_json};
use super::games::{names_book, no_name_contains, read_each, NamesArgs};
use super::query_filter::book_games;
use anyhow::Result;
use othbook::book::games::ratings::{RatingParams, Ratings};
use othbook::book::games::StoredGame;
use othbook::book::GameTable;
use othbook::report::query::parse_years;
use othbook::report::ratings::{rating_text, score_percent, FitInfo, PlayerOrder, PlayersReport};
use othbook::transcript::people::{by_count, fold};
use othbook::transcript::IngestSummary;
use std::io::Write;

/// Arguments of `othbook games players`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each player's rating is fitted from the results of the games read (or the \
book's games): an Elo (Bradley-Terry) fit by maximum likelihood, a draw half a win, with a \
weak prior of 2 draws against a 1500-rated anchor (docs/ratings.md). With --years only the \
games of those years are counted and fitted (ratings of a period).\n\n\
Examples:\n  othbook games players ../shared/data/wthor/*.wtb --limit 20\n  \
othbook games players --book books/wthor.book --sort rating --limit 20\n  \
othbook games players --book books/wthor.book --years 1990-1999 --search murakami"
)]
pub struct PlayersArgs {
    #[command(flatten)]
    names: NamesArgs,
    /// Order: games (most first), rating (highest first) or name.
    #[arg(long, value_enum, default_value_t = Sort::Games)]
    sort: Sort,
    /// Count and rate only the games of these years: `1990-2000` or `1995`.
    #[arg(long)]
    years: Option<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Sort {
    Games,
    Rating,
    Name,
}

pub fn run(a: PlayersArgs, out: &mut impl Write) -> Result<()> {
    let years = a
        .years
        .as_deref()
        .map(parse_years)
        .transpose()
        .map_err(|e| bad(format!("--years {e}")))?;
    let (table, summary) = players_table(&a.names)?;
    let keep = |g: &StoredGame| {
        years.is_none_or(|(lo, hi)| g.year.is_some_and(|y| (lo..=hi).contains(&y)))
    };
    let counts = table.name_counts_where(keep);
    let ratings = Ratings::of_table(&table, keep, RatingParams::default());
    let mut list = by_count(&counts.players);
    if let Some(q) = a.names.search.as_deref().map(fold) {
        list.retain(|(n, _)| fold(n).contains(q.as_str()));
    }
    let shown = match a.names.limit {
        0 => list.len(),
        n => n.min(list.len()),
    };
    let order = match a.sort {
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
        FitInfo::of(&ratings, years),
    );
    print(&report, &a.names.format, out)?;
    if list.is_empty() {
        if let Some(q) = &a.names.search {
            return Err(no_name_contains("player", &counts.players, q));
        }
    }
    unreadable_inputs(&summary, "the list above counts only what could be read")
}

/// The games to count: the book's table, or the games of the files (without their moves,
/// which the counts and ratings do not need).
fn players_table(a: &NamesArgs) -> Result<(GameTable, IngestSummary)> {
    if let Some(path) = names_book(a)? {
        let opened = open_book(Some(&path))?;
        let table = book_games(&opened, &path.display().to_string(), "`games players`")?;
        return Ok((table, IngestSummary::default()));
    }
    let mut records = Vec::new();
    let summary = read_each(&a.input, &mut |_, games| {
        records.extend(games.into_iter().map(|mut g| {
            g.moves = Vec::new();
            g
        }));
        Ok(())
    })?;
    Ok((GameTable::from_records(&records), summary))
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
