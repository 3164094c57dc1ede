//! Dial's algorithm over bit sets: least total cost to the goals when moves cost `1..=C`.
//!
//! With every cost at least 1, the configurations at cost `d + 1` all come from
//! configurations at cost `d + 1 - k` for some move cost `k`, so once the bucket of cost
//! `d` is expanded, cost `d + 1` is complete. The search keeps `C + 1` bit sets of pending
//! ranks, bucket `c % (C + 1)` holding ranks found at cost `c`, and one visited set: `C + 2`
//! bits a rank and never a heap of states. Each bucket is expanded in parallel over fixed
//! chunks like a BFS level; a rank may sit in several buckets (found at several costs), and
//! the visited set drops all but the cheapest (and any already settled) when its bucket
//! comes up.

use super::api::{Distances, Level};
use super::bitset::{BATCH, BitSet, WORD_BITS};
use super::counts::LevelCounts;
use super::error::EngineError;
use super::planes::CHUNK_WORDS;
use super::planes::Frontier;
use crate::puzzle::SearchGraph;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Enumerates every configuration reachable from the goals and counts them by least
/// total cost (`levels[c]`: configurations at cost `c`; some costs may have none).
///
/// The contract of [`super::search`] holds with costs for depths: `observe` sees each cost
/// in turn, with `next` the complete set of ranks at the next cost. Move costs must lie
/// in `1..=puzzle.max_move_cost()`. The caller checks that `(C + 2) * states / 8` bytes fit.
pub(super) fn dial<P: SearchGraph>(
    puzzle: &P,
    watch: &[u64],
    stop: Option<&AtomicBool>,
    observe: &mut super::Observer,
) -> Result<Distances, EngineError> {
    let classes = puzzle.class_count();
    let span = puzzle.max_move_cost().max(1) as usize + 1;
    let (buckets, visited) = seeded(puzzle, span)?;
    let mut found = Distances {
        levels: Vec::new(),
        classes: Vec::new(),
        earlier_millis: Vec::new(),
        reached_by_class: vec![0; classes],
        antipodes: Vec::new(),
        watched: watch.iter().map(|&r| visited.contains(r).then_some(0)).collect(),
    };
    let mut depth = 0;
    loop {
        let tally = buckets[depth % span]
            .words()
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map(|(i, chunk)| match stop.is_some_and(|s| s.load(Relaxed)) {
                true => LevelCounts::new(classes),
                false => expand(puzzle, chunk, i * CHUNK_WORDS, depth, &buckets, &visited, classes),
            })
            .reduce(|| LevelCounts::new(classes), LevelCounts::merge);
        if stop.is_some_and(|s| s.load(Relaxed)) {
            return Err(EngineError::Interrupted);
        }
        if tally.escapes > 0 {
            return Err(EngineError::InvariantViolated {
                from: tally.escape_from,
                count: tally.escapes,
            });
        }
        let next = &buckets[(depth + 1) % span];
        let discovered = settle(next, &visited);
        for (total, add) in found.reached_by_class.iter_mut().zip(&tally.by_class) {
            *total += add;
        }
        found.levels.push(tally.states);
        found.classes.push(tally.classes);
        for (distance, &rank) in found.watched.iter_mut().zip(watch) {
            if distance.is_none() && next.contains(rank) {
                *distance = Some(depth + 1);
            }
        }
        let flow = observe(&Level {
            depth,
            states: tally.states,
            classes: tally.classes,
            reached: found.levels.iter().sum(),
            sent: 0,
            generated: 0,
            read: 0,
            written: 0,
            next: Frontier::of_bits(next),
        });
        if flow.is_break() {
            return Err(EngineError::Interrupted);
        }
        // Nothing at the next cost: the search is over unless a dearer bucket still holds
        // a rank that no cheaper path has settled.
        if discovered == 0 && buckets.iter().all(|b| prune(b, &visited) == 0) {
            found.antipodes = tally.examples;
            return Ok(found);
        }
        depth += 1;
    }
}

/// The buckets (one a cost up to the dearest move, and one more) and the visited set,
/// the goals at cost 0.
fn seeded<P: SearchGraph>(puzzle: &P, span: usize) -> Result<(Vec<BitSet>, BitSet), EngineError> {
    let states = puzzle.states();
    let buckets = (0..span)
        .map(|_| BitSet::try_new(states))
        .collect::<Result<Vec<_>, _>>()?;
    let visited = BitSet::try_new(states)?;
    for goal in puzzle.goals() {
        if goal >= states {
            return Err(EngineError::BadGoal(goal));
        }
        visited.insert(goal);
        buckets[0].insert(goal);
    }
    Ok((buckets, visited))
}

