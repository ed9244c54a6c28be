//! The games behind a position as rows: who played, when, where, the result and the move
//! that followed (in the caller's orientation); shared by `games find` and `explore --games`.

use anyhow::Result;
use othbook::board::format_moves;
use othbook::book::games::GameMatch;
use othbook::book::GameTable;
use othbook::transcript::Location;
use std::io::Write;

/// One game reaching the position.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GameRow {
    /// Year played.
    pub year: Option<u16>,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Final disc difference, black minus white.
    pub result: Option<i32>,
    /// The move played from the position, in the orientation asked about (`null`: the
    /// game ended there).
    pub next: Option<String>,
    /// Plies played before the position (passes count).
    pub ply: usize,
    /// The event.
    pub event: Option<String>,
    /// The whole game as played (its own orientation).
    pub moves: String,
    /// File the game was read from.
    pub source: String,
    /// `line N` or `record N` in that file.
    pub location: String,
}

/// Rows for the first `limit` matches (most recent first).
pub fn rows(table: &GameTable, matches: &[GameMatch], limit: usize) -> Vec<GameRow> {
    matches
        .iter()
        .take(limit)
        .filter_map(|m| {
            let g = table.games().get(m.game)?;
            let name = |n: u32| table.name(n).map(str::to_string);
            Some(GameRow {
                year: g.year,
                black: name(g.black),
                white: name(g.white),
                result: g.result.map(i32::from),
                next: m.next.map(|mv| mv.to_string()),
                ply: m.ply,
                event: name(g.event),
                moves: format_moves(&table.moves(g)),
                source: name(g.source).unwrap_or_default(),
                location: match g.location {
                    Location::Line(n) => format!("line {n}"),
                    Location::Record(n) => format!("record {n}"),
                },
            })
        })
        .collect()
}

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
