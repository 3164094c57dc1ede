//! The search engine: a bit-packed parallel BFS for unit-cost moves, and Dial's bucketed
//! search over the same bit sets when moves have costs.

pub mod bfs;
pub mod bitset;
pub mod checkpoint;
pub mod dial;
pub mod exchange;

pub use bfs::{EngineError, Level, Options, Search, bfs, search};
pub use dial::dial;

use crate::puzzle::Puzzle;
use std::ops::ControlFlow;

/// Least total cost from every configuration to the nearest goal, in this process alone:
/// [`bfs`] when every move costs 1 (unchanged, at full speed), else [`dial`]. `Level::depth`
/// is then a cost.
pub fn search_alone<P: Puzzle>(
    puzzle: &P,
    observe: impl FnMut(&Level) -> ControlFlow<()>,
) -> Result<Search, EngineError> {
    if puzzle.max_move_cost() > 1 {
        dial(puzzle, observe)
    } else {
        bfs(puzzle, observe)
    }
}
