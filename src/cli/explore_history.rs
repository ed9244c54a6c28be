//! How `othbook explore --by-year` prints each reply's games year by year: one row a year,
//! one column a reply (the most played ones in the table, all of them in TSV).

use anyhow::Result;
use othbook::report::history::YearHistory;
use std::io::Write;

/// Replies the table gives a column of their own; the rest share `other`.
const TABLE_MOVES: usize = 8;

/// The cells of one row: the year's games, then each reply's, then the others' (when some
/// replies have no column).
fn cells(h: &YearHistory, shown: usize, games: u64, count: impl Fn(usize) -> u64) -> Vec<u64> {
    let mut row = vec![games];
    row.extend((0..shown).map(&count));
    if h.moves.len() > shown {
        row.push((shown..h.moves.len()).map(count).sum());
    }
    row
}

/// The header of the columns after the year.
fn header(h: &YearHistory, shown: usize) -> Vec<String> {
    let mut names = vec!["games".to_string()];
    names.extend(h.moves[..shown].iter().map(|m| m.mv.to_string()));
    if h.moves.len() > shown {
        names.push("other".to_string());
    }
    names
}

/// Rows of (year label, cells): the years in order, then the games of no known year.
fn rows(h: &YearHistory, shown: usize) -> Vec<(String, Vec<u64>)> {
    let mut out: Vec<(String, Vec<u64>)> = h
        .years
        .iter()
        .enumerate()
        .map(|(i, y)| {
            let row = cells(h, shown, h.games[i], |k| h.moves[k].by_year[i]);
            (y.to_string(), row)
        })
        .collect();
    if h.unknown_year > 0 {
        let row = cells(h, shown, h.unknown_year, |k| h.moves[k].unknown_year);
        out.push(("unknown".to_string(), row));
    }
    out
}

pub fn table(h: &YearHistory, out: &mut impl Write) -> Result<()> {
    writeln!(out)?;
    if h.total == 0 {
        writeln!(out, "By year: no game reaches this position.")?;
        return Ok(());
    }
    let shown = h.moves.len().min(TABLE_MOVES);
    writeln!(
        out,
        "By year: games reaching the position and each reply's games{}",
        if h.moves.len() > shown {
            format!(" (the {shown} most played; other: the rest)")
        } else {
            String::new()
        }
    )?;
    let mut line = format!("{:<8}", "year");
    for name in header(h, shown) {
        line.push_str(&format!("{name:>7}"));
    }
    writeln!(out, "{}", line.trim_end())?;
    for (year, row) in rows(h, shown) {
        let mut line = format!("{year:<8}");
        for n in row {
            line.push_str(&format!("{n:>7}"));
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `year`, `games`, then one column a reply, most played first; a last row `unknown` for
/// the games of no known year, when there are some.
pub fn tsv(h: &YearHistory, out: &mut impl Write) -> Result<()> {
    let shown = h.moves.len();
    writeln!(out, "year\t{}", header(h, shown).join("\t"))?;
    for (year, row) in rows(h, shown) {
        let cells: Vec<String> = row.iter().map(u64::to_string).collect();
        writeln!(out, "{year}\t{}", cells.join("\t"))?;
    }
    Ok(())
}
