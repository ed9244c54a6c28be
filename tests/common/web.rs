//! Helpers for the web server's tests: the server started in the test on a free loopback
//! port, a minimal HTTP/1.1 client over `TcpStream` (the API, and chromedriver's WebDriver
//! API), JSON and base64 decoding.

use othbook::book::Book;
use othbook::serve::{self, AppState, ServeOptions};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// The project's book, which the tests query (it is part of the repository).
pub const BOOK: &str = "books/wthor.book";

/// A server running on its own thread; stopped (gracefully) when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Serves `BOOK` with `options` on 127.0.0.1 at a free port.
    pub fn start(options: ServeOptions) -> TestServer {
        let book = Book::open_lazy(BOOK).expect("books/wthor.book opens");
        TestServer::start_state(AppState::new(book, "wthor.book".into(), options).unwrap())
    }

    /// Serves `state` on 127.0.0.1 at a free port.
    pub fn start_state(state: AppState) -> TestServer {
        let state = Arc::new(state);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready_tx, ready) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                ready_tx.send(listener.local_addr().unwrap()).unwrap();
                serve::serve(listener, state, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            });
            // A search that never stops (the bug a test looks for) must not hang the test
            // when the server is dropped: the runtime waits for it a while, then leaves it.
            rt.shutdown_timeout(Duration::from_secs(5));
        });
        let addr = ready.recv_timeout(super::HANG).expect("server starts");
        TestServer {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// `GET path`: status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        request(self.addr, "GET", path, None)
    }

    /// `GET path`, which must answer 200 with JSON.
    pub fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }

    /// `GET path`, which must fail with `status` and a JSON error; the error body.
    pub fn error(&self, path: &str, status: u16) -> Value {
        let (got, body) = self.get(path);
        assert_eq!(got, status, "GET {path}: {body}");
        let v: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"));
        assert!(v["error"].is_string(), "GET {path}: {body}");
        v
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Sends one request (`Connection: close`) and returns the connection without reading the
/// answer: dropping it hangs up on the server.
pub fn send_only(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = body.unwrap_or(b"");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before it reads a large body, and close: not an error here.
    let _ = s.write_all(body);
    s
}

/// Waits until `check` holds, at most `limit`; panics with `what` after it.
pub fn wait_until(limit: Duration, what: &str, mut check: impl FnMut() -> bool) {
    super::poll(limit, Duration::from_millis(20), || check().then_some(()))
        .unwrap_or_else(|| panic!("{what}: not within {limit:?}"));
}

/// One HTTP/1.1 request (`Connection: close`): status and body.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
    let (status, bytes) = request_bytes(addr, method, path, body);
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// [`request`] with the body as bytes.
pub fn request_bytes(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> (u16, Vec<u8>) {
    let mut s = send_only(addr, method, path, body);
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    // Read the head, then exactly the body it announces: a server may keep the connection.
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    let end = loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "no HTTP head in {:?}", String::from_utf8_lossy(&raw));
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map(|n| n.trim().parse::<usize>().unwrap());
    let chunked = head.contains("transfer-encoding: chunked");
    let mut body = raw[end + 4..].to_vec();
    loop {
        let done = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = s.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    if chunked {
        body = dechunk(&body);
    }
    (status, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(String::from_utf8_lossy(&b[..line]).trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[line + 2..line + 2 + size]);
        b = &b[line + 4 + size..];
    }
}

/// Standard base64 (WebDriver screenshots).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= u32::from(value(*c)) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// Sends `bytes` as they are and reads until the server closes (at most `limit`): the
/// status (`None`: closed without an answer) and the body after the head.
pub fn raw(addr: SocketAddr, bytes: &[u8], limit: Duration) -> (Option<u16>, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(limit)).unwrap();
    // The server may answer and close before it has read everything: not an error here.
    let _ = s.write_all(bytes);
    let mut got = Vec::new();
    if let Err(e) = s.read_to_end(&mut got) {
        let gone = matches!(
            e.kind(),
            std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
        );
        assert!(gone, "no answer and no close within {limit:?}: {e}");
    }
    let text = String::from_utf8_lossy(&got).into_owned();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok());
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// `othbook serve --book BOOK --addr LISTEN`, up and answering: the process, the port it
/// listens on, and what it printed after the line with its URL.
pub fn serve_book_process(
    book: &str,
    listen: &str,
) -> (
    std::process::Child,
    std::net::SocketAddr,
    std::io::BufReader<std::process::ChildStdout>,
) {
    use std::io::BufRead;
    let mut child = super::othbook_process()
        .args(["serve", "--book", book, "--addr", listen])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("{line}"));
    let port: u16 = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    assert_eq!(request(addr, "GET", "/api/v1/info", None).0, 200);
    (child, addr, out)
}

/// Stops `child` as Ctrl-C does; it must exit cleanly. Its stdout after the URL, and stderr.
pub fn interrupt(
    mut child: std::process::Child,
    mut out: std::io::BufReader<std::process::ChildStdout>,
) -> (String, String) {
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let mut err = String::new();
    // Not there when a [`StderrLog`] reads it.
    if let Some(mut stderr) = child.stderr.take() {
        std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
    }
    (rest, err)
}

/// What a child process writes on stderr, read as it comes by a thread.
pub struct StderrLog(std::sync::Arc<std::sync::Mutex<String>>);

impl StderrLog {
    /// Takes `child`'s (piped) stderr.
    pub fn take(child: &mut std::process::Child) -> StderrLog {
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let shared = text.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut stderr, &mut buf) {
                if n == 0 {
                    break;
                }
                let chunk = String::from_utf8_lossy(&buf[..n]).into_owned();
                shared.lock().unwrap().push_str(&chunk);
            }
        });
        StderrLog(text)
    }

    /// Everything written so far.
    pub fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    /// Lines written so far that contain `part`.
    pub fn count(&self, part: &str) -> usize {
        self.text().lines().filter(|l| l.contains(part)).count()
    }
}

/// Kills the process `0` (SIGKILL) when dropped during a panic: a failed test leaves no
/// server behind.
pub struct KillOnPanic(pub u32);

impl Drop for KillOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &self.0.to_string()])
                .status();
        }
    }
}

/// A small book (3 games) built in `dir` as `small.book`.
pub fn small_book(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("small.book");
    super::othbook()
        .args(["build", &super::fix("WTH_2001.wtb"), "-o"])
        .arg(&path)
        .args(["--plies", "20", "--min-games", "1"])
        .assert()
        .success();
    path
}
