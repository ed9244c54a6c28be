//! A build in bounded memory: games are held as long as their build in memory, pruned,
//! fits the budget (input that fits is built at once); beyond, they are built unpruned, as
//! many at a time as that fits, and written as runs to the temporary folder; at the end the
//! runs are merged into the output, pruned. At `--min-games` 2 or more, the games beyond the
//! budget are first counted (their positions' hashes, [`Seen`]) and kept on disk
//! ([`Spool`]); the runs are built from them at the end, without the positions seen once.

use super::control::{Control, Step};
use super::folder::TempFolder;
use super::input::Input;
use super::levels::merge_levels;
use super::merge::join;
use super::seen::Seen;
use super::spool::{Spool, SpoolReader};
use super::written::Written;
use crate::book::build::{build, build_kept, BuildReport, Keep};
use crate::book::format::write_plain;
use crate::book::options::{BuildOptions, MinGames};
use crate::book::BookError;
use crate::transcript::GameRecord;
use std::path::{Path, PathBuf};
use std::sync::mpsc::SyncSender;

/// Bytes a build in memory holds per ply of a game, whatever it keeps: the ply's record
/// (24 bytes, with the slack of the vectors it is sorted in) and its line's byte.
const PER_PLY_READ: u64 = 32;

/// Bytes a build in memory holds per position it keeps: the position, its moves and line
/// nodes, and their share of the bytes written (with [`PER_PLY_READ`], 300 bytes per ply
/// measured for random games built unpruned, nearly every position unique).
const PER_KEPT: u64 = 268;

/// Bytes a build at `min_games` holds per ply: a position is kept only when `min_games`
/// plies reach it, so at most one ply in `min_games` makes one.
fn per_ply(min_games: u32) -> u64 {
    PER_PLY_READ + PER_KEPT / u64::from(min_games.max(1))
}

/// A build that holds about `memory` bytes of games and tables at a time (see the module).
pub struct ExternalBuild<'a> {
    options: BuildOptions,
    created: u64,
    memory: u64,
    pending: Vec<GameRecord>,
    /// Bytes of the records of `pending`, and their plies to be built.
    held: u64,
    plies: u64,
    runs: Vec<PathBuf>,
    run_games: u64,
    /// At `--min-games` 2 or more, once the games outgrow the budget: the positions seen
    /// so far, and the games, kept on disk until every position has been counted.
    counting: Option<(Seen, Spool)>,
    report: BuildReport,
    folder: TempFolder,
    control: Control<'a>,
}

/// The bytes of `g`'s record, and the plies of it a build `plies` deep replays.
fn footprint(g: &GameRecord, plies: usize) -> (u64, u64) {
    let names = [&g.black, &g.white, &g.event, &g.place, &g.date]
        .iter()
        .map(|n| n.as_ref().map_or(0, String::len))
        .sum::<usize>();
    let record = std::mem::size_of::<GameRecord>()
        + g.moves.capacity() * std::mem::size_of::<crate::board::Move>()
        + names;
    (record as u64, (g.moves.len().min(plies) + 1) as u64)
}

impl<'a> ExternalBuild<'a> {
    /// A build of `options` dated `created` (as [`build`]) into `output`
    /// within about `memory` bytes. Temporary folders that killed builds of `output` left
    /// behind are removed now.
    pub fn new(
        options: &BuildOptions,
        created: u64,
        memory: u64,
        output: &Path,
        control: Control<'a>,
    ) -> Result<Self, BookError> {
        super::stages::start();
        Ok(ExternalBuild {
            options: options.clone(),
            created,
            memory,
            pending: Vec::new(),
            held: 0,
            plies: 0,
            runs: Vec::new(),
            run_games: 0,
            counting: None,
            report: BuildReport::default(),
            folder: TempFolder::beside(output),
            control,
        })
    }

    /// Adds games; writes a run when the budget is reached.
    pub fn push(&mut self, games: Vec<GameRecord>) -> Result<(), BookError> {
        self.control.check()?;
        if self.counting.is_some() {
            return self.count(games);
        }
        let plies = usize::from(self.options.plies());
        let mut games = games.into_iter();
        while let Some(g) = games.next() {
            self.tally(&g);
            let (record, replayed) = footprint(&g, plies);
            // Until the first run, the games held may still all be built at once, pruned:
            // they are held as long as that build fits.
            let min = if self.runs.is_empty() {
                self.options.min_games()
            } else {
                1
            };
            let after = self.held + record + (self.plies + replayed) * per_ply(min);
            if after > self.memory && !self.pending.is_empty() {
                if self.options.min_games() >= 2 {
                    // Every position must be counted before any run is written.
                    let held = std::mem::take(&mut self.pending);
                    self.held = 0;
                    self.plies = 0;
                    self.counting = Some((
                        Seen::new(self.memory / 2),
                        Spool::create(self.folder.path()?)?,
                    ));
                    self.count_games(held)?;
                    self.count_games(vec![g])?;
                    return self.count(games.collect());
                }
                self.spill()?;
            }
            self.held += record;
            self.plies += replayed;
            self.pending.push(g);
        }
        Ok(())
    }

