//! The level loop of the two-bit search, once for every store of its planes: [`search`]
//! expands a level, routes its far predecessors, counts it, takes it into the result so
//! far, makes it durable, tells the observer, and ends the search when a level is empty or
//! the search is stopped. What differs between the planes in memory (this process's slice,
//! the other slices reached through an exchange) and the parts on disk sits behind
//! [`Store`]: how a level is expanded over the planes, and how it is made durable (a
//! checkpoint when due, or a commit of every level).
//!
//! A level's expansion over its chunks is shared too ([`expand_chunks`]): the frontier's
//! chunks expanded in parallel a group at a time (predecessors inside the planes marked in
//! place, see [`Expansion`]), and the far predecessors handed to the store's [`Router`]:
//! sent to the processes that own them in memory, kept as updates for the parts that own
//! them on disk. Both are generic over the store, so each store's loop is compiled for it.

use super::api::{Distances, Level};
use super::checkpoint::{Note, Run};
use super::counts::LevelCounts;
use super::error::EngineError;
use super::exchange::Exchange;
use super::expand::Expansion;
use super::planes::Frontier;
use crate::puzzle::SearchGraph;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Where the planes of a search live between levels, as the level loop ([`search`]) sees
/// them: the result so far, a level's expansion, and how a counted level is kept.
pub(super) trait Store {
    /// What a level's expansion leaves for its keeping (on disk: the parts' blocks and the
    /// update files written, committed by [`Store::keep`]).
    type Pass;

    /// The result so far: the frontier is the level of depth `run().levels.len()`.
    fn run(&mut self) -> &mut Run;

    /// When this process's run of the search began (its time goes into [`Run::runs`]).
    fn began(&self) -> Instant;

