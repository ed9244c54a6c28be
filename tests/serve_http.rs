//! The web server's HTTP layer under abuse: slow and idle connections are dropped after a
//! bounded time, open connections are capped, and the errors of the HTTP layer itself (a
//! bad request line, a URI or head too large, a wrong method or path) are JSON like every
//! other failure.

mod common;

use common::web::{raw, TestServer};
use othbook::serve::{ServeOptions, HEAD_TIMEOUT};
use serde_json::Value;
use std::time::Duration;

/// Far more than the server's head timeout: only a server that never drops fails it.
const GUARD: Duration = Duration::from_secs(60);

fn server(max_connections: usize) -> TestServer {
    let options = ServeOptions::new(12, 2, 1000).unwrap();
    TestServer::start(options.with_max_connections(max_connections))
}

/// `body` is the API's JSON error with `status`.
fn json_error(status: Option<u16>, body: &str, want: u16) {
    assert_eq!(status, Some(want), "{body}");
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    assert!(v["error"].is_string(), "{body}");
    assert_eq!(v["status"].as_u64(), Some(u64::from(want)), "{body}");
}

#[test]
fn regression_a_slowloris_client_was_never_dropped() {
    assert!(HEAD_TIMEOUT < GUARD / 2);
    let s = server(64);
    // Half a head, then nothing: the server must close the connection.
    let (_, body) = raw(s.addr, b"GET /api/v1/info HTTP/1.1\r\nHost: x\r\n", GUARD);
    assert!(!body.contains("othbook"), "{body}");
    // A connection that sends nothing at all.
    raw(s.addr, b"", GUARD);
    // A body that never comes: the review gives up on it.
    let head = b"POST /api/v1/review HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                 Content-Length: 100\r\n\r\n{\"mo";
    let (status, body) = raw(s.addr, head, GUARD);
    json_error(status, &body, 408);
}

#[test]
fn regression_an_idle_keep_alive_connection_was_never_closed() {
    let s = server(64);
    let request = b"GET /api/v1/info HTTP/1.1\r\nHost: x\r\n\r\n";
    let (status, body) = raw(s.addr, request, GUARD);
    assert_eq!(status, Some(200), "{body}");
}

#[test]
fn regression_http_layer_errors_were_not_json() {
    let s = server(64);
    let long_uri = format!(
        "GET /api/v1/info?{} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(70_000)
    );
    let big_head = format!(
        "GET /api/v1/info HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "b".repeat(500_000)
    );
    let cases: [(&[u8], u16); 6] = [
        (b"NONSENSE\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400),
        (long_uri.as_bytes(), 414),
        (big_head.as_bytes(), 431),
        (
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
            405,
        ),
        (
            b"GET /nothing/here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
        ),
    ];
    for (request, want) in cases {
        let (status, body) = raw(s.addr, request, GUARD);
        json_error(status, &body, want);
    }
}

#[test]
fn regression_thousands_of_open_connections_made_new_clients_wait() {
    let s = server(4);
    let held: Vec<_> = (0..4)
        .map(|_| std::net::TcpStream::connect(s.addr).unwrap())
        .collect();
    // The fifth gets a JSON 503 at once instead of waiting behind them.
    common::web::wait_until(GUARD, "the server took the four connections", || {
        let (status, _) = raw(s.addr, b"GET /api/v1/info HTTP/1.1\r\n\r\n", GUARD);
        status == Some(503)
    });
    let (status, body) = raw(s.addr, b"GET /api/v1/info HTTP/1.1\r\n\r\n", GUARD);
    json_error(status, &body, 503);
    drop(held);
    common::web::wait_until(GUARD, "a freed slot serves again", || {
        let request = b"GET /api/v1/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        raw(s.addr, request, GUARD).0 == Some(200)
    });
}
