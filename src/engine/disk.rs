//! The breadth-first search with its bit planes on disk (`--disk`), for spaces larger than
//! memory, after Korf's two-bit breadth-first search ("Minimizing Disk I/O in Two-Bit
//! Breadth-First Search", AAAI 2008).
//!
//! The rank space is cut into contiguous *parts* (the slices of a search shared by several
//! processes, here taken one after the other by one process); each part's two planes are a
//! file. A level works part by part: load the part, apply the ranks other parts found for it,
//! expand its frontier (predecessors inside the part marked in place, as in memory), keep the
//! predecessors owned by other parts as *updates* for them, write the part back. Updates for
//! a part still to come this level are applied when it is loaded (`early`); those for a part
//! already done wait for the next level (`late`). Both are sorted and deduplicated in memory,
//! and written to update files when the buffers are full.
//!
//! Shared by processes (`--hosts`), each process keeps a run of the parts in its own folder;
//! a far predecessor of another process's part goes through the exchange, and the owner keeps
//! it as an update as if one of its own parts had found it. Each level is committed by every
//! process before any goes on, so that all resume from the same level ([`agree_on_level`]).
//!
//! A part's file holds its two planes as they are in memory ([`Planes`]: interleaved word
//! by word), so a block is read straight into the planes and written from them as it is,
//! with no weaving of one plane's words between the other's.
//!
//! Nothing committed is overwritten: each part has two files (slots), and a level writes
//! each block it changed (2 MiB: 1 MiB of each plane) to the slot its committed version is
//! not in (a dense level writes about all of the planes, a sparse one little). A level is
//! committed when all its blocks and late updates are written and synced and the manifest
//! (the result so far, each block's slot and CRC-32, the pending update files' CRC-32) is
//! renamed into place. A run killed at any moment resumes from the last committed level:
//! run the same command again. A part or update file whose CRC-32 differs from the
//! manifest's is named and refused.
//!
//! The result, and every count the observer is told, equal the search in memory's; the
//! observer is not given the next level's ranks (they are on disk), so readers of whole
//! levels (the heuristic atlas) do not run on disk.

pub use super::api::DiskConfig as Config;
pub use super::error::DiskError;

use super::api::{Distances, Options};
use super::bins::{self, BinSet, DENSE, Marking, SPARSE};
use super::bitset::WORD_BITS;
use super::bottom_up;
use super::checkpoint::{Note, Run};
use super::commit::{self, Commit, MANIFEST, PREVIOUS, Pending, Superseded, create_new, no_follow, open_read};
use super::counts::LevelCounts;
use super::error::EngineError;
use super::exchange::{Exchange, ExchangeError, Partition};
use super::expand::{Expansion, Shifts};
use super::level::{self, Router, Store, Traffic};
use super::memory::{self, part_bytes, plane_bytes};
use super::planes::{CHUNK_WORDS, Frontier, Planes};
use crate::identity::Identity;
use crate::puzzle::{Bins, SearchGraph};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use zerocopy::IntoBytes;

/// The lock file's name: one run at a time uses a folder.
const LOCK: &str = "analyze-disk.lock";
/// Bumped whenever the files' layout or meaning changes (2: the manifest carries its own
/// CRC-32; 4: a part's two planes interleaved in one file a slot, where 3 had a file a
/// plane and slot). A folder of another format is refused, never misread.
const FORMAT: u32 = 4;
/// Bytes copied per block between a file and the planes.
const BLOCK: usize = 1 << 18;
/// Ranks encoded at a time for an update file.
const ENCODE_RANKS: usize = 1 << 13;
/// Bytes of a block of a part file: both planes of the same ranks, interleaved as in
/// memory (1 MiB of each, 128 chunks of the expansion). A level writes only the blocks it
/// changed, both planes of each (though it changes one plane but where late updates fall),
/// to the slot the committed version is not in: a dense level writes about all of the
/// planes, a sparse one (the first and last dozens of a big board) little.
const PART_BLOCK: usize = 2 << 20;
/// Words of each plane in a block (of the interleaved planes: twice as many).
const BLOCK_RANK_WORDS: usize = PART_BLOCK / 16;
/// Bytes of a block read or written at a time: small enough to stay in the cache between
/// the system call, the checksum and the copy to or from the planes.
const PIECE: usize = 64 << 10;

/// Expansion chunks in a block.
const BLOCK_CHUNKS: usize = BLOCK_RANK_WORDS / CHUNK_WORDS;

/// Most parts a search is cut into: each costs files, and a pass over its parts per level.
pub const MAX_PARTS: usize = 1024;

/// The least memory that cuts a search of `states` ranks into at most [`MAX_PARTS`] parts.
pub fn least_memory(states: u64) -> u64 {
    let words = states.div_ceil(WORD_BITS).max(1);
    let least = memory::memory_for_part(words.div_ceil(MAX_PARTS as u64) * WORD_BITS);
    // In whole KiB beyond one, as messages print it.
    if least <= 1024 {
        least
    } else {
        least.next_multiple_of(1024)
    }
}

/// The parts a search of `states` ranks is cut into with `memory` bytes: whole groups of
/// the puzzle's `bins` if it has some and they fit ([`bins_per_part`]), else whole runs of
/// one of its `spans` ([`SearchGraph::locality`](crate::puzzle::SearchGraph::locality)) if
/// one fits ([`by_spans`]), else each part's planes (two bits a rank) within [`part_bytes`].
pub fn partition(states: u64, memory: u64, bins: Option<Bins>, spans: &[u64]) -> Partition {
    let words = states.div_ceil(WORD_BITS).max(1);
    let words_per_part = memory::ranks_in(part_bytes(memory)) / WORD_BITS;
    if let Some(bins) = bins {
        // The most groups that fit in a part and divide them, if that is more than one part.
        let most = words_per_part * WORD_BITS / bins.span.max(1);
        let groups = (2..=most.min(bins.groups - 1)).rev().find(|g| bins.groups % g == 0);
        for per_part in groups.into_iter().chain([1]) {
            let partition = Partition::new(states, (bins.groups / per_part) as usize);
            if bins_per_part(&partition, bins, memory).is_some() {
                return partition;
            }
        }
    }
    by_spans(states, memory, spans).unwrap_or_else(|| Partition::new(states, words.div_ceil(words_per_part) as usize))
}

/// The parts a search on disk shared by `processes` processes is cut into: [`partition`]'s
/// within what the exchange leaves of `memory` ([`memory::exchange_bytes`]), without bins
/// (they are sent between the parts of one process only), as many more as give each
/// process a run of as many parts ([`processes_parts`]). Where the exchange takes more than
/// half of `memory`, no cut keeps the process within it: the parts are then cut for the
/// whole of it, as few as that allows, rather than ever finer for nothing.
pub fn shared_partition(states: u64, memory: u64, bins: Option<Bins>, spans: &[u64], processes: usize) -> Partition {
    if processes <= 1 {
        return partition(states, memory, bins, spans);
    }
    let exchange = memory::exchange_bytes(Some(memory), processes);
    let left = if exchange <= memory / 2 {
        memory - exchange
    } else {
        memory
    };
    let parts = partition(states, left, None, spans).processes();
    Partition::new(states, parts.max(processes).next_multiple_of(processes))
}

/// The parts `process` of `processes` keeps in its folder, of a search cut into `parts`:
/// the processes take runs of as many parts, in order.
pub fn processes_parts(parts: usize, processes: usize, process: usize) -> Range<usize> {
    let run = (parts / processes.max(1)).max(1);
    (process * run).min(parts)..((process + 1) * run).min(parts)
}

/// Parts of whole runs of the coarsest of `spans` whose run fits in memory: as many runs a
/// part as fit two parts at a time and divide them, else one run a part, one part at a
/// time. Fewer predecessors leave such a part than one cut anywhere: of a sliding board's
/// vertical moves, only those whose window starts at the first position leave a part of
/// a first tile, where an even cut also splits the runs of the second and later ones (3x4,
/// every 9,973rd rank: 5.9% of the predecessors leave 11 parts of a first tile, 8.8% leave
/// 15 even ones). A far predecessor costs more CPU than the overlap saves, so a coarse run
/// that fits one at a time is kept rather than runs of the finer span that fit two (3x4 and
/// 2x6 at 16 MiB: 11 parts of a first tile one at a time against 22 of five runs of the
/// first two tiles two at a time, 9-18% less CPU and less wall time; and about 10% less
/// CPU than 15 even parts two at a time; see the performance notes).
fn by_spans(states: u64, memory: u64, spans: &[u64]) -> Option<Partition> {
    let span = *spans.iter().find(|&&span| {
        span % WORD_BITS == 0 && span > 0 && states % span == 0 && memory::memory_for_one_part(span) <= memory
    })?;
    let runs = states / span;
    let most = part_bytes(memory) / plane_bytes(span);
    let per_part = (1..=most.clamp(1, runs)).rev().find(|g| runs % g == 0).unwrap_or(1);
    Some(Partition::new(states, (runs / per_part) as usize))
}

/// Groups of `bins` in each part of `partition` if its parts are whole groups (of whole
/// words), more than one, that fit in `memory` with their bins (one part at a time at
/// least: [`parts_at_once`]): the search then sends the bins' move as bits. A search resumed with other parts or less memory sends ranks.
pub fn bins_per_part(partition: &Partition, bins: Bins, memory: u64) -> Option<u64> {
    let parts = partition.processes() as u64;
    let per_part = bins.groups / parts;
    let whole = bins.groups.checked_mul(bins.span) == Some(partition.states())
        && bins.span % WORD_BITS == 0
        && parts > 1
        && per_part * parts == bins.groups
        && largest_part(partition) == per_part * bins.span;
    (whole
        && memory::memory_for_one_part(largest_part(partition)) <= memory
        && BinSet::bytes(bins, per_part) <= memory::buffer_bytes(memory))
    .then_some(per_part)
}

/// Bytes a process of a search on disk cut into `partition` holds beside its update buffer
/// with `memory`: its parts' planes ([`parts_at_once`]), its bins (`bins` and the groups a
/// part, [`bins_per_part`]) and, one of `processes`, the exchange's buffers.
pub fn held_bytes(partition: &Partition, memory: u64, bins: Option<(Bins, u64)>, processes: usize) -> u64 {
    parts_at_once(partition, memory) as u64 * plane_bytes(largest_part(partition))
        + bins.map_or(0, |(b, n)| BinSet::bytes(b, n))
        + memory::exchange_bytes(Some(memory), processes)
}

/// How many parts of `partition` are in memory at once with `memory` bytes: two (one
/// expanded while the one before is written and the next read) when there are two and they
/// fit in half of it, as they do unless a search is resumed with less `--memory` than it
/// began with.
pub fn parts_at_once(partition: &Partition, memory: u64) -> usize {
    if plane_bytes(largest_part(partition)) <= part_bytes(memory) {
        partition.processes().min(2)
    } else {
        1
    }
}

/// The least `--memory` a search already cut into `partition` can resume with: one part's
/// planes in half of it (the rest is the update buffers' and the expansion's). A folder's
/// parts are fixed when its search begins; less memory than this would not hold a part.
pub fn least_memory_to_resume(partition: &Partition) -> u64 {
    memory::memory_for_one_part(largest_part(partition))
}

/// Ranks in the largest part: the first (only the last may be shorter).
fn largest_part(partition: &Partition) -> u64 {
    let first = partition.slice(0);
    first.end - first.start
}

/// Bytes of disk a search of `states` ranks is expected to need: the committed planes; the
/// new versions of the blocks a level writes, both planes of each (a level never overwrites
/// the committed one, and what it supersedes is freed once it commits), all of them for a
/// dense level; and update files as large as the planes (a level's far predecessors, sorted
/// and deduplicated in each buffer, at 4 or 8 bytes each; bins, at most a bit a rank, take
/// less). That is the least it needs: where most moves leave a part and the buffers are
/// small, a level's updates repeat ranks and outgrow the planes many times over (lights
/// out 5x4 with 64 KiB of memory writes 4 times this), and no bound known before the
/// search comes close to what they are. So each level estimates the next one's writes from
/// its own and warns before they outgrow the free space (`Disk::short_of_space`); a level
/// that fills the disk fails, and the search resumes from the last committed level once
/// space is made.
///
/// Beyond that, each of the `parts` may have its two part files (two slots) and two update
/// files at once, each taking at least a file system block (4 KiB) however little it holds,
/// and the manifest names every block: for tiny parts these dominate.
pub fn disk_bytes(states: u64, parts: usize) -> u128 {
    const FILE_BLOCK: u128 = 4 << 10;
    let planes = u128::from(plane_bytes(states));
    3 * planes + parts as u128 * 4 * FILE_BLOCK + (64 << 10)
}

/// Where a block's committed version is: its slot (0 or 1) and CRC-32; `None` if never
/// written.
type Block = Option<(u8, u32)>;

