//! Level-synchronous breadth-first search from the goals over every rank of a puzzle.
//!
//! Two bits per rank are all the memory it needs: each rank is unseen, in this level, in
//! the next level, or done (see `planes::Planes`). Each level is expanded in parallel over
//! fixed chunks of the frontier (`expand`); the result depends only on the set of states at
//! each level, never on the thread schedule. This file holds the store of the planes in
//! memory: how a level is expanded over them, its ranks and counts exchanged with the
//! other processes, and kept in checkpoints; the level loop that runs it is `level`'s,
//! shared with the planes on disk. The types it shares with the other routes are in
//! `api`, its errors in `error`.
//!
//! A search may be shared by several processes ([`super::search`] with an [`Exchange`]): each
//! keeps the two bits of its own slice of the rank space only, marks the predecessors it
//! owns, and sends the others to their owners; the per-level counts are summed through
//! the exchange, so every process returns the same [`Distances`].

use super::api::{Distances, Options};
use super::bitset::WORD_BITS;
use super::bottom_up;
use super::checkpoint::{Config, Note, Run, Saver, Snapshot};
use super::counts::LevelCounts;
use super::error::EngineError;
use super::exchange::{Exchange, ExchangeError, Partition};
use super::expand::{Expansion, Shifts};
use super::level::{self, Router, Store, Traffic};
use super::memory;
use super::planes::{CHUNK_WORDS, Planes};
use crate::identity::Identity;
use crate::puzzle::SearchGraph;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

pub use super::api::{Level, Notify};
pub use super::planes::Frontier;

pub use super::counts::EXAMPLES;

/// The breadth-first search over this process's slice of the rank space, the other
/// slices reached through `exchange`; every process of the search returns the same
/// [`Distances`]. See [`super::search`].
///
/// Memory: the slice at 2 bits a rank, plus the ranks kept for sending (at most 2 chunks per
/// worker thread: 2^19 frontier ranks' predecessors, 8 bytes each), plus what the exchange
/// buffers.
pub(super) fn bfs<P: SearchGraph>(
    puzzle: &P,
    exchange: &mut dyn Exchange,
    mut options: Options,
    observe: &mut super::Observer,
) -> Result<Distances, EngineError> {
    let mut store = InMemory::new(puzzle, exchange, std::mem::take(&mut options.watch))?;
    let mut notify = |note: &Note| {
        if let Some(f) = options.notify.as_mut() {
            f(note);
        }
    };
    if let Some(config) = options.checkpoint.take() {
        let identity = options.identity.take().ok_or(EngineError::Unnamed)?;
        store.resume(config, (std::mem::take(&mut options.id), identity), &mut notify)?;
    }
    level::search(store, options.stop, &mut notify, observe)
}

/// One process's search between levels: its slice's planes, which chunks hold the
/// frontier, the result so far, and the other processes' slices through the exchange.
struct InMemory<'p, P> {
    puzzle: &'p P,
    exchange: &'p mut dyn Exchange,
    /// Saves the search at level boundaries, if it is to be kept.
    saver: Option<Saver>,
    planes: Planes,
    partition: Partition,
    me: usize,
    classes: usize,
    /// The share of all ranks this process holds.
    share: f64,
    /// Chunks of the slice, which of them hold part of the frontier, and which received a
    /// rank of the next level: the first and last levels are a few ranks, and scanning
    /// every word for them would cost as much as a busy level.
    chunks: usize,
    frontier: Vec<bool>,
    touched: Vec<AtomicBool>,
    /// The ranks whose distances are reported.
    watch: Vec<u64>,
    run: Run,
    /// When this process's run of the search began.
    began: std::time::Instant,
    adjacent: Option<Shifts>,
    /// Chunks expanded together before their ranks for other processes are sent.
    group: usize,
    /// Whether a dense level's successor may be found bottom-up: a symmetric puzzle searched
    /// by this process alone (see [`bottom_up`]).
    bottom_up: bool,
}

