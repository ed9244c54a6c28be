//! Headless Chromium driven by chromedriver (both from Debian; `.ci/run` installs them) for
//! the page's tests: a driver on a free port, a browser session with the WebDriver commands
//! the tests use (find, click, type, run a script, wait, screenshot).

use super::web::{base64_decode, request};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// WebDriver's key for an element in JSON answers.
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver on a free port; killed when dropped.
pub struct Driver {
    child: Child,
    pub addr: SocketAddr,
}

impl Driver {
    /// chromedriver started; `None` (the test skipped) if it or Chromium is not installed.
    pub fn start() -> Option<Driver> {
        super::tool(CHROMIUM, "chromium")?;
        super::tool(CHROMEDRIVER, "chromium-driver")?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let d = Driver { child, addr };
        super::poll(super::HANG, Duration::from_millis(50), || {
            std::net::TcpStream::connect(addr).ok()
        })
        .expect("chromedriver does not start");
        Some(d)
    }

    /// A WebDriver command: its `value`, which must not be an error.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let (status, answer) = request(self.addr, method, path, text.as_deref().map(str::as_bytes));
        let v: Value =
            serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{path}: {e}: {answer}"));
        assert_eq!(status, 200, "{method} {path}: {answer}");
        v["value"].clone()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session.
pub struct Session<'a> {
    driver: &'a Driver,
    id: String,
    /// Chromium's profile folder, removed after the session (and with it the browser) ends.
    _profile: tempfile::TempDir,
}

impl Session<'_> {
    pub fn new(driver: &Driver) -> Session<'_> {
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}
        }}});
        let v = driver.call("POST", "/session", Some(caps));
        Session {
            driver,
            id: v["sessionId"].as_str().unwrap().to_string(),
            _profile: profile,
        }
    }

    pub fn cmd(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        self.driver
            .call(method, &format!("/session/{}/{what}", self.id), body)
    }

    pub fn script(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    pub fn element(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {v}"))
            .to_string()
    }

    pub fn click(&self, css: &str) {
        let e = self.element(css);
        self.cmd("POST", &format!("element/{e}/click"), Some(json!({})));
    }

    pub fn keys(&self, css: &str, text: &str) {
        let e = self.element(css);
        self.cmd(
            "POST",
            &format!("element/{e}/value"),
            Some(json!({"text": text})),
        );
    }

    /// Waits until the move table shows `line`.
    pub fn wait_for_line(&self, line: &str) {
        let mut v = Value::Null;
        super::poll(super::HANG, Duration::from_millis(25), || {
            v = self.script("const t = document.getElementById('moves'); return t.dataset.line === undefined ? null : t.dataset.line;");
            (v.as_str() == Some(line)).then_some(())
        })
        .unwrap_or_else(|| panic!("the table never showed {line:?} (shows {v})"));
    }

    /// Waits until the expression `js` gives `want`.
    pub fn wait_for(&self, js: &str, want: &str) {
        let mut v = Value::Null;
        super::poll(super::HANG, Duration::from_millis(25), || {
            v = self.script(&format!("return String({js});"));
            (v.as_str() == Some(want)).then_some(())
        })
        .unwrap_or_else(|| panic!("{js} never gave {want:?} (gives {v})"));
    }

    /// The page of the server at `addr`, opened at the start with the play panel on and the
    /// engine at depth 1.
    pub fn start_playing(&self, addr: std::net::SocketAddr) {
        self.open(&format!("http://{addr}/"));
        self.wait_for_line("");
        self.wait_for(
            "document.getElementById('play-strength').options.length > 0",
            "true",
        );
        self.click("#play-on");
        self.script("const e = document.getElementById('play-strength'); e.value = 'depth:1';");
    }

    /// Loads `url` in the window.
    pub fn open(&self, url: &str) {
        self.cmd("POST", "url", Some(json!({ "url": url })));
    }

    /// Turns the window into a 390-px phone's, which must have no sideways scrolling.
    pub fn phone(&self) {
        self.cmd(
            "POST",
            "window/rect",
            Some(json!({"width": 390, "height": 844})),
        );
        let overflow =
            self.script("return document.documentElement.scrollWidth > window.innerWidth;");
        assert_eq!(overflow, json!(false), "no sideways scrolling on a phone");
    }

    pub fn screenshot(&self, path: &Path) {
        let png = base64_decode(self.cmd("GET", "screenshot", None).as_str().unwrap());
        assert_eq!(&png[..4], b"\x89PNG");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = request(
            self.driver.addr,
            "DELETE",
            &format!("/session/{}", self.id),
            None,
        );
    }
}