    /// Counts `g` in the report.
    fn tally(&mut self, g: &GameRecord) {
        self.report.games_read += 1;
        if !self.used(g) {
            if g.start == crate::board::Position::START {
                self.report.filtered_out += 1;
            } else {
                self.report.other_start += 1;
            }
        } else {
            self.report.games_used += 1;
        }
    }

    fn used(&self, g: &GameRecord) -> bool {
        uses(&self.options, g)
    }

    /// Counts the positions of `games` and keeps them on disk (at `--min-games` 2 or more,
    /// once the games outgrew the budget).
    fn count(&mut self, games: Vec<GameRecord>) -> Result<(), BookError> {
        games.iter().for_each(|g| self.tally(g));
        self.count_games(games)
    }

    fn count_games(&mut self, games: Vec<GameRecord>) -> Result<(), BookError> {
        use rayon::prelude::*;
        let Some((seen, spool)) = &mut self.counting else {
            return Ok(());
        };
        let plies = usize::from(self.options.plies());
        let options = &self.options;
        let seen = &*seen;
        // The games are written to disk, one after the other, while the other workers count
        // their positions.
        let ((), written) = rayon::join(
            || {
                games.par_iter().filter(|g| uses(options, g)).for_each(|g| {
                    let mut hashes = [0u64; MAX_POSITIONS];
                    let mut n = 0;
                    position_hashes(g, plies, |h| {
                        hashes[n] = h;
                        n += 1;
                    });
                    seen.add_all(&hashes[..n]);
                });
            },
            || games.iter().try_for_each(|g| spool.put(g)),
        );
        written?;
        let games = spool.games();
        (self.control.progress)(Step::Counted { games });
        self.control.check()
    }

    /// What happened to the games pushed so far.
    #[must_use]
    pub fn report(&self) -> &BuildReport {
        &self.report
    }

    /// Builds the games held, unpruned, and writes them as runs of about equal size, each
    /// within the budget built unpruned (more than one run when they were held for a
    /// pruned build).
    fn spill(&mut self) -> Result<(), BookError> {
        let mut games = std::mem::take(&mut self.pending);
        self.held = 0;
        self.plies = 0;
        let plies = usize::from(self.options.plies());
        let unpruned = |g: &GameRecord| {
            let (record, replayed) = footprint(g, plies);
            record + replayed * per_ply(1)
        };
        // Runs of about equal size, each within the budget.
        let total: u64 = games.iter().map(unpruned).sum();
        let each = total.div_ceil(total.div_ceil(self.memory.max(1)).max(1));
        while !games.is_empty() {
            let mut bytes = 0u64;
            let take = games
                .iter()
                .take_while(|g| {
                    bytes += unpruned(g);
                    bytes <= each
                })
                .count()
                .max(1);
            let run: Vec<GameRecord> = games.drain(..take).collect();
            self.spill_run(&run, &|_| true)?;
        }
        Ok(())
    }

    /// Builds the games kept on disk, a run at a time within the budget, leaving out the
    /// positions seen once. Three things overlap: a thread decodes the next run's games
    /// while this one builds a run (on the worker threads) and another thread writes the
    /// run built before (one run at a time is written, so at most two runs' tables are
    /// held).
    fn spill_counted(&mut self) -> Result<(), BookError> {
        let Some((mut seen, mut spool)) = self.counting.take() else {
            return Ok(());
        };
        seen.seal();
        let budget = self.memory.saturating_sub(seen.bytes()).max(1);
        let plies = usize::from(self.options.plies());
        let games = spool.reader()?;
        let keep = |h: u64| seen.again(h);
        let exact = self.options.with_min_games(MinGames::ONE);
        std::thread::scope(|scope| -> Result<(), BookError> {
            let (runs, decoded) = std::sync::mpsc::sync_channel(1);
            let decoder = scope.spawn(move || decode_runs(games, budget, plies, &runs));
            let mut writing: Option<std::thread::ScopedJoinHandle<'_, _>> = None;
            let built = (|| {
                for run in decoded {
                    let run = run?;
                    let (data, report) = build_kept(&run, &exact, self.created, &|_| {}, &keep)?;
                    drop(run);
                    if let Some(w) = writing.take() {
                        join(w)?;
                    }
                    let path = self.run_path()?;
                    writing = Some(scope.spawn(move || {
                        write_plain(&path, &data)
                            .map(drop)
                            .map_err(|e| super::temp::spill_error(&path, "a run of games", e))
                    }));
                    self.run_written(report.games_read)?;
                }
                Ok(())
            })();
            // The decoder ends when the channel closes (a failure here drops it).
            join(decoder);
            let written = writing.map_or(Ok(()), join);
            built.and(written)
        })
    }

