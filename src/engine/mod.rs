//! The search engine: a bit-packed parallel BFS for unit-cost moves (in memory, shared by
//! processes, or with its planes on disk), and Dial's bucketed search over the same bit sets
//! when moves have costs; and the sparse route, a BFS over packed states in sorted levels
//! ([`sparse`]) for puzzles too big to rank. [`search`] enters a search over ranks,
//! [`search_packed`] one over packed states, and every route tells the one [`Observer`]
//! about each level.
//!
//! The two-bit search runs one level loop (`level`) over a store of its planes: in memory
//! ([`bfs`], this process's slice, the others' through an [`Exchange`]) or on disk
//! ([`disk`], this process's parts taken in turn, the others' through the same exchange). The routes share their types through `api` (what a
//! search is given, tells and returns) and `error` (why it fails), and their sizes through
//! [`memory`]; they never import each other. The engine writes files only where it is asked to keep a search: checkpoints
//! ([`checkpoint`]) and the planes on disk ([`disk`]).

mod api;
pub mod bfs;
mod bins;
pub mod bitset;
mod bottom_up;
pub mod checkpoint;
mod commit;
mod counts;
pub mod dial;
pub mod disk;
pub mod error;
pub mod exchange;
mod expand;
mod level;
pub mod memory;
mod planes;
pub mod sparse;

pub use api::{Distances, Level, Options};
pub use error::EngineError;

/// What sees each level as a search completes it and may stop the search. Taken as a trait
/// object inside the engine, so that each caller's closure does not compile another copy
/// of the whole engine (it is called once a level).
pub type Observer<'a> = dyn FnMut(&Level) -> ControlFlow<()> + 'a;

use crate::puzzle::{PackedGraph, SearchGraph};
use exchange::{Exchange, Local};
use sparse::{SparseDistances, SparseOptions};
use std::ops::ControlFlow;

/// Least total cost from every configuration to the nearest goal: the breadth-first
/// search when every move costs 1, Dial's buckets when moves have costs (`Level::depth` is
/// then a cost, and the search runs in one process without checkpoints).
///
/// Runs on the current rayon pool; `observe` is called on the calling thread after each
/// level and may stop the search by returning `ControlFlow::Break`.
pub fn search<P: SearchGraph>(
    puzzle: &P,
    options: Options,
    mut observe: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Distances, EngineError> {
    run(puzzle, options, &mut observe)
}

/// The breadth-first search over packed states (the sparse route, [`sparse`]), observed as
/// [`search`] is: `observe` sees each level once it is complete (with no frontier of ranks,
/// and nothing sent or moved on disk) and may stop the search.
///
/// An entry beside [`search`] rather than a route inside it: a packed state is a key, not a
/// rank, so the search has no planes to share between processes, keep on disk or save in a
/// checkpoint, no ranks to watch, and its result holds keys ([`SparseDistances`]) that the
/// caller turns into ranks or renders itself.
pub fn search_packed<G: PackedGraph>(
    graph: &G,
    options: &SparseOptions,
    mut observe: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<SparseDistances<G::Key>, EngineError> {
    sparse::bfs(graph, options, &mut observe)
}

/// [`search`] with its observer as a trait object.
fn run<P: SearchGraph>(puzzle: &P, mut options: Options, observe: &mut Observer) -> Result<Distances, EngineError> {
    let mut alone;
    let exchange: &mut dyn Exchange = match options.exchange.take() {
        Some(exchange) => exchange,
        None => {
            alone = Local::new(puzzle.states());
            &mut alone
        }
    };
    if options.checkpoint.is_some() && (options.id.is_empty() || options.identity.is_none()) {
        return Err(EngineError::Unnamed);
    }
    if puzzle.max_move_cost() > 1 {
        if exchange.partition().processes() > 1 || options.checkpoint.is_some() || options.disk.is_some() {
            return Err(EngineError::Weighted);
        }
        return dial::dial(puzzle, &options.watch, options.stop, observe);
    }
    if let Some(config) = options.disk.take() {
        if options.checkpoint.is_some() {
            return Err(EngineError::DiskAlone);
        }
        return disk::bfs(puzzle, exchange, config, options, observe);
    }
    bfs::bfs(puzzle, exchange, options, observe)
}
