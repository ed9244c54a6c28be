//! `othbook explore`: a position's games and results, then every next move the book knows.

use super::common::{
    bad, diff_cell, json_num, json_str, open_book, percent_cells, position_from_args,
    write_equivalent_moves, OutputFormat,
};
use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook explore`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Statistics merge transpositions and the 8 symmetries: any move order \
and any orientation of a position give the same numbers. Moves are shown in your orientation.\n\n\
Examples:\n  othbook explore f5\n  othbook explore f5 d6 c3 --format json\n  \
othbook explore --position \"---------------------------OX------XO--------------------------- X\""
)]
pub struct Args {
    /// Moves from the start (or from --position), e.g. `f5d6c3` or `f5 d6 c3`.
    moves: Vec<String>,
    /// Start from this position: 64 characters (X black, O white, - empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// The book (default: books/wthor.book).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The columns of `--format tsv`.
const TSV_HEADER: &str = "move\tgames\tshare\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff";

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let moves = (!args.moves.is_empty()).then(|| args.moves.join(" "));
    let pos = position_from_args(args.position.as_deref(), moves.as_deref())?;
    if args.position.is_none() && moves.as_deref().is_some_and(|m| m.trim().is_empty()) {
        return Err(bad("empty move string"));
    }
    let book = open_book(args.book.as_deref())?;
    let Some(stats) = book.try_probe(&pos.board)? else {
        match args.format {
            OutputFormat::Json => writeln!(
                out,
                "{{\"position\":{},\"side\":\"{}\",\"in_book\":false}}",
                json_str(&pos.to_obf()),
                pos.side
            )?,
            // The table's header and no row: a script reads an empty table.
            OutputFormat::Tsv => writeln!(out, "{TSV_HEADER}")?,
            OutputFormat::Table => {
                writeln!(out, "{}\nThis position is not in the book.", pos.diagram())?;
            }
        }
        return Ok(());
    };
    let c = stats.for_side(pos.side);
    let rows = book.try_moves(&pos.board)?;
    let share = |g: u64| 100.0 * g as f64 / stats.games().max(1) as f64;
    match args.format {
        OutputFormat::Table => {
            writeln!(out, "{}", pos.diagram())?;
            let [b, d, w] = percent_cells(&c);
            writeln!(
                out,
                "{} games: black {b}%  draw {d}%  white {w}%  average {} (black - white){}",
                stats.games(),
                diff_cell(c.average_diff()),
                if c.unknown > 0 {
                    format!(", {} without result", c.unknown)
                } else {
                    String::new()
                }
            )?;
            if rows.is_empty() {
                writeln!(out, "No next move in the book.")?;
            } else {
                writeln!(out, "\nmove    games   share  black%  draw%  white%    avg")?;
            }
            for (mv, s) in &rows {
                let m = s.for_side(pos.side);
                let [b, d, w] = percent_cells(&m);
                writeln!(
                    out,
                    "{:<5} {:>7} {:>6.1}% {:>7} {:>6} {:>7} {:>6}",
                    mv.to_string(),
                    s.games(),
                    share(s.games()),
                    b,
                    d,
                    w,
                    diff_cell(m.average_diff())
                )?;
            }
            write_equivalent_moves(out, &pos.board, rows.iter().map(|r| r.0))?;
        }
        OutputFormat::Tsv => {
            writeln!(out, "{TSV_HEADER}")?;
            let row = |out: &mut dyn Write, name: &str, m: &othbook::book::ColorStats| {
                writeln!(
                    out,
                    "{name}\t{}\t{:.2}\t{}\t{}\t{}\t{}\t{}",
                    m.games(),
                    share(m.games()),
                    m.black_wins,
                    m.draws,
                    m.white_wins,
                    m.unknown,
                    json_num(m.average_diff())
                )
            };
            row(out, "all", &c)?;
            for (mv, s) in &rows {
                row(out, &mv.to_string(), &s.for_side(pos.side))?;
            }
        }
        OutputFormat::Json => {
            let obj = |m: &othbook::book::ColorStats| {
                format!(
                    "\"games\":{},\"black_wins\":{},\"draws\":{},\"white_wins\":{},\
                     \"unknown\":{},\"average_diff\":{}",
                    m.games(),
                    m.black_wins,
                    m.draws,
                    m.white_wins,
                    m.unknown,
                    json_num(m.average_diff())
                )
            };
            let moves: Vec<String> = rows
                .iter()
                .map(|(mv, s)| {
                    format!(
                        "{{\"move\":\"{mv}\",\"share\":{:.2},{}}}",
                        share(s.games()),
                        obj(&s.for_side(pos.side))
                    )
                })
                .collect();
            writeln!(
                out,
                "{{\"position\":{},\"side\":\"{}\",\"in_book\":true,{},\"moves\":[{}]}}",
                json_str(&pos.to_obf()),
                pos.side,
                obj(&c),
                moves.join(",")
            )?;
        }
    }
    Ok(())
}