impl<'p, P: SearchGraph> InMemory<'p, P> {
    /// The search of this process's slice, its goals in the first level.
    fn new(puzzle: &'p P, exchange: &'p mut dyn Exchange, watch: Vec<u64>) -> Result<Self, EngineError> {
        let states = puzzle.states();
        let partition = exchange.partition();
        if partition.states() != states {
            return Err(ExchangeError::Transport(format!(
                "the exchange partitions {} ranks, the puzzle has {states}",
                partition.states()
            ))
            .into());
        }
        let me = exchange.index();
        let planes = Planes::try_new(partition.slice(me))?;
        let share = (planes.slice.end - planes.slice.start) as f64 / states.max(1) as f64;
        let classes = puzzle.class_count();
        let chunks = planes.words.div_ceil(CHUNK_WORDS);
        let mut store = InMemory {
            puzzle,
            exchange,
            saver: None,
            planes,
            partition,
            me,
            classes,
            share,
            chunks,
            frontier: vec![false; chunks],
            touched: (0..chunks).map(|_| AtomicBool::new(false)).collect(),
            run: Run::new(classes, watch.len()),
            watch,
            began: std::time::Instant::now(),
            adjacent: puzzle.adjacent_predecessors().map(|a| Shifts::new(&a)),
            group: if partition.processes() == 1 {
                usize::MAX
            } else {
                memory::sending_group(rayon::current_num_threads())
            },
            bottom_up: bottom_up::allowed(puzzle) && partition.processes() == 1,
        };
        store.seed_goals()?;
        Ok(store)
    }

    /// Puts the goals this process owns in the level of depth 0, and notes the watched
    /// ranks among them.
    fn seed_goals(&mut self) -> Result<(), EngineError> {
        for goal in self.puzzle.goals() {
            if goal >= self.puzzle.states() {
                return Err(EngineError::BadGoal(goal));
            }
            for (slot, &rank) in self.run.watched.iter_mut().zip(&self.watch) {
                if rank == goal {
                    *slot = Some(0);
                }
            }
            if let Some(i) = self.planes.local(goal) {
                self.planes.set_current(i, 0);
                self.frontier[i as usize / WORD_BITS as usize / CHUNK_WORDS] = true;
            }
        }
        Ok(())
    }

    /// Saves the search in checkpoints from now on, resumed from the latest level every
    /// process saved if there is one.
    fn resume(
        &mut self,
        config: Config,
        id: (String, Identity),
        notify: &mut dyn FnMut(&Note),
    ) -> Result<(), EngineError> {
        let shape = (self.classes, self.watch.len());
        let saver = self
            .saver
            .insert(Saver::new(config, id, self.partition, self.me, shape));
        if let Some(resumed) = saver.resume(&mut *self.exchange, self.planes.marks.words(), notify)? {
            self.run = resumed;
            let depth = self.run.levels.len();
            for (c, flag) in self.frontier.iter_mut().enumerate() {
                *flag = self.planes.chunk_has_current(c, depth);
            }
        }
        Ok(())
    }

    /// Expands the level of depth `depth` over every process: marks the next level, sends
    /// and receives the ranks other processes own, and returns the counts of all processes
    /// (which ask for a checkpoint if the saver finds one due).
    fn expand_level(&mut self, depth: usize, stopped: &(dyn Fn() -> bool + Sync)) -> Result<LevelCounts, EngineError> {
        let level = u32::try_from(depth).unwrap_or(u32::MAX);
        let planes = &self.planes;
        let mut misdelivered = 0u64;
        let summary = planes.summary_of(depth);
        let record = planes.summary_for_next(depth, expected_share(&self.run.levels, self.share));
        let mut deliver = |ranks: &[u64]| misdelivered += planes.deliver(ranks, depth, record, &self.touched);
        let active: Vec<usize> = (0..self.chunks).filter(|&c| self.frontier[c]).collect();
        let mut tally = LevelCounts::new(self.classes);
        let bottom_up = self.pays_bottom_up(&active, depth);
        if bottom_up {
            let adopt = |c| match stopped() {
                true => LevelCounts::new(self.classes),
                false => bottom_up::adopt_chunk(self.puzzle, planes, c, depth, &self.touched, record, self.classes),
            };
            let tallies: Vec<LevelCounts> = (0..self.chunks).into_par_iter().map(adopt).collect();
            tally = tallies.into_iter().fold(tally, LevelCounts::merge);
        }
        let expansion = Expansion {
            planes,
            touched: &self.touched,
            adjacent: self.adjacent.as_ref(),
            partition: self.partition,
            me: self.me,
            classes: self.classes,
            predecessors: !bottom_up,
            bins: None,
        };
        let mut sender = Sender {
            exchange: &mut *self.exchange,
            level,
            deliver: &mut deliver,
        };
        let (summaries, group) = ((summary, record), self.group);
        let expanded = level::expand_chunks(
            self.puzzle,
            &expansion,
            &active,
            group,
            depth,
            summaries,
            stopped,
            &mut sender,
        )?;
        tally = tally.merge(expanded);
        tally.save = self.saver.as_ref().is_some_and(Saver::due);
        tally.stop = stopped();
        let all = self.exchange.end_level(level, tally.encode(), &mut deliver)?;
        self.sum_level(&all, misdelivered)
    }