/// A committed level: what the folder holds, in `manifest.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Manifest {
    format: u32,
    id: String,
    identity: String,
    states: u64,
    parts: usize,
    /// Counted levels: the frontier is level `levels.len()`.
    levels: Vec<u64>,
    /// Each level's classes up to the puzzle's symmetry group.
    classes: Vec<u64>,
    /// The milliseconds each run of the search took up to its last commit, this one's
    /// last: a resumed search's time is their sum.
    runs: Vec<u64>,
    reached_by_class: Vec<u64>,
    antipodes: Vec<u64>,
    watched: Vec<Option<usize>>,
    /// Each part's blocks (`blocks[part][block]`, [`PART_BLOCK`] bytes of the interleaved
    /// planes each): the slot (0 or 1) holding the block's committed version and its CRC-32;
    /// `None` for a block never written (all clear).
    blocks: Vec<Vec<Block>>,
    /// Whether each part may hold ranks of the frontier.
    frontier: Vec<bool>,
    /// The late updates for each part (found after it was written), if any: CRC-32 and bytes.
    late: Vec<Option<(u32, u64)>>,
    /// The late bins for each part: the part that sent them, CRC-32 and bytes.
    late_bins: Vec<Vec<(usize, u32, u64)>>,
    /// The processes sharing the search (`--hosts`), each with its own folder holding its
    /// own run of parts ([`Disk::mine`]); absent for one process, so that one process's
    /// manifests are written as they were before.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    processes: usize,
    /// This folder's process, `0..processes`.
    #[serde(default, skip_serializing_if = "is_zero")]
    process: usize,
    /// The CRC-32 of the manifest as written with 0 here ([`Manifest::sealed`]): an edited
    /// or damaged manifest is refused rather than resumed as if it were the search's.
    crc32: u32,
}

/// The processes of a manifest without the field: one.
fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Manifest {
    /// The result so far as committed, this run's time to follow the earlier runs'.
    fn run(&self) -> Run {
        let mut runs = self.runs.clone();
        runs.push(0);
        Run {
            levels: self.levels.clone(),
            classes: self.classes.clone(),
            runs,
            reached_by_class: self.reached_by_class.clone(),
            antipodes: self.antipodes.clone(),
            watched: self.watched.clone(),
        }
    }
}

/// The search over the parts on disk; see the module's documentation. This process's parts
/// are its run of them ([`processes_parts`]; all of them for a process alone), the others'
/// reached through `exchange`. Without `--checkpoint`: the folder is its own checkpoint.
pub(super) fn bfs<P: SearchGraph>(
    puzzle: &P,
    exchange: &mut dyn Exchange,
    config: Config,
    options: Options,
    observe: &mut super::Observer,
) -> Result<Distances, EngineError> {
    let mut options = options;
    let identity = options.identity.take().ok_or(EngineError::Unnamed)?;
    let name = (options.id.as_str(), &identity);
    let mut disk = Disk::open(puzzle, &config, name, std::mem::take(&mut options.watch), exchange)?;
    // The puzzle that sends its bins' move as bits, if the parts are cut for it.
    let binned = disk.bins.as_ref().and_then(|_| puzzle.binned());
    if disk.bins.is_some() && binned.is_none() {
        disk.bins = None;
    }
    let puzzle = binned.as_ref().unwrap_or(puzzle);
    let mut notify = |note: &Note| {
        if let Some(f) = options.notify.as_mut() {
            f(note);
        }
    };
    if let Some(level) = disk.manifest.levels.len().checked_sub(1) {
        notify(&Note::Resumed {
            level,
            path: disk.dir.join(MANIFEST),
        });
    }
    let store = OnDisk { disk, puzzle, exchange };
    // The folder stays once the search is over, until the report is committed: the caller
    // then removes it (`remove`), so a report that cannot be written loses no search.
    level::search(store, options.stop, &mut notify, observe)
}

/// The parts on disk as the level loop sees them: a level takes this process's parts in
/// turn and commits; the other processes' parts are reached through the exchange.
struct OnDisk<'a, P> {
    disk: Disk,
    puzzle: &'a P,
    exchange: &'a mut dyn Exchange,
}

impl<P: SearchGraph> Store for OnDisk<'_, P> {
    /// The level's blocks and update files as its turns wrote them, to be committed.
    type Pass = Pass;

    fn run(&mut self) -> &mut Run {
        &mut self.disk.run
    }

    fn began(&self) -> std::time::Instant {
        self.disk.began
    }

    fn expand(
        &mut self,
        depth: usize,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<(LevelCounts, Self::Pass), EngineError> {
        let mut pass = self.disk.level(self.puzzle, depth, &mut *self.exchange, stopped)?;
        let total = std::mem::take(&mut pass.total);
        Ok((total, pass))
    }

    fn keep(
        &mut self,
        depth: usize,
        _: &LevelCounts,
        mut pass: Pass,
        notify: &mut dyn FnMut(&Note),
    ) -> Result<Traffic, EngineError> {
        let disk = &mut self.disk;
        disk.run.watched = std::mem::take(&mut pass.watched);
        disk.commit_level(&mut pass)?;
        if let Some(frees) = disk.deferred.take() {
            // The barrier of the commit across processes (see `agree_on_level`): no process
            // lets go of the level before, nor begins the next, until every one has
            // committed this one.
            self.exchange.agree(vec![depth as u64])?;
            frees.run()?;
        }
        if !disk.warned
            && let Some(short) = disk.short_of_space(depth, &pass.traffic)
        {
            disk.warned = true;
            notify(&short);
        }
        Ok(pass.traffic)
    }

    fn next(&self, _: usize) -> Frontier<'_> {
        Frontier::empty()
    }

    fn halt(&mut self) -> Result<(), EngineError> {
        self.disk.settle()
    }

    fn finish(mut self) -> Result<Run, EngineError> {
        self.disk.settle()?;
        level::agree_watched(&mut *self.exchange, &mut self.disk.run)?;
        Ok(self.disk.run.clone())
    }
}

/// The folder of one search, locked, and its last committed level.
struct Disk {
    dir: PathBuf,
    partition: Partition,
    manifest: Manifest,
    /// Bytes of update buffers held before they are written.
    buffer_bytes: u64,
    /// The update buffer, allocated once for the search: buffers freed and grown again each
    /// time they were written out stayed in the allocator's arenas, of each thread that
    /// grew them (3x4 at 16 MiB peaked 10 MiB above what they held).
    buffer: Vec<u64>,
    /// Bytes a part's rank takes in an update file: 4 when every part has at most 2^32 ranks.
    width: usize,
    /// Whether two parts fit in memory, so that the next is read and the last written while
    /// one is expanded (a search resumed with less `--memory` than it began with may not).
    overlap: bool,
    /// The bins of the part being expanded, if the puzzle's far move is sent as bits.
    bins: Option<BinSet>,
    /// Planes left by the last level, for the next one's parts: allocated once for the
    /// search, as a new allocation each level would stay in the allocator's arenas.
    pool: std::sync::Mutex<Vec<Planes>>,
    /// The threads that read and write parts, beside the expansion's.
    io: rayon::ThreadPool,
    /// Files written since the last commit, synced by it (one by one: a sync of the whole
    /// file system would also wait for other programs' writes).
    written: std::sync::Mutex<std::collections::BTreeSet<PathBuf>>,
    /// The last level's commit, if still under way beside this level.
    pending: std::sync::Mutex<Option<Pending>>,
    /// The result so far, the committed level's with this run's time (the manifest's
    /// once a level is committed).
    run: Run,
    /// When this run of the search began.
    began: std::time::Instant,
    /// Whether the search was told the disk may be short of space (once is enough).
    warned: bool,
    /// The ranks whose distances are reported.
    watch: Vec<u64>,
    /// What the last level's commit supersedes, freed once every process has committed it
    /// (until then a process may go back to the level before: see [`resumed`]).
    deferred: Option<commit::Frees>,
    _lock: File,
}

/// The updates of a level being worked: the far predecessors in memory, and what was
/// written of them, per part.
struct Updates {
    /// The far predecessors of every part, in one buffer of fixed capacity, the search's
    /// (see [`Disk::buffer`]). A rank for a part after the one expanded is for this level
    /// (early), else for the next (late): the parts are taken in order, so which it is
    /// follows from its part and the part under way, also when the buffer is written out.
    ranks: Vec<u64>,
    /// Whether the buffer holds ranks for each part still to come this level.
    early: Vec<bool>,
    /// What was written of each part's updates: file open, CRC-32 so far, bytes.
    early_files: Vec<Option<Spill>>,
    late_files: Vec<Option<Spill>>,
}

/// One part's turn in a level: the part, its planes in memory, which of its chunks were
/// touched, and the chunks its frontier holds (the expansion and the bottom-up step share it).
#[derive(Clone, Copy)]
struct PartTurn<'a> {
    p: usize,
    planes: &'a Planes,
    touched: &'a [AtomicBool],
    active: &'a [usize],
}

/// What a level gathers as its parts take their turns, committed at its end.
struct Pass {
    depth: usize,
    classes: usize,
    /// Chunks expanded at once.
    group: usize,
    adjacent: Option<Shifts>,
    updates: Updates,
    traffic: Traffic,
    total: LevelCounts,
    /// Each part's blocks, as this level writes them.
    blocks: Vec<Vec<Block>>,
    /// Whether each part holds ranks of the next level.
    frontier: Vec<bool>,
    watched: Vec<Option<usize>>,
    /// Bins sent this level: `early_bins[q]`, the parts before `q` that sent it some;
    /// `sent_late[q]`, the parts after it (which it receives next level).
    early_bins: Vec<Vec<usize>>,
    sent_late: Vec<Vec<(usize, u32, u64)>>,
    /// The late update file of each part, once closed: CRC-32 and bytes.
    late: Vec<Option<(u32, u64)>>,
}

impl Pass {
    /// The level of depth `depth` after the committed `manifest`, nothing done yet.
    fn new<P: SearchGraph>(manifest: &Manifest, puzzle: &P, depth: usize, group: usize) -> Self {
        let parts = manifest.parts;
        let classes = puzzle.class_count();
        Pass {
            depth,
            classes,
            group,
            adjacent: puzzle.adjacent_predecessors().map(|a| Shifts::new(&a)),
            updates: Updates {
                ranks: Vec::new(),
                early: vec![false; parts],
                early_files: (0..parts).map(|_| None).collect(),
                late_files: (0..parts).map(|_| None).collect(),
            },
            traffic: Traffic::default(),
            total: LevelCounts::new(classes),
            blocks: manifest.blocks.clone(),
            frontier: vec![false; parts],
            watched: manifest.watched.clone(),
            early_bins: vec![Vec::new(); parts],
            sent_late: vec![Vec::new(); parts],
            late: vec![None; parts],
        }
    }

    /// Takes in what a write and read beside a turn did: the written part's blocks and
    /// bytes, the part read ahead, the planes left free.
    fn account(&mut self, pipe: &mut Pipe, turn: Turn) {
        self.traffic.read += turn.read;
        if let Some((q, part_blocks, bytes)) = turn.written {
            self.blocks[q] = part_blocks;
            self.traffic.written += bytes;
        }
        pipe.ready = turn.loaded;
        pipe.spare = turn.spare;
    }
}

/// The parts between turns: the one to be written beside the next turn, the one read ahead
/// for it, and planes free to read into (a new allocation for each part would leave the
/// last one's in glibc's heap, which keeps what it frees).
#[derive(Default)]
struct Pipe {
    behind: Option<Behind>,
    ready: Option<(usize, Planes)>,
    spare: Option<Planes>,
}

/// The router of a part's turn on disk: the far predecessors part `p` finds are kept for
/// the parts of this process that own them, written out when the buffers are full, and
/// sent through the exchange to the process that owns the others. What other processes
/// send this one is kept the same way, as if a part of its own had found it: a rank of
/// another process is a far predecessor like any other.
struct PartUpdates<'a> {
    disk: &'a Disk,
    /// The part under way (all of them once the turns are over: what comes is late).
    p: usize,
    depth: usize,
    updates: &'a mut Updates,
    traffic: &'a mut Traffic,
    /// The other processes' parts, reached while this one's turns are under way.
    exchange: Option<&'a mut dyn Exchange>,
    /// Why the ranks received could not be kept, if they could not (the exchange hands
    /// them over where no error can be returned).
    failed: Option<EngineError>,
}

impl PartUpdates<'_> {
    /// Sends `ranks` of part `owner`, another process's, to that process; keeps what the
    /// exchange hands this one meanwhile.
    fn send(&mut self, owner: usize, ranks: Vec<u64>) -> Result<(), EngineError> {
        let process = self.disk.process_of(owner);
        let level = u32::try_from(self.depth).unwrap_or(u32::MAX);
        let Some(exchange) = self.exchange.take() else {
            return Err(ExchangeError::Transport(format!("no exchange to send process {process} its ranks")).into());
        };
        let sent = exchange.send(level, process, ranks, &mut |ranks| self.receive(ranks));
        self.exchange = Some(exchange);
        sent?;
        self.failed.take().map_or(Ok(()), Err)
    }

    /// Keeps `ranks`, sent by other processes, for the parts of this process that own
    /// them; a rank of no part of this process is refused (noted in `failed`).
    fn receive(&mut self, ranks: &[u64]) {
        for &rank in ranks {
            let q = self.disk.partition.owner(rank);
            if rank >= self.disk.partition.states() || !self.disk.mine(q) {
                let me = self.disk.manifest.process;
                let wrong =
                    ExchangeError::Transport(format!("rank {rank} of another process was sent to process {me}"));
                self.failed.get_or_insert(wrong.into());
                return;
            }
            let updates = &mut *self.updates;
            if updates.ranks.len() >= updates.ranks.capacity().max(1)
                && let Err(e) = self.disk.spill(updates, self.p, self.depth, self.traffic)
            {
                self.failed.get_or_insert(e);
                return;
            }
            updates.ranks.push(rank);
            updates.early[q] |= q > self.p;
        }
    }
}

