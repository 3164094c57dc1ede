//! The search engine: a bit-packed parallel BFS and the algebra that predicts its classes.

pub mod bfs;
pub mod bitset;
pub mod checkpoint;
pub mod exchange;
pub mod gf2;

pub use bfs::{EngineError, Level, Options, Search, bfs, search};
