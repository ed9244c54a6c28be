//! What `othbook explore` prints: the position's games (and value, in an evaluated book),
//! then one row per move, as a table, TSV or JSON.

use super::book_values::{self, for_black, PositionValues};
use super::common::{diff_cell, json_num, json_str, percent_cells, write_equivalent_moves};
use super::explore::Evals;
use super::games_listing::GameRow;
use anyhow::Result;
use othbook::board::{Move, Position};
use othbook::book::key::equivalent_moves;
use othbook::book::{ColorStats, MoveStats, PositionStats, Score};
use std::io::Write;

/// The columns of `--format tsv` (`value...` with values, `eval` with `--depth`).
pub const TSV_HEADER: &str =
    "move\tgames\tshare\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff";

/// The value columns of `--format tsv`.
const TSV_VALUE_HEADER: &str = "\tvalue\tvalue_depth\tvalue_kind\tbest";

/// Everything one `explore` prints.
pub struct View<'a> {
    pub pos: &'a Position,
    pub stats: PositionStats,
    /// The book holds the position (with no game if deviation learning added it).
    pub in_book: bool,
    /// The book's moves come first; the rest are valued or scored moves it does not list.
    pub rows: &'a [(Move, MoveStats)],
    pub listed: usize,
    /// The book leaves out moves played in fewer games than this.
    pub min_games: u32,
    /// The book holds games (an imported Edax or Egaroucid book holds none).
    pub book_has_games: bool,
    /// The book's values (a book with values).
    pub values: Option<&'a PositionValues>,
    pub evals: Option<&'a Evals>,
    /// `--depth` was given (its column shows even when the game is over).
    pub eval_asked: bool,
    /// The games listed for `--games` (table and JSON).
    pub games: Option<&'a Vec<GameRow>>,
}