impl Router for PartUpdates<'_> {
    /// Keeps `ranks` for part `owner`: for this level if its turn is still to come (early),
    /// else for the next level (late); sent to its process if it is another's.
    fn take(&mut self, owner: usize, ranks: Vec<u64>) -> Result<(), EngineError> {
        if !self.disk.mine(owner) {
            return self.send(owner, ranks);
        }
        let updates = &mut *self.updates;
        if updates.ranks.len() + ranks.len() > updates.ranks.capacity() {
            self.disk.spill(updates, self.p, self.depth, self.traffic)?;
        }
        if ranks.len() > updates.ranks.capacity() {
            // More than the whole buffer (a tiny `--memory`): written as they come.
            let mut ranks = ranks;
            std::mem::swap(&mut updates.ranks, &mut ranks);
            self.disk.spill(updates, self.p, self.depth, self.traffic)?;
            std::mem::swap(&mut updates.ranks, &mut ranks);
        } else {
            updates.ranks.extend(ranks);
            updates.early[owner] |= owner > self.p;
        }
        Ok(())
    }
}

/// A part whose turn is over, to be written: its planes, the chunks that changed in either
/// plane (`dirty`), and the entries of its blocks, which the write updates.
struct Behind {
    p: usize,
    planes: Planes,
    dirty: Vec<bool>,
    blocks: Vec<Block>,
}

/// What [`Disk::write_then_load`] did: the part written (its blocks' entries and the bytes),
/// the part read (or the free planes), and the bytes read.
struct Turn {
    written: Option<(usize, Vec<Block>, u64)>,
    loaded: Option<(usize, Planes)>,
    spare: Option<Planes>,
    read: u64,
}

/// An update file being appended to.
struct Spill {
    writer: BufWriter<File>,
    crc: crc32fast::Hasher,
    bytes: u64,
}

