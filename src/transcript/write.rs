//! Writers: games out as Logistello `.gam`, move strings, PGN or WTHOR (`.wtb` + `.JOU`/`.TRN`).
//! Text output to a path ending in `.gz` is compressed.

use super::format::Format;
use super::record::{GameRecord, GameResult, SourceRef};
use super::wthor;
use crate::board::{Color, Move, Position};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

/// What a writer did: games written, and games the format cannot hold (with why).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Games written.
    pub written: u64,
    /// Games left out, with the reason.
    pub skipped: Vec<(SourceRef, String)>,
    /// What the format could not hold exactly, one line per kind of change.
    pub notes: Vec<String>,
}

/// Why writing failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// No writer for this format.
    #[error("cannot write {0}: use gam, moves, pgn or wthor")]
    Unsupported(Format),
    /// The output could not be written.
    #[error("{path}")]
    Io {
        /// The output path.
        path: String,
        /// The I/O error.
        source: io::Error,
    },
}

/// Formats that have a writer.
pub const WRITABLE: [Format; 5] = [
    Format::Gam,
    Format::Moves,
    Format::Pgn,
    Format::Ggf,
    Format::Wthor,
];

/// Writes `games` to `path` in format `to` (WTHOR also writes `WTHOR.JOU`/`WTHOR.TRN` beside
/// it; text formats are gzip-compressed when `path` ends in `.gz`).
pub fn write_file(
    games: &[GameRecord],
    to: Format,
    path: &Path,
) -> Result<WriteReport, WriteError> {
    let io_err = |source| WriteError::Io {
        path: path.display().to_string(),
        source,
    };
    if to == Format::Wthor {
        let mut report = WriteReport::default();
        let mut keep = Vec::with_capacity(games.len());
        for g in games {
            match wthor::unwritable(g) {
                Some(why) => report.skipped.push((g.source.clone(), why.to_string())),
                None => keep.push(g),
            }
        }
        report.notes = wthor::write(&keep, path).map_err(io_err)?;
        report.written = keep.len() as u64;
        return Ok(report);
    }
    if !WRITABLE.contains(&to) {
        return Err(WriteError::Unsupported(to));
    }
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let as_io = |e: WriteError| match e {
        WriteError::Io { source, .. } => source,
        e => io::Error::other(e.to_string()),
    };
    crate::atomic_file::replace(path, |file| {
        if gz {
            let mut enc = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            let report = write_text(games, to, &mut enc).map_err(as_io)?;
            enc.finish()?;
            Ok(report)
        } else {
            write_text(games, to, file).map_err(as_io)
        }
    })
    .map_err(io_err)
}

/// Writes `games` as text (gam, moves, pgn or ggf) to `out`.
pub fn write_text(
    games: &[GameRecord],
    to: Format,
    out: &mut impl Write,
) -> Result<WriteReport, WriteError> {
    let io_err = |source| WriteError::Io {
        path: "output".into(),
        source,
    };
    let mut report = WriteReport::default();
    let mut line = String::with_capacity(256);
    for g in games {
        line.clear();
        let ok = match to {
            Format::Gam => gam_line(g, &mut line),
            Format::Moves => moves_line(g, &mut line),
            Format::Pgn => pgn_game(g, &mut line),
            Format::Ggf => ggf_game(g, &mut line),
            other => return Err(WriteError::Unsupported(other)),
        };
        match ok {
            Ok(()) => {
                out.write_all(line.as_bytes()).map_err(io_err)?;
                report.written += 1;
            }
            Err(why) => report.skipped.push((g.source.clone(), why.to_string())),
        }
    }
    Ok(report)
}

/// Each move with the colour that played it (passes included).
fn coloured(g: &GameRecord) -> impl Iterator<Item = (Color, Move)> + '_ {
    let mut side = g.start.side;
    g.moves.iter().map(move |m| {
        let c = side;
        side = side.opposite();
        (c, *m)
    })
}

