//! Breadth-first search over packed states (the sparse route): each level is a sorted
//! vector of keys, so memory follows the states reached rather than the rank space. It is
//! for puzzles whose dense ranking is far larger than what their moves reach (twsearch's
//! tangram cube ranks 192 times its positions) or cannot be ranked at all (the Mathieu
//! group M24's 24 distinct pieces).
//!
//! A level is expanded a chunk of keys at a time: the chunk's predecessors are generated in
//! parallel into one buffer, sorted (`par_sort_unstable`), deduplicated, and what the
//! levels already found hold is subtracted by merging against their sorted keys (Korf's
//! sorted runs). Where every move is undone by a move, a predecessor of level `n` lies in
//! level `n - 1`, `n` or `n + 1`, so two levels are all the search keeps; otherwise it
//! keeps them all. The result depends only on the set of keys at each level, never on the
//! thread schedule.

pub use super::error::OutOfMemory;

use super::Observer;
use super::api::Level;
use super::error::EngineError;
use super::memory::SPARSE_CHUNK_KEYS;
use super::planes::Frontier;
use crate::puzzle::{Key, PackedGraph};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Keys of a sorted run merged against the levels by one task.
const BLOCK_KEYS: usize = 1 << 16;

/// What the sparse search may do.
pub struct SparseOptions<'a> {
    /// Bytes the search may hold at once (levels kept, the level being found, a chunk's
    /// buffer); past it the search stops with [`OutOfMemory`] rather than being killed.
    pub budget: u128,
    /// Keep every level (for walking solutions back), not only the two the search needs.
    pub keep_levels: bool,
    /// Set (by a signal handler) to stop the search between chunks.
    pub stop: Option<&'a AtomicBool>,
}

/// What a finished sparse search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseDistances<K> {
    /// `levels[d]` configurations lie exactly `d` moves from the nearest goal.
    pub levels: Vec<u64>,
    /// `classes[d]`: their classes up to the puzzle's symmetry group
    /// ([`PackedGraph::classes_at`]).
    pub classes: Vec<u64>,
    /// Every key at the maximum distance, ascending.
    pub last: Vec<K>,
    /// With [`SparseOptions::keep_levels`], every level's keys, ascending (else empty).
    pub kept: Vec<Vec<K>>,
}

/// Bytes a sparse search holds per key: the key itself (the levels are plain sorted
/// vectors; sorting is in place).
pub fn bytes_per_key<K: Key>() -> usize {
    std::mem::size_of::<K>()
}

/// The breadth-first search from the goals over packed keys: see [`super::search_packed`].
/// `observe` sees each level once it is complete, as the two-bit search reports it, and
/// may stop the search.
pub(super) fn bfs<G: PackedGraph>(
    graph: &G,
    options: &SparseOptions,
    observe: &mut Observer,
) -> Result<SparseDistances<G::Key>, EngineError> {
    let mut goals = graph.goal_keys();
    goals.sort_unstable();
    goals.dedup();
    let keep_all = options.keep_levels || !graph.symmetric();
    let mut all: Vec<Vec<G::Key>> = vec![goals];
    let mut counts = vec![all[0].len() as u64];
    let mut classes = vec![classes_of(graph, &all[0])];
    let mut reached = counts[0];
    if observe(&found(0, counts[0], classes[0], reached)).is_break() {
        return Err(EngineError::Interrupted);
    }
    loop {
        let depth = all.len() - 1;
        let (older, current) = all.split_at(depth);
        let before: Vec<&[G::Key]> = match older.last() {
            Some(prev) if !keep_all => vec![prev],
            _ => older.iter().map(Vec::as_slice).collect(),
        };
        let held: usize = all.iter().map(Vec::capacity).sum();
        let budget = Budget {
            level: depth + 1,
            bytes: options.budget,
            held: held * bytes_per_key::<G::Key>(),
        };
        let next = next_level(graph, &current[0], &before, &budget, options.stop)?;
        if next.is_empty() {
            break;
        }
        let states = next.len() as u64;
        reached += states;
        counts.push(states);
        classes.push(classes_of(graph, &next));
        if !keep_all && depth >= 1 {
            // Level `depth - 1` is no longer needed: free it.
            all[depth - 1] = Vec::new();
        }
        all.push(next);
        if observe(&found(depth + 1, states, classes[depth + 1], reached)).is_break() {
            return Err(EngineError::Interrupted);
        }
    }
    let last = all.pop().unwrap_or_default();
    let kept = if options.keep_levels {
        all.push(last.clone());
        all
    } else {
        Vec::new()
    };
    Ok(SparseDistances {
        levels: counts,
        classes,
        last,
        kept,
    })
}

/// A complete level as the observer sees it. Keys are not ranks, so there is no frontier
/// of ranks to show, and nothing is sent between processes or moved on disk.
fn found(depth: usize, states: u64, classes: u64, reached: u64) -> Level<'static> {
    Level {
        depth,
        states,
        classes,
        reached,
        sent: 0,
        generated: 0,
        read: 0,
        written: 0,
        next: Frontier::empty(),
    }
}