impl View<'_> {
    fn share(&self, games: u64) -> f64 {
        100.0 * games as f64 / self.stats.games().max(1) as f64
    }

    /// Whether the games of row `i` are known: the book lists the move, or lists every move
    /// played (a book without a minimum), or no game reached the position (deviation
    /// learning added it), so none played the move either.
    fn known(&self, i: usize) -> bool {
        i < self.listed || self.min_games <= 1 || (self.in_book && self.stats.games() == 0)
    }

    /// The games column of row `i`: `<4` for a move the book leaves out below its minimum.
    fn games_cell(&self, i: usize, games: u64) -> String {
        if self.known(i) {
            games.to_string()
        } else {
            format!("<{}", self.min_games)
        }
    }

    fn eval_cell(&self, mv: Move) -> String {
        self.evals.map_or_else(|| "-".into(), |e| e.cell(mv))
    }

    /// The position's value, black minus white.
    fn position_value(&self) -> Option<Score> {
        let v = self.values?.value?;
        Some(for_black(v, self.pos.side))
    }

    /// The value of `mv`, black minus white.
    fn move_value(&self, mv: Move) -> Option<Score> {
        let m = self.values?.of_move(self.pos, mv)?;
        Some(for_black(m.score, self.pos.side))
    }

    fn is_best(&self, mv: Move) -> bool {
        self.values.is_some_and(|v| v.is_best(self.pos, mv))
    }

    /// Whether `mv` is the book's leaf: its best move out of the book.
    fn leaves_book(&self, mv: Move) -> bool {
        self.values
            .and_then(|v| v.of_move(self.pos, mv))
            .is_some_and(|m| !m.in_book)
    }

    pub fn table(&self, out: &mut impl Write) -> Result<()> {
        writeln!(out, "{}", self.pos.diagram())?;
        self.table_summary(out)?;
        if self.rows.is_empty() {
            if self.in_book {
                writeln!(out, "No next move in the book.")?;
            }
        } else {
            let mut header = "\nmove    games   share  black%  draw%  white%    avg".to_string();
            if self.values.is_some() {
                header.push_str(&format!(" {:>7} ", "value"));
            }
            if self.evals.is_some() {
                header.push_str(&format!(" {:>7}", "eval"));
            }
            writeln!(out, "{}", header.trim_end())?;
        }
        for (i, (mv, s)) in self.rows.iter().enumerate() {
            self.table_row(out, i, *mv, s)?;
        }
        self.table_footnotes(out)?;
        if let Some(games) = self.games {
            writeln!(out)?;
            if games.is_empty() {
                writeln!(out, "No game listed: none reaches this position.")?;
            } else {
                super::games_listing::write_table(out, games)?;
            }
        }
        Ok(())
    }

    /// The lines above the moves: games and results, the value, and whether the game is over.
    fn table_summary(&self, out: &mut impl Write) -> Result<()> {
        let pos = self.pos;
        if !self.in_book {
            writeln!(out, "This position is not in the book.")?;
        } else if self.stats.games() == 0 && !self.book_has_games {
            writeln!(
                out,
                "0 games: the book holds no games (imported from another program's book)"
            )?;
        } else if self.stats.games() == 0 {
            writeln!(
                out,
                "0 games: deviation learning added this position, no game reached it"
            )?;
        } else {
            let c = self.stats.for_side(pos.side);
            let [b, d, w] = percent_cells(&c);
            writeln!(
                out,
                "{} games: black {b}%  draw {d}%  white {w}%  average {} (black - white){}",
                self.stats.games(),
                diff_cell(c.average_diff()),
                if c.unknown > 0 {
                    format!(", {} without result", c.unknown)
                } else {
                    String::new()
                }
            )?;
        }
        if let Some(values) = self.values.filter(|_| self.in_book) {
            match self.position_value() {
                Some(v) => {
                    let best: Vec<String> = values
                        .moves
                        .iter()
                        .filter(|m| self.is_best(m.mv))
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
                        "value {} (black - white; {}, depth {}), {best}",
                        book_values::value_text(v),
                        v.kind.word(),
                        v.depth,
                    )?;
                }
                None => writeln!(
                    out,
                    "value -: the book's evaluation has not reached this position"
                )?,
            }
        }
        if self.eval_asked && self.evals.is_none() {
            writeln!(out, "The game is over: there is no move to score.")?;
        }
        Ok(())
    }

    fn table_row(&self, out: &mut impl Write, i: usize, mv: Move, s: &MoveStats) -> Result<()> {
        let m = s.for_side(self.pos.side);
        let [b, d, w] = percent_cells(&m);
        let share = if self.known(i) {
            format!("{:.1}%", self.share(s.games()))
        } else {
            "-".into()
        };
        let mut row = format!(
            "{:<5} {:>7} {:>7} {:>7} {:>6} {:>7} {:>6}",
            mv.to_string(),
            self.games_cell(i, s.games()),
            share,
            b,
            d,
            w,
            diff_cell(m.average_diff())
        );
        if self.values.is_some() {
            let value = self
                .move_value(mv)
                .map_or_else(|| "-".to_string(), book_values::value_text);
            let mark = if self.is_best(mv) { '*' } else { ' ' };
            row.push_str(&format!(" {value:>7}{mark}"));
        }
        if self.evals.is_some() {
            row.push_str(&format!(" {:>7}", self.eval_cell(mv)));
        }
        writeln!(out, "{}", row.trim_end())?;
        Ok(())
    }

    fn table_footnotes(&self, out: &mut impl Write) -> Result<()> {
        write_equivalent_moves(out, &self.pos.board, self.rows.iter().map(|r| r.0))?;
        if (0..self.rows.len()).any(|i| !self.known(i)) {
            writeln!(
                out,
                "<{}: the book leaves out moves played in fewer than {} games",
                self.min_games, self.min_games
            )?;
        }
        if let Some(v) = self.values.filter(|_| !self.rows.is_empty()) {
            writeln!(
                out,
                "value: black - white, negamaxed from {}; * best for {}",
                book_values::searched(&v.info),
                self.pos.side
            )?;
            for (mv, _) in self.rows.iter().filter(|(mv, _)| self.leaves_book(*mv)) {
                writeln!(out, "{mv} leaves the book: its value is the leaf's search")?;
            }
        }
        if let Some(e) = self.evals {
            writeln!(out, "eval: {}, black - white", e.meaning())?;
        }
        Ok(())
    }

    pub fn tsv(&self, out: &mut impl Write) -> Result<()> {
        writeln!(
            out,
            "{TSV_HEADER}{}{}",
            if self.values.is_some() {
                TSV_VALUE_HEADER
            } else {
                ""
            },
            if self.eval_asked { "\teval" } else { "" }
        )?;
        if self.in_book {
            let value = self
                .values
                .map(|_| format!("{}\t", book_values::tsv_cells(self.position_value())));
            self.tsv_row(
                out,
                "all",
                Some(&self.stats.for_side(self.pos.side)),
                value,
                None,
            )?;
        }
        for (i, (mv, s)) in self.rows.iter().enumerate() {
            let value = self.values.map(|_| {
                format!(
                    "{}\t{}",
                    book_values::tsv_cells(self.move_value(*mv)),
                    u8::from(self.is_best(*mv))
                )
            });
            let eval = self.evals.and_then(|e| e.number(*mv));
            let m = s.for_side(self.pos.side);
            self.tsv_row(
                out,
                &mv.to_string(),
                self.known(i).then_some(&m),
                value,
                eval,
            )?;
        }
        Ok(())
    }

    /// One TSV row: `value` holds the value cells (with their tabs), `eval` the score.
    fn tsv_row(
        &self,
        out: &mut impl Write,
        name: &str,
        m: Option<&ColorStats>,
        value: Option<String>,
        eval: Option<String>,
    ) -> std::io::Result<()> {
        match m {
            Some(m) => write!(
                out,
                "{name}\t{}\t{:.2}\t{}\t{}\t{}\t{}\t{}",
                m.games(),
                self.share(m.games()),
                m.black_wins,
                m.draws,
                m.white_wins,
                m.unknown,
                json_num(m.average_diff())
            )?,
            // A move the book leaves out below its minimum: its games are not known.
            None => write!(out, "{name}\t\t\t\t\t\t\t")?,
        }
        if let Some(v) = value {
            write!(out, "{v}")?;
        }
        if self.eval_asked {
            // An empty cell where there is no score: the column stays numeric.
            write!(out, "\t{}", eval.unwrap_or_default())?;
        }
        writeln!(out)
    }

    pub fn json(&self, out: &mut impl Write) -> Result<()> {
        let moves: Vec<String> = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, (mv, s))| self.json_move(i, *mv, s))
            .collect();
        let eval_info = match self.evals {
            Some(e) => format!(
                ",\"eval_kind\":\"{}\",\"eval_depth\":{},\"book_min_games\":{}",
                e.kind_name(),
                e.depth,
                self.min_games
            ),
            None => String::new(),
        };
        let value_info = match self.values {
            Some(v) => format!(
                "{},\"evaluation\":{{\"depth\":{},\"exact_from\":{}}}",
                book_values::json_fields(self.position_value()),
                v.info.depth,
                v.info.exact_from
            ),
            None => String::new(),
        };
        writeln!(
            out,
            "{{\"position\":{},\"side\":\"{}\",\"in_book\":{},{}{value_info}{eval_info},\
             \"moves\":[{}]{}}}",
            json_str(&self.pos.to_obf()),
            self.pos.side,
            self.in_book,
            json_stats(&self.stats.for_side(self.pos.side)),
            moves.join(","),
            match self.games {
                Some(g) => format!(",\"listed_games\":{}", serde_json::to_string(g)?),
                None => String::new(),
            }
        )?;
        Ok(())
    }

    /// The JSON object of row `i`.
    fn json_move(&self, i: usize, mv: Move, s: &MoveStats) -> String {
        let stats = if self.known(i) {
            format!(
                "\"share\":{:.2},{}",
                self.share(s.games()),
                json_stats(&s.for_side(self.pos.side))
            )
        } else {
            // Left out of the book below its minimum: the games are not known.
            "\"share\":null,\"games\":null,\"black_wins\":null,\"draws\":null,\
             \"white_wins\":null,\"unknown\":null,\"average_diff\":null"
                .to_string()
        };
        // In a symmetric position a row stands for its equivalent moves too.
        let same: Vec<String> = equivalent_moves(&self.pos.board, mv)
            .iter()
            .filter(|m| **m != mv)
            .map(|m| format!("\"{m}\""))
            .collect();
        let same = if same.is_empty() {
            String::new()
        } else {
            format!(",\"equivalent\":[{}]", same.join(","))
        };
        let value = match self.values {
            Some(_) => format!(
                "{},\"best\":{},\"leaves_book\":{}",
                book_values::json_fields(self.move_value(mv)),
                self.is_best(mv),
                self.leaves_book(mv)
            ),
            None => String::new(),
        };
        let eval = match self.evals {
            Some(e) => format!(",\"eval\":{}", e.number(mv).unwrap_or("null".into())),
            None if self.eval_asked => ",\"eval\":null".to_string(),
            None => String::new(),
        };
        format!("{{\"move\":\"{mv}\",{stats}{same}{value}{eval}}}")
    }
}

/// The statistics fields of a JSON object.
fn json_stats(m: &ColorStats) -> String {
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
}
