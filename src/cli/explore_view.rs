//! How `othbook explore` prints its report: the position's games (and value, in an evaluated
//! book), then one row per move, as a table or TSV (JSON is the report itself).

use super::common::{diff_cell, percent_cells, tsv_num, write_opening};
use anyhow::Result;
use othbook::board::Move;
use othbook::book::trust::percent_text;
use othbook::report::explore::MoveRow;
use othbook::report::ratings::{rating_text, MoveRating};
use othbook::report::{ExploreReport, Results, ValueFields};
use std::io::Write;

/// The columns of `--format tsv` (`value...` with values, `eval` with `--depth`).
pub const TSV_HEADER: &str =
    "move\tgames\tshare\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff";

/// The value columns of `--format tsv`.
const TSV_VALUE_HEADER: &str = "\tvalue\tvalue_depth\tvalue_kind\terror\twin\tdraw\tloss\tbest";

/// Percent of the position's games that `games` is.
fn share(r: &ExploreReport, games: u64) -> f64 {
    100.0 * games as f64 / r.results.games.max(1) as f64
}

/// TSV cells `value`, `value_depth`, `value_kind`, `error`, `win`, `draw`, `loss` (empty
/// without a value; `error` empty for a WLD value), each after a tab.
pub fn tsv_value_cells(v: &ValueFields) -> String {
    match (v.number(), v.value_depth, v.value_kind) {
        (Some(n), Some(d), Some(k)) => format!(
            "\t{n}\t{d}\t{}\t{}\t{}\t{}\t{}",
            k.word(),
            tsv_num(v.error),
            tsv_num(v.win),
            tsv_num(v.draw),
            tsv_num(v.loss)
        ),
        _ => "\t\t\t\t\t\t\t".to_string(),
    }
}

/// The table cell of a value's chances: `46%` (the side is in the column's header).
fn chance_cell(v: &ValueFields) -> String {
    v.win.map_or_else(|| "-".into(), percent_text)
}

pub fn table(r: &ExploreReport, out: &mut impl Write) -> Result<()> {
    writeln!(out, "{}", r.position.diagram())?;
    table_summary(r, out)?;
    if r.moves.is_empty() {
        if r.in_book {
            writeln!(out, "No next move in the book.")?;
        }
    } else {
        let mut header = "\nmove    games   share  black%  draw%  white%    avg".to_string();
        if r.value.is_some() {
            header.push_str(&format!(
                " {:>12}  {:>10}",
                "value",
                format!("{} wins", r.side)
            ));
        }
        if r.eval.is_some() {
            header.push_str(&format!(" {:>7}", "eval"));
        }
        if r.ratings.is_some() {
            header.push_str(&format!(" {:>6} {:>6}", "rating", "perf"));
        }
        if r.moves.iter().any(|m| m.opening.is_some()) {
            header.push_str("  opening");
        }
        writeln!(out, "{}", header.trim_end())?;
    }
    for row in &r.moves {
        table_row(r, out, row)?;
    }
    table_footnotes(r, out)?;
    if let Some(games) = &r.listed_games {
        writeln!(out)?;
        if games.is_empty() {
            writeln!(out, "No game listed: none reaches this position.")?;
        } else {
            if !r.in_book {
                writeln!(
                    out,
                    "Games that reached it (fewer than the book keeps a position for):"
                )?;
            }
            super::games_listing::write_table(out, games)?;
        }
    }
    Ok(())
}

