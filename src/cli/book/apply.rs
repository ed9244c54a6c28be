//! `othbook book apply`: gathers the parts files of `book evaluate --shard` into the book.

use super::output;
use crate::cli::common::bad;
use crate::cli::output_path::Output;
use anyhow::{Context, Result};
use othbook::learn::{
    apply_leaves, book_digest, check_kept_leaves, read_parts, LeafSettings, Parts,
};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book apply`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The parts may come in any order and from any number of runs; all \
must be of this book and of the same --depth, --exact-from and --selectivity. With every shard \
applied the result is byte-identical to one unsharded `book evaluate`. A book whose own leaves \
were searched with other settings takes parts only if they replace every one of them \
(`book evaluate --refresh` without --plies).\n\n\
Example:\n  othbook book apply my.book part.0 part.1 part.2 -o evaluated.book"
)]
pub struct Args {
    /// The book the shards were searched for.
    book: PathBuf,
    /// Parts files written by `book evaluate --shard I/N -o PART`.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Write the result here (default: replace BOOK); a file, not `-`. The output is locked
    /// while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Option<Output>,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let target = output::target(&args.book, args.output.as_ref())?;
    let path = target.path();
    crate::cli::common::distinct_files(&args.parts, &[path])?;
    let mut data = output::read(&args.book)?;
    let digest = book_digest(&data);
    let mut all: Vec<(PathBuf, Parts)> = Vec::with_capacity(args.parts.len());
    for p in &args.parts {
        let parts = read_parts(p).with_context(|| format!("reading {}", p.display()))?;
        if parts.digest != digest {
            return Err(bad(format!(
                "{} was searched for another book than {} (its positions differ)",
                p.display(),
                args.book.display()
            )));
        }
        if let Some((first, f)) = all.first() {
            if (f.info(), f.shard.count()) != (parts.info(), parts.shard.count()) {
                return Err(bad(format!(
                    "{} ({}, {} shards) and {} ({}, {} shards) were searched with other settings",
                    first.display(),
                    f.info(),
                    f.shard.count(),
                    p.display(),
                    parts.info(),
                    parts.shard.count()
                )));
            }
        }
        all.push((p.clone(), parts));
    }
    let first = &all[0].1;
    let settings = LeafSettings::from_info(
        &first.info(),
        othbook::learn::default_hash_mb(u32::from(first.depth)),
    )
    .map_err(|e| bad(format!("{}: {e}", all[0].0.display())))?;
    let replaced: ahash::AHashSet<_> = all
        .iter()
        .flat_map(|(_, p)| p.leaves.iter().map(|(k, _)| *k))
        .collect();
    check_kept_leaves(&data, &settings, |i| {
        replaced.contains(&data.positions[i].key)
    })
    .map_err(|e| bad(format!("{}: {e}", args.book.display())))?;
    let count = first.shard.count();
    let missing: Vec<String> = (0..count)
        .filter(|i| !all.iter().any(|(_, p)| p.shard.index() == *i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "warning: no parts of shard{} {}: their positions keep no leaf",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        );
    }
    let leaves = all.into_iter().flat_map(|(_, p)| p.leaves);
    let report = apply_leaves(&mut data, leaves, &settings);
    output::write(path, &data)?;
    output::summary(out, path, &data, &report)
}
