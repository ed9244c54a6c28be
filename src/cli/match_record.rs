//! The games of a running `othbook match`, kept as they end: its CSV and saved-games files are
//! rewritten whole and atomically at checkpoints and at the end, so a long match that is
//! stopped or killed keeps the games it played, and no reader ever sees half a file.

use super::output_path::Claimed;
use anyhow::{Context, Result};
use othbook::play::arena::{csv_row, records, MatchGame, CSV_HEADER};
use othbook::transcript::{Format, GameRecord};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the files are rewritten while games are being played.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(30);
/// How often a progress line is printed when standard error is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// The output files of a match and the games they hold so far.
pub struct Recorder {
    csv: Option<Claimed>,
    save: Option<(Claimed, Format)>,
    /// Round-robin CSV lines start with the per-move limit.
    limit_column: bool,
    tty: bool,
    state: Mutex<State>,
}

/// One match of a round robin (or the only one), as its games are labelled.
#[derive(Clone)]
pub struct Pairing {
    /// Shown in the progress line.
    pub label: String,
    /// Games in this match.
    pub total: usize,
    /// Player A's and B's names, for the CSV and the saved games.
    pub a: String,
    pub b: String,
    /// The round robin's per-move limit (seconds), the CSV's first column.
    pub limit: Option<f64>,
}

struct State {
    /// Keyed by (match number, game index), so files list the games in playing order.
    rows: BTreeMap<(usize, usize), String>,
    games: BTreeMap<(usize, usize), GameRecord>,
    pairing: Option<(usize, Pairing)>,
    last_checkpoint: Instant,
    last_log: Instant,
    /// A progress line without its newline is on the terminal.
    open_line: bool,
    /// The first failed checkpoint; the match goes on and the end tries again.
    error: Option<String>,
}

impl Recorder {
    /// Checks the output names and creates the CSV at once (with its header), so that a
    /// file that cannot be written is reported before any game is played. The files are held
    /// (locked against other writers) until the recorder is dropped.
    pub fn new(
        csv: Option<Claimed>,
        save: Option<Claimed>,
        limit_column: bool,
    ) -> Result<Recorder> {
        let save = match save {
            Some(p) => {
                let format = save_format(p.path())?;
                Some((p, format))
            }
            None => None,
        };
        let recorder = Recorder {
            csv,
            save,
            limit_column,
            tty: std::io::stderr().is_terminal(),
            state: Mutex::new(State {
                rows: BTreeMap::new(),
                games: BTreeMap::new(),
                pairing: None,
                last_checkpoint: Instant::now(),
                last_log: Instant::now(),
                open_line: false,
                error: None,
            }),
        };
        if let Some(p) = &recorder.csv {
            recorder
                .write_csv(&BTreeMap::new())
                .with_context(|| format!("cannot create {}", p.path().display()))?;
        }
        Ok(recorder)
    }

    /// Starts the next match; the games reported from now on belong to it.
    pub fn begin(&self, pairing: Pairing) {
        let mut st = self.lock();
        let n = st.pairing.as_ref().map_or(0, |(n, _)| n + 1);
        st.pairing = Some((n, pairing));
    }

    /// Takes one ended game (called from the match's threads) and `done`, the games of the
    /// current match ended so far; prints progress and writes a checkpoint when one is due.
    pub fn game(&self, g: &MatchGame, done: usize) {
        let mut st = self.lock();
        let Some((n, p)) = st.pairing.clone() else {
            return;
        };
        let key = (n, g.index);
        if self.csv.is_some() {
            let row = csv_row(g, &p.a, &p.b);
            let row = match p.limit.filter(|_| self.limit_column) {
                Some(l) => format!("{l},{row}"),
                None => row,
            };
            st.rows.insert(key, row);
        }
        if self.save.is_some() {
            let rec = records(std::slice::from_ref(g), &p.a, &p.b, "match");
            st.games.extend(rec.into_iter().map(|r| (key, r)));
        }
        if self.tty {
            eprint!("\r{}: game {done}/{}   ", p.label, p.total);
            st.open_line = done < p.total;
            if !st.open_line {
                eprintln!();
            }
        } else if st.last_log.elapsed() >= LOG_EVERY {
            eprintln!("{}: game {done}/{}", p.label, p.total);
            st.last_log = Instant::now();
        }
        if st.last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
            if let Err(e) = self.write_all(&st) {
                st.error.get_or_insert_with(|| format!("{e:#}"));
            }
            st.last_checkpoint = Instant::now();
        }
    }

    /// Writes both files with every game taken; an earlier checkpoint's failure is reported
    /// only if this last write fails too.
    pub fn finish(&self) -> Result<()> {
        let mut st = self.lock();
        if std::mem::take(&mut st.open_line) {
            eprintln!();
        }
        self.write_all(&st).map_err(|e| match &st.error {
            Some(first) => e.context(format!("(a checkpoint had failed too: {first})")),
            None => e,
        })
    }

    /// Where the games are kept, for messages: "FILE" or "FILE and FILE".
    pub fn files(&self) -> Option<String> {
        let names: Vec<String> = self
            .csv
            .iter()
            .chain(self.save.as_ref().map(|(p, _)| p))
            .map(|p| p.path().display().to_string())
            .collect();
        (!names.is_empty()).then(|| names.join(" and "))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn write_all(&self, st: &State) -> Result<()> {
        if let Some(p) = &self.csv {
            self.write_csv(&st.rows)
                .with_context(|| format!("cannot write {}", p.path().display()))?;
        }
        if let Some((path, format)) = &self.save {
            let path = path.path();
            let games: Vec<GameRecord> = st.games.values().cloned().collect();
            othbook::transcript::write::write_file(&games, *format, path)
                .with_context(|| format!("cannot save the games to {}", path.display()))?;
        }
        Ok(())
    }

    fn write_csv(&self, rows: &BTreeMap<(usize, usize), String>) -> std::io::Result<()> {
        let Some(path) = &self.csv else {
            return Ok(());
        };
        let path = path.path();
        let limit = if self.limit_column { "limit," } else { "" };
        othbook::atomic_file::replace(path, |f| {
            writeln!(f, "{limit}{CSV_HEADER}")?;
            for row in rows.values() {
                writeln!(f, "{row}")?;
            }
            Ok(())
        })
    }
}

fn save_format(path: &Path) -> Result<Format> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    match name.rsplit('.').next() {
        Some("gam") => Ok(Format::Gam),
        Some("ggf") => Ok(Format::Ggf),
        Some("pgn") => Ok(Format::Pgn),
        Some("txt") => Ok(Format::Moves),
        _ => Err(super::common::bad(format!(
            "--save {}: use a .gam, .ggf, .pgn or .txt file name",
            path.display()
        ))),
    }
}
