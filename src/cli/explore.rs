//! `othbook explore`: a position's games and results, then every next move the book knows,
//! and with `--depth` the engine's score of every legal move beside what the games say.

use super::common::{
    bad, depth_arg, diff_cell, json_num, json_str, open_book, percent_cells, position_from_args,
    threads_arg, write_equivalent_moves, OutputFormat,
};
use anyhow::Result;
use othbook::board::{Color, Move, Position};
use othbook::book::key::equivalent_moves;
use othbook::book::{MoveStats, PositionStats};
use othbook::engine::{score_number, score_text, Engine, EngineOptions, Limits, ScoreKind};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Arguments of `othbook explore`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Statistics merge transpositions and the 8 symmetries: any move order \
and any orientation of a position give the same numbers. Moves are shown in your orientation.\n\n\
With --depth every legal move also gets the engine's score (black minus white, like the avg \
column), and moves the book does not list get rows of their own (0 games, or <N when the book \
leaves out moves played in fewer than N games): popular moves that search refutes and good \
ones nobody tried stand side by side.\n\n\
Examples:\n  othbook explore f5\n  othbook explore f5 d6 c3 --format json\n  \
othbook explore f5 d6 c3 --depth 14\n  \
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
    /// Also score every legal move with the engine searched this many plies deep (1-60;
    /// exact when the end of the game is within reach).
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads for --depth (default: all cores).
    #[arg(long, requires = "depth")]
    threads: Option<usize>,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The columns of `--format tsv` (`eval` only with `--depth`).
const TSV_HEADER: &str = "move\tgames\tshare\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff";

/// Table size for `--depth`: the searches are short, and a small table is quick to set up.
const EVAL_HASH_MB: usize = 64;

/// The engine's view of the position's moves (`--depth`).
struct Evals {
    /// Every legal move (or the pass) with its score, black minus white, in `SCALE` units;
    /// best first for the side to move, as the engine ranks them.
    scores: Vec<(Move, i32)>,
    kind: ScoreKind,
    depth: u32,
}

impl Evals {
    /// Scores every legal move of `pos`; `None` when the game is over.
    fn of(pos: &Position, depth: u32, threads: usize) -> Result<Option<Evals>> {
        if pos.board.is_game_over() {
            return Ok(None);
        }
        let engine = Engine::try_new(EngineOptions {
            threads,
            hash_mb: EVAL_HASH_MB,
            ..EngineOptions::default()
        })
        .map_err(|e| bad(e.to_string()))?;
        let lines = pos.board.legal_moves().count().max(1) as usize;
        // Scoring every move deeply can take a while: say how far it got (on a terminal).
        let spinner = if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_message(format!("scoring {lines} moves to depth {depth}"));
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        let a = engine
            .analyze_with(&pos.board, &Limits::depth(depth).multipv(lines), |it| {
                spinner.set_message(format!(
                    "scoring {lines} moves to depth {depth}: depth {} done, {} nodes, {:.1} s",
                    it.depth,
                    it.nodes,
                    it.elapsed.as_secs_f64()
                ));
            })
            .map_err(|e| bad(e.to_string()))?;
        spinner.finish_and_clear();
        // The engine scores for the side to move; the book's columns are black minus white.
        let sign = if pos.side == Color::Black { 1 } else { -1 };
        Ok(Some(Evals {
            scores: a.lines.iter().map(|l| (l.mv, sign * l.score)).collect(),
            kind: a.kind,
            depth: a.depth,
        }))
    }

    /// The score of `mv` (equivalent moves share it).
    fn score(&self, mv: Move) -> Option<i32> {
        self.scores.iter().find(|s| s.0 == mv).map(|s| s.1)
    }

    /// `+1.25`, or `+4` for a final disc difference.
    fn cell(&self, mv: Move) -> String {
        self.score(mv)
            .map_or_else(|| "-".into(), |s| score_text(s, self.kind))
    }

    /// The score as a TSV or JSON number: `1.25`, `4`.
    fn number(&self, mv: Move) -> Option<String> {
        self.score(mv).map(|s| score_number(s, self.kind))
    }

    /// What the scores mean, for the table's footnote and JSON.
    fn meaning(&self) -> String {
        match self.kind {
            ScoreKind::Exact => "exact final disc difference under perfect play".into(),
            ScoreKind::Wld => "win/draw/loss under perfect play".into(),
            ScoreKind::Midgame => format!("engine score after a {}-ply search", self.depth),
        }
    }