/// The lines above the moves: games and results, the opening, the value, and whether the
/// game is over.
fn table_summary(r: &ExploreReport, out: &mut impl Write) -> Result<()> {
    let games = r.results.games;
    if !r.in_book && r.filtered {
        writeln!(out, "No game matching the filters reaches this position.")?;
    } else if !r.in_book {
        writeln!(out, "This position is not in the book.")?;
    } else if games == 0 && r.book_games == 0 {
        writeln!(
            out,
            "0 games: the book holds no games (imported from another program's book)"
        )?;
    } else if games == 0 {
        writeln!(
            out,
            "0 games: deviation learning added this position, no game reached it"
        )?;
    } else {
        let [b, d, w] = percent_cells(&r.results);
        writeln!(
            out,
            "{games} games: black {b}%  draw {d}%  white {w}%  average {} (black - white){}",
            diff_cell(r.results.average_diff),
            if r.results.unknown > 0 {
                format!(", {} without result", r.results.unknown)
            } else {
                String::new()
            }
        )?;
    }
    write_opening(out, r.opening.as_ref())?;
    if let Some(v) = r.value.as_ref().filter(|_| r.in_book) {
        match (
            v.value.text_with_error(),
            v.value.value_kind,
            v.value.value_depth,
        ) {
            (Some(text), Some(kind), Some(depth)) => {
                let best: Vec<String> = r
                    .moves
                    .iter()
                    .filter(|m| m.value.is_some_and(|v| v.best))
                    .map(|m| m.mv.to_string())
                    .collect();
                let best = match best.len() {
                    // A score without its move (an imported book).
                    0 => "best move: out of the book, not named by the book".to_string(),
                    1 => format!("best move: {}", best[0]),
                    _ => format!("best moves: {}", best.join(", ")),
                };
                writeln!(
                    out,
                    "value {text} (black - white; {}, depth {depth}), {}, {best}",
                    kind.word(),
                    v.value.chances_text().unwrap_or_default(),
                )?;
            }
            _ => writeln!(
                out,
                "value -: the book's evaluation has not reached this position"
            )?,
        }
    }
    if r.eval_asked && r.eval.is_none() {
        writeln!(out, "The game is over: there is no move to score.")?;
    }
    Ok(())
}

fn table_row(r: &ExploreReport, out: &mut impl Write, m: &MoveRow) -> Result<()> {
    let (games, share_cell, [b, d, w], avg) = match &m.results {
        Some(s) => (
            s.games.to_string(),
            format!("{:.1}%", share(r, s.games)),
            percent_cells(s),
            diff_cell(s.average_diff),
        ),
        // Left out of the book below its minimum: its games are not known.
        None => (
            format!("<{}", r.book_min_games),
            "-".to_string(),
            percent_cells(&Results::default()),
            diff_cell(None),
        ),
    };
    let mut row = format!(
        "{:<5} {games:>7} {share_cell:>7} {b:>7} {d:>6} {w:>7} {avg:>6}",
        m.mv.to_string(),
    );
    if r.value.is_some() {
        let value = m
            .value
            .and_then(|v| v.value.text_with_error())
            .unwrap_or_else(|| "-".into());
        let mark = if m.value.is_some_and(|v| v.best) {
            '*'
        } else {
            ' '
        };
        let chance = m
            .value
            .map_or_else(|| "-".into(), |v| chance_cell(&v.value));
        row.push_str(&format!(" {value:>12}{mark} {chance:>10}"));
    }
    if let Some(e) = &r.eval {
        let cell = m.eval.flatten().map_or_else(|| "-".into(), |v| e.text(v));
        row.push_str(&format!(" {cell:>7}"));
    }
    if r.ratings.is_some() {
        let mr = move_rating(r, m.mv).unwrap_or_default();
        row.push_str(&format!(
            " {:>6} {:>6}",
            rating_text(mr.average_rating),
            rating_text(mr.performance)
        ));
    }
    if let Some(name) = &m.opening {
        row.push_str(&format!("  {name}"));
    }
    writeln!(out, "{}", row.trim_end())?;
    Ok(())
}

fn table_footnotes(r: &ExploreReport, out: &mut impl Write) -> Result<()> {
    for m in r.moves.iter().filter(|m| !m.equivalent.is_empty()) {
        let mut same: Vec<String> = m.equivalent.iter().map(ToString::to_string).collect();
        let last = same.pop().unwrap_or_default();
        let same = if same.is_empty() {
            last
        } else {
            format!("{} and {last}", same.join(", "))
        };
        writeln!(
            out,
            "{} stands for {same} too: the position is symmetric",
            m.mv
        )?;
    }
    if r.moves.iter().any(|m| m.results.is_none()) {
        writeln!(
            out,
            "<{}: the book leaves out moves played in fewer than {} games",
            r.book_min_games, r.book_min_games
        )?;
    }
    if let Some(v) = r.value.as_ref().filter(|_| !r.moves.is_empty()) {
        let e = &v.evaluation;
        let exact = if e.exact_from > 0 {
            format!(" (exact at {} empties or fewer)", e.exact_from)
        } else {
            String::new()
        };
        // Full width goes without saying, as in books that could not record anything else.
        let width = if e.selectivity >= othbook::book::FULL_WIDTH {
            String::new()
        } else {
            format!(" at {}", othbook::book::selectivity_words(e.selectivity))
        };
        writeln!(
            out,
            "value: black - white, negamaxed from leaves searched {} plies deep{width}{exact}; * \
             best for {}",
            e.depth, r.side
        )?;
        writeln!(
            out,
            "±: expected error of the value (RMS, discs); {} wins: {}'s chance to win after the \
             move (docs/values.md)",
            r.side, r.side
        )?;
        for m in &r.moves {
            if m.value.is_some_and(|v| v.leaves_book) {
                writeln!(
                    out,
                    "{} leaves the book: its value is the leaf's search",
                    m.mv
                )?;
            }
        }
    }
    if let Some(e) = &r.eval {
        writeln!(out, "eval: {}, black - white", e.meaning())?;
    }
    Ok(())
}