/// The classes up to the puzzle's symmetry group among the keys of a level.
fn classes_of<G: PackedGraph>(graph: &G, level: &[G::Key]) -> u64 {
    match graph.counts_classes() {
        true => level.par_iter().map(|&key| graph.classes_at(key)).sum(),
        false => level.len() as u64,
    }
}

/// The memory a level may still take.
struct Budget {
    level: usize,
    bytes: u128,
    /// Bytes of the levels held.
    held: usize,
}

impl Budget {
    /// Reserves room for `more` keys in `v`, refusing past the budget or when the allocator
    /// refuses.
    fn reserve<K: Key>(&self, v: &mut Vec<K>, more: usize, besides: usize) -> Result<(), OutOfMemory> {
        let refusal = OutOfMemory {
            level: self.level,
            bytes_per_key: bytes_per_key::<K>(),
            budget: self.bytes,
        };
        let wanted = (v.len() + more + besides) * bytes_per_key::<K>() + self.held;
        if wanted as u128 > self.bytes {
            return Err(refusal);
        }
        v.try_reserve(more).map_err(|_| refusal)
    }
}

/// The keys one move before `level` that neither `level` nor `before` holds, ascending.
fn next_level<G: PackedGraph>(
    graph: &G,
    level: &[G::Key],
    before: &[&[G::Key]],
    budget: &Budget,
    stop: Option<&AtomicBool>,
) -> Result<Vec<G::Key>, EngineError> {
    let degree = graph.degree().max(1);
    let per_chunk = (SPARSE_CHUNK_KEYS / degree).max(1);
    let mut buffer: Vec<G::Key> = Vec::new();
    budget.reserve(&mut buffer, level.len().min(per_chunk) * degree, 0)?;
    let mut next: Vec<G::Key> = Vec::new();
    let mut seen: Vec<&[G::Key]> = before.to_vec();
    seen.push(level);
    for part in level.chunks(per_chunk) {
        if stop.is_some_and(|s| s.load(Relaxed)) {
            return Err(EngineError::Interrupted);
        }
        buffer.clear();
        buffer.resize(part.len() * degree, G::Key::default());
        buffer
            .par_chunks_mut(degree)
            .zip(part.par_iter())
            .for_each(|(out, &key)| graph.predecessors(key, out));
        buffer.par_sort_unstable();
        buffer.dedup();
        let fresh = subtract(&buffer, &seen);
        budget.reserve(&mut next, fresh.len(), buffer.capacity() + fresh.len())?;
        next.extend_from_slice(&fresh);
    }
    drop(buffer);
    // The chunks' runs are each sorted; a key found from two chunks is kept once.
    next.par_sort_unstable();
    next.dedup();
    next.shrink_to_fit();
    Ok(next)
}

/// The keys of `run` (ascending, distinct) that none of `sets` (each ascending) holds,
/// ascending: blocks of `run` are merged against each set in parallel, each block starting
/// where its first key would stand in the set.
pub fn subtract<K: Key>(run: &[K], sets: &[&[K]]) -> Vec<K> {
    let blocks: Vec<Vec<K>> = run
        .par_chunks(BLOCK_KEYS)
        .map(|block| {
            let mut at: Vec<usize> = sets.iter().map(|s| s.partition_point(|x| *x < block[0])).collect();
            block
                .iter()
                .copied()
                .filter(|key| {
                    let mut held = false;
                    for (set, i) in sets.iter().zip(at.iter_mut()) {
                        while *i < set.len() && set[*i] < *key {
                            *i += 1;
                        }
                        held |= *i < set.len() && set[*i] == *key;
                    }
                    !held
                })
                .collect()
        })
        .collect();
    blocks.concat()
}

