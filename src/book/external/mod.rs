//! Building and merging books in bounded memory. A build collects games until its memory
//! budget is reached, builds them in memory unpruned (a *run*) and writes that run as a
//! book to a temporary folder beside the output; the runs, like the books given to
//! `merge`, are then merged front to back, table by table, into the output (through more
//! temporary files, since the header ahead of the tables holds their sizes), the output with
//! the index of its games (`index`). Adding up is exact and order-independent, so the bytes
//! are those of the build in memory.

mod builder;
mod folder;
mod games;
mod index;
mod input;
mod positions;
mod seen;
mod spool;
mod trie;

pub use builder::{ExternalBuild, Written};
pub use folder::TempFolder;

use crate::book::data::{merge_sources, merged_options, NodeEntry, NO_PARENT, ROOT_CODE};
use crate::book::format::{
    bucket_bits_for, get_node, node_bytes, write_file, write_index, Header, NODE_SIZE, POS_SIZE,
};
use crate::book::key::{stable_hash, Key};
use crate::book::options::MinGames;
use crate::book::BookError;
use input::Input;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// What a long build or merge reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A run of games was written to the temporary folder (`runs` so far).
    Spilled {
        /// Runs written so far.
        runs: usize,
        /// Games in them.
        games: u64,
    },
    /// Games counted (their positions) and kept on disk for a second pass.
    Counted {
        /// Games so far.
        games: u64,
    },
    /// Merging: positions of the inputs merged so far, of `total`.
    Merge {
        /// Positions merged.
        done: u64,
        /// Positions in the inputs.
        total: u64,
    },
}

/// How a caller follows and stops a long build or merge.
pub struct Control<'a> {
    /// Set (by a signal handler) to stop: the run then ends with [`BookError::Stopped`].
    pub stop: &'a AtomicBool,
    /// Called as the work goes on.
    pub progress: &'a (dyn Fn(Step) + Sync),
}

impl Control<'_> {
    fn check(&self) -> Result<(), BookError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(BookError::Stopped)
        } else {
            Ok(())
        }
    }
}

/// A temporary file being written, errors named by its folder and contents.
pub(crate) struct TempFile {
    path: PathBuf,
    what: &'static str,
    out: Option<BufWriter<File>>,
}

