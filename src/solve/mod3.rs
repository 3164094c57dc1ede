//! Solving by each rank's distance modulo 3, 2 bits a rank, where a byte a rank (the
//! [`table`](super::table) route) is too much: 3x4 and 2x6 (239,500,800 ranks, 60 MB), and
//! any puzzle above [`MAX_TABLE_RANKS`](super::table::MAX_TABLE_RANKS) ranks whose moves
//! can all be undone and all cost 1 (the pocket cube's 88,179,840, 22 MB).
//!
//! Every move of such a puzzle changes the distance to the goal by at most one, since it
//! can be undone: from distance `d` the neighbours lie at `d - 1`, `d` or `d + 1`, three
//! values distinct modulo 3, so the neighbour whose code is `d - 1` (mod 3) is closer.
//! (On a sliding board never `d`, as a move takes the blank to a cell of the other colour
//! of a chessboard.) Walking such moves reaches the goal along a shortest path; its length
//! is the distance.

use super::cache::{self, fingerprint};
use crate::engine::{self, EngineError, Options};
use crate::identity::Identity;
use crate::puzzle::Puzzle;
use crate::util::thousands;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::path::Path;

/// Largest rank space this table takes: 16 GiB of codes (2^36 ranks), its build as much
/// again of planes. Codes are indexed and cached in 64-bit sizes, so the bound is the
/// memory's: a pattern database this large is only chosen within `--memory` (the 3x3x3's
/// EDGES 1-7 at 4 GiB: 8.2 x 10^9 ranks, 1.9 GiB).
pub const MAX_MOD3_RANKS: u64 = 1 << 36;

/// Largest rank space the table route solves by its distance modulo 3: 1 GiB of codes
/// (2^32 ranks). That route takes no `--memory`, so it stays below what any machine that
/// runs the tests has; larger puzzles go to the heuristic search, whose tables are chosen
/// within the memory given.
pub const MAX_ROUTE_RANKS: u64 = 1 << 32;

/// Whether `puzzle` can be solved by its distance modulo 3: every move undone by a move
/// ([`SearchGraph::symmetric`](crate::puzzle::SearchGraph::symmetric)), every move costing
/// 1, and at most [`MAX_ROUTE_RANKS`] ranks.
pub fn applies<P: Puzzle>(puzzle: &P) -> bool {
    puzzle.symmetric() && puzzle.max_move_cost() == 1 && puzzle.states() <= MAX_ROUTE_RANKS
}

/// The code of a rank the search from the goal never reached.
const UNREACHED: u8 = 3;

/// Frontier words one rayon task records (16 bytes of codes each).
const TASK_WORDS: usize = 4096;

/// Ranks whose predecessors are listed to estimate a build's time ([`build_time`]), in
/// runs of [`SAMPLE_RUN`] consecutive ranks spread over the space.
const SAMPLE_RANKS: u64 = 4096;
const SAMPLE_RUN: u64 = 64;

/// Each rank's distance to the goal modulo 3, 2 bits a rank (3: unreached).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistanceMod3 {
    codes: Vec<u8>,
    states: u64,
}

impl DistanceMod3 {
    /// Runs the engine's breadth-first search from the goal (on the current rayon pool),
    /// recording each level's ranks as it completes, word by word in parallel.
    pub fn build<P: Puzzle>(puzzle: &P) -> Result<Self, EngineError> {
        let states = puzzle.states();
        let mut codes = vec![u8::MAX; bytes_for(states)];
        for goal in puzzle.goals() {
            set(&mut codes, goal, 0);
        }
        engine::search(puzzle, Options::default(), |level| {
            let code = ((level.depth + 1) % 3) as u8;
            let next = level.next;
            let start = next.start() as usize;
            // 64 ranks are 16 bytes of codes; the local frontier starts at rank 0.
            codes[start / 4..]
                .par_chunks_mut(16 * TASK_WORDS)
                .enumerate()
                .for_each(|(task, chunk)| {
                    for (i, bytes) in chunk.chunks_mut(16).enumerate() {
                        let w = task * TASK_WORDS + i;
                        if w >= next.word_count() {
                            break;
                        }
                        let mut word = next.word(w);
                        while word != 0 {
                            let bit = word.trailing_zeros() as usize;
                            word &= word - 1;
                            let shift = 2 * (bit % 4);
                            bytes[bit / 4] = bytes[bit / 4] & !(3 << shift) | code << shift;
                        }
                    }
                });
            ControlFlow::Continue(())
        })?;
        Ok(Self { codes, states })
    }

