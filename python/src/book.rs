//! `othbook.Book`: an opening book read into memory, and its queries: probe a position, its
//! moves, its valued moves, the games that reached it (with the command line's filters).

use crate::board::{position_of, Board};
use crate::errors;
use crate::records::{BestMove, GamesFound, MoveInfo, ProbeInfo};
use othbook::board::{Move, Position};
use othbook::book::games::GameSelection;
use othbook::book::{BookError, GameFilter, GameTable, OpenOptions, PlayerColor, Years};
use othbook::report::explore::{ExploreGames, ExploreQuery};
use othbook::report::games_list::FindReport;
use othbook::report::{ExploreReport, ProbeReport, TrustOf, ValueFields};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};
use std::path::PathBuf;
use std::sync::OnceLock;

/// An opening book, read whole into memory and checked when opened (a file changed or cut
/// short afterwards cannot change an answer). Safe to share between threads.
#[pyclass(module = "othbook", frozen)]
pub struct Book {
    book: othbook::book::Book,
    path: PathBuf,
    games: OnceLock<GameTable>,
}

/// `years`: `1995`, `(1990, 2000)` or `"1990-2000"`.
fn years_of(y: &Bound<'_, PyAny>) -> PyResult<Years> {
    let bad =
        |what: String| errors::argument(format!("years {what}: use A-B or A, e.g. 1990-2000"));
    let pair = if y.is_instance_of::<PyInt>() {
        let a: u16 = y.extract().map_err(|_| bad(y.to_string()))?;
        (a, a)
    } else if let Ok(t) = y.downcast::<PyTuple>() {
        t.extract::<(u16, u16)>().map_err(|_| bad(t.to_string()))?
    } else if let Ok(s) = y.downcast::<PyString>() {
        let text: String = s.extract()?;
        let text = text.as_str();
        let (a, b) = text.split_once('-').unwrap_or((text, text));
        match (a.trim().parse(), b.trim().parse()) {
            (Ok(a), Ok(b)) => (a, b),
            _ => return Err(bad(format!("{text:?}"))),
        }
    } else {
        return Err(bad(y.to_string()));
    };
    Years::new(pair.0, pair.1).map_err(|_| bad(format!("{}-{}", pair.0, pair.1)))
}

/// The query-time game filters, as `othbook explore` and `games find` take them (the
/// keyword arguments of `probe`, `moves` and `games_find`), or None when none was given.
fn filter_of(
    player: Option<String>,
    color: Option<String>,
    years: Option<&Bound<'_, PyAny>>,
    event: Option<String>,
    complete_only: bool,
) -> PyResult<Option<GameFilter>> {
    if color.is_some() && player.is_none() {
        return Err(errors::argument("color needs player"));
    }
    let player_color = match color.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("either") => PlayerColor::Either,
        Some("black") => PlayerColor::Black,
        Some("white") => PlayerColor::White,
        Some(other) => {
            return Err(errors::argument(format!(
                "color {other:?}: use \"black\", \"white\" or \"either\""
            )))
        }
    };
    let filter = GameFilter::new(
        player,
        player_color,
        years.map(years_of).transpose()?,
        event,
        complete_only,
    )
    .map_err(|e| errors::argument(e.to_string()))?;
    Ok((filter != GameFilter::default()).then_some(filter))
}

impl Book {
    fn label(&self) -> String {
        self.path.display().to_string()
    }

    /// The book's game table (read once), or the error of a book without one.
    fn table(&self, needed_for: &str) -> PyResult<&GameTable> {
        if let Some(t) = self.games.get() {
            return Ok(t);
        }
        let table = self
            .book
            .games()
            .map_err(|e| errors::book(&e))?
            .ok_or_else(|| {
                errors::BookError::new_err(format!(
                    "{} has no table of its games (it was written before book format version 3, \
                 or imported from another program) and {needed_for} needs one: build the book \
                 again, or add its games with `othbook book add-games`",
                    self.label()
                ))
            })?;
        Ok(self.games.get_or_init(|| table))
    }

    fn selection(&self, filter: &GameFilter, table: &GameTable) -> PyResult<GameSelection> {
        GameSelection::new(filter, table).map_err(|e| errors::argument(e.to_string()))
    }

    fn table_error(&self, source: othbook::book::games::GameTableError) -> PyErr {
        errors::book(&BookError::GameTable {
            path: self.label(),
            source,
        })
    }

    /// `othbook explore`'s report of `pos` (statistics from the filtered games with a filter).
    fn explore(&self, pos: &Position, filter: Option<&GameFilter>) -> PyResult<ExploreReport> {
        let found = match filter {
            None => None,
            Some(f) => {
                let table = self.table("a filter (player, years, event, complete_only)")?;
                let chosen = self.selection(f, table)?;
                let info = self.book.info();
                // The book counts the games' first `plies` plies, and leaves out rarer moves.
                let found = table
                    .find(
                        &pos.board,
                        usize::from(info.options.plies()),
                        Some(&chosen),
                        u64::from(info.options.min_games()),
                    )
                    .map_err(|e| self.table_error(e))?;
                Some(found)
            }
        };
        ExploreReport::build(
            &self.book,
            ExploreQuery {
                pos,
                opening: None,
                scores: None,
                eval_asked: false,
                games: found.as_ref().map(|found| ExploreGames {
                    filtered: true,
                    found,
                    listed: None,
                }),
            },
        )
        .map_err(|e| errors::book(&e))
    }
}

