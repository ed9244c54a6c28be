//! The `othbook` Python module: othbook's opening books, positions and search engine from
//! Python (pyo3, one abi3 wheel for CPython 3.9 on). See docs/python.md.

mod board;
mod book;
mod engine;
mod errors;
mod player;
mod records;

use pyo3::prelude::*;

/// The default book's path as `Book.open()` finds it (`$OTHBOOK_BOOK`, `books/wthor.book`
/// here, the data folder, the source tree); the usual place when none exists.
#[pyfunction]
fn default_book_path() -> std::path::PathBuf {
    ::othbook::book::default_path()
}

/// Othello opening books, positions and search: the othbook library from Python.
#[pymodule]
#[pyo3(name = "othbook")]
fn othbook_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<board::Board>()?;
    m.add_class::<book::Book>()?;
    m.add_class::<records::ProbeInfo>()?;
    m.add_class::<records::MoveInfo>()?;
    m.add_class::<records::BestMove>()?;
    m.add_class::<records::Game>()?;
    m.add_class::<records::GamesFound>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::PyAnalysis>()?;
    m.add_class::<engine::Line>()?;
    m.add_class::<player::Player>()?;
    m.add_function(wrap_pyfunction!(default_book_path, m)?)?;
    errors::register(m)?;
    Ok(())
}
