//! Merging many books within a memory budget: as many at a time as their read buffers
//! allow, the results merged again, the last few into the output.

use super::control::Control;
use super::folder::TempFolder;
use super::input::Input;
use super::merge::{merge_inputs, Target};
use super::written::Written;
use crate::book::data::merged_options;
use crate::book::options::MinGames;
use crate::book::BookError;
use std::path::{Path, PathBuf};

/// Most books merged at once within `memory`: their read buffers take a quarter of it at
/// least 16 KiB each.
fn fan_in(memory: u64, plies: u8) -> usize {
    let per_input = (u64::from(plies) + 5) * (16 << 10);
    ((memory / 4 / per_input) as usize).clamp(2, 256)
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
pub(super) fn merge_levels(
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
            let group: Vec<(Input, bool)> = rest.by_ref().take(fan).collect();
            if group.len() == 1 {
                next.extend(group);
                continue;
            }
            let dir = folder.path()?.to_path_buf();
            let path = dir.join(format!("merged-{made}.book"));
            made += 1;
            merge_inputs(
                group,
                MinGames::ONE,
                memory,
                &dir,
                Target::Run(&path),
                control,
            )?;
            next.push((Input::open(&path, false)?, true));
        }
        inputs = next;
    }
    super::stages::end("merge levels");
    let dir = folder.path()?.to_path_buf();
    merge_inputs(
        inputs,
        min_games,
        memory,
        &dir,
        Target::Output(output),
        control,
    )
}