    /// Whether the successor of the level of depth `depth`, whose ranks lie in the chunks
    /// `active`, is cheaper to find bottom-up. The level is counted for that only when it
    /// may be dense: a level spread over fewer ranks than half of those left is not.
    fn pays_bottom_up(&self, active: &[usize], depth: usize) -> bool {
        if !self.bottom_up {
            return false;
        }
        // The unseen ranks and the level's, if each rank is one configuration; if ranks
        // stand for several (classes), at least `left` ranks are unseen.
        let left = self.puzzle.states().saturating_sub(self.run.levels.iter().sum());
        if (active.len() as u64 * CHUNK_WORDS as u64 * WORD_BITS) < left / 2 {
            return false;
        }
        if !self.puzzle.uniform() {
            let (level, unseen) = self.planes.census(depth);
            return bottom_up::pays(level, unseen);
        }
        let planes = &self.planes;
        let level: u64 = active.par_iter().map(|&c| planes.chunk_count(c, depth)).sum();
        bottom_up::pays(level, left - level)
    }

    /// The counts of all processes, `all` as the exchange gathered them, checked: no rank
    /// delivered to the wrong process (`misdelivered` here). The level loop checks for moves
    /// out of the class.
    fn sum_level(&self, all: &[Vec<u64>], misdelivered: u64) -> Result<LevelCounts, EngineError> {
        if misdelivered > 0 {
            return Err(ExchangeError::Transport(format!(
                "{misdelivered} ranks of other processes were delivered to process {}",
                self.me
            ))
            .into());
        }
        let total = LevelCounts::decode_sum(all, self.classes)
            .ok_or_else(|| ExchangeError::Transport("a process sent malformed level counts".into()))?;
        Ok(total)
    }

    /// Takes in the level of depth `depth`: the next level is complete, and it is where the
    /// new marks went.
    fn advance(&mut self, depth: usize) {
        for (flag, touched) in self.frontier.iter_mut().zip(&self.touched) {
            *flag = touched.swap(false, Relaxed);
        }
        let planes = &self.planes;
        for (distance, &rank) in self.run.watched.iter_mut().zip(&self.watch) {
            if distance.is_none() && planes.local(rank).is_some_and(|i| planes.is_current(i, depth + 1)) {
                *distance = Some(depth + 1);
            }
        }
    }
}

/// The planes in memory, this process's slice, the others' reached through the exchange.
impl<P: SearchGraph> Store for InMemory<'_, P> {
    type Pass = ();

    fn run(&mut self) -> &mut Run {
        &mut self.run
    }

    fn began(&self) -> std::time::Instant {
        self.began
    }

    fn expand(&mut self, depth: usize, stopped: &(dyn Fn() -> bool + Sync)) -> Result<(LevelCounts, ()), EngineError> {
        Ok((self.expand_level(depth, stopped)?, ()))
    }

    /// Every process saves the same levels, when any of them finds a save due.
    fn keep(
        &mut self,
        depth: usize,
        total: &LevelCounts,
        (): (),
        notify: &mut dyn FnMut(&Note),
    ) -> Result<Traffic, EngineError> {
        self.advance(depth);
        if let Some(saver) = self.saver.as_mut().filter(|_| total.save) {
            let snapshot = Snapshot {
                words: self.planes.marks.words(),
                run: &self.run,
            };
            saver.save(&snapshot, notify)?;
        }
        Ok(Traffic::default())
    }

    fn next(&self, depth: usize) -> Frontier<'_> {
        Frontier::of_planes(&self.planes, depth + 1, &self.frontier)
    }

    /// Every process agrees on the distances of the watched ranks, each known only to its
    /// owner.
    fn finish(mut self) -> Result<Run, EngineError> {
        level::agree_watched(&mut *self.exchange, &mut self.run)?;
        Ok(self.run)
    }
}

/// The router of a search in memory: far predecessors are sent to the processes that own
/// them, `deliver` marking those the exchange hands back to this one.
struct Sender<'a> {
    exchange: &'a mut dyn Exchange,
    level: u32,
    deliver: &'a mut dyn FnMut(&[u64]),
}

impl Router for Sender<'_> {
    fn take(&mut self, owner: usize, ranks: Vec<u64>) -> Result<(), EngineError> {
        Ok(self.exchange.send(self.level, owner, ranks, self.deliver)?)
    }
}

/// The next level's expected size in a slice holding `share` of the ranks, extrapolated from
/// the sizes so far (configurations, all processes: an overestimate of ranks for puzzles
/// whose ranks stand for several configurations, which only costs speed).
fn expected_share(levels: &[u64], share: f64) -> f64 {
    let next = match *levels {
        [.., a, b] if a > 0 => b as f64 * (b as f64 / a as f64).powi(2),
        [.., b] => b as f64,
        [] => 1.0,
    };
    next * share
}
