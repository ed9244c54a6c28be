//! Building and merging books in bounded memory. A build collects games until its memory
//! budget is reached, builds them in memory unpruned (a *run*) and writes that run as a
//! book to a temporary folder beside the output; the runs, like the books given to
//! `merge`, are then merged front to back, table by table, into the output (through more
//! temporary files, since the header ahead of the tables holds their sizes), the output with
//! the index of its games (`index`). Adding up is exact and order-independent, so the bytes
//! are those of the build in memory.

mod builder;
mod control;
mod folder;
mod games;
mod index;
mod input;
mod levels;
mod merge;
mod parts;
mod positions;
mod seen;
mod spool;
mod stages;
mod temp;
mod trie;
mod written;

pub use builder::ExternalBuild;
pub use control::{Control, Step};
pub use folder::TempFolder;
pub use levels::merge_files;
pub use written::Written;

#[cfg(test)]
mod tests;
