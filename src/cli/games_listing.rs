//! How the games behind a position are printed (table and TSV); the rows themselves are
//! [`othbook::report::games_list::GameRow`].

use anyhow::Result;
pub use othbook::report::games_list::{rows, GameRow};
use std::io::Write;

fn result_cell(r: Option<i32>) -> String {
    r.map_or_else(|| "?".into(), |d| format!("{d:+}"))
}

/// Aligned columns: year, players, result (black - white), next move, event.
pub fn write_table(out: &mut impl Write, rows: &[GameRow]) -> Result<()> {
    let width = |f: &dyn Fn(&GameRow) -> usize, min: usize| {
        rows.iter().map(f).max().unwrap_or(0).clamp(min, 28)
    };
    let text = |s: &Option<String>| s.clone().unwrap_or_else(|| "?".into());
    let cut = |s: String, w: usize| -> String { s.chars().take(w).collect() };
    let bw = width(&|r| text(&r.black).chars().count(), 5);
    let ww = width(&|r| text(&r.white).chars().count(), 5);
    writeln!(
        out,
        "year  {:<bw$}  {:<ww$}  result  next  event",
        "black", "white"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<4}  {:<bw$}  {:<ww$}  {:>6}  {:<4}  {}",
            r.year.map_or_else(|| "?".into(), |y| y.to_string()),
            cut(text(&r.black), bw),
            cut(text(&r.white), ww),
            result_cell(r.result),
            r.next.as_deref().unwrap_or("end"),
            text(&r.event)
        )?;
    }
    Ok(())
}

/// Header of [`write_tsv`].
pub const TSV_HEADER: &str =
    "year\tblack\twhite\tresult\tnext\tply\tevent\tmoves\tsource\tlocation";

/// Tab-separated rows under [`TSV_HEADER`] (empty cells for what is unknown).
pub fn write_tsv(out: &mut impl Write, rows: &[GameRow]) -> Result<()> {
    writeln!(out, "{TSV_HEADER}")?;
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let opt = |s: &Option<String>| s.as_deref().map(clean).unwrap_or_default();
    for r in rows {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            r.year.map(|y| y.to_string()).unwrap_or_default(),
            opt(&r.black),
            opt(&r.white),
            r.result.map(|d| d.to_string()).unwrap_or_default(),
            r.next.clone().unwrap_or_default(),
            r.ply,
            opt(&r.event),
            r.moves,
            clean(&r.source),
            r.location
        )?;
    }
    Ok(())
}