/// Counts and clears the ranks of one chunk of the bucket at cost `depth` (words from
/// `first`), and adds each predecessor not yet visited to the bucket of its total cost.
/// The visited set only changes between buckets, so it can be read here; most
/// predecessors are already settled or already pending at their cost, and a look-up
/// costs less than the locked write that would add them again (measured: a fifth of
/// the weighted search's time went to such writes).
fn expand<P: SearchGraph>(
    puzzle: &P,
    chunk: &[AtomicU64],
    first: usize,
    depth: usize,
    buckets: &[BitSet],
    visited: &BitSet,
    classes: usize,
) -> LevelCounts {
    let (states, uniform) = (puzzle.states(), puzzle.uniform());
    let mut tally = LevelCounts::new(classes);
    let mut memo = P::Memo::default();
    let mut batch: Vec<(u64, u32)> = Vec::with_capacity(BATCH + 64);
    // The words of the bucket of each move cost, found once (not a division per rank).
    let targets: Vec<&[AtomicU64]> = (0..buckets.len())
        .map(|cost| buckets[(depth + cost) % buckets.len()].words())
        .collect();
    let seen = visited.words();
    let place = |pred: u64| ((pred / WORD_BITS) as usize, 1 << (pred % WORD_BITS));
    // The look-ups of a batch first, then its writes, as in the BFS: the look-ups are
    // mostly cache misses that overlap when issued back to back, and a locked write
    // between two of them (a full barrier on x86) would make each wait for the last.
    // They keep the unvisited ranks without a branch, whether a rank is new being a coin
    // toss; the writes then skip ranks their bucket already holds (a plain load, the
    // line being one the look-ups did not touch).
    let flush = |batch: &mut Vec<(u64, u32)>| {
        let mut kept = 0;
        for i in 0..batch.len() {
            let (pred, cost) = batch[i];
            debug_assert!(cost >= 1 && (cost as usize) < targets.len(), "move cost {cost}");
            let (w, bit) = place(pred);
            let known = seen[w].load(Relaxed) & bit;
            batch[kept] = (pred, cost);
            kept += usize::from(known == 0);
        }
        for &(pred, cost) in &batch[..kept] {
            let (w, bit) = place(pred);
            let target = &targets[cost as usize][w];
            if target.load(Relaxed) & bit == 0 {
                target.fetch_or(bit, Relaxed);
            }
        }
        batch.clear();
    };
    for (w, cell) in (first..).zip(chunk) {
        let mut word = cell.load(Relaxed);
        if word == 0 {
            continue;
        }
        cell.store(0, Relaxed);
        tally.count(puzzle, uniform, w as u64 * WORD_BITS, word);
        while word != 0 {
            let rank = w as u64 * WORD_BITS + u64::from(word.trailing_zeros());
            word &= word - 1;
            puzzle.for_each_weighted_predecessor(&mut memo, rank, |pred, cost| {
                if pred < states {
                    batch.push((pred, cost));
                } else {
                    tally.escapes += 1;
                    tally.escape_from.get_or_insert(rank);
                }
            });
            if batch.len() >= BATCH {
                flush(&mut batch);
            }
        }
    }
    flush(&mut batch);
    tally
}

/// Keeps in `next` only the ranks not yet visited, marks them visited, and counts them.
fn settle(next: &BitSet, visited: &BitSet) -> u64 {
    sweep(next, visited, |n, s, bits| {
        let old = s.load(Relaxed);
        let new = bits & !old;
        n.store(new, Relaxed);
        s.store(old | new, Relaxed);
        new
    })
}

/// Drops the visited ranks from a pending bucket; counts those left.
fn prune(bucket: &BitSet, visited: &BitSet) -> u64 {
    sweep(bucket, visited, |p, s, bits| {
        let left = bits & !s.load(Relaxed);
        p.store(left, Relaxed);
        left
    })
}

/// Calls `keep(word, seen, bits)` in parallel on each word of `set` that is not empty (its
/// `bits`) with the same word of `visited`; counts the ranks it returns.
fn sweep(set: &BitSet, visited: &BitSet, keep: impl Fn(&AtomicU64, &AtomicU64, u64) -> u64 + Sync) -> u64 {
    set.words()
        .par_chunks(CHUNK_WORDS)
        .zip(visited.words().par_chunks(CHUNK_WORDS))
        .map(|(words, seen)| {
            let mut count = 0;
            for (w, s) in words.iter().zip(seen) {
                let bits = w.load(Relaxed);
                if bits != 0 {
                    count += u64::from(keep(w, s, bits).count_ones());
                }
            }
            count
        })
        .sum()
}
