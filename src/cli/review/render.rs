//! `othbook review` as a table for people and as tab-separated rows.

use anyhow::Result;
use othbook::board::Color;
use othbook::review::{BookMove, MoveReview, PlayerSummary, Review, ScoreSource};
use std::io::Write;

/// The game's header, one row per ply, then where the book and the solver ended and each
/// player's errors.
pub fn table(r: &Review, out: &mut impl Write) -> Result<()> {
    header(r, out)?;
    writeln!(
        out,
        "{:>4} {:<5} {:<4} {:>7} {:>7} {:<4} {:>6} {:>5}  {:<10}  book",
        "ply", "side", "move", "played", "best", "by", "loss", "depth", "mark"
    )?;
    for row in &r.moves {
        let book = book_cell(r, row);
        let Some(v) = &row.verdict else {
            writeln!(
                out,
                "{:>4} {:<5} {:<4} {:>7} {:>7} {:<4} {:>6} {:>5}  {:<10}  {book}",
                row.ply, row.side, "pass", "-", "-", "", "", "", ""
            )?;
            continue;
        };
        let whole = v.kind == ScoreSource::Exact;
        let depth = if whole {
            "exact".to_string()
        } else {
            v.depth.to_string()
        };
        let best_mv = if v.best_move == row.mv {
            "=".to_string()
        } else {
            v.best_move.to_string()
        };
        writeln!(
            out,
            "{:>4} {:<5} {:<4} {:>7} {:>7} {:<4} {:>6} {:>5}  {:<10}  {}",
            row.ply,
            row.side,
            row.mv.to_string(),
            v.played.signed(whole),
            v.best.signed(whole),
            best_mv,
            v.loss.plain(whole),
            depth,
            v.mark.map_or(String::new(), |m| m.to_string()),
            book
        )?;
    }
    writeln!(out)?;
    footer(r, out)
}

fn header(r: &Review, out: &mut impl Write) -> Result<()> {
    let g = &r.game;
    let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_string());
    let mut line = format!("black {} - white {}", name(&g.black), name(&g.white));
    if let Some(e) = &g.event {
        line.push_str(&format!(", {e}"));
    }
    if let Some(y) = g.year {
        line.push_str(&format!(" {y}"));
    }
    if let Some(res) = &g.result {
        line.push_str(&format!(", result {res}"));
    }
    writeln!(out, "{line}")?;
    if let Some(s) = &g.source {
        writeln!(out, "source: {s}")?;
    }
    if let Some(s) = &g.start {
        writeln!(out, "start: {s}")?;
    }
    writeln!(out, "moves: {}", g.moves)?;
    let s = &r.settings;
    let effort = match (s.depth, s.time) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(t)) => format!("{t} s per position"),
        (None, None) => String::new(),
    };
    writeln!(
        out,
        "search: {effort}, exact from {} empties; marks: inaccuracy >= {}, mistake >= {}, \
         blunder >= {} discs lost against the best move",
        s.exact_from,
        s.inaccuracy.discs(),
        s.mistake.discs(),
        s.blunder.discs()
    )?;
    writeln!(
        out,
        "scores in discs for the player who moved; `by`: the engine's best move (= the move \
         played)"
    )?;
    writeln!(out)?;
    Ok(())
}

/// Games and value while in the book; `left the book` on the move that left it.
fn book_cell(r: &Review, row: &MoveReview) -> String {
    if r.left_book_at == Some(row.ply) {
        return "left the book".to_string();
    }
    let Some(b) = &row.book else {
        return String::new();
    };
    let mut cell = format!("{} games", b.games);
    if let Some(v) = b.value {
        cell.push_str(&format!(", value {}", v.signed(b.value_exact && whole(v))));
    }
    if let (Some(mv), Some(best), Some(v)) = (b.best_move, b.best_value, b.value) {
        if best > v {
            cell.push_str(&format!(", book best {mv} {}", best.signed(false)));
        }
    }
    cell
}

fn whole(v: othbook::review::Discs) -> bool {
    v.0 % othbook::engine::SCALE == 0
}

fn footer(r: &Review, out: &mut impl Write) -> Result<()> {
    if let Some(s) = r.stopped {
        writeln!(
            out,
            "stopped after {} of {} plies: what follows covers those plies",
            s.reviewed, s.plies
        )?;
    }
    if let Some(o) = &r.opening {
        writeln!(
            out,
            "opening: {} ({})",
            o.name,
            othbook::board::format_moves(&o.moves)
        )?;
    }
    match (r.book_used, r.left_book_at) {
        (false, _) => writeln!(out, "book: none consulted")?,
        (true, None) => writeln!(out, "book: the game stayed in the book")?,
        (true, Some(1)) => writeln!(out, "book: the first move left the book")?,
        (true, Some(ply)) => {
            let row = &r.moves[ply - 1];
            writeln!(
                out,
                "book: left the book at move {ply} ({} {})",
                row.side, row.mv
            )?;
        }
    }
    if let Some(x) = &r.exact_phase {
        let mut line = format!(
            "exact from move {} ({} empties): black {} under perfect play",
            x.from_ply,
            x.empties,
            x.black_score.signed(true)
        );
        if let Some(f) = r.final_black {
            line.push_str(&format!(
                "; final result black {f:+}; exact-phase losses black {}, white {}",
                r.black.exact_loss.plain(true),
                r.white.exact_loss.plain(true)
            ));
        }
        writeln!(out, "{line}")?;
    } else if let Some(f) = r.final_black {
        writeln!(out, "final result black {f:+}")?;
    }
    for side in [Color::Black, Color::White] {
        writeln!(out, "{}", summary_line(side, r.player(side)))?;
    }
    writeln!(out, "{} nodes in {:.1} s", r.nodes, r.seconds)?;
    Ok(())
}

fn summary_line(side: Color, s: &PlayerSummary) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{side}{}: {}, average loss {:.2}, {}, {}, {}, {} in the book",
        s.name.as_ref().map_or(String::new(), |n| format!(" ({n})")),
        plural(s.moves, "move", "moves"),
        s.average_loss,
        plural(s.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(s.mistakes, "mistake", "mistakes"),
        plural(s.blunders, "blunder", "blunders"),
        s.in_book
    )
}

/// Tab-separated rows, one per ply, with a header line; empty cells where a value does not
/// apply (a pass, out of the book). The summaries are in the table and JSON forms.
pub fn tsv(r: &Review, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "ply\tside\tmove\tempties\tplayed\tbest\tbest_move\tloss\tkind\tdepth\tmark\tin_book\tbook_games\tbook_value"
    )?;
    for row in &r.moves {
        let engine = match &row.verdict {
            Some(v) => {
                let whole = v.kind == ScoreSource::Exact;
                format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    v.played.plain(whole),
                    v.best.plain(whole),
                    v.best_move,
                    v.loss.plain(whole),
                    if whole { "exact" } else { "midgame" },
                    v.depth,
                    v.mark.map_or(String::new(), |m| m.to_string())
                )
            }
            None => "\t\t\t\t\t\t".to_string(),
        };
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{engine}\t{}",
            row.ply,
            row.side,
            row.mv,
            row.empties,
            book_cells(row.book.as_ref())
        )?;
    }
    Ok(())
}

fn book_cells(b: Option<&BookMove>) -> String {
    match b {
        Some(b) => format!(
            "yes\t{}\t{}",
            b.games,
            b.value.map_or(String::new(), |v| v.plain(false))
        ),
        None => "no\t\t".to_string(),
    }
}