    /// The table of `puzzle` from the cache folder `dir`, or built and stored there
    /// (written to a temporary name and renamed). A file that is damaged, truncated or
    /// written for another board, goal or format is named in one note and rebuilt.
    ///
    /// With no folder, or one that cannot be written, `None` (the caller takes another
    /// route) unless `needed`: then the table is built in memory. `note` hears why, and
    /// the size and time estimate before a build.
    pub fn prepare<P: Puzzle>(
        puzzle: &P,
        identity: &Identity,
        dir: Option<&Path>,
        needed: bool,
        note: &dyn Fn(&str),
    ) -> Result<Option<Self>, EngineError> {
        let id = puzzle.id();
        let states = puzzle.states();
        let header = header(puzzle, identity);
        let path = dir.map(|dir| dir.join(cache::file_name(&id, identity, "dist3")));
        if let Some(path) = &path {
            match cache::load(path, &header, bytes_for(states)) {
                Ok(codes) => return Ok(Some(Self { codes, states })),
                Err(why) if path.exists() => note(&format!("{}: {why}; rebuilding it", path.display())),
                Err(_) => {}
            }
        }
        let writable = match (dir, path) {
            (Some(dir), Some(path)) => std::fs::create_dir_all(dir)
                .and_then(|()| tempfile::NamedTempFile::new_in(dir))
                .map(|_| (dir, path))
                .map_err(|e| format!("cannot keep its distance table in {}: {e}", dir.display())),
            _ => Err("no cache folder to keep its distance table in (set ANALYZE_CACHE_DIR or HOME)".to_string()),
        };
        let (dir, path) = match writable {
            Ok(place) => place,
            Err(why) if !needed => {
                note(&format!("{id}: {why}; solving by IDA*"));
                return Ok(None);
            }
            Err(why) => {
                note(&format!(
                    "{id}: {why}; building it in memory ({}, about {})",
                    megabytes(states),
                    build_time(puzzle)
                ));
                return Self::build(puzzle).map(Some);
            }
        };
        note(&format!(
            "{id}: building its distance table once (distance mod 3, 2 bits a rank): {} in {}, about {}",
            megabytes(states),
            dir.display(),
            build_time(puzzle)
        ));
        let table = Self::build(puzzle)?;
        if let Err(e) = cache::store(&path, &header, &table.codes) {
            note(&format!("cannot cache the distance table in {}: {e}", dir.display()));
        }
        Ok(Some(table))
    }

    /// The distance of `rank` modulo 3; `None` if the search never reached it.
    pub fn code(&self, rank: u64) -> Option<u8> {
        if rank >= self.states {
            return None;
        }
        let byte = self.codes.get((rank / 4) as usize)?;
        let code = byte >> (2 * (rank % 4)) & 3;
        (code != UNREACHED).then_some(code)
    }

    /// Starts fetching `rank`'s code into the cache, so that several look-ups' misses
    /// overlap (the heuristic search ranks a node's children, then looks them up).
    #[inline]
    pub fn prefetch(&self, rank: u64) {
        if let Some(byte) = self.codes.get((rank / 4) as usize) {
            crate::engine::bitset::prefetch(byte);
        }
    }

    /// A shortest path from `rank` to the goal, both ends included; `None` if there is
    /// none. Each step takes the first move (in the puzzle's move order) to a rank coded
    /// one less modulo 3, which is one move closer (see the module's note).
    pub fn path<P: Puzzle>(&self, puzzle: &P, rank: u64) -> Option<Vec<u64>> {
        self.path_through(puzzle, rank, |rank| rank)
    }

