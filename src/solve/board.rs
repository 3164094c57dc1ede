//! Sliding-tile boards as the solver takes them: the board type and its neighbour
//! relation live with the tile notation in the puzzle layer
//! ([`crate::puzzle::sliding::notation`]); what is the solver's own is its size limit.

pub use crate::puzzle::sliding::{Board, neighbours};

/// Largest board the solver takes: cell sets are `u64` masks. Beyond the 24-puzzle only
/// positions close to the goal can be solved optimally in any case.
pub const MAX_CELLS: usize = 64;
