//! `othbook book`: the book's values: `evaluate` (search leaves, in shards if asked),
//! `apply` (gather shards), `fix` (relink and negamax), `deviate` (learn off the best lines), `enhance` (search more
//! where the choice is close);
//! smaller books: `subtree` (the positions below a line) and `prune` (more games a position,
//! or moves within a value window); a line's accumulated loss: `loss`;
//! and other programs' books: `import` and `export` (Edax binary and text, Egaroucid).

mod add_games;
mod apply;
mod deviate;
mod enhance;
mod evaluate;
mod export;
mod fix;
mod import;
mod leaf_options;
mod loss;
mod output;
mod prune;
mod subtree;

use anyhow::Result;
use std::io::Write;

/// Arguments of `othbook book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Search the leaf (best move out of the book) of every position and negamax the values.
    /// Example: othbook book evaluate books/wthor.book --depth 12
    Evaluate(evaluate::Args),
    /// Gather the parts files of `book evaluate --shard` into the book and negamax.
    /// Example: othbook book apply my.book part.* -o evaluated.book
    Apply(apply::Args),
    /// Add the positions off the best lines that are close to them (deviation learning).
    /// Example: othbook book deviate my.book --relative 4 --absolute 8 --depth 12
    Deviate(deviate::Args),
    /// Search more where the book's best and second-best moves are close, on the most played lines.
    /// Example: othbook book enhance my.book --window 2 --depth 14
    Enhance(enhance::Args),
    /// Check leaves against the book's moves and negamax again (after a merge or an import).
    /// Example: othbook book fix my.book
    Fix(fix::Args),
    /// Read another program's book (Edax book.dat or text, Egaroucid .egbk3/.egbk2) into an othbook book with values.
    /// Example: othbook book import book.dat -o edax.book
    Import(import::Args),
    /// Give a book written before format version 5 the table of its games and their index (values kept).
    /// Example: othbook book add-games books/wthor.book ../shared/data/wthor/*.wtb
    AddGames(add_games::Args),
    /// Write the positions below a line, with their games and values, as a book of their own.
    /// Example: othbook book subtree books/wthor.book f5d6c3d3c4 -o tiger.book
    Subtree(subtree::Args),
    /// Drop the positions played in fewer games (--min-games) or the moves beyond a value window of the best (--window), values kept.
    /// Example: othbook book prune books/wthor.book --min-games 100 -o small.book
    Prune(prune::Args),
    /// A line's loss against the book's best move at each position, per move and per side so far.
    /// Example: othbook book loss books/wthor.book f5d6c3d3c4f4
    Loss(loss::Args),
    /// Write an evaluated book in another program's format (Edax book.dat or text, Egaroucid .egbk3).
    /// Example: othbook book export my.book --to edax -o book.dat
    Export(export::Args),
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    match args.command {
        Command::Evaluate(a) => evaluate::run(a, out),
        Command::Apply(a) => apply::run(a, out),
        Command::Fix(a) => fix::run(a, out),
        Command::Deviate(a) => deviate::run(a, out),
        Command::Enhance(a) => enhance::run(a, out),
        Command::Import(a) => import::run(a, out),
        Command::Export(a) => export::run(a, out),
        Command::AddGames(a) => add_games::run(a, out),
        Command::Subtree(a) => subtree::run(a, out),
        Command::Prune(a) => prune::run(a, out),
        Command::Loss(a) => loss::run(a, out),
    }
}