#[pymethods]
impl Book {
    /// Opens the book at `path`, or the default book the command line finds when `path` is
    /// None: `$OTHBOOK_BOOK`, else `books/wthor.book` in the current folder, in the data
    /// folder (`~/.local/share/othbook/wthor.book`) or in the source tree the package was
    /// built from. Raises `BookError` when the file is missing, not a book or damaged.
    #[staticmethod]
    #[pyo3(signature = (path=None))]
    fn open(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Book> {
        let path = path.unwrap_or_else(othbook::book::default_path);
        // Read, not mapped: another program cutting the file short would otherwise kill the
        // interpreter with SIGBUS at the next read.
        let opts = OpenOptions {
            mmap: false,
            verify_all: true,
        };
        let book = py
            .allow_threads(|| othbook::book::Book::open_with(&path, opts))
            .map_err(|e| errors::book(&e))?;
        Ok(Book {
            book,
            path,
            games: OnceLock::new(),
        })
    }

    /// The file the book was read from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Positions in the book.
    #[getter]
    fn positions(&self) -> u64 {
        self.book.counts().0
    }

    /// Games the book was built from (0 for a book imported from another program).
    #[getter]
    fn games(&self) -> u64 {
        self.book.info().games
    }

    /// The book holds searched values (`othbook book evaluate`).
    #[getter]
    fn has_values(&self) -> bool {
        self.book.has_values()
    }

    /// The book holds the table of its games (`games_find` and the filters need it).
    #[getter]
    fn has_games(&self) -> bool {
        self.book.has_games()
    }

    /// What the book says of a position: a move line from the start (`"f5d6c3"`) or a
    /// `Board`. With filters, the counts are those of the book's games that pass them (as
    /// `othbook explore --player ...`); values stay the whole book's.
    #[pyo3(signature = (line_or_board, *, player=None, color=None, years=None, event=None, complete_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn probe<'py>(
        &self,
        line_or_board: &Bound<'py, PyAny>,
        player: Option<String>,
        color: Option<String>,
        years: Option<Bound<'py, PyAny>>,
        event: Option<String>,
        complete_only: bool,
    ) -> PyResult<ProbeInfo> {
        let pos = position_of(line_or_board)?;
        let filter = filter_of(player, color, years.as_ref(), event, complete_only)?;
        if filter.is_none() {
            let r = ProbeReport::of(&self.book, &pos).map_err(|e| errors::book(&e))?;
            return Ok(ProbeInfo::new(
                Board { pos },
                r.in_book,
                &r.results,
                &r.value,
            ));
        }
        let r = self.explore(&pos, filter.as_ref())?;
        let value = r.value.map(|v| v.value).unwrap_or_default();
        Ok(ProbeInfo::new(Board { pos }, r.in_book, &r.results, &value))
    }

    /// The next moves of a position as `othbook explore` lists them, in the orientation of
    /// the line or board given: the book's moves, most played first, then moves with a value
    /// that the book does not list. Filters as for `probe`.
    #[pyo3(signature = (line_or_board, *, player=None, color=None, years=None, event=None, complete_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn moves<'py>(
        &self,
        line_or_board: &Bound<'py, PyAny>,
        player: Option<String>,
        color: Option<String>,
        years: Option<Bound<'py, PyAny>>,
        event: Option<String>,
        complete_only: bool,
    ) -> PyResult<Vec<MoveInfo>> {
        let pos = position_of(line_or_board)?;
        let filter = filter_of(player, color, years.as_ref(), event, complete_only)?;
        let r = self.explore(&pos, filter.as_ref())?;
        Ok(r.moves.iter().map(MoveInfo::from).collect())
    }

    /// The moves with a value in the book, best first for the side to move (empty for a
    /// book without values or a position it did not evaluate). Values are black minus white.
    fn best_moves(&self, line_or_board: &Bound<'_, PyAny>) -> PyResult<Vec<BestMove>> {
        let pos = position_of(line_or_board)?;
        let moves = self
            .book
            .try_best_moves(&pos.board)
            .map_err(|e| errors::book(&e))?;
        let Some(info) = self.book.info().evaluation else {
            return Ok(Vec::new());
        };
        Ok(moves
            .iter()
            .map(|m| {
                let trust = TrustOf {
                    empties: pos.board.empty_count() - u32::from(m.mv != Move::Pass),
                    info: &info,
                };
                BestMove::new(
                    m.mv,
                    &ValueFields::of(Some(m.score), pos.side, trust),
                    m.in_book,
                )
            })
            .collect())
    }

    /// The games of the book's table that reached the position (any move order, any
    /// orientation), most recent first, at most `limit` listed (0: all); `next` is each
    /// game's move there in the caller's orientation. Filters as `othbook games find`.
    #[pyo3(signature = (line_or_board, *, limit=20, player=None, color=None, years=None, event=None, complete_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn games_find<'py>(
        &self,
        py: Python<'py>,
        line_or_board: &Bound<'py, PyAny>,
        limit: usize,
        player: Option<String>,
        color: Option<String>,
        years: Option<Bound<'py, PyAny>>,
        event: Option<String>,
        complete_only: bool,
    ) -> PyResult<GamesFound> {
        let pos = position_of(line_or_board)?;
        let filter = filter_of(player, color, years.as_ref(), event, complete_only)?;
        let table = self.table("games_find")?;
        let chosen = filter
            .as_ref()
            .map(|f| self.selection(f, table))
            .transpose()?;
        let found = py
            .allow_threads(|| table.find(&pos.board, usize::MAX, chosen.as_ref(), 1))
            .map_err(|e| self.table_error(e))?;
        let limit = if limit == 0 { usize::MAX } else { limit };
        GamesFound::new(py, FindReport::build(table, &found, &pos, limit, None))
    }

    fn __repr__(&self) -> String {
        format!(
            "<othbook.Book {}: {} positions, {} games>",
            self.label(),
            self.book.counts().0,
            self.book.info().games
        )
    }
}
