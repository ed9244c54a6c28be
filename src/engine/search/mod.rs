//! The search core: one node loop driven two ways (midgame to a depth, exact to the end),
//! with the root driver and the threads around it. Each file uses only files listed before
//! it here:
//!
//! - [`move_array`]: the fixed-capacity stack list every move list is made of;
//! - [`threads`]: shared state, one worker per thread, busy marks, polling;
//! - [`cutoffs`]: table, enhanced transposition and stability cutoffs;
//! - [`ordering`]: move lists and their midgame and endgame keys;
//! - [`probcut`]: the Multi-ProbCut test both drivers run;
//! - [`node`]: the search node and the PVS move loop both drivers run;
//! - [`solvers`]: exact solvers for the last 0 to 6 empty squares;
//! - [`midgame`]: the depth-limited driver;
//! - [`endgame`]: the exact driver (it orders with shallow midgame searches);
//! - [`root`]: root moves, iterative deepening, aspiration windows.

mod cutoffs;
mod endgame;
mod midgame;
mod move_array;
mod node;
mod ordering;
mod root;
mod shallow_cut;
mod solvers;
mod threads;

pub(crate) use root::{pv_from_tt, Outcome, RootMove, RootSearch, Task};
pub(crate) use threads::{Busy, Control, Shared, Worker};
