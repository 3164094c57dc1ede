//! What every route of the search is given ([`Options`]), tells its observer after each
//! level ([`Level`]) and returns ([`Distances`]): one file below the routes (memory, disk,
//! Dial's buckets; the sparse route shares [`Level`]), so that they share these types
//! without importing each other.

use super::checkpoint::{Config, Note};
use super::exchange::Exchange;
use super::planes::Frontier;
use crate::identity::Identity;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// What a finished search found. Counts are configurations (ranks weighted by
/// [`crate::puzzle::SearchGraph::multiplicity`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distances {
    /// `levels[d]` configurations lie exactly `d` moves from the nearest goal.
    pub levels: Vec<u64>,
    /// `classes[d]`: classes of those configurations up to the puzzle's symmetry group
    /// (equal to `levels[d]` without symmetry).
    pub classes: Vec<u64>,
    /// The milliseconds of each earlier run of a resumed search, up to its last save
    /// (empty for a search run whole in this process).
    pub earlier_millis: Vec<u64>,
    /// Configurations reached in each class of [`crate::puzzle::Invariant::classes`].
    pub reached_by_class: Vec<u64>,
    /// The smallest ranks (up to [`super::bfs::EXAMPLES`]) at the maximum distance.
    pub antipodes: Vec<u64>,
    /// The distance of each of [`Options::watch`] (`None`: not reached).
    pub watched: Vec<Option<usize>>,
}

/// A callback told what the checkpoints did.
pub type Notify = Box<dyn FnMut(&Note)>;

/// What a search may do beyond counting.
#[derive(Default)]
pub struct Options<'a> {
    /// The processes sharing the search (`None`: this process alone).
    pub exchange: Option<&'a mut dyn Exchange>,
    /// Ranks whose distances [`Distances::watched`] reports, wherever they are owned.
    pub watch: Vec<u64>,
    /// Where and how often to save the search, and resume it from.
    pub checkpoint: Option<Config>,
    /// Told about checkpoints resumed, skipped or written (the library does not print).
    pub notify: Option<Notify>,
    /// The puzzle's id, which names the search in checkpoints' messages.
    pub id: String,
    /// Everything that decides the search's result, hashed: a checkpoint carries it, and
    /// one of another identity is never resumed (required with [`Options::checkpoint`]).
    pub identity: Option<Identity>,
    /// Keep the bit planes in files there, a part in memory at a time (see [`super::disk`]).
    pub disk: Option<DiskConfig>,
    /// Set (by a signal handler) to stop the search within a chunk's time: it then ends
    /// with [`super::EngineError::Interrupted`], every process of a shared search alike, and a
    /// checkpoint keeps the last complete level.
    pub stop: Option<&'a AtomicBool>,
}

/// Progress reported after each level, by every route (over packed states, `sent`,
/// `generated`, `read` and `written` are 0 and `next` is empty).
#[derive(Clone, Copy)]
pub struct Level<'a> {
    /// Distance of the level just counted.
    pub depth: usize,
    /// Configurations at that distance (all processes).
    pub states: u64,
    /// Their classes up to the puzzle's symmetry group.
    pub classes: u64,
    /// Configurations reached so far, this level included.
    pub reached: u64,
    /// Ranks sent between processes while expanding this level (all processes).
    pub sent: u64,
    /// Predecessors generated while expanding this level, sent or not (all processes);
    /// for a level whose successor was found bottom-up, the neighbours tested.
    pub generated: u64,
    /// Bytes of disk read and written while expanding this level (0 in memory): this
    /// process's, each process reading and writing its own disk.
    pub read: u64,
    /// See [`Level::read`].
    pub written: u64,
    /// This process's ranks at distance `depth + 1`, complete (empty after the last level,
    /// with the planes on disk, and over packed states).
    pub next: Frontier<'a>,
}

/// Where the planes live and how much memory the search may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskConfig {
    /// The folder of the part and update files (created if missing).
    pub dir: PathBuf,
    /// Bytes the search may hold in memory: a part's planes, the update buffers.
    pub memory: u64,
    /// Keep the files after a successful search (otherwise they are deleted).
    pub keep: bool,
}