fn from_start(g: &GameRecord, what: &'static str) -> Result<(), &'static str> {
    if g.start == Position::START {
        Ok(())
    } else {
        Err(what)
    }
}

/// The value of `raw` if it is a `.gam` score (`-04 10`, `+12`).
fn gam_score(raw: &str) -> Option<i32> {
    if is_gam_score(raw) {
        raw.split_ascii_whitespace().next()?.parse().ok()
    } else {
        None
    }
}

/// Whether `raw` has the form of a `.gam` score.
fn is_gam_score(raw: &str) -> bool {
    let mut parts = raw.split_ascii_whitespace();
    let score_ok = parts.next().is_some_and(|s| {
        s.len() > 1 && s.starts_with(['+', '-']) && s[1..].bytes().all(|b| b.is_ascii_digit())
    });
    score_ok && parts.all(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn gam_line(g: &GameRecord, s: &mut String) -> Result<(), &'static str> {
    from_start(g, ".gam holds only games from the standard start")?;
    for (c, m) in coloured(g) {
        if let Move::Play(sq) = m {
            s.push(if c == Color::Black { '+' } else { '-' });
            let _ = write!(s, "{sq}");
        }
    }
    if let Some(r) = &g.result {
        // Logistello counts discs without giving the empties to the winner: its raw score is
        // written back as is when it is either convention's value for this game.
        let raw_value = gam_score(&r.raw);
        let faithful = raw_value == Some(r.disc_diff)
            || raw_value.is_some()
                && g.start
                    .replay(g.moves.iter().copied())
                    .is_ok_and(|p| Some(p.end.disc_diff_black()) == raw_value);
        if faithful {
            let _ = write!(s, ": {}", r.raw);
        } else {
            let _ = write!(s, ": {:+03}", r.disc_diff);
        }
    }
    s.push('\n');
    Ok(())
}

/// Text of a GGF property value: `]` and `\\` cannot appear inside one.
fn ggf_value(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ']' | '\\' | '\n' | '\r'))
        .collect()
}

/// One GGF game on one line: `(;GM[Othello]...BO[8 <board> <side>]B[d3]W[c5]...;)`. Set-up
/// positions are kept (`BO`), passes written as `PA`, the result as black minus white.
fn ggf_game(g: &GameRecord, s: &mut String) -> Result<(), &'static str> {
    s.push_str("(;GM[Othello]");
    if let Some(p) = &g.place {
        let _ = write!(s, "PC[{}]", ggf_value(p));
    }
    if let Some(d) = &g.date {
        let _ = write!(s, "DT[{}]", ggf_value(d));
    }
    let _ = write!(s, "PB[{}]", ggf_value(g.black.as_deref().unwrap_or("?")));
    let _ = write!(s, "PW[{}]", ggf_value(g.white.as_deref().unwrap_or("?")));
    if let Some(e) = &g.event {
        let _ = write!(s, "EV[{}]", ggf_value(e));
    }
    match &g.result {
        Some(r) => {
            // GGS marks how a game ended early: `:r` resigned, `:t` timeout, `:s` by agreement.
            let how = r
                .raw
                .rsplit_once(':')
                .map(|(_, how)| how)
                .filter(|how| matches!(*how, "r" | "t" | "s"))
                .map_or(String::new(), |how| format!(":{how}"));
            let _ = write!(s, "RE[{:+}.000{how}]", r.disc_diff);
        }
        None => s.push_str("RE[?]"),
    }
    s.push_str("TY[8]BO[8 ");
    for sq in crate::board::Square::ALL {
        s.push(match g.start.at(sq) {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        });
    }
    s.push_str(if g.start.side == Color::Black {
        " *]"
    } else {
        " O]"
    });
    for (c, m) in coloured(g) {
        let who = if c == Color::Black { 'B' } else { 'W' };
        match m {
            Move::Play(sq) => {
                let _ = write!(s, "{who}[{}]", sq.to_string().to_uppercase());
            }
            Move::Pass => {
                let _ = write!(s, "{who}[PA]");
            }
        }
    }
    s.push_str(";)\n");
    Ok(())
}