/// The level holding `key` among `levels` (each ascending), if any.
pub fn level_of<K: Key>(levels: &[Vec<K>], key: K) -> Option<usize> {
    levels.iter().position(|l| l.binary_search(&key).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search_packed;
    use std::collections::{HashMap, VecDeque};
    use std::ops::ControlFlow;

    /// Pancake flips on 6 pancakes, a permutation packed 4 bits a pancake.
    struct Pancakes(usize);

    impl Pancakes {
        fn unpack(&self, key: u64) -> Vec<u8> {
            (0..self.0).map(|i| (key >> (4 * i) & 15) as u8).collect()
        }
        fn pack(p: &[u8]) -> u64 {
            p.iter().enumerate().map(|(i, &x)| u64::from(x) << (4 * i)).sum()
        }
    }

    impl PackedGraph for Pancakes {
        type Key = u64;
        fn goal_keys(&self) -> Vec<u64> {
            vec![Self::pack(&(0..self.0 as u8).collect::<Vec<_>>())]
        }
        fn degree(&self) -> usize {
            self.0 - 1
        }
        fn predecessors(&self, key: u64, out: &mut [u64]) {
            let p = self.unpack(key);
            for (k, o) in (2..=self.0).zip(out) {
                let mut q = p.clone();
                q[..k].reverse();
                *o = Self::pack(&q);
            }
        }
        fn symmetric(&self) -> bool {
            true
        }
    }

    /// A directed graph: `x -> 2x mod 1009` and `x -> x + 1 mod 1009`, keys the numbers.
    struct Directed;

    impl PackedGraph for Directed {
        type Key = u128;
        fn goal_keys(&self) -> Vec<u128> {
            vec![1]
        }
        fn degree(&self) -> usize {
            2
        }
        fn predecessors(&self, key: u128, out: &mut [u128]) {
            // Predecessors: y with 2y = key (y = key * 505 mod 1009) and key - 1.
            out[0] = key * 505 % 1009;
            out[1] = (key + 1008) % 1009;
        }
        fn symmetric(&self) -> bool {
            false
        }
    }

    /// Levels by a plain queue over a hash map, sharing nothing with the sorted runs.
    fn plain<G: PackedGraph>(g: &G) -> Vec<u64> {
        let mut dist = HashMap::new();
        let mut queue = VecDeque::new();
        for k in g.goal_keys() {
            dist.insert(k, 0usize);
            queue.push_back(k);
        }
        let mut out = vec![G::Key::default(); g.degree()];
        while let Some(k) = queue.pop_front() {
            let d = dist[&k];
            g.predecessors(k, &mut out);
            for &p in &out {
                dist.entry(p).or_insert_with(|| {
                    queue.push_back(p);
                    d + 1
                });
            }
        }
        let mut levels = vec![0; dist.values().max().map_or(0, |m| m + 1)];
        for d in dist.values() {
            levels[*d] += 1;
        }
        levels
    }

    fn options(budget: u128, keep_levels: bool) -> SparseOptions<'static> {
        SparseOptions {
            budget,
            keep_levels,
            stop: None,
        }
    }

    #[test]
    fn agrees_with_a_plain_search() {
        let g = Pancakes(6);
        let d = search_packed(&g, &options(u128::MAX, false), |_| ControlFlow::Continue(()))
            .expect("the test's own values");
        assert_eq!(d.levels, plain(&g));
        assert_eq!(d.levels.iter().sum::<u64>(), 720);
        assert!(d.last.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(d.last.len() as u64, *d.levels.last().expect("the test's own values"));
        let d = search_packed(&Directed, &options(u128::MAX, false), |_| ControlFlow::Continue(()))
            .expect("the test's own values");
        assert_eq!(d.levels, plain(&Directed));
        assert_eq!(d.levels.iter().sum::<u64>(), 1009);
    }

    #[test]
    fn tells_the_observer_each_level_as_the_result_counts_it() {
        let g = Pancakes(6);
        let mut seen = Vec::new();
        let d = search_packed(&g, &options(u128::MAX, false), |level| {
            seen.push((level.depth, level.states, level.classes, level.reached));
            ControlFlow::Continue(())
        })
        .expect("the test's own values");
        let mut reached = 0;
        let want: Vec<_> = (d.levels.iter().zip(&d.classes).enumerate())
            .map(|(depth, (&states, &classes))| {
                reached += states;
                (depth, states, classes, reached)
            })
            .collect();
        assert_eq!(seen, want);
        assert_eq!(reached, 720);
        let e = search_packed(&g, &options(u128::MAX, false), |level| match level.depth {
            2 => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        })
        .expect_err("stopped by its observer");
        assert!(matches!(e, EngineError::Interrupted), "{e:?}");
    }

    #[test]
    fn keeps_levels_when_asked() {
        let g = Pancakes(5);
        let d =
            search_packed(&g, &options(u128::MAX, true), |_| ControlFlow::Continue(())).expect("the test's own values");
        assert_eq!(d.kept.len(), d.levels.len());
        let sizes: Vec<u64> = d.kept.iter().map(|l| l.len() as u64).collect();
        assert_eq!(sizes, d.levels);
        assert_eq!(level_of(&d.kept, g.goal_keys()[0]), Some(0));
    }

    #[test]
    fn refuses_past_its_budget() {
        let e =
            search_packed(&Pancakes(6), &options(1000, false), |_| ControlFlow::Continue(())).expect_err("a refusal");
        assert!(
            matches!(e, EngineError::SparseMemory(OutOfMemory { budget: 1000, .. })),
            "{e:?}"
        );
    }

    #[test]
    fn subtracts_sorted_runs() {
        let run: Vec<u64> = (0..200_000).collect();
        let a: Vec<u64> = (0..200_000).filter(|x| x % 3 == 0).collect();
        let b: Vec<u64> = (0..300_000).filter(|x| x % 5 == 0).collect();
        let want: Vec<u64> = run.iter().copied().filter(|x| x % 3 != 0 && x % 5 != 0).collect();
        assert_eq!(subtract(&run, &[&a, &b]), want);
    }
}
