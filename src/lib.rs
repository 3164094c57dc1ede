//! `analyze` enumerates every reachable state of classic puzzles, measures each state's
//! distance to the goal, sorts all configurations into solvability classes, and writes the
//! results as CSV tables, PNG charts and short reports.
//!
//! Read it in this order; each layer uses only those above it ([`layers`] tests that):
//! 1. [`util`]: formatting and exact counting, used everywhere; [`identity`]: the hash of
//!    everything that decides a search, which processes, checkpoints and caches compare.
//! 2. [`puzzle`]: a puzzle as three small traits, split by who calls them
//!    ([`puzzle::SearchGraph`] for the engine, [`puzzle::Invariant`] for the analysis,
//!    [`puzzle::Notation`] for people), and one file per family, each with its
//!    [`puzzle::family::Family`] descriptor. [`heuristics`]: the sliding boards' estimates.
//! 3. [`engine`]: the one search, [`engine::search`]: a bit-packed, parallel,
//!    level-synchronous BFS over ranks at two bits a state (Dial's buckets when moves have
//!    costs), one level loop over a store of its planes: in memory, shared by several
//!    processes through an [`engine::exchange::Exchange`], with checkpoints, or on disk a
//!    part at a time ([`engine::disk`], Korf's two-bit search); packed states searched level by level in sorted runs
//!    ([`engine::sparse`]) where ranks do not fit. What it allocates is known before it
//!    starts ([`engine::memory`]).
//! 4. [`atlas`]: the heuristic estimates measured on every state of a sliding board.
//! 5. [`analysis`]: the one analysis, [`analysis::analyze`], and its plain result
//!    [`analysis::Analysis`]; [`solve`]: shortest solutions of single positions (a distance
//!    table for any puzzle that fits, and the sliding boards' own routes: distance mod 3,
//!    IDA* with pattern databases).
//! 6. [`report`]: writers that only read an `Analysis` (CSV, JSON, Markdown, PNG);
//!    [`job`]: a family at one size with its goal ([`job::Job`]), built into a
//!    [`job::Built`] whose concrete type is erased but whose search runs specialised;
//!    [`hosts`]: the processes of a search shared by several machines.
//! 7. [`registry`]: the list of families, the only one. Adding a family is its own file in
//!    [`puzzle`] plus one line there.
//! 8. [`cli`]: the command line's syntax (clap) and its conversion into validated
//!    commands.
//!
//! The binary (`src/main.rs` and its glue in `src/app/`) reads files, prints, draws
//! progress bars, handles signals and connects processes; the library does none of that.
//! Its only files are the engine's own, where the command line asks it to keep a search:
//! the checkpoints ([`engine::checkpoint`]) and the planes on disk ([`engine::disk`]).

pub mod analysis;
pub mod atlas;
pub mod cli;
pub mod engine;
pub mod heuristics;
pub mod hosts;
pub mod identity;
pub mod job;
pub mod layers;
pub mod puzzle;
pub mod registry;
pub mod report;
pub mod solve;
pub mod util;
