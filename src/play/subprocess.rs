//! An external engine's process, spoken to line by line (GTP and NBoard clients share it):
//! every wait has a time-out, and failures can quote the last lines the engine wrote.

use crate::play::{EngineFault, PlayerError};
use crate::wire::line::{read_line_lossy, WireLine};
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

/// The last lines an engine wrote on one stream, and whether the stream has ended.
#[derive(Default)]
struct Tail(VecDeque<String>, bool);

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
        tail.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
    });
}

impl Process {
    /// Starts `command` (split on white space; no shell).
    pub(crate) fn start(command: &str) -> Result<Process, EngineFault> {
        let start = |reason: String| EngineFault::Start { reason };
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| start("empty command".into()))?;
        let mut command = std::process::Command::new(resolve_program(program));
        command
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A process group of its own: Ctrl-C at the terminal reaches othbook, which finishes
        // the game under way with the engine, instead of killing the engine in mid-game.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| start(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(start("no stdin, stdout or stderr".into()));
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
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        if let Err(e) = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) {
            let status = self.exit_note();
            let line = line.to_string();
            return Err(if status.is_empty() {
                EngineFault::Send {
                    line,
                    reason: e.to_string(),
                }
            } else {
                EngineFault::ExitedBefore { line, status }
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
    pub(crate) fn last_output(&mut self) -> String {
        // An engine that has exited may have written its last words just before: they are
        // read to the end of the stream, for a moment at most (a child process of the engine
        // may hold the stream open).
        if !self.running() {
            let until = Instant::now() + QUIT_GRACE;
            while !self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner()).1
                && Instant::now() < until
            {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
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

/// An engine's process with what both clients keep about it: an engine that hangs, exits or
/// answers nonsense is out of order, its commands fail at once from then on (a late answer
/// would otherwise be read as the answer to the next command), and it is started again for
/// the next game. Dropping the link asks a working engine to quit and kills any other.
pub(crate) struct Link {
    /// The command line, as given.
    pub(crate) command: String,
    /// The line that asks the engine to quit.
    quit: &'static str,
    /// `None` when the last start failed.
    process: Option<Process>,
    /// Why the engine is out of order, if it is.
    broken: Option<String>,
}

impl Link {
    /// A link to `command`, not started yet.
    pub(crate) fn new(command: &str, quit: &'static str) -> Link {
        Link {
            command: command.to_string(),
            quit,
            process: None,
            broken: Some("not started".into()),
        }
    }

    /// An error about the engine.
    pub(crate) fn fail(&self, message: impl Into<String>) -> PlayerError {
        PlayerError::External {
            engine: self.command.clone(),
            message: message.into(),
        }
    }

    /// Marks the engine out of order for `fault`, which the error gives with the engine's
    /// last output.
    pub(crate) fn broke(&mut self, fault: EngineFault) -> PlayerError {
        let last_output = self
            .process
            .as_mut()
            .map_or_else(String::new, Process::last_output);
        self.broken = Some(format!("{fault}{last_output}"));
        PlayerError::Engine {
            engine: self.command.clone(),
            fault,
            last_output,
        }
    }

    /// (Re)starts the process, asking a working one to quit first.
    pub(crate) fn start(&mut self) -> Result<(), PlayerError> {
        if let Some(mut old) = self.process.take() {
            if self.broken.is_none() {
                old.quit(self.quit);
            }
        }
        match Process::start(&self.command) {
            Ok(p) => {
                self.process = Some(p);
                self.broken = None;
                Ok(())
            }
            Err(fault) => {
                self.process = None;
                Err(self.broke(fault))
            }
        }
    }

    /// The running process, or the error saying why `what` cannot be done.
    pub(crate) fn process(&mut self, what: &str) -> Result<&mut Process, PlayerError> {
        let since = match (&self.broken, &self.process) {
            (Some(why), _) => Some(why.clone()),
            (None, None) => Some("not running".to_string()),
            (None, Some(_)) => None,
        };
        if let Some(since) = since {
            return Err(PlayerError::Engine {
                engine: self.command.clone(),
                fault: EngineFault::OutOfOrder {
                    line: what.to_string(),
                    since,
                },
                last_output: String::new(),
            });
        }
        Ok(self.process.as_mut().expect("checked just above"))
    }

    /// Writes one line; a failure puts the engine out of order.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let sent = self.process(line)?.send(line);
        sent.map_err(|fault| self.broke(fault))
    }

    /// Why the engine must be started again before it can play (it is out of order, or its
    /// process has ended); `None` when it can play.
    pub(crate) fn restart_reason(&mut self) -> Option<String> {
        if let Some(why) = &self.broken {
            return Some(why.clone());
        }
        let running = self.process.as_mut().is_some_and(Process::running);
        (!running).then(|| "the process had exited".into())
    }

    /// The error of a restart that failed with `e`, saying why it was restarted.
    pub(crate) fn restart_failed(&self, e: &PlayerError, why: &str) -> PlayerError {
        // The engine's command is named once, around the whole message.
        let message = match e {
            PlayerError::External { message, .. } => message.clone(),
            PlayerError::Engine {
                fault, last_output, ..
            } => format!("{fault}{last_output}"),
            PlayerError::Book(b) => b.to_string(),
        };
        self.fail(format!(
            "restart failed: {message} (it was restarted after: {why})"
        ))
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // An out-of-order engine may not read its input: it is killed without asking.
        if let (Some(p), None) = (self.process.as_mut(), &self.broken) {
            p.quit(self.quit);
        }
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