/// The result's text when the source named the winner only (`1-0`, `0-1`, `1/2-1/2`).
fn winner_only(r: &GameResult) -> Option<&str> {
    let (_, value) = super::lex::line_result(r.raw.as_bytes()).ok()?;
    let (sign, winner_only) = value?;
    (winner_only && sign == r.disc_diff.signum()).then_some(r.raw.as_str())
}

fn moves_line(g: &GameRecord, s: &mut String) -> Result<(), &'static str> {
    from_start(g, "move strings hold only games from the standard start")?;
    for m in &g.moves {
        if let Move::Play(sq) = m {
            let _ = write!(s, "{sq}");
        }
    }
    match g.result.as_ref().map(|r| (r, winner_only(r))) {
        Some((_, Some(text))) => {
            let _ = write!(s, " {text}");
        }
        Some((r, None)) => {
            let _ = write!(s, " {:+}", r.disc_diff);
        }
        None => {}
    }
    s.push('\n');
    Ok(())
}

fn pgn_tag(s: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(s, "[{name} \"{escaped}\"]");
}

/// Disc counts `B-W` (empties to the winner) for a black-minus-white difference.
fn counts(diff: i32) -> String {
    let black = (64 + diff.clamp(-64, 64)).div_euclid(2);
    format!("{black}-{}", 64 - black)
}

fn pgn_game(g: &GameRecord, s: &mut String) -> Result<(), &'static str> {
    pgn_tag(s, "Event", g.event.as_deref().unwrap_or("?"));
    if let Some(p) = &g.place {
        pgn_tag(s, "Site", p);
    }
    let year = g.year.map(|y| y.to_string());
    pgn_tag(
        s,
        "Date",
        g.date.as_deref().or(year.as_deref()).unwrap_or("?"),
    );
    pgn_tag(s, "Black", g.black.as_deref().unwrap_or("?"));
    pgn_tag(s, "White", g.white.as_deref().unwrap_or("?"));
    let result = match &g.result {
        None => "*".to_string(),
        // The source's own text when it is a PGN result of this value: the winner only, or
        // disc counts.
        Some(r) if winner_only(r).is_some() => r.raw.clone(),
        Some(r)
            if super::lex::line_result(r.raw.as_bytes())
                .is_ok_and(|(_, v)| v == Some((r.disc_diff, false)))
                && r.raw.contains('-')
                && !r.raw.starts_with(['-', '+']) =>
        {
            r.raw.clone()
        }
        // Disc counts only give even margins: an odd one (a winner-only or resigned result)
        // keeps its winner.
        Some(r) if r.disc_diff % 2 != 0 => if r.disc_diff > 0 { "1-0" } else { "0-1" }.into(),
        Some(r) => counts(r.disc_diff),
    };
    pgn_tag(s, "Result", &result);
    if g.start != Position::START {
        pgn_tag(s, "FEN", &g.start.to_obf());
    }
    let plays: Vec<String> = g
        .moves
        .iter()
        .filter_map(|m| m.square())
        .map(|sq| sq.to_string().to_ascii_uppercase())
        .collect();
    for (k, pair) in plays.chunks(2).enumerate() {
        let _ = writeln!(s, "{}. {}", k + 1, pair.join(" "));
    }
    // The result closes the movetext (standard PGN), so a game without moves still has one.
    let _ = writeln!(s, "{result}\n");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gam_scores() {
        assert!(is_gam_score("-04 10"));
        assert!(is_gam_score("+00"));
        assert!(!is_gam_score("36/34"));
        assert!(!is_gam_score("+"));
        assert!(!is_gam_score("28-36"));
        assert_eq!(counts(-8), "28-36");
        assert_eq!(counts(64), "64-0");
    }
}