impl Disk {
    /// Opens (creates) the folder, locks it, and reads its manifest, or starts the search
    /// from the goals if there is none.
    fn open<P: SearchGraph>(
        puzzle: &P,
        config: &Config,
        name: (&str, &Identity),
        watch: Vec<u64>,
        exchange: &mut dyn Exchange,
    ) -> Result<Self, EngineError> {
        let dir = config.dir.clone();
        std::fs::create_dir_all(&dir).map_err(|e| DiskError::io(&dir, &e))?;
        let lock_path = dir.join(LOCK);
        let lock = crate::util::try_lock_file(&lock_path)
            .map_err(|e| DiskError::io(&lock_path, &e))?
            .ok_or_else(|| DiskError::InUse(dir.display().to_string()))?;
        let states = puzzle.states();
        let mut manifest = resumed(&dir, puzzle, config, name, watch.len(), exchange)?;
        let partition = Partition::new(states, manifest.parts);
        manifest.late_bins.resize(manifest.parts, Vec::new());
        // Bins are sent between the parts of one process only.
        let per_part = (puzzle.bins().filter(|_| manifest.processes == 1))
            .and_then(|b| Some((b, bins_per_part(&partition, b, config.memory)?)));
        let bins = per_part.map(|(b, n)| BinSet::new(b, n)).transpose()?;
        let largest = largest_part(&partition);
        let at_once = parts_at_once(&partition, config.memory);
        let overlap = at_once == 2;
        // What the process holds now counts against `--memory`, as do the planes, the bins
        // and the exchange's buffers.
        let held = held_bytes(&partition, config.memory, per_part, manifest.processes);
        let buffer_bytes = memory::update_buffer_bytes(config.memory, memory::resident().unwrap_or(0), held);
        let io = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("analyze-disk-{i}"))
            .build()
            .map_err(|e| DiskError::io(&dir, &io::Error::other(e)))?;
        let mut disk = Disk {
            overlap,
            bins,
            pool: Default::default(),
            io,
            dir,
            partition,
            buffer_bytes,
            buffer: Vec::with_capacity((buffer_bytes / 8) as usize),
            width: if largest <= 1 << 32 { 4 } else { 8 },
            run: manifest.run(),
            began: std::time::Instant::now(),
            warned: false,
            watch,
            deferred: None,
            manifest,
            written: Default::default(),
            pending: Default::default(),
            _lock: lock,
        };
        disk.listed_files_present()?;
        disk.no_unlisted_late_files()?;
        disk.tidy()?;
        if disk.manifest.levels.is_empty() && disk.manifest.blocks.iter().flatten().all(Option::is_none) {
            disk.seed(puzzle)?;
            disk.run = disk.manifest.run();
        }
        Ok(disk)
    }

    /// Writes the parts holding goals, as level 0, and commits.
    fn seed<P: SearchGraph>(&mut self, puzzle: &P) -> Result<(), EngineError> {
        let states = puzzle.states();
        let mut goals = puzzle.goals();
        goals.sort_unstable();
        goals.dedup();
        for &goal in &goals {
            if goal >= states {
                return Err(EngineError::BadGoal(goal));
            }
        }
        for (slot, &rank) in self.manifest.watched.iter_mut().zip(&self.watch) {
            if goals.binary_search(&rank).is_ok() {
                *slot = Some(0);
            }
        }
        let mine: Vec<usize> = (0..self.manifest.parts).filter(|&p| self.mine(p)).collect();
        for p in mine {
            let slice = self.partition.slice(p);
            let mine: Vec<u64> = goals.iter().copied().filter(|g| slice.contains(g)).collect();
            if mine.is_empty() {
                continue;
            }
            let mut planes = Planes::try_new(slice)?;
            for g in mine {
                planes.set_current(g - planes.slice.start, 0);
            }
            let chunks = planes.words.div_ceil(CHUNK_WORDS);
            let dirty: Vec<bool> = (0..chunks).map(|c| planes.chunk_has_current(c, 0)).collect();
            let mut blocks = std::mem::take(&mut self.manifest.blocks[p]);
            self.write_part(p, &mut planes, &dirty, &mut blocks)?;
            self.manifest.blocks[p] = blocks;
            self.manifest.frontier[p] = true;
        }
        self.commit(&[], Vec::new())?.run()
    }

    /// The file of part `p`'s slot `slot`: both planes, interleaved.
    fn part_path(&self, p: usize, slot: u8) -> PathBuf {
        self.dir.join(format!("part-{p}.{}", ["a", "b"][slot as usize]))
    }

    /// A note if the level after `depth` (just counted, in `traffic`) is expected to write
    /// more than its folder's file system has free. The estimate is the last level's writes
    /// scaled by the frontier's growth: a level's updates (most of what it writes where most
    /// moves leave a part) grow with the states it expands, and no bound known before the
    /// search is close to them. A full disk stops the search at its last committed level
    /// all the same: the note says so before the hours are spent.
    fn short_of_space(&self, depth: usize, traffic: &Traffic) -> Option<Note> {
        let levels = &self.manifest.levels;
        let (expanded, next) = (*levels.get(depth.checked_sub(1)?)?, *levels.get(depth)?);
        let need = u128::from(traffic.written) * u128::from(next) / u128::from(expanded.max(1));
        let need = u64::try_from(need).unwrap_or(u64::MAX);
        let free = crate::util::free_space(&self.dir)?;
        (next > 0 && free < need).then(|| Note::DiskShort {
            level: depth + 1,
            need,
            free,
            path: self.dir.clone(),
        })
    }

    /// The updates for part `p` found while its level was expanded, for later in that level.
    fn early_path(&self, p: usize) -> PathBuf {
        self.dir.join(format!("early-{p}.updates"))
    }

    /// The updates for part `p` found while the level of depth `depth` was expanded, after
    /// `p` was written: applied in the next level. Named by their level, so that a level's
    /// new files never replace the files the committed manifest lists.
    fn late_path(&self, depth: usize, p: usize) -> PathBuf {
        self.dir.join(format!("late-{depth}-{p}.updates"))
    }

    /// The bins part `from` sent part `to` while the level of depth `depth` was expanded.
    fn bins_path(&self, depth: usize, to: usize, from: usize) -> PathBuf {
        self.dir.join(format!("bins-{depth}-{to}-{from}.bits"))
    }

    /// The late bin files the manifest lists, with the part they are for and their CRC-32
    /// and bytes: sent while expanding the level before the frontier.
    fn pending_bins(&self) -> impl Iterator<Item = (usize, PathBuf, (u32, u64))> + '_ {
        let depth = self.manifest.levels.len().wrapping_sub(1);
        self.manifest.late_bins.iter().enumerate().flat_map(move |(to, sent)| {
            sent.iter()
                .map(move |&(from, crc, bytes)| (to, self.bins_path(depth, to, from), (crc, bytes)))
        })
    }

    /// The late update files the manifest lists: found while expanding the level before
    /// the frontier.
    fn pending(&self) -> impl Iterator<Item = (usize, PathBuf)> + '_ {
        let depth = self.manifest.levels.len().wrapping_sub(1);
        (0..self.manifest.parts)
            .filter(|&p| self.manifest.late[p].is_some())
            .map(move |p| (p, self.late_path(depth, p)))
    }

    /// Refuses a folder missing a file its manifest lists, or whose late files have another
    /// length: found before a level is spent on it, and named.
    fn listed_files_present(&self) -> Result<(), EngineError> {
        let late = self
            .pending()
            .filter_map(|(p, path)| Some((path, self.manifest.late[p]?.1)));
        let bins = self.pending_bins().map(|(_, path, (_, bytes))| (path, bytes));
        for (path, bytes) in late.chain(bins) {
            let len = std::fs::metadata(&path).map_err(|e| unreadable(&path, &e))?.len();
            if len != bytes {
                return Err(damaged(
                    &path,
                    &format!("it holds {len} bytes, the manifest says {bytes}"),
                ));
            }
        }
        for (p, blocks) in self.manifest.blocks.iter().enumerate() {
            for slot in 0..2u8 {
                let path = self.part_path(p, slot);
                if blocks.iter().flatten().any(|&(s, _)| s == slot) {
                    std::fs::metadata(&path).map_err(|e| unreadable(&path, &e))?;
                }
            }
        }
        Ok(())
    }

    /// Refuses a manifest that does not list a late file of its last level: only the level
    /// that commits writes them (a level in progress writes the next depth's), so one
    /// unlisted means the manifest lost its entry, and the search would lose its ranks.
    fn no_unlisted_late_files(&self) -> Result<(), EngineError> {
        let Some(depth) = self.manifest.levels.len().checked_sub(1) else {
            return Ok(());
        };
        let listed: std::collections::HashSet<PathBuf> = (self.pending().map(|(_, path)| path))
            .chain(self.pending_bins().map(|(_, path, _)| path))
            .collect();
        let prefixes = [format!("late-{depth}-"), format!("bins-{depth}-")];
        let entries = std::fs::read_dir(&self.dir).map_err(|e| DiskError::io(&self.dir, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| DiskError::io(&self.dir, &e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if prefixes.iter().any(|prefix| name.starts_with(prefix)) && !listed.contains(&entry.path()) {
                let reason = format!("it does not list {name}, which its last level wrote");
                return Err(damaged(&self.dir.join(MANIFEST), &reason));
            }
        }
        Ok(())
    }

    /// Removes what an uncommitted level left: early update files, late ones the manifest does
    /// not list, temporaries.
    fn tidy(&self) -> Result<(), EngineError> {
        let mut pending: Vec<(usize, PathBuf)> = self.pending().collect();
        pending.extend(self.pending_bins().map(|(to, path, _)| (to, path)));
        let entries = std::fs::read_dir(&self.dir).map_err(|e| DiskError::io(&self.dir, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| DiskError::io(&self.dir, &e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let stale = is_ours(&name)
                && (name.starts_with("early-")
                    || name.ends_with(".tmp")
                    || ((name.starts_with("late-") || name.starts_with("bins-"))
                        && !pending
                            .iter()
                            .any(|(_, path)| path.file_name() == Some(&entry.file_name()))));
            if stale {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| DiskError::io(&path, &e))?;
            }
        }
        Ok(())
    }

    /// Expands the level of depth `depth`, part by part: returns what its turns gathered
    /// (with `total.stop` set if the search was stopped), its late update files closed, to
    /// be committed.
    fn level<P: SearchGraph>(
        &mut self,
        puzzle: &P,
        depth: usize,
        exchange: &mut dyn Exchange,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<Pass, EngineError> {
        let group = memory::disk_group(self.buffer_bytes, rayon::current_num_threads());
        let mut pass = Pass::new(&self.manifest, puzzle, depth, group);
        pass.updates.ranks = std::mem::take(&mut self.buffer);
        let turns = self.turns(puzzle, &mut pass, exchange, stopped);
        let done = match turns.and_then(|stop| self.end_level(&mut pass, exchange, stop)) {
            Ok(false) => self.close_late_files(&mut pass),
            Ok(true) => {
                pass.total.stop = true;
                Ok(())
            }
            Err(e) => Err(e),
        };
        self.buffer = std::mem::take(&mut pass.updates.ranks);
        self.buffer.clear();
        done.map(|()| pass)
    }

    /// Gives each part with work this level its turn, in order: its planes read (or taken
    /// as read beside the turn before), the ranks found for it applied, its frontier
    /// expanded, and the part written (beside the next turn when two parts fit in memory).
    /// Returns whether the search was stopped.
    fn turns<P: SearchGraph>(
        &self,
        puzzle: &P,
        pass: &mut Pass,
        exchange: &mut dyn Exchange,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<bool, EngineError> {
        let parts = self.manifest.parts;
        std::thread::scope(|s| {
            let mut pipe = Pipe::default();
            for p in 0..parts {
                if !self.needed(p, pass) {
                    continue;
                }
                if stopped() {
                    return Ok(true);
                }
                let planes = self.planes_for(p, &mut pipe, &mut pass.traffic)?;
                // While this part is expanded: the part before is written, then the next
                // part known to have a turn is read into its memory.
                let job = self.overlap.then(|| {
                    let (behind, spare) = (pipe.behind.take(), pipe.spare.take());
                    let next = (p + 1..parts).find(|&q| self.needed(q, pass));
                    s.spawn(move || self.write_then_load(behind, spare, next))
                });
                let Some(this_part) = self.work(puzzle, p, planes, pass, &mut *exchange, stopped)? else {
                    return Ok(true);
                };
                let turn = match job {
                    Some(job) => {
                        pipe.behind = Some(this_part);
                        job.join().unwrap_or_else(|e| std::panic::resume_unwind(e))?
                    }
                    // One part in memory at a time: this one is written now.
                    None => self.write_then_load(Some(this_part), None, None)?,
                };
                pass.account(&mut pipe, turn);
            }
            // The last part's turn ends with its write.
            let turn = self.write_then_load(pipe.behind.take(), None, None)?;
            let left = [pipe.spare.take(), pipe.ready.take().map(|(_, planes)| planes)];
            pass.account(&mut pipe, turn);
            for planes in [pipe.spare].into_iter().chain(left).flatten() {
                self.pool.lock().unwrap_or_else(|e| e.into_inner()).push(planes);
            }
            Ok(false)
        })
    }

    /// Ends the level on every process once this one's turns are over (`stop`: cut short):
    /// keeps what the others still send, and sums the level's counts over the processes.
    /// Returns whether any process was stopped.
    fn end_level(&self, pass: &mut Pass, exchange: &mut dyn Exchange, stop: bool) -> Result<bool, EngineError> {
        pass.total.stop |= stop;
        let mine = pass.total.encode();
        let mut router = PartUpdates {
            disk: self,
            p: self.manifest.parts,
            depth: pass.depth,
            updates: &mut pass.updates,
            traffic: &mut pass.traffic,
            exchange: None,
            failed: None,
        };
        let level = u32::try_from(pass.depth).unwrap_or(u32::MAX);
        let all = exchange.end_level(level, mine, &mut |ranks| router.receive(ranks))?;
        if let Some(e) = router.failed.take() {
            return Err(e);
        }
        pass.total = LevelCounts::decode_sum(&all, pass.classes)
            .ok_or_else(|| ExchangeError::Transport("a process sent malformed level counts".into()))?;
        Ok(pass.total.stop)
    }

    /// Whether part `q` is this process's: each process has a run of as many parts, in
    /// order (one process, all of them).
    fn mine(&self, q: usize) -> bool {
        self.process_of(q) == self.manifest.process
    }

    /// The process whose folder holds part `q` ([`processes_parts`]).
    fn process_of(&self, q: usize) -> usize {
        q / (self.manifest.parts / self.manifest.processes).max(1)
    }

    /// Whether part `q` has a turn this level, as far as is known now: the parts before it
    /// may still find ranks for it.
    fn needed(&self, q: usize, pass: &Pass) -> bool {
        self.manifest.frontier[q]
            || self.manifest.late[q].is_some()
            || !self.manifest.late_bins[q].is_empty()
            || pass.updates.early_files[q].is_some()
            || pass.updates.early[q]
            || !pass.early_bins[q].is_empty()
    }

    /// Part `p`'s planes: read ahead beside the last turn, or read now.
    fn planes_for(&self, p: usize, pipe: &mut Pipe, traffic: &mut Traffic) -> Result<Planes, EngineError> {
        match pipe.ready.take() {
            Some((q, planes)) if q == p => Ok(planes),
            // Read for a part whose turn was thought next: a part before it has received
            // ranks since.
            Some((_, planes)) => self.load_part(p, Some(planes), traffic),
            None => self.load_part(p, pipe.spare.take(), traffic),
        }
    }

    /// Part `p`'s turn, its planes in `planes`: the ranks found for it applied, its frontier
    /// expanded, its bins sent. Returns the part, to be written; `None` if the search was
    /// stopped.
    fn work<P: SearchGraph>(
        &self,
        puzzle: &P,
        p: usize,
        planes: Planes,
        pass: &mut Pass,
        exchange: &mut dyn Exchange,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Behind>, EngineError> {
        let depth = pass.depth;
        let chunks = planes.words.div_ceil(CHUNK_WORDS);
        let flags = || (0..chunks).map(|_| AtomicBool::new(false)).collect::<Vec<AtomicBool>>();
        // The chunks that received a rank of the next level, and of the level's own.
        let (touched, late) = (flags(), flags());
        self.receive_late(puzzle, p, &planes, &late, pass, stopped)?;
        self.receive_early(puzzle, p, &planes, &touched, pass, stopped)?;
        for (slot, &rank) in pass.watched.iter_mut().zip(&self.watch) {
            if slot.is_none() && planes.local(rank).is_some_and(|i| planes.is_current(i, depth)) {
                *slot = Some(depth);
            }
        }
        let active: Vec<usize> = (0..chunks)
            .into_par_iter()
            .filter(|&c| planes.chunk_has_current(c, depth))
            .collect();
        let turn = PartTurn {
            p,
            planes: &planes,
            touched: &touched,
            active: &active,
        };
        if self.expand_part(puzzle, turn, pass, exchange, stopped)? {
            return Ok(None);
        }
        self.send_bins(puzzle, p, &planes, &touched, pass, stopped)?;
        pass.frontier[p] = touched.iter().any(|t| t.load(Relaxed));
        // Changed: the level's chunks (retired), those that received a rank of the next
        // level, and those that received a late one (in the level's own plane).
        let mut dirty: Vec<bool> = (touched.iter().zip(&late))
            .map(|(t, l)| t.load(Relaxed) || l.load(Relaxed))
            .collect();
        for &c in &active {
            dirty[c] = true;
        }
        Ok(Some(Behind {
            p,
            planes,
            dirty,
            blocks: std::mem::take(&mut pass.blocks[p]),
        }))
    }

    /// Applies to part `p` the ranks the last level found for it after it was written
    /// (update file and bins): they are in the frontier, so they set the level's own plane,
    /// which is then written too where they fell (`late`).
    fn receive_late<P: SearchGraph>(
        &self,
        puzzle: &P,
        p: usize,
        planes: &Planes,
        late: &[AtomicBool],
        pass: &mut Pass,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), EngineError> {
        let before = pass.depth.wrapping_sub(1);
        if let Some((crc, bytes)) = self.manifest.late[p] {
            let path = self.late_path(before, p);
            self.apply_file(&path, Some((crc, bytes)), planes, before, late, &mut pass.traffic)?;
        }
        for &(from, crc, bytes) in &self.manifest.late_bins[p] {
            let path = self.bins_path(before, p, from);
            let sent = self.read_bins(&path, Some((crc, bytes)), &mut pass.traffic)?;
            let to = Marking {
                planes,
                depth: before,
                touched: late,
                stopped,
            };
            self.apply_bins(puzzle, &path, &sent, &to)?;
        }
        Ok(())
    }

    /// Applies to part `p` the ranks the parts before it found for it this level: written
    /// out, still in the buffer, and sent as bins. They mark the next level (`touched`).
    fn receive_early<P: SearchGraph>(
        &self,
        puzzle: &P,
        p: usize,
        planes: &Planes,
        touched: &[AtomicBool],
        pass: &mut Pass,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), EngineError> {
        let depth = pass.depth;
        if let Some(spill) = pass.updates.early_files[p].take() {
            let path = self.early_path(p);
            drop(spill.writer.into_inner().map_err(|e| DiskError::io(&path, e.error()))?);
            self.apply_file(&path, None, planes, depth, touched, &mut pass.traffic)?;
            std::fs::remove_file(&path).map_err(|e| DiskError::io(&path, &e))?;
        }
        if std::mem::take(&mut pass.updates.early[p]) {
            // This part's ranks moved to the buffer's end, marked, and dropped from it.
            let ranks = &mut pass.updates.ranks;
            let slice = self.partition.slice(p);
            let mut kept = 0;
            for i in 0..ranks.len() {
                if !slice.contains(&ranks[i]) {
                    ranks.swap(kept, i);
                    kept += 1;
                }
            }
            planes.deliver(&ranks[kept..], depth, None, touched);
            ranks.truncate(kept);
        }
        let next = Marking {
            planes,
            depth,
            touched,
            stopped,
        };
        for from in std::mem::take(&mut pass.early_bins[p]) {
            let path = self.bins_path(depth, p, from);
            let sent = self.read_bins(&path, None, &mut pass.traffic)?;
            self.apply_bins(puzzle, &path, &sent, &next)?;
            std::fs::remove_file(&path).map_err(|e| DiskError::io(&path, &e))?;
        }
        Ok(())
    }

    /// Expands part `p`'s frontier (its chunks `active`), a group of chunks at a time: the
    /// predecessors inside the part are marked in place, the others kept as updates for
    /// their parts ([`PartUpdates`]), written out when the buffers are full. Returns
    /// whether the search was stopped.
    fn expand_part<P: SearchGraph>(
        &self,
        puzzle: &P,
        turn: PartTurn,
        pass: &mut Pass,
        exchange: &mut dyn Exchange,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<bool, EngineError> {
        let PartTurn {
            p,
            planes,
            touched,
            active,
        } = turn;
        let (depth, classes) = (pass.depth, pass.classes);
        let bottom_up = self.bottom_up(puzzle, turn, pass, stopped);
        let expansion = Expansion {
            planes,
            touched,
            adjacent: pass.adjacent.as_ref(),
            partition: self.partition,
            me: p,
            classes,
            predecessors: !bottom_up,
            bins: self.bins.as_ref(),
        };
        let mut store = PartUpdates {
            disk: self,
            p,
            depth,
            updates: &mut pass.updates,
            traffic: &mut pass.traffic,
            exchange: Some(exchange),
            failed: None,
        };
        let expanded = level::expand_chunks(
            puzzle,
            &expansion,
            active,
            pass.group,
            depth,
            (None, None),
            stopped,
            &mut store,
        )?;
        let stop = expanded.stop;
        pass.total = std::mem::take(&mut pass.total).merge(expanded);
        Ok(stop)
    }

    /// Finds the successor of a dense level of part `p` bottom-up, as in memory, where the
    /// part is left by the bins' move alone, and sends that move's images from the level's
    /// side; returns whether it did (the expansion then generates no predecessors).
    fn bottom_up<P: SearchGraph>(
        &self,
        puzzle: &P,
        turn: PartTurn,
        pass: &mut Pass,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> bool {
        let PartTurn {
            p,
            planes,
            touched,
            active,
        } = turn;
        let (depth, classes) = (pass.depth, pass.classes);
        let pays = bottom_up::allowed(puzzle) && {
            let (level, unseen) = planes.census(depth);
            bottom_up::pays(level, unseen)
        };
        let Some(set) = self.bins.as_ref().filter(|_| pays) else {
            return false;
        };
        let sent = active.par_iter().map(|&c| match stopped() {
            true => LevelCounts::new(classes),
            false => bins::send_images(puzzle, planes, set, p, c, depth, classes),
        });
        let chunks = planes.words.div_ceil(CHUNK_WORDS);
        let found = (0..chunks).into_par_iter().map(|c| match stopped() {
            true => LevelCounts::new(classes),
            false => bottom_up::adopt_chunk(puzzle, planes, c, depth, touched, None, classes),
        });
        let tallies: Vec<LevelCounts> = sent.chain(found).collect();
        for t in tallies {
            pass.total = std::mem::take(&mut pass.total).merge(t);
        }
        true
    }

    /// Sends the bins part `p` filled while it was expanded: its own marked now, those of
    /// the parts still to come this level kept for their turns, the others written for the
    /// next level (and synced with it).
    fn send_bins<P: SearchGraph>(
        &self,
        puzzle: &P,
        p: usize,
        planes: &Planes,
        touched: &[AtomicBool],
        pass: &mut Pass,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), EngineError> {
        let Some(set) = &self.bins else {
            return Ok(());
        };
        for q in 0..self.manifest.parts {
            let sent = set.take(p, set.groups_of(q));
            if sent.is_empty() {
                continue;
            }
            let path = self.bins_path(pass.depth, q, p);
            if q == p {
                let next = Marking {
                    planes,
                    depth: pass.depth,
                    touched,
                    stopped,
                };
                self.apply_bins(puzzle, &path, &sent, &next)?;
                continue;
            }
            std::fs::write(&path, &sent).map_err(|e| DiskError::io(&path, &e))?;
            pass.traffic.written += sent.len() as u64;
            if q > p {
                pass.early_bins[q].push(p);
            } else {
                self.note_written(path);
                pass.sent_late[q].push((p, crc32fast::hash(&sent), sent.len() as u64));
            }
        }
        Ok(())
    }

    /// Writes the late updates still in the buffers and closes every late file, before the
    /// commit: notes each part's late file (CRC-32 and bytes), and puts its part in the
    /// frontier.
    fn close_late_files(&self, pass: &mut Pass) -> Result<(), EngineError> {
        let (parts, depth) = (self.manifest.parts, pass.depth);
        // Every part has had its turn: what the buffer holds is for the next level.
        self.spill(&mut pass.updates, parts, depth, &mut pass.traffic)?;
        for (p, spill) in pass.updates.late_files.iter_mut().enumerate() {
            if let Some(spill) = spill.take() {
                let path = self.late_path(depth, p);
                spill.writer.into_inner().map_err(|e| DiskError::io(&path, e.error()))?;
                pass.late[p] = Some((spill.crc.finalize(), spill.bytes));
                pass.frontier[p] = true;
            }
        }
        Ok(())
    }

    /// Commits the level that `pass` expanded, the result so far taken from [`Disk::run`]:
    /// the frontier committed is the next level. What the commit supersedes is freed after
    /// it: the blocks' old versions, and the late files of the level before, applied in
    /// this one.
    fn commit_level(&mut self, pass: &mut Pass) -> Result<(), EngineError> {
        // The level before must be in place before this one's manifest replaces it.
        self.settle()?;
        for (q, sent) in pass.sent_late.iter().enumerate() {
            pass.frontier[q] |= !sent.is_empty();
        }
        let mut applied: Vec<PathBuf> = self.pending().map(|(_, path)| path).collect();
        applied.extend(self.pending_bins().map(|(_, path, _)| path));
        let superseded = superseded(&self.manifest.blocks, &pass.blocks);
        let shared = self.manifest.processes > 1;
        let previous = shared.then(|| serde_json::to_vec(&self.manifest.sealed()).unwrap_or_default());
        let m = &mut self.manifest;
        let run = &self.run;
        m.levels.clone_from(&run.levels);
        m.classes.clone_from(&run.classes);
        m.runs.clone_from(&run.runs);
        m.reached_by_class.clone_from(&run.reached_by_class);
        m.antipodes.clone_from(&run.antipodes);
        m.watched.clone_from(&run.watched);
        m.blocks = std::mem::take(&mut pass.blocks);
        m.frontier = std::mem::take(&mut pass.frontier);
        m.late = std::mem::take(&mut pass.late);
        m.late_bins = std::mem::take(&mut pass.sent_late);
        let mut commit = self.commit(&superseded, applied)?;
        if shared {
            // Committed now, and let go of only once every process has (`OnDisk::keep`).
            commit.previous = previous;
            self.deferred = Some(std::mem::take(&mut commit.frees));
            return commit.run();
        }
        let pending = commit.spawn(&superseded)?;
        *self.pending.lock().unwrap_or_else(|e| e.into_inner()) = Some(pending);
        Ok(())
    }

    /// Waits for the last level's commit, if under way; its error, if it failed.
    fn settle(&self) -> Result<(), EngineError> {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner()).take();
        pending.map_or(Ok(()), Pending::wait)
    }

    /// Writes the part whose turn is over, if any, then reads part `next` into its memory (or
    /// `spare`'s), if any: run beside the next part's expansion when two parts fit in memory.
    fn write_then_load(
        &self,
        behind: Option<Behind>,
        spare: Option<Planes>,
        next: Option<usize>,
    ) -> Result<Turn, EngineError> {
        let mut spare = spare;
        let mut written = None;
        if let Some(mut b) = behind {
            let bytes = self.write_part(b.p, &mut b.planes, &b.dirty, &mut b.blocks)?;
            written = Some((b.p, b.blocks, bytes));
            spare = Some(b.planes);
        }
        let mut traffic = Traffic::default();
        let loaded = match next {
            Some(q) => Some((q, self.load_part(q, spare.take(), &mut traffic)?)),
            None => None,
        };
        Ok(Turn {
            written,
            loaded,
            spare,
            read: traffic.read,
        })
    }

    /// Writes the update buffer out, sorted and without repeats, each part's ranks to its
    /// file: early for the parts after `p` (the part under way), late for the others. The
    /// buffer keeps its memory.
    fn spill(&self, updates: &mut Updates, p: usize, depth: usize, traffic: &mut Traffic) -> Result<(), EngineError> {
        let ranks = &mut updates.ranks;
        ranks.par_sort_unstable();
        ranks.dedup();
        let mut rest = &ranks[..];
        while let Some(&first) = rest.first() {
            let q = self.partition.owner(first);
            let end = rest.partition_point(|&r| r < self.partition.slice(q).end);
            let (path, files) = match q > p {
                true => (self.early_path(q), &mut updates.early_files),
                false => (self.late_path(depth, q), &mut updates.late_files),
            };
            self.append(&mut files[q], &path, q, &rest[..end], traffic)?;
            rest = &rest[end..];
        }
        ranks.clear();
        updates.early.fill(false);
        Ok(())
    }

    /// Appends `ranks` (of part `p`, sorted) to the update file `path`, creating it.
    fn append(
        &self,
        spill: &mut Option<Spill>,
        path: &Path,
        p: usize,
        ranks: &[u64],
        traffic: &mut Traffic,
    ) -> Result<(), EngineError> {
        let io = |e: io::Error| DiskError::io(path, &e);
        if spill.is_none() {
            let file = create_new(path).map_err(io)?;
            self.note_written(path.to_path_buf());
            let share = memory::update_writer_bytes(self.buffer_bytes, self.manifest.parts);
            *spill = Some(Spill {
                writer: BufWriter::with_capacity(share.clamp(1 << 12, BLOCK as u64) as usize, file),
                crc: crc32fast::Hasher::new(),
                bytes: 0,
            });
        }
        let Some(spill) = spill.as_mut() else {
            return Ok(());
        };
        let start = self.partition.slice(p).start;
        // Encoded a block at a time, not as a copy of the whole buffer.
        let mut bytes = Vec::with_capacity(ENCODE_RANKS * self.width);
        for block in ranks.chunks(ENCODE_RANKS) {
            bytes.clear();
            for &rank in block {
                let offset = rank - start;
                bytes.extend_from_slice(&offset.to_le_bytes()[..self.width]);
            }
            spill.writer.write_all(&bytes).map_err(io)?;
            spill.crc.update(&bytes);
            spill.bytes += bytes.len() as u64;
            traffic.written += bytes.len() as u64;
        }
        Ok(())
    }

    /// Marks as in the level after `depth` the unseen ranks of the update file `path` (for
    /// `planes`' part), checking its CRC-32 and length against `expected` if given.
    fn apply_file(
        &self,
        path: &Path,
        expected: Option<(u32, u64)>,
        planes: &Planes,
        depth: usize,
        touched: &[AtomicBool],
        traffic: &mut Traffic,
    ) -> Result<(), EngineError> {
        let io = |e: io::Error| DiskError::io(path, &e);
        let file = open_read(path).map_err(|e| unreadable(path, &e))?;
        let mut reader = BufReader::with_capacity(BLOCK, file);
        let mut crc = crc32fast::Hasher::new();
        let mut block = vec![0u8; BLOCK / self.width * self.width];
        let mut ranks = Vec::with_capacity(block.len() / self.width);
        let mut bytes = 0u64;
        loop {
            let n = read_full(&mut reader, &mut block).map_err(io)?;
            if n == 0 {
                break;
            }
            if n % self.width != 0 {
                return Err(damaged(path, "its length is not a whole number of ranks"));
            }
            crc.update(&block[..n]);
            bytes += n as u64;
            let width = self.width;
            (block[..n].par_chunks_exact(width))
                .map(|raw| {
                    let mut word = [0u8; 8];
                    word[..width].copy_from_slice(raw);
                    planes.slice.start + u64::from_le_bytes(word)
                })
                .collect_into_vec(&mut ranks);
            if ranks.iter().any(|&r| planes.local(r).is_none()) {
                return Err(damaged(path, "it holds a rank outside its part"));
            }
            planes.deliver(&ranks, depth, None, touched);
        }
        traffic.read += bytes;
        if let Some((want, len)) = expected
            && (crc.finalize() != want || bytes != len)
        {
            return Err(damaged(path, "its CRC-32 or length differs from the manifest's"));
        }
        Ok(())
    }

    /// The bytes of the bin file `path`, checked against the CRC-32 and length `expected`
    /// if given.
    fn read_bins(
        &self,
        path: &Path,
        expected: Option<(u32, u64)>,
        traffic: &mut Traffic,
    ) -> Result<Vec<u8>, EngineError> {
        let sent = std::fs::read(path).map_err(|e| unreadable(path, &e))?;
        traffic.read += sent.len() as u64;
        if let Some((crc, bytes)) = expected
            && (crc32fast::hash(&sent) != crc || sent.len() as u64 != bytes)
        {
            return Err(damaged(path, "its CRC-32 or length differs from the manifest's"));
        }
        Ok(sent)
    }

    /// Marks the unseen ranks of the bins `sent` (the records of the bin file `path`, see
    /// [`bins`]) as `to` says.
    fn apply_bins<P: SearchGraph>(
        &self,
        puzzle: &P,
        path: &Path,
        sent: &[u8],
        to: &Marking,
    ) -> Result<(), EngineError> {
        let words: Vec<u64> = sent
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
            .collect();
        if sent.len() % 8 != 0 {
            return Err(damaged(path, "its length is not a whole number of words"));
        }
        let mut rest = &words[..];
        while let [bin, kind, count, tail @ ..] = rest {
            let count = usize::try_from(*count).unwrap_or(usize::MAX);
            if count > tail.len() || (*kind != DENSE && *kind != SPARSE) {
                return Err(damaged(path, "it holds a record cut short or of no known kind"));
            }
            let foreign = bins::deliver(puzzle, to, *bin, *kind == SPARSE, &tail[..count]);
            if foreign > 0 {
                return Err(damaged(path, "it holds an index of no rank of its part"));
            }
            rest = &tail[count..];
        }
        if !rest.is_empty() {
            return Err(damaged(path, "it ends within a record's header"));
        }
        Ok(())
    }

    /// Part `p`'s planes as last committed (all clear where never written), each block
    /// checked against its CRC-32; the blocks are read and checked in parallel, each into its
    /// own run of the planes.
    fn load_part(&self, p: usize, spare: Option<Planes>, traffic: &mut Traffic) -> Result<Planes, EngineError> {
        // On the I/O threads, which may be working beside the expansion's.
        self.io.install(|| {
            let mut planes = self.free_planes(p, spare)?;
            let files = self.open_part(p)?;
            let entries = &self.manifest.blocks[p];
            // A block's run of the interleaved planes is the block as its file holds it.
            let bytes = (planes.marks.words_mut().par_chunks_mut(2 * BLOCK_RANK_WORDS))
                .zip(entries.par_iter())
                .enumerate()
                .map(|(b, (words, &entry))| self.load_block(p, b, entry, &files, words))
                .collect::<Result<Vec<u64>, EngineError>>()?;
            traffic.read += bytes.iter().sum::<u64>();
            Ok(planes)
        })
    }

    /// Planes for part `p` to be read into: `spare`, or the pool's, if of its size (every
    /// word is then written by the read), else new ones.
    fn free_planes(&self, p: usize, spare: Option<Planes>) -> Result<Planes, EngineError> {
        let slice = self.partition.slice(p);
        let spare = spare.or_else(|| self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop());
        Ok(match spare {
            Some(mut planes) if planes.len() == slice.end - slice.start => {
                planes.reuse(slice);
                planes
            }
            _ => Planes::try_new(slice)?,
        })
    }

    /// The files of part `p`'s committed blocks, by slot (`None` where no block is in that
    /// slot).
    fn open_part(&self, p: usize) -> Result<[Option<File>; 2], EngineError> {
        let mut files: [Option<File>; 2] = Default::default();
        for slot in 0..2u8 {
            if self.manifest.blocks[p].iter().flatten().any(|&(s, _)| s == slot) {
                let path = self.part_path(p, slot);
                files[slot as usize] = Some(open_read(&path).map_err(|e| unreadable(&path, &e))?);
            }
        }
        Ok(files)
    }

    /// Reads block `b` of part `p` (its committed version `entry`, in `files`) into `words`,
    /// its run of the interleaved planes, checked against its CRC-32; returns the bytes read.
    /// Straight into the planes, whose bytes are the file's ([`file_order`]), a piece at a
    /// time, each checked while it is in the cache: no buffer and no copy.
    fn load_block(
        &self,
        p: usize,
        b: usize,
        entry: Block,
        files: &[Option<File>; 2],
        words: &mut [AtomicU64],
    ) -> Result<u64, EngineError> {
        let Some((slot, want)) = entry else {
            words.iter_mut().for_each(|w| *w.get_mut() = 0);
            return Ok(0);
        };
        let path = self.part_path(p, slot);
        let Some(file) = files[slot as usize].as_ref() else {
            return Err(damaged(&path, "it cannot be opened"));
        };
        let mut crc = crc32fast::Hasher::new();
        for (i, piece) in words.chunks_mut(PIECE / 8).enumerate() {
            let bytes = piece.as_mut_bytes();
            let offset = (b * PART_BLOCK + i * PIECE) as u64;
            match std::os::unix::fs::FileExt::read_exact_at(file, bytes, offset) {
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Err(damaged(&path, &format!("it ends before block {b}")));
                }
                other => other.map_err(|e| DiskError::io(&path, &e))?,
            }
            crc.update(bytes);
            file_order(piece);
        }
        if crc.finalize() != want {
            return Err(damaged(
                &path,
                &format!("block {b}'s CRC-32 differs from the manifest's"),
            ));
        }
        Ok(words.len() as u64 * 8)
    }

    /// Writes the blocks of part `p`'s `planes` holding a chunk `dirty` flags, both planes of
    /// each as they are in memory, each to the slot its committed version (in `blocks`) is
    /// not in, in parallel, and notes its slot and CRC-32 there; returns the bytes written.
    /// Synced with the rest of the level at the commit.
    fn write_part(
        &self,
        p: usize,
        planes: &mut Planes,
        dirty: &[bool],
        blocks: &mut [Block],
    ) -> Result<u64, EngineError> {
        let changed = |b: usize| {
            dirty[b * BLOCK_CHUNKS..dirty.len().min((b + 1) * BLOCK_CHUNKS)]
                .iter()
                .any(|&d| d)
        };
        let target = |entry: &Block| entry.map_or(0, |(s, _)| 1 - s);
        let frees = |c: &Pending| (0..blocks.len()).any(|b| changed(b) && c.frees(p, target(&blocks[b]), b));
        if self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(frees)
        {
            // A slot the last level's commit frees: written once that is done.
            self.settle()?;
        }
        let targets: Vec<u8> = (0..blocks.len())
            .filter(|&b| changed(b))
            .map(|b| target(&blocks[b]))
            .collect();
        let files = self.open_slots(p, &targets)?;
        let written = self.io.install(|| {
            (planes.marks.words_mut().par_chunks_mut(2 * BLOCK_RANK_WORDS))
                .zip(blocks.par_iter_mut())
                .enumerate()
                .filter(|(b, _)| changed(*b))
                .map(|(b, (words, entry))| {
                    let slot = target(entry);
                    let Some(file) = files[slot as usize].as_ref() else {
                        return Ok(0);
                    };
                    *entry = Some((slot, self.write_block(file, &self.part_path(p, slot), b, words)?));
                    Ok(words.len() as u64 * 8)
                })
                .collect::<Result<Vec<u64>, EngineError>>()
        })?;
        Ok(written.iter().sum())
    }

    /// Part `p`'s files of the slots `targets` names, opened for writing (created if new),
    /// and noted for the commit to sync.
    fn open_slots(&self, p: usize, targets: &[u8]) -> Result<[Option<File>; 2], EngineError> {
        let mut files: [Option<File>; 2] = [None, None];
        for slot in 0..2u8 {
            if targets.contains(&slot) {
                let path = self.part_path(p, slot);
                let file = no_follow().write(true).create(true).truncate(false).open(&path);
                files[slot as usize] = Some(file.map_err(|e| DiskError::io(&path, &e))?);
                self.note_written(path);
            }
        }
        Ok(files)
    }

    /// Writes `words`, block `b`'s run of the interleaved planes, to `file` (at `path`) as
    /// they are; returns their CRC-32. Straight from the planes ([`file_order`]), a piece at
    /// a time, summed and written while it is in the cache.
    fn write_block(&self, file: &File, path: &Path, b: usize, words: &mut [AtomicU64]) -> Result<u32, EngineError> {
        let mut crc = crc32fast::Hasher::new();
        for (i, piece) in words.chunks_mut(PIECE / 8).enumerate() {
            file_order(piece);
            let bytes = piece.as_mut_bytes();
            crc.update(bytes);
            let offset = (b * PART_BLOCK + i * PIECE) as u64;
            let written = std::os::unix::fs::FileExt::write_all_at(file, bytes, offset);
            file_order(piece);
            written.map_err(|e| DiskError::io(path, &e))?;
        }
        Ok(crc.finalize())
    }

    /// Notes that `path` was written, for the commit to sync.
    fn note_written(&self, path: PathBuf) {
        self.written.lock().unwrap_or_else(|e| e.into_inner()).insert(path);
    }

    /// The commit of the manifest as it is now: the files written since the last commit
    /// synced before it, the blocks `superseded` freed and the update files `applied` removed
    /// after it.
    fn commit(&self, superseded: &[Superseded], applied: Vec<PathBuf>) -> Result<Commit, EngineError> {
        let written = std::mem::take(&mut *self.written.lock().unwrap_or_else(|e| e.into_inner()));
        let temporary = self.dir.join(format!("{MANIFEST}.tmp"));
        let manifest =
            serde_json::to_vec(&self.manifest.sealed()).map_err(|e| DiskError::io(&temporary, &io::Error::other(e)))?;
        let path = |p, slot| self.part_path(p, slot);
        Ok(Commit {
            dir: self.dir.clone(),
            written,
            manifest,
            previous: None,
            frees: commit::Frees {
                holes: commit::holes(superseded, PART_BLOCK as u64, path),
                applied,
            },
        })
    }
}

impl Drop for Disk {
    /// A search that ends in an error still lets the last level's commit finish (it is
    /// whole on its own), while the folder is locked.
    fn drop(&mut self) {
        let _ = self.settle();
    }
}

/// Swaps `words` between the planes' byte order and the files' (little-endian, so that a
/// folder reads the same on any machine): nothing to do on a little-endian machine, where
/// a block's bytes are read and written straight to and from the planes.
fn file_order(words: &mut [AtomicU64]) {
    if cfg!(target_endian = "big") {
        words.iter_mut().for_each(|w| *w.get_mut() = w.get_mut().swap_bytes());
    }
}

/// Blocks of part `p` (words of ranks of both planes, 8 bytes each).
fn blocks_of(partition: &Partition, p: usize) -> usize {
    let slice = partition.slice(p);
    (slice.end - slice.start)
        .div_ceil(WORD_BITS)
        .div_ceil(BLOCK_RANK_WORDS as u64) as usize
}

/// The blocks whose committed version moves from `before` to `after` to the other slot:
/// (part, the slot left, block).
fn superseded(before: &[Vec<Block>], after: &[Vec<Block>]) -> Vec<Superseded> {
    let mut left = Vec::new();
    for (p, (old, new)) in before.iter().zip(after).enumerate() {
        for (b, (old, new)) in old.iter().zip(new).enumerate() {
            if let (Some((from, _)), Some((to, _))) = (old, new)
                && from != to
            {
                left.push((p, *from, b));
            }
        }
    }
    left
}

/// Reads until `buffer` is full or the file ends; the bytes read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buffer.len() {
        match reader.read(&mut buffer[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A file the manifest lists that cannot be read: damaged if it is missing (the folder is
/// then not the one the manifest describes), else the system's error.
fn unreadable(path: &Path, e: &io::Error) -> EngineError {
    if e.kind() == io::ErrorKind::NotFound {
        damaged(path, "it is missing, though the manifest lists it")
    } else {
        DiskError::io(path, e).into()
    }
}

fn damaged(path: &Path, reason: &str) -> EngineError {
    DiskError::Damaged {
        path: path.display().to_string(),
        reason: reason.into(),
    }
    .into()
}

/// What the folder `dir` holds for the search `id` of `identity` over `states` ranks: the
/// parts of its committed levels, if it has some (a resumed search keeps its parts whatever
/// `--memory` is now); refused if it holds another search, or files that are not a search's.
pub fn check(dir: &Path, id: &str, identity: &Identity, states: u64) -> Result<Option<(usize, usize)>, EngineError> {
    if !dir.exists() {
        return Ok(None);
    }
    Ok(committed(dir, id, identity, states)?.map(|m| (m.parts, m.levels.len())))
}

/// The folder's committed manifest, checked to be this search's; `None` for a folder
/// without one, which must then hold nothing but a search's files.
fn committed(dir: &Path, id: &str, identity: &Identity, states: u64) -> Result<Option<Manifest>, EngineError> {
    let foreign = |reason: String| DiskError::Foreign {
        path: dir.display().to_string(),
        reason,
    };
    if let Some(name) = foreign_entry(dir)? {
        return Err(foreign(format!(
            "it holds {name}; a --disk folder must be empty or hold only this search's files, so that nothing of yours is ever written over or removed"
        ))
        .into());
    }
    let Some(m) = read_manifest(dir, MANIFEST)? else {
        return Ok(None);
    };
    let path = dir.join(MANIFEST);
    let theirs =
        Identity::decode(&m.identity).map_err(|e| damaged(&path, &format!("its identity is unreadable: {e}")))?;
    if let Some(difference) = difference(&m, &theirs, id, identity, states) {
        return Err(foreign(difference).into());
    }
    Ok(Some(m))
}

/// The manifest this process goes on from: its folder's, or a new one whose parts, for a
/// search shared by the processes of `exchange`, are as many whole runs as processes (the
/// same `--memory` on each cuts the same parts). Processes sharing a search first agree
/// where to resume ([`agree_on_level`]).
fn resumed<P: SearchGraph>(
    dir: &Path,
    puzzle: &P,
    config: &Config,
    (id, identity): (&str, &Identity),
    watched: usize,
    exchange: &mut dyn Exchange,
) -> Result<Manifest, EngineError> {
    let (processes, me, states) = (exchange.partition().processes(), exchange.index(), puzzle.states());
    let foreign = |reason: String| DiskError::Foreign {
        path: dir.display().to_string(),
        reason,
    };
    let manifest = match committed(dir, id, identity, states)? {
        Some(m) => m,
        None => {
            let parts = shared_partition(states, config.memory, puzzle.bins(), &puzzle.locality(), processes);
            let parts = parts.processes();
            let mut m = Manifest::empty(id, identity, states, parts, puzzle.class_count(), watched);
            (m.processes, m.process) = (processes, me);
            m
        }
    };
    if manifest.reached_by_class.len() != puzzle.class_count() || manifest.watched.len() != watched {
        return Err(foreign("it holds this search with other options".into()).into());
    }
    if (manifest.processes, manifest.process) != (processes, me) {
        let (theirs, of) = (manifest.process, manifest.processes);
        let reason =
            format!("it holds process {theirs} of {of}'s share of this search, not process {me} of {processes}'s");
        return Err(foreign(reason).into());
    }
    match processes {
        1 => Ok(manifest),
        _ => agree_on_level(dir, manifest, exchange),
    }
}

/// Where the processes of a search on disk resume: at the least level every process has
/// committed, so that the same commands run again go on together after any of them was
/// killed at any moment.
///
/// What makes it possible (the commit across processes, [`OnDisk::keep`]): each process
/// commits a level on its own, keeping the manifest before it ([`PREVIOUS`]) and all that
/// manifest names (block versions, update files), then waits at a barrier until every
/// process has committed; only then is the level before let go. So no process is ever
/// more than one committed level ahead of another, and one that is ahead goes back to its
/// previous manifest, which is whole. A process killed at any phase loses at most the level
/// under way, on every process.
fn agree_on_level(dir: &Path, current: Manifest, exchange: &mut dyn Exchange) -> Result<Manifest, EngineError> {
    let previous = read_manifest(dir, PREVIOUS)?.filter(|m| {
        (&m.id, &m.identity, m.states, m.parts, m.processes, m.process)
            == (
                &current.id,
                &current.identity,
                current.states,
                current.parts,
                current.processes,
                current.process,
            )
    });
    let levels = |m: &Manifest| m.levels.len() as u64;
    let parts = current.parts as u64;
    let mine = vec![levels(&current), previous.as_ref().map_or(u64::MAX, levels), parts];
    let all = exchange.agree(mine)?;
    let path = dir.join(MANIFEST);
    if all.iter().any(|theirs| theirs.get(2) != Some(&parts)) {
        let reason = format!(
            "it cuts the search into {parts} parts, another process's folder into other parts: give every process the same --memory"
        );
        return Err(damaged(&path, &reason));
    }
    let least = all
        .iter()
        .filter_map(|theirs| theirs.first().copied())
        .min()
        .unwrap_or(0);
    if levels(&current) <= least {
        return Ok(current);
    }
    match previous.filter(|m| levels(m) == least) {
        Some(m) => {
            let from = dir.join(PREVIOUS);
            std::fs::rename(&from, &path).map_err(|e| DiskError::io(&from, &e))?;
            commit::sync_dir(dir)?;
            Ok(m)
        }
        None => Err(damaged(
            &path,
            &format!(
                "it has {} levels committed, another process {least}, and the manifest of {least} levels is not kept",
                levels(&current)
            ),
        )),
    }
}

/// What makes the search of manifest `m` (of identity `theirs`) another than the search `id`
/// of `identity` over `states` ranks, if anything: the first of its id, the identity's
/// parts that differ, its size.
fn difference(m: &Manifest, theirs: &Identity, id: &str, identity: &Identity, states: u64) -> Option<String> {
    if m.id != id {
        return Some(format!("it holds the search of {}, not of {id}", m.id));
    }
    let parts = theirs.differences(identity);
    if !parts.is_empty() {
        return Some(format!(
            "it holds another search of {id}, which differs in {}",
            crate::identity::describe(&parts)
        ));
    }
    (m.states != states).then(|| format!("it holds a search of {id} over {} ranks, not {states}", m.states))
}

/// The committed manifest of the folder named `name`, if there is one, checked whole
/// ([`parse`]).
fn read_manifest(dir: &Path, name: &str) -> Result<Option<Manifest>, EngineError> {
    let path = dir.join(name);
    match std::fs::read(&path) {
        Ok(bytes) => parse(&bytes).map(Some).map_err(|e| match e {
            Unusable::Format(found) => DiskError::Format {
                path: path.display().to_string(),
                found,
                reads: FORMAT,
            }
            .into(),
            Unusable::Damaged(reason) => damaged(&path, &reason),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DiskError::io(&path, &e).into()),
    }
}

/// Why the bytes of a manifest cannot be resumed.
#[derive(Debug)]
enum Unusable {
    /// It says it is of another format.
    Format(u32),
    /// It is not JSON of a manifest, its CRC-32 differs, or it contradicts itself.
    Damaged(String),
}

/// The manifest in `bytes`: of this format, with its CRC-32, and consistent
/// ([`Manifest::inconsistency`]), so that nothing is allocated or indexed from a number it
/// holds before it is checked.
fn parse(bytes: &[u8]) -> Result<Manifest, Unusable> {
    /// The one field read first: a manifest of another format has other fields.
    #[derive(Deserialize)]
    struct Header {
        format: u32,
    }
    let unreadable = |e: serde_json::Error| Unusable::Damaged(format!("unreadable: {e}"));
    let header: Header = serde_json::from_slice(bytes).map_err(unreadable)?;
    if header.format != FORMAT {
        return Err(Unusable::Format(header.format));
    }
    let m: Manifest = serde_json::from_slice(bytes).map_err(unreadable)?;
    if m.sealed().crc32 != m.crc32 {
        return Err(Unusable::Damaged("its CRC-32 differs from its contents'".into()));
    }
    match m.inconsistency() {
        Some(reason) => Err(Unusable::Damaged(reason)),
        None => Ok(m),
    }
}

/// Reads a manifest as a resumed search does, without a folder: its parts and committed
/// levels, or the one line saying why it cannot be resumed. For the fuzz target: whatever
/// the bytes, an answer and never a panic.
pub fn parse_manifest(bytes: &[u8]) -> Result<(usize, usize), String> {
    parse(bytes).map(|m| (m.parts, m.levels.len())).map_err(|e| match e {
        Unusable::Format(found) => format!("format {found}, not {FORMAT}"),
        Unusable::Damaged(reason) => reason,
    })
}

impl Manifest {
    /// The manifest of a search not begun: `id` of `identity` over `states` ranks cut into
    /// `parts`, with `classes` invariant classes and `watched` ranks; no block written.
    fn empty(id: &str, identity: &Identity, states: u64, parts: usize, classes: usize, watched: usize) -> Self {
        Manifest {
            format: FORMAT,
            id: id.into(),
            identity: identity.encode(),
            states,
            parts,
            levels: Vec::new(),
            classes: Vec::new(),
            runs: Vec::new(),
            reached_by_class: vec![0; classes],
            antipodes: Vec::new(),
            watched: vec![None; watched],
            blocks: (0..parts)
                .map(|p| vec![None; blocks_of(&Partition::new(states, parts), p)])
                .collect(),
            frontier: vec![false; parts],
            late: vec![None; parts],
            late_bins: vec![Vec::new(); parts],
            processes: 1,
            process: 0,
            crc32: 0,
        }
    }

    /// The manifest with its CRC-32: that of its JSON with 0 in its place.
    fn sealed(&self) -> Manifest {
        let mut m = Manifest {
            crc32: 0,
            ..self.clone()
        };
        // Serialising plain numbers, strings and lists cannot fail; were it to, the CRC-32
        // of nothing would not match a written one, and the manifest would be refused.
        m.crc32 = crc32fast::hash(&serde_json::to_vec(&m).unwrap_or_default());
        m
    }

    /// What in the manifest contradicts the rest, if anything: its lists' lengths against
    /// its parts and their blocks, its counts against its states, the distances and ranks it
    /// names, and the late files against its levels.
    fn inconsistency(&self) -> Option<String> {
        self.shape().or_else(|| self.counts()).or_else(|| self.late_files())
    }

    /// The parts, and every list per part, of the lengths the partition gives.
    fn shape(&self) -> Option<String> {
        let words = self.states.div_ceil(WORD_BITS).max(1);
        // Shared by processes, the parts are rounded up to whole runs, one a process at least.
        let processes = self.processes.max(1) as u64;
        if self.parts == 0 || self.parts as u64 > words.max(processes).next_multiple_of(processes) {
            return Some(format!("it cuts {} ranks into {} parts", self.states, self.parts));
        }
        let lists = [
            ("blocks", self.blocks.len()),
            ("frontier", self.frontier.len()),
            ("late", self.late.len()),
            ("late_bins", self.late_bins.len()),
        ];
        if let Some((name, len)) = lists.into_iter().find(|&(_, len)| len != self.parts) {
            return Some(format!("its {name} has {len} entries for {} parts", self.parts));
        }
        if self.processes == 0 || self.process >= self.processes || self.parts % self.processes != 0 {
            let (process, processes, parts) = (self.process, self.processes, self.parts);
            return Some(format!(
                "it is process {process} of {processes} of a search in {parts} parts"
            ));
        }
        let partition = Partition::new(self.states, self.parts);
        for (p, blocks) in self.blocks.iter().enumerate() {
            let want = blocks_of(&partition, p);
            if blocks.len() != want {
                return Some(format!("part {p} has {} blocks, not {want}", blocks.len()));
            }
            if blocks.iter().flatten().any(|&(slot, _)| slot > 1) {
                return Some(format!("part {p} has a block in a slot other than 0 and 1"));
            }
        }
        None
    }

    /// The levels (none empty, no more than the ranks), the classes adding up to them, the
    /// examples ranks of the last level and the watched distances within the levels.
    fn counts(&self) -> Option<String> {
        if self.levels.contains(&0) {
            return Some("it has an empty level".into());
        }
        let sum = |counts: &[u64]| counts.iter().try_fold(0u64, |sum, &n| sum.checked_add(n));
        // A level counts configurations, which a rank standing for an orbit may be many of:
        // its ranks, at least one, bound the levels' number, not their sum.
        if self.levels.len() as u64 > self.states {
            return Some(format!("it has {} levels for {} ranks", self.levels.len(), self.states));
        }
        let Some(reached) = sum(&self.levels) else {
            return Some("its levels add up to more than 2^64 states".into());
        };
        let symmetric = self.classes.iter().zip(&self.levels).all(|(&c, &n)| c > 0 && c <= n);
        if self.classes.len() != self.levels.len() || !symmetric {
            return Some("its counts up to symmetry do not match its levels".into());
        }
        if sum(&self.runs).is_none() {
            return Some("its runs' times add up to more than 2^64 milliseconds".into());
        }
        if sum(&self.reached_by_class) != Some(reached) {
            return Some(format!("its classes do not add up to its levels' {reached} states"));
        }
        let last = self.levels.last().map_or(0, |&n| n.min(super::counts::EXAMPLES as u64));
        if self.antipodes.len() as u64 > last || self.antipodes.iter().any(|&rank| rank >= self.states) {
            return Some("its examples are not ranks of its last level".into());
        }
        if self.watched.iter().flatten().any(|&depth| depth > self.levels.len()) {
            return Some(format!(
                "a watched state is at a distance past its {} levels",
                self.levels.len()
            ));
        }
        None
    }

    /// Late updates and bins only once a level is counted, bins only from a part after the
    /// one they are for, each sender once.
    fn late_files(&self) -> Option<String> {
        let started = !self.levels.is_empty();
        if !started && (self.late.iter().any(Option::is_some) || self.late_bins.iter().any(|b| !b.is_empty())) {
            return Some("it lists late updates before its first level".into());
        }
        for (to, sent) in self.late_bins.iter().enumerate() {
            let senders = sent.iter().map(|&(from, _, _)| from);
            if senders.clone().any(|from| from <= to || from >= self.parts) || sent.windows(2).any(|w| w[0].0 >= w[1].0)
            {
                return Some(format!("part {to}'s late bins name parts that cannot have sent them"));
            }
        }
        None
    }
}

/// Whether `name` is exactly one of the names a search gives its files: the lock, the
/// manifest, the previous one a process of a shared search keeps, their temporaries,
/// `part-P.a|b`, `early-P.updates`, `late-D-P.updates`, `bins-D-T-F.bits` (numbers in
/// decimal, no sign or leading zero), and format 3's `part-P-K.a|b` (a plane a file), so
/// that a folder of that format is refused for its format rather than for a stranger. Only
/// such files are ever removed, so `part-1-of-my-thesis.pdf` beside them is the user's, and
/// refused.
fn is_ours(name: &str) -> bool {
    let number = |text: &str| {
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'))
    };
    let numbers = |text: &str, count: usize| {
        let fields: Vec<&str> = text.split('-').collect();
        fields.len() == count && fields.iter().all(|f| number(f))
    };
    let tmp = [format!("{MANIFEST}.tmp"), format!("{PREVIOUS}.tmp")];
    if name == LOCK || name == MANIFEST || name == PREVIOUS || tmp.iter().any(|t| t == name) {
        return true;
    }
    if let Some(rest) = name.strip_prefix("part-") {
        return rest
            .strip_suffix(".a")
            .or_else(|| rest.strip_suffix(".b"))
            .is_some_and(|numbered| match numbered.split_once('-') {
                Some((part, plane)) => number(part) && (plane == "0" || plane == "1"),
                None => number(numbered),
            });
    }
    let numbered = |prefix: &str, suffix: &str, count: usize| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|rest| numbers(rest, count))
    };
    numbered("early-", ".updates", 1) || numbered("late-", ".updates", 2) || numbered("bins-", ".bits", 3)
}

/// The first entry of `dir` that is not a regular file of a search's own name (a user's
/// file, a sub-folder, a symbolic link), if any. A folder holding one is refused before
/// the search, so that the search never writes through a link nor removes what it did not
/// create.
fn foreign_entry(dir: &Path) -> Result<Option<String>, EngineError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DiskError::io(dir, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| DiskError::io(dir, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().map_err(|e| DiskError::io(&entry.path(), &e))?;
        let what = if kind.is_symlink() {
            "a symbolic link"
        } else if kind.is_dir() {
            "a folder"
        } else if !kind.is_file() {
            "not a regular file"
        } else if !is_ours(&name) {
            "not a file of a search"
        } else {
            continue;
        };
        return Ok(Some(format!("{} ({what})", crate::util::quote(&name))));
    }
    Ok(None)
}

/// Empties the folder of a finished search (called once its report is committed): removes
/// the regular files of the search's own names, the lock last, and nothing else.
pub fn remove(dir: &Path) -> Result<(), DiskError> {
    // No manifest: no search ran here (weighted moves are searched in memory).
    if !dir.join(MANIFEST).is_file() {
        return Ok(());
    }
    let lock_path = dir.join(LOCK);
    let _lock = crate::util::try_lock_file(&lock_path)
        .map_err(|e| DiskError::io(&lock_path, &e))?
        .ok_or_else(|| DiskError::InUse(dir.display().to_string()))?;
    let entries = std::fs::read_dir(dir).map_err(|e| DiskError::io(dir, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| DiskError::io(dir, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let file = entry.file_type().is_ok_and(|kind| kind.is_file());
        if file && is_ours(&name) && name != LOCK {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| DiskError::io(&path, &e))?;
        }
    }
    std::fs::remove_file(&lock_path).map_err(|e| DiskError::io(&lock_path, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_names_a_search_generates_are_its_own() {
        for name in [
            LOCK,
            MANIFEST,
            "manifest.json.tmp",
            PREVIOUS,
            "manifest.previous.json.tmp",
            "part-12.b",
            "part-0.a",
            "part-12-0.b",
            "early-3.updates",
            "late-10-2.updates",
            "bins-4-0-11.bits",
        ] {
            assert!(is_ours(name), "{name}");
        }
        for name in [
            "part-1-of-my-thesis.pdf",
            "part-photos",
            "part-0-1.c",
            "part-0-2.a",
            "part-01-0.a",
            "part-01.a",
            "part-.a",
            "part-1.c",
            "part--0.a",
            "notes.tmp",
            "x.updates",
            "late-1.updates",
            "bins-1-2.bits",
            "early-a.updates",
        ] {
            assert!(!is_ours(name), "{name}");
        }
    }

    /// A manifest of a search of 4,096 ranks in 2 parts, two levels in, as the search
    /// would write it: consistent, to be changed one thing at a time.
    fn sample() -> Manifest {
        let (states, parts) = (4096, 2);
        let partition = Partition::new(states, parts);
        Manifest {
            format: FORMAT,
            id: "lights-out-4x3".into(),
            identity: Identity::new([("id", "lights-out-4x3")]).encode(),
            states,
            parts,
            levels: vec![1, 12],
            classes: vec![1, 12],
            runs: vec![500, 2250],
            reached_by_class: vec![13],
            antipodes: vec![3, 5],
            watched: vec![Some(1), None],
            blocks: (0..parts)
                .map(|p| vec![Some((1, 7)); blocks_of(&partition, p)])
                .collect(),
            frontier: vec![true, false],
            late: vec![None, Some((9, 16))],
            late_bins: vec![vec![(1, 5, 8)], Vec::new()],
            processes: 1,
            process: 0,
            crc32: 0,
        }
    }

    /// The bytes the search writes for `m`.
    fn written(m: &Manifest) -> Vec<u8> {
        serde_json::to_vec(&m.sealed()).expect("a manifest is JSON")
    }

    /// The exchange of process 0, whose other processes say `theirs` when asked to agree.
    struct Others(Vec<Vec<u64>>);

    impl Exchange for Others {
        fn partition(&self) -> Partition {
            Partition::new(4096, self.0.len() + 1)
        }

        fn index(&self) -> usize {
            0
        }

        fn send(&mut self, _: u32, _: usize, _: Vec<u64>, _: &mut dyn FnMut(&[u64])) -> Result<(), ExchangeError> {
            Err(ExchangeError::Transport("no ranks in this test".into()))
        }

        fn end_level(
            &mut self,
            _: u32,
            _: Vec<u64>,
            _: &mut dyn FnMut(&[u64]),
        ) -> Result<Vec<Vec<u64>>, ExchangeError> {
            Err(ExchangeError::Transport("no levels in this test".into()))
        }

        fn agree(&mut self, mine: Vec<u64>) -> Result<Vec<Vec<u64>>, ExchangeError> {
            Ok([vec![mine], self.0.clone()].concat())
        }
    }

    /// A folder holding `sample()` (two levels) as its manifest, and the same search one
    /// level earlier as the previous one; both as read back.
    fn committed_twice() -> (tempfile::TempDir, Manifest, Manifest) {
        let dir = tempfile::tempdir().expect("a folder");
        let current = sample();
        let mut previous = sample();
        previous.levels = vec![1];
        previous.classes = vec![1];
        previous.runs = vec![500];
        previous.reached_by_class = vec![1];
        previous.antipodes = vec![3];
        std::fs::write(dir.path().join(MANIFEST), written(&current)).expect("written");
        std::fs::write(dir.path().join(PREVIOUS), written(&previous)).expect("written");
        (dir, current.sealed(), previous.sealed())
    }

    #[test]
    fn processes_on_disk_resume_at_the_least_level_every_one_committed() {
        // Every process at two levels: this one goes on from its manifest.
        let (dir, current, previous) = committed_twice();
        let agreed = agree_on_level(dir.path(), current.clone(), &mut Others(vec![vec![2, 1, 2]]));
        assert_eq!(agreed.expect("agreed"), current);
        // Another did not commit the second: this one goes back to the first, for good.
        let agreed = agree_on_level(dir.path(), current.clone(), &mut Others(vec![vec![1, u64::MAX, 2]]));
        assert_eq!(agreed.expect("agreed"), previous);
        let now = read_manifest(dir.path(), MANIFEST).expect("readable");
        assert_eq!(now, Some(previous));
        assert!(!dir.path().join(PREVIOUS).exists());
        // Two levels behind cannot be (the barrier): refused, saying so.
        let (dir, current, _) = committed_twice();
        let behind = agree_on_level(dir.path(), current.clone(), &mut Others(vec![vec![0, u64::MAX, 2]]));
        let e = behind.expect_err("refused").to_string();
        assert!(e.contains("another process 0"), "{e}");
        // Another cut into other parts (another --memory): refused, saying so.
        let other = agree_on_level(dir.path(), current, &mut Others(vec![vec![2, 1, 3]]));
        let e = other.expect_err("refused").to_string();
        assert!(e.contains("the same --memory"), "{e}");
    }

    /// Why `bytes` are refused; fails the test if they are read.
    fn refused(bytes: &[u8]) -> String {
        match parse(bytes) {
            Ok(m) => panic!("read as {m:?}"),
            Err(Unusable::Format(found)) => format!("format {found}"),
            Err(Unusable::Damaged(reason)) => reason,
        }
    }

    /// The fuzz crate's manifest seeds are of the format read now, so that mutating them
    /// reaches past the format check: the search's own reads, the damaged ones refused for
    /// what they contradict.
    #[test]
    fn the_fuzz_seeds_are_manifests_of_this_format() {
        let seed = |name: &str| {
            let path = format!("{}/tests/fuzz/seeds/manifest-{name}.json", env!("CARGO_MANIFEST_DIR"));
            std::fs::read(&path).expect("the seed is there")
        };
        assert_eq!(parse_manifest(&seed("lights-out")), Ok((1, 13)));
        assert!(
            refused(&seed("levels-moved")).contains("CRC"),
            "{}",
            refused(&seed("levels-moved"))
        );
        assert!(refused(&seed("sealed-parts-huge")).contains("parts"));
        assert!(refused(&seed("sealed-bins-from-before")).contains("bins"));
    }

    #[test]
    fn a_manifest_written_reads_back_as_it_was() {
        let m = sample().sealed();
        assert_ne!(m.crc32, 0);
        assert_eq!(parse(&written(&sample())).expect("read back"), m);
        assert_eq!(parse_manifest(&written(&sample())), Ok((2, 2)));
    }

    #[test]
    fn a_manifest_with_any_byte_changed_is_refused() {
        let bytes = written(&sample());
        for i in 0..bytes.len() {
            for flip in [0x01, 0x02, 0x20] {
                let mut changed = bytes.clone();
                changed[i] ^= flip;
                refused(&changed);
            }
        }
        let text = String::from_utf8(bytes).expect("UTF-8");
        assert!(refused(text.replace("[1,12]", "[2,11]").as_bytes()).contains("CRC-32"));
        assert!(refused(text.replace("[9,16]", "null").as_bytes()).contains("CRC-32"));
        assert_eq!(
            refused(text.replace(&format!("\"format\":{FORMAT}"), "\"format\":1").as_bytes()),
            "format 1"
        );
        assert!(refused(format!("{{\"format\":{FORMAT}}}").as_bytes()).contains("unreadable"));
    }

    /// One change to a manifest.
    type Change = fn(&mut Manifest);

    #[test]
    fn a_manifest_sealed_with_contradictions_is_refused_naming_them() {
        let cases: [(&str, Change); 16] = [
            ("into 1099511627776 parts", |m| m.parts = 1 << 40),
            ("into 0 parts", |m| m.parts = 0),
            ("blocks has 1 entries for 2 parts", |m| {
                m.blocks.pop();
            }),
            ("late_bins has 3 entries", |m| m.late_bins.push(Vec::new())),
            ("part 1 has 0 blocks, not 1", |m| {
                m.blocks[1].pop();
            }),
            ("part 0 has 2 blocks, not 1", |m| m.blocks[0].push(None)),
            ("a slot other than 0 and 1", |m| m.blocks[0][0] = Some((2, 7))),
            ("add up to more than 2^64", |m| m.levels[1] = u64::MAX),
            ("an empty level", |m| m.levels.insert(1, 0)),
            ("up to symmetry do not match", |m| m.classes[1] = 13),
            ("2^64 milliseconds", |m| m.runs[0] = u64::MAX),
            ("up to symmetry do not match", |m| {
                m.classes.pop();
            }),
            ("classes do not add up", |m| m.reached_by_class[0] -= 5),
            ("examples", |m| m.antipodes.push(4096)),
            ("past its 2 levels", |m| m.watched[1] = Some(3)),
            ("cannot have sent them", |m| m.late_bins[1].push((0, 1, 8))),
        ];
        for (expected, change) in cases {
            let mut m = sample();
            change(&mut m);
            let reason = refused(&written(&m));
            assert!(reason.contains(expected), "{expected}: {reason}");
        }
        let mut m = sample();
        m.late_bins[0].push((1, 6, 8));
        assert!(refused(&written(&m)).contains("cannot have sent them"));
        let mut m = sample();
        (m.levels, m.classes, m.runs, m.reached_by_class, m.antipodes, m.watched) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            vec![0],
            Vec::new(),
            vec![None, None],
        );
        assert!(refused(&written(&m)).contains("late updates before its first level"));
    }

    #[test]
    fn another_search_is_named_by_what_differs() {
        let m = sample();
        let ours = Identity::new([("id", "lights-out-4x3")]);
        assert_eq!(difference(&m, &ours, "lights-out-4x3", &ours, 4096), None);
        let other = difference(&m, &ours, "nine-tails-3x3", &ours, 4096).expect("another id");
        assert_eq!(other, "it holds the search of lights-out-4x3, not of nine-tails-3x3");
        let moves = ours.clone().with("moves", "R U");
        let other = difference(&m, &ours, "lights-out-4x3", &moves, 4096).expect("other moves");
        assert_eq!(
            other,
            "it holds another search of lights-out-4x3, which differs in the moves"
        );
        let other = difference(&m, &ours, "lights-out-4x3", &ours, 8192).expect("another size");
        assert_eq!(other, "it holds a search of lights-out-4x3 over 4096 ranks, not 8192");
    }

    const GIB: u64 = 1 << 30;

    #[test]
    fn a_block_is_read_and_written_as_its_words_little_endian() {
        let values = [0x0102_0304_0506_0708_u64, u64::MAX - 1, 0];
        let mut words: Vec<AtomicU64> = values.iter().map(|&v| AtomicU64::new(v)).collect();
        file_order(&mut words);
        let bytes = words.as_mut_bytes().to_vec();
        file_order(&mut words);
        assert_eq!(bytes, values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
        assert_eq!(words.iter().map(|w| w.load(Relaxed)).collect::<Vec<_>>(), values);
        // Read back: the bytes of the file give the words again.
        let mut read: Vec<AtomicU64> = values.iter().map(|_| AtomicU64::new(0)).collect();
        read.as_mut_bytes().copy_from_slice(&bytes);
        file_order(&mut read);
        assert_eq!(read.iter().map(|w| w.load(Relaxed)).collect::<Vec<_>>(), values);
    }

    #[test]
    fn a_sliding_board_is_cut_into_runs_of_its_first_tile_where_one_fits() {
        const MIB: u64 = 1 << 20;
        // 3x4: 11 runs of 21,772,800 ranks (5.2 MiB of planes), then 110 of a tenth.
        let (states, spans) = (239_500_800, [21_772_800, 2_177_280]);
        let parts = partition(states, 16 * MIB, None, &spans);
        assert_eq!((parts.processes(), parts.slice(1).start), (11, spans[0]));
        assert_eq!(parts_at_once(&parts, 16 * MIB), 1);
        // Though 22 parts of five runs of the first two tiles would fit two at a time: the
        // far predecessors they add cost more than the overlap saves.
        let finer = Partition::new(states, 22);
        assert_eq!(finer.slice(1).start, 5 * spans[1]);
        assert_eq!(parts_at_once(&finer, 16 * MIB), 2);
        assert_eq!(parts_at_once(&parts, 64 * MIB), 2);
        // Too little for a run of the first tile: runs of the first two, as many as fit
        // two parts at a time (3 in 2 MiB) and divide the 110: 55 parts of 2.
        let small = partition(states, 8 * MIB, None, &spans);
        assert_eq!((small.processes(), small.slice(1).start), (55, 2 * spans[1]));
        assert_eq!(parts_at_once(&small, 8 * MIB), 2);
        // Too little for either: cut evenly.
        assert_eq!(partition(states, MIB, None, &spans), partition(states, MIB, None, &[]));
    }

    #[test]
    fn pancakes_of_14_in_6_gib_are_cut_by_bottom_pancake_and_send_bits() {
        let fact = |n: u64| (1..=n).product::<u64>();
        let bins = Bins::new(14, fact(13), fact(12)).expect("bins that fit");
        let states = fact(14);
        let parts = partition(states, 6 * GIB, Some(bins), &[]);
        assert_eq!(parts.processes(), 14);
        assert_eq!(bins_per_part(&parts, bins, 6 * GIB), Some(1));
        assert_eq!(parts_at_once(&parts, 6 * GIB), 2);
        // A bottom pancake's stacks (1.45 GiB of planes) do not fit in a part of 4 GiB's
        // two at a time, but one at a time: still bits.
        let smaller = partition(states, 4 * GIB, Some(bins), &[]);
        assert_eq!(smaller, parts);
        assert_eq!(bins_per_part(&smaller, bins, 4 * GIB), Some(1));
        assert_eq!(parts_at_once(&smaller, 4 * GIB), 1);
        // In 2 GiB, not even one at a time: ranks, in parts of their own size.
        let least = partition(states, 2 * GIB, Some(bins), &[]);
        assert_eq!(least, partition(states, 2 * GIB, None, &[]));
        // Resumed with less memory than the bins take: ranks.
        assert_eq!(bins_per_part(&parts, bins, 3 * GIB), None);
    }

    #[test]
    fn the_parts_of_several_processes_leave_room_for_the_exchange() {
        let mib = 1 << 20;
        // The pancakes of 12.
        let states = 479_001_600;
        for (memory, processes) in [(64 * mib, 4), (512 * mib, 4), (32 * mib, 2)] {
            let exchange = memory::exchange_bytes(Some(memory), processes);
            let parts = shared_partition(states, memory, None, &[], processes);
            let planes = parts_at_once(&parts, memory) as u64 * plane_bytes(largest_part(&parts));
            assert!(
                planes + exchange <= memory,
                "{memory} over {processes}: {planes} + {exchange}"
            );
            // Fewer parts (a process has one at least) would not leave it.
            if parts.processes() > processes {
                let fewer = Partition::new(states, parts.processes() - processes);
                let more = parts_at_once(&fewer, memory) as u64 * plane_bytes(largest_part(&fewer));
                assert!(
                    more + exchange > memory / 2,
                    "{memory} over {processes}: cut finer than needed"
                );
            }
        }
        // An exchange past half of --memory: cut as for all of it.
        let tiny = 64 << 10;
        let whole = partition(states, tiny, None, &[]).processes().next_multiple_of(3);
        assert_eq!(shared_partition(states, tiny, None, &[], 3).processes(), whole);
    }
}