    fn kind_name(&self) -> &'static str {
        match self.kind {
            ScoreKind::Exact => "exact",
            ScoreKind::Wld => "wld",
            ScoreKind::Midgame => "midgame",
        }
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let moves = (!args.moves.is_empty()).then(|| args.moves.join(" "));
    let pos = position_from_args(args.position.as_deref(), moves.as_deref())?;
    if args.position.is_none() && moves.as_deref().is_some_and(|m| m.trim().is_empty()) {
        return Err(bad("empty move string"));
    }
    depth_arg(args.depth)?;
    let threads = threads_arg(args.threads)?;
    let book = open_book(args.book.as_deref())?;
    let stats = book.try_probe(&pos.board)?;
    let evals = match args.depth {
        Some(d) => Evals::of(&pos, d, threads)?,
        None => None,
    };
    let Some(stats) = stats.or(evals.as_ref().map(|_| PositionStats::default())) else {
        return write_not_in_book(out, &pos, args.format, args.depth.is_some());
    };
    let in_book = stats.games() > 0;
    let mut rows = if in_book {
        book.try_moves(&pos.board)?
    } else {
        Vec::new()
    };
    let listed = rows.len();
    if let Some(e) = &evals {
        add_unlisted_moves(&mut rows, &pos, e);
    }
    let view = View {
        pos: &pos,
        stats,
        in_book,
        rows: &rows,
        listed,
        min_games: book.info().options.min_games,
        evals: evals.as_ref(),
        eval_asked: args.depth.is_some(),
    };
    match args.format {
        OutputFormat::Table => view.table(out),
        OutputFormat::Tsv => view.tsv(out),
        OutputFormat::Json => view.json(out),
    }
}

/// A position the book lacks, and no move to score: nothing to show but the position.
fn write_not_in_book(
    out: &mut impl Write,
    pos: &Position,
    format: OutputFormat,
    eval_asked: bool,
) -> Result<()> {
    match format {
        OutputFormat::Json => writeln!(
            out,
            "{{\"position\":{},\"side\":\"{}\",\"in_book\":false{}}}",
            json_str(&pos.to_obf()),
            pos.side,
            // A finished game: the moves asked for, none.
            if eval_asked { ",\"moves\":[]" } else { "" }
        )?,
        // The table's header and no row: a script reads an empty table.
        OutputFormat::Tsv => writeln!(
            out,
            "{TSV_HEADER}{}",
            if eval_asked { "\teval" } else { "" }
        )?,
        OutputFormat::Table => {
            writeln!(out, "{}\nThis position is not in the book.", pos.diagram())?;
            if eval_asked {
                writeln!(out, "The game is over: there is no move to score.")?;
            }
        }
    }
    Ok(())
}

/// Appends, best first, a row for each scored move that no book row stands for (a book row
/// of a symmetric position stands for its equivalent moves too).
fn add_unlisted_moves(rows: &mut Vec<(Move, MoveStats)>, pos: &Position, evals: &Evals) {
    // The engine's lines come best first for the side to move.
    for &(mv, _) in &evals.scores {
        let same = equivalent_moves(&pos.board, mv);
        if rows.iter().any(|(r, _)| *r == mv || same.contains(r)) {
            continue;
        }
        let shown = othbook::book::key::representative(&same).unwrap_or(mv);
        rows.push((shown, MoveStats::default()));
    }
}

/// Everything one `explore` prints.
struct View<'a> {
    pos: &'a Position,
    stats: PositionStats,
    in_book: bool,
    /// The book's moves come first; the rest are scored moves the book does not list.
    rows: &'a [(Move, MoveStats)],
    listed: usize,
    /// The book leaves out moves played in fewer games than this.
    min_games: u32,
    evals: Option<&'a Evals>,
    /// `--depth` was given (its column shows even when the game is over).
    eval_asked: bool,
}

