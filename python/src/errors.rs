//! The package's exceptions and how the library's errors become them: the message is the one
//! the command line prints (the error and its causes joined by `: `), the class says what
//! went wrong.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::PyErr;

create_exception!(
    othbook,
    OthbookError,
    PyException,
    "Base class of every error othbook raises."
);
create_exception!(
    othbook,
    BookError,
    OthbookError,
    "A book that cannot be opened or read: missing, not a book, damaged, or without the game \
     table a query needs."
);
create_exception!(
    othbook,
    PositionError,
    OthbookError,
    "A board or move line that cannot be read or played, or a position that cannot be \
     searched (the game is over)."
);
create_exception!(
    othbook,
    ArgumentError,
    OthbookError,
    "An option out of range (depth, time, selectivity, threads, limit) or a filter naming no \
     player or event of the book."
);
create_exception!(
    othbook,
    EngineError,
    OthbookError,
    "The engine cannot be built (its table's memory cannot be had)."
);

/// `e` and its causes as the command line prints them: `a: b: c`.
pub fn message(e: &dyn std::error::Error) -> String {
    let mut msg = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        msg.push_str(": ");
        msg.push_str(&c.to_string());
        cause = c.source();
    }
    msg
}

/// A book error (opening, reading, damaged data).
pub fn book(e: &othbook::book::BookError) -> PyErr {
    BookError::new_err(message(e))
}

/// A position error.
pub fn position(msg: impl Into<String>) -> PyErr {
    PositionError::new_err(msg.into())
}

/// An argument error.
pub fn argument(msg: impl Into<String>) -> PyErr {
    ArgumentError::new_err(msg.into())
}

/// Registers the exception classes on the module (one base, so that `except
/// othbook.OthbookError` catches every error of the package).
pub fn register(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
    use pyo3::types::PyModuleMethods;
    let py = m.py();
    m.add("OthbookError", py.get_type::<OthbookError>())?;
    m.add("BookError", py.get_type::<BookError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add("EngineError", py.get_type::<EngineError>())?;
    Ok(())
}
