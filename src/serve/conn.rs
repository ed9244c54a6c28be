//! The server's connections: hyper reads each with a bound on the time a request's head may
//! take (a slow client, or one that keeps a connection open and idle, is dropped), a capped
//! number are open at once (more get a 503 and are closed), and the errors hyper
//! answers by itself (a bad request line, a URI or head too large) are given the API's JSON
//! body like every other failure.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// Longest time a request's head may take to arrive, counted from the connection's start
/// or the end of its previous answer (so an idle connection is closed after it too).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// Largest request head read (a longer URI is a 414, a longer head a 431).
pub const MAX_HEAD_BYTES: usize = 128 * 1024;

/// Serves `app` on `listener`, at most `max_connections` open at once, until `shutdown`
/// completes, then lets the requests under way finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    max_connections: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let open = Arc::new(Semaphore::new(max_connections));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // Shutdown first: its future (a signal handler, say) is then set up at the first
        // turn, before any connection is taken, and a stop is never passed over.
        let stream = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was accepted:
                // the listener is still good; a short pause lets descriptors come back.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = open.clone().try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let io = TokioIo::new(JsonErrors::new(stream));
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT)
                .max_buf_size(MAX_HEAD_BYTES);
            let conn = builder.serve_connection(io, service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
        });
    }
    let _ = stop_tx.send(true);
    // Every slot back: every connection has finished its request and closed.
    let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
    let _ = open.acquire_many(all).await;
    Ok(())
}

/// Answers a connection beyond the cap with a 503 (waiting at most a second for the client
/// to take it) and closes it.
async fn refuse(mut stream: TcpStream) {
    let answer = json_answer(
        503,
        "Service Unavailable",
        "the server has too many open connections: try again later",
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(&answer)).await;
}

/// A whole HTTP/1.1 answer with the API's JSON error body; the connection closes after it.
fn json_answer(status: u16, reason: &str, message: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message, "status": status }).to_string();
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The JSON answer that replaces `head` when it is one of hyper's own error answers: a
/// 4xx or 5xx head with an empty body (every answer of the application has a body).
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ")?;
    let status: u16 = rest.get(..3)?.parse().ok()?;
    let only_head = text
        .find("\r\n\r\n")
        .is_some_and(|end| end + 4 == text.len());
    let empty = text
        .to_ascii_lowercase()
        .contains("\r\ncontent-length: 0\r\n");
    if status < 400 || !only_head || !empty {
        return None;
    }
    let (reason, message) = match status {
        400 => ("Bad Request", "the request is not valid HTTP/1.1"),
        408 => ("Request Timeout", "the request did not arrive in time"),
        414 => ("URI Too Long", "the request's URI is too long"),
        431 => (
            "Request Header Fields Too Large",
            "the request's header fields are too large",
        ),
        505 => (
            "HTTP Version Not Supported",
            "this server speaks HTTP/1.1 (and 1.0) only",
        ),
        _ => ("Error", "the request cannot be answered"),
    };
    Some(json_answer(status, reason, message))
}

/// A connection whose written answers pass unchanged, except hyper's own error answers,
/// which get a JSON body ([`replacement`]).
struct JsonErrors<IO> {
    io: IO,
    /// Bytes of a replacement still to write.
    pending: Vec<u8>,
    /// Length of the answer it replaces, reported as written once it is.
    replaced: usize,
}

impl<IO> JsonErrors<IO> {
    fn new(io: IO) -> JsonErrors<IO> {
        JsonErrors {
            io,
            pending: Vec::new(),
            replaced: 0,
        }
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for JsonErrors<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for JsonErrors<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_empty() {
            match replacement(buf) {
                Some(answer) => {
                    this.pending = answer;
                    this.replaced = buf.len();
                }
                None => return Pin::new(&mut this.io).poll_write(cx, buf),
            }
        }
        while !this.pending.is_empty() {
            let n = ready!(Pin::new(&mut this.io).poll_write(cx, &this.pending))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            this.pending.drain(..n);
        }
        Poll::Ready(Ok(this.replaced))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_empty_error_answers_are_replaced() {
        let hyper_400 = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(replacement(hyper_400).unwrap()).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 400 Bad Request\r\n"),
            "{answer}"
        );
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["status"], 400);
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-length: 30\r\n\r\n";
        assert!(replacement(ours).is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement(ok).is_none());
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}";
        assert!(replacement(with_body).is_none());
    }
}
