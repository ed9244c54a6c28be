//! An external engine's process, spoken to line by line (GTP and NBoard clients share it):
//! every wait has a time-out, and failures can quote the last lines the engine wrote.

use crate::play::gtp_wire::{read_line_lossy, WireLine};
use crate::play::PlayerError;
use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a stopping engine gets to exit by itself before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// Lines of each stream kept for error messages.
const TAIL_LINES: usize = 4;

/// The last lines an engine wrote on one stream.
#[derive(Default)]
struct Tail(VecDeque<String>);

impl Tail {
    fn push(&mut self, line: &str) {
        if self.0.len() == TAIL_LINES {
            self.0.pop_front();
        }
        self.0.push_back(excerpt(line));
    }

    fn text(&self) -> String {
        self.0.iter().cloned().collect::<Vec<_>>().join(" | ")
    }
}

/// Why no line came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Silence {
    /// Nothing within the time allowed.
    Timeout,
    /// The engine closed its output (it exited).
    Closed,
}

/// The engine's process and the lines it has written.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stdout_tail: Arc<Mutex<Tail>>,
    stderr_tail: Arc<Mutex<Tail>>,
}

/// Reads `stream` line by line on a thread of its own, keeping the last lines in `tail` and
/// passing each to `each` until it returns false.
fn pump(
    stream: impl Read + Send + 'static,
    tail: Arc<Mutex<Tail>>,
    each: impl Fn(String) -> bool + Send + 'static,
) {
    std::thread::spawn(move || {
        let mut stream = BufReader::new(stream);
        let mut buf = Vec::new();
        while let Ok(Some(line)) = read_line_lossy(&mut stream, &mut buf) {
            // An engine's overlong line answers nothing we asked.
            let WireLine::Text(line) = line else {
                continue;
            };
            tail.lock().unwrap_or_else(|p| p.into_inner()).push(&line);
            if !each(line) {
                break;
            }
        }
    });
}

impl Process {
    /// Starts `command` (split on white space; no shell).
    pub(crate) fn start(command: &str) -> Result<Process, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("empty command")?;
        let mut child = std::process::Command::new(resolve_program(program))
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no stdin, stdout or stderr".into());
        };
        let (tx, rx) = mpsc::channel();
        let stdout_tail = Arc::new(Mutex::new(Tail::default()));
        let stderr_tail = Arc::new(Mutex::new(Tail::default()));
        // Reader threads let every wait have a timeout, so a hung engine cannot hang us, and
        // drain stderr so a chatty engine cannot block on it.
        pump(stdout, Arc::clone(&stdout_tail), move |l| {
            tx.send(l).is_ok()
        });
        pump(stderr, Arc::clone(&stderr_tail), |_| true);
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stdout_tail,
            stderr_tail,
        })
    }

    /// Writes one line; the error says whether the engine had exited.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), String> {
        if let Err(e) = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) {
            let note = self.exit_note();
            return Err(if note.is_empty() {
                format!("cannot send {line:?}: {e}")
            } else {
                format!("exited before {line:?}{note}")
            });
        }
        Ok(())
    }

    /// The next line the engine writes, waiting until `deadline`.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Result<String, Silence> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l.trim_end_matches('\r').to_string()),
            Err(RecvTimeoutError::Timeout) => Err(Silence::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Silence::Closed),
        }
    }

    /// How the process ended, waiting up to `grace` for it; `None` while it runs.
    fn exit_status(&mut self, grace: Duration) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// " (exit status: 3)" once the process has ended, so failures say how it died.
    pub(crate) fn exit_note(&mut self) -> String {
        self.exit_status(QUIT_GRACE)
            .map_or_else(String::new, |s| format!(" ({s})"))
    }

    /// Whether the process is still running.
    pub(crate) fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// "; last stderr: ...; last stdout: ..." with what the engine wrote last, or "".
    pub(crate) fn last_output(&self) -> String {
        let mut s = String::new();
        for (name, tail) in [("stderr", &self.stderr_tail), ("stdout", &self.stdout_tail)] {
            let text = tail.lock().unwrap_or_else(|p| p.into_inner()).text();
            if !text.is_empty() {
                s.push_str(&format!("; last {name}: {text}"));
            }
        }
        s
    }

    /// Asks the engine to quit with `line`; `Drop` kills it if it does not.
    pub(crate) fn quit(&mut self, line: &str) {
        if self.send(line).is_ok() {
            let _ = self.exit_status(QUIT_GRACE);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// `program` itself, or Debian's games folder copy when it is not on the PATH (where
/// `gtp-rhino` lives, and which is not on root's PATH).
fn resolve_program(program: &str) -> std::path::PathBuf {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()));
    let games = std::path::Path::new("/usr/games").join(program);
    if !program.contains('/') && !on_path && games.is_file() {
        games
    } else {
        std::path::PathBuf::from(program)
    }
}

/// `text` cut to a length that fits in an error message.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        format!("{text:?}")
    } else {
        format!("{:?}...", text.chars().take(MAX).collect::<String>())
    }
}

/// The message of a [`PlayerError`] without the engine's command (already named around it).
pub(crate) fn strip_engine(e: &PlayerError) -> String {
    match e {
        PlayerError::External { message, .. } => message.clone(),
        PlayerError::Book(b) => b.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_lines_cut_short() {
        let mut t = Tail::default();
        for l in ["a", "b", "c", "d", "e"] {
            t.push(l);
        }
        assert_eq!(t.text(), r#""b" | "c" | "d" | "e""#);
        t.push(&"x".repeat(100));
        assert!(t.text().ends_with("...") && t.text().len() < 100);
    }
}