impl View<'_> {
    fn share(&self, games: u64) -> f64 {
        100.0 * games as f64 / self.stats.games().max(1) as f64
    }

    /// Whether the games of row `i` are known: the book lists the move, or lists every move
    /// played (a book without a minimum).
    fn known(&self, i: usize) -> bool {
        i < self.listed || self.min_games <= 1
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

    fn table(&self, out: &mut impl Write) -> Result<()> {
        let pos = self.pos;
        writeln!(out, "{}", pos.diagram())?;
        if self.in_book {
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
        } else {
            writeln!(out, "This position is not in the book.")?;
        }
        if self.eval_asked && self.evals.is_none() {
            writeln!(out, "The game is over: there is no move to score.")?;
        }
        if self.rows.is_empty() {
            if self.in_book {
                writeln!(out, "No next move in the book.")?;
            }
        } else {
            write!(out, "\nmove    games   share  black%  draw%  white%    avg")?;
            writeln!(
                out,
                "{}",
                if self.evals.is_some() { "    eval" } else { "" }
            )?;
        }
        for (i, (mv, s)) in self.rows.iter().enumerate() {
            let m = s.for_side(pos.side);
            let [b, d, w] = percent_cells(&m);
            let share = if self.known(i) {
                format!("{:.1}%", self.share(s.games()))
            } else {
                "-".into()
            };
            write!(
                out,
                "{:<5} {:>7} {:>7} {:>7} {:>6} {:>7} {:>6}",
                mv.to_string(),
                self.games_cell(i, s.games()),
                share,
                b,
                d,
                w,
                diff_cell(m.average_diff())
            )?;
            if self.evals.is_some() {
                write!(out, " {:>7}", self.eval_cell(*mv))?;
            }
            writeln!(out)?;
        }
        write_equivalent_moves(out, &pos.board, self.rows.iter().map(|r| r.0))?;
        if (0..self.rows.len()).any(|i| !self.known(i)) {
            writeln!(
                out,
                "<{}: the book leaves out moves played in fewer than {} games",
                self.min_games, self.min_games
            )?;
        }
        if let Some(e) = self.evals {
            writeln!(out, "eval: {}, black - white", e.meaning())?;
        }
        Ok(())
    }

    fn tsv(&self, out: &mut impl Write) -> Result<()> {
        let with_eval = self.eval_asked;
        writeln!(out, "{TSV_HEADER}{}", if with_eval { "\teval" } else { "" })?;
        let row = |out: &mut dyn Write,
                   name: &str,
                   m: Option<&othbook::book::ColorStats>,
                   eval: Option<String>|
         -> std::io::Result<()> {
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
            if with_eval {
                // An empty cell where there is no score: the column stays numeric.
                write!(out, "\t{}", eval.unwrap_or_default())?;
            }
            writeln!(out)
        };
        if self.in_book {
            row(out, "all", Some(&self.stats.for_side(self.pos.side)), None)?;
        }
        for (i, (mv, s)) in self.rows.iter().enumerate() {
            let eval = self.evals.and_then(|e| e.number(*mv));
            let m = s.for_side(self.pos.side);
            row(out, &mv.to_string(), self.known(i).then_some(&m), eval)?;
        }
        Ok(())
    }

    fn json(&self, out: &mut impl Write) -> Result<()> {
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
        let eval_field = |mv: Move| match self.evals {
            Some(e) => format!(",\"eval\":{}", e.number(mv).unwrap_or("null".into())),
            None if self.eval_asked => ",\"eval\":null".to_string(),
            None => String::new(),
        };
        let moves: Vec<String> = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, (mv, s))| {
                let stats = if self.known(i) {
                    format!(
                        "\"share\":{:.2},{}",
                        self.share(s.games()),
                        obj(&s.for_side(self.pos.side))
                    )
                } else {
                    // Left out of the book below its minimum: the games are not known.
                    "\"share\":null,\"games\":null,\"black_wins\":null,\"draws\":null,\
                     \"white_wins\":null,\"unknown\":null,\"average_diff\":null"
                        .to_string()
                };
                // In a symmetric position a row stands for its equivalent moves too.
                let same: Vec<String> = equivalent_moves(&self.pos.board, *mv)
                    .iter()
                    .filter(|m| *m != mv)
                    .map(|m| format!("\"{m}\""))
                    .collect();
                let same = if same.is_empty() {
                    String::new()
                } else {
                    format!(",\"equivalent\":[{}]", same.join(","))
                };
                format!("{{\"move\":\"{mv}\",{stats}{same}{}}}", eval_field(*mv))
            })
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
        writeln!(
            out,
            "{{\"position\":{},\"side\":\"{}\",\"in_book\":{},{}{eval_info},\"moves\":[{}]}}",
            json_str(&self.pos.to_obf()),
            self.pos.side,
            self.in_book,
            obj(&self.stats.for_side(self.pos.side)),
            moves.join(",")
        )?;
        Ok(())
    }
}