/// The ratings of move `mv` of the report (`--ratings`).
fn move_rating(r: &ExploreReport, mv: Move) -> Option<MoveRating> {
    r.ratings
        .as_ref()?
        .moves
        .iter()
        .find(|m| m.mv == mv)
        .map(|m| m.rating)
}

pub fn tsv(r: &ExploreReport, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{TSV_HEADER}{}{}{}\topening",
        if r.value.is_some() {
            TSV_VALUE_HEADER
        } else {
            ""
        },
        if r.eval_asked { "\teval" } else { "" },
        if r.ratings.is_some() {
            "\taverage_rating\tperformance"
        } else {
            ""
        }
    )?;
    if r.in_book {
        let value = r
            .value
            .as_ref()
            .map(|v| format!("{}\t", tsv_value_cells(&v.value)));
        let cells = RowCells {
            value,
            eval: None,
            rating: MoveRating::default(),
            opening: None,
        };
        tsv_row(r, out, "all", Some(&r.results), cells)?;
    }
    for m in &r.moves {
        let value = m
            .value
            .map(|v| format!("{}\t{}", tsv_value_cells(&v.value), u8::from(v.best)));
        let eval = match (&r.eval, m.eval.flatten()) {
            (Some(e), Some(v)) => Some(e.number(v)),
            _ => None,
        };
        let cells = RowCells {
            value,
            eval,
            rating: move_rating(r, m.mv).unwrap_or_default(),
            opening: m.opening.as_deref(),
        };
        tsv_row(r, out, &m.mv.to_string(), m.results.as_ref(), cells)?;
    }
    // `--games K`: a second table after a blank line, the columns of `games find`'s TSV
    // (its header even when no game is listed, so that a script finds the table).
    if let Some(games) = &r.listed_games {
        writeln!(out)?;
        super::games_listing::write_tsv(out, games)?;
    }
    Ok(())
}

/// A TSV row's cells after the games: the value cells (with their tabs), the engine's score,
/// the ratings (`--ratings`) and the opening the move reaches.
struct RowCells<'a> {
    value: Option<String>,
    eval: Option<String>,
    rating: MoveRating,
    opening: Option<&'a str>,
}

/// One TSV row.
fn tsv_row(
    r: &ExploreReport,
    out: &mut impl Write,
    name: &str,
    s: Option<&Results>,
    cells: RowCells<'_>,
) -> std::io::Result<()> {
    match s {
        Some(s) => write!(
            out,
            "{name}\t{}\t{:.2}\t{}\t{}\t{}\t{}\t{}",
            s.games,
            share(r, s.games),
            s.black_wins,
            s.draws,
            s.white_wins,
            s.unknown,
            tsv_num(s.average_diff)
        )?,
        // A move the book leaves out below its minimum: its games are not known.
        None => write!(out, "{name}\t\t\t\t\t\t\t")?,
    }
    if let Some(v) = cells.value {
        write!(out, "{v}")?;
    }
    if r.eval_asked {
        // An empty cell where there is no score: the column stays numeric.
        write!(out, "\t{}", cells.eval.unwrap_or_default())?;
    }
    if r.ratings.is_some() {
        let num = |x: Option<f64>| x.map(|x| format!("{x:.1}")).unwrap_or_default();
        let m = cells.rating;
        write!(out, "\t{}\t{}", num(m.average_rating), num(m.performance))?;
    }
    // Names hold no tab or newline (the openings list is ours), so the cell needs no quoting.
    writeln!(out, "\t{}", cells.opening.unwrap_or_default())
}