impl TempFile {
    fn create(folder: &Path, name: &str, what: &'static str) -> Result<TempFile, BookError> {
        let path = folder.join(name);
        let file = File::create(&path).map_err(|e| spill_error(&path, what, e))?;
        Ok(TempFile {
            path,
            what,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), BookError> {
        if let Some(out) = &mut self.out {
            out.write_all(bytes)
                .map_err(|e| spill_error(&self.path, self.what, e))?;
        }
        Ok(())
    }

    /// The file, complete, opened for reading.
    fn reopen(&mut self) -> Result<File, BookError> {
        if let Some(out) = self.out.take() {
            out.into_inner()
                .map_err(|e| spill_error(&self.path, self.what, e.into_error()))?;
        }
        File::open(&self.path).map_err(|e| spill_error(&self.path, self.what, e))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

fn spill_error(path: &Path, what: &str, source: std::io::Error) -> BookError {
    BookError::Spill {
        folder: path
            .parent()
            .map_or_else(String::new, |p| p.display().to_string()),
        what: format!("writing {what} ({})", path.display()),
        source,
    }
}

/// Bytes of read buffer for each table of each input, for `inputs` books of `plies`
/// within `memory`.
fn buffer_size(memory: u64, inputs: usize, plies: u8) -> usize {
    let regions = (inputs.max(1) * (usize::from(plies) + 5)) as u64;
    (memory / 4 / regions).clamp(4 << 10, 1 << 20) as usize
}

/// Most books merged at once within `memory`: their read buffers take a quarter of it at
/// least 16 KiB each.
fn fan_in(memory: u64, plies: u8) -> usize {
    let per_input = (u64::from(plies) + 5) * (16 << 10);
    ((memory / 4 / per_input) as usize).clamp(2, 256)
}

/// Where a merge writes.
enum Target<'a> {
    /// The output book, replaced atomically.
    Output(&'a Path),
    /// A run in the temporary folder.
    Run(&'a Path),
}

/// Merges `inputs` (unpruned books of the same options, without values) into `target`,
/// pruned at `min_games`, using `folder` for its tables.
fn merge_inputs(
    inputs: &[Input],
    min_games: MinGames,
    memory: u64,
    folder: &Path,
    target: Target<'_>,
    control: &Control<'_>,
) -> Result<Written, BookError> {
    let options: Vec<_> = inputs.iter().map(|i| &i.header.options).collect();
    let merged = merged_options(&options, min_games)?;
    let plies = merged.plies();
    let buffer = buffer_size(memory, inputs.len(), plies);
    let mut pos_file = TempFile::create(folder, "positions.tmp", "the merged positions")?;
    let mut move_file = TempFile::create(folder, "moves.tmp", "the merged moves")?;
    let (positions, moves) = positions::merge(
        inputs,
        min_games.get(),
        buffer,
        &mut pos_file,
        &mut move_file,
        control,
    )?;
    let trie = trie::merge(
        inputs,
        usize::from(plies),
        min_games.get(),
        buffer,
        folder,
        control,
    )?;
    let mut games = games::merge(inputs, buffer, folder, control)?;
    // The output gets the index of its games; a run is only merged again.
    let index = match (&target, &mut games) {
        (Target::Output(_), Some(g)) => {
            let table = index::MergedPositions::read(&mut pos_file, positions as usize)?;
            let (records, moves) = (&mut g.records, &mut g.moves);
            let n = g.size.games;
            Some(index::MergedIndex::count(
                table,
                records,
                moves,
                n,
                memory,
                control.stop,
            )?)
        }
        _ => None,
    };
    let mut header = Header {
        created: inputs.iter().map(|i| i.header.created).max().unwrap_or(0),
        options: merged,
        games: 0,
        sources: Vec::new(),
        positions,
        moves,
        nodes: 0,
        levels: trie.levels(),
        bucket_bits: bucket_bits_for(positions as usize),
        evaluation: None,
        game_table: games.as_ref().map(|g| g.size),
        game_index: index.as_ref().map(index::MergedIndex::size),
    };
    header.nodes = *header.levels.last().unwrap_or(&1);
    for i in inputs {
        header.games = header
            .games
            .checked_add(i.header.games)
            .ok_or_else(|| BookError::Merge("game counts overflow".into()))?;
        header.sources = merge_sources(&header.sources, &i.header.sources);
    }
    let mut parts = Parts {
        positions: pos_file,
        moves: move_file,
        trie,
        games,
        index,
    };
    let bytes = match target {
        Target::Output(path) => {
            let mut failure = None;
            let result = crate::atomic_file::replace(path, |f| {
                write_file(f, &header, |w| parts.write(w, &header, control.stop)).map_err(|e| {
                    let e = match e {
                        BookError::Io { source, .. } => {
                            index::stopped(source).unwrap_or_else(|source| BookError::Io {
                                path: path.display().to_string(),
                                source,
                            })
                        }
                        e => e,
                    };
                    let text = e.to_string();
                    failure = Some(e);
                    std::io::Error::other(text)
                })
            });
            match (result, failure) {
                (Ok(n), _) => n,
                (Err(_), Some(e)) => return Err(e),
                (Err(e), None) => {
                    return Err(BookError::Io {
                        path: path.display().to_string(),
                        source: e,
                    })
                }
            }
        }
        Target::Run(path) => {
            let file = File::create(path).map_err(|e| spill_error(path, "a merged run", e))?;
            let mut w = BufWriter::with_capacity(1 << 16, file);
            let n = write_file(&mut w, &header, |out| {
                parts.write(out, &header, control.stop)
            })
            .map_err(|e| respill(e, path))?;
            w.into_inner()
                .map_err(|e| spill_error(path, "a merged run", e.into_error()))?;
            n
        }
    };
    Ok(Written {
        positions,
        moves,
        nodes: header.nodes,
        games: header.games,
        bytes,
        runs: 0,
    })
}

/// A write error of a run named as one.
fn respill(e: BookError, path: &Path) -> BookError {
    match e {
        BookError::Io { source, .. } => spill_error(path, "a merged run", source),
        e => e,
    }
}

/// The merged tables, in their temporary files, to be written after the header.
struct Parts {
    positions: TempFile,
    moves: TempFile,
    trie: trie::Trie,
    games: Option<games::Games>,
    index: Option<index::MergedIndex>,
}

/// Maps an error of our own making to an I/O error for the file writer.
fn to_io(e: BookError) -> std::io::Error {
    match e {
        BookError::Io { source, .. } => source,
        e => std::io::Error::other(e.to_string()),
    }
}

impl Parts {
    fn write(
        &mut self,
        w: &mut impl Write,
        header: &Header,
        stop: &AtomicBool,
    ) -> std::io::Result<()> {
        let mut positions = std::io::BufReader::new(self.positions.reopen().map_err(to_io)?);
        let hashes = std::iter::from_fn(|| {
            let mut rec = [0u8; POS_SIZE];
            match positions.read_exact(&mut rec) {
                Ok(()) => {
                    let key = Key {
                        player: u64::from_le_bytes(rec[0..8].try_into().unwrap_or_default()),
                        opponent: u64::from_le_bytes(rec[8..16].try_into().unwrap_or_default()),
                    };
                    Some(Ok(stable_hash(key)))
                }
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => None,
                Err(e) => Some(Err(e)),
            }
        });
        write_index(w, hashes, header.positions as usize, header.bucket_bits)?;
        std::io::copy(&mut self.positions.reopen().map_err(to_io)?, w)?;
        std::io::copy(&mut self.moves.reopen().map_err(to_io)?, w)?;
        self.write_nodes(w)?;
        if let Some(g) = &mut self.games {
            std::io::copy(&mut g.records.reopen().map_err(to_io)?, w)?;
            std::io::copy(&mut g.moves.reopen().map_err(to_io)?, w)?;
            let mut at = 0u32;
            w.write_all(&at.to_le_bytes())?;
            for n in &g.names {
                at += n.len() as u32;
                w.write_all(&at.to_le_bytes())?;
            }
            for n in &g.names {
                w.write_all(n.as_bytes())?;
            }
            if let Some(index) = &self.index {
                let names = g.names.len();
                index.write(&mut g.records, &mut g.moves, g.size.games, names, stop, w)?;
            }
        }
        Ok(())
    }

    /// The root, then each depth's nodes with their places made node numbers.
    fn write_nodes(&mut self, w: &mut impl Write) -> std::io::Result<()> {
        let t = &mut self.trie;
        let root = NodeEntry {
            parent: NO_PARENT,
            code: ROOT_CODE,
            stats: t.root,
            first_child: if t.kept[1] > 0 { 1 } else { 0 },
            child_count: t.kept[1] as u32,
        };
        w.write_all(&node_bytes(&root))?;
        let starts: Vec<u64> = (0..t.kept.len() + 1).map(|d| t.start_of(d)).collect();
        for d in 1..t.kept.len() - 1 {
            if t.kept[d] == 0 {
                break;
            }
            let mut r = std::io::BufReader::new(t.files[d - 1].reopen().map_err(to_io)?);
            let mut rec = [0u8; NODE_SIZE];
            for _ in 0..t.kept[d] {
                r.read_exact(&mut rec)?;
                let mut n = get_node(&rec);
                n.parent = (starts[d - 1] + u64::from(n.parent)) as u32;
                n.first_child = if n.child_count > 0 {
                    (starts[d + 1] + u64::from(n.first_child)) as u32
                } else {
                    0
                };
                w.write_all(&node_bytes(&n))?;
            }
        }
        Ok(())
    }
}

/// Merges `paths`, books whose counts add up (see [`merged_options`]), into `output`
/// within about `memory` bytes, pruned at `min_games`; `folder` takes the temporary files.
/// Each input is checked in full first. Books with values are merged in memory instead
/// (`BookData::merge`): the caller chooses.
pub fn merge_files(
    paths: &[PathBuf],
    min_games: MinGames,
    memory: u64,
    output: &Path,
    folder: &mut TempFolder,
    control: &Control<'_>,
) -> Result<Written, BookError> {
    let mut inputs = Vec::with_capacity(paths.len());
    for p in paths {
        inputs.push(Input::open(p, false)?);
    }
    let options: Vec<_> = inputs.iter().map(|i| &i.header.options).collect();
    merged_options(&options, min_games)?;
    if let Some(i) = inputs.iter().find(|i| i.header.evaluation.is_some()) {
        return Err(BookError::Merge(format!(
            "{} holds values: books with values are merged in memory",
            i.name
        )));
    }
    drop(inputs);
    let mut checked = Vec::with_capacity(paths.len());
    for p in paths {
        control.check()?;
        checked.push((Input::open(p, true)?, false));
    }
    merge_levels(checked, min_games, memory, output, folder, control)
}

/// Merges many books a few at a time (as many as `memory` allows), then the last few into
/// `output`. The books marked `true` are temporary: removed once merged into another.
fn merge_levels(
    mut inputs: Vec<(Input, bool)>,
    min_games: MinGames,
    memory: u64,
    output: &Path,
    folder: &mut TempFolder,
    control: &Control<'_>,
) -> Result<Written, BookError> {
    let plies = inputs.first().map_or(1, |i| i.0.header.options.plies());
    let fan = fan_in(memory, plies);
    let mut made = 0usize;
    while inputs.len() > fan {
        let mut next = Vec::new();
        let mut rest = inputs.into_iter().peekable();
        while rest.peek().is_some() {
            let (group, owned): (Vec<Input>, Vec<bool>) = rest.by_ref().take(fan).unzip();
            if group.len() == 1 {
                next.extend(group.into_iter().zip(owned));
                continue;
            }
            let dir = folder.path()?.to_path_buf();
            let path = dir.join(format!("merged-{made}.book"));
            made += 1;
            merge_inputs(
                &group,
                MinGames::ONE,
                memory,
                &dir,
                Target::Run(&path),
                control,
            )?;
            for (g, owned) in group.iter().zip(owned) {
                if owned {
                    let _ = std::fs::remove_file(&*g.name);
                }
            }
            drop(group);
            next.push((Input::open(&path, false)?, true));
        }
        inputs = next;
    }
    let dir = folder.path()?.to_path_buf();
    let inputs: Vec<Input> = inputs.into_iter().map(|(i, _)| i).collect();
    merge_inputs(
        &inputs,
        min_games,
        memory,
        &dir,
        Target::Output(output),
        control,
    )
}

#[cfg(test)]
mod tests;
