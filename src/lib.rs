//! `analyze` enumerates every reachable state of classic puzzles.
//!
//! The central types, in the order data flows through them:
//! - [`puzzle::Puzzle`]: a puzzle as dense ranks, goals and reverse moves; one file per
//!   family under [`puzzle`].
//! - [`engine::bfs`]: the bit-packed, parallel, level-synchronous search over ranks
//!   ([`engine::dial`] when moves have costs).
//! - [`analysis::Analysis`]: the plain result the search and the invariant produce.
//! - [`heuristics`] and [`atlas`]: the sliding boards' estimates, measured on every state.
//! - [`report`]: writers that only read an `Analysis` (CSV, JSON, Markdown, PNG).
//! - [`cli`] and [`job`]: the command line and its validated jobs; [`hosts`]: the processes
//!   of a search shared by several machines.

pub mod analysis;
pub mod atlas;
pub mod cli;
pub mod engine;
pub mod heuristics;
pub mod hosts;
pub mod job;
pub mod layers;
pub mod puzzle;
pub mod registry;
pub mod report;
pub mod solve;
pub mod util;