    /// [`DistanceMod3::path`] on the ranks of `puzzle` (positions), whose rank `r` is the
    /// table's `index(r)` (its class): the codes of the table, the moves of `puzzle`.
    pub fn path_through<P: Puzzle>(&self, puzzle: &P, rank: u64, index: impl Fn(u64) -> u64) -> Option<Vec<u64>> {
        let goals = puzzle.goals();
        let mut code = self.code(index(rank))?;
        let mut path = vec![rank];
        let mut here = rank;
        while !goals.contains(&here) {
            let want = (code + 2) % 3;
            let mut closer = None;
            puzzle.for_each_successor(here, |next| {
                if closer.is_none() && self.code(index(next)) == Some(want) {
                    closer = Some(next);
                }
            });
            here = closer?;
            code = want;
            path.push(here);
            // A table from the same moves never gets here: no path is longer than the
            // number of ranks.
            if path.len() as u64 > self.states {
                return None;
            }
        }
        Some(path)
    }
}

/// What a build costs, for the notes: `60 MB`.
pub fn megabytes(states: u64) -> String {
    format!("{} MB", thousands(bytes_for(states).div_ceil(1_000_000) as u64))
}

/// About how long a build takes on the current rayon pool: `34 s on 2 threads`. A search
/// lists each rank's predecessors about once, so the estimate is the time to list those of
/// [`SAMPLE_RANKS`] ranks spread over the space, scaled up: a puzzle whose moves are costly
/// (a set of 30 pieces unranked and ranked again for every move) is not promised a sliding
/// board's speed.
///
/// The fastest of [`SAMPLE_PASSES`] passes counts: a pass takes a millisecond or two, so on
/// a shared machine one time slice lost to another process made it several times too long
/// (the 3x3x3's EDGES 1-6 was promised 702 s at a load of 10 and built in 143 s).
fn build_time<P: Puzzle>(puzzle: &P) -> String {
    let threads = rayon::current_num_threads().max(1) as u64;
    let states = puzzle.states().max(1);
    let per_rank = (0..SAMPLE_PASSES)
        .map(|_| sample_pass(puzzle, states))
        .fold(f64::INFINITY, f64::min);
    let seconds = (per_rank * states as f64 / threads as f64).ceil().max(1.0);
    format!("{seconds} s on {threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// Passes [`build_time`] takes the fastest of.
const SAMPLE_PASSES: usize = 5;

/// Seconds a rank to list the predecessors of [`SAMPLE_RANKS`] ranks spread over `states`.
fn sample_pass<P: Puzzle>(puzzle: &P, states: u64) -> f64 {
    let runs = SAMPLE_RANKS / SAMPLE_RUN;
    let step = (states / runs).max(SAMPLE_RUN);
    let (mut listed, mut sampled) = (0u64, 0u64);
    let began = std::time::Instant::now();
    for start in (0..states).step_by(step as usize).take(runs as usize) {
        // In runs of ascending ranks, as the engine hands them out: a puzzle's memo then
        // saves what it saves in the search.
        let mut memo = P::Memo::default();
        for rank in start..(start + SAMPLE_RUN).min(states) {
            puzzle.for_each_predecessor(&mut memo, rank, |r| listed = listed.wrapping_add(r));
            sampled += 1;
        }
    }
    std::hint::black_box(listed);
    began.elapsed().as_secs_f64() / sampled.max(1) as f64
}

/// The cache file's first line: the format, the puzzle with its goal (the id), the size,
/// the search's identity, and the ranking's fingerprint (which covers the goal too).
fn header<P: Puzzle>(puzzle: &P, identity: &Identity) -> String {
    format!(
        "analyze distance mod 3 table v2: {}, {} ranks, 2 bits a rank, identity {identity}, ranking fingerprint {:016x}",
        puzzle.id(),
        puzzle.states(),
        fingerprint(puzzle)
    )
}

/// Bytes of codes for `states` ranks.
fn bytes_for(states: u64) -> usize {
    states.div_ceil(4) as usize
}

/// Sets the code of `rank`.
fn set(codes: &mut [u8], rank: u64, code: u8) {
    if let Some(byte) = codes.get_mut((rank / 4) as usize) {
        let shift = 2 * (rank % 4);
        *byte = *byte & !(3 << shift) | code << shift;
    }
}
