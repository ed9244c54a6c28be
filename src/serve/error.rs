//! Why a request failed ([`ApiError`]): each kind has its HTTP status, and its JSON body names
//! the parameter at fault but never a server path or other internal detail (those go to the
//! server's log).

use crate::book::BookError;
use crate::report::query::QueryError;
use crate::review::ReviewError;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use thiserror::Error;

/// Why a request failed; each kind has its status.
#[derive(Debug, Error)]
pub enum ApiError {
    /// A parameter the server cannot use (400).
    #[error("{param}: {reason}")]
    BadParam { param: &'static str, reason: String },
    /// A query string or body that does not parse, or is too large (its own 4xx).
    #[error("{reason}")]
    Rejected { status: StatusCode, reason: String },
    /// The book has no game table and the request needs one (404).
    #[error("this book has no table of its games (built before book format 3 or imported)")]
    NoGameTable,
    /// No book of that name on this server (404).
    #[error("book: no book named {name:?} here (books: {})", known.join(", "))]
    UnknownBook { name: String, known: Vec<String> },
    /// The book did not open and no valid copy of it has appeared since (503).
    #[error("book: the book {name} is not available ({kind}): try another book")]
    BookUnavailable { name: String, kind: &'static str },
    /// No such page or endpoint (404).
    #[error("no such endpoint: {0}")]
    NotFound(String),
    /// A method the endpoint does not take (405).
    #[error("{method} is not allowed here: use GET (POST for /review, /play and /transcript)")]
    MethodNotAllowed { method: String },
    /// Every search slot stayed busy (503).
    #[error("the server is busy with other searches: try again later")]
    Busy,
    /// The client hung up and its search was stopped: no one reads this answer, and it is
    /// not cached.
    #[error("the client hung up: its search was stopped")]
    HungUp,
    /// The book's data is damaged (500). The client learns the book's file name only; the
    /// detail (which may hold the server's paths) goes to the server's log.
    #[error("the book {book} is damaged or unreadable: this query cannot be answered")]
    Book { book: String, detail: BookError },
    /// Something failed that the request did not cause (500). The detail goes to the
    /// server's log, never to the client.
    #[error("internal error: the server could not answer this request")]
    Internal(String),
}

impl ApiError {
    pub fn bad(param: &'static str, reason: String) -> ApiError {
        ApiError::BadParam { param, reason }
    }

    /// `e` from the book named `book` (its file name, as clients know it).
    pub fn book(book: &str, detail: BookError) -> ApiError {
        ApiError::Book {
            book: book.to_string(),
            detail,
        }
    }

    /// Writes what the client is not told on stderr, the server's log.
    fn log(&self) {
        match self {
            ApiError::Book { detail, .. } => eprintln!("othbook: serve: {detail}"),
            ApiError::Internal(detail) => eprintln!("othbook: serve: internal error: {detail}"),
            _ => {}
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadParam { .. } => StatusCode::BAD_REQUEST,
            ApiError::Rejected { status, .. } => *status,
            ApiError::NoGameTable | ApiError::NotFound(_) | ApiError::UnknownBook { .. } => {
                StatusCode::NOT_FOUND
            }
            ApiError::BookUnavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Busy | ApiError::HungUp => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Book { .. } | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: String,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    param: Option<&'a str>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.log();
        let status = self.status();
        let param = match &self {
            ApiError::BadParam { param, .. } => Some(*param),
            ApiError::UnknownBook { .. } | ApiError::BookUnavailable { .. } => Some("book"),
            _ => None,
        };
        let body = ErrorBody {
            error: self.to_string(),
            status: status.as_u16(),
            param,
        };
        (status, Json(body)).into_response()
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::Rejected {
            status: r.status(),
            reason: r.body_text(),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::Rejected {
            status: r.status(),
            reason: r.body_text(),
        }
    }
}

impl From<ReviewError> for ApiError {
    fn from(e: ReviewError) -> ApiError {
        if matches!(e, ReviewError::Stopped { .. }) {
            ApiError::HungUp
        } else if e.is_bad_input() {
            ApiError::bad("moves", e.to_string())
        } else {
            ApiError::Internal(e.to_string())
        }
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        ApiError::bad(e.param(), e.reason())
    }
}
