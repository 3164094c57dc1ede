//! A level's expansion over its chunks, the loop both two-bit routes share: the frontier's
//! chunks expanded in parallel a group at a time (predecessors inside the planes marked in
//! place, see [`Expansion`]), and the far predecessors handed to the route's [`Store`]: sent
//! to the processes that own them in memory, kept as updates for the parts that own them on
//! disk. Generic over the store, so each route's loop is compiled for it.

use super::counts::LevelCounts;
use super::error::EngineError;
use super::expand::Expansion;
use crate::puzzle::SearchGraph;
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;

/// Where a level's far predecessors go.
pub(super) trait Store {
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
/// group's chunks in parallel), and hands each chunk's far predecessors to `store` once its
/// group is done: what is held for the store is one group's. Returns the chunks' counts,
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
    store: &mut impl Store,
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
                    store.take(owner, ranks)?;
                }
            }
            tally = tally.merge(t);
        }
        store.group_done()?;
        if stopped() {
            tally.stop = true;
            break;
        }
    }
    Ok(tally)
}
