//! `othbook explore`: a position's games and results, then every next move the book knows,
//! with the book's value of each move when the book is evaluated, and with `--depth` the
//! engine's score of every legal move beside what the games say.

use super::book_values::PositionValues;
use super::common::{
    bad, depth_arg, json_str, open_book, position_from_args, threads_arg, OutputFormat,
};
use super::explore_view::{View, TSV_HEADER};
use super::games_listing::{self, GameRow};
use super::query_filter::{book_games, book_label, describe, selection, FilterArgs, FILTER_NEEDS};
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
A book with values (evaluated books) adds a value column: each move's value negamaxed through \
the book, black minus white, with * on the best move for the side to move; the best move out \
of the book (the searched leaf) gets a row of its own when the book does not list it.\n\n\
--games K lists the K most recent games that reached the position (table and JSON; TSV \
keeps to the moves: `othbook games find --format tsv` lists games). --player, --color, \
--years, --event and --complete-only count everything from the book's games that match, as a \
book built with those filters would (values stay the whole book's).\n\n\
Examples:\n  othbook explore f5\n  othbook explore f5 d6 --player murakami --years 2000-2010 --games 5\n  othbook explore f5 d6 c3 --format json\n  \
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
    /// List this many of the games that reached the position under the moves, most recent
    /// first (table and JSON).
    #[arg(long, value_name = "K")]
    games: Option<usize>,
    #[command(flatten)]
    filter: FilterArgs,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// Table size for `--depth`: the searches are short, and a small table is quick to set up.
const EVAL_HASH_MB: usize = 64;

/// The engine's view of the position's moves (`--depth`).
pub struct Evals {
    /// Every legal move (or the pass) with its score, black minus white, in `SCALE` units;
    /// best first for the side to move, as the engine ranks them.
    scores: Vec<(Move, i32)>,
    kind: ScoreKind,
    pub depth: u32,
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
    pub fn cell(&self, mv: Move) -> String {
        self.score(mv)
            .map_or_else(|| "-".into(), |s| score_text(s, self.kind))
    }

    /// The score as a TSV or JSON number: `1.25`, `4`.
    pub fn number(&self, mv: Move) -> Option<String> {
        self.score(mv).map(|s| score_number(s, self.kind))
    }

    /// What the scores mean, for the table's footnote and JSON.
    pub fn meaning(&self) -> String {
        match self.kind {
            ScoreKind::Exact => "exact final disc difference under perfect play".into(),
            ScoreKind::Wld => "win/draw/loss under perfect play".into(),
            ScoreKind::Midgame => format!("engine score after a {}-ply search", self.depth),
        }
    }

    pub fn kind_name(&self) -> &'static str {
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
    let from_games = ExploreGames::of(&book, &args, &pos)?;
    let stats = match &from_games {
        Some(g) if g.filtered => Some(g.found.stats).filter(|s| s.games() > 0),
        _ => book.try_probe(&pos.board)?,
    };
    let values = PositionValues::of(&book, &pos)?;
    let evals = match args.depth {
        Some(d) => Evals::of(&pos, d, threads)?,
        None => None,
    };
    // A position added by deviation learning is in the book with no game.
    let in_book = stats.is_some();
    let Some(stats) = stats.or(evals.as_ref().map(|_| PositionStats::default())) else {
        if from_games.as_ref().is_some_and(|g| g.filtered) {
            if let OutputFormat::Table = args.format {
                writeln!(out, "{}", pos.diagram())?;
                writeln!(out, "No game matching the filters reaches this position.")?;
                return Ok(());
            }
        }
        write_not_in_book(out, &pos, args.format, args.depth.is_some())?;
        // Fewer games than the book keeps a position for may still have reached it.
        if let (OutputFormat::Table, Some(g)) = (args.format, &from_games) {
            if let Some(listed) = g.listed.as_ref().filter(|l| !l.is_empty()) {
                writeln!(
                    out,
                    "\n{} of its games reached it (fewer than the book keeps a position for):",
                    g.found.matches.len()
                )?;
                games_listing::write_table(out, listed)?;
            }
        }
        return Ok(());
    };
    let mut rows = match &from_games {
        Some(g) if g.filtered => g.found.moves.clone(),
        _ if in_book => book.try_moves(&pos.board)?,
        _ => Vec::new(),
    };
    let listed = rows.len();
    if let Some(v) = &values {
        add_unlisted_moves(&mut rows, &pos, v.moves.iter().map(|m| m.mv));
    }
    if let Some(e) = &evals {
        add_unlisted_moves(&mut rows, &pos, e.scores.iter().map(|s| s.0));
    }
    let view = View {
        pos: &pos,
        stats,
        in_book,
        rows: &rows,
        listed,
        min_games: book.info().options.min_games,
        book_has_games: book.info().games > 0,
        values: values.as_ref(),
        evals: evals.as_ref(),
        eval_asked: args.depth.is_some(),
        games: from_games.as_ref().and_then(|g| g.listed.as_ref()),
    };
    match args.format {
        OutputFormat::Table => {
            view.table(out)?;
            if let Some(f) = from_games.as_ref().and_then(|g| g.filter.as_ref()) {
                writeln!(out, "games: only those matching {}", describe(f))?;
            }
            Ok(())
        }
        OutputFormat::Tsv => view.tsv(out),
        OutputFormat::Json => view.json(out),
    }
}

/// What the book's game table says about the position (`--games`, filters).
struct ExploreGames {
    /// The statistics are counted from the games that pass a filter.
    filtered: bool,
    /// That filter.
    filter: Option<othbook::book::GameFilter>,
    /// The games that reach the position (those that pass the filter).
    found: othbook::book::games::PositionGames,
    /// The games listed for `--games`.
    listed: Option<Vec<GameRow>>,
}

impl ExploreGames {
    /// `None` when neither `--games` nor a filter was given (the table is not read).
    fn of(book: &othbook::book::Book, args: &Args, pos: &Position) -> Result<Option<Self>> {
        let filter = args.filter.filter()?;
        if filter.is_none() && args.games.is_none() {
            return Ok(None);
        }
        let label = book_label(args.book.as_deref());
        let what = if filter.is_some() {
            FILTER_NEEDS
        } else {
            "--games"
        };
        let table = book_games(book, &label, what)?;
        let chosen = filter.as_ref().map(|f| selection(f, &table)).transpose()?;
        let info = book.info();
        // The book counts the games' first `plies` plies, and leaves out rarer moves.
        let found = table
            .find(
                &pos.board,
                usize::from(info.options.plies),
                chosen.as_ref(),
                u64::from(info.options.min_games),
            )
            .map_err(|source| othbook::book::BookError::GameTable {
                path: label,
                source,
            })?;
        let listed = args
            .games
            .map(|k| games_listing::rows(&table, &found.matches, k));
        Ok(Some(ExploreGames {
            filtered: filter.is_some(),
            filter,
            found,
            listed,
        }))
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

/// Appends a row for each of `moves` (valued or scored moves, best first) that no row stands
/// for yet (a row of a symmetric position stands for its equivalent moves too).
fn add_unlisted_moves(
    rows: &mut Vec<(Move, MoveStats)>,
    pos: &Position,
    moves: impl Iterator<Item = Move>,
) {
    for mv in moves {
        let same = equivalent_moves(&pos.board, mv);
        if rows.iter().any(|(r, _)| *r == mv || same.contains(r)) {
            continue;
        }
        let shown = othbook::book::key::representative(&same).unwrap_or(mv);
        rows.push((shown, MoveStats::default()));
    }
}