    /// Expands the level of depth `depth`: marks the next level, routes the far
    /// predecessors, and returns the level's counts, summed over every process (and
    /// `stop` set if `stopped` cut it short).
    fn expand(
        &mut self,
        depth: usize,
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<(LevelCounts, Self::Pass), EngineError>;

    /// Takes in the level of depth `depth`, counted as `total` and already added to the
    /// result so far: the next level becomes the frontier, and the level is made durable
    /// (a checkpoint if one is due, a commit on disk). Returns the bytes the level read and
    /// wrote.
    fn keep(
        &mut self,
        depth: usize,
        total: &LevelCounts,
        pass: Self::Pass,
        notify: &mut dyn FnMut(&Note),
    ) -> Result<Traffic, EngineError>;

    /// This process's ranks at distance `depth + 1` once the level of depth `depth` is
    /// kept, if they are in memory.
    fn next(&self, depth: usize) -> Frontier<'_>;

    /// Called when the search is stopped: lets work under way end (a commit is whole on
    /// its own).
    fn halt(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    /// The result so far once the last level is counted, with what other processes or
    /// work under way still add to it.
    fn finish(self) -> Result<Run, EngineError>;
}

/// Bytes read and written.
#[derive(Default, Clone, Copy)]
pub(super) struct Traffic {
    pub(super) read: u64,
    pub(super) written: u64,
}

/// The breadth-first search over `store`'s planes, level after level from its frontier:
/// see [`super::search`]. `stop` ends it with [`EngineError::Interrupted`] within a chunk's
/// time, and the level under way is neither counted nor kept.
pub(super) fn search<S: Store>(
    mut store: S,
    stop: Option<&AtomicBool>,
    notify: &mut dyn FnMut(&Note),
    observe: &mut super::Observer,
) -> Result<Distances, EngineError> {
    let stopped = || stop.is_some_and(|s| s.load(Relaxed));
    loop {
        let depth = store.run().levels.len();
        let (mut total, pass) = store.expand(depth, &stopped)?;
        if total.escapes > 0 {
            return Err(EngineError::InvariantViolated {
                from: total.escape_from,
                count: total.escapes,
            });
        }
        if total.stop {
            store.halt()?;
            return Err(EngineError::Interrupted);
        }
        if total.states == 0 && depth > 0 {
            // The previous level was the last.
            return Ok(distances(store.finish()?));
        }
        let millis = u64::try_from(store.began().elapsed().as_millis()).unwrap_or(u64::MAX);
        store.run().add(&mut total, millis);
        let traffic = store.keep(depth, &total, pass, notify)?;
        let reached = store.run().levels.iter().sum();
        let level = Level {
            depth,
            states: total.states,
            classes: total.classes,
            reached,
            sent: total.sent,
            generated: total.generated,
            read: traffic.read,
            written: traffic.written,
            next: store.next(depth),
        };
        if observe(&level).is_break() {
            return Err(EngineError::Interrupted);
        }
    }
}

/// Gives every process the distances of the watched ranks in `run`, each known only to
/// the process that owns it.
pub(super) fn agree_watched(exchange: &mut dyn Exchange, run: &mut Run) -> Result<(), EngineError> {
    let mine = run.watched.iter().map(|d| d.map_or(u64::MAX, |d| d as u64)).collect();
    for theirs in exchange.agree(mine)? {
        for (slot, &d) in run.watched.iter_mut().zip(&theirs) {
            if slot.is_none() && d != u64::MAX {
                *slot = usize::try_from(d).ok();
            }
        }
    }
    Ok(())
}

/// The search's result from the result so far of its last run, `run`.
fn distances(mut run: Run) -> Distances {
    // This run's time is reported apart: the earlier runs are those before it.
    run.runs.pop();
    Distances {
        levels: run.levels,
        classes: run.classes,
        earlier_millis: run.runs,
        reached_by_class: run.reached_by_class,
        antipodes: run.antipodes,
        watched: run.watched,
    }
}

/// Where a level's far predecessors go.
pub(super) trait Router {
    /// Takes `ranks`, predecessors that `owner` (a process, or a part on disk) holds.
    fn take(&mut self, owner: usize, ranks: Vec<u64>) -> Result<(), EngineError>;

    /// Called once a group of chunks is expanded and its ranks taken: where buffers that
    /// are full are written out.
    fn group_done(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
}

/// The occupancy summaries a chunk's expansion reads (the level's) and records (the next
/// level's), where the planes keep them.
pub(super) type Summaries<'a> = (Option<&'a [AtomicU64]>, Option<&'a [AtomicU64]>);

/// Expands the level of depth `depth` over its chunks `active`, `group` at a time (each
/// group's chunks in parallel), and hands each chunk's far predecessors to `router` once its
/// group is done: what is held for the router is one group's. Returns the chunks' counts,
/// with `sent` the ranks handed on. A chunk begun once `stopped` holds is skipped, and the
/// level then ends after its group, with `stop` set.
#[expect(clippy::too_many_arguments, reason = "the level, its chunks and where they go")]
pub(super) fn expand_chunks<P: SearchGraph>(
    puzzle: &P,
    expansion: &Expansion,
    active: &[usize],
    group: usize,
    depth: usize,
    summaries: Summaries,
    stopped: &(dyn Fn() -> bool + Sync),
    router: &mut impl Router,
) -> Result<LevelCounts, EngineError> {
    let (summary, record) = summaries;
    let mut tally = LevelCounts::new(expansion.classes);
    for run in active.chunks(group.max(1)) {
        let tallies: Vec<LevelCounts> = run
            .par_iter()
            .map(|&c| match stopped() {
                true => LevelCounts::new(expansion.classes),
                false => expansion.expand(puzzle, c, depth, summary, record),
            })
            .collect();
        for mut t in tallies {
            for (owner, ranks) in std::mem::take(&mut t.remote).into_iter().enumerate() {
                if !ranks.is_empty() {
                    tally.sent += ranks.len() as u64;
                    router.take(owner, ranks)?;
                }
            }
            tally = tally.merge(t);
        }
        router.group_done()?;
        if stopped() {
            tally.stop = true;
            break;
        }
    }
    Ok(tally)
}