    /// The path of the next run, counted among the runs.
    fn run_path(&mut self) -> Result<PathBuf, BookError> {
        let path = self
            .folder
            .path()?
            .join(format!("run-{}.book", self.runs.len()));
        self.runs.push(path.clone());
        Ok(path)
    }

    /// Reports a run of `games` games written (or being written).
    fn run_written(&mut self, games: u64) -> Result<(), BookError> {
        self.run_games += games;
        (self.control.progress)(Step::Spilled {
            runs: self.runs.len(),
            games: self.run_games,
        });
        self.control.check()
    }

    /// Builds `games`, unpruned but for the positions `keep` rejects, and writes them as
    /// one run.
    fn spill_run(&mut self, games: &[GameRecord], keep: Keep<'_>) -> Result<(), BookError> {
        let exact = self.options.with_min_games(MinGames::ONE);
        let (data, report) = build_kept(games, &exact, self.created, &|_| {}, keep)?;
        let path = self.run_path()?;
        write_plain(&path, &data)
            .map_err(|e| super::temp::spill_error(&path, "a run of games", e))?;
        self.run_written(report.games_read)
    }

    /// Writes the book to `output`: built at once if every game was held, else merged
    /// from the runs. The temporary folder is removed whatever happens.
    pub fn finish(mut self, output: &Path) -> Result<(Written, BuildReport), BookError> {
        super::stages::end("read and count");
        self.spill_counted()?;
        if self.runs.is_empty() {
            let (data, _) = build(&self.pending, &self.options, self.created, &|_| {})?;
            self.pending = Vec::new();
            let bytes = crate::book::write_book(output, &data)?;
            super::stages::end("build in memory and write");
            let written = Written::of(&data, bytes);
            return Ok((written, std::mem::take(&mut self.report)));
        }
        if !self.pending.is_empty() {
            self.spill()?;
        }
        super::stages::end("runs");
        let runs = std::mem::take(&mut self.runs);
        let mut inputs = Vec::with_capacity(runs.len());
        for r in &runs {
            inputs.push((Input::open(r, false)?, true));
        }
        let mut written = merge_levels(
            inputs,
            self.options.pruning(),
            self.memory,
            output,
            &mut self.folder,
            &self.control,
        )?;
        written.runs = runs.len();
        Ok((written, std::mem::take(&mut self.report)))
    }
}

/// Reads the games of `games` and sends them to `runs` a run at a time, each within
/// `budget` bytes built unpruned (a game alone may exceed it), until the last or until the
/// receiver is gone.
fn decode_runs(
    mut games: SpoolReader,
    budget: u64,
    plies: usize,
    runs: &SyncSender<Result<Vec<GameRecord>, BookError>>,
) {
    let mut run = Vec::new();
    let mut bytes = 0u64;
    loop {
        let g = match games.next() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(e) => {
                let _ = runs.send(Err(e));
                return;
            }
        };
        let (record, replayed) = footprint(&g, plies);
        let size = record + replayed * per_ply(1);
        if bytes + size > budget && !run.is_empty() {
            if runs.send(Ok(std::mem::take(&mut run))).is_err() {
                return;
            }
            bytes = 0;
        }
        bytes += size;
        run.push(g);
    }
    if !run.is_empty() {
        let _ = runs.send(Ok(run));
    }
}

/// Whether a build of `options` uses `g`: from the start, and passing the filter.
fn uses(options: &BuildOptions, g: &GameRecord) -> bool {
    g.start == crate::board::Position::START && options.filter().accepts(g)
}

/// Most positions a build counts in one game: the start and one a ply.
const MAX_POSITIONS: usize = crate::book::options::MAX_PLIES as usize + 1;

/// Calls `f` with the stable hash of each canonical position of `g` a build `plies` deep
/// counts (as the build replays it; an illegal move ends it, the build reports it).
fn position_hashes(g: &GameRecord, plies: usize, mut f: impl FnMut(u64)) {
    let mut board = crate::board::Board::START;
    for i in 0..=g.moves.len().min(plies) {
        f(crate::book::key::stable_hash(
            crate::book::key::Canonical::of(&board).key,
        ));
        match g.moves.get(i).map(|&m| board.play_move(m)) {
            Some(Ok(b)) => board = b,
            _ => return,
        }
    }
}
