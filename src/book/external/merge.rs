//! One merge of a few books (or runs) into the output or into a larger run: the positions,
//! the line trie and the games merged table by table into temporary files, the header made
//! from their sizes, then all written after it.

use super::control::Control;
use super::input::Input;
use super::parts::Parts;
use super::temp::{spill_error, TempFile};
use super::written::Written;
use super::{games, index, positions, trie};
use crate::book::data::{merge_sources, merged_options};
use crate::book::format::{bucket_bits_for, write_file, Header};
use crate::book::options::MinGames;
use crate::book::BookError;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// Where a merge writes.
pub(super) enum Target<'a> {
    /// The output book, replaced atomically.
    Output(&'a Path),
    /// A run in the temporary folder.
    Run(&'a Path),
}

/// Bytes of read buffer for each table of each input, for `inputs` books of `plies`
/// within `memory`.
fn buffer_size(memory: u64, inputs: usize, plies: u8) -> usize {
    let regions = (inputs.max(1) * (usize::from(plies) + 5)) as u64;
    (memory / 4 / regions).clamp(4 << 10, 1 << 20) as usize
}

/// Merges `inputs` (unpruned books of the same options, without values) into `target`,
/// pruned at `min_games`, using `folder` for its tables. The inputs marked `true` are
/// temporary: closed and removed once their tables are merged (before the index of the
/// games is counted and the output written), so that their disk is free again.
pub(super) fn merge_inputs(
    inputs: Vec<(Input, bool)>,
    min_games: MinGames,
    memory: u64,
    folder: &Path,
    target: Target<'_>,
    control: &Control<'_>,
) -> Result<Written, BookError> {
    let (inputs, owned): (Vec<Input>, Vec<bool>) = inputs.into_iter().unzip();
    let options: Vec<_> = inputs.iter().map(|i| &i.header.options).collect();
    let merged = merged_options(&options, min_games)?;
    let plies = merged.plies();
    let buffer = buffer_size(memory, inputs.len(), plies);
    let mut pos_file = TempFile::create(folder, "positions.tmp", "the merged positions")?;
    let mut move_file = TempFile::create(folder, "moves.tmp", "the merged moves")?;
    let tables = Tables {
        inputs: &inputs,
        min_games: min_games.get(),
        buffer,
        plies: usize::from(plies),
        folder,
        control,
    };
    let ((positions, moves), trie, mut games) = tables.merge(&mut pos_file, &mut move_file)?;
    super::stages::end("merge tables");
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
        game_index: None,
    };
    header.nodes = *header.levels.last().unwrap_or(&1);
    add_inputs(&mut header, &inputs)?;
    for (input, owned) in inputs.into_iter().zip(owned) {
        let name = input.name.clone();
        drop(input);
        if owned {
            let _ = std::fs::remove_file(&*name);
        }
    }
    // The output gets the index of its games; a run is only merged again.
    let index = match (&target, &mut games) {
        (Target::Output(_), Some(g)) => {
            let table = index::MergedPositions::read(&mut pos_file, positions as usize)?;
            let files = (&mut g.records, &mut g.moves);
            let n = g.size.games;
            Some(index::MergedIndex::count(
                table,
                files,
                n,
                (memory, folder),
                control.stop,
            )?)
        }
        _ => None,
    };
    header.game_index = index.as_ref().map(index::MergedIndex::size);
    super::stages::end("index count");
    let mut parts = Parts {
        positions: pos_file,
        moves: move_file,
        trie,
        games,
        index,
    };
    let bytes = write_target(target, &header, &mut parts, control)?;
    super::stages::end("write");
    Ok(Written {
        positions,
        moves,
        nodes: header.nodes,
        games: header.games,
        bytes,
        runs: 0,
    })
}

/// What the three tables of a merge are merged from.
struct Tables<'a> {
    inputs: &'a [Input],
    min_games: u32,
    buffer: usize,
    plies: usize,
    folder: &'a Path,
    control: &'a Control<'a>,
}

impl Tables<'_> {
    /// Merges the positions (into `pos_file` and `move_file`), the line trie and the games,
    /// each on its own thread: they read different parts of the inputs and write different
    /// files, and each is a sequential pass that waits on its reads and writes.
    #[allow(clippy::type_complexity)]
    fn merge(
        &self,
        pos_file: &mut TempFile,
        move_file: &mut TempFile,
    ) -> Result<((u64, u64), trie::Trie, Option<games::Games>), BookError> {
        let t = self;
        std::thread::scope(|scope| {
            let positions = scope.spawn(|| {
                positions::merge(
                    t.inputs,
                    t.min_games,
                    t.buffer,
                    pos_file,
                    move_file,
                    t.control,
                )
            });
            let trie = scope.spawn(|| {
                trie::merge(
                    t.inputs,
                    t.plies,
                    t.min_games,
                    t.buffer,
                    t.folder,
                    t.control,
                )
            });
            let games = games::merge(t.inputs, t.buffer, t.folder, t.control);
            let positions = join(positions);
            let trie = join(trie);
            Ok((positions?, trie?, games?))
        })
    }
}

/// The result of a thread of the merge, a panic in it passed on.
pub(super) fn join<T>(h: std::thread::ScopedJoinHandle<'_, T>) -> T {
    h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Adds the games and sources of `inputs` to `header`.
fn add_inputs(header: &mut Header, inputs: &[Input]) -> Result<(), BookError> {
    for i in inputs {
        header.games = header
            .games
            .checked_add(i.header.games)
            .ok_or_else(|| BookError::Merge("game counts overflow".into()))?;
        header.sources = merge_sources(&header.sources, &i.header.sources);
    }
    Ok(())
}

/// Writes `header` and `parts` to `target`: the output replaced atomically, or a run;
/// returns the bytes written.
fn write_target(
    target: Target<'_>,
    header: &Header,
    parts: &mut Parts,
    control: &Control<'_>,
) -> Result<u64, BookError> {
    match target {
        Target::Output(path) => {
            let mut failure = None;
            let result = crate::atomic_file::replace(path, |f| {
                write_file(f, header, |w| parts.write(w, header, control.stop)).map_err(|e| {
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
                (Ok(n), _) => Ok(n),
                (Err(_), Some(e)) => Err(e),
                (Err(e), None) => Err(BookError::Io {
                    path: path.display().to_string(),
                    source: e,
                }),
            }
        }
        Target::Run(path) => {
            let file = File::create(path).map_err(|e| spill_error(path, "a merged run", e))?;
            let mut w = BufWriter::with_capacity(super::temp::IO_BUFFER, file);
            let n = write_file(&mut w, header, |out| parts.write(out, header, control.stop))
                .map_err(|e| respill(e, path))?;
            w.into_inner()
                .map_err(|e| spill_error(path, "a merged run", e.into_error()))?;
            Ok(n)
        }
    }
}

/// A write error of a run named as one.
fn respill(e: BookError, path: &Path) -> BookError {
    match e {
        BookError::Io { source, .. } => spill_error(path, "a merged run", source),
        e => e,
    }
}
